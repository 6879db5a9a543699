// The "link a device" page (/link#<token>; docs/accounts.md, "Link a device"). Opening it signs
// nothing in: a link preview or a scanner may fetch it. Only the button POSTs the token (under
// the server's Origin check), and the token is after "#", so it never reaches a server log.

import { request as call } from "./api.js";
import { errorText } from "./account.js";
import { pickLanguage, setLanguage, t } from "./i18n.js";
import { el } from "./util.js";

const token = decodeURIComponent(location.hash.replace(/^#/, ""));
const root = document.getElementById("link");

function draw(error) {
  const button = el("button", { type: "button", class: "primary", "data-action": "link-confirm", onclick: confirm }, t("account.linkConfirm"));
  root.replaceChildren(
    el("h1", {}, t("account.linkPageTitle")),
    el("p", {}, t("account.linkPageLead")),
    error ? el("p", { class: "notice account-error", role: "alert", "data-role": "account-error" }, errorText(error)) : button,
    el("p", {}, el("a", { href: "/", "data-action": "home" }, t("account.linkHome"))),
  );
}

async function confirm(event) {
  event.target.disabled = true;
  try {
    await call("POST", "/api/link", { token });
    // Spent: out of the address bar and the history, then the tables as the person.
    history.replaceState(null, "", "/link");
    location.href = "/";
  } catch (e) {
    history.replaceState(null, "", "/link");
    draw(e);
  }
}

setLanguage(pickLanguage(), false);
draw(token ? null : { body: { code: "link_unknown" } });
