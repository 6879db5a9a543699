// The account menu in the top bar (issue 29; docs/accounts.md): a guest keeps their games (makes an
// account) or signs this browser in; a signed-in person sees their name, signs out here or
// everywhere, lists their sessions and changes their password. After a change of person the page
// reloads, so that every part of it (matches, live tables) speaks as the new one.

import { request as call } from "./api.js";
import { LANGS, t } from "./i18n.js";
import { passkeyConfirm, passkeyPanel, passkeySignIn } from "./passkeys.js";
import { el } from "./util.js";

Object.assign(LANGS.en, {
  "account.menu": "Keep my games",
  "account.keepTitle": "Keep my games",
  "account.keepLead": "Choose a name and a password: your matches follow you to any browser where you sign in.",
  "account.keep": "Keep my games",
  "account.signInTitle": "Sign in",
  "account.signInLead": "Already kept your games? Sign this browser in.",
  "account.signIn": "Sign in",
  "account.name": "Name",
  "account.password": "Password",
  "account.current": "Current password",
  "account.newPassword": "New password",
  "account.signedInAs": "Signed in as {name}",
  "account.signOut": "Sign out",
  "account.signOutEverywhere": "Sign out everywhere",
  "account.sessions": "Where you are signed in",
  "account.thisOne": "this browser",
  "account.seen": "last seen {when}",
  "account.unknownPlace": "unknown place",
  "account.changePassword": "Change password",
  "account.rename": "Change name",
  "account.newName": "New name",
  "account.renameLead": "Your name at every table too. The same rules as a new account's.",
  "account.renamed": "Name changed: {name}.",
  "account.changed": "Password changed. Other sessions signed out: {count}.",
  "account.linkDeviceTitle": "Link this device",
  "account.linkDeviceLead": "Type the code shown on a device where you are signed in.",
  "account.code": "Code (10 characters)",
  "account.linkDevice": "Link this device",
  "account.linkTitle": "Link a device",
  "account.linkLead": "On the new device, scan the QR code or open the link, or type the code in its menu under “Link this device”. It works once, for 10 minutes.",
  "account.linkShow": "Show a code",
  "account.linkNew": "New code",
  "account.linkCancel": "Cancel",
  "account.linkQr": "The link as a QR code",
  "account.linkExpiresIn": "Expires in {time}",
  "account.linkUsed": "A device was signed in with this code.",
  "account.linkExpired": "This code has expired.",
  "account.linkPageTitle": "Link this browser",
  "account.linkPageLead": "Sign this browser in to the account that showed you this link. Do it only if you asked for the link yourself.",
  "account.linkConfirm": "Sign in on this browser",
  "account.linkHome": "Back to the tables",
  "account.export": "Export my data",
  "account.exportTip": "Every match you played, as you saw it, with your hints and analyses, in one file.",
  "account.delete": "Delete my account",
  "account.deleteTitle": "Delete your account?",
  "account.deleteLead": "Your name, your password and your sessions go, and so do your matches against computer players. In matches you played with others you become \u201ca former player\u201d; theirs stay whole. This cannot be undone.",
  "account.deleteConfirm": "Delete for good",
  "account.cancel": "Cancel",
  "account.error.name_length": "A name is 3 to 24 characters.",
  "account.error.name_characters": "A name holds letters, digits, spaces and - _ . ' only.",
  "account.error.name_reserved": "This name is reserved. Choose another.",
  "account.error.name_taken": "This name is taken. Choose another.",
  "account.error.password_too_short": "A password is at least 8 characters.",
  "account.error.password_too_long": "A password is at most 256 characters.",
  "account.error.password_is_name": "The password may not be the name.",
  "account.error.bad_credentials": "The name or the password is wrong.",
  "account.error.too_many_attempts": "Too many failed sign-ins. Try again in {minutes} min.",
  "account.error.name_is_account": "Signed in, your name at the table is your account’s. Change it in the account menu.",
  "account.error.already_signed_in": "This browser is signed in already. Sign out first.",
  "account.error.not_signed_in": "This browser is no longer signed in.",
  "account.error.foreign_origin": "This request came from another site and was refused.",
  "account.error.link_unknown": "This code or link is not known. Check it, or ask for a new one.",
  "account.error.link_used": "This code or link was used already. Ask for a new one.",
  "account.error.link_expired": "This code or link has expired. Ask for a new one.",
  "account.error.link_missing": "Type the code first.",
  "account.error.unknown": "That did not work. Try again.",
});
Object.assign(LANGS.zh, {
  "account.menu": "保存我的牌局",
  "account.keepTitle": "保存我的牌局",
  "account.keepLead": "选一个名字和密码。在任何浏览器登录后，你的牌局都会跟着你。",
  "account.keep": "保存我的牌局",
  "account.signInTitle": "登录",
  "account.signInLead": "已经保存过牌局？在这个浏览器登录。",
  "account.signIn": "登录",
  "account.name": "名字",
  "account.password": "密码",
  "account.current": "当前密码",
  "account.newPassword": "新密码",
  "account.signedInAs": "已登录为 {name}",
  "account.signOut": "退出登录",
  "account.signOutEverywhere": "在所有设备上退出",
  "account.sessions": "你登录过的地方",
  "account.thisOne": "本浏览器",
  "account.seen": "最近活动：{when}",
  "account.unknownPlace": "位置不明",
  "account.changePassword": "修改密码",
  "account.rename": "修改名字",
  "account.newName": "新名字",
  "account.renameLead": "也是你在每张牌桌上的名字。规则和新账户的名字相同。",
  "account.renamed": "名字已修改：{name}。",
  "account.changed": "密码已修改。已退出的其他会话：{count}。",
  "account.linkDeviceTitle": "关联此设备",
  "account.linkDeviceLead": "输入在已登录的设备上显示的代码。",
  "account.code": "代码（10 个字符）",
  "account.linkDevice": "关联此设备",
  "account.linkTitle": "关联一台设备",
  "account.linkLead": "在新设备上扫描二维码或打开链接，或在它的菜单“关联此设备”中输入代码。只能用一次，10 分钟内有效。",
  "account.linkShow": "显示代码",
  "account.linkNew": "换一个代码",
  "account.linkCancel": "取消",
  "account.linkQr": "链接的二维码",
  "account.linkExpiresIn": "{time} 后失效",
  "account.linkUsed": "已有一台设备用这个代码登录。",
  "account.linkExpired": "这个代码已失效。",
  "account.linkPageTitle": "关联这个浏览器",
  "account.linkPageLead": "让这个浏览器登录到给你这个链接的账户。只有链接是你自己要的，才这样做。",
  "account.linkConfirm": "在这个浏览器登录",
  "account.linkHome": "回到牌桌",
  "account.export": "导出我的数据",
  "account.exportTip": "你下过的每一局，按你当时所见，连同你的提示和分析，存成一个文件。",
  "account.delete": "删除我的账户",
  "account.deleteTitle": "删除你的账户？",
  "account.deleteLead": "你的名字、密码和会话都会删除，你和电脑玩家的牌局也一并删除。在与他人同玩的牌局里，你会显示为“一位前玩家”；他们的牌局保持完整。此操作无法撤销。",
  "account.deleteConfirm": "永久删除",
  "account.cancel": "取消",
  "account.error.name_length": "名字为 3 到 24 个字符。",
  "account.error.name_characters": "名字只能包含字母、数字、空格和 - _ . '。",
  "account.error.name_reserved": "这个名字被保留了，请换一个。",
  "account.error.name_taken": "这个名字已被使用，请换一个。",
  "account.error.password_too_short": "密码至少 8 个字符。",
  "account.error.password_too_long": "密码最多 256 个字符。",
  "account.error.password_is_name": "密码不能和名字相同。",
  "account.error.bad_credentials": "名字或密码不对。",
  "account.error.too_many_attempts": "登录失败次数太多，请 {minutes} 分钟后再试。",
  "account.error.name_is_account": "已登录：你在牌桌上的名字就是账户名，可以在账户菜单里修改。",
  "account.error.already_signed_in": "这个浏览器已经登录，请先退出。",
  "account.error.not_signed_in": "这个浏览器已不再登录。",
  "account.error.foreign_origin": "这个请求来自其他网站，已被拒绝。",
  "account.error.link_unknown": "这个代码或链接无效。请检查，或者要一个新的。",
  "account.error.link_used": "这个代码或链接已经用过了。请要一个新的。",
  "account.error.link_expired": "这个代码或链接已失效。请要一个新的。",
  "account.error.link_missing": "请先输入代码。",
  "account.error.unknown": "没有成功，请再试一次。",
});
Object.assign(LANGS.fr, {
  "account.menu": "Garder mes parties",
  "account.keepTitle": "Garder mes parties",
  "account.keepLead": "Choisissez un nom et un mot de passe\u00a0: vos parties vous suivent dans tout navigateur où vous vous connectez.",
  "account.keep": "Garder mes parties",
  "account.signInTitle": "Se connecter",
  "account.signInLead": "Parties déjà gardées\u202f? Connectez ce navigateur.",
  "account.signIn": "Se connecter",
  "account.name": "Nom",
  "account.password": "Mot de passe",
  "account.current": "Mot de passe actuel",
  "account.newPassword": "Nouveau mot de passe",
  "account.signedInAs": "Connecté en tant que {name}",
  "account.signOut": "Se déconnecter",
  "account.signOutEverywhere": "Se déconnecter partout",
  "account.sessions": "Où vous êtes connecté",
  "account.thisOne": "ce navigateur",
  "account.seen": "vu le {when}",
  "account.unknownPlace": "lieu inconnu",
  "account.changePassword": "Changer de mot de passe",
  "account.rename": "Changer de nom",
  "account.newName": "Nouveau nom",
  "account.renameLead": "C’est aussi votre nom à chaque table. Les mêmes règles que pour un nouveau compte.",
  "account.renamed": "Nom changé\u00a0: {name}.",
  "account.changed": "Mot de passe changé. Autres sessions déconnectées\u00a0: {count}.",
  "account.linkDeviceTitle": "Associer cet appareil",
  "account.linkDeviceLead": "Tapez le code affiché sur un appareil où vous êtes connecté.",
  "account.code": "Code (10 caractères)",
  "account.linkDevice": "Associer cet appareil",
  "account.linkTitle": "Associer un appareil",
  "account.linkLead": "Sur le nouvel appareil, scannez le QR code ou ouvrez le lien, ou tapez le code dans son menu, sous «\u00a0Associer cet appareil\u00a0». Il sert une fois, pendant 10 minutes.",
  "account.linkShow": "Afficher un code",
  "account.linkNew": "Nouveau code",
  "account.linkCancel": "Annuler",
  "account.linkQr": "Le lien en QR code",
  "account.linkExpiresIn": "Expire dans {time}",
  "account.linkUsed": "Un appareil s’est connecté avec ce code.",
  "account.linkExpired": "Ce code a expiré.",
  "account.linkPageTitle": "Associer ce navigateur",
  "account.linkPageLead": "Connectez ce navigateur au compte qui vous a montré ce lien. Faites-le seulement si vous avez demandé ce lien vous-même.",
  "account.linkConfirm": "Me connecter sur ce navigateur",
  "account.linkHome": "Retour aux tables",
  "account.export": "Exporter mes données",
  "account.exportTip": "Toutes vos parties, telles que vous les avez vues, avec vos conseils et vos analyses, dans un seul fichier.",
  "account.delete": "Supprimer mon compte",
  "account.deleteTitle": "Supprimer votre compte\u202f?",
  "account.deleteLead": "Votre nom, votre mot de passe et vos sessions disparaissent, ainsi que vos parties contre l’ordinateur. Dans les parties jouées avec d’autres, vous devenez «\u00a0un ancien joueur\u00a0»\u202f; les leurs restent entières. C’est définitif.",
  "account.deleteConfirm": "Supprimer définitivement",
  "account.cancel": "Annuler",
  "account.error.name_length": "Un nom a de 3 à 24 caractères.",
  "account.error.name_characters": "Un nom ne contient que des lettres, des chiffres, des espaces et - _ . '.",
  "account.error.name_reserved": "Ce nom est réservé. Choisissez-en un autre.",
  "account.error.name_taken": "Ce nom est déjà pris. Choisissez-en un autre.",
  "account.error.password_too_short": "Un mot de passe a au moins 8 caractères.",
  "account.error.password_too_long": "Un mot de passe a au plus 256 caractères.",
  "account.error.password_is_name": "Le mot de passe ne peut pas être le nom.",
  "account.error.bad_credentials": "Le nom ou le mot de passe est faux.",
  "account.error.too_many_attempts": "Trop de connexions manquées. Réessayez dans {minutes} min.",
  "account.error.name_is_account": "Connecté, votre nom à la table est celui de votre compte. Changez-le dans le menu du compte.",
  "account.error.already_signed_in": "Ce navigateur est déjà connecté. Déconnectez-vous d’abord.",
  "account.error.not_signed_in": "Ce navigateur n’est plus connecté.",
  "account.error.foreign_origin": "Cette requête venait d’un autre site et a été refusée.",
  "account.error.link_unknown": "Ce code ou ce lien est inconnu. Vérifiez-le, ou demandez-en un nouveau.",
  "account.error.link_used": "Ce code ou ce lien a déjà servi. Demandez-en un nouveau.",
  "account.error.link_expired": "Ce code ou ce lien a expiré. Demandez-en un nouveau.",
  "account.error.link_missing": "Tapez d’abord le code.",
  "account.error.unknown": "Cela n’a pas marché. Réessayez.",
});

