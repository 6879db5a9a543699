// Time and absence at a table with friends (docs/web-api.md, "Turn time", "Leaving"): the
// countdown of the person to act, the button to leave the table, and the creator's choice for a
// seat someone left. The words in the page's three languages.

import { LANGS, t } from "./i18n.js";

Object.assign(LANGS.en, {
  "turn.time": "Time per turn",
  "turn.off": "no limit",
  "turn.s30": "30 seconds",
  "turn.s60": "1 minute",
  "turn.s120": "2 minutes",
  "turn.yours": "Your turn: {s} s left",
  "turn.theirs": "{seat} has {s} s left",
  "turn.up": "Time is up: a computer player acts for {seat} this once.",
  "turn.help": "When time is up, a computer player acts for that person this once.",
  "leave.button": "Leave the table",
  "leave.confirm": "Leave this table? Your seat opens, and the creator chooses to wait for someone or to give it to a computer player.",
  "leave.yes": "Leave",
  "leave.no": "Stay",
  "leave.done": "You left the table.",
  "leave.seat": "{seat}: the person there left the table.",
  "leave.wait": "Wait for them: a new invitation link",
  "leave.gone": "This table no longer has a seat for you.",
  "leave.free": "Free the seat",
  "leave.freeHelp": "Not at the table for a while: free the seat, then send a new link or give it to a computer player.",
  "leave.inUse": "This person had the table open less than a minute ago: wait a little, they may be coming back.",
});

Object.assign(LANGS.zh, {
  "turn.time": "每步限时",
  "turn.off": "不限时",
  "turn.s30": "30 秒",
  "turn.s60": "1 分钟",
  "turn.s120": "2 分钟",
  "turn.yours": "轮到你：还剩 {s} 秒",
  "turn.theirs": "{seat}还剩 {s} 秒",
  "turn.up": "时间到：这一次由电脑玩家替{seat}出手。",
  "turn.help": "时间到时，由电脑玩家替这位玩家出手一次。",
  "leave.button": "离开牌桌",
  "leave.confirm": "要离开这张牌桌吗？你的座位会空出来，由创建者决定等人入座还是交给电脑玩家。",
  "leave.yes": "离开",
  "leave.no": "留下",
  "leave.done": "你已离开牌桌。",
  "leave.seat": "{seat}：这位玩家离开了牌桌。",
  "leave.wait": "等待对方：生成新的邀请链接",
  "leave.gone": "这张牌桌上已经没有你的座位了。",
  "leave.free": "空出座位",
  "leave.freeHelp": "这位玩家已经有一阵子不在牌桌上：空出座位，再发新的邀请链接或交给电脑玩家。",
  "leave.inUse": "这位玩家不到一分钟前还在牌桌上：再等一等，TA 可能会回来。",
});

Object.assign(LANGS.fr, {
  // No-break spaces before : ; ! ? (the rule above i18n.js's French table).
  "turn.time": "Temps par coup",
  "turn.off": "sans limite",
  "turn.s30": "30 secondes",
  "turn.s60": "1 min",
  "turn.s120": "2 min",
  "turn.yours": "À vous\u00a0: encore {s} s",
  "turn.theirs": "{seat}\u00a0: encore {s} s",
  "turn.up": "Temps écoulé\u00a0: un joueur ordinateur joue pour {seat}, cette fois-ci.",
  "turn.help": "Le temps écoulé, un joueur ordinateur joue une fois à la place de la personne.",
  "leave.button": "Quitter la table",
  "leave.confirm": "Quitter cette table\u202f? Votre place se libère, et le créateur choisit d'attendre quelqu'un ou de la donner à un joueur ordinateur.",
  "leave.yes": "Quitter",
  "leave.no": "Rester",
  "leave.done": "Vous avez quitté la table.",
  "leave.seat": "{seat}\u00a0: la personne assise là a quitté la table.",
  "leave.wait": "L'attendre\u00a0: un nouveau lien d'invitation",
  "leave.gone": "Cette table n'a plus de place pour vous.",
  "leave.free": "Libérer la place",
  "leave.freeHelp": "Absent de la table depuis un moment\u00a0: libérer la place, puis envoyer un nouveau lien ou la donner à un joueur ordinateur.",
  "leave.inUse": "Cette personne avait la table ouverte il y a moins d'une minute\u00a0: attendez un peu, elle revient peut-être.",
});

