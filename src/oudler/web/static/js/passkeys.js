// Passkeys in the account menu (issue 29; docs/accounts.md, "Passkeys"): a guest signs in with a
// passkey (the authenticator offers the ones it keeps for this site: no name to type); a signed-in
// person adds, lists and removes theirs. Browsers allow WebAuthn on a secure page only (HTTPS, or
// localhost) and never for an IP address: elsewhere a sentence says so and names "link a device".

import { request as call } from "./api.js";
import { LANGS, t } from "./i18n.js";
import { el } from "./util.js";

Object.assign(LANGS.en, {
  "passkey.signIn": "Sign in with a passkey",
  "passkey.deleteWith": "Or delete for good with a passkey",
  "passkey.title": "Passkeys",
  "passkey.name": "Name of the passkey",
  "passkey.defaultName": "My passkey",
  "passkey.add": "Add a passkey",
  "passkey.remove": "Remove",
  "passkey.none": "No passkey yet.",
  "passkey.made": "added {when}",
  "passkey.used": "last used {when}",
  "passkey.neverUsed": "never used",
  "passkey.needsHttps": "Passkeys need a secure page (HTTPS, or localhost on this computer). Here, use “link a device” to sign in another device.",
  "passkey.error.passkey_malformed": "The passkey's answer was not understood.",
  "passkey.error.passkey_challenge_unknown": "This passkey answer is not to this server. Try again.",
  "passkey.error.passkey_challenge_used": "This passkey answer was used already. Try again.",
  "passkey.error.passkey_challenge_expired": "Too slow: the passkey request expired. Try again.",
  "passkey.error.passkey_origin": "This passkey answer came from another site's page.",
  "passkey.error.passkey_unknown": "This passkey belongs to no account here.",
  "passkey.error.passkey_sign_count": "This passkey's counter went back: it may have been copied. Use another way to sign in.",
  "passkey.error.passkey_invalid": "The passkey could not be checked.",
  "passkey.error.passkey_exists": "This passkey is added already.",
  "passkey.error.passkey_name": "A passkey's name is 1 to 40 characters.",
  "passkey.error.passkey_not_found": "This passkey is gone already.",
  "passkey.error.too_many_passkeys": "An account has at most 20 passkeys. Remove one first.",
  "passkey.error.passkey_no_address": "This page's address is not understood.",
  "passkey.error.no_passkey": "This account has no passkey: give the password.",
  "passkey.error.cancelled": "The passkey was not used.",
});
Object.assign(LANGS.zh, {
  "passkey.signIn": "用通行密钥登录",
  "passkey.deleteWith": "或用通行密钥确认永久删除",
  "passkey.title": "通行密钥",
  "passkey.name": "通行密钥的名字",
  "passkey.defaultName": "我的通行密钥",
  "passkey.add": "添加通行密钥",
  "passkey.remove": "移除",
  "passkey.none": "还没有通行密钥。",
  "passkey.made": "添加于 {when}",
  "passkey.used": "最近使用：{when}",
  "passkey.neverUsed": "从未使用",
  "passkey.needsHttps": "通行密钥只能在安全页面上使用（HTTPS，或本机的 localhost）。在这里，请用“关联设备”让另一台设备登录。",
  "passkey.error.passkey_malformed": "无法理解通行密钥的回应。",
  "passkey.error.passkey_challenge_unknown": "这个通行密钥回应不是给本服务器的，请再试一次。",
  "passkey.error.passkey_challenge_used": "这个通行密钥回应已经用过了，请再试一次。",
  "passkey.error.passkey_challenge_expired": "太慢了：通行密钥请求已过期，请再试一次。",
  "passkey.error.passkey_origin": "这个通行密钥回应来自其他网站的页面。",
  "passkey.error.passkey_unknown": "这个通行密钥不属于这里的任何账户。",
  "passkey.error.passkey_sign_count": "这个通行密钥的计数器倒退了，它可能被复制过。请用别的方式登录。",
  "passkey.error.passkey_invalid": "无法验证这个通行密钥。",
  "passkey.error.passkey_exists": "这个通行密钥已经添加过了。",
  "passkey.error.passkey_name": "通行密钥的名字为 1 到 40 个字符。",
  "passkey.error.passkey_not_found": "这个通行密钥已经不在了。",
  "passkey.error.too_many_passkeys": "一个账户最多有 20 个通行密钥，请先移除一个。",
  "passkey.error.passkey_no_address": "无法理解这个页面的地址。",
  "passkey.error.no_passkey": "这个账户没有通行密钥：请输入密码。",
  "passkey.error.cancelled": "没有使用通行密钥。",
});
Object.assign(LANGS.fr, {
  "passkey.signIn": "Se connecter avec une clé d’accès",
  "passkey.deleteWith": "Ou supprimer définitivement avec une clé d’accès",
  "passkey.title": "Clés d’accès",
  "passkey.name": "Nom de la clé d’accès",
  "passkey.defaultName": "Ma clé d’accès",
  "passkey.add": "Ajouter une clé d’accès",
  "passkey.remove": "Retirer",
  "passkey.none": "Pas encore de clé d’accès.",
  "passkey.made": "ajoutée le {when}",
  "passkey.used": "utilisée le {when}",
  "passkey.neverUsed": "jamais utilisée",
  "passkey.needsHttps": "Les clés d’accès demandent une page sûre (HTTPS, ou localhost sur cet ordinateur). Ici, connectez un autre appareil avec «\u00a0lier un appareil\u00a0».",
  "passkey.error.passkey_malformed": "La réponse de la clé d’accès n’a pas été comprise.",
  "passkey.error.passkey_challenge_unknown": "Cette réponse de clé d’accès n’est pas pour ce serveur. Réessayez.",
  "passkey.error.passkey_challenge_used": "Cette réponse de clé d’accès a déjà servi. Réessayez.",
  "passkey.error.passkey_challenge_expired": "Trop tard\u00a0: la demande de clé d’accès a expiré. Réessayez.",
  "passkey.error.passkey_origin": "Cette réponse de clé d’accès vient de la page d’un autre site.",
  "passkey.error.passkey_unknown": "Cette clé d’accès n’est celle d’aucun compte ici.",
  "passkey.error.passkey_sign_count": "Le compteur de cette clé d’accès a reculé\u00a0: elle a peut-être été copiée. Connectez-vous autrement.",
  "passkey.error.passkey_invalid": "La clé d’accès n’a pas pu être vérifiée.",
  "passkey.error.passkey_exists": "Cette clé d’accès est déjà ajoutée.",
  "passkey.error.passkey_name": "Le nom d’une clé d’accès a de 1 à 40 caractères.",
  "passkey.error.passkey_not_found": "Cette clé d’accès n’existe plus.",
  "passkey.error.too_many_passkeys": "Un compte a au plus 20 clés d’accès. Retirez-en une d’abord.",
  "passkey.error.passkey_no_address": "L’adresse de cette page n’est pas comprise.",
  "passkey.error.no_passkey": "Ce compte n’a pas de clé d’accès\u00a0: donnez le mot de passe.",
  "passkey.error.cancelled": "La clé d’accès n’a pas été utilisée.",
});

