// A short guide through a first deal, for someone who has never played: what the bid means, the
// dog, following and trumping, why a card is refused, the trick, the score. Each step shows once,
// when the table reaches it, in a box under the table that never blocks play; it can be skipped
// at any time and opened again from the top bar. On by default until skipped or finished.

import { t } from "./i18n.js";
import { el } from "./util.js";

const STORE = "oudler.tour";
const SEEN = "oudler.tourSeen";
export const STEPS = ["bid", "dog", "discard", "play", "refused", "trick", "end"];

let refusedOnce = false;

export function tourOn() {
  return localStorage.getItem(STORE) !== "off";
}

function seen() {
  try {
    return new Set(JSON.parse(localStorage.getItem(SEEN) || "[]"));
  } catch (e) {
    return new Set();
  }
}

function markSeen(step) {
  const all = seen();
  all.add(step);
  localStorage.setItem(SEEN, JSON.stringify([...all]));
  if (STEPS.every((s) => all.has(s))) localStorage.setItem(STORE, "off");
}

export function skipTour() {
  localStorage.setItem(STORE, "off");
}

export function restartTour() {
  localStorage.setItem(STORE, "on");
  localStorage.removeItem(SEEN);
  refusedOnce = false;
}

// The person clicked a card the rules refuse: the next drawing explains why.
export function noteRefused() {
  refusedOnce = true;
}

// The steps the table is at now, in order.
function stepsNow(v) {
  const o = v.observation;
  const mine = v.status === "your_turn";
  const now = [];
  if (v.status === "deal_over" || v.status === "match_over") now.push("end");
  if (mine && o.phase === "bidding") now.push("bid");
  if (o.dog && o.dog.length && o.phase !== "bidding" && o.phase !== "done") now.push("dog");
  if (mine && o.phase === "discard") now.push("discard");
  if (mine && o.phase === "play") now.push("play");
  if (refusedOnce) now.push("refused");
  if (o.tricks.length >= 1 && o.phase !== "done") now.push("trick");
  return now;
}

// Draws the guide's box for view `v` (or hides it); `redraw` draws the table again.
export function renderTour(box, v, redraw) {
  const done = seen();
  const step = v && tourOn() ? stepsNow(v).find((s) => !done.has(s)) : undefined;
  if (!step) {
    box.hidden = true;
    box.replaceChildren();
    delete box.dataset.step;
    return;
  }
  box.hidden = false;
  box.dataset.step = step;
  const n = STEPS.indexOf(step) + 1;
  box.replaceChildren(
    el("div", { class: "tour-head" }, el("strong", {}, t(`tour.${step}.title`)), el("span", { class: "muted" }, t("tour.count", { n, total: STEPS.length }))),
    el("p", {}, t(`tour.${step}.text`)),
    el(
      "div",
      { class: "buttons" },
      el("button", { type: "button", class: "primary", "data-action": "tour-next", onclick: () => (markSeen(step), redraw()) }, t("tour.next")),
      el("button", { type: "button", "data-action": "tour-skip", onclick: () => (skipTour(), redraw()) }, t("tour.skip")),
    ),
  );
}
