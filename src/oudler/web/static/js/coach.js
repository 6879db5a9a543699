// Learning mode at the table (docs/web-api.md, "Learning mode"): the switch, the hint, undo, and
// after a deal the Analysis tab with a trick-by-trick review and the coach's remarks. Everything
// shown comes from the server, which computes it from the person's own observation only.

import { api } from "./api.js";
import { cardLabel, cardRow, cardView, sortHand } from "./cards.js";
import { LANGS, language, t } from "./i18n.js";
import { el, seatLabel } from "./util.js";

Object.assign(LANGS.en, {
  "nav.learning": "learning",
  "home.learning": "Learning mode: hints, undo and an analysis of each deal",
  "coach.hintKey": "Hint (H)",
  "coach.undoKey": "Undo (U)",
  "coach.thinking": "The coach is thinking…",
  "coach.says": "The coach would choose: {action}",
  "coach.saysPlay": "The coach would play: {action}",
  "coach.follow": "Follow the hint",
  "coach.options": "Expected score of the deal for you",
  "coach.dealScore": "The deal's score: what the score sheet would give you for the whole deal, on average over the cards the others may hold; it changes as cards are seen.",
  "coach.value": "{v} points",
  "coach.valuePm": "{v} ± {pm} points",
  "coach.aboutEqual": "about equal to the coach's choice",
  "coach.pmNote": "± is the noise on an option's gap to the choice; ≈ marks one about equal to it.",
  "coach.chelemYes": "announce a chelem",
  "coach.chelemNo": "no chelem",
  "coach.poigneeNone": "show no poignée",
  "coach.poigneeShow": "show a {size} poignée",
  "coach.discardOf": "discard {cards}",
  "coach.undone": "Taken back: it is your turn again.",
  "result.tabBreakdown": "Breakdown",
  "result.tabAnalysis": "Analysis",
  "analysis.running": "Analysing your decisions… {k} of {n}",
  "analysis.starting": "Analysing your decisions…",
  "analysis.failed": "The analysis could not be made.",
  "analysis.retry": "Try again",
  "analysis.total": "Points lost against the coach's choices: {x}",
  "analysis.none": "No decision to judge in this deal.",
  "analysis.costliest": "Your costliest decisions",
  "analysis.others": "Your other decisions",
  "analysis.item": "{where}: you chose {played}; the coach: {best}",
  "analysis.good": "{where}: {played}, as the coach would",
  "analysis.itemPlay": "{where}: you played {played}; the coach: {best}",
  "analysis.close": "{where}: {played}, about equal to the coach's {best}",
  "analysis.unclear": "{where}: {played} or {best}: the coach cannot tell them apart",
  "analysis.cost": "−{x} points",
  "analysis.where.bid": "Bidding",
  "analysis.where.discard": "Discard",
  "analysis.where.chelem": "Chelem",
  "analysis.where.poignee": "Poignée",
  "analysis.where.play": "Trick {n}",
  "analysis.held": "Your cards then",
  "analysis.trick": "Trick {n} as it was played",
  "analysis.before": "Before the first trick",
  "analysis.prev": "← Previous",
  "analysis.next": "Next →",
  "analysis.step": "Step through the deal with the coach",
  "analysis.noRemark": "No remark: your card here was forced, or the coach agrees.",
  "analysis.why": "Why: {reason}",
  "analysis.youPlayed": "you",
});