// The server's refusal codes and their words (named in full so that tests/test_i18n.py sees them).
const ERRORS = {
  name_length: "account.error.name_length",
  name_characters: "account.error.name_characters",
  name_reserved: "account.error.name_reserved",
  name_taken: "account.error.name_taken",
  password_too_short: "account.error.password_too_short",
  password_too_long: "account.error.password_too_long",
  password_is_name: "account.error.password_is_name",
  bad_credentials: "account.error.bad_credentials",
  too_many_attempts: "account.error.too_many_attempts",
  already_signed_in: "account.error.already_signed_in",
  name_is_account: "account.error.name_is_account",
  not_signed_in: "account.error.not_signed_in",
  foreign_origin: "account.error.foreign_origin",
  link_unknown: "account.error.link_unknown",
  link_used: "account.error.link_used",
  link_expired: "account.error.link_expired",
  link_missing: "account.error.link_missing",
};

export function errorText(e) {
  const code = e && e.body ? e.body.code : null;
  const key = ERRORS[code] || "account.error.unknown";
  return t(key, { minutes: Math.max(1, Math.ceil((e.retryAfter || 60) / 60)) });
}

const state = { account: undefined, sessions: null, notice: "" };

function field(role, label, type, autocomplete) {
  return el(
    "label",
    { class: "account-field" },
    el("span", {}, label),
    el("input", { type, name: role, "data-role": role, autocomplete, required: true, maxlength: type === "password" ? 256 : 24 }),
  );
}

