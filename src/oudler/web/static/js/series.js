// Duplicate series (docs/duplicate.md): "the deals of the day" on the home page, and in a series
// match the par beside the person's score after each deal and the ranking at the end.

import { ApiError, parseJson } from "./api.js";
import { LANGS, t, tn } from "./i18n.js";
import { el, signed } from "./util.js";

Object.assign(LANGS.en, {
  "series.title": "The deals of the day",
  "series.lead": "The same {deals} deals for everyone, against the same computer players; ranked by matchpoints. Open until {closes}.",
  "series.play": "Play",
  "series.resume": "Resume",
  "series.ranking": "See the ranking",
  "series.done": "played: {percent} %, rank {rank} of {players}",
  "series.banner": "The deals of the day",
  "series.par": "You scored {you}; the computer in your seat scored {par}.",
  "series.rankingTitle": "Ranking",
  "series.rank": "Rank",
  "series.name": "Name",
  "series.percent": "Result",
  "series.deal": "Deal {n}",
  "series.parRow": "The computer in your seat",
  "series.players.one": "{n} player ranked",
  "series.players.other": "{n} players ranked",
  "series.guest": "guest",
  "series.you": "(you)",
  "series.closed": "This series has closed.",
  "series.error": "The deals of the day could not be loaded.",
  "series.preparing": "The deals of the day are being dealt; a moment, please.",
});

Object.assign(LANGS.zh, {
  "series.title": "今日牌局",
  "series.lead": "每个人打同样的 {deals} 副牌，对手是同样的电脑玩家；按比赛分排名。开放到 {closes}。",
  "series.play": "开始",
  "series.resume": "继续",
  "series.ranking": "查看排名",
  "series.done": "已完成：{percent}%，第 {rank} 名，共 {players} 人",
  "series.banner": "今日牌局",
  "series.par": "你得了 {you}；在你的座位上，电脑得了 {par}。",
  "series.rankingTitle": "排名",
  "series.rank": "名次",
  "series.name": "名字",
  "series.percent": "成绩",
  "series.deal": "第 {n} 副",
  "series.parRow": "你座位上的电脑",
  "series.players.one": "共 {n} 名玩家参加排名",
  "series.players.other": "共 {n} 名玩家参加排名",
  "series.guest": "访客",
  "series.you": "（你）",
  "series.closed": "这一组牌局已经结束。",
  "series.error": "无法载入今日牌局。",
  "series.preparing": "今日牌局正在发牌，请稍候。",
});

// French typography (see i18n.js): a no-break space before ':' and '%'.
Object.assign(LANGS.fr, {
  "series.title": "Les donnes du jour",
  "series.lead": "Les mêmes {deals} donnes pour tous, contre les mêmes joueurs de l'ordinateur\u202f; classement aux points de match. Ouvert jusqu'à {closes}.",
  "series.play": "Jouer",
  "series.resume": "Reprendre",
  "series.ranking": "Voir le classement",
  "series.done": "jouées\u00a0: {percent}\u00a0%, rang {rank} sur {players}",
  "series.banner": "Les donnes du jour",
  "series.par": "Vous avez marqué {you}\u202f; l'ordinateur à votre place a marqué {par}.",
  "series.rankingTitle": "Classement",
  "series.rank": "Rang",
  "series.name": "Nom",
  "series.percent": "Résultat",
  "series.deal": "Donne {n}",
  "series.parRow": "L'ordinateur à votre place",
  "series.players.one": "{n} joueur classé",
  "series.players.other": "{n} joueurs classés",
  "series.guest": "invité",
  "series.you": "(vous)",
  "series.closed": "Cette série est close.",
  "series.error": "Les donnes du jour n'ont pas pu être chargées.",
  "series.preparing": "Les donnes du jour sont en train d'être distribuées, un instant.",
});

async function call(method, path) {
  const r = await fetch(path, { method, credentials: "same-origin", headers: { Accept: "application/json" } });
  const body = parseJson(await r.text());
  if (!r.ok) throw new ApiError(r.status, body);
  return body;
}

const percentText = (p) => (Math.round(p * 10) / 10).toString();

