// The invitation page (/join/<token>): the table, the seat and who is there, one button to sit.

import { ApiError, parseJson } from "./api.js";
import { seatWords } from "./friends.js";
import { pickLanguage, setLanguage, t } from "./i18n.js";
import "./turns.js"; // the words of the turn times
import "./account.js"; // the words of signing in (its menu is not on this page)
import { el, seatName } from "./util.js";

const token = decodeURIComponent(location.pathname.replace(/^\/join\//, ""));
const path = `/api/join/${encodeURIComponent(token)}`;
const root = document.getElementById("join");

async function send(method, where, payload) {
  const headers = { Accept: "application/json" };
  if (payload !== undefined) headers["Content-Type"] = "application/json";
  const body = payload === undefined ? undefined : JSON.stringify(payload);
  const response = await fetch(where, { method, credentials: "same-origin", headers, body });
  const answer = parseJson(await response.text());
  if (!response.ok) throw new ApiError(response.status, answer);
  return answer;
}

const call = (method) => send(method, path);

function message(key) {
  root.replaceChildren(
    el("h1", {}, t("friends.title")),
    el("p", { class: "notice", "data-role": "join-message" }, t(key)),
    el("p", {}, el("a", { href: "/" }, t("friends.home"))),
  );
}

// The table as the invited person will see it: their seat at the bottom, the others turned with
// it (as friends.js draws the table), each with who sits there.
const PLACES = ["south", "east", "north", "west"];
function tableOf(info) {
  const box = el("div", { class: "join-table", "data-role": "join-table" });
  for (const s of info.seats) {
    const mine = s.seat === info.seat;
    const who = mine && !info.yours ? t("friends.yourSeat") : seatWords(s);
    box.append(
      el("div", { class: `join-seat seat-${PLACES[(s.seat - info.seat + 4) % 4]}${mine ? " invited" : ""}`, "data-seat": s.seat, "data-kind": s.kind },
        el("span", { class: "dir" }, seatName(s.seat)), el("span", { class: "who" }, who)),
    );
  }
  box.append(el("div", { class: "join-center", "aria-hidden": "true" }, el("span", { class: "brand-mark" }, "21")));
  return box;
}

function turnLine(info) {
  const time = { 30: "turn.s30", 60: "turn.s60", 120: "turn.s120" }[info.turn_time];
  return time ? t("friends.turnTime", { time: t(time) }) : t("friends.noTurnTime");
}

function show(info) {
  const seats = el("ul", { class: "join-seats", "data-role": "join-seats" });
  for (const s of info.seats) {
    seats.append(el("li", { "data-seat": s.seat, "data-kind": s.kind }, t("friends.seatLine", { seat: seatName(s.seat), who: seatWords(s) })));
  }
  const button = info.yours
    ? el("a", { class: "primary", href: `/#/match/${info.match}`, "data-action": "go" }, t("friends.go"))
    : el("button", { type: "button", class: "primary", "data-action": "sit", onclick: sit }, t("friends.sit", { seat: seatName(info.seat) }));
  const name = el("input", { type: "text", maxlength: 24, "data-role": "name-input", value: myName || "", autocomplete: "nickname" });
  nameInput = name;
  if (info.open && info.reserved && !info.reserved_for_you) {
    // Kept for an account this browser is not signed in to: say for whom, and offer to sign in.
    root.replaceChildren(
      el("h1", {}, t("friends.title")),
      el("p", { class: "notice", "data-role": "join-message", "data-code": "seat_reserved" }, t("friends.reservedLink", { seat: seatName(info.seat), name: info.reserved })),
      signInForm(info.reserved),
      el("h2", {}, t("friends.who")),
      seats,
      el("p", {}, el("a", { href: "/", "data-action": "home" }, t("friends.home"))),
    );
    return;
  }
  if (!info.open && !info.yours) {
    // Someone else sits at this link's seat: not "your seat", and a way home.
    root.replaceChildren(
      el("h1", {}, t("friends.title")),
      el("p", { class: "notice", "data-role": "join-message" }, t("friends.takenLink", { seat: seatName(info.seat) })),
      el("h2", {}, t("friends.who")),
      seats,
      el("p", {}, el("a", { href: "/", "data-action": "home" }, t("friends.home"))),
    );
    return;
  }
  root.replaceChildren(
    el("h1", {}, t("friends.title")),
    el("p", {}, t("friends.table", { deals: info.length, level: t(`level.${info.level}`) })),
    el("p", { "data-role": "join-turn" }, turnLine(info)),
    // Signed in, the name at the table is the account's: nothing to choose here.
    info.open && !account ? el("p", {}, el("label", {}, t("friends.name"), " ", name)) : "",
    el("p", {}, t("friends.seat", { seat: seatName(info.seat) })),
    el("h2", {}, t("friends.who")),
    tableOf(info),
    seats,
    button,
  );
}

let myName = null;
let nameInput = null;
let account = null;

// Sign in as the account a seat is kept for, then show the invitation again (now for them).
function signInForm(name) {
  const who = el("input", { type: "text", name: "name", value: name, maxlength: 24, autocomplete: "username", "data-role": "sign-in-name", required: true });
  const password = el("input", { type: "password", name: "password", maxlength: 256, autocomplete: "current-password", "data-role": "sign-in-password", required: true });
  const error = el("p", { class: "notice", role: "alert", "data-role": "sign-in-error", hidden: true });
  const box = el("form", { class: "account-form", "data-role": "join-sign-in" },
    el("label", {}, t("account.name"), " ", who), " ",
    el("label", {}, t("friends.password"), " ", password), " ",
    el("button", { type: "submit", class: "primary", "data-action": "sign-in-sit" }, t("friends.signInSit")),
    error);
  box.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      await send("POST", "/api/session", { name: who.value, password: password.value });
      await start();
    } catch (e) {
      const code = e.body && e.body.code;
      error.textContent = t(code === "too_many_attempts" ? "account.error.too_many_attempts" : code === "bad_credentials" ? "account.error.bad_credentials" : "friends.error", { minutes: 10 });
      error.hidden = false;
    }
  });
  return box;
}

async function sit() {
  try {
    const wanted = nameInput && !account ? nameInput.value.trim() : "";
    if (wanted && wanted !== myName) await send("POST", "/api/me", { name: wanted });
    const view = await call("POST");
    location.href = `/#/match/${view.id}`;
  } catch (e) {
    const code = e.body && e.body.code;
    if (code === "seat_reserved") return start(); // kept for an account: say for whom
    message(code === "seat_taken" ? "friends.taken" : code === "already_seated" ? "friends.already" : code === "no_such_invite" ? "friends.invalid" : "friends.error");
  }
}

async function start() {
  setLanguage(pickLanguage(), false);
  try {
    const me = await send("GET", "/api/me");
    myName = me.name;
    account = me.account;
    show(await call("GET"));
  } catch (e) {
    message(e.status === 404 ? "friends.invalid" : "friends.error");
  }
}

start();