// The server's refusal codes and their words (named in full so that tests/test_i18n.py sees them).
const ERRORS = {
  passkey_malformed: "passkey.error.passkey_malformed",
  passkey_challenge_unknown: "passkey.error.passkey_challenge_unknown",
  passkey_challenge_used: "passkey.error.passkey_challenge_used",
  passkey_challenge_expired: "passkey.error.passkey_challenge_expired",
  passkey_origin: "passkey.error.passkey_origin",
  passkey_unknown: "passkey.error.passkey_unknown",
  passkey_sign_count: "passkey.error.passkey_sign_count",
  passkey_invalid: "passkey.error.passkey_invalid",
  passkey_exists: "passkey.error.passkey_exists",
  passkey_name: "passkey.error.passkey_name",
  passkey_not_found: "passkey.error.passkey_not_found",
  too_many_passkeys: "passkey.error.too_many_passkeys",
  passkey_no_address: "passkey.error.passkey_no_address",
  no_passkey: "passkey.error.no_passkey",
};

// Whether this page may use passkeys: a secure context with WebAuthn, on a name (browsers refuse
// an IP address as the site a passkey is for).
export function passkeysHere() {
  const host = location.hostname;
  const ip = /^[0-9.]+$/.test(host) || host.includes(":") || host.startsWith("[");
  return Boolean(window.isSecureContext && window.PublicKeyCredential) && !ip;
}

