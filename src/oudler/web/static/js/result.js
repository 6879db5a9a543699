// After a deal: the score explained line by line from the engine's result (DealResult.to_dict),
// each player's mark, the review of the whole deal and, at the end, the final standing.

import { cardRow, cardView, sortHand } from "./cards.js";
import { t, tn } from "./i18n.js";
import { renderSheet } from "./sheet.js";
import { dealOrdinal, el, makerLabel, seatLabel, signed } from "./util.js";

const halves = (h) => (h % 2 ? `${(h - 1) / 2}.5` : String(h / 2));

const sideOf = (seat, declarer) => (seat === declarer ? "declarer" : "defence");

// Where the Excuse went and why (RULES.md §8): it is the one card that can change sides after its
// trick, so each case gets its own line. Read from the tricks the person saw and the engine's
// `excuse_exchange`.
export function excuseLine(r, tricks) {
  const i = (tricks || []).findIndex((tr) => tr.cards.includes("EX"));
  if (i < 0) {
    if (r.contract === "garde_sans" || r.contract === "garde_contre") {
      return t("result.excuse.dog", { side: t(`side.${r.contract === "garde_sans" ? "declarer" : "defence"}`) });
    }
    return null;
  }
  const tr = tricks[i];
  const owner = (tr.leader + tr.cards.indexOf("EX")) % 4;
  const d = r.declarer;
  const p = {
    seat: seatLabel(owner),
    n: i + 1,
    winner: seatLabel(tr.winner),
    own: t(`side.${sideOf(owner, d)}`),
    other: t(`side.${sideOf(tr.winner, d)}`),
  };
  switch (r.excuse_exchange) {
    case "last_trick":
      if (sideOf(owner, d) !== sideOf(tr.winner, d)) return t("result.excuse.lastLost", p);
      if (r.chelem === "declarer" && tr.cards[0] === "EX" && owner === d) return t("result.excuse.chelemLead", p);
      return t("result.excuse.lastKept", p);
    case "exchanged":
      return t("result.excuse.exchanged", p);
    case "same_side":
      return t("result.excuse.same", p);
    case "never":
      return t("result.excuse.never", p);
    default:
      return null;
  }
}

// The lines of the breakdown, in the order of RULES.md §9. `by`: who made the calls and showed the
// poignées (the view's `by`), at a table where a seat may have changed hands.
export function breakdownLines(r, poignees, petitSec = null, tricks = [], by = null) {
  if (r.void) return [t(`result.void.${r.void}`, { seat: petitSec ? seatLabel(petitSec.seat) : "" })];
  const s = r.won ? 1 : -1;
  const m = r.multiplier;
  const lines = [
    t("result.contract", { seat: makerLabel(r.declarer, by && by.declarer), contract: t(`bid.${r.contract}`), m }),
    tn("result.oudlers", r.oudlers, { o: r.oudlers, needed: r.needed }),
  ];
  const excuse = excuseLine(r, tricks);
  if (excuse) lines.push(excuse);
  lines.push(t("result.points", { points: r.half_points % 2 ? halves(r.half_points) : r.points, other: halves(182 - r.half_points) }));
  if (r.half_points % 2) lines.push(t("result.half"));
  lines.push(t(r.won ? "result.won" : "result.lost", { diff: r.diff, points: r.points, needed: r.needed }));
  const base = s * (25 + r.diff) * m;
  lines.push(t(r.won ? "result.baseWon" : "result.baseLost", { diff: r.diff, m, base: Math.abs(base), signed: signed(base) }));
  const terms = [base];

  if (r.petit_au_bout) {
    const v = 10 * m;
    const last = tricks && tricks.length === 18 ? tricks[17] : null;
    // In a chelem the declarer may lead the Excuse to the last trick: the Petit played in trick 17
    // then counts as au bout (RULES.md §8).
    const early = last && !last.cards.includes("T1");
    lines.push(t(early ? "result.pab.chelem" : `result.pab.${r.petit_au_bout}`, { m, v }));
    terms.push(r.petit_au_bout === "declarer" ? v : -v);
  } else {
    lines.push(t("result.pab.none"));
  }

  const shown = Object.entries(poignees || {});
  if (shown.length) {
    const list = shown.map(([seat, cards]) => t("result.poigneeItem", { seat: makerLabel(Number(seat), by && by.poignees[seat]), size: t(`size.${cards.length}`) })).join(t("list.sep"));
    lines.push(t("result.poignees", { list, h: r.poignee_bonus, signed: signed(s * r.poignee_bonus) }));
    terms.push(s * r.poignee_bonus);
  } else {
    lines.push(t("result.poignees.none"));
  }

  if (r.chelem_announced && r.chelem === "declarer") lines.push(t("result.chelem.made_announced"));
  else if (r.chelem_announced) lines.push(t("result.chelem.missed"));
  else if (r.chelem === "declarer") lines.push(t("result.chelem.made"));
  if (r.chelem === "defence") lines.push(t("result.chelem.defence"));
  if (!r.chelem_announced && !r.chelem) lines.push(t("result.chelem.none"));
  if (r.chelem_bonus) terms.push(r.chelem_bonus);

  const d = r.per_defender;
  const total = terms.reduce((a, b) => a + b, 0);
  const sum = terms.length > 1 && total === d ? ` (${terms.map(signed).join(" ")} = ${signed(d)})` : "";
  lines.push(t(d >= 0 ? "result.each" : "result.eachNeg", { d: Math.abs(d), sum }));
  lines.push(t(d >= 0 ? "result.declarerWins" : "result.declarerLoses", { d: Math.abs(d), t: signed(3 * d), neg: signed(-d) }));
  return lines;
}

