// The web table: renders the server's view (docs/web-api.md) and sends the person's intents.
// The page never decides a rule: legal actions and refusal reasons come from the server.

import { renderAids } from "./aids.js";
import * as anim from "./anim.js";
import { api, ApiError, parseJson } from "./api.js";
import { cardBack, cardButton, cardLabel, cardRow, cardView, sortHand } from "./cards.js";
import { language, pickLanguage, setLanguage, t, tn } from "./i18n.js";
import { addAnalysisTab, coachControls, coachKey, decorate, initCoach, learningOption, onLayoutChange, startCoach } from "./coach.js";
import { confirmBox } from "./dialog.js";
import { capitalise, reasonLine, translateReason } from "./reasons.js";
import { renderHistory, renderPastMatch } from "./history.js";
import { noteRefused, renderTour, restartTour } from "./tour.js";
import { pictureSvg, playerName } from "./players.js";
import { renderResult } from "./result.js";
import * as sounds from "./sounds.js";
import { renderSheet } from "./sheet.js";
import { decorateSeries, renderSeriesHome, renderSeriesPage } from "./series.js";
import { dealOrdinal, el, makerLabel, seatLabel, seatName, setTableNames, sleep, voidDeals } from "./util.js";
import { Live, PHRASES, RESERVE_ERRORS, isPerson, namesAtTable, personName, placeName, placeSeats, rememberInvites, theirTurnLine, waitingLine, waitingPanel } from "./friends.js";
import { TurnClock, keepInvite, leftChoices } from "./turns.js";

const $ = (id) => document.getElementById(id);

const state = {
  view: null,
  pace: readPace(),
  clickGather: localStorage.getItem("oudler.clickGather") === "1",
  gather: null, // a completed trick still shown on the table: {trick, number}
  gatherTimer: null,
  gatherWaiters: [],
  discard: new Set(), // cards chosen for the discard
  poigneeSize: null,
  poigneeShow: new Set(), // cards chosen to show in the poignée
  reason: null, // {card, text}: the last refusal explained
  busy: false,
  pumping: false,
  warming: null, // {progress}: the computer players' fast search is still being built
  watchingWarming: false,
  resultHidden: false,
  showPrev: false,
  promptKey: null,
  dogOpen: true, // the dog's box under the table, open until the person closes it
  history: null, // "" on the history page, a match id when reviewing a past match
  connected: null, // at a table with people: the seats whose person is connected (null: unknown)
  away: new Map(), // seat -> when (Date.now()) its person's last page closed, as the server said
  freeAfter: null, // seconds away before the creator may free a seat (the server's setting)
  freeTimer: null,
  said: new Map(), // seat -> {phrase, until}: a phrase shown by that seat for a few seconds
};

function readPace() {
  const saved = Number(localStorage.getItem("oudler.pace"));
  return Number.isFinite(saved) && localStorage.getItem("oudler.pace") !== null ? saved : 700;
}

// deal_number counts every deal dealt (void ones too), so it names one deal of a match.
const dealKey = (v) => `${v.id}:${v.deal_number}`;

// The seed as the person entered it (the match seed), remembered by the page that sent it; else,
// once a deal is over, that deal's own seed, named as such.
const SEEDS = "oudler.seeds";
function rememberSeed(id, seed) {
  const all = JSON.parse(localStorage.getItem(SEEDS) || "{}");
  all[id] = seed;
  localStorage.setItem(SEEDS, JSON.stringify(all));
}
function seedText(v) {
  const entered = JSON.parse(localStorage.getItem(SEEDS) || "{}")[v.id];
  if (entered !== undefined) return t("info.seed", { seed: entered });
  if (v.seed !== null && v.seed !== undefined) return t("info.dealSeed", { seed: v.seed });
  return "";
}

// "Deal 2 of 4", counting scored deals only; a void deal and a deal played again say so.
function dealText(v) {
  if (v.length === 1) return t("info.replayDeal");
  return t("info.dealOf", { n: dealOrdinal(v), len: v.length });
}
function dealNote(v) {
  const o = v.observation;
  if (o.result && o.result.void) return t("info.voidNow");
  const k = voidDeals(v);
  return k ? t("info.redealt", { k }) : "";
}
const obsOf = () => state.view && state.view.observation;
const myTurn = () => state.view && state.view.status === "your_turn";

// ------------------------------------------------------------------ view updates

// The cards played between two views of the same deal, in order: [{seat, card}].
function playsOf(o) {
  const out = [];
  for (const tr of [...o.tricks, o.trick]) tr.cards.forEach((card, i) => out.push({ seat: (tr.leader + i) % 4, card }));
  return out;
}

function newPlays(prev, v) {
  if (!prev || prev.id !== v.id || dealKey(prev) !== dealKey(v)) return [];
  return playsOf(v.observation).slice(playsOf(prev.observation).length);
}

// Movement and sound for what changed, once the new view is drawn.
function liven(prev, v, plays) {
  const o = v.observation;
  const newDeal = !prev || prev.id !== v.id || dealKey(prev) !== dealKey(v);
  if (newDeal && o.phase === "bidding" && o.bids.length === 0) anim.deal([...$("hand").querySelectorAll(".card")], $("center"));
  for (const { seat, card } of plays) {
    const node = $("center").querySelector(`[data-show="${card}"]`);
    const from = seat === o.seat && state.playedFrom ? state.playedFrom : $(`seat-${seat}`);
    anim.flyIn(node, from);
    sounds.play("card");
  }
  state.playedFrom = null;
  if (v.status === "your_turn" && (!prev || prev.status !== "your_turn" || newDeal)) sounds.play("turn");
}

function setView(v) {
  const prev = state.view;
  // Versions only go forward: an answer that comes after the socket pushed a newer view of the
  // same table (its computer players already acted) is not drawn over it.
  if (prev && prev.id === v.id && v.version < prev.version) return;
  const plays = newPlays(prev, v);
  if (!prev || prev.id !== v.id) {
    state.connected = null;
    state.said.clear();
  }
  if (!prev || prev.id !== v.id || dealKey(prev) !== dealKey(v)) {
    state.discard.clear();
    state.poigneeShow.clear();
    state.poigneeSize = null;
    state.resultHidden = false;
    state.showPrev = false;
    // The dog's box starts open, unless the person closed it in this deal before (a reload keeps
    // it closed) or took the dog and has discarded (the dog is then in their hand).
    const o = v.observation;
    const discarded = o.declarer === o.seat && o.phase !== "discard" && o.phase !== "bidding";
    state.dogOpen = localStorage.getItem("oudler.dogClosed") !== dealKey(v) && !discarded;
    gatherNow(false);
  } else {
    const before = prev.observation.tricks.length;
    const after = v.observation.tricks.length;
    if (after > before) startGather(v.observation.tricks[after - 1], after);
  }
  if (!prev || prev.version !== v.version) state.reason = null;
  if (v.observation.phase !== "discard") state.discard.clear();
  // "Next deal" at a table with people closes this person's breakdown, while the others read.
  if (closedResult(v) && !(prev && prev.id === v.id && closedResult(prev))) state.resultHidden = true;
  state.view = v;
  state.warming = v.warming || null;
  render();
  liven(prev, v, plays);
  if (v.seats) {
    // A table with friends: the server drives its computer players and pushes every change;
    // the page asks for a step itself only if nothing came for a while (a lost connection).
    live.open(v.id, refresh);
    clearTimeout(state.stepTimer);
    if (v.status === "computer_turn") state.stepTimer = setTimeout(() => state.view === v && pump(), 8000);
  } else {
    live.close();
    if (v.status === "computer_turn") pump();
  }
  if (state.warming) watchWarming();
}

// A view pushed by the table's socket (or asked for while it is down): drawn if it is newer.
function pushed(text) {
  const v = typeof text === "string" ? parseJson(text) : text;
  const now = state.view;
  if (!now || now.id !== v.id) return;
  if (v.version > now.version || (v.version === now.version && tableChanged(v, now))) setView(v);
}

// What changes at a table with friends without an action (so without a new version): who sits
// where, a seat left and the creator's choice for it, and so whose clock runs; and a poignée
// answered, which is part of the first card's step (its question answered in another tab, or a
// poignée shown).
const TABLE_FIELDS = ["seats", "left", "turn", "turn_time", "hints", "observation", "next_deal"];
function tableChanged(v, now) {
  return TABLE_FIELDS.some((k) => JSON.stringify(v[k]) !== JSON.stringify(now[k]));
}