Object.assign(LANGS.zh, {
  "nav.learning": "学习模式",
  "home.learning": "学习模式：提示、悔牌，以及每一手牌的分析",
  "coach.hintKey": "提示（H）",
  "coach.undoKey": "悔牌（U）",
  "coach.thinking": "教练正在思考……",
  "coach.says": "教练的选择：{action}",
  "coach.saysPlay": "教练会出：{action}",
  "coach.follow": "照提示做",
  "coach.options": "这一手你的期望得分",
  "coach.dealScore": "这一手的得分：整手牌打完后记分表上你得到（或失去）的分，按其他人可能持有的牌取平均；随着出牌会变化。",
  "coach.value": "{v} 分",
  "coach.valuePm": "{v} ± {pm} 分",
  "coach.aboutEqual": "和教练的选择差不多",
  "coach.pmNote": "± 是某个选择与教练的选择之差的估计误差；≈ 表示和教练的选择差不多。",
  "coach.chelemYes": "宣布大满贯",
  "coach.chelemNo": "不宣布大满贯",
  "coach.poigneeNone": "不亮将牌（poignée）",
  "coach.poigneeShow": "亮出将牌（{size} poignée）",
  "coach.discardOf": "扣{cards}",
  "coach.undone": "已悔牌：又轮到你了。",
  "result.tabBreakdown": "计分明细",
  "result.tabAnalysis": "分析",
  "analysis.running": "正在分析你的决定……{k} / {n}",
  "analysis.starting": "正在分析你的决定……",
  "analysis.failed": "分析没能完成。",
  "analysis.retry": "再试一次",
  "analysis.total": "和教练的选择相比，你少得了 {x} 分",
  "analysis.none": "这一手没有需要评判的决定。",
  "analysis.costliest": "代价最大的决定",
  "analysis.others": "其他决定",
  "analysis.item": "{where}：你选了{played}；教练选{best}",
  "analysis.good": "{where}：{played}，和教练一样",
  "analysis.itemPlay": "{where}：你出了{played}；教练出{best}",
  "analysis.close": "{where}：{played}，和教练选的{best}差不多",
  "analysis.unclear": "{where}：{played}还是{best}，教练分不出高下",
  "analysis.cost": "−{x} 分",
  "analysis.where.bid": "叫牌",
  "analysis.where.discard": "扣牌",
  "analysis.where.chelem": "大满贯",
  "analysis.where.poignee": "亮将牌（poignée）",
  "analysis.where.play": "第 {n} 墩",
  "analysis.held": "你当时的手牌",
  "analysis.trick": "第 {n} 墩的出牌",
  "analysis.before": "第一墩之前",
  "analysis.prev": "← 上一墩",
  "analysis.next": "下一墩 →",
  "analysis.step": "和教练一起逐墩回顾",
  "analysis.noRemark": "没有评语：这张牌是被迫出的，或者教练也会这样出。",
  "analysis.why": "原因：{reason}",
  "analysis.youPlayed": "你",
});

Object.assign(LANGS.fr, {
  // No-break spaces before : ; ! ? (the rule above i18n.js's French table).
  "nav.learning": "apprentissage",
  "home.learning": "Mode apprentissage\u00a0: conseils, annulation et analyse de chaque donne",
  "coach.hintKey": "Conseil (H)",
  "coach.undoKey": "Annuler (U)",
  "coach.thinking": "L'entraîneur réfléchit…",
  "coach.says": "L'entraîneur choisirait\u00a0: {action}",
  "coach.saysPlay": "L'entraîneur jouerait\u00a0: {action}",
  "coach.follow": "Suivre le conseil",
  "coach.options": "Score espéré de la donne pour vous",
  "coach.dealScore": "Le score de la donne\u00a0: ce que la feuille de marque vous donnerait pour toute la donne, en moyenne sur les cartes que les autres peuvent avoir\u202f; il change à mesure que les cartes tombent.",
  "coach.value": "{v} points",
  "coach.valuePm": "{v} ± {pm} points",
  "coach.aboutEqual": "à peu près égal au choix de l'entraîneur",
  "coach.pmNote": "±\u00a0: l'incertitude sur l'écart d'un choix à celui de l'entraîneur\u202f; ≈\u00a0: un choix qui le vaut à peu près.",
  "coach.chelemYes": "annoncer un chelem",
  "coach.chelemNo": "pas de chelem",
  "coach.poigneeNone": "ne pas montrer de poignée",
  "coach.poigneeShow": "montrer une poignée {size}",
  "coach.discardOf": "écarter {cards}",
  "coach.undone": "Coup annulé\u00a0: c'est de nouveau à vous.",
  "result.tabBreakdown": "Décompte",
  "result.tabAnalysis": "Analyse",
  "analysis.running": "Analyse de vos décisions… {k} sur {n}",
  "analysis.starting": "Analyse de vos décisions…",
  "analysis.failed": "L'analyse n'a pas pu être faite.",
  "analysis.retry": "Réessayer",
  "analysis.total": "Points perdus par rapport aux choix de l'entraîneur\u00a0: {x}",
  "analysis.none": "Aucune décision à juger dans cette donne.",
  "analysis.costliest": "Vos décisions les plus coûteuses",
  "analysis.others": "Vos autres décisions",
  "analysis.item": "{where}\u00a0: vous avez choisi {played}\u202f; l'entraîneur\u00a0: {best}",
  "analysis.good": "{where}\u00a0: {played}, comme l'entraîneur",
  "analysis.itemPlay": "{where}\u00a0: vous avez joué {played}\u202f; l'entraîneur\u00a0: {best}",
  "analysis.close": "{where}\u00a0: {played}, qui vaut à peu près le choix de l'entraîneur ({best})",
  "analysis.unclear": "{where}\u00a0: {played} ou {best}\u00a0: l'entraîneur ne peut pas les départager",
  "analysis.cost": "−{x} points",
  "analysis.where.bid": "Enchères",
  "analysis.where.discard": "Écart",
  "analysis.where.chelem": "Chelem",
  "analysis.where.poignee": "Poignée",
  "analysis.where.play": "Pli {n}",
  "analysis.held": "Vos cartes à ce moment",
  "analysis.trick": "Le pli {n} tel qu'il a été joué",
  "analysis.before": "Avant le premier pli",
  "analysis.prev": "← Précédent",
  "analysis.next": "Suivant →",
  "analysis.step": "Revoir la donne pli par pli avec l'entraîneur",
  "analysis.noRemark": "Pas de remarque\u00a0: votre carte était forcée, ou l'entraîneur est d'accord.",
  "analysis.why": "Pourquoi\u00a0: {reason}",
  "analysis.youPlayed": "vous",
});

