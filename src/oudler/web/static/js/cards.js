// Cards as the page draws them: names as in spec/notation.md ("T21", "EX", "HK"), sorted for the
// hand and drawn with inline SVG (no outside images).

import { t } from "./i18n.js";

const RANKS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "C", "Q", "K"];
const RED = new Set(["H", "D"]);

export function parseCard(name) {
  if (name === "EX") return { kind: "excuse", order: 21 };
  if (name[0] === "T") {
    const n = Number(name.slice(1));
    return { kind: "trump", n, order: n - 1 };
  }
  const suit = name[0];
  const rank = name.slice(1);
  const r = RANKS.indexOf(rank) + 1;
  return { kind: "suit", suit, rank, r, red: RED.has(suit), order: 22 + 14 * "SHDC".indexOf(suit) + r - 1 };
}

export function isOudler(name) {
  return name === "T1" || name === "T21" || name === "EX";
}

// Display order of a hand: trumps 1→21 as a block with the Excuse, then the suits the hand holds,
// arranged so that black and red alternate wherever the hand allows it.
export function sortHand(names) {
  const present = new Set(names.map((n) => parseCard(n)).filter((c) => c.kind === "suit").map((c) => c.suit));
  const blacks = ["S", "C"].filter((s) => present.has(s));
  const reds = ["H", "D"].filter((s) => present.has(s));
  const [first, second] = blacks.length >= reds.length ? [blacks, reds] : [reds, blacks];
  const suitOrder = [];
  for (let i = 0; i < first.length || i < second.length; i++) {
    if (i < first.length) suitOrder.push(first[i]);
    if (i < second.length) suitOrder.push(second[i]);
  }
  const key = (name) => {
    const c = parseCard(name);
    if (c.kind !== "suit") return c.order;
    return 100 + suitOrder.indexOf(c.suit) * 20 + c.r;
  };
  return [...names].sort((a, b) => key(a) - key(b));
}

// Plain words for a card in the page's language, for labels and screen readers.
export function cardLabel(name) {
  const c = parseCard(name);
  if (c.kind === "excuse") return t("card.excuse");
  if (c.kind === "trump") return t("card.trump", { n: c.n });
  const rank = /^\d+$/.test(c.rank) ? c.rank : t(`rank.${c.rank}`);
  return t("card.suit", { rank, suit: t(`suit.${c.suit}`) });
}

function rankText(c) {
  return /^\d+$/.test(c.rank) ? c.rank : t(`rankShort.${c.rank}`);
}

// Suit symbols drawn on a 100x100 box.
const SUIT_SHAPES = {
  H: '<path d="M50 90 C22 66 4 48 4 30 A23 23 0 0 1 50 20 A23 23 0 0 1 96 30 C96 48 78 66 50 90 Z"/>',
  D: '<path d="M50 3 L86 50 L50 97 L14 50 Z"/>',
  S: '<path d="M50 4 C76 30 96 44 96 62 A20 20 0 0 1 57 71 L65 95 L35 95 L43 71 A20 20 0 0 1 4 62 C4 44 24 30 50 4 Z"/>',
  C:
    '<circle cx="50" cy="27" r="20"/><circle cx="26" cy="59" r="20"/><circle cx="74" cy="59" r="20"/>' +
    '<path d="M45 45 L55 45 L64 95 L36 95 Z"/>',
};
const STAR = "M50 5 L61 38 L96 38 L68 59 L79 93 L50 72 L21 93 L32 59 L4 38 L39 38 Z";

export function suitSvg(suit, cls = "pip") {
  return `<svg class="${cls}" viewBox="0 0 100 100" aria-hidden="true">${SUIT_SHAPES[suit]}</svg>`;
}

function starSvg(cls) {
  return `<svg class="${cls}" viewBox="0 0 100 100" aria-hidden="true"><path d="${STAR}"/></svg>`;
}

// The face of a card (inner HTML); the element around it is chosen by the caller.
function faceHtml(name) {
  const c = parseCard(name);
  if (c.kind === "excuse") {
    // The name also runs down the corner strip, the part a fanned hand leaves in view.
    const word = t("card.excuseFace");
    return `<span class="idx">${starSvg("idx-star")}<span class="idx-word">${word}</span></span>${starSvg("big-star")}<span class="ex-label">${word}</span>`;
  }
  if (c.kind === "trump") {
    const mark = isOudler(name) ? starSvg("oudler-star") : "";
    return `<span class="idx trump-num">${c.n}</span><span class="big-num">${c.n}</span>${mark}<span class="idx idx-rot trump-num">${c.n}</span>`;
  }
  const face = /^\d+$/.test(c.rank) ? suitSvg(c.suit, "big-pip") : `<span class="big-face">${rankText(c)}</span>${suitSvg(c.suit, "face-pip")}`;
  const idx = `<span class="idx-rank">${rankText(c)}</span>${suitSvg(c.suit, "idx-pip")}`;
  return `<span class="idx">${idx}</span>${face}<span class="idx idx-rot">${idx}</span>`;
}

function classesOf(name) {
  const c = parseCard(name);
  const cls = ["card"];
  if (c.kind === "trump") cls.push("trump");
  if (c.kind === "excuse") cls.push("excuse");
  if (c.kind === "suit") cls.push(`suit-${c.suit}`, c.red ? "red" : "black");
  if (c.kind === "suit" && !/^\d+$/.test(c.rank)) cls.push("face");
  if (isOudler(name)) cls.push("oudler");
  return cls;
}

// A card that is only shown (trick, dog, review).
export function cardView(name, extra = []) {
  const el = document.createElement("span");
  el.className = [...classesOf(name), ...extra].join(" ");
  el.dataset.show = name;
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", cardLabel(name));
  el.title = cardLabel(name);
  el.innerHTML = faceHtml(name);
  return el;
}

// A card of the person's hand: a button carrying the stable test hook data-card.
export function cardButton(name) {
  const el = document.createElement("button");
  el.type = "button";
  el.className = classesOf(name).join(" ");
  el.dataset.card = name;
  el.setAttribute("aria-label", cardLabel(name));
  el.innerHTML = faceHtml(name);
  return el;
}

export function cardBack(extra = []) {
  const el = document.createElement("span");
  el.className = ["card", "back", ...extra].join(" ");
  el.setAttribute("aria-hidden", "true");
  return el;
}

// A row of shown cards.
export function cardRow(names, extra = []) {
  const row = document.createElement("span");
  row.className = "card-row";
  for (const n of names) row.append(cardView(n, extra));
  return row;
}