function showError(box, e) {
  const line = box.querySelector('[data-role="account-error"]');
  line.textContent = errorText(e);
  line.hidden = false;
}

function form(role, title, lead, fields, submit, action) {
  const box = el(
    "form",
    { class: "account-form", "data-role": role },
    el("strong", {}, title),
    lead ? el("p", { class: "account-lead" }, lead) : null,
    ...fields,
    el("button", { type: "submit", "data-action": `${role}-submit` }, submit),
    el("p", { class: "account-error", role: "alert", "data-role": "account-error", hidden: true }),
  );
  box.addEventListener("submit", async (event) => {
    event.preventDefault();
    const values = Object.fromEntries(new FormData(box).entries());
    const button = box.querySelector("button");
    button.disabled = true;
    try {
      await action(values);
    } catch (e) {
      showError(box, e);
    } finally {
      button.disabled = false;
    }
  });
  return box;
}

function guestMenu() {
  const keep = form(
    "keep-form",
    t("account.keepTitle"),
    t("account.keepLead"),
    [field("name", t("account.name"), "text", "username"), field("password", t("account.password"), "password", "new-password")],
    t("account.keep"),
    async (v) => {
      await call("POST", "/api/account", { name: v.name, password: v.password });
      location.reload();
    },
  );
  const signIn = form(
    "sign-in-form",
    t("account.signInTitle"),
    t("account.signInLead"),
    [field("name", t("account.name"), "text", "username"), field("password", t("account.password"), "password", "current-password")],
    t("account.signIn"),
    async (v) => {
      await call("POST", "/api/session", { name: v.name, password: v.password });
      location.reload();
    },
  );
  const linkDevice = form(
    "link-form",
    t("account.linkDeviceTitle"),
    t("account.linkDeviceLead"),
    [codeField()],
    t("account.linkDevice"),
    async (v) => {
      await call("POST", "/api/link", { code: v.code });
      location.reload();
    },
  );
  return [keep, signIn, passkeySignIn(), linkDevice, exportLink()];
}