const coach = {
  hooks: null, // {view, setView, send, handleError, render, toast}
  hints: new Map(), // decision key -> the hint given for it (the last few decisions)
  asking: new Set(), // the decision keys whose hint is being computed
  shown: null, // the decision key of the hint last brought into view
  analyses: new Map(), // "match:deal" -> the server's answer
  polling: new Set(),
  tab: new Map(), // "match:deal" -> "breakdown" | "analysis"
  step: new Map(), // "match:deal" -> the trick shown in the review (-1: before the first)
};

const decisionKey = (v) => `${v.id}:${v.version}`;
const dealKey = (v) => `${v.id}:${v.deal_number}`;
const fmt = (x) => (Math.round(x * 10) / 10).toLocaleString(language() === "zh" ? "zh-CN" : language());
// A signed value in the page's language ("+125,3" in French), the minus a true minus sign.
const fmtSigned = (x) => (x > 0 ? `+${fmt(x)}` : x < 0 ? `−${fmt(-x)}` : "0");

export function initCoach(hooks) {
  coach.hooks = hooks;
}

export function learningOption(form) {
  return form.get("learning") === "1";
}

// The action of a hint or a decision, in words.
export function actionText(kind, a) {
  if (kind === "bid") return t(`bid.${a}`);
  if (kind === "play") return cardLabel(a);
  if (kind === "discard") return t("coach.discardOf", { cards: sortHand(a).map(cardLabel).join(t("list.sep")) });
  if (kind === "chelem") return t(a ? "coach.chelemYes" : "coach.chelemNo");
  if (kind === "poignee") return !a || !a.length ? t("coach.poigneeNone") : t("coach.poigneeShow", { size: t(`size.${a.length}`) });
  return String(a);
}

function currentHint(v) {
  return (v && coach.hints.get(decisionKey(v))) || null;
}

// ------------------------------------------------------------------ hint and undo

// Each decision has its own request: a hint still being computed for an earlier decision (the
// person played on without waiting) neither blocks this one's nor replaces its answer.
export async function askHint() {
  const v = coach.hooks.view();
  if (!v || !v.learning || v.status !== "your_turn") return;
  const key = decisionKey(v);
  if (coach.asking.has(key) || currentHint(v)) return;
  coach.asking.add(key);
  coach.hooks.render();
  try {
    const answer = await api.hint(v.id, v.version);
    coach.hints.set(`${v.id}:${answer.version}`, answer.hint);
    while (coach.hints.size > 8) coach.hints.delete(coach.hints.keys().next().value);
  } catch (e) {
    coach.hooks.handleError(e);
  } finally {
    coach.asking.delete(key);
    coach.hooks.render();
  }
}

export async function undo() {
  const v = coach.hooks.view();
  // On the person's turn only: while a computer player is thinking the page's step would race it.
  if (!v || !v.undo || v.status !== "your_turn") return;
  try {
    coach.hooks.setView(await api.undo(v.id, v.version));
    coach.hooks.toast(t("coach.undone"));
  } catch (e) {
    coach.hooks.handleError(e);
  }
}