function needsHttps() {
  return el("p", { class: "account-lead", "data-role": "passkey-unavailable" }, t("passkey.needsHttps"));
}

// base64url (the server's JSON) <-> bytes (what navigator.credentials takes and gives).
function toBytes(text) {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4);
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}

function toText(buffer) {
  let s = "";
  for (const byte of new Uint8Array(buffer)) s += String.fromCharCode(byte);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function creationOptions(o) {
  return {
    ...o,
    challenge: toBytes(o.challenge),
    user: { ...o.user, id: toBytes(o.user.id) },
    excludeCredentials: (o.excludeCredentials || []).map((c) => ({ ...c, id: toBytes(c.id) })),
  };
}

function requestOptions(o) {
  return {
    ...o,
    challenge: toBytes(o.challenge),
    allowCredentials: (o.allowCredentials || []).map((c) => ({ ...c, id: toBytes(c.id) })),
  };
}

function credentialJson(cred) {
  const r = cred.response;
  const response = { clientDataJSON: toText(r.clientDataJSON) };
  if (r.attestationObject) {
    response.attestationObject = toText(r.attestationObject);
    response.transports = r.getTransports ? r.getTransports() : [];
  } else {
    response.authenticatorData = toText(r.authenticatorData);
    response.signature = toText(r.signature);
    if (r.userHandle) response.userHandle = toText(r.userHandle);
  }
  return {
    id: cred.id,
    rawId: toText(cred.rawId),
    type: cred.type,
    response,
    clientExtensionResults: cred.getClientExtensionResults ? cred.getClientExtensionResults() : {},
    authenticatorAttachment: cred.authenticatorAttachment || undefined,
  };
}

function errorText(e) {
  if (e && (e.name === "NotAllowedError" || e.name === "AbortError")) return t("passkey.error.cancelled");
  const code = e && e.body ? e.body.code : null;
  if (code === "too_many_attempts") {
    return t("account.error.too_many_attempts", { minutes: Math.max(1, Math.ceil((e.retryAfter || 60) / 60)) });
  }
  if (code === "not_signed_in") return t("account.error.not_signed_in");
  if (code === "foreign_origin") return t("account.error.foreign_origin");
  return t(ERRORS[code] || "account.error.unknown");
}

function errorLine() {
  return el("p", { class: "account-error", role: "alert", "data-role": "passkey-error", hidden: true });
}

function showError(line, e) {
  line.textContent = errorText(e);
  line.hidden = false;
}

// For a guest: "Sign in with a passkey", or why not here.
export function passkeySignIn() {
  if (!passkeysHere()) return el("div", { class: "account-form", "data-role": "passkey-sign-in" }, needsHttps());
  const error = errorLine();
  const button = el("button", { type: "button", "data-action": "passkey-sign-in" }, t("passkey.signIn"));
  button.addEventListener("click", async () => {
    button.disabled = true;
    error.hidden = true;
    try {
      const options = await call("POST", "/api/session/passkey/challenge");
      const cred = await navigator.credentials.get({ publicKey: requestOptions(options) });
      await call("POST", "/api/session/passkey", { credential: credentialJson(cred) });
      location.reload();
    } catch (e) {
      showError(error, e);
    } finally {
      button.disabled = false;
    }
  });
  return el("div", { class: "account-form", "data-role": "passkey-sign-in" }, button, error);
}

// In the "Delete my account" dialog: the person gives one of the account's passkeys again
// instead of the password (only shown where passkeys work and the account has one).
export async function passkeyConfirm(done) {
  if (!passkeysHere()) return null;
  let listed;
  try {
    listed = await call("GET", "/api/passkeys");
  } catch (e) {
    return null;
  }
  if (!listed.passkeys.length) return null;
  const error = errorLine();
  const button = el("button", { type: "button", "data-action": "delete-with-passkey" }, t("passkey.deleteWith"));
  button.addEventListener("click", async () => {
    button.disabled = true;
    error.hidden = true;
    try {
      const options = await call("POST", "/api/account/passkey/challenge");
      const cred = await navigator.credentials.get({ publicKey: requestOptions(options) });
      await call("DELETE", "/api/account", { passkey: credentialJson(cred) });
      done();
    } catch (e) {
      showError(error, e);
    } finally {
      button.disabled = false;
    }
  });
  return el("div", { class: "account-form", "data-role": "passkey-confirm" }, button, error);
}

function when(iso) {
  return new Date(iso).toLocaleString();
}

// For a signed-in person: their passkeys (name, added, last used, remove) and "Add a passkey".
export function passkeyPanel() {
  const box = el("div", { class: "account-form", "data-role": "passkeys-panel" });
  let passkeys = null;
  let typed = null; // the name being typed survives the panel's redraws
  const error = errorLine();

  async function act(work) {
    error.hidden = true;
    try {
      await work();
    } catch (e) {
      showError(error, e);
    }
    draw();
  }

  function draw() {
    const title = el("strong", {}, t("passkey.title"));
    if (!passkeysHere()) {
      box.replaceChildren(title, needsHttps());
      return;
    }
    const list = passkeys === null
      ? el("p", { class: "muted" }, "…")
      : passkeys.length === 0
        ? el("p", { class: "muted", "data-role": "passkeys-none" }, t("passkey.none"))
        : el(
            "ul",
            { class: "account-sessions", "data-role": "passkeys" },
            ...passkeys.map((p) =>
              el(
                "li",
                { "data-passkey": p.id },
                el("span", { "data-role": "passkey-name" }, p.name),
                " · ",
                t("passkey.made", { when: when(p.created) }),
                " · ",
                p.last_used ? t("passkey.used", { when: when(p.last_used) }) : t("passkey.neverUsed"),
                " ",
                el("button", {
                  type: "button",
                  "data-action": "passkey-remove",
                  onclick: () => act(async () => {
                    passkeys = (await call("DELETE", `/api/passkeys/${p.id}`)).passkeys;
                  }),
                }, t("passkey.remove")),
              ),
            ),
          );
    const name = el("input", {
      type: "text",
      name: "passkey-name",
      "data-role": "passkey-name-input",
      maxlength: 40,
      value: typed ?? t("passkey.defaultName"),
    });
    name.addEventListener("input", () => {
      typed = name.value;
    });
    const add = el("button", { type: "button", "data-action": "passkey-add" }, t("passkey.add"));
    add.addEventListener("click", () => {
      add.disabled = true;
      act(async () => {
        const options = await call("POST", "/api/passkeys/challenge");
        const cred = await navigator.credentials.create({ publicKey: creationOptions(options) });
        await call("POST", "/api/passkeys", { name: name.value, credential: credentialJson(cred) });
        typed = null;
        passkeys = (await call("GET", "/api/passkeys")).passkeys;
      });
    });
    box.replaceChildren(
      title,
      list,
      el("label", { class: "account-field" }, el("span", {}, t("passkey.name")), name),
      add,
      error,
    );
  }

  draw();
  if (passkeysHere()) {
    call("GET", "/api/passkeys")
      .then((out) => {
        passkeys = out.passkeys;
        draw();
      })
      .catch(() => {
        passkeys = [];
        draw();
      });
  }
  return box;
}