function codeField() {
  return el(
    "label",
    { class: "account-field" },
    el("span", {}, t("account.code")),
    el("input", { type: "text", name: "code", "data-role": "code", autocomplete: "one-time-code", autocapitalize: "characters", spellcheck: "false", required: true, maxlength: 16 }),
  );
}

// "Link a device": the code this browser asked for (one at a time), redrawn on its own so that
// the countdown never wipes a field being typed in the rest of the menu.
const link = { box: null, current: null, state: null, error: null, timer: null, polled: 0 };

function linkBox() {
  if (!link.box) link.box = el("div", { class: "account-link", "data-role": "link-box" });
  drawLink();
  return link.box;
}

function left() {
  const ms = Math.max(0, new Date(link.current.expires).getTime() - Date.now());
  const s = Math.ceil(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function drawLink() {
  if (!link.box) return;
  const button = (action, key, onclick) => el("button", { type: "button", "data-action": action, onclick }, t(key));
  const parts = [el("strong", {}, t("account.linkTitle")), el("p", { class: "account-lead" }, t("account.linkLead"))];
  const c = link.current;
  if (!c) {
    parts.push(el("div", { class: "account-actions" }, button("link-new", "account.linkShow", newLink)));
  } else if (link.state === "waiting") {
    const shown = (c.instead && c.instead[0]) || c.url;
    parts.push(
      el("p", { class: "account-code", "data-role": "link-code" }, c.code),
      el("img", { class: "account-qr", src: c.qr, alt: t("account.linkQr"), "data-role": "link-qr", width: 164, height: 164 }),
      el("p", { class: "account-url" }, el("a", { href: shown, "data-role": "link-url", target: "_blank", rel: "noopener" }, shown)),
      el("p", { class: "account-lead", role: "timer", "data-role": "link-countdown" }, t("account.linkExpiresIn", { time: left() })),
      el("div", { class: "account-actions" }, button("link-new", "account.linkNew", newLink), button("link-cancel", "account.linkCancel", cancelLink)),
    );
  } else {
    const key = link.state === "used" ? "account.linkUsed" : "account.linkExpired";
    parts.push(
      el("p", { class: "account-notice", role: "status", "data-role": "link-state", "data-state": link.state }, t(key)),
      el("div", { class: "account-actions" }, button("link-new", "account.linkNew", newLink)),
    );
  }
  if (link.error) parts.push(el("p", { class: "account-error", role: "alert", "data-role": "account-error" }, errorText(link.error)));
  link.box.replaceChildren(...parts);
}

function stopTimer() {
  if (link.timer) clearInterval(link.timer);
  link.timer = null;
}

async function newLink() {
  stopTimer();
  link.error = null;
  try {
    link.current = await call("POST", "/api/link-code");
    link.state = "waiting";
    link.timer = setInterval(tick, 1000);
  } catch (e) {
    link.error = e;
  }
  drawLink();
}

async function cancelLink() {
  const c = link.current;
  stopTimer();
  link.current = null;
  link.error = null;
  try {
    await call("DELETE", `/api/link-code/${c.id}`);
  } catch (e) {
    if (!(e.body && e.body.code === "link_unknown")) link.error = e;
  }
  drawLink();
}

// Each second the countdown; every other second, whether the code was used (then the sessions
// list shows the new device).
async function tick() {
  const c = link.current;
  if (!c || link.state !== "waiting") return stopTimer();
  const countdown = link.box && link.box.querySelector('[data-role="link-countdown"]');
  if (countdown) countdown.textContent = t("account.linkExpiresIn", { time: left() });
  link.polled = (link.polled + 1) % 2;
  if (link.polled) return;
  let now;
  try {
    now = await call("GET", `/api/link-code/${c.id}`);
  } catch (e) {
    now = { state: e.body && e.body.code === "link_unknown" ? "expired" : "waiting" };
  }
  if (link.current !== c || now.state === "waiting") return;
  stopTimer();
  link.state = now.state;
  drawLink();
  if (now.state === "used") loadSessions();
}

// A user agent in short ("Firefox, Windows"): the whole string stays in the tooltip.
const BROWSERS = [["Edg/", "Edge"], ["Firefox/", "Firefox"], ["OPR/", "Opera"], ["Chrome/", "Chrome"], ["Safari/", "Safari"]];
const SYSTEMS = [["Android", "Android"], ["iPhone", "iPhone"], ["iPad", "iPad"], ["Windows", "Windows"], ["Mac OS X", "macOS"], ["CrOS", "ChromeOS"], ["Linux", "Linux"]];

function shortBrowser(agent) {
  const find = (list) => (list.find(([mark]) => agent.includes(mark)) || [null, null])[1];
  const parts = [find(BROWSERS), find(SYSTEMS)].filter(Boolean);
  return parts.length ? parts.join(", ") : agent || "?";
}

function sessionList() {
  if (!state.sessions) return el("p", { class: "muted", "data-role": "sessions" }, "…");
  return el(
    "ul",
    { class: "account-sessions", "data-role": "sessions" },
    ...state.sessions.map((s) =>
      el(
        "li",
        { "data-current": s.current ? "true" : "false" },
        el("span", { class: "account-browser", title: s.browser }, shortBrowser(s.browser || "")),
        " · ",
        s.place || t("account.unknownPlace"),
        " · ",
        t("account.seen", { when: new Date(s.last_seen).toLocaleString() }),
        s.current ? el("strong", {}, ` (${t("account.thisOne")})`) : null,
      ),
    ),
  );
}

// The file is made by the server (a guest's data is theirs too): the browser saves it.
function exportLink() {
  return el("p", {}, el("a", { href: "/api/me/export", download: "", "data-action": "export", title: t("account.exportTip") }, t("account.export")));
}

// "Delete my account": a modal that asks for the password again, then the page reloads as the
// new guest this browser is.
function deleteDialog() {
  const before = document.activeElement;
  const box = el("section", { class: "overlay confirm", role: "alertdialog", "aria-modal": "true", "data-role": "delete-dialog" });
  const close = () => {
    box.remove();
    document.removeEventListener("keydown", onKey, true);
    if (before && before.focus) before.focus({ preventScroll: true });
  };
  const onKey = (e) => {
    if (e.key === "Escape") {
      e.stopPropagation();
      close();
    }
  };
  const confirm = form(
    "delete-form",
    t("account.deleteTitle"),
    t("account.deleteLead"),
    [field("password", t("account.current"), "password", "current-password")],
    t("account.deleteConfirm"),
    async (v) => {
      await call("DELETE", "/api/account", { password: v.password });
      location.reload();
    },
  );
  confirm.append(el("button", { type: "button", "data-action": "delete-cancel", onclick: close }, t("account.cancel")));
  const panel = el("div", { class: "panel" }, confirm);
  box.append(panel);
  document.addEventListener("keydown", onKey, true);
  document.body.append(box);
  confirm.querySelector("input").focus();
  passkeyConfirm(() => location.reload()).then((part) => {
    if (part && box.isConnected) panel.append(part);
  });
}

function signedInMenu() {
  const actions = el(
    "div",
    { class: "account-actions" },
    el("button", { type: "button", "data-action": "sign-out", onclick: () => leave("DELETE", "/api/session") }, t("account.signOut")),
    el("button", { type: "button", "data-action": "sign-out-everywhere", onclick: () => leave("DELETE", "/api/sessions") }, t("account.signOutEverywhere")),
  );
  const password = form(
    "password-form",
    t("account.changePassword"),
    null,
    [field("password", t("account.current"), "password", "current-password"), field("new_password", t("account.newPassword"), "password", "new-password")],
    t("account.changePassword"),
    async (v) => {
      const out = await call("POST", "/api/password", { password: v.password, new_password: v.new_password });
      state.notice = t("account.changed", { count: out.ended });
      await loadSessions(true);
    },
  );
  const rename = form(
    "rename-form",
    t("account.rename"),
    t("account.renameLead"),
    [field("name", t("account.newName"), "text", "username")],
    t("account.rename"),
    async (v) => {
      const out = await call("POST", "/api/account/name", { name: v.name });
      state.account = out.account;
      state.notice = t("account.renamed", { name: out.account.name });
      render();
      lockNames();
    },
  );
  return [
    el("p", { "data-role": "signed-in-as" }, t("account.signedInAs", { name: state.account.name })),
    actions,
    el("strong", {}, t("account.sessions")),
    sessionList(),
    state.notice ? el("p", { class: "account-notice", role: "status", "data-role": "account-notice" }, state.notice) : null,
    passkeyPanel(),
    linkBox(),
    password,
    rename,
    exportLink(),
    el("button", { type: "button", class: "danger", "data-action": "delete-account", onclick: deleteDialog }, t("account.delete")),
  ];
}

// Signed in, the name at the table is the account's (the server refuses another): the home
// form's name field shows it, locked, and says where it changes. A disabled field is not sent.
function lockNames() {
  for (const input of document.querySelectorAll('[data-role="name-input"]')) {
    const box = input.closest(".seat-who, label") || input.parentElement;
    const help = box.querySelector(".help:not([data-role=name-locked])");
    let note = box.querySelector('[data-role="name-locked"]');
    if (!state.account) {
      input.disabled = false;
      if (note) note.remove();
      if (help) help.hidden = false;
      continue;
    }
    input.value = state.account.name;
    input.disabled = true;
    if (help) help.hidden = true; // "optional" no longer holds
    if (!note) {
      note = el("span", { class: "help", "data-role": "name-locked" });
      box.append(note);
    }
    note.textContent = t("friends.nameIsAccount", { name: state.account.name });
  }
}

async function leave(method, path) {
  try {
    await call(method, path);
  } catch (e) {
    // Signed out elsewhere already: the reload shows the guest this browser now is.
  }
  location.reload();
}

// ``whole``: the menu is drawn again too (a notice to show), not the list alone.
async function loadSessions(whole = false) {
  try {
    state.sessions = (await call("GET", "/api/sessions")).sessions;
  } catch (e) {
    state.sessions = [];
  }
  // Only the list changes: a whole redraw would wipe what the person is typing in the menu
  // (a passkey's name, a password) when the sessions arrive.
  const shown = document.querySelector('[data-role="account-menu"] [data-role="sessions"]');
  if (shown && !whole) shown.replaceWith(sessionList());
  else render();
}

function render() {
  const summary = document.querySelector('[data-role="account-summary"]');
  const menu = document.querySelector('[data-role="account-menu"]');
  if (!summary || !menu || state.account === undefined) return;
  summary.textContent = state.account ? state.account.name : t("account.menu");
  summary.setAttribute("data-signed-in", state.account ? "true" : "false");
  menu.replaceChildren(...(state.account ? signedInMenu() : guestMenu()).filter(Boolean));
  lockNames();
}

async function start() {
  if (!document.querySelector('[data-role="account"]')) return; // a page without the menu (link.js)
  try {
    const me = await call("GET", "/api/me");
    state.account = me.account || null;
  } catch (e) {
    state.account = null;
  }
  render();
  const details = document.querySelector('[data-role="account"]');
  if (details) {
    details.addEventListener("toggle", () => {
      if (details.open && state.account) loadSessions();
    });
    // Opened before this page knew who it was (a quick click): the toggle came too early.
    if (details.open && state.account) loadSessions();
  }
  // The words follow the page's language (app.js translates the rest on the same change).
  const lang = document.getElementById("lang");
  if (lang) lang.addEventListener("change", () => setTimeout(render, 0));
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
else start();
