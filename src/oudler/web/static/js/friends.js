// Tables with friends (docs/web-api.md, "Tables with friends"): the words of the invitation page
// and of the table's seats, in the page's three languages.

import { parseJson } from "./api.js";
import { LANGS, t } from "./i18n.js";
import { playerName } from "./players.js";

Object.assign(LANGS.en, {
  "friends.say": "Say to the table",
  "friends.connected": "connected",
  "friends.away": "not connected",
  "friends.stoodIn": "time ran out: a computer player acted for this seat",
  "friends.stoodInBadge": "computer played",
  "friends.stoodInMine": "Your time ran out: a computer player {what} for you.",
  "friends.stoodIn.bid": "called",
  "friends.stoodIn.discard": "made the discard",
  "friends.stoodIn.chelem": "answered the chelem question",
  "friends.stoodIn.poignee": "answered the poignée question",
  "friends.stoodIn.card": "played a card",
  "friends.theirMove": "their turn",
  "friends.tooMany": "Not so fast: wait a few seconds before saying more.",
  "friends.said": "{who}: {phrase}",
  "phrase.hello": "Hello!",
  "phrase.good_luck": "Good luck!",
  "phrase.well_played": "Well played!",
  "phrase.bravo": "Bravo!",
  "phrase.thanks": "Thanks!",
  "phrase.oops": "Oops!",
  "phrase.sorry": "Sorry!",
  "phrase.wow": "Wow!",
  "friends.title": "An invitation to a table of French Tarot",
  "friends.table": "A match of {deals} deals; computer players: {level}.",
  "friends.turnTime": "Time per turn: {time}.",
  "friends.noTurnTime": "No time limit per turn.",
  "friends.yourSeat": "your seat",
  "friends.seat": "Your seat: {seat}.",
  "friends.sit": "Sit at {seat}",
  "friends.go": "Go to the table",
  "friends.taken": "Someone already sat at this seat.",
  "friends.takenLink": "The seat of this link ({seat}) is taken: someone already sat there. If it was you, in another browser, ask the table's creator for a new link.",
  "friends.already": "You already sit at this table.",
  "friends.invalid": "This invitation link is not valid: ask for a new one.",
  "friends.you": "you",
  "friends.person": "a person",
  "friends.former": "a former player",
  "friends.computer": "a computer player",
  "friends.open": "waiting for a friend",
  "friends.who": "Who is there",
  "friends.error": "Something went wrong; try again.",
  "friends.home": "Back to Oudler",
  "friends.legend": "Friends at the table",
  "friends.friendSeat": "a friend (by link)",
  "friends.waiting": "The table starts when every seat is taken.",
  "friends.waitingAgain": "Play goes on when every seat is taken again.",
  "friends.seatLine": "{seat}: {who}",
  "friends.invite": "Send this link to a friend for {seat}:",
  "friends.copy": "Copy",
  "friends.copied": "Link copied.",
  "friends.localLink": "This link opens on this computer only: friends on other machines cannot open it.",
  "friends.localInstead": "Send them this one instead (this computer's network address):",
  "friends.localListen": "The server listens on this computer only. To invite friends on other machines, start it with this command (or with --public-url):",
  "friends.fill": "Give {seat} to a computer player",
  "friends.theirTurn": "Waiting for {seat} to play.",
  "friends.theirCall": "Waiting for {seat} to call.",
  "friends.theirDiscard": "Waiting for {seat} to make the discard.",
  "friends.theirChelem": "Waiting for {seat} to say whether they announce a chelem.",
  "friends.seatOf": "{seat}: a friend",
  "friends.offline": "Connection lost: reconnecting…",
  "friends.name": "Your name at the table (optional)",
  "friends.keptFor": "kept for {name}",
  "friends.reservedLink": "This seat ({seat}) is kept for {name}: only {name}, signed in, may sit there. If you are {name}, sign in.",
  "friends.password": "Password",
  "friends.signInSit": "Sign in and sit",
  "friends.keep": "Keep for an account",
  "friends.keepName": "account name",
  "friends.unkeep": "Let anyone with the link sit",
  "friends.error.no_such_account": "There is no account with this name.",
  "friends.error.reserved_for_you": "You sit at this table already: keep the seat for someone else.",
  "friends.error.reserved_twice": "This account sits at this table already, or another seat is kept for it.",
  "friends.nameIsAccount": "Signed in, your name at the table is your account's: {name}. Change it in the account menu.",
  "friends.hints": "Allow the coach's hints, and an analysis of each deal (no undo at a table with friends)",
  "friends.seats": "Who sits where",
  "friends.level": "Level of the computer players",
  "friends.computerAt": "computer: {level}",
  "friends.start": "Make the table and get the links",
  "friends.noFriend": "Choose a friend for at least one seat (or play against the computer).",
});