// ------------------------------------------------------------------------------- the countdown

// Seconds left before the deadline, by this browser's clock, never more than the turn time (a
// clock ahead of the server's would otherwise show more).
export function secondsLeft(v, now = Date.now()) {
  if (!v || !v.turn || !v.turn_time) return null;
  const left = (Date.parse(v.turn.deadline) - now) / 1000;
  return Math.max(0, Math.min(v.turn_time, Math.ceil(left)));
}

// Draw the countdown in ``box`` for the view ``v`` (``who(seat)``: the seat in words). Called
// on every render and four times a second while a turn runs.
export function drawClock(box, v, who) {
  // A table with a turn time keeps a band above North for the countdown, shown or not: the
  // clock covers no seat's name and badges, and the table does not jump as turns pass.
  box.parentElement.classList.toggle("timed", Boolean(v && v.turn_time));
  const left = secondsLeft(v);
  if (left === null) {
    box.hidden = true;
    box.replaceChildren();
    delete box.dataset.left;
    return;
  }
  const seat = v.turn.seat;
  const text = left === 0 ? t("turn.up", { seat: who(seat) }) : seat === v.seat ? t("turn.yours", { s: left }) : t("turn.theirs", { seat: who(seat), s: left });
  box.hidden = false;
  box.dataset.seat = String(seat);
  box.dataset.left = String(left);
  box.classList.toggle("mine", seat === v.seat);
  box.classList.toggle("short", left <= 10);
  const bar = document.createElement("span");
  bar.className = "turn-bar";
  bar.style.width = `${(100 * left) / v.turn_time}%`;
  const words = document.createElement("span");
  words.className = "turn-words";
  words.textContent = text;
  box.replaceChildren(bar, words);
}

export class TurnClock {
  constructor(box, current, who) {
    this.box = box;
    this.current = current; // () => the view drawn now
    this.who = who;
    this.timer = null;
  }

  update() {
    const v = this.current();
    drawClock(this.box, v, this.who);
    const running = secondsLeft(v) !== null;
    if (running && !this.timer) this.timer = setInterval(() => this.update(), 250);
    if (!running && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }
}

// ------------------------------------------------------------------------------- leaving

// The key under which friends.js keeps the table's invitation links in this browser.
const INVITES = "oudler.invites.";

function storedInvites(id) {
  try {
    return JSON.parse(localStorage.getItem(INVITES + id) || "[]");
  } catch (e) {
    return [];
  }
}

// A seat's link, replacing the one kept for it (a link dies when its person leaves).
export function keepInvite(id, invite) {
  const links = storedInvites(id).filter((i) => i.seat !== invite.seat);
  localStorage.setItem(INVITES + id, JSON.stringify([...links, invite]));
}

function forgetInvite(id, seat) {
  const links = storedInvites(id);
  if (links.some((i) => i.seat === seat)) localStorage.setItem(INVITES + id, JSON.stringify(links.filter((i) => i.seat !== seat)));
}

// For the creator, while the table waits: each seat someone left, with the two choices (a new
// link to wait for them, or a computer player). The others see who left.
export function leftChoices(v, { el, seatName, reinvite, fill }) {
  const parts = [];
  for (const seat of v.left || []) {
    forgetInvite(v.id, seat); // its link no longer seats anyone
    const line = el("p", { class: "left-seat", "data-role": "left-seat", "data-seat": seat }, t("leave.seat", { seat: seatName(seat) }));
    if (v.seat === 0) {
      line.append(
        " ",
        el("button", { type: "button", "data-action": "reinvite-seat", "data-seat": seat, onclick: () => reinvite(seat) }, t("leave.wait")),
        " ",
        el("button", { type: "button", "data-action": "fill-seat", "data-seat": seat, onclick: () => fill(seat) }, t("friends.fill", { seat: seatName(seat) })),
      );
    }
    parts.push(line);
  }
  return parts;
}
