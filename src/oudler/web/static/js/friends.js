// Tables with friends (docs/web-api.md, "Tables with friends"): the words of the invitation page
// and of the table's seats, in the page's three languages.

import { LANGS } from "./i18n.js";

Object.assign(LANGS.en, {
  "friends.title": "An invitation to a table of French Tarot",
  "friends.table": "A match of {deals} deals; computer players: {level}.",
  "friends.seat": "Your seat: {seat}.",
  "friends.sit": "Sit at {seat}",
  "friends.go": "Go to the table",
  "friends.taken": "Someone already sat at this seat.",
  "friends.already": "You already sit at this table.",
  "friends.invalid": "This invitation link is not valid: ask for a new one.",
  "friends.you": "you",
  "friends.person": "a person",
  "friends.computer": "a computer player",
  "friends.open": "waiting for a friend",
  "friends.who": "Who is there",
  "friends.error": "Something went wrong; try again.",
  "friends.home": "Back to Oudler",
});

Object.assign(LANGS.zh, {
  "friends.title": "法式塔罗牌桌的邀请",
  "friends.table": "一场 {deals} 副牌的比赛；电脑玩家：{level}。",
  "friends.seat": "你的座位：{seat}。",
  "friends.sit": "坐到{seat}",
  "friends.go": "前往牌桌",
  "friends.taken": "这个座位已经有人坐了。",
  "friends.already": "你已经坐在这张牌桌上了。",
  "friends.invalid": "这个邀请链接无效：请向对方要一个新的。",
  "friends.you": "你",
  "friends.person": "一位玩家",
  "friends.computer": "电脑玩家",
  "friends.open": "等待朋友入座",
  "friends.who": "在座的人",
  "friends.error": "出了点问题，请再试一次。",
  "friends.home": "返回 Oudler",
});

Object.assign(LANGS.fr, {
  "friends.title": "Une invitation à une table de tarot",
  "friends.table": "Une partie de {deals} donnes ; joueurs ordinateur : {level}.",
  "friends.seat": "Votre place : {seat}.",
  "friends.sit": "S'asseoir à {seat}",
  "friends.go": "Aller à la table",
  "friends.taken": "Quelqu'un s'est déjà assis à cette place.",
  "friends.already": "Vous êtes déjà assis à cette table.",
  "friends.invalid": "Ce lien d'invitation n'est pas valable : demandez-en un nouveau.",
  "friends.you": "vous",
  "friends.person": "une personne",
  "friends.computer": "un joueur ordinateur",
  "friends.open": "en attente d'un ami",
  "friends.who": "Autour de la table",
  "friends.error": "Quelque chose n'a pas marché ; réessayez.",
  "friends.home": "Retour à Oudler",
});

// Who sits at a seat, in words: you, a person, a computer player, or nobody yet.
export function seatKind(s) {
  if (s.you) return "friends.you";
  return { person: "friends.person", computer: "friends.computer", open: "friends.open" }[s.kind];
}