// The home page's block: each open series, with Play, Resume or the person's result.
export async function renderSeriesHome(box) {
  if (!box) return;
  let data;
  try {
    data = await call("GET", "/api/series");
  } catch (e) {
    box.replaceChildren(el("p", { class: "muted" }, t("series.error")));
    return;
  }
  const parts = [];
  for (const s of data.series || []) {
    const closes = new Date(s.closes).toLocaleString();
    let action;
    if (s.finished) {
      action = el(
        "p",
        {},
        el("span", { "data-role": "series-result" }, t("series.done", { percent: percentText(s.percent), rank: s.rank, players: s.players })),
        " ",
        el("a", { href: `#/match/${s.match}`, "data-action": "series-ranking" }, t("series.ranking")),
      );
    } else {
      const play = async () => {
        try {
          const started = await call("POST", `/api/series/${encodeURIComponent(s.id)}/play`);
          location.hash = `#/match/${started.match}`;
        } catch (e) {
          const code = e.body && e.body.code;
          box.append(el("p", { class: "muted" }, t(code === "series_closed" ? "series.closed" : "series.error")));
        }
      };
      action = el("button", { type: "button", class: "primary", "data-action": "series-play", "data-series": s.id, onclick: play }, t(s.played ? "series.resume" : "series.play"));
    }
    parts.push(
      el(
        "div",
        { class: "series-line", "data-role": "series-line", "data-kind": s.kind },
        el("h2", {}, t("series.title")),
        el("p", { class: "lead" }, t("series.lead", { deals: s.deals, closes })),
        action,
      ),
    );
  }
  if (!parts.length && data.preparing) {
    // The server is making the day's series (its par takes a few seconds): look again soon.
    parts.push(el("h2", {}, t("series.title")), el("p", { class: "muted", "data-role": "series-preparing" }, t("series.preparing")));
    clearTimeout(again);
    again = setTimeout(() => {
      if (!document.getElementById("home").hidden) renderSeriesHome(box);
    }, 3000);
  }
  box.replaceChildren(...parts);
  box.hidden = !parts.length;
}

let again = 0;

const rankings = new Map(); // match id -> the ranking, once fetched

function rankingTable(data) {
  const boards = data.par.length;
  const head = ["series.rank", "series.name", "series.percent"].map((k) => el("th", {}, t(k)));
  for (let i = 1; i <= boards; i++) head.push(el("th", {}, t("series.deal", { n: i })));
  const rows = [];
  // The page holds the top lines; a person further down gets their own line after a gap.
  data.rows.forEach((r, i) => {
    if (i > 0 && r.rank > data.rows[i - 1].rank + 1 && r.you) {
      rows.push(el("tr", { class: "gap", "data-role": "series-gap" }, el("td", { colspan: String(3 + boards) }, "…")));
    }
    rows.push(rankingRow(r));
  });
  rows.push(
    el(
      "tr",
      { class: "par", "data-role": "series-par-row" },
      el("td", {}, ""),
      el("td", {}, t("series.parRow")),
      el("td", {}, ""),
      ...data.par.map((s) => el("td", { class: "num" }, signed(s))),
    ),
  );
  return el(
    "div",
    { class: "series-ranking", "data-role": "series-ranking" },
    el("h3", {}, t("series.rankingTitle")),
    el("p", { class: "series-count", "data-role": "series-count" }, tn("series.players", data.players ?? data.rows.length, { n: data.players ?? data.rows.length })),
    el("table", { class: "match-table" }, el("thead", {}, el("tr", {}, ...head)), el("tbody", {}, ...rows)),
  );
}

function rankingRow(r) {
  return el(
      "tr",
      { class: r.you ? "you" : null, "data-role": r.you ? "series-own-row" : "series-row" },
      el("td", { class: "num" }, String(r.rank)),
      el("td", {}, `${r.name || t("series.guest")}${r.you ? ` ${t("series.you")}` : ""}`),
      el("td", { class: "num" }, `${percentText(r.percent)} %`),
      ...r.scores.map((s) => el("td", { class: "num" }, signed(s))),
  );
}

// After the page drew a series match: say it is a series, take away what a series does not
// offer (playing a deal again, learning mode), show the par after each deal and the ranking at
// the end. Drawn into what app.js rendered, so it runs after every render.
export function decorateSeries(v, redraw) {
  const info = document.getElementById("deal-info");
  const old = info && info.querySelector('[data-role="series-banner"]');
  if (old) old.remove();
  if (!v || !v.series) return;
  const s = v.series;
  const finished = (v.sheet || []).length;
  // The header's own "deal n of 4" counts the boards; this says whose deals they are.
  if (info) info.prepend(el("span", { class: "series-banner", "data-role": "series-banner" }, t("series.banner")));
  for (const b of document.querySelectorAll('[data-action="replay-deal"]')) b.remove();
  const learning = document.querySelector('[data-role="learning-tool"]');
  if (learning) learning.hidden = true;
  const panel = document.querySelector("#deal-over .result");
  if (!panel) return;
  if (!panel.querySelector('[data-role="series-par"]') && finished && s.par.length >= finished) {
    const you = v.sheet[finished - 1].scores[0];
    const par = s.par[finished - 1];
    const line = el("p", { class: "series-par", "data-role": "series-par" }, t("series.par", { you: signed(you), par: signed(par) }));
    const title = panel.querySelector("h2");
    if (title) title.after(line);
    else panel.prepend(line);
  }
  if (v.status !== "match_over" || panel.querySelector('[data-role="series-ranking"]')) return;
  const known = rankings.get(v.id);
  if (known) {
    panel.querySelector('[data-role="standing"], .buttons')?.before(rankingTable(known));
    return;
  }
  call("GET", `/api/series/${encodeURIComponent(s.id)}/ranking`)
    .then((data) => {
      rankings.set(v.id, data);
      redraw();
    })
    .catch(() => {});
}
