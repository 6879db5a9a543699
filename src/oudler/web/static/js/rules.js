// The rules page: shows the text in the chosen language (?lang=, then the table's saved choice,
// then the browser's languages), switchable; the choice is shared with the table.

const LANGS = ["en", "zh", "fr"];
const STORE = "oudler.lang";

function pick() {
  const asked = new URLSearchParams(location.search).get("lang");
  if (LANGS.includes(asked)) return asked;
  const saved = localStorage.getItem(STORE);
  if (LANGS.includes(saved)) return saved;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (LANGS.includes(base)) return base;
  }
  return "en";
}

function apply(lang) {
  document.body.classList.remove(...LANGS.map((l) => `lang-${l}`));
  document.body.classList.add(`lang-${lang}`);
  document.documentElement.lang = lang === "zh" ? "zh-Hans" : lang;
  document.getElementById("lang").value = lang;
  document.title = { en: "Oudler · Rules of French Tarot", zh: "Oudler · 法式塔罗规则", fr: "Oudler · Règles du tarot" }[lang];
  for (const a of document.querySelectorAll('a[href="/"]')) a.setAttribute("href", "/");
}

const select = document.getElementById("lang");
select.addEventListener("change", () => {
  localStorage.setItem(STORE, select.value);
  const url = new URL(location.href);
  url.searchParams.set("lang", select.value);
  history.replaceState(null, "", url);
  apply(select.value);
});
apply(pick());
if (location.hash) document.getElementById(location.hash.slice(1))?.scrollIntoView();
