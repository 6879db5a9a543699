// The server explains refusals in the engine's plain English ("you must overtrump: T15 beats T14").
// Each known sentence is read here into an i18n key and its cards, and said again in the page's
// language, in words ("trump 15 beats trump 14"), as a capitalised sentence. Anything unknown is
// shown as the server wrote it, with card codes put into words.

import { cardLabel } from "./cards.js";
import { t, tn } from "./i18n.js";

const SUIT = { spades: "S", hearts: "H", diamonds: "D", clubs: "C" };
const RANK = { king: "K", queen: "Q", cavalier: "C", jack: "J" };

// "the king of hearts", "the 7 of clubs", "T14", "the Petit", "the Excuse" -> a card name, or null.
function cardOf(words) {
  const m = /^the (\w+) of (\w+)$/.exec(words);
  if (m && SUIT[m[2]]) return SUIT[m[2]] + (RANK[m[1]] ?? m[1]);
  if (/^T\d+$/.test(words)) return words;
  if (words === "the Petit") return "T1";
  if (words === "the Excuse") return "EX";
  return null;
}

// [pattern, key, params from the match]; a param named card* is a card to put into words.
const RULES = [
  [/^you do not hold (.+)$/, "reason.notHeld", (m) => ({ card: m[1] })],
  [/^you must follow (\w+): you may not trump while you hold \w+$/, "reason.followNoTrump", (m) => ({ suit: m[1] })],
  [/^you must follow (\w+)$/, "reason.follow", (m) => ({ suit: m[1] })],
  [/^trumps were led: you must play a trump$/, "reason.trumpLed", () => ({})],
  [/^you have no (\w+), so you must play a trump$/, "reason.mustTrump", (m) => ({ suit: m[1] })],
  [/^you must overtrump: (T\d+) beats (T\d+)$/, "reason.overtrump", (m) => ({ card: m[1], card2: m[2] })],
  [/^it is not your turn to play a card$/, "reason.notTurn", () => ({})],
  [/^a King may not be discarded \((.+)\)$/, "reason.discardKing", (m) => ({ card: m[1] })],
  [/^an oudler may not be discarded \((.+)\)$/, "reason.discardOudler", (m) => ({ card: m[1] })],
  [/^a trump may be discarded only when there are not six other cards to discard$/, "reason.discardTrump", () => ({})],
  [/^you may discard only (\d+) trump\(s\): discard every other card you can first$/, "reason.discardFewTrumps", (m) => ({ n: m[1] })],
  [/^the discard is exactly 6 cards, not (\d+)$/, "reason.discardSix", (m) => ({ n: m[1] })],
  [/^a poignée shows exactly 10, 13 or 15 trumps, not (\d+)$/, "reason.poigneeSize", (m) => ({ n: m[1] })],
  [/^the Excuse may be shown only if you hide no trump: show a trump instead$/, "reason.poigneeExcuse", () => ({})],
  [/^this card may not be discarded$/, "reason.discardOther", () => ({})],
];

export function capitalise(text) {
  const s = String(text);
  return s ? s[0].toLocaleUpperCase() + s.slice(1) : s;
}

// Read an engine sentence: {key, params} with cards as card names, or null when unknown.
export function parseReason(text) {
  if (typeof text !== "string") return null;
  for (const [re, key, params] of RULES) {
    const m = re.exec(text);
    if (!m) continue;
    const p = params(m);
    for (const [k, value] of Object.entries(p)) {
      if (k.startsWith("card")) {
        const name = cardOf(value);
        if (!name) return null;
        p[k] = name;
      }
      if (k === "suit") p[k] = SUIT[value];
    }
    return { key, params: p };
  }
  return null;
}

function say(parsed) {
  const words = {};
  for (const [k, value] of Object.entries(parsed.params)) {
    words[k] = k.startsWith("card") ? cardLabel(value) : k === "suit" ? t(`suit.${value}`) : value;
  }
  // A reason about n cards says it in the plural form n takes (tn uses a key without forms as is).
  return capitalise("n" in words ? tn(parsed.key, words.n, words) : t(parsed.key, words));
}

// The reason in the page's language, as a sentence.
export function translateReason(text) {
  if (typeof text !== "string") return text;
  const parsed = parseReason(text);
  if (parsed) return say(parsed);
  return capitalise(text.replace(/\bT(\d{1,2})\b/g, (m, n) => cardLabel(`T${n}`)));
}

// Why a card is refused, for the prompt: "King of clubs: a king may never be discarded.", the card
// named once (the engine's reason names it again in brackets).
export function reasonLine(card, text) {
  return t("reason.line", { card: capitalise(cardLabel(card)), reason: translateReason(text) });
}
