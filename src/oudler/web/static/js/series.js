// Duplicate series (docs/duplicate.md): "the deals of the day" on the home page, and in a series
// match the par beside the person's score after each deal and the ranking at the end.

import { ApiError, parseJson } from "./api.js";
import { LANGS, t, tn } from "./i18n.js";
import { el, signed } from "./util.js";

Object.assign(LANGS.en, {
  "series.title": "The deals of the day",
  "series.about": "The same deals for everyone, against the same computer players; ranked by matchpoints.",
  "series.lead.one": "{deals} deal, open until {closes}.",
  "series.lead.other": "{deals} deals, open until {closes}.",
  "series.loading": "Loading…",
  "series.howSeat": "You sit South, against three expert computer players.",
  "series.howPar": "After each deal: your score beside the computer's in your seat.",
  "series.howRank": "After the last: your rank among everyone who played them.",
  "series.notPlayed": "Not played yet.",
  "series.inProgress": "In progress: {done} of {deals}",
  "series.none": "No deals of the day at the moment: come back later.",
  "series.another": "A series",
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
  "series.guest": "guest",
  "series.you": "(you)",
  "series.closed": "This series has closed.",
  "series.error": "The deals of the day could not be loaded.",
  "series.preparing": "The deals of the day are being dealt; a moment, please.",
});

Object.assign(LANGS.zh, {
  "series.title": "今日牌局",
  "series.about": "每个人打同样的牌，对手是同样的电脑玩家；按比赛分排名。",
  "series.lead.one": "共 {deals} 副牌，开放到 {closes}。",
  "series.lead.other": "共 {deals} 副牌，开放到 {closes}。",
  "series.loading": "正在载入……",
  "series.howSeat": "你坐南家，对手是三位高手级电脑玩家。",
  "series.howPar": "每副牌之后：你的得分和电脑在你座位上的得分并排显示。",
  "series.howRank": "打完最后一副：你在所有玩家中的名次。",
  "series.notPlayed": "还没有打。",
  "series.inProgress": "进行中：已打 {done} 副，共 {deals} 副",
  "series.none": "现在没有今日牌局，请稍后再来。",
  "series.another": "一组牌局",
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
  "series.guest": "访客",
  "series.you": "（你）",
  "series.closed": "这一组牌局已经结束。",
  "series.error": "无法载入今日牌局。",
  "series.preparing": "今日牌局正在发牌，请稍候。",
});

// French typography (see i18n.js): a no-break space before ':' and '%'.
Object.assign(LANGS.fr, {
  "series.title": "Les donnes du jour",
  "series.about": "Les mêmes donnes pour tous, contre les mêmes joueurs de l'ordinateur\u202f; classement aux points de match.",
  "series.lead.one": "{deals} donne, ouvert jusqu'à {closes}.",
  "series.lead.other": "{deals} donnes, ouvert jusqu'à {closes}.",
  "series.loading": "Chargement…",
  "series.howSeat": "Vous êtes Sud, contre trois joueurs ordinateur de niveau expert.",
  "series.howPar": "Après chaque donne\u00a0: votre score à côté de celui de l'ordinateur à votre place.",
  "series.howRank": "Après la dernière\u00a0: votre rang parmi tous ceux qui les ont jouées.",
  "series.notPlayed": "Pas encore jouées.",
  "series.inProgress": "En cours\u00a0: {done} sur {deals}",
  "series.none": "Pas de donnes du jour pour le moment\u00a0: revenez plus tard.",
  "series.another": "Une série",
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

// What the person did of a series, in one line: not yet, how far, or their result.
function statusLine(s) {
  if (s.finished) {
    const words = t("series.done", { percent: percentText(s.percent), rank: s.rank, players: s.players });
    return el("span", { "data-role": "series-result" }, words);
  }
  if (s.played) return t("series.inProgress", { done: s.done ?? 0, deals: s.deals });
  return t("series.notPlayed");
}

// The home page's card: each open series with where the person stands and Play, Resume or
// the ranking. Drawn into lines the page keeps from the start (series.css gives them their
// height): the status arriving moves nothing under the card.
export async function renderSeriesHome(box) {
  if (!box) return;
  const lines = box.querySelector('[data-role="series-lines"]');
  let data;
  try {
    data = await call("GET", "/api/series");
  } catch (e) {
    lines.replaceChildren(el("p", { class: "series-status muted", "data-role": "series-status" }, t("series.error")));
    box.removeAttribute("aria-busy");
    return;
  }
  const parts = [];
  const several = (data.series || []).length > 1;
  for (const s of data.series || []) {
    const closes = new Date(s.closes).toLocaleString();
    let action;
    if (s.finished) {
      action = el("a", { class: "button", href: `#/match/${s.match}`, "data-action": "series-ranking" }, t("series.ranking"));
    } else {
      const play = async () => {
        try {
          const started = await call("POST", `/api/series/${encodeURIComponent(s.id)}/play`);
          location.hash = `#/match/${started.match}`;
        } catch (e) {
          const code = e.body && e.body.code;
          line.querySelector('[data-role="series-status"]').textContent = t(code === "series_closed" ? "series.closed" : "series.error");
        }
      };
      action = el("button", { type: "button", class: "primary", "data-action": "series-play", "data-series": s.id, onclick: play }, t(s.played ? "series.resume" : "series.play"));
    }
    const line = el(
      "div",
      { class: "series-line", "data-role": "series-line", "data-kind": s.kind, "data-state": s.finished ? "finished" : s.played ? "playing" : "new" },
      several ? el("h3", {}, t(s.kind === "daily" ? "series.title" : "series.another")) : null,
      el("p", { class: "series-status", "data-role": "series-status" }, statusLine(s)),
      el("p", { class: "series-closes muted" }, tn("series.lead", s.deals, { deals: s.deals, closes })),
      el("p", { class: "series-action" }, action),
    );
    parts.push(line);
  }
  if (!parts.length) {
    // None open: the server may be making the day's series (its par takes a few seconds): look
    // again soon.
    const key = data.preparing ? "series.preparing" : "series.none";
    parts.push(el("p", { class: "series-status muted", "data-role": data.preparing ? "series-preparing" : "series-status" }, t(key)));
    if (data.preparing) {
      clearTimeout(again);
      again = setTimeout(() => {
        if (!document.getElementById("home").hidden) renderSeriesHome(box);
      }, 3000);
    }
  }
  lines.replaceChildren(...parts);
  box.removeAttribute("aria-busy");
}

let again = 0;

const rankings = new Map(); // match id -> the ranking, once fetched

function rankingTable(data) {
  const boards = data.par.length;
  const head = ["series.rank", "series.name", "series.percent"].map((k) => el("th", {}, t(k)));
  for (let i = 1; i <= boards; i++) head.push(el("th", {}, t("series.deal", { n: i })));
  const rows = data.rows.map((r) =>
    el(
      "tr",
      { class: r.you ? "you" : null, "data-role": r.you ? "series-own-row" : "series-row" },
      el("td", { class: "num" }, String(r.rank)),
      el("td", {}, `${r.name || t("series.guest")}${r.you ? ` ${t("series.you")}` : ""}`),
      el("td", { class: "num" }, `${percentText(r.percent)} %`),
      ...r.scores.map((s) => el("td", { class: "num" }, signed(s))),
    ),
  );
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
    el("table", { class: "match-table" }, el("thead", {}, el("tr", {}, ...head)), el("tbody", {}, ...rows)),
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