async function setLearning(on) {
  const v = coach.hooks.view();
  if (!v) return;
  try {
    coach.hooks.setView(await api.learning(v.id, on));
  } catch (e) {
    coach.hooks.handleError(e);
  }
}

// A wide window has the side column beside the table: the advice goes at its top, in view
// whatever the height of the table, the guide and the prompt; narrower, under the prompt's buttons.
const WIDE = window.matchMedia("(min-width: 961px)");

export function onLayoutChange(redraw) {
  WIDE.addEventListener("change", () => redraw());
}

// The learning controls under the prompt: hint and undo buttons, and on a narrow screen the
// hint once given (or the word that it is coming).
export function coachControls(v) {
  if (!v.learning || v.status === "deal_over" || v.status === "match_over") return [];
  const mine = v.status === "your_turn";
  const hint = currentHint(v);
  const thinking = coach.asking.has(decisionKey(v));
  const buttons = [el("button", { type: "button", "data-action": "hint", disabled: !mine || thinking || !!hint, onclick: askHint }, t("coach.hintKey"))];
  // At a table with friends there is no undo: what is played stands for everyone.
  if (!v.seats) buttons.push(el("button", { type: "button", "data-action": "undo", disabled: !v.undo || !mine, onclick: undo }, t("coach.undoKey")));
  const out = [el("div", { class: "buttons coach-buttons" }, ...buttons)];
  if (!WIDE.matches) out.push(...advice(v));
  return out;
}

function advice(v) {
  if (!v || !v.learning || v.status !== "your_turn") return [];
  const hint = currentHint(v);
  if (hint) return [hintPanel(hint)];
  if (coach.asking.has(decisionKey(v))) return [el("p", { class: "coach-thinking muted", "data-role": "hint-thinking" }, t("coach.thinking"))];
  return [];
}

// The side column's box: the advice on a wide screen, nothing otherwise.
function renderSide(v) {
  const box = document.querySelector("[data-role=coach-side]");
  if (!box) return;
  const parts = WIDE.matches ? advice(v) : [];
  box.replaceChildren(...parts);
  box.hidden = !parts.length;
}

// Once per hint, the page scrolls the least it can so that the advice and what it is about (the
// hand for a card or the discard, the prompt's buttons otherwise) are both in view under the top
// bar; if they cannot both be, the advice. (Wide, the advice's box stays put as the page scrolls.)
function reveal(v, hint) {
  const box = document.querySelector("[data-role=hint]");
  if (!box) return;
  const sticky = WIDE.matches;
  const top = document.querySelector(".topbar").getBoundingClientRect().bottom + 8;
  const bottom = window.innerHeight - 8;
  const about = document.getElementById(hint.kind === "play" || hint.kind === "discard" ? "hand" : "prompt").getBoundingClientRect();
  const own = box.getBoundingClientRect();
  let lo = sticky ? about.top : Math.min(own.top, about.top);
  let hi = sticky ? about.bottom : Math.max(own.bottom, about.bottom);
  if (hi - lo > bottom - top && !sticky) [lo, hi] = [own.top, own.bottom];
  let dy = 0;
  if (lo < top || hi - lo > bottom - top) dy = lo - top;
  else if (hi > bottom) dy = hi - bottom;
  if (dy) window.scrollBy({ top: dy, behavior: "instant" });
}

function hintPanel(hint) {
  // a card is played, a call (the discard, the chelem, the poignée) chosen
  const says = hint.kind === "play" ? "coach.saysPlay" : "coach.says";
  const best = el("p", { class: "coach-best" }, t(says, { action: actionText(hint.kind, hint.best) }));
  const parts = [best];
  if (hint.kind === "play") parts.push(cardRow([hint.best], ["small"]));
  if (hint.kind === "discard") parts.push(cardRow(sortHand(hint.best), ["small"]));
  parts.push(el("p", { class: "coach-reason", "data-role": "hint-reason" }, hint.reason[language()] || hint.reason.en));
  // A forced action is not valued (a figure from a few worlds would be noise): no table.
  if (hint.options.length) {
    parts.push(optionsTable(hint.kind, hint.options, hint.best));
    const gaps = hint.options.some((o) => o.diff_se > 0);
    parts.push(el("p", { class: "coach-note", "data-role": "deal-score-note" }, t("coach.dealScore") + (gaps ? ` ${t("coach.pmNote")}` : "")));
  }
  parts.push(
    el("div", { class: "buttons" }, el("button", { type: "button", class: "primary", "data-action": "follow-hint", onclick: () => coach.hooks.send(hint.action) }, t("coach.follow"))),
  );
  return el("div", { class: "coach-hint", "data-role": "hint", role: "status", "data-best": JSON.stringify(hint.best) }, ...parts);
}