function marksTable(scores) {
  return el(
    "table",
    { class: "marks", "data-role": "marks" },
    el("tr", {}, ...[0, 1, 2, 3].map((s) => el("th", { scope: "col" }, seatLabel(s)))),
    el("tr", {}, ...scores.map((x, s) => el("td", { class: `num ${x < 0 ? "neg" : ""}`, "data-seat": String(s) }, signed(x)))),
  );
}

function review(o, by) {
  const rv = o.review;
  if (!rv) return null;
  const calls = el("ol", { class: "inline-list" });
  o.bids.forEach((b, i) => calls.append(el("li", {}, t("info.call", { seat: makerLabel((o.dealer + 1 + i) % 4, by && by.calls[i]), bid: t(`bid.${b}`) }))));

  const hands = el("div", { class: "review-hands" });
  rv.hands.forEach((h, seat) => {
    if (h) hands.append(el("div", { class: "review-hand" }, el("h4", {}, seatLabel(seat, true)), cardRow(sortHand(h), ["small"])));
  });

  const tricks = el(
    "table",
    { class: "review-tricks", "data-role": "review-tricks" },
    el(
      "thead",
      {},
      el("tr", {}, el("th", {}, t("result.trick")), ...[0, 1, 2, 3].map((s) => el("th", {}, seatLabel(s))), el("th", {}, t("result.winner"))),
    ),
  );
  const body = el("tbody");
  o.tricks.forEach((tr, i) => {
    const bySeat = [null, null, null, null];
    tr.cards.forEach((c, k) => (bySeat[(tr.leader + k) % 4] = { c, led: k === 0 }));
    body.append(
      el(
        "tr",
        {},
        el("td", { class: "num" }, String(i + 1)),
        ...bySeat.map((x, seat) =>
          el("td", {}, x ? cardView(x.c, ["small", ...(x.led ? ["led"] : []), ...(seat === tr.winner ? ["winning"] : [])]) : ""),
        ),
        el("td", {}, seatLabel(tr.winner)),
      ),
    );
  });
  tricks.append(body);

  const discard = rv.discard && rv.discard.length ? cardRow(rv.discard, ["small"]) : el("span", { class: "muted" }, t("result.noDiscard"));
  // A deal everybody passed has no tricks: say so rather than draw an empty table.
  const played = o.tricks.length ? [el("h3", {}, t("result.tricks")), tricks] : [el("p", { class: "muted", "data-role": "no-tricks" }, t("result.noTricks"))];
  return el(
    "details",
    { class: "review", "data-role": "review", open: true },
    el("summary", {}, t("result.review")),
    el("h3", {}, t("result.bids")),
    calls,
    el("h3", {}, t("result.hands")),
    hands,
    el("div", { class: "review-row" }, el("div", {}, el("h3", {}, t("result.dog")), rv.dog ? cardRow(rv.dog, ["small"]) : ""), el("div", {}, el("h3", {}, t("result.discard")), discard)),
    ...played,
  );
}