Object.assign(LANGS.zh, {
  "friends.say": "对牌桌说",
  "friends.connected": "在线",
  "friends.away": "不在线",
  "friends.stoodIn": "时间到：电脑替这个座位做了决定",
  "friends.stoodInBadge": "电脑代打",
  "friends.stoodInMine": "你的时间到了：电脑替你{what}。",
  "friends.stoodIn.bid": "叫了牌",
  "friends.stoodIn.discard": "埋了底牌",
  "friends.stoodIn.chelem": "回答了大满贯",
  "friends.stoodIn.poignee": "回答了亮王牌",
  "friends.stoodIn.card": "出了一张牌",
  "friends.theirMove": "轮到 TA 了",
  "friends.tooMany": "慢一点：等几秒再说。",
  "friends.said": "{who}：{phrase}",
  "phrase.hello": "大家好！",
  "phrase.good_luck": "祝你好运！",
  "phrase.well_played": "打得好！",
  "phrase.bravo": "太棒了！",
  "phrase.thanks": "谢谢！",
  "phrase.oops": "哎呀！",
  "phrase.sorry": "抱歉！",
  "phrase.wow": "哇！",
  "friends.title": "法式塔罗牌桌的邀请",
  "friends.table": "一场 {deals} 副牌的比赛；电脑玩家：{level}。",
  "friends.turnTime": "每步限时：{time}。",
  "friends.noTurnTime": "每步不限时。",
  "friends.yourSeat": "你的座位",
  "friends.seat": "你的座位：{seat}。",
  "friends.sit": "坐到{seat}",
  "friends.go": "前往牌桌",
  "friends.taken": "这个座位已经有人坐了。",
  "friends.takenLink": "这个链接的座位（{seat}）已经有人坐了。如果是你在另一个浏览器里坐下的，请向牌桌的创建者要一个新链接。",
  "friends.already": "你已经坐在这张牌桌上了。",
  "friends.invalid": "这个邀请链接无效：请向对方要一个新的。",
  "friends.you": "你",
  "friends.person": "一位玩家",
  "friends.former": "一位前玩家",
  "friends.computer": "电脑玩家",
  "friends.open": "等待朋友入座",
  "friends.who": "在座的人",
  "friends.error": "出了点问题，请再试一次。",
  "friends.home": "返回 Oudler",
  "friends.legend": "和朋友同桌",
  "friends.friendSeat": "朋友（凭链接入座）",
  "friends.waiting": "所有座位都有人后，牌局开始。",
  "friends.waitingAgain": "所有座位再次坐满后，牌局继续。",
  "friends.seatLine": "{seat}：{who}",
  "friends.invite": "把这个链接发给坐{seat}的朋友：",
  "friends.copy": "复制",
  "friends.copied": "链接已复制。",
  "friends.localLink": "这个链接只能在本机打开：其他电脑上的朋友打不开。",
  "friends.localInstead": "请改发这个链接（本机的网络地址）：",
  "friends.localListen": "服务器只在本机监听。要邀请其他电脑上的朋友，请用下面的命令启动它（或加上 --public-url）：",
  "friends.fill": "让电脑玩家坐{seat}",
  "friends.theirTurn": "等待{seat}出牌。",
  "friends.theirCall": "等待{seat}叫牌。",
  "friends.theirDiscard": "等待{seat}扣底牌。",
  "friends.theirChelem": "等待{seat}决定是否宣布大满贯。",
  "friends.seatOf": "{seat}：一位朋友",
  "friends.offline": "连接中断：正在重新连接……",
  "friends.name": "你在牌桌上的名字（可不填）",
  "friends.keptFor": "为 {name} 保留",
  "friends.reservedLink": "这个座位（{seat}）是为 {name} 保留的：只有登录的 {name} 才能坐。如果你就是 {name}，请登录。",
  "friends.password": "密码",
  "friends.signInSit": "登录并入座",
  "friends.keep": "为一个账户保留",
  "friends.keepName": "账户名",
  "friends.unkeep": "让任何持有链接的人入座",
  "friends.error.no_such_account": "没有这个名字的账户。",
  "friends.error.reserved_for_you": "你已经坐在这张牌桌上了：请为别人保留这个座位。",
  "friends.error.reserved_twice": "这个账户已经坐在这张牌桌上，或者另一个座位已经为它保留。",
  "friends.nameIsAccount": "已登录：你在牌桌上的名字就是账户名 {name}。可以在账户菜单里修改。",
  "friends.hints": "允许教练给出提示，并分析每一手牌（和朋友同桌时不能悔牌）",
  "friends.seats": "谁坐哪里",
  "friends.level": "电脑玩家的水平",
  "friends.computerAt": "电脑：{level}",
  "friends.start": "开桌并获取邀请链接",
  "friends.noFriend": "请至少为一个座位选择朋友（或者和电脑打牌）。",
});