// Each option's expected deal score; beside the others' values, the estimate's noise on their
// gap to the choice (its standard error, world by world), and ≈ after the name of an option about
// equal to the choice (answers stored before the coach gave that noise show the values alone).
function optionsTable(kind, options, best, played = undefined) {
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  const value = (o) =>
    o.diff_se > 0 && !same(o.action, best) ? t("coach.valuePm", { v: fmtSigned(o.value), pm: fmt(o.diff_se) }) : t("coach.value", { v: fmtSigned(o.value) });
  const rows = options.slice(0, 8).map((o) =>
    el(
      "tr",
      { class: [same(o.action, best) ? "best" : "", played !== undefined && same(o.action, played) ? "played" : "", o.close ? "close" : ""].join(" ").trim() },
      el("td", {}, actionText(kind, o.action), o.close ? el("span", { class: "about", "data-role": "about-equal", title: t("coach.aboutEqual") }, " ≈") : ""),
      el("td", { class: "num", "data-role": "option-value" }, value(o)),
    ),
  );
  return el("table", { class: "coach-options", "data-role": "coach-options" }, el("caption", {}, t("coach.options")), el("tbody", {}, ...rows));
}

// After each render: mark the hinted card(s) or call, and keep the learning switch in step.
export function decorate(v) {
  const tool = document.querySelector("[data-role=learning-tool]");
  // At a table with friends the creator chose hints or not when making it: no switch.
  if (tool) tool.hidden = !v || !!v.seats;
  const box = document.querySelector("[data-role=learning-toggle]");
  if (box && v) box.checked = !!v.learning;
  renderSide(v);
  if (!v) return;
  const hint = currentHint(v);
  if (!hint || v.status !== "your_turn") return;
  if (coach.shown !== decisionKey(v)) {
    coach.shown = decisionKey(v);
    reveal(v, hint);
  }
  const cards = hint.kind === "play" ? [hint.best] : hint.kind === "discard" ? hint.best : [];
  for (const name of cards) {
    const b = document.querySelector(`#hand [data-card="${name}"]`);
    if (b) b.classList.add("hinted");
  }
  if (hint.kind === "bid") {
    const b = document.querySelector(`[data-bid="${hint.best}"]`);
    if (b) b.classList.add("hinted");
  }
}

// H asks for a hint, U takes back; returns true when the key was the coach's.
export function coachKey(key) {
  const v = coach.hooks.view();
  if (!v || !v.learning) return false;
  if (key === "h" || key === "H") {
    askHint();
    return true;
  }
  if (key === "u" || key === "U") {
    undo();
    return true;
  }
  return false;
}

export function startCoach() {
  const box = document.querySelector("[data-role=learning-toggle]");
  if (box) box.addEventListener("change", () => setLearning(box.checked));
  // The home page's switch keeps the person's last choice.
  const choice = document.querySelector("[data-role=learning-input]");
  if (choice) {
    choice.checked = localStorage.getItem("oudler.learning") === "1";
    choice.addEventListener("change", () => localStorage.setItem("oudler.learning", choice.checked ? "1" : "0"));
  }
}

// ------------------------------------------------------------------ the Analysis tab

function whereText(d) {
  if (d.kind === "play") return t("analysis.where.play", { n: d.trick + 1 });
  return t(`analysis.where.${d.kind}`);
}

async function loadAnalysis(v) {
  const key = dealKey(v);
  if (coach.polling.has(key)) return;
  coach.polling.add(key);
  try {
    for (;;) {
      let answer;
      try {
        answer = await api.analysis(v.id, v.deal_number);
      } catch (e) {
        coach.hooks.handleError(e);
        answer = { status: "failed" };
      }
      coach.analyses.set(key, answer);
      refreshPanes(key, v);
      if (answer.status !== "running") return;
      await new Promise((r) => setTimeout(r, 800));
      // Only while it is shown (the table's result or a past match): asked again when back.
      if (!document.querySelector(`[data-role=analysis][data-deal-key="${key}"]`)) return;
    }
  } finally {
    coach.polling.delete(key);
  }
}

function refreshPanes(key, v) {
  for (const pane of document.querySelectorAll(`[data-role=analysis][data-deal-key="${key}"]`)) fillPane(pane, v);
}