async function refresh(id) {
  try {
    pushed(await api.get(id));
  } catch (e) {
    // Still offline: the socket's next try will tell.
  }
}

// Between the views, the table's events: who is connected, and the phrases said.
const SAID_MS = 4000;
function tableEvent(e) {
  const v = state.view;
  if (!v || !v.seats) return;
  if (e.event === "presence") {
    state.connected = new Set(e.connected);
    const now = Date.now();
    state.away = new Map(Object.entries(e.absent || {}).map(([s, secs]) => [Number(s), now - secs * 1000]));
    state.freeAfter = typeof e.free_after === "number" ? e.free_after : null;
    freeLater(v);
  } else if (e.event === "phrase" && PHRASES.includes(e.phrase)) {
    state.said.set(e.seat, { phrase: e.phrase, until: Date.now() + SAID_MS });
    const who = e.seat === v.seat ? t("seat.you") : seatLabel(e.seat);
    announce(t("friends.said", { who, phrase: t(`phrase.${e.phrase}`) }));
    setTimeout(() => state.view && state.view.id === v.id && renderSeats(state.view), SAID_MS + 50);
  } else {
    return;
  }
  renderSeats(v);
}

// The creator may free the seat of a person away for ``freeAfter`` seconds: drawn again then.
function mayFree(v, seat) {
  if (v.seat !== 0 || seat === 0 || !state.connected || state.connected.has(seat) || state.freeAfter === null) return false;
  if (!isPerson(v, seat) || v.status === "match_over" || !state.away.has(seat)) return false;
  return Date.now() - state.away.get(seat) >= state.freeAfter * 1000;
}

function freeLater(v) {
  clearTimeout(state.freeTimer);
  if (v.seat !== 0 || state.freeAfter === null) return;
  const due = [...state.away.entries()].filter(([s]) => isPerson(v, s) && !state.connected.has(s)).map(([, since]) => since + state.freeAfter * 1000 - Date.now());
  const next = Math.min(...due.filter((ms) => ms > 0));
  if (Number.isFinite(next)) state.freeTimer = setTimeout(() => state.view && state.view.id === v.id && renderSeats(state.view), next + 100);
}

async function freeSeat(seat) {
  const v = state.view;
  try {
    setView(await api.freeSeat(v.id, seat));
  } catch (e) {
    if (e instanceof ApiError && e.body && e.body.code === "seat_in_use") {
      toast(t("leave.inUse"));
      setView(e.body.view);
    } else {
      handleError(e);
    }
  }
}

function liveState(open) {
  // Without the socket the page does not know who is connected: no markers rather than stale ones.
  if (!open && state.connected) {
    state.connected = null;
    if (state.view) renderSeats(state.view);
  }
}

const live = new Live(pushed, liveState, tableEvent);

function renderSeats(v) {
  for (let s = 0; s < 4; s++) renderSeat(v, s);
}

// At a table with people: the fixed phrases, one button each (no free text).
function renderPhrases(v) {
  const box = $("phrases");
  if (!box) return;
  box.hidden = !v.seats;
  if (!v.seats) return box.replaceChildren();
  const say = async (phrase) => {
    try {
      await api.say(v.id, phrase);
    } catch (e) {
      if (e instanceof ApiError && e.status === 429) toast(t("friends.tooMany"));
      else handleError(e);
    }
  };
  box.replaceChildren(
    el("h2", {}, t("friends.say")),
    el("div", { class: "phrase-buttons" }, ...PHRASES.map((p) => el("button", { type: "button", "data-phrase": p, onclick: () => say(p) }, t(`phrase.${p}`)))),
  );
}

async function fillSeat(seat) {
  const v = state.view;
  try {
    setView(await api.seatComputer(v.id, seat));
  } catch (e) {
    handleError(e);
  }
}

// The creator waits for someone at a seat a person left: a new link to send, shown while the
// table waits (the old one no longer seats anyone).
async function reinviteSeat(seat) {
  const v = state.view;
  try {
    const answer = await api.reinvite(v.id, seat);
    for (const invite of answer.invites || []) keepInvite(v.id, invite);
    setView(answer);
    render(); // the same version: drawn again with the link
  } catch (e) {
    handleError(e);
  }
}

// The creator keeps an open seat for an account (or, with null, for anyone with its link again).
async function reserveSeat(seat, name) {
  const v = state.view;
  try {
    setView(await api.reserve(v.id, seat, name));
    render(); // the same version: drawn again with the seat's new words
  } catch (e) {
    const key = e.body && RESERVE_ERRORS[e.body.code];
    if (key) toast(t(key));
    else handleError(e);
  }
}

// A person leaves the table (not its creator): their seat opens for the creator to fill.
async function leaveTable() {
  const v = state.view;
  if (!v || !(await confirmBox(t("leave.confirm"), t("leave.yes"), t("leave.no")))) return;
  try {
    await api.leave(v.id);
  } catch (e) {
    if (!(e instanceof ApiError && e.status === 404)) {
      handleError(e);
      return;
    }
  }
  live.close();
  toast(t("leave.done"));
  state.view = null;
  goHome();
}

// The countdown of the person to act, on every seated person's screen.
let clock = null;
function turnClock() {
  if (!clock) {
    const who = (seat) => {
      const v = state.view;
      const s = v && v.seats && v.seats[seat];
      return s && (s.name || s.former) ? `${personName(s)} (${seatName(seat)})` : seatName(seat);
    };
    clock = new TurnClock($("turn-clock"), () => state.view, who);
  }
  return clock;
}

// The first start after an install: the computer players' fast search is being built. They play
// meanwhile (with their plain search); the prompt says so, with the progress, until it is ready.
function warmingBox(w) {
  const pct = Math.min(100, Math.round(w.progress * 100));
  return el(
    "div",
    { class: "warming", "data-role": "warming" },
    el("p", { class: "status" }, t("warming.title", { pct })),
    el("progress", { max: "100", value: String(pct), "aria-hidden": "true" }),
    el("p", { class: "help" }, t("warming.help")),
  );
}

// Asks how far it is every 1.5 s while it lasts, and changes that line only (never the rest of
// the prompt, where the person may be choosing).
async function watchWarming() {
  if (state.watchingWarming) return;
  state.watchingWarming = true;
  try {
    while (state.warming) {
      await sleep(1500);
      try {
        state.warming = (await api.computerPlayers()).warming;
      } catch (e) {
        continue; // the next view or look will tell
      }
      const line = $("prompt").querySelector('[data-role="warming"]');
      if (line && state.warming) line.replaceWith(warmingBox(state.warming));
      else if (line) line.remove();
    }
  } finally {
    state.watchingWarming = false;
  }
}

function gatherDelay() {
  return state.pace === 0 ? 0 : 500 + state.pace * 1.5;
}

function startGather(trick, number) {
  clearTimeout(state.gatherTimer);
  state.gather = { trick, number };
  if (!state.clickGather) state.gatherTimer = setTimeout(() => gatherNow(), gatherDelay());
}

function gatherNow(redraw = true) {
  clearTimeout(state.gatherTimer);
  const had = state.gather !== null;
  if (had && redraw) {
    // The trick slides to its winner as the table is drawn without it.
    const winner = state.gather.trick.winner;
    anim.gatherTo([...$("center").querySelectorAll(".card")], $(`seat-${winner}`));
    sounds.play("gather");
  }
  state.gather = null;
  const waiters = state.gatherWaiters.splice(0);
  for (const w of waiters) w();
  if (had && redraw) render();
}

function waitGathered() {
  if (!state.gather) return Promise.resolve();
  return new Promise((resolve) => state.gatherWaiters.push(resolve));
}

