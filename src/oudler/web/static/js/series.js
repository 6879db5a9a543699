// Duplicate series (docs/duplicate.md): "the deals of the day" on the home page, and in a series
// match the par beside the person's score after each deal and the ranking at the end.

import { ApiError, parseJson } from "./api.js";
import { cardLabel } from "./cards.js";
import { actionText, analysisPane } from "./coach.js";
import { LANGS, language, t, tn } from "./i18n.js";
import { el, seatName, signed } from "./util.js";

Object.assign(LANGS.en, {
  "series.cardTitle": "Duplicate",
  "series.title": "The deals of the day",
  "series.about": "The same deals for everyone, against the same computer players; ranked by matchpoints.",
  "series.lead.one": "{deals} deal, open until {closes}.",
  "series.lead.other": "{deals} deals, open until {closes}.",
  "series.weekShort.one": "{deals} deal with an imposed taker, open until {closes}.",
  "series.weekShort.other": "{deals} deals with an imposed taker, open until {closes}.",
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
  "series.players.one": "{n} player ranked",
  "series.players.other": "{n} players ranked",
  "series.guest": "guest",
  "series.former": "a former player",
  "series.you": "(you)",
  "series.closed": "This series has closed.",
  "series.error": "The deals of the day could not be loaded.",
  "series.preparing": "The deals of the day are being dealt; a moment, please.",
  "series.weekTitle": "The deals of the week",
  "series.weekBanner": "The deals of the week",
  "series.caseDeclarer": "You are the declarer: {contract}",
  "series.caseDefender": "You defend against {seat}'s {contract}",
  "series.historyLink": "Your series",
  "series.historyTitle": "Your series",
  "series.home": "← Home",
  "series.historyNone": "You have not played a series yet.",
  "series.historyMean": "Mean of your last {n}: {percent} %",
  "series.historyBest": "Your best: {percent} % ({day})",
  "series.colSeries": "Series",
  "series.colRank": "Rank",
  "series.colParDiff": "Against the par",
  "series.rankOf": "{rank} of {players}",
  "series.unranked": "unranked",
  "series.wouldBe": "unranked (would be {rank} of {players})",
  "series.doneUnranked": "played: {percent} %, unranked (would be rank {rank} of {players})",
  "series.inPlay": "in play",
  "series.notFinished": "not finished",
  "series.open": "Open",
  "series.keepToRank": "Guests play for practice: use “{keep}” in the account menu to be ranked.",
  "series.reviews": "Review the deals",
  "series.download": "Download the records of this series (JSON lines)",
  "series.notYet": "The ranking and the reviews are shown once you have finished the series.",
  "series.closedForYou": "This series closed on {closes}. Your finished deals still count in the ranking.",
  "series.closedSee": "See the ranking and the reviews",
  "review.title": "Deal {n} of {deals}",
  "review.you": "You",
  "review.best": "The best of the others: {name}",
  "review.parRow": "The computer in your seat",
  "review.noOther": "Nobody else has played this deal yet.",
  "review.parting": "{where}: here you played {yours}; they played {theirs}.",
  "review.partingPar": "{where}: here you played {yours}; the computer in your seat played {theirs}.",
  "review.same": "You played this deal exactly as they did.",
  "review.samePar": "You played this deal exactly as the computer in your seat.",
  "review.score": "Score: {score}",
  "review.contract": "{contract} by {seat}",
  "review.allPass": "All four passed.",
  "review.calls": "Calls: {calls}",
  "review.trick": "Trick {n}",
  "review.analysis": "The coach's analysis of your decisions",
  "review.prev": "← Previous deal",
  "review.next": "Next deal →",
  "review.back": "Back to the series",
});

