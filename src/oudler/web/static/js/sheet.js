// The match's score sheet (data-role="score-sheet"): one row per finished deal, then the totals.

import { t } from "./i18n.js";
import { el, makerLabel, seatLabel, signed } from "./util.js";

export function renderSheet(v, role = "score-sheet") {
  const head = el(
    "tr",
    {},
    el("th", { scope: "col" }, t("sheet.deal")),
    el("th", { scope: "col" }, t("sheet.contract")),
    ...[0, 1, 2, 3].map((s) => el("th", { scope: "col", class: "num", "data-seat": String(s) }, seatLabel(s))),
  );
  let scored = 0;
  const rows = (v.sheet || []).map((row, i) => {
    if (!row.void) scored += 1;
    let contract = t("sheet.void");
    let outcome = row.void ? t(`sheet.void.${row.void}`) : "";
    if (!row.void) {
      contract = `${t(`bid.${row.contract}`)} · ${makerLabel(row.declarer, row.by && row.by.declarer)}`;
      outcome = t(row.won ? "sheet.made" : "sheet.missed", { p: row.points, n: row.needed });
    }
    return el(
      "tr",
      { "data-deal": String(row.deal ?? i + 1), class: row.void ? "void" : row.won ? "won" : "lost" },
      // Void deals are dealt again and not counted: the scored ones are numbered 1, 2, 3...
      el("td", { title: row.void ? t("sheet.voidTitle") : "" }, row.void ? "–" : String(scored)),
      el("td", { class: "what" }, el("span", { class: "c" }, contract), el("span", { class: "o" }, outcome)),
      ...row.scores.map((s, seat) => el("td", { class: `num ${s < 0 ? "neg" : ""}`, "data-seat": String(seat), "data-score": String(s) }, signed(s))),
    );
  });
  const totals = v.totals || [0, 0, 0, 0];
  const best = Math.max(...totals);
  const foot = el(
    "tr",
    { "data-role": "totals" },
    el("th", { scope: "row", colspan: "2" }, t("sheet.total")),
    ...totals.map((s, seat) =>
      el("td", { class: `num ${s < 0 ? "neg" : ""} ${v.sheet && v.sheet.length && s === best ? "best" : ""}`, "data-seat": String(seat), "data-score": String(s) }, signed(s)),
    ),
  );
  const table = el(
    "table",
    { class: "sheet", "data-role": role },
    el("caption", { class: "sr-only" }, t("sheet.title")),
    el("thead", {}, head),
    el("tbody", {}, ...rows),
    el("tfoot", {}, foot),
  );
  if (!rows.length) table.querySelector("tbody").append(el("tr", {}, el("td", { colspan: "6", class: "muted" }, t("sheet.empty"))));
  return table;
}