Object.assign(LANGS.fr, {
  // No-break spaces before : ; ! ? (the rule above i18n.js's French table).
  "friends.say": "Dire à la table",
  "friends.connected": "connecté",
  "friends.away": "pas connecté",
  "friends.stoodIn": "temps écoulé\u00a0: un ordinateur a joué pour cette place",
  "friends.stoodInBadge": "joué par l'ordinateur",
  "friends.stoodInMine": "Votre temps est écoulé\u00a0: un ordinateur {what} pour vous.",
  "friends.stoodIn.bid": "a annoncé",
  "friends.stoodIn.discard": "a fait l'écart",
  "friends.stoodIn.chelem": "a répondu pour le chelem",
  "friends.stoodIn.poignee": "a répondu pour la poignée",
  "friends.stoodIn.card": "a joué une carte",
  "friends.theirMove": "à son tour",
  "friends.tooMany": "Pas si vite\u00a0: attendez quelques secondes avant d'en dire plus.",
  "friends.said": "{who}\u00a0: {phrase}",
  "phrase.hello": "Bonjour\u202f!",
  "phrase.good_luck": "Bonne chance\u202f!",
  "phrase.well_played": "Bien joué\u202f!",
  "phrase.bravo": "Bravo\u202f!",
  "phrase.thanks": "Merci\u202f!",
  "phrase.oops": "Oups\u202f!",
  "phrase.sorry": "Désolé\u202f!",
  "phrase.wow": "Waouh\u202f!",
  "friends.title": "Une invitation à une table de tarot",
  "friends.table": "Une partie de {deals} donnes\u202f; joueurs ordinateur\u00a0: {level}.",
  "friends.turnTime": "Temps par coup\u00a0: {time}.",
  "friends.noTurnTime": "Pas de limite de temps par coup.",
  "friends.yourSeat": "votre place",
  "friends.seat": "Votre place\u00a0: {seat}.",
  "friends.sit": "S'asseoir à {seat}",
  "friends.go": "Aller à la table",
  "friends.taken": "Quelqu'un s'est déjà assis à cette place.",
  "friends.takenLink": "La place de ce lien ({seat}) est prise\u00a0: quelqu'un s'y est déjà assis. Si c'était vous, dans un autre navigateur, demandez un nouveau lien au créateur de la table.",
  "friends.already": "Vous êtes déjà assis à cette table.",
  "friends.invalid": "Ce lien d'invitation n'est pas valable\u00a0: demandez-en un nouveau.",
  "friends.you": "vous",
  "friends.person": "une personne",
  "friends.former": "un ancien joueur",
  "friends.computer": "un joueur ordinateur",
  "friends.open": "en attente d'un ami",
  "friends.who": "Autour de la table",
  "friends.error": "Quelque chose n'a pas marché\u202f; réessayez.",
  "friends.home": "Retour à Oudler",
  "friends.legend": "Des amis à la table",
  "friends.friendSeat": "un ami (par lien)",
  "friends.waiting": "La partie commence quand toutes les places sont prises.",
  "friends.waitingAgain": "La partie reprend quand toutes les places sont de nouveau prises.",
  "friends.seatLine": "{seat}\u00a0: {who}",
  "friends.invite": "Envoyez ce lien à un ami pour la place {seat}\u00a0:",
  "friends.copy": "Copier",
  "friends.copied": "Lien copié.",
  "friends.localLink": "Ce lien ne s'ouvre que sur cet ordinateur\u00a0: vos amis sur d'autres machines ne pourront pas l'ouvrir.",
  "friends.localInstead": "Envoyez-leur plutôt celui-ci (l'adresse de cet ordinateur sur le réseau)\u00a0:",
  "friends.localListen": "Le serveur n'écoute que sur cet ordinateur. Pour inviter des amis sur d'autres machines, lancez-le avec cette commande (ou avec --public-url)\u00a0:",
  "friends.fill": "Donner la place {seat} à un joueur ordinateur",
  "friends.theirTurn": "{seat} doit jouer\u00a0: on l'attend.",
  "friends.theirCall": "{seat} doit annoncer\u00a0: on l'attend.",
  "friends.theirDiscard": "{seat} doit faire son écart\u00a0: on l'attend.",
  "friends.theirChelem": "{seat} doit dire s'il annonce un chelem\u00a0: on l'attend.",
  "friends.seatOf": "{seat}\u00a0: un ami",
  "friends.offline": "Connexion perdue\u00a0: reconnexion…",
  "friends.name": "Votre nom à la table (facultatif)",
  "friends.keptFor": "réservée à {name}",
  "friends.reservedLink": "Cette place ({seat}) est réservée à {name}\u00a0: seul {name}, connecté, peut s'y asseoir. Si vous êtes {name}, connectez-vous.",
  "friends.password": "Mot de passe",
  "friends.signInSit": "Se connecter et s'asseoir",
  "friends.keep": "Réserver à un compte",
  "friends.keepName": "nom du compte",
  "friends.unkeep": "Ouvrir à quiconque a le lien",
  "friends.error.no_such_account": "Aucun compte ne porte ce nom.",
  "friends.error.reserved_for_you": "Vous êtes déjà assis à cette table\u00a0: réservez la place à quelqu'un d'autre.",
  "friends.error.reserved_twice": "Ce compte est déjà assis à cette table, ou une autre place lui est réservée.",
  "friends.nameIsAccount": "Connecté, votre nom à la table est celui de votre compte\u00a0: {name}. Changez-le dans le menu du compte.",
  "friends.hints": "Autoriser les conseils de l'entraîneur et l'analyse de chaque donne (pas d'annulation à une table entre amis)",
  "friends.seats": "Qui est assis où",
  "friends.level": "Niveau des joueurs ordinateur",
  "friends.computerAt": "ordinateur\u00a0: {level}",
  "friends.start": "Créer la table et obtenir les liens",
  "friends.noFriend": "Choisissez un ami pour au moins une place (ou jouez contre l'ordinateur).",
});

