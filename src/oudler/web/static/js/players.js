// The computer players as people at the table: a name for each seat and a small picture for each
// level (drawn here in SVG), so that a level is recognisable at a glance.

import { t } from "./i18n.js";

// 40×40 pictures: a die (random), a seedling (novice), a player in a beret (club), an owl (expert).
const PICTURES = {
  random:
    '<rect x="6" y="6" width="28" height="28" rx="6" fill="#fff" stroke="#37474f" stroke-width="2.5"/>' +
    '<g fill="#37474f"><circle cx="13" cy="13" r="2.6"/><circle cx="20" cy="20" r="2.6"/><circle cx="27" cy="27" r="2.6"/>' +
    '<circle cx="27" cy="13" r="2.6"/><circle cx="13" cy="27" r="2.6"/></g>',
  novice:
    '<path d="M10 30 h20 l-3 8 h-14 z" fill="#a1683a"/>' +
    '<path d="M20 30 V18" stroke="#2e7d32" stroke-width="2.5" fill="none"/>' +
    '<path d="M20 20 C12 20 8 14 8 8 C15 8 20 12 20 20 Z" fill="#66bb6a"/>' +
    '<path d="M20 17 C27 17 32 12 32 5 C25 5 20 9 20 17 Z" fill="#43a047"/>',
  club:
    '<circle cx="20" cy="22" r="12" fill="#f3c89b" stroke="#8d5a2b" stroke-width="1.5"/>' +
    '<path d="M7 15 C9 6 31 6 33 15 Z" fill="#263238"/><circle cx="20" cy="6" r="2" fill="#263238"/>' +
    '<circle cx="15.5" cy="21" r="1.6" fill="#263238"/><circle cx="24.5" cy="21" r="1.6" fill="#263238"/>' +
    '<path d="M15 27 Q20 31 25 27" stroke="#6d3b1e" stroke-width="1.6" fill="none"/>',
  expert:
    '<path d="M8 12 L13 5 L17 11 Q20 9 23 11 L27 5 L32 12 Q36 24 30 33 Q20 40 10 33 Q4 24 8 12 Z" fill="#795548"/>' +
    '<circle cx="14.5" cy="18" r="6" fill="#fff8e1"/><circle cx="25.5" cy="18" r="6" fill="#fff8e1"/>' +
    '<circle cx="14.5" cy="18" r="2.6" fill="#212121"/><circle cx="25.5" cy="18" r="2.6" fill="#212121"/>' +
    '<path d="M18 24 L20 28 L22 24 Z" fill="#ffb300"/><path d="M11 29 Q20 35 29 29" stroke="#d7ccc8" stroke-width="1.4" fill="none"/>',
};

export const LEVEL_NAMES = Object.keys(PICTURES);

export function pictureSvg(level, cls = "avatar") {
  const body = PICTURES[level] || PICTURES.random;
  return `<svg class="${cls}" viewBox="0 0 40 40" aria-hidden="true" focusable="false">${body}</svg>`;
}

// The name of the computer player at a seat (1-3) for a level; seat 0 is the person.
export function playerName(level, seat) {
  return seat === 0 ? t("seat.you") : t(`bot.${LEVEL_NAMES.includes(level) ? level : "random"}.${seat}`);
}
