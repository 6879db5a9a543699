// The server explains refusals in plain English (the engine's words). For the other languages the
// known sentences are translated here; anything unknown is shown as the server wrote it.

import { language } from "./i18n.js";

const SUITS = {
  zh: { spades: "黑桃", hearts: "红心", diamonds: "方块", clubs: "梅花" },
  fr: { spades: "pique", hearts: "cœur", diamonds: "carreau", clubs: "trèfle" },
};
const RANKS = {
  zh: { king: "K", queen: "Q", cavalier: "骑士", jack: "J" },
  fr: { king: "roi", queen: "dame", cavalier: "cavalier", jack: "valet" },
};

// "the king of hearts", "T14", "the Petit", "the Excuse" in the page's language.
function cardWords(lang, text) {
  const m = /^the (\w+) of (\w+)$/.exec(text);
  if (m) {
    const rank = RANKS[lang][m[1]] ?? m[1];
    const suit = SUITS[lang][m[2]] ?? m[2];
    return lang === "zh" ? `${suit}${rank}` : `le ${rank} de ${suit}`;
  }
  if (text === "the Petit") return lang === "zh" ? "Petit（将牌 1）" : "le Petit";
  if (text === "the Excuse") return lang === "zh" ? "Excuse" : "l'Excuse";
  return text;
}

const RULES = [
  [/^you do not hold (.+)$/, {
    zh: (m) => `你没有${cardWords("zh", m[1])}`,
    fr: (m) => `vous n'avez pas ${cardWords("fr", m[1])}`,
  }],
  [/^you must follow (\w+): you may not trump while you hold \w+$/, {
    zh: (m) => `你必须跟${SUITS.zh[m[1]]}：手里还有${SUITS.zh[m[1]]}时不能将吃`,
    fr: (m) => `vous devez fournir ${SUITS.fr[m[1]]} : pas de coupe tant que vous en avez`,
  }],
  [/^you must follow (\w+)$/, {
    zh: (m) => `你必须跟${SUITS.zh[m[1]]}`,
    fr: (m) => `vous devez fournir ${SUITS.fr[m[1]]}`,
  }],
  [/^trumps were led: you must play a trump$/, {
    zh: () => "首出的是将牌：你必须出将牌",
    fr: () => "atout demandé : vous devez jouer atout",
  }],
  [/^you have no (\w+), so you must play a trump$/, {
    zh: (m) => `你没有${SUITS.zh[m[1]]}，所以必须出将牌`,
    fr: (m) => `vous n'avez pas de ${SUITS.fr[m[1]]} : vous devez couper`,
  }],
  [/^you must overtrump: (T\d+) beats (T\d+)$/, {
    zh: (m) => `你必须压过：${m[1]} 大于 ${m[2]}`,
    fr: (m) => `vous devez surcouper : ${m[1]} bat ${m[2]}`,
  }],
  [/^it is not your turn to play a card$/, {
    zh: () => "现在不是你出牌",
    fr: () => "ce n'est pas à vous de jouer",
  }],
  [/^a King may not be discarded \((.+)\)$/, {
    zh: (m) => `K 不能扣（${cardWords("zh", m[1])}）`,
    fr: (m) => `un roi ne va jamais à l'écart (${cardWords("fr", m[1])})`,
  }],
  [/^an oudler may not be discarded \((.+)\)$/, {
    zh: (m) => `oudler 不能扣（${cardWords("zh", m[1])}）`,
    fr: (m) => `un bout ne va jamais à l'écart (${cardWords("fr", m[1])})`,
  }],
  [/^a trump may be discarded only when there are not six other cards to discard$/, {
    zh: () => "只有在凑不够六张别的牌时才可以扣将牌",
    fr: () => "on n'écarte un atout que faute de six autres cartes",
  }],
  [/^you may discard only (\d+) trump\(s\): discard every other card you can first$/, {
    zh: (m) => `你只能扣 ${m[1]} 张将牌：先扣完所有能扣的其他牌`,
    fr: (m) => `vous ne pouvez écarter que ${m[1]} atout(s)`,
  }],
  [/^the discard is exactly 6 cards, not (\d+)$/, {
    zh: (m) => `扣牌正好是 6 张，不是 ${m[1]} 张`,
    fr: (m) => `l'écart compte exactement 6 cartes, pas ${m[1]}`,
  }],
  [/^a poignée shows exactly 10, 13 or 15 trumps, not (\d+)$/, {
    zh: (m) => `poignée 正好亮 10、13 或 15 张将牌，不是 ${m[1]} 张`,
    fr: (m) => `une poignée montre 10, 13 ou 15 atouts, pas ${m[1]}`,
  }],
  [/^the Excuse may be shown only if you hide no trump: show a trump instead$/, {
    zh: () => "只有不藏任何将牌时才能亮 Excuse：请改亮一张将牌",
    fr: () => "l'Excuse ne se montre que si aucun atout n'est caché",
  }],
];

export function translateReason(text) {
  const lang = language();
  if (lang === "en" || typeof text !== "string") return text;
  for (const [re, by] of RULES) {
    const m = re.exec(text);
    if (m && by[lang]) return by[lang](m);
  }
  return text;
}