// A person's name as the others see it: the one they chose, else "a person" ("a former player"
// for a deleted account's).
export function personName(s) {
  if (s && s.former) return t("friends.former");
  return s && s.name ? s.name : t("friends.person");
}

// Who sits at a seat, in words: you, a person (by name), a computer player, or nobody yet.
export function seatWords(s) {
  if (!s.you && s.kind === "person" && s.name) return s.name;
  if (s.kind === "open" && s.reserved) return t("friends.keptFor", { name: s.reserved });
  if (!s.you && s.kind === "person" && (s.name || s.former)) return personName(s);
  return t(seatKind(s));
}

// Who sits at each seat of a table with friends, for the breakdown, the score sheet and the
// review: a person by the name they chose ("a person" without one; one's own seat by name only
// if given), a computer player by its name. Null at a table for one.
export function namesAtTable(v) {
  if (!v || !v.seats) return null;
  return v.seats.map((s) => {
    if (s.kind === "computer") return playerName(v.level, s.seat);
    if (s.kind !== "person") return null; // a seat nobody holds yet goes by its name alone
    return s.you ? s.name || null : personName(s);
  });
}

// The prompt while another person is to act: to do what, by the phase (a call in the bidding,
// not a card). The poignée question is not named: the others must not learn it was asked.
export function theirTurnLine(phase, seat) {
  const key = { bidding: "friends.theirCall", discard: "friends.theirDiscard", chelem: "friends.theirChelem" }[phase] || "friends.theirTurn";
  return t(key, { seat });
}

