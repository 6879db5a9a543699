// The person's own play across matches (#/history): matches played and won, contracts taken and
// made, points per deal over time (a chart drawn here in SVG), petit au bout and poignées; and each
// past match reviewable deal by deal (#/history/ID), with the breakdown and review of each deal.

import { api } from "./api.js";
import { addAnalysisTab } from "./coach.js";
import { t } from "./i18n.js";
import { renderResult } from "./result.js";
import { namesAtTable } from "./friends.js";
import { el, setTableNames, signed } from "./util.js";

const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

const percent = (a, b) => (b ? t("history.pct", { n: Math.round((100 * a) / b) }) : "–");

// Points per scored deal, oldest first: a bar per deal (above or below zero) and the running total
// as a line, with the scale on the left. The caption is HTML under the drawing: inside the SVG it
// would shrink with the chart to a few pixels on a phone.
export function pointsChart(deals) {
  const chart = drawPoints(deals);
  return el("figure", { class: "chart-box" }, chart, el("figcaption", { class: "chart-caption", "data-role": "chart-caption" }, t("history.axis", { n: deals.length })));
}

function drawPoints(deals) {
  const W = 640;
  const H = 240;
  const pad = { l: 44, r: 10, t: 16, b: 14 };
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img", "data-role": "points-chart", "aria-label": t("history.chartLabel", { n: deals.length }) });
  if (!deals.length) return chart;
  let run = 0;
  const running = deals.map((d) => (run += d.score));
  const values = [...deals.map((d) => d.score), ...running, 0];
  const top = Math.max(...values);
  const bottom = Math.min(...values);
  const span = top - bottom || 1;
  // Room on the left for the longest value of the scale at the phone's larger type (table.css).
  pad.l = 14 + 13 * Math.max(...[top, 0, bottom].map((v) => signed(v).length));
  const y = (v) => pad.t + ((top - v) / span) * (H - pad.t - pad.b);
  const step = (W - pad.l - pad.r) / deals.length;
  const x = (i) => pad.l + step * i + step / 2;
  // Scale: zero, the highest and the lowest values.
  for (const v of [...new Set([top, 0, bottom])]) {
    chart.append(
      svg("line", { x1: pad.l, x2: W - pad.r, y1: y(v), y2: y(v), class: v === 0 ? "zero" : "grid" }),
      svg("text", { x: pad.l - 6, y: y(v), class: "tick", "text-anchor": "end", "dominant-baseline": "middle" }, signed(v)),
    );
  }
  const barWidth = Math.max(2, Math.min(28, step * 0.7));
  deals.forEach((d, i) => {
    const bar = svg("rect", {
      x: x(i) - barWidth / 2,
      y: Math.min(y(d.score), y(0)),
      width: barWidth,
      height: Math.max(1, Math.abs(y(d.score) - y(0))),
      class: d.score >= 0 ? "bar plus" : "bar minus",
      "data-score": d.score,
    });
    bar.append(svg("title", {}, t("history.barTitle", { n: i + 1, score: signed(d.score), total: signed(running[i]) })));
    chart.append(bar);
  });
  chart.append(svg("polyline", { points: running.map((v, i) => `${x(i)},${y(v)}`).join(" "), class: "running", "data-role": "running-total" }));
  return chart;
}

function stat(label, value, role) {
  return el("div", { class: "stat", "data-role": role }, el("span", { class: "value" }, value), el("span", { class: "label" }, label));
}

function summary(h) {
  const m = h.matches;
  return el(
    "div",
    { class: "stats" },
    stat(t("history.played"), String(m.played), "matches-played"),
    stat(t("history.won"), t("history.share", { n: m.won, pct: percent(m.won, m.played) }), "matches-won"),
    stat(t("history.inPlay"), String(m.in_play), "matches-in-play"),
    stat(t("history.deals"), String(h.deals.length), "deals-scored"),
  );
}

function contractsTable(h) {
  const rows = Object.entries(h.contracts).map(([c, n]) =>
    el(
      "tr",
      { "data-contract": c },
      el("th", { scope: "row" }, t(`bid.${c}`)),
      el("td", { class: "num", "data-role": "taken" }, String(n.taken)),
      el("td", { class: "num", "data-role": "made" }, String(n.made)),
      el("td", { class: "num" }, percent(n.made, n.taken)),
    ),
  );
  return el(
    "table",
    { class: "sheet contracts", "data-role": "contracts" },
    el("thead", {}, el("tr", {}, ...["history.contract", "history.taken", "history.made", "history.rate"].map((k) => el("th", { scope: "col" }, t(k))))),
    el("tbody", {}, ...rows),
  );
}