Object.assign(LANGS.zh, {
  "series.cardTitle": "复式赛",
  "series.title": "今日牌局",
  "series.about": "每个人打同样的牌，对手是同样的电脑玩家；按比赛分排名。",
  "series.lead.one": "共 {deals} 副牌，开放到 {closes}。",
  "series.lead.other": "共 {deals} 副牌，开放到 {closes}。",
  "series.weekShort.one": "共 {deals} 副牌，庄家指定，开放到 {closes}。",
  "series.weekShort.other": "共 {deals} 副牌，庄家指定，开放到 {closes}。",
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
  "series.players.one": "共 {n} 名玩家参加排名",
  "series.players.other": "共 {n} 名玩家参加排名",
  "series.guest": "访客",
  "series.former": "一位前玩家",
  "series.you": "（你）",
  "series.closed": "这一组牌局已经结束。",
  "series.error": "无法载入今日牌局。",
  "series.preparing": "今日牌局正在发牌，请稍候。",
  "series.weekTitle": "本周牌局",
  "series.weekBanner": "本周牌局",
  "series.caseDeclarer": "你是叫牌者：{contract}",
  "series.caseDefender": "你防守{seat}家的 {contract}",
  "series.historyLink": "你的牌局组",
  "series.historyTitle": "你的牌局组",
  "series.home": "← 首页",
  "series.historyNone": "你还没有打过任何一组牌局。",
  "series.historyMean": "最近 {n} 组的平均成绩：{percent}%",
  "series.historyBest": "最好成绩：{percent}%（{day}）",
  "series.colSeries": "牌局组",
  "series.colRank": "名次",
  "series.colParDiff": "与基准分之差",
  "series.rankOf": "第 {rank} 名，共 {players} 人",
  "series.unranked": "不计排名",
  "series.wouldBe": "不计排名（本可排第 {rank} 名，共 {players} 人）",
  "series.doneUnranked": "已完成：{percent}%，不计排名（本可排第 {rank} 名，共 {players} 人）",
  "series.inPlay": "进行中",
  "series.notFinished": "未完成",
  "series.open": "打开",
  "series.keepToRank": "访客的牌局只算练习：在账户菜单中选择“{keep}”即可参加排名。",
  "series.reviews": "复盘各副牌",
  "series.download": "下载这一组牌局的记录（JSON lines）",
  "series.notYet": "打完这一组牌局后才能看到排名和复盘。",
  "series.closedForYou": "这一组牌局已于 {closes} 结束。你打完的各副牌仍然计入排名。",
  "series.closedSee": "查看排名和复盘",
  "review.title": "第 {n} 副，共 {deals} 副",
  "review.you": "你",
  "review.best": "其他人中的最好成绩：{name}",
  "review.parRow": "你座位上的电脑",
  "review.noOther": "还没有其他人打过这一副牌。",
  "review.parting": "{where}：这里你出的是{yours}；对方出的是{theirs}。",
  "review.partingPar": "{where}：这里你出的是{yours}；你座位上的电脑出的是{theirs}。",
  "review.same": "你和对方这一副打得完全一样。",
  "review.samePar": "你和你座位上的电脑这一副打得完全一样。",
  "review.score": "得分：{score}",
  "review.contract": "{seat}叫了{contract}",
  "review.allPass": "四家都不叫。",
  "review.calls": "叫牌：{calls}",
  "review.trick": "第 {n} 墩",
  "review.analysis": "教练对你的决定的分析",
  "review.prev": "← 上一副",
  "review.next": "下一副 →",
  "review.back": "返回这一组牌局",
});