// Called on the result panel: adds the Breakdown / Analysis tabs in learning mode.
export function addAnalysisTab(panel, v) {
  if (!v.learning) return;
  const key = dealKey(v);
  if (!coach.analyses.has(key) || coach.analyses.get(key).status !== "done") loadAnalysis(v);
  const pane = el("section", { class: "analysis", "data-role": "analysis", "data-deal-key": key });
  fillPane(pane, v);
  const tabs = el("div", { class: "tabs", role: "tablist" });
  const choose = (which) => {
    coach.tab.set(key, which);
    for (const b of tabs.children) b.setAttribute("aria-selected", String(b.dataset.tab === which));
    for (const child of panel.children) {
      if (child === tabs || child.tagName === "H2" || child.classList.contains("buttons")) continue;
      child.hidden = which === "analysis" ? child !== pane : child === pane;
    }
  };
  for (const which of ["breakdown", "analysis"]) {
    tabs.append(
      el("button", { type: "button", role: "tab", "data-tab": which, onclick: () => choose(which) }, t(which === "analysis" ? "result.tabAnalysis" : "result.tabBreakdown")),
    );
  }
  panel.children[0].after(tabs);
  panel.append(pane);
  const review = panel.querySelector("[data-role=review]");
  if (review) {
    review.append(
      el("button", { type: "button", "data-action": "review-with-coach", onclick: () => (coach.step.set(key, -1), fillPane(pane, v), choose("analysis")) }, t("analysis.step")),
    );
  }
  choose(coach.tab.get(key) || "breakdown");
}

// The analysis of a deal shown outside the table (a series' review): ``v`` names the match,
// the deal, the seat and the observation at the deal's end, as a view would.
export function analysisPane(v) {
  const key = dealKey(v);
  if (!coach.analyses.has(key) || coach.analyses.get(key).status !== "done") loadAnalysis(v);
  const pane = el("section", { class: "analysis", "data-role": "analysis", "data-deal-key": key });
  fillPane(pane, v);
  return pane;
}

function fillPane(pane, v) {
  const key = dealKey(v);
  const answer = coach.analyses.get(key);
  if (!answer || answer.status === "running") {
    const parts = [];
    if (answer && answer.total) {
      parts.push(el("progress", { max: String(answer.total), value: String(answer.done), "data-role": "analysis-progress" }));
      parts.push(el("p", { class: "muted" }, t("analysis.running", { k: answer.done, n: answer.total })));
    } else {
      parts.push(el("progress", { "data-role": "analysis-progress" }), el("p", { class: "muted" }, t("analysis.starting")));
    }
    pane.replaceChildren(...parts);
    return;
  }
  if (answer.status !== "done") {
    pane.replaceChildren(
      el("p", { class: "muted" }, t("analysis.failed")),
      el("button", { type: "button", "data-action": "analysis-retry", onclick: () => (coach.analyses.delete(key), loadAnalysis(v)) }, t("analysis.retry")),
    );
    return;
  }
  const a = answer.analysis;
  // At a table with friends the deal's analysis judges every person: this page shows its own.
  const me = v.seat || 0;
  const decisions = a.decisions.map((d, i) => ({ ...d, i })).filter((d) => d.seat === undefined || d.seat === me);
  if (!decisions.length) {
    pane.replaceChildren(el("p", { class: "muted" }, t("analysis.none")));
    return;
  }
  // A decision about equal to the coach's choice (within the noise) is not ranked as a cost.
  const costly = decisions.filter((d) => d.loss > 0 && !d.close).sort((x, y) => y.loss - x.loss).slice(0, 3);
  const rest = decisions.filter((d) => !costly.includes(d));
  const viewer = el("div", { class: "review-step", "data-role": "review-step" });
  const show = (step) => {
    coach.step.set(key, step);
    stepView(viewer, v, decisions, step, show);
  };
  const item = (d) => {
    const good = d.loss <= 0 || JSON.stringify(d.played) === JSON.stringify(d.best);
    const text = good ? t("analysis.good", { where: whereText(d), played: actionText(d.kind, d.played) }) : remarkText(d);
    return el(
      "li",
      { "data-decision": String(d.i), "data-where": d.where },
      el(
        "button",
        { type: "button", class: "link", onclick: () => show(d.kind === "play" ? d.trick : -1) },
        el("span", {}, text),
        d.loss > 0 && !d.close ? el("span", { class: "cost neg" }, ` ${t("analysis.cost", { x: fmt(d.loss) })}`) : "",
      ),
    );
  };
  const parts = [el("p", { class: "analysis-total", "data-role": "analysis-total" }, t("analysis.total", { x: fmt(a.total_loss[String(me)] || 0) }))];
  if (costly.length) parts.push(el("h3", {}, t("analysis.costliest")), el("ol", { class: "analysis-list costliest", "data-role": "costliest" }, ...costly.map(item)));
  parts.push(viewer);
  if (rest.length) {
    parts.push(
      el("details", { class: "analysis-others" }, el("summary", {}, t("analysis.others")), el("ul", { class: "analysis-list", "data-role": "analysis-others" }, ...rest.map(item))),
    );
  }
  pane.replaceChildren(...parts);
  show(coach.step.has(key) ? coach.step.get(key) : costly.length && costly[0].kind === "play" ? costly[0].trick : -1);
}