// While a computer player is to act: ask the server to let it act, and show its action once the
// pace has passed too (the pace is waited while it thinks, not before: an expert's second of
// thought is not added to it). The server holds the request while the player thinks; an answer
// with the same version (202) means it is still thinking: ask again at once, the pace has been
// waited already.
async function pump() {
  if (state.pumping) return;
  state.pumping = true;
  let thinking = false;
  try {
    while (state.view && state.view.status === "computer_turn") {
      const v = state.view;
      await waitGathered();
      const pace = thinking ? 0 : state.pace;
      thinking = false;
      if (state.view !== v) continue;
      try {
        const [next] = await Promise.all([api.step(v.id, v.version), sleep(pace)]);
        if (state.view !== v) continue; // the person changed the table meanwhile (an undo)
        thinking = next.version === v.version;
        setView(next);
      } catch (e) {
        handleError(e);
        // 404: not ours; 500: the match cannot be replayed. Otherwise (503, network) try again
        // after a pause, unless a 409 already brought the current view.
        if (e.status === 404 || e.status === 500) break;
        if (!(e.body && e.body.view)) await sleep(1500);
      }
    }
  } finally {
    state.pumping = false;
  }
}

// Sends one of the person's actions; the answer is the new view or a clear error.
async function send(action) {
  const v = state.view;
  if (!v || state.busy) return;
  state.busy = true;
  gatherNow(false);
  try {
    setView(await api.act(v.id, v.version, action));
  } catch (e) {
    handleError(e);
  } finally {
    state.busy = false;
  }
}

const CONFLICT_WORDS = { stale_version: "err.stale", not_your_turn: "err.stale", table_not_full: "friends.waiting", seat_taken: "friends.taken" };

// Returns true when the error was understood (the view is then current).
function handleError(e) {
  if (!(e instanceof ApiError)) {
    console.error(e);
    toast(String(e));
    return false;
  }
  if (e.status === 0) {
    toast(t("err.network"));
    return false;
  }
  if (e.status === 404) {
    toast(t("err.notFound"));
    goHome();
    return true;
  }
  if (e.body && e.body.view) {
    // A refusal that brings the current table: the page's own sentence for its code, in the
    // page's language (the server's words name versions); any other 409 means the page was behind.
    const key = CONFLICT_WORDS[e.body.code] || (e.status === 409 ? "err.stale" : null);
    toast(key ? t(key) : translateReason(e.body.error));
    setView(e.body.view);
    return true;
  }
  toast(capitalise(translateReason(e.body && e.body.error ? e.body.error : e.message)));
  return true;
}

let toastTimer = null;
function toast(text) {
  const box = $("toast");
  box.textContent = text;
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (box.hidden = true), 5000);
}

function announce(text) {
  $("announce").textContent = text;
}

// ------------------------------------------------------------------ routing

// Back to the list of matches; `focus` names the part of the home page to bring into view.
function goHome(focus = null) {
  state.homeFocus = focus;
  if (location.hash !== "#/") location.hash = "#/";
  else route();
}

async function route() {
  const m = /^#\/match\/([\w-]+)/.exec(location.hash);
  const past = /^#\/history(?:\/([\w-]+))?/.exec(location.hash);
  // A person's series, one series' ranking and deals, a deal's review (js/series.js).
  const series = /^#\/series(?:\/([\w-]+)(?:\/review\/(\d+))?)?$/.exec(location.hash);
  closeOverlays();
  state.history = past ? past[1] || "" : series ? "series" : null;
  if (past || series) {
    state.view = null;
    gatherNow(false);
    render();
    try {
      if (series) await renderSeriesPage($("history-view"), series[1] || "", Number(series[2] || 0));
      else if (past[1]) await renderPastMatch($("history-view"), past[1]);
      else await renderHistory($("history-view"));
    } catch (e) {
      handleError(e);
    }
    return;
  }
  if (!m) {
    state.view = null;
    gatherNow(false);
    render();
    await Promise.all([loadMatches(), renderSeriesHome($("series-home"))]);
    const target = state.homeFocus && $(state.homeFocus);
    state.homeFocus = null;
    if (target) {
      target.scrollIntoView({ block: "start" });
      const first = target.querySelector("button, a, input");
      if (first) first.focus({ preventScroll: true });
    }
    return;
  }
  if (state.view && state.view.id === m[1]) return;
  try {
    const v = await api.get(m[1]);
    state.view = null;
    setView(v);
  } catch (e) {
    handleError(e);
  }
}

function openMatch(v) {
  state.view = null;
  history.pushState(null, "", `#/match/${v.id}`);
  setView(v);
}

async function loadMatches() {
  const box = $("match-list");
  try {
    const data = await api.list();
    box.replaceChildren(renderMatchList(data.matches || []));
  } catch (e) {
    box.replaceChildren(el("p", { class: "muted" }, t("err.network")));
  }
}

// A table with friends in the list: said so, with who sits where ("Bob (North)"), the person's
// own seat by their name, a seat still open as such.
function friendsLines(m) {
  const who = m.seats.map((s) => {
    if (s.you) return s.name ? t("seat.withYou", { name: s.name }) : t("seat.you");
    const name = s.kind === "computer" ? playerName(m.level, s.seat) : s.kind === "person" ? personName(s) : t("home.openSeat");
    return t("seat.named", { name, seat: seatName(s.seat) });
  });
  return [
    el("div", { class: "with-friends", "data-role": "with-friends" }, t("home.withFriends")),
    el("div", { class: "muted match-seats", "data-role": "match-seats" }, who.join(t("list.sep"))),
  ];
}

const isFinished = (m) => m.finished !== null && m.finished !== undefined && m.finished !== false;

// The person's matches: those in play first (to resume), then the finished ones.
function renderMatchList(matches) {
  if (!matches.length) return el("p", { class: "muted" }, t("home.none"));
  const groups = [
    ["home.inPlay", "matches-in-play", matches.filter((m) => !isFinished(m))],
    ["home.recent", "matches-finished", matches.filter(isFinished)],
  ];
  const box = document.createDocumentFragment();
  for (const [title, role, some] of groups) {
    // A phone scrolls the table, not the page.
    if (some.length) box.append(el("h3", { class: "match-group" }, t(title)), el("div", { class: "scroll-x" }, matchTable(some, role)));
  }
  return box;
}

function matchTable(matches, role) {
  const rows = matches.map((m) => {
    const finished = isFinished(m);
    const when = m.created;
    const total = Array.isArray(m.totals) ? m.totals[m.seat || 0] : "";
    return el(
      "tr",
      { "data-match": m.id },
      el("td", {}, when ? new Date(when).toLocaleString() : m.id),
      // A deal played again on its own is a game of one deal: say so rather than "1".
      el("td", {}, m.length === 1 ? t("info.replayDeal") : String(m.length ?? "")),
      el("td", {}, m.level ? t(`level.${m.level.split("@")[0]}`) : "", ...(m.seats ? friendsLines(m) : [])),
      el("td", { "data-role": "match-state" }, finished ? t("home.finished") : m.waiting ? t("home.waitingFriends") : t("home.playing")),
      el("td", { class: "num" }, String(total)),
      el(
        "td",
        { class: "actions" },
        el("a", { href: `#/match/${m.id}`, "data-action": "open-match" }, finished ? t("home.open") : t("home.resume")),
        " ",
        el("a", { href: api.recordUrl(m.id), download: `oudler-${m.id}.json`, "data-action": "download-record" }, t("home.download")),
      ),
    );
  });
  return el(
    "table",
    { class: "match-table", "data-role": role },
    el(
      "thead",
      {},
      el("tr", {}, ...["home.started", "home.length", "home.level", "home.state", "home.score", ""].map((k) => el("th", {}, k ? t(k) : ""))),
    ),
    el("tbody", {}, ...rows),
  );
}

// ------------------------------------------------------------------ rendering

function render() {
  const v = state.view;
  const inHistory = state.history !== null && state.history !== undefined && !v;
  $("home").hidden = !!v || inHistory;
  $("history-view").hidden = !inHistory;
  $("table-view").hidden = !v;
  setTableNames(namesAtTable(v));
  if (!v) {
    live.close();
    turnClock().update();
    $("deal-info").replaceChildren();
    $("deal-over").hidden = true;
    decorate(null);
    $("dog-box").hidden = true;
    renderTour($("tour"), null, render);
    decorateSeries(null, render);
    return;
  }
  // The version drawn, for tests and tools that wait for the page to catch up.
  $("table-view").dataset.version = String(v.version);
  $("table-view").dataset.match = v.id;
  renderHeader(v);
  placeSeats(v);
  renderSeats(v);
  renderPhrases(v);
  renderCenter(v);
  renderDog(v);
  placeTour();
  renderTour($("tour"), v, render);
  renderPrompt(v);
  turnClock().update();
  $("table-leave").hidden = !(v.seats && v.seat !== 0 && v.status !== "match_over");
  renderHand(v);
  renderInfo(v);
  $("aids").replaceChildren(...renderAids(v, render));
  $("sheet").replaceChildren(renderSheet(v));
  renderDealOver(v);
  renderPrevTrick(v);
  focusNewPrompt(v);
  decorate(v);
  decorateSeries(v, render);
}