function extras(h) {
  const p = h.poignees;
  return el(
    "ul",
    { class: "inline-list extras" },
    el("li", { "data-role": "pab" }, t("history.pab", { won: h.petit_au_bout.won, lost: h.petit_au_bout.lost })),
    el("li", { "data-role": "poignees" }, t("history.poignees", { single: p["10"], double: p["13"], triple: p["15"] })),
    el("li", { "data-role": "chelems" }, t("history.chelems", { n: h.chelems })),
  );
}

function matchList(h) {
  if (!h.list.length) return el("p", { class: "muted" }, t("home.none"));
  return el(
    "table",
    { class: "match-table" },
    el("thead", {}, el("tr", {}, ...["home.started", "home.level", "history.dealsShort", "home.score", ""].map((k) => el("th", {}, k ? t(k) : "")))),
    el(
      "tbody",
      {},
      ...h.list.map((m) =>
        el(
          "tr",
          { "data-match": m.id, class: m.won ? "won" : "" },
          el("td", {}, new Date(m.created).toLocaleString()),
          el("td", {}, t(`level.${m.level.split("@")[0]}`)),
          el("td", { class: "num" }, m.length === 1 ? t("info.replayDeal") : `${m.deals} / ${m.length}`),
          el("td", { class: "num" }, signed(m.total), m.won ? el("span", { class: "badge win" }, t("history.winner")) : ""),
          el("td", {}, m.deals ? el("a", { href: `#/history/${m.id}`, "data-action": "review-match" }, t("history.review")) : ""),
        ),
      ),
    ),
  );
}

export async function renderHistory(box) {
  box.replaceChildren(el("p", { class: "muted" }, t("history.loading")));
  const h = await api.history();
  box.replaceChildren(
    el(
      "section",
      { class: "panel", "data-role": "history" },
      el("h1", {}, t("history.title")),
      summary(h),
      el("h2", {}, t("history.chart")),
      h.deals.length ? pointsChart(h.deals) : el("p", { class: "muted" }, t("history.noDeals")),
      el("h2", {}, t("history.contracts")),
      contractsTable(h),
      extras(h),
    ),
    el("section", { class: "panel" }, el("h2", {}, t("history.matches")), el("div", { class: "scroll-x" }, matchList(h))),
  );
}

// One past match, deal by deal: a button per finished deal, and that deal's breakdown and review.
export async function renderPastMatch(box, id, dealNumber = null) {
  box.replaceChildren(el("p", { class: "muted" }, t("history.loading")));
  const v = await api.get(id);
  const finished = (v.sheet || []).map((row) => row.deal);
  const chosen = dealNumber && finished.includes(dealNumber) ? dealNumber : finished[0];
  const nav = el(
    "div",
    { class: "buttons deal-tabs", role: "tablist" },
    ...(v.sheet || []).map((row, i) => {
      const scored = v.sheet.slice(0, i + 1).filter((r) => !r.void).length;
      const label = row.void ? t("history.voidDeal") : t("history.dealN", { n: scored });
      return el("button", { type: "button", role: "tab", "aria-selected": String(row.deal === chosen), "data-deal": String(row.deal), onclick: () => renderPastMatch(box, id, row.deal) }, label);
    }),
  );
  const parts = [el("p", {}, el("a", { href: "#/history", "data-action": "back-history" }, t("history.back"))), el("h1", {}, t("history.matchTitle")), nav];
  if (chosen) {
    const past = await api.deal(id, chosen);
    // Who made that deal's calls is its row's (the view's own `by` is the current deal's).
    const by = ((v.sheet || []).find((row) => row.deal === chosen) || {}).by || null;
    const view = { ...v, observation: past.observation, deal_number: chosen, seed: past.seed, status: "deal_over", by };
    setTableNames(namesAtTable(v)); // a past table with friends: its people by name
    const panel = renderResult(view, { review: true, seedText: t("info.dealSeed", { seed: past.seed }) });
    addAnalysisTab(panel, view); // learning mode: the coach's analysis of that deal
    parts.push(panel);
  } else {
    parts.push(el("p", { class: "muted" }, t("history.noDeals")));
  }
  box.replaceChildren(el("section", { class: "panel past-match", "data-role": "past-match", "data-match": id }, ...parts));
}
