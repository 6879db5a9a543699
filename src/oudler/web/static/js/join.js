// The invitation page (/join/<token>): the table, the seat and who is there, one button to sit.

import { ApiError, parseJson } from "./api.js";
import { seatKind } from "./friends.js";
import { pickLanguage, setLanguage, t } from "./i18n.js";
import { el, seatName } from "./util.js";

const token = decodeURIComponent(location.pathname.replace(/^\/join\//, ""));
const path = `/api/join/${encodeURIComponent(token)}`;
const root = document.getElementById("join");

async function call(method) {
  const response = await fetch(path, { method, credentials: "same-origin", headers: { Accept: "application/json" } });
  const body = parseJson(await response.text());
  if (!response.ok) throw new ApiError(response.status, body);
  return body;
}

function message(key) {
  root.replaceChildren(
    el("h1", {}, t("friends.title")),
    el("p", { class: "notice", "data-role": "join-message" }, t(key)),
    el("p", {}, el("a", { href: "/" }, t("friends.home"))),
  );
}

function show(info) {
  const seats = el("ul", { class: "join-seats", "data-role": "join-seats" });
  for (const s of info.seats) {
    seats.append(el("li", { "data-seat": s.seat, "data-kind": s.kind }, `${seatName(s.seat)}: ${t(seatKind(s))}`));
  }
  const button = info.yours
    ? el("a", { class: "primary", href: `/#/match/${info.match}`, "data-action": "go" }, t("friends.go"))
    : el("button", { type: "button", class: "primary", "data-action": "sit", onclick: sit }, t("friends.sit", { seat: seatName(info.seat) }));
  root.replaceChildren(
    el("h1", {}, t("friends.title")),
    el("p", {}, t("friends.table", { deals: info.length, level: t(`level.${info.level}`) })),
    el("p", {}, t("friends.seat", { seat: seatName(info.seat) })),
    el("h2", {}, t("friends.who")),
    seats,
    info.open || info.yours ? button : el("p", { class: "notice", "data-role": "join-message" }, t("friends.taken")),
  );
}

async function sit() {
  try {
    const view = await call("POST");
    location.href = `/#/match/${view.id}`;
  } catch (e) {
    const code = e.body && e.body.code;
    message(code === "seat_taken" ? "friends.taken" : code === "already_seated" ? "friends.already" : code === "no_such_invite" ? "friends.invalid" : "friends.error");
  }
}

async function start() {
  setLanguage(pickLanguage(), false);
  try {
    show(await call("GET"));
  } catch (e) {
    message(e.status === 404 ? "friends.invalid" : "friends.error");
  }
}

start();