// On a wide screen the guide stands at the top of the side column, beside the table: under the
// table it pushed the hand below the fold at 1280x800 (issue 28, item 16). Narrower, the side
// column comes after the hand, so the guide stays under the table.
const WIDE = window.matchMedia("(min-width: 961px)");
function placeTour() {
  const box = $("tour");
  if (WIDE.matches && box.parentElement !== $("side")) $("coach-side").after(box);
  else if (!WIDE.matches && box.parentElement === $("side")) $("prompt").before(box);
}

function renderHeader(v) {
  const o = v.observation;
  const parts = [el("span", { class: "deal-no", "data-role": "deal-number" }, dealText(v))];
  const note = dealNote(v);
  if (note) parts.push(el("span", { class: "progress", "data-role": "deal-note" }, note));
  // The seed of a deal in play would reveal every hand: the server sends it once the deal is over;
  // a seed the person entered is theirs to see.
  const seed = seedText(v);
  if (seed) parts.push(el("span", { class: "seed", "data-role": "seed" }, seed));
  if (o.contract !== null && o.contract !== undefined) {
    parts.push(
      el(
        "span",
        { class: "contract", "data-role": "contract" },
        t("info.contract", { contract: t(`bid.${o.contract}`), seat: makerLabel(o.declarer, v.by && v.by.declarer) }),
      ),
    );
  }
  $("deal-info").replaceChildren(...parts);
}

// The call each seat made, in speaking order from the dealer's right.
function callsBySeat(o) {
  const calls = {};
  o.bids.forEach((b, i) => (calls[(o.dealer + 1 + i) % 4] = b));
  return calls;
}

function cardsLeft(o, seat) {
  if (seat === o.seat) return o.hand.length;
  let played = 0;
  for (const tr of o.tricks) if (tr.cards.length > (seat - tr.leader + 4) % 4) played++;
  if (o.trick.cards.length > (seat - o.trick.leader + 4) % 4) played++;
  const holdsDog = o.phase === "discard" && seat === o.declarer;
  return (holdsDog ? 24 : 18) - played;
}

function renderSeat(v, seat) {
  const o = v.observation;
  const box = $(`seat-${seat}`);
  const calls = callsBySeat(o);
  // While the table waits for a seat to be taken, nobody is to act: no seat is lit.
  const toMove = o.to_move === seat && o.phase !== "done" && v.status !== "waiting";
  box.classList.toggle("to-move", toMove);
  box.classList.toggle("declarer", o.declarer === seat);
  if (toMove) box.setAttribute("aria-current", "true");
  else box.removeAttribute("aria-current");

  const name = el("div", { class: "seat-name" });
  if (seat === o.seat) {
    name.append(seatName(seat, true));
  } else if (v.seats && v.seats[seat] && v.seats[seat].kind !== "person" && v.seats[seat].kind !== "computer") {
    // A seat kept for a friend (or one a person left): nobody plays there yet.
    name.append(el("span", { class: "player", "data-role": "player-name" }, t("friends.open")), el("span", { class: "dir" }, seatName(seat)));
  } else if (isPerson(v, seat)) {
    name.append(el("span", { class: "player", "data-role": "player-name" }, personName(v.seats[seat])), el("span", { class: "dir" }, seatName(seat)));
  } else {
    // A computer player: its level's picture, its name, its seat.
    name.insertAdjacentHTML("beforeend", pictureSvg(v.level));
    name.append(el("span", { class: "player", "data-role": "player-name" }, playerName(v.level, seat)), el("span", { class: "dir" }, seatName(seat)));
  }
  if (v.seats && state.connected && v.seats[seat] && v.seats[seat].kind === "person") {
    // Who is connected (their page holds the table's socket open), said in words for readers.
    const on = state.connected.has(seat);
    const word = t(on ? "friends.connected" : "friends.away");
    name.append(el("span", { class: `presence ${on ? "on" : "off"}`, "data-role": "presence", "data-connected": String(on), title: word }, el("span", { class: "sr-only" }, word)));
    if (mayFree(v, seat)) {
      name.append(el("button", { type: "button", class: "free-seat", "data-action": "free-seat", "data-seat": seat, title: t("leave.freeHelp"), onclick: () => freeSeat(seat) }, t("leave.free")));
    }
  }
  const stood = v.stood_in;
  if (stood && stood.seats.includes(seat) && !(seat === o.seat && stood.mine)) {
    // A computer player acted for this seat this deal (its person's time ran out): said so.
    const word = t("friends.stoodIn");
    name.append(el("span", { class: "badge stood-in", "data-role": "stood-in", title: word }, t("friends.stoodInBadge")));
  }
  if (o.dealer === seat) name.append(el("span", { class: "badge dealer", title: t("seat.dealer") }, t("seat.dealer")));
  if (o.declarer === seat) name.append(el("span", { class: "badge declarer" }, t("seat.declarer")));
  const parts = [name];
  if (seat === o.seat && stood && stood.mine) {
    // My own last action of the deal was taken for me: say what, until I act again.
    parts.push(el("p", { class: "stood-in-mine", "data-role": "stood-in-mine", role: "status" }, t("friends.stoodInMine", { what: t(`friends.stoodIn.${stood.mine}`) })));
  }
  if (seat !== o.seat && o.phase !== "done") {
    const n = cardsLeft(o, seat);
    const backs = el("div", { class: "backs", "aria-label": t("seat.cards", { n }) });
    for (let i = 0; i < Math.min(n, 24); i++) backs.append(cardBack(["mini"]));
    parts.push(backs, el("div", { class: "count muted" }, t("seat.cards", { n })));
  }
  if (seat in calls && (o.phase === "bidding" || o.contract === null)) {
    // Beside the seat's name (table.css): a call coming adds no line to the seat, so the table
    // keeps its height through the bidding.
    name.append(el("div", { class: `bubble call-${calls[seat]}`, "data-call": calls[seat] }, t(`bid.${calls[seat]}`)));
  }
  const shown = o.poignees && o.poignees[String(seat)];
  if (shown) {
    parts.push(
      el(
        "div",
        { class: "badge poignee", "data-role": "poignee", title: shown.map(cardLabel).join(t("list.sep")) },
        t("info.poignee", { seat: "", size: t(`size.${shown.length}`) }).trim(),
      ),
    );
  }
  if (o.chelem && o.declarer === seat) parts.push(el("div", { class: "badge chelem" }, t("info.chelem", { seat: "" }).trim()));
  if (toMove && v.status === "computer_turn" && !state.gather) parts.push(el("div", { class: "thinking" }, t("seat.thinking")));
  if (toMove && v.status === "person_turn") parts.push(el("div", { class: "their-turn", "data-role": "their-turn" }, t("friends.theirMove")));
  const said = state.said.get(seat);
  // A phrase floats by the seat's name (table.css): it moves nothing, the hand least of all.
  if (said && said.until > Date.now()) name.append(el("div", { class: "bubble said", "data-role": "said", "data-phrase": said.phrase }, t(`phrase.${said.phrase}`)));
  box.replaceChildren(...parts);
}


