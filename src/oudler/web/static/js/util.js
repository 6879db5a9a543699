// Small DOM helpers shared by the page's modules.

import { mySeat } from "./friends.js";
import { t } from "./i18n.js";

// el("button", {class: "x", onclick: f, disabled: true}, "text", child...)
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else if (value === true) node.setAttribute(key, "");
    else node.setAttribute(key, String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

export function seatName(seat, withYou = false) {
  if (seat === null || seat === undefined) return "";
  const name = t(`seat.${seat}`);
  return withYou && seat === mySeat() ? t("seat.withYou", { name }) : name;
}

// At a table with friends, who sits at each seat in words (set with each view drawn; null at a
// table for one, where seats go by their names alone as they always have).
let tableNames = null;

export function setTableNames(names) {
  tableNames = names;
}

// A seat in the breakdown, the score sheet, the review and the analysis: at a table with friends
// who sits there and where ("Léa (East)"), the person's own seat by their name if they gave one.
export function seatLabel(seat, withYou = false) {
  if (seat === null || seat === undefined) return "";
  const name = tableNames && tableNames[seat];
  if (!name) return seatName(seat, withYou);
  const label = t("seat.named", { name, seat: seatName(seat) });
  return withYou && seat === mySeat() ? t("seat.withYou", { name: label }) : label;
}

// Who made an action (a call, a contract, a poignée shown), from the view's `by`: a seat may have
// changed hands since. Whoever sits there now goes as seatLabel says it; a person who has left by
// the name they had; a computer player that acted for a person out of time as such.
export function makerLabel(seat, who) {
  if (!who || who.now) return seatLabel(seat);
  const name = who.kind === "stand_in" ? t("friends.computer") : who.former ? t("friends.former") : who.name || t("friends.person");
  return t("seat.named", { name, seat: seatName(seat) });
}

// Deals as a person counts them: void deals (all passed, petit sec) are dealt again and do not
// count, so the scored deals are numbered 1, 2, 3... and a void one is named as such. The server's
// deal_number (every deal dealt) stays the deal's id for the API (replay_of).
export function scoredBefore(sheet, dealNumber) {
  return (sheet || []).filter((row) => !row.void && row.deal < dealNumber).length;
}

export function dealOrdinal(v) {
  return Math.min(scoredBefore(v.sheet, v.deal_number) + 1, Math.max(v.length, 1));
}

export function voidDeals(v) {
  return (v.sheet || []).filter((row) => row.void).length;
}

export function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

// A score with its sign, the minus as a true minus sign: +70, −70, 0.
export const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0");
