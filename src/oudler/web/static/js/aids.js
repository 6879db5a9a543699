// Table aids, each a switch kept in the browser: the card points each side has won so far, the
// cards already played by suit (the count a good player keeps in mind), and the trumps still out.
// All three are computed from the person's own observation only: the tricks everyone saw, the
// person's hand, and the trumps shown in a discard; never from a hidden card.

import { cardLabel, parseCard } from "./cards.js";
import { t } from "./i18n.js";
import { el, seatName } from "./util.js";

export const AIDS = ["points", "played", "trumps"];
const store = (aid) => `oudler.aid.${aid}`;

export function aidOn(aid) {
  return localStorage.getItem(store(aid)) === "1";
}

function setAid(aid, on) {
  localStorage.setItem(store(aid), on ? "1" : "0");
}

// A card's value in half points (RULES.md §2): oudlers and kings 9, queens 7, cavaliers 5, jacks 3.
export function halfPoints(name) {
  if (name === "T1" || name === "T21" || name === "EX") return 9;
  const c = parseCard(name);
  if (c.kind !== "suit") return 1;
  return { K: 9, Q: 7, C: 5, J: 3 }[c.rank] ?? 1;
}

// Half points won by each side in the finished tricks. The Excuse stays with the side that played
// it, which gives the trick's winners a half-point card in exchange; in the last trick it goes
// with the trick (RULES.md §8).
export function pointsWon(o) {
  const side = (seat) => (seat === o.declarer ? "declarer" : "defence");
  const won = { declarer: 0, defence: 0 };
  o.tricks.forEach((tr, i) => {
    const taker = side(tr.winner);
    tr.cards.forEach((card, k) => {
      if (card !== "EX" || i === 17) {
        won[taker] += halfPoints(card);
        return;
      }
      const owner = side((tr.leader + k) % 4);
      won[owner] += 9;
      if (owner !== taker) {
        won[owner] -= 1;
        won[taker] += 1;
      }
    });
  });
  return won;
}

const half = (h) => (h % 2 ? `${(h - 1) / 2}.5` : String(h / 2));

// Every card played so far, in the tricks and in the trick on the table.
export function playedCards(o) {
  const out = [];
  for (const tr of o.tricks) out.push(...tr.cards);
  if (o.trick) out.push(...o.trick.cards);
  return out;
}

// Trumps not yet played, not in the person's hand and not shown in a discard: held by the others
// (or, unseen, in a discard or a dog).
export function trumpsOut(o) {
  const gone = new Set([...playedCards(o), ...o.hand, ...(o.discard || []), ...(o.discard_trumps || [])]);
  const out = [];
  for (let n = 21; n >= 1; n--) if (!gone.has(`T${n}`)) out.push(`T${n}`);
  return out;
}

const SUITS = ["S", "H", "D", "C"];
const RANK_ORDER = ["K", "Q", "C", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2", "1"];

function rankWord(rank) {
  return /^\d+$/.test(rank) ? rank : t(`rankShort.${rank}`);
}

function playedBySuit(o) {
  const played = playedCards(o);
  const rows = SUITS.map((suit) => {
    const ranks = played.filter((c) => c[0] === suit).map((c) => c.slice(1));
    ranks.sort((a, b) => RANK_ORDER.indexOf(a) - RANK_ORDER.indexOf(b));
    return el(
      "li",
      { "data-suit": suit, "data-count": String(ranks.length) },
      el("span", { class: `suit-name suit-${suit}` }, t(`suit.${suit}`)),
      t("aids.count", { n: ranks.length, total: 14 }),
      el("span", { class: "ranks" }, ranks.map(rankWord).join(" ") || "–"),
    );
  });
  const trumps = played.filter((c) => c[0] === "T").map((c) => Number(c.slice(1))).sort((a, b) => b - a);
  rows.push(
    el(
      "li",
      { "data-suit": "T", "data-count": String(trumps.length) },
      el("span", { class: "suit-name" }, t("aids.trumpRow")),
      t("aids.count", { n: trumps.length, total: 21 }),
      el("span", { class: "ranks" }, trumps.join(" ") || "–"),
      played.includes("EX") ? el("span", { class: "ex" }, ` · ${t("card.excuseFace")}`) : "",
    ),
  );
  return el("ul", { class: "aid-list", "data-role": "aid-played" }, ...rows);
}

// The panel: three switches, and under each switch that is on, its aid.
export function renderAids(v, redraw) {
  const o = v.observation;
  const switches = el(
    "div",
    { class: "aid-switches" },
    ...AIDS.map((aid) => {
      const input = el("input", { type: "checkbox", "data-aid": aid, checked: aidOn(aid) });
      input.addEventListener("change", () => {
        setAid(aid, input.checked);
        redraw();
      });
      return el("label", {}, input, " ", t(`aids.${aid}`));
    }),
  );
  const parts = [el("h2", {}, t("aids.title")), switches];
  const playing = o.phase === "play" || o.phase === "poignee" || o.phase === "done";
  if (aidOn("points")) {
    if (o.declarer === null || o.declarer === undefined || !playing) {
      parts.push(el("p", { class: "muted", "data-role": "aid-points" }, t("aids.noTricks")));
    } else {
      const won = pointsWon(o);
      parts.push(
        el(
          "p",
          { "data-role": "aid-points", "data-declarer": String(won.declarer), "data-defence": String(won.defence) },
          t("aids.pointsLine", { seat: seatName(o.declarer), d: half(won.declarer), f: half(won.defence) }),
        ),
      );
    }
  }
  if (aidOn("played")) parts.push(playedBySuit(o));
  if (aidOn("trumps")) {
    const out = trumpsOut(o);
    parts.push(
      el(
        "p",
        { "data-role": "aid-trumps", "data-cards": out.join(" "), title: out.map(cardLabel).join(t("list.sep")) },
        t("aids.trumpsLine", { n: out.length }),
        " ",
        el("span", { class: "ranks" }, out.map((c) => c.slice(1)).join(" ") || "–"),
      ),
    );
  }
  return parts;
}