export function seatKind(s) {
  if (s.you) return "friends.you";
  return { person: "friends.person", computer: "friends.computer", open: "friends.open" }[s.kind];
}

// ------------------------------------------------------------------------------- seats on screen

// The person's own seat is drawn at the bottom (South's place) at any table: the other seats turn
// with it, in playing order (counter-clockwise: right, across, left).
let mine = 0;
const PLACES = ["south", "east", "north", "west"];

export function mySeat() {
  return mine;
}

// Where a seat is drawn: 0 the bottom, 1 the right, 2 across, 3 the left.
export function place(seat) {
  return (seat - mine + 4) % 4;
}

export function placeName(seat) {
  return PLACES[place(seat)];
}

// Give the table's four seat boxes the ids of the seats drawn there (the page finds a seat's box
// by its id, seat-N).
export function placeSeats(v) {
  mine = v.seat || 0;
  PLACES.forEach((where, i) => {
    const box = document.querySelector(`.seat.seat-${where}`);
    if (!box) return;
    const seat = (mine + i) % 4;
    box.id = `seat-${seat}`;
    box.dataset.seat = String(seat);
  });
}

export function isPerson(v, seat) {
  return !!(v.seats && v.seats[seat] && v.seats[seat].kind === "person");
}

// ------------------------------------------------------------------------------- waiting for friends

const INVITES = "oudler.invites.";

// The invitation links are given once, when the table is made: kept in this browser for the
// creator to send while the table waits.
export function rememberInvites(created) {
  if (created.invites && created.invites.length) localStorage.setItem(INVITES + created.id, JSON.stringify(created.invites));
}

function invitesOf(id) {
  try {
    return JSON.parse(localStorage.getItem(INVITES + id) || "[]");
  } catch (e) {
    return [];
  }
}

// Why the table waits: it has not started yet, or (once anything was played, or someone left)
// it stopped until a seat is taken again.
export function waitingLine(v) {
  return t(v.version > 0 || (v.left && v.left.length) ? "friends.waitingAgain" : "friends.waiting");
}

// The prompt while the table waits: who is there, the links to send, and (for the creator) one
// button per open seat to give it to a computer player instead.
// The words of the refusals of a seat kept for an account (named in full for tests/test_i18n.py).
export const RESERVE_ERRORS = {
  no_such_account: "friends.error.no_such_account",
  reserved_for_you: "friends.error.reserved_for_you",
  reserved_twice: "friends.error.reserved_twice",
};

// The creator's choice for an open seat: keep it for an account (by its name), or, kept, let
// anyone with the link sit again.
function keepChoice(v, seat, { el, reserve }) {
  const s = v.seats[seat];
  if (s.reserved) {
    return el("button", { type: "button", "data-action": "unreserve-seat", "data-seat": seat, onclick: () => reserve(seat, null) }, t("friends.unkeep"));
  }
  const name = el("input", { type: "text", maxlength: 24, placeholder: t("friends.keepName"), "data-role": "reserve-name", "data-seat": seat, autocomplete: "off" });
  return el("span", { class: "keep-seat" }, name, " ",
    el("button", { type: "button", "data-action": "reserve-seat", "data-seat": seat, onclick: () => name.value.trim() && reserve(seat, name.value.trim()) }, t("friends.keep")));
}