function standing(v) {
  const order = [0, 1, 2, 3].sort((a, b) => v.totals[b] - v.totals[a]);
  const winners = v.winners || order.filter((s) => v.totals[s] === v.totals[order[0]]);
  const names = winners.map((s) => seatLabel(s, true)).join(t("list.sep"));
  const list = el("ol", { class: "standing", "data-role": "standing" });
  for (const s of order) {
    list.append(el("li", { class: winners.includes(s) ? "winner" : "", "data-seat": String(s) }, el("span", {}, seatLabel(s, true)), el("span", { class: "num" }, signed(v.totals[s]))));
  }
  return el(
    "section",
    { class: "final" },
    el("h3", {}, t("result.standing")),
    el("p", { class: "winners" }, t(winners.length > 1 ? "result.winnersTie" : "result.winners", { names })),
    list,
  );
}

export function renderResult(v, actions) {
  const o = v.observation;
  const r = o.result || { void: "all_pass", scores: [0, 0, 0, 0] };
  const over = v.status === "match_over";
  const buttons = el("div", { class: "buttons" });
  if (actions.review) {
    // A past deal seen from the history: nothing to do but read it.
  } else if (over) {
    // The end of a match leads somewhere: a new one, the list of matches, the record to keep.
    buttons.append(
      el("button", { type: "button", class: "primary", "data-action": "new-match-again", onclick: actions.onNewMatch }, t("result.newMatch")),
      el("button", { type: "button", "data-action": "your-matches", onclick: actions.onMatches }, t("result.yourMatches")),
      el("a", { class: "button", href: actions.recordUrl, download: `oudler-${v.id}.json`, "data-action": "download-record" }, t("home.download")),
    );
  } else {
    buttons.append(el("button", { type: "button", class: "primary", "data-action": "next-deal", onclick: actions.onNext }, t("result.next")));
  }
  if (!actions.review) {
    if (!r.void) buttons.append(el("button", { type: "button", "data-action": "replay-deal", onclick: actions.onReplay }, t("info.replay")));
    buttons.append(el("button", { type: "button", "data-action": "hide-result", onclick: actions.onHide }, t("result.hide")));
  }

  const excuse = r.void ? null : excuseLine(r, o.tricks);
  const lines = el(
    "ol",
    { class: "breakdown", "data-role": "breakdown" },
    ...breakdownLines(r, o.poignees, o.petit_sec, o.tricks, v.by).map((x) => el("li", { "data-rule": x === excuse ? "excuse" : null }, x)),
  );
  const verdict = r.void ? "" : el("p", { class: `verdict ${r.won ? "won" : "lost"}` }, t(r.won ? "result.won" : "result.lost", { diff: r.diff, points: r.points, needed: r.needed }));
  const title = v.length === 1 ? t("result.titleReplay") : r.void ? t("result.titleVoid") : t("result.title", { n: dealOrdinal(v) });
  return el(
    "div",
    { class: "panel result" },
    el("h2", { id: "deal-over-title" }, title, " ", actions.seedText ? el("span", { class: "muted seed", "data-role": "seed" }, actions.seedText) : ""),
    verdict,
    lines,
    o.petit_sec ? cardRow(sortHand(o.petit_sec.hand), ["small"]) : "",
    el("h3", {}, t("result.marks")),
    marksTable(r.scores),
    over ? standing(v) : "",
    over ? el("div", { class: "final-sheet" }, el("h3", {}, t("sheet.title")), renderSheet(v, "final-sheet")) : "",
    buttons,
    review(o, v.by),
  );
}