function renderCenter(v) {
  const o = v.observation;
  const box = $("center");
  box.classList.remove("gatherable");
  box.onclick = null;
  box.removeAttribute("tabindex");
  box.removeAttribute("role");
  box.removeAttribute("aria-label");

  // A finished trick stays on the table until it is gathered (a click does it at once).
  const shownTrick = state.gather ? state.gather.trick : o.phase === "play" || o.phase === "poignee" ? o.trick : null;
  if (shownTrick && (shownTrick.cards.length || state.gather)) {
    box.replaceChildren(trickLayout(shownTrick, !!state.gather));
    if (state.gather) {
      box.classList.add("gatherable");
      box.tabIndex = 0;
      box.setAttribute("role", "button");
      box.setAttribute("aria-label", t("center.gather"));
      box.onclick = () => gatherNow();
    }
    return;
  }
  if (o.phase === "bidding") {
    const calls = callsBySeat(o);
    const list = el("ol", { class: "calls", "data-role": "calls" });
    const waiting = v.status === "waiting"; // nobody is to call until every seat is taken
    for (let i = 0; i < 4; i++) {
      const seat = (o.dealer + 1 + i) % 4;
      const call = calls[seat];
      const now = o.to_move === seat && !waiting;
      list.append(
        el(
          "li",
          { class: call ? "made" : now ? "now" : "later", "data-seat": String(seat) },
          el("span", { class: "who" }, seatName(seat)),
          el("span", { class: "what" }, call ? t(`bid.${call}`) : now ? "…" : ""),
        ),
      );
    }
    box.replaceChildren(el("div", { class: "center-title" }, t("center.bidding")), list);
    return;
  }
  if (o.phase === "discard" && o.dog) {
    const caption = o.declarer === o.seat ? t("center.dogToYou") : t("center.dogTo", { seat: seatLabel(o.declarer) });
    box.replaceChildren(el("div", { class: "center-title" }, caption), cardRow(o.dog, ["dog-card"]));
    return;
  }
  if (o.contract && !o.dog && o.tricks.length === 0 && o.phase !== "done") {
    const backs = el("span", { class: "card-row" });
    for (let i = 0; i < 6; i++) backs.append(cardBack());
    box.replaceChildren(el("div", { class: "center-title" }, t("center.dogHidden")), backs);
    return;
  }
  box.replaceChildren(trickLayout({ leader: o.trick.leader, cards: [], winner: null }, false));
}

function trickLayout(trick, finished, named = false) {
  const grid = el("div", { class: `trick ${finished ? "finished" : ""} ${named ? "named" : ""}`, "data-role": "trick" });
  const winner = trick.winner;
  trick.cards.forEach((name, i) => {
    const seat = (trick.leader + i) % 4;
    const slot = el("div", { class: `slot slot-${placeName(seat)}`, "data-seat": String(seat) });
    const extra = [];
    if (seat === winner) extra.push("winning");
    // The previous-trick window stands apart from the table: each card says whose it was.
    if (named) slot.append(el("span", { class: "who", "data-role": "played-by" }, seatName(seat)));
    slot.append(cardView(name, extra));
    const tags = [];
    if (i === 0) tags.push(el("span", { class: "tag led" }, t("center.led")));
    if (seat === winner) tags.push(el("span", { class: "tag win" }, finished ? t("center.won") : t("center.winning")));
    if (tags.length) slot.append(el("div", { class: "tags" }, ...tags));
    grid.append(slot);
  });
  return grid;
}