export function waitingPanel(v, { el, seatName, fill, toast, reserve }) {
  const links = invitesOf(v.id);
  const list = el("ul", { class: "join-seats", "data-role": "waiting-seats" });
  for (const s of v.seats) list.append(el("li", { "data-seat": s.seat, "data-kind": s.kind }, t("friends.seatLine", { seat: seatName(s.seat), who: seatWords(s) })));
  const parts = [el("p", { class: "status", "data-role": "status" }, waitingLine(v)), list];
  const field = (url, seat, role) => [
    el("input", { type: "text", readonly: true, value: url, class: "invite-link", "data-role": role, "data-seat": seat, onfocus: (e) => e.target.select() }), " ",
    el("button", { type: "button", "data-action": "copy-invite", onclick: () => navigator.clipboard && navigator.clipboard.writeText(url).then(() => toast(t("friends.copied"))) }, t("friends.copy")),
  ];
  for (const invite of links) {
    if (!v.seats[invite.seat] || v.seats[invite.seat].kind !== "open") continue;
    const url = new URL(invite.url, location.origin).href;
    parts.push(
      el("p", { class: "invite" }, t("friends.invite", { seat: seatName(invite.seat) }), " ",
        ...field(url, invite.seat, "invite-link"), " ",
        el("button", { type: "button", "data-action": "fill-seat", "data-seat": invite.seat, onclick: () => fill(invite.seat) }, t("friends.fill", { seat: seatName(invite.seat) })),
        reserve ? " " : "", reserve ? keepChoice(v, invite.seat, { el, reserve }) : ""),
    );
    if (invite.local) parts.push(localLink(invite, { el, field }));
  }
  return parts;
}

// A link on localhost (or 0.0.0.0) opens on this computer only: say so, and give the link on the
// machine's network address, or the way to serve on one (the server says which, in the invite).
function localLink(invite, { el, field }) {
  const box = el("div", { class: "invite-local", "data-role": "invite-local", "data-seat": invite.seat }, el("p", {}, t("friends.localLink")));
  const instead = invite.instead || [];
  if (instead.length) {
    box.append(el("p", {}, t("friends.localInstead")));
    for (const url of instead) box.append(el("p", {}, ...field(url, invite.seat, "invite-instead")));
  } else {
    box.append(el("p", {}, t("friends.localListen"), " ", el("code", { "data-role": "serve-command" }, "oudler serve --host 0.0.0.0")));
  }
  return box;
}

// ------------------------------------------------------------------------------- live

// The phrases a person may say at a table with people (the server's list: no free text).
export const PHRASES = ["hello", "good_luck", "well_played", "bravo", "thanks", "oops", "sorry", "wow"];

// The table's socket: the server pushes the person's view after every change and, between the
// views, who is connected and the phrases said (events). It reconnects by itself; while it is
// down the page asks for the view every few seconds instead.
export class Live {
  constructor(onView, onState = () => {}, onEvent = () => {}) {
    this.onView = onView;
    this.onState = onState;
    this.onEvent = onEvent;
    this.id = null;
    this.ws = null;
    this.retry = 0;
    this.timer = null;
    this.poll = null;
  }

  open(id, get) {
    if (this.id === id) return;
    this.close();
    this.id = id;
    this.get = get;
    this.connect();
  }

  connect() {
    const id = this.id;
    if (id === null) return;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    let ws;
    try {
      ws = new WebSocket(`${scheme}://${location.host}/api/matches/${encodeURIComponent(id)}/live?events=1`);
    } catch (e) {
      this.later();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 0;
      this.stopPolling();
      this.onState(true);
    };
    ws.onmessage = (e) => {
      if (this.id !== id) return;
      const message = parseJson(e.data);
      if (message.event) this.onEvent(message);
      else this.onView(message);
    };
    ws.onclose = (e) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.id !== id) return;
      if (e.code === 4404 || e.code === 4401 || e.code === 4403) return; // not for this person
      this.onState(false);
      this.later();
    };
  }

  later() {
    // Back off up to 10 s; meanwhile ask for the view over HTTP, as before sockets.
    this.retry = Math.min(this.retry + 1, 5);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), 500 * 2 ** (this.retry - 1));
    if (!this.poll) this.poll = setInterval(() => this.get && this.get(this.id), 3000);
  }

  stopPolling() {
    clearInterval(this.poll);
    this.poll = null;
  }

  close() {
    this.id = null;
    clearTimeout(this.timer);
    this.stopPolling();
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      ws.close();
    }
  }
}