// French typography (see i18n.js): a no-break space before ':' and '%'.
Object.assign(LANGS.fr, {
  "series.cardTitle": "Tarot en duplicate",
  "series.title": "Les donnes du jour",
  "series.about": "Les mêmes donnes pour tous, contre les mêmes joueurs de l'ordinateur\u202f; classement aux points de match.",
  "series.lead.one": "{deals} donne, ouvert jusqu'à {closes}.",
  "series.lead.other": "{deals} donnes, ouvert jusqu'à {closes}.",
  "series.weekShort.one": "{deals} donne à preneur imposé, ouvert jusqu'à {closes}.",
  "series.weekShort.other": "{deals} donnes à preneur imposé, ouvert jusqu'à {closes}.",
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
  "series.players.one": "{n} joueur classé",
  "series.players.other": "{n} joueurs classés",
  "series.guest": "invité",
  "series.former": "un ancien joueur",
  "series.you": "(vous)",
  "series.closed": "Cette série est close.",
  "series.error": "Les donnes du jour n'ont pas pu être chargées.",
  "series.preparing": "Les donnes du jour sont en train d'être distribuées, un instant.",
  "series.weekTitle": "Les donnes de la semaine",
  "series.weekBanner": "Les donnes de la semaine",
  "series.caseDeclarer": "Vous êtes le preneur\u00a0: {contract}",
  "series.caseDefender": "Vous êtes en défense\u00a0: {seat} joue une {contract}",
  "series.historyLink": "Vos séries",
  "series.historyTitle": "Vos séries",
  "series.home": "← Accueil",
  "series.historyNone": "Vous n'avez pas encore joué de série.",
  "series.historyMean": "Moyenne de vos {n} dernières : {percent} %",
  "series.historyBest": "Votre meilleure : {percent} % ({day})",
  "series.colSeries": "Série",
  "series.colRank": "Rang",
  "series.colParDiff": "Par rapport au par",
  "series.rankOf": "{rank} sur {players}",
  "series.unranked": "non classé",
  "series.wouldBe": "non classé (serait {rank} sur {players})",
  "series.doneUnranked": "jouées : {percent} %, non classé (rang {rank} sur {players} si vous étiez classé)",
  "series.inPlay": "en cours",
  "series.notFinished": "non terminée",
  "series.open": "Ouvrir",
  "series.keepToRank": "Un invité joue pour s'entraîner : choisissez « {keep} » dans le menu du compte pour être classé.",
  "series.reviews": "Revoir les donnes",
  "series.download": "Télécharger les enregistrements de cette série (JSON lines)",
  "series.notYet": "Le classement et les revues s'affichent une fois la série terminée.",
  "series.closedForYou": "Cette série a fermé le {closes}. Vos donnes terminées comptent toujours dans le classement.",
  "series.closedSee": "Voir le classement et les revues",
  "review.title": "Donne {n} sur {deals}",
  "review.you": "Vous",
  "review.best": "Le meilleur des autres : {name}",
  "review.parRow": "L'ordinateur à votre place",
  "review.noOther": "Personne d'autre n'a encore joué cette donne.",
  "review.parting": "{where} : ici vous avez joué {yours} ; l'autre a joué {theirs}.",
  "review.partingPar": "{where} : ici vous avez joué {yours} ; l'ordinateur à votre place a joué {theirs}.",
  "review.same": "Vous avez joué cette donne exactement comme l'autre.",
  "review.samePar": "Vous avez joué cette donne exactement comme l'ordinateur à votre place.",
  "review.score": "Marque : {score}",
  "review.contract": "{contract} par {seat}",
  "review.allPass": "Les quatre ont passé.",
  "review.calls": "Enchères : {calls}",
  "review.trick": "Pli {n}",
  "review.analysis": "L'analyse de vos décisions par le coach",
  "review.prev": "← Donne précédente",
  "review.next": "Donne suivante →",
  "review.back": "Retour à la série",
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
    const key = s.ranked === false ? "series.doneUnranked" : "series.done";
    const words = t(key, { percent: percentText(s.percent), rank: s.rank, players: s.players });
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
    const closes = when(s.closes);
    const weekly = s.kind === "weekly";
    let action;
    if (s.finished) {
      action = el("a", { class: "button", href: `#/series/${encodeURIComponent(s.id)}`, "data-action": "series-ranking" }, t("series.ranking"));
      if (s.ranked === false) action = el("span", {}, action, keepToRank());
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
      several ? el("h3", {}, s.kind === "daily" || weekly ? seriesTitle(s.kind) : t("series.another")) : null,
      el("p", { class: "series-closes muted" }, tn(weekly ? "series.weekShort" : "series.lead", s.deals, { deals: s.deals, closes })),
      el(
        "div",
        { class: "series-row" },
        el("p", { class: "series-status", "data-role": "series-status" }, statusLine(s)),
        el("p", { class: "series-action" }, action),
      ),
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

// A guest's results are practice (docs/duplicate.md, "Ranked play"): how to be ranked.
function keepToRank() {
  return el("p", { class: "muted", "data-role": "series-keep" }, t("series.keepToRank", { keep: t("account.keep") }));
}

let again = 0;

// The imposed taker's case, said before the first card and kept while the deal is played:
// whether the person declares or defends, and against whom.
function showCase(c, v, info) {
  const old = document.querySelector('[data-role="series-case"]');
  if (old) old.remove();
  if (!c || !info || v.status === "deal_over" || v.status === "match_over") return;
  const contract = t(`bid.${c.contract}`);
  const text = c.declarer === v.seat ? t("series.caseDeclarer", { contract }) : t("series.caseDefender", { seat: t(`seat.${c.declarer}`), contract });
  const banner = info.querySelector('[data-role="series-banner"]');
  const line = el("span", { class: "series-case", "data-role": "series-case", "data-declarer": String(c.declarer) }, text);
  if (banner) banner.after(line);
  else info.prepend(line);
}

const rankings = new Map(); // match id -> the ranking, once fetched

function rankingTable(data, withReviews = true) {
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
  const guest = data.rows.some((r) => r.you && r.ranked === false);
  return el(
    "div",
    { class: "series-ranking", "data-role": "series-ranking" },
    el("h3", {}, t("series.rankingTitle")),
    el("p", { class: "series-count", "data-role": "series-count" }, tn("series.players", data.players ?? data.rows.length, { n: data.players ?? data.rows.length })),
    el("table", { class: "match-table" }, el("thead", {}, el("tr", {}, ...head)), el("tbody", {}, ...rows)),
    guest ? keepToRank() : "",
    withReviews ? el("p", {}, el("a", { href: `#/series/${data.id}`, "data-action": "series-reviews" }, t("series.reviews"))) : "",
  );
}

function rankingRow(r) {
  const name = r.former ? t("series.former") : r.name || t("series.guest");
  return el(
    "tr",
    { class: r.you ? "you" : null, "data-role": r.you ? "series-own-row" : "series-row" },
    el("td", { class: "num" }, String(r.rank)),
    el("td", {}, `${name}${r.you ? ` ${t("series.you")}` : ""}${r.ranked === false ? ` (${t("series.unranked")})` : ""}`),
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
  if (info) info.prepend(el("span", { class: "series-banner", "data-role": "series-banner" }, t(s.kind === "weekly" ? "series.weekBanner" : "series.banner")));
  showCase(s.case, v, info);
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
  if (s.closed && v.status === "deal_over" && !panel.querySelector('[data-role="series-closed-for-you"]')) {
    // Closed while this person was in the middle: no next deal, and no error either.
    const closes = when(s.closes);
    const note = el(
      "div",
      { class: "series-closed", "data-role": "series-closed-for-you" },
      el("p", {}, t("series.closedForYou", { closes })),
      el("p", {}, el("a", { href: `#/series/${s.id}`, "data-action": "series-closed-ranking" }, t("series.closedSee"))),
    );
    const next = panel.querySelector('[data-action="next-deal"]');
    if (next) next.replaceWith(note);
    else panel.append(note);
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

// ------------------------------------------------------------------ after the series

// #/series: the person's series; #/series/<id>: one series' ranking and its deals;
// #/series/<id>/review/<n>: the review of deal n.
export async function renderSeriesPage(box, id, number) {
  box.replaceChildren();
  if (!id) return renderSeriesHistory(box);
  if (number) return renderReview(box, id, number);
  let data;
  try {
    data = await call("GET", `/api/series/${encodeURIComponent(id)}/ranking`);
  } catch (e) {
    if (e.body && e.body.code === "not_finished") {
      box.replaceChildren(backHome(), el("p", { "data-role": "series-not-yet" }, t("series.notYet")));
      return;
    }
    throw e;
  }
  const deals = data.par.length;
  const links = [];
  for (let n = 1; n <= deals; n++) {
    links.push(el("li", {}, el("a", { href: `#/series/${id}/review/${n}`, "data-action": "series-review", "data-deal": String(n) }, t("series.deal", { n }))));
  }
  const parts = [backHome(), el("h2", {}, seriesTitle(data.kind)), rankingTable(data, false), el("h3", {}, t("series.reviews")), el("ul", { class: "series-deals" }, ...links)];
  if (data.closed) {
    parts.push(el("p", {}, el("a", { href: `/api/series/${encodeURIComponent(id)}/export`, download: "", "data-action": "series-export" }, t("series.download"))));
  }
  box.replaceChildren(...parts);
}

function backHome() {
  return el("p", {}, el("a", { href: "#/series", "data-action": "series-history" }, t("series.historyLink")));
}

function dayOf(line) {
  return new Date(line.opens).toLocaleDateString(language());
}

// A series' close, in the page's language and without seconds: "Dec 7, 2026, 12:00 AM".
function when(iso) {
  return new Date(iso).toLocaleString(language(), { dateStyle: "medium", timeStyle: "short" });
}

// A series' name by its kind: the deals of the day or of the week.
function seriesTitle(kind) {
  return t(kind === "weekly" ? "series.weekTitle" : "series.title");
}

async function renderSeriesHistory(box) {
  const data = await call("GET", "/api/series/history");
  const parts = [el("p", {}, el("a", { href: "#/", "data-action": "series-home" }, t("series.home"))), el("h2", {}, t("series.historyTitle"))];
  if (!data.series.length) {
    parts.push(el("p", { class: "muted", "data-role": "series-history-none" }, t("series.historyNone")));
    box.replaceChildren(...parts);
    return;
  }
  if (data.mean !== null) {
    parts.push(el("p", { "data-role": "series-history-mean" }, t("series.historyMean", { n: data.mean_of, percent: percentText(data.mean) })));
    const best = data.series.find((x) => x.id === data.best.id);
    parts.push(el("p", { "data-role": "series-history-best" }, t("series.historyBest", { percent: percentText(data.best.percent), day: dayOf(best) })));
  }
  const head = ["series.colSeries", "series.percent", "series.colRank", "series.colParDiff", null].map((k) => el("th", {}, k ? t(k) : ""));
  const rows = data.series.map((x) => {
    let rank;
    if (x.percent === null) rank = t(x.closed ? "series.notFinished" : "series.inPlay");
    else if (x.ranked === false) rank = t("series.wouldBe", { rank: x.rank, players: x.players });
    else rank = t("series.rankOf", { rank: x.rank, players: x.players });
    const open = x.finished || x.closed ? `#/series/${x.id}` : `#/match/${x.match}`;
    return el(
      "tr",
      { "data-role": "series-history-row", "data-series": x.id },
      el("td", {}, `${seriesTitle(x.kind)}, ${dayOf(x)}`),
      el("td", { class: "num" }, x.percent === null ? "—" : `${percentText(x.percent)} %`),
      el("td", {}, rank),
      el("td", { class: "num" }, signed(x.par_diff)),
      el("td", {}, el("a", { href: open, "data-action": "series-open" }, t("series.open"))),
    );
  });
  parts.push(el("table", { class: "match-table", "data-role": "series-history" }, el("thead", {}, el("tr", {}, ...head)), el("tbody", {}, ...rows)));
  box.replaceChildren(...parts);
}

function partingText(p, key) {
  if (!p) return null;
  const where = p.kind === "play" ? t("analysis.where.play", { n: p.trick + 1 }) : t(`analysis.where.${p.kind}`);
  const text = (a) => (a === null || a === undefined ? "—" : actionText(p.kind, a));
  return t(key, { where, yours: text(p.yours), theirs: text(p.theirs) });
}

// One record in a column: its score, its contract, its calls and its tricks (the trick where
// it parts from the person's record marked).
function recordColumn(title, role, score, record, parting) {
  const r = record.result || {};
  const parts = [el("h3", {}, title), el("p", { class: "num", "data-role": "review-score" }, t("review.score", { score: signed(score) }))];
  if (r.contract) parts.push(el("p", {}, t("review.contract", { contract: t(`bid.${r.contract}`), seat: seatName(r.declarer) })));
  else parts.push(el("p", {}, t("review.allPass")));
  parts.push(el("p", { class: "muted" }, t("review.calls", { calls: record.bids.map((b) => t(`bid.${b}`)).join(t("list.sep")) })));
  const play = record.play || [];
  const tricks = [];
  for (let k = 0; k * 4 < play.length; k++) {
    const here = parting && parting.kind === "play" && parting.trick === k;
    tricks.push(el("li", { class: here ? "parting" : null, "data-trick": String(k) }, play.slice(4 * k, 4 * k + 4).map(cardLabel).join(" ")));
  }
  parts.push(el("ol", { class: "review-tricks" }, ...tricks));
  return el("section", { class: "review-column", "data-role": role }, ...parts);
}

async function renderReview(box, id, n) {
  let data;
  try {
    data = await call("GET", `/api/series/${encodeURIComponent(id)}/review/${n}`);
  } catch (e) {
    if (e.body && e.body.code === "not_finished") {
      box.replaceChildren(backHome(), el("p", { "data-role": "series-not-yet" }, t("series.notYet")));
      return;
    }
    throw e;
  }
  const nav = el(
    "p",
    { class: "review-nav" },
    el("a", { href: `#/series/${id}`, "data-action": "review-back" }, t("review.back")),
    n > 1 ? el("a", { href: `#/series/${id}/review/${n - 1}`, "data-action": "review-prev" }, t("review.prev")) : "",
    n < data.deals ? el("a", { href: `#/series/${id}/review/${n + 1}`, "data-action": "review-next" }, t("review.next")) : "",
  );
  const lines = [];
  if (data.best) {
    const text = partingText(data.parting, "review.parting") || t("review.same");
    lines.push(el("p", { class: "review-parting", "data-role": "review-parting" }, text));
  } else {
    lines.push(el("p", { class: "muted", "data-role": "review-no-other" }, t("review.noOther")));
  }
  lines.push(el("p", { class: "review-parting", "data-role": "review-par-parting" }, partingText(data.par_parting, "review.partingPar") || t("review.samePar")));
  const columns = [recordColumn(t("review.you"), "review-you", data.you.score, data.you.record, null)];
  if (data.best) {
    const name = data.best.name || t("series.guest");
    columns.push(recordColumn(t("review.best", { name }), "review-best", data.best.score, data.best.record, data.parting));
  }
  columns.push(recordColumn(t("review.parRow"), "review-par", data.par.score, data.par.record, data.par_parting));
  const v = { id: data.match, deal_number: n, seat: 0, observation: data.observation, learning: true };
  box.replaceChildren(
    nav,
    el("h2", { "data-role": "review-title" }, t("review.title", { n, deals: data.deals })),
    ...lines,
    el("div", { class: "review-columns" }, ...columns),
    el("h3", {}, t("review.analysis")),
    analysisPane(v),
  );
}