// The dog, once turned over, stays in view under the table until the person closes it (or their
// own discard begins: the dog is then in their hand); a button opens it again.
function renderDog(v) {
  const o = v.observation;
  const box = $("dog-box");
  const known = o.dog && o.dog.length && o.phase !== "bidding" && o.phase !== "done";
  if (!known || o.phase === "discard") {
    if (o.phase === "discard" && o.declarer === o.seat) state.dogOpen = false;
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  box.hidden = false;
  box.classList.toggle("closed", !state.dogOpen);
  const whose = o.declarer === o.seat ? t("dog.yours") : t("dog.taken", { seat: seatLabel(o.declarer) });
  if (!state.dogOpen) {
    box.replaceChildren(el("button", { type: "button", "data-action": "show-dog", "aria-expanded": "false", onclick: () => toggleDog(true) }, t("dog.show")));
    return;
  }
  box.replaceChildren(
    el("span", { class: "dog-title" }, whose),
    cardRow(o.dog, ["small", "dog-card"]),
    el("button", { type: "button", "data-action": "hide-dog", "aria-expanded": "true", onclick: () => toggleDog(false) }, t("dog.hide")),
  );
}

function toggleDog(open) {
  state.dogOpen = open;
  if (state.view) localStorage.setItem("oudler.dogClosed", open ? "" : dealKey(state.view));
  if (!state.view) return;
  renderDog(state.view);
  const again = $("dog-box").querySelector("button");
  if (again) again.focus({ preventScroll: true });
}

function renderPrompt(v) {
  const o = v.observation;
  const box = $("prompt");
  const parts = [];
  const line = (text, cls = "status") => el("p", { class: cls, "data-role": "status" }, text);

  if (state.warming) parts.push(warmingBox(state.warming));
  const waitingForClick = state.gather && state.clickGather;
  if (v.status === "waiting") {
    box.replaceChildren(...leftChoices(v, { el, seatName, reinvite: reinviteSeat, fill: fillSeat }), ...waitingPanel(v, { el, seatName, fill: fillSeat, toast, reserve: reserveSeat }));
    return;
  }
  if (waitingForClick) parts.push(line(t("status.clickGather")));
  if (v.status === "person_turn") {
    if (!waitingForClick) parts.push(line(theirTurnLine(o.phase, t("seat.named", { name: personName(v.seats[o.to_move]), seat: seatName(o.to_move) }))));
  } else if (v.status === "computer_turn") {
    if (!waitingForClick) parts.push(line(t("status.waiting", { seat: t("seat.named", { name: playerName(v.level, o.to_move), seat: seatName(o.to_move) }) })));
  } else if (v.status === "deal_over" || v.status === "match_over") {
    parts.push(line(t(v.status === "match_over" ? "status.matchOver" : "status.dealOver")));
    const reading = closedResult(v) ? v.next_deal && v.seats.filter((s) => s.kind === "person" && !v.next_deal.ready.includes(s.seat)) : null;
    if (reading && reading.length) {
      // This person closed their breakdown: the next deal waits for the others (or the time).
      const names = reading.map((s) => `${personName(s)} (${seatName(s.seat)})`).join(t("list.sep"));
      parts.push(el("p", { class: "status", "data-role": "waiting-others" }, t("result.waitingOthers", { names })));
    }
    if (state.resultHidden) {
      parts.push(
        el("button", { type: "button", class: "primary", "data-action": "show-result", onclick: () => ((state.resultHidden = false), render()) }, t("result.show")),
      );
    }
  } else if (o.phase === "bidding") {
    parts.push(line(t("status.yourBid")), bidButtons(o));
  } else if (o.phase === "discard") {
    parts.push(...discardControls(o));
  } else if (o.phase === "chelem") {
    parts.push(
      line(t("status.yourChelem")),
      el("p", { class: "help" }, t("chelem.help")),
      el(
        "div",
        { class: "buttons" },
        el("button", { type: "button", "data-action": "chelem-yes", onclick: () => send(true) }, t("chelem.yes")),
        el("button", { type: "button", class: "primary", "data-action": "chelem-no", onclick: () => send(false) }, t("chelem.no")),
      ),
    );
  } else if (o.phase === "poignee") {
    parts.push(...poigneeControls(o));
  } else if (o.phase === "play") {
    parts.push(line(o.trick.cards.length ? t("status.yourCard") : t("status.yourLead")));
  }
  if (state.reason) {
    parts.push(el("p", { class: "reason", "data-role": "reason", role: "alert" }, state.reason.text));
  }
  parts.push(...coachControls(v));
  box.replaceChildren(...parts);
}

function bidButtons(o) {
  const bids = (o.legal && o.legal.bids) || [];
  return el(
    "div",
    { class: "buttons bids" },
    ...bids.map((b) =>
      el(
        "button",
        { type: "button", class: b === "pass" ? "" : "bid", "data-bid": b, title: t(`bid.help.${b}`), onclick: () => send(b) },
        el("span", { class: "bid-name" }, t(`bid.${b}`)),
        el("span", { class: "bid-help" }, t(`bid.help.${b}`)),
      ),
    ),
  );
}

const isTrump = (name) => name[0] === "T";

function discardControls(o) {
  const info = o.legal.discard || { allowed: [], forced_trumps: 0, count: 6 };
  const count = info.count || 6;
  const chosen = [...state.discard];
  const trumps = chosen.filter(isTrump).length;
  const ready = chosen.length === count && trumps === info.forced_trumps;
  const out = [
    el("p", { class: "status", "data-role": "status" }, t("status.yourDiscard")),
    el("p", { class: "help" }, info.forced_trumps ? tn("discard.trumps", info.forced_trumps, { f: info.forced_trumps }) : t("discard.noTrumps")),
  ];
  const counter = el("span", { class: "counter", "data-role": "discard-count" }, t("discard.counter", { n: chosen.length }));
  const row = el("div", { class: "buttons" }, counter);
  if (info.forced_trumps) row.append(el("span", { class: "counter" }, t("discard.trumpCount", { n: trumps, f: info.forced_trumps })));
  row.append(
    el("button", { type: "button", "data-action": "discard-clear", onclick: () => (state.discard.clear(), render()) }, t("discard.clear")),
    el(
      "button",
      { type: "button", class: "primary", "data-action": "discard", disabled: !ready, onclick: () => ready && send(sortHand(chosen)) },
      t("discard.confirm"),
    ),
  );
  out.push(row);
  return out;
}

function poigneeControls(o) {
  const info = o.legal.poignee || { cards: [], sizes: [] };
  const trumps = info.cards.filter(isTrump).length;
  if (state.poigneeSize === null || !info.sizes.includes(state.poigneeSize)) {
    state.poigneeSize = info.sizes[0];
    state.poigneeShow = defaultPoignee(info.cards, state.poigneeSize);
  }
  const k = state.poigneeSize;
  const sizes = el(
    "div",
    { class: "buttons sizes", role: "radiogroup", "aria-label": t("poignee.size") },
    ...info.sizes.map((s) =>
      el(
        "button",
        {
          type: "button",
          role: "radio",
          "aria-checked": String(s === k),
          "data-poignee-size": String(s),
          onclick: () => {
            state.poigneeSize = s;
            state.poigneeShow = defaultPoignee(info.cards, s);
            render();
          },
        },
        `${t(`size.${s}`)} (${s})`,
      ),
    ),
  );
  const picker = el("div", { class: "picker", "data-role": "poignee-picker" });
  for (const name of sortHand(info.cards)) {
    const on = state.poigneeShow.has(name);
    const b = cardButton(name);
    delete b.dataset.card; // the hook data-card belongs to the hand only
    b.dataset.poigneeCard = name;
    b.setAttribute("aria-pressed", String(on));
    b.classList.toggle("selected", on);
    b.onclick = () => {
      if (state.poigneeShow.has(name)) state.poigneeShow.delete(name);
      else state.poigneeShow.add(name);
      render();
    };
    picker.append(b);
  }
  const n = state.poigneeShow.size;
  return [
    el("p", { class: "status", "data-role": "status" }, t("status.yourPoignee", { n: trumps })),
    el("p", { class: "help" }, `${t("poignee.help")} ${info.cards.includes("EX") ? t("poignee.excuse") : ""}`),
    sizes,
    el("p", { class: "help", "data-role": "poignee-count" }, t("poignee.pick", { k, n })),
    picker,
    el(
      "div",
      { class: "buttons" },
      el("button", { type: "button", "data-action": "poignee-yes", disabled: n !== k, onclick: () => n === k && send(sortHand([...state.poigneeShow])) }, t("poignee.yes")),
      el("button", { type: "button", class: "primary", "data-action": "poignee-no", onclick: () => send([]) }, t("poignee.no")),
    ),
  ];
}

// A starting choice the person can change: the highest trumps, the Excuse only to make up the count.
function defaultPoignee(cards, k) {
  const trumps = cards.filter(isTrump).sort((a, b) => Number(b.slice(1)) - Number(a.slice(1)));
  const pick = trumps.slice(0, k);
  if (pick.length < k && cards.includes("EX")) pick.push("EX");
  return new Set(pick);
}

function renderHand(v) {
  const o = v.observation;
  const box = $("hand");
  const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.card : null;
  const mine = myTurn();
  const discarding = mine && o.phase === "discard";
  const playing = mine && o.phase === "play";
  const playable = new Set(playing ? o.legal.cards || [] : []);
  const allowed = new Set(discarding && o.legal.discard ? o.legal.discard.allowed : []);
  const fromDog = new Set(discarding && o.dog ? o.dog : []);
  box.setAttribute("aria-label", t("seat.cards", { n: o.hand.length }));
  box.classList.toggle("discarding", discarding);
  box.classList.toggle("active", playing);

  const buttons = sortHand(o.hand).map((name) => {
    const b = cardButton(name);
    const ok = playing ? playable.has(name) : discarding ? allowed.has(name) : false;
    if (ok) {
      b.classList.add("legal");
    } else {
      b.setAttribute("aria-disabled", "true");
      const why = whyNot(v, name);
      if (why) {
        b.dataset.reason = why;
        b.title = why;
      }
    }
    if (discarding && state.discard.has(name)) {
      b.classList.add("selected");
      b.setAttribute("aria-pressed", "true");
    } else if (discarding && ok) {
      b.setAttribute("aria-pressed", "false");
    }
    if (fromDog.has(name)) {
      b.classList.add("from-dog");
      b.append(el("span", { class: "dog-mark", title: t("discard.fromDog") }, t("discard.dogShort")));
    }
    b.onclick = () => onCard(name, ok);
    return b;
  });
  box.replaceChildren(...buttons);
  if (focused) {
    const again = box.querySelector(`[data-card="${focused}"]`);
    if (again) again.focus();
  }
  // Each reason's side, once the hand is laid out (a card under a still pointer gets no event).
  requestAnimationFrame(() => {
    for (const card of box.querySelectorAll(".card[data-reason]")) card.dataset.tip = tipPlace(card.getBoundingClientRect());
  });
}

// Why a card of the hand cannot be used now: the server's reason when it gave one.
function whyNot(v, name) {
  const r = v.reasons && v.reasons[name];
  if (r) return reasonLine(name, r);
  const o = v.observation;
  if (v.status === "computer_turn") return t("status.waiting", { seat: t("seat.named", { name: playerName(v.level, o.to_move), seat: seatName(o.to_move) }) });
  if (v.status === "person_turn") return theirTurnLine(o.phase, seatName(o.to_move));
  if (v.status === "waiting") return waitingLine(v);
  if (o.phase === "bidding") return t("status.yourBid");
  if (o.phase === "poignee" && v.status === "your_turn") return t("status.yourPoignee", { n: (o.legal.poignee?.cards || []).length });
  if (o.phase === "chelem" && v.status === "your_turn") return t("status.yourChelem");
  return "";
}

// Where a card's reason goes (table.css): centred over the card, unless half its widest (15rem)
// would pass an edge of the window; then from the card's left edge, or to its right one.
function tipPlace(r) {
  const half = (15 * parseFloat(getComputedStyle(document.documentElement).fontSize)) / 2 + 8;
  const middle = r.left + r.width / 2;
  if (middle - half < 0) return "start";
  if (middle + half > document.documentElement.clientWidth) return "end";
  return "";
}

function onCard(name, ok) {
  const v = state.view;
  const o = v.observation;
  if (!ok) {
    state.reason = { card: name, text: whyNot(v, name) || "—" };
    noteRefused();
    renderTour($("tour"), v, render);
    renderPrompt(v);
    announce(state.reason.text);
    return;
  }
  state.reason = null;
  if (o.phase === "play") {
    const button = $("hand").querySelector(`[data-card="${name}"]`);
    if (button) state.playedFrom = button.getBoundingClientRect();
  }
  if (o.phase === "discard") {
    if (state.discard.has(name)) state.discard.delete(name);
    else if (state.discard.size >= (o.legal.discard.count || 6)) toast(t("discard.tooMany"));
    else state.discard.add(name);
    render();
    const again = document.querySelector(`#hand [data-card="${name}"]`);
    if (again) again.focus();
    return;
  }
  send(name);
}

function renderInfo(v) {
  const o = v.observation;
  const box = $("info");
  const calls = callsBySeat(o);
  const parts = [
    el("h2", {}, t("info.title")),
    el(
      "p",
      { class: "deal-line" },
      el("span", {}, dealText(v)),
      dealNote(v) ? el("span", {}, " · ", dealNote(v)) : "",
      seedText(v) ? el("span", { class: "muted" }, " · ", seedText(v)) : "",
    ),
    el("p", {}, t("info.dealerIs", { seat: seatLabel(o.dealer) })),
  ];
  if (o.bids.length) {
    const list = el("ul", { class: "inline-list" });
    o.bids.forEach((b, i) => {
      const seat = (o.dealer + 1 + i) % 4;
      list.append(el("li", {}, t("info.call", { seat: makerLabel(seat, v.by && v.by.calls[i]), bid: t(`bid.${calls[seat]}`) })));
    });
    parts.push(el("div", {}, el("h3", {}, t("info.calls")), list));
  }
  if (o.contract) {
    parts.push(el("p", { class: "contract-line" }, t("info.contract", { contract: t(`bid.${o.contract}`), seat: makerLabel(o.declarer, v.by && v.by.declarer) })));
  }
  if (o.dog && o.phase !== "discard") parts.push(el("div", {}, el("h3", {}, t("info.dog")), cardRow(o.dog, ["small"])));
  if (o.contract && !o.dog && o.phase !== "done") parts.push(el("p", { class: "muted" }, t("info.dogHidden")));
  if (o.discard && o.discard.length) parts.push(el("div", {}, el("h3", {}, t("info.yourDiscard")), cardRow(o.discard, ["small"])));
  if (o.discard_trumps && o.discard_trumps.length) {
    parts.push(el("div", {}, el("h3", {}, t("info.discardTrumps")), cardRow(o.discard_trumps, ["small"])));
  }
  for (const [seat, cards] of Object.entries(o.poignees || {})) {
    parts.push(
      el(
        "div",
        { "data-role": "poignee-shown", "data-seat": seat },
        el("h3", {}, t("info.poignee", { seat: makerLabel(Number(seat), v.by && v.by.poignees[seat]), size: t(`size.${cards.length}`) })),
        cardRow(cards, ["small"]),
      ),
    );
  }
  if (o.chelem) parts.push(el("p", { class: "badge chelem" }, t("info.chelem", { seat: seatLabel(o.declarer) })));
  if (o.excuse_pending) parts.push(el("p", { class: "muted" }, t("info.excusePending")));
  if (o.declarer !== null && o.declarer !== undefined && o.tricks.length) {
    const d = o.tricks.filter((tr) => tr.winner === o.declarer).length;
    parts.push(el("p", { class: "muted" }, t("info.tricksWon", { d, f: o.tricks.length - d })));
  }
  if (o.petit_sec) parts.push(el("p", {}, t("info.petitSec", { seat: seatLabel(o.petit_sec.seat) })));
  parts.push(
    el(
      "div",
      { class: "buttons" },
      el("button", { type: "button", "data-action": "prev-trick", disabled: !o.tricks.length, onclick: () => togglePrev(true) }, t("info.prevTrick")),
      // A deal can be replayed once it is over (replaying one in play would show its cards).
      o.phase === "done" && !(o.result && o.result.void)
        ? el("button", { type: "button", "data-action": "replay-deal", onclick: replayDeal }, t("info.replay"))
        : "",
    ),
  );
  box.replaceChildren(...parts);
}

// At a table with people each person closes their own breakdown ("Next deal"): theirs stays
// closed while the others read theirs.
function closedResult(v) {
  return !!(v.next_deal && v.next_deal.ready.includes(v.seat));
}

function renderDealOver(v) {
  const box = $("deal-over");
  const over = v.status === "deal_over" || v.status === "match_over";
  const show = over && !state.gather && !state.resultHidden;
  if (!show) {
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  if (!box.hidden && box.dataset.version === String(v.version)) return;
  box.dataset.version = String(v.version);
  const panel = renderResult(v, {
    onNext: nextDeal,
    onNewMatch: () => goHome(v.seats ? "friends-match" : "new-match"),
    onMatches: () => goHome("match-list"),
    recordUrl: api.recordUrl(v.id),
    seedText: seedText(v),
    onReplay: replayDeal,
    onHide: () => {
      state.resultHidden = true;
      render();
    },
  });
  addAnalysisTab(panel, v);
  box.replaceChildren(panel);
  box.hidden = false;
}

function renderPrevTrick(v) {
  const box = $("prev-trick");
  const o = v.observation;
  if (!state.showPrev) {
    box.hidden = true;
    return;
  }
  const n = o.tricks.length;
  const close = el("button", { type: "button", "data-action": "close-prev", onclick: () => togglePrev(false) }, t("prev.close"));
  const body = n ? trickLayout(o.tricks[n - 1], true, true) : el("p", {}, t("prev.none"));
  box.replaceChildren(el("div", { class: "panel" }, el("h2", { id: "prev-trick-title" }, t("prev.title", { n })), body, close));
  box.hidden = false;
  close.focus();
}

function togglePrev(show) {
  state.showPrev = show;
  if (state.view) renderPrevTrick(state.view);
  if (!show) {
    // Back where the person was: a playable card, else the button that opened the trick.
    const back = $("hand").querySelector(".legal") || document.querySelector("[data-action=prev-trick]");
    if (back) back.focus({ preventScroll: true });
  }
}

function closeOverlays() {
  state.showPrev = false;
  $("prev-trick").hidden = true;
}

async function nextDeal() {
  const v = state.view;
  if (!v || state.busy) return;
  state.busy = true;
  try {
    setView(await api.nextDeal(v.id, v.version));
  } catch (e) {
    handleError(e);
  } finally {
    state.busy = false;
  }
}

// "Play this deal again": after a confirmation, the same cards as a game of that one deal (it ends
// with the deal, so it never leaves a longer match unfinished).
async function replayDeal() {
  const v = state.view;
  if (!v) return;
  const unfinished = v.status !== "match_over";
  const text = [t("replay.confirm"), unfinished ? t("replay.resume") : ""].filter(Boolean).join(" ");
  if (!(await confirmBox(text, t("replay.yes"), t("replay.no")))) return;
  try {
    openMatch(await api.create({ deals: 1, level: v.level, replay_of: { match: v.id, deal: v.deal_number } }));
  } catch (e) {
    handleError(e);
  }
}

// When a new question appears, put the keyboard focus on its first control.
function focusNewPrompt(v) {
  const o = v.observation;
  const key = `${v.id}:${v.version}:${v.status}`;
  if (key === state.promptKey) return;
  state.promptKey = key;
  const active = document.activeElement;
  if (active && (active.tagName === "SELECT" || active.tagName === "INPUT")) return;
  let target = null;
  if (!$("deal-over").hidden) target = $("deal-over").querySelector("[data-action=next-deal], [data-action=new-match-again], button");
  else if (v.status === "your_turn") {
    if (o.phase === "play") target = $("hand").querySelector(".legal");
    else if (o.phase === "discard") target = $("hand").querySelector(".legal");
    else target = $("prompt").querySelector("button:not([disabled])");
  }
  if (target && (!active || active === document.body || !$("hand").contains(active) || o.phase === "play")) target.focus({ preventScroll: true });
}

// ------------------------------------------------------------------ keyboard

function onKey(e) {
  const tag = e.target && e.target.tagName;
  if (e.key === "Escape") {
    if (state.showPrev) togglePrev(false);
    else if (!$("deal-over").hidden) {
      state.resultHidden = true;
      render();
    }
    return;
  }
  // Keys typed into a field are the field's; a checkbox (the learning switch just clicked, say)
  // takes no letters, so H, U and the others still work from there.
  const choosing = tag === "INPUT" && (e.target.type === "checkbox" || e.target.type === "radio");
  if ((tag === "INPUT" && !choosing) || tag === "SELECT" || tag === "TEXTAREA" || e.ctrlKey || e.metaKey || e.altKey) return;
  const card = e.target.closest && e.target.closest("#hand [data-card]");
  if (card && (e.key === "ArrowLeft" || e.key === "ArrowRight" || e.key === "Home" || e.key === "End")) {
    const all = [...$("hand").querySelectorAll("[data-card]")];
    const i = all.indexOf(card);
    const j = e.key === "Home" ? 0 : e.key === "End" ? all.length - 1 : i + (e.key === "ArrowLeft" ? -1 : 1);
    if (all[j]) all[j].focus();
    e.preventDefault();
    return;
  }
  if (!state.view) return;
  if (e.key === "p" || e.key === "P") togglePrev(!state.showPrev);
  else if ((e.key === "d" || e.key === "D") && !$("dog-box").hidden) toggleDog(!state.dogOpen);
  else if (e.key === "g" || e.key === "G") gatherNow();
  else if (coachKey(e.key)) e.preventDefault();
  else if ((e.key === "Enter" || e.key === " ") && e.target === $("center") && state.gather) {
    e.preventDefault();
    gatherNow();
  }
}

// ------------------------------------------------------------------ start

// The home page's two forms as the person sets them. Against the computer: the level is
// remembered in the browser, as learning mode is. With friends: one row per seat says who sits
// there (a computer player says its level), the lead says who joins by a link and who is a
// computer player, and the level is asked only while a computer player sits.
function homeChoices() {
  const solo = $("new-match");
  const form = $("friends-match");
  const kinds = [...form.querySelectorAll("[data-role=seat-kind]")];
  const level = form.querySelector("[data-role=friends-level]");
  const lead = form.querySelector("[data-role=friends-lead]");
  const update = () => {
    const friends = kinds.filter((k) => k.value === "person").map((k) => Number(k.dataset.seat));
    const computers = kinds.filter((k) => k.value !== "person").map((k) => Number(k.dataset.seat));
    const list = (seats) => new Intl.ListFormat(document.documentElement.lang, { type: "conjunction" }).format(seats.map((s) => seatName(s)));
    if (!friends.length) lead.textContent = t("home.leadNoFriend");
    else {
      const people = tn("home.leadFriends", friends.length, { seats: list(friends) });
      const gap = language() === "zh" ? "" : " "; // Chinese sentences follow without a space
      lead.textContent = computers.length ? `${people}${gap}${tn("home.leadComputers", computers.length, { seats: list(computers) })}` : people;
      form.querySelector("[data-role=friends-error]").hidden = true;
    }
    const words = t("friends.computerAt", { level: t(`level.${level.value}`) });
    for (const o of form.querySelectorAll("[data-role=computer-option]")) o.textContent = words;
    for (const k of kinds) k.closest(".seat-row").dataset.kind = k.value;
    form.querySelector("[data-role=friends-level-row]").hidden = !computers.length;
  };
  if (!form.dataset.watched) {
    form.dataset.watched = "1";
    for (const k of kinds) k.addEventListener("change", update);
    const saved = localStorage.getItem("oudler.level");
    const radio = saved && solo.querySelector(`input[name=level][value="${CSS.escape(saved)}"]`);
    if (radio) {
      radio.checked = true;
      level.value = saved;
    }
    // One level remembered for both forms: the last chosen in either.
    for (const r of solo.querySelectorAll("input[name=level]")) r.addEventListener("change", () => localStorage.setItem("oudler.level", r.value));
    level.addEventListener("change", () => {
      localStorage.setItem("oudler.level", level.value);
      update();
    });
  }
  update();
}

// The options of a new match from either home form (the seed is checked here: past 2^53 a
// JavaScript number loses digits).
function matchOptions(form) {
  const options = { deals: Number(form.get("deals")), level: String(form.get("level")) };
  const seed = String(form.get("seed") || "").trim();
  if (/^\d+$/.test(seed)) {
    // Seeds go up to 2^63 - 1, past what a JavaScript number holds exactly: the page keeps
    // the digits as a string (sent as a JSON number by api.js) and checks the range in BigInt.
    if (BigInt(seed) >= 2n ** 63n) throw new ApiError(400, { error: t("home.seedRange") });
    options.seed = BigInt(seed).toString();
  } else if (seed) {
    throw new ApiError(400, { error: t("home.seedRange") });
  }
  return options;
}

// A home form's submit: the match made from its options, then its table.
function startFrom(formElement, build) {
  formElement.addEventListener("submit", async (e) => {
    e.preventDefault();
    const button = formElement.querySelector("[type=submit]");
    button.disabled = true;
    try {
      const options = await build(new FormData(formElement));
      if (!options) return;
      const created = await api.create(options);
      rememberInvites(created);
      if (options.seed !== undefined) rememberSeed(created.id, String(options.seed));
      openMatch(created);
    } catch (err) {
      handleError(err);
    } finally {
      button.disabled = false;
    }
  });
}

function applyLanguage(lang) {
  setLanguage(lang);
  homeChoices();
  $("lang").value = lang;
  for (const a of document.querySelectorAll("[data-role=rules-link], [data-role=glossary-link]")) {
    const url = new URL(a.getAttribute("href"), location.href);
    url.searchParams.set("lang", lang);
    a.setAttribute("href", url.pathname + url.search + url.hash);
  }
  $("keys").textContent = t("keys.help");
  document.title = t("app.title");
  if (state.view) {
    state.promptKey = null;
    $("deal-over").dataset.version = "";
    render();
  } else if (state.history !== null && state.history !== undefined) {
    route();
  } else {
    loadMatches();
    if (!$("home").hidden) renderSeriesHome($("series-home"));
  }
}

function start() {
  // Overlays open below the top bar, which stays usable (its height changes as it wraps).
  const bar = document.querySelector(".topbar");
  const measure = () => document.documentElement.style.setProperty("--bar", `${bar.offsetHeight}px`);
  new ResizeObserver(measure).observe(bar);
  measure();
  initCoach({
    view: () => state.view,
    setView: (v) => (gatherNow(false), setView(v)),
    send,
    handleError,
    render,
    toast,
  });
  startCoach();
  onLayoutChange(render);
  applyLanguage(pickLanguage());
  $("lang").addEventListener("change", (e) => applyLanguage(e.target.value));
  const pace = $("pace");
  pace.value = String(state.pace);
  if (pace.value !== String(state.pace)) pace.value = "700";
  anim.setPace(state.pace);
  pace.addEventListener("change", () => {
    state.pace = Number(pace.value);
    anim.setPace(state.pace);
    localStorage.setItem("oudler.pace", pace.value);
  });
  // The four-colour deck: a class on the page, remembered in the browser.
  const four = $("four-colour");
  four.checked = localStorage.getItem("oudler.fourColour") === "1";
  document.body.classList.toggle("four-colour", four.checked);
  four.addEventListener("change", () => {
    localStorage.setItem("oudler.fourColour", four.checked ? "1" : "0");
    document.body.classList.toggle("four-colour", four.checked);
  });
  // The guide: opened again from the top bar or the home page.
  const guide = () => {
    restartTour();
    toast(t("tour.restarted"));
    render();
  };
  document.querySelector("[data-action=tour]").addEventListener("click", guide);
  document.querySelector("[data-action=leave-table]").addEventListener("click", leaveTable);
  document.querySelector("[data-action=tour-home]").addEventListener("click", guide);
  const sound = $("sound");
  sound.checked = sounds.soundOn();
  sound.addEventListener("change", () => sounds.setSound(sound.checked));
  for (const box of document.querySelectorAll("[data-picture]")) box.innerHTML = pictureSvg(box.dataset.picture);
  const cg = $("click-gather");
  cg.checked = state.clickGather;
  cg.addEventListener("change", () => {
    state.clickGather = cg.checked;
    localStorage.setItem("oudler.clickGather", cg.checked ? "1" : "0");
    if (!cg.checked && state.gather) gatherNow();
  });
  startFrom($("new-match"), async (form) => {
    const options = matchOptions(form);
    if (learningOption(form)) options.learning = true;
    return options;
  });
  startFrom($("friends-match"), async (form) => {
    const options = matchOptions(form);
    const others = [1, 2, 3].map((s) => String(form.get(`seat${s}`) || "computer"));
    if (!others.includes("person")) {
      // This way in is for friends: say so at the seats rather than start a table for one.
      const error = $("friends-match").querySelector("[data-role=friends-error]");
      error.textContent = t("friends.noFriend");
      error.hidden = false;
      $("friends-seat1").focus();
      return null;
    }
    // With friends, the creator may allow the coach's hints for all (never undo): learning
    // mode itself is for a table for one (the server refuses it here).
    options.seats = ["me", ...others];
    if (form.get("hints") === "1") options.hints = true;
    const turn = String(form.get("turn_time") || "");
    if (turn) options.turn_time = Number(turn);
    const name = String(form.get("name") || "").trim();
    if (name) await api.setName(name);
    return options;
  });
  // A refused card's reason, shown over it when pointed at, is kept inside the window.
  const tipSide = (e) => {
    const card = e.target.closest && e.target.closest("#hand .card[data-reason]");
    if (card) card.dataset.tip = tipPlace(card.getBoundingClientRect());
  };
  $("hand").addEventListener("pointerover", tipSide);
  $("hand").addEventListener("focusin", tipSide);
  document.addEventListener("keydown", onKey);
  window.addEventListener("hashchange", route);
  route();
}

start();