// A decision beside the coach's choice: a card played, a call chosen; one about equal to the
// choice said so (or, within a wide noise, that the coach cannot tell the two apart), not costed.
function remarkText(d) {
  const params = { where: whereText(d), played: actionText(d.kind, d.played), best: actionText(d.kind, d.best) };
  if (JSON.stringify(d.played) === JSON.stringify(d.best)) return t("analysis.good", params);
  if (d.close) return t(d.reason_code && d.reason_code.code === "unclear" ? "analysis.unclear" : "analysis.close", params);
  return t(d.kind === "play" ? "analysis.itemPlay" : "analysis.item", params);
}

// One step of the review: before the first trick (calls, discard, chelem, poignée) or one trick
// as it was played, the person's cards then, and the coach's remarks.
function stepView(box, v, decisions, step, show) {
  const o = v.observation;
  const tricks = o.tricks || [];
  const here = decisions.filter((d) => (step < 0 ? d.kind !== "play" : d.kind === "play" && d.trick === step));
  const title = step < 0 ? t("analysis.before") : t("analysis.trick", { n: step + 1 });
  const parts = [el("h3", { "data-role": "step-title", "data-step": String(step) }, title)];
  if (step >= 0 && tricks[step]) {
    const tr = tricks[step];
    const cells = tr.cards.map((name, k) => {
      const seat = (tr.leader + k) % 4;
      const cls = ["small"];
      if (seat === tr.winner) cls.push("winning");
      return el("div", { class: `step-card${seat === (v.seat || 0) ? " mine" : ""}`, "data-seat": String(seat) }, el("span", { class: "muted" }, seatLabel(seat)), cardView(name, cls));
    });
    parts.push(el("div", { class: "step-trick", "data-role": "step-trick" }, ...cells));
  }
  // Before the first trick the hand changes between decisions (the dog taken, the discard made):
  // each remark then shows the cards held at its own decision.
  const own = step < 0;
  const heldView = (hand) => [el("h4", {}, t("analysis.held")), el("div", { "data-role": "step-hand" }, cardRow(sortHand(hand), ["small"]))];
  const held = !own && here.length ? here[here.length - 1].hand : null;
  if (held) parts.push(...heldView(held));
  if (!here.length) parts.push(el("p", { class: "muted" }, t("analysis.noRemark")));
  for (const d of here) {
    const reason = (d.reasons && (d.reasons[language()] || d.reasons.en)) || d.reason;
    parts.push(
      el(
        "div",
        { class: "remark", "data-role": "remark", "data-where": d.where },
        el("p", {}, remarkText(d), d.loss > 0 && !d.close ? el("span", { class: "cost neg" }, ` ${t("analysis.cost", { x: fmt(d.loss) })}`) : ""),
        ...(own && d.hand ? heldView(d.hand) : []),
        el("p", { class: "coach-reason", "data-role": "remark-reason" }, t("analysis.why", { reason })),
        optionsTable(d.kind, d.options || [], d.best, d.played),
      ),
    );
  }
  parts.push(
    el(
      "div",
      { class: "buttons" },
      el("button", { type: "button", "data-action": "step-prev", disabled: step < 0, onclick: () => show(step - 1) }, t("analysis.prev")),
      el("button", { type: "button", "data-action": "step-next", disabled: step >= tricks.length - 1, onclick: () => show(step + 1) }, t("analysis.next")),
    ),
  );
  box.replaceChildren(...parts);
}
