"""Why the best action is best, as a code with numbers, written in English, Chinese or French.

A reason is chosen from statistics measured in the sampled worlds after each action (``stats``):
the one whose difference between the best action and the other one weighs most in points. The text
is only rendered here, from the code and its numbers; nothing in it is canned advice.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

LANGS = ("en", "zh", "fr")

# Each statistic: (weight in points per unit of difference, True when higher is better for the
# seat). Probabilities are fractions 0..1; points are card points.
STATS: dict[str, tuple[float, bool]] = {
    "petit_lost": (15.0, False),  # the seat's own Petit ends with the other side
    "petit_won": (15.0, True),  # an opponent's Petit ends with the seat's side
    "excuse_lost": (12.0, False),  # the seat's Excuse goes to the other side in the last trick
    "pab_ours": (10.0, True),  # petit au bout for the seat's side
    "pab_theirs": (10.0, False),
    "made": (40.0, True),  # the seat's side wins the contract
    "chelem": (30.0, True),  # the declarer takes all 18 tricks (for the declarer)
    "trick_ours": (5.0, True),  # the trick in progress goes to the seat's side
    "trick_points": (1.0, True),  # card points of the trick in progress to the seat's side (signed)
    "own_lost": (1.0, False),  # card points of the seat's own cards that the other side takes
    "points": (1.0, True),  # card points of the seat's side at the end
}

MIN_WEIGHT = 0.75
"""Below this many points of measured difference, the reason is the expected score itself."""


@dataclass(frozen=True)
class Reason:
    """``code`` says what differs; ``params`` holds the numbers and the actions' notation."""

    code: str
    params: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "params": dict(self.params)}

    def text(self, lang: str = "en") -> str:
        return render(self, lang)

    def texts(self) -> dict[str, str]:
        return {lang: render(self, lang) for lang in LANGS}


OUTCOMES = ("made", "points")
"""Statistics of the deal's outcome: a reason names one only when no cause differs enough."""


def pick(
    best: dict[str, float], other: dict[str, float], *, side: str
) -> tuple[str, float, float] | None:
    """The statistic on which ``best`` beats ``other`` by the most points, with both values: the
    causes first (the Petit, the Excuse, the trick...), else an outcome; None when nothing
    differs enough to be worth saying."""
    for group in (tuple(n for n in STATS if n not in OUTCOMES), OUTCOMES):
        found: tuple[float, str] | None = None
        for name in group:
            weight, higher = STATS[name]
            if name not in best or name not in other:
                continue
            a, b = best[name], other[name]
            if name == "made" and side == "defence":
                a, b = -a, -b  # the defence wants the contract down
            w = ((a - b) if higher else (b - a)) * weight
            if w >= MIN_WEIGHT and (found is None or w > found[0]):
                found = (w, name)
        if found is not None:
            name = found[1]
            return name, best[name], other[name]
    return None


# ------------------------------------------------------------------------------ rendering

_BIDS = {
    "en": {
        "pass": "passing",
        "prise": "Prise",
        "garde": "Garde",
        "garde_sans": "Garde sans",
        "garde_contre": "Garde contre",
    },
    "zh": {
        "pass": "不叫",  # the calls as the table names them (i18n.js "bid.*")
        "prise": "Prise（小叫）",
        "garde": "Garde（大叫）",
        "garde_sans": "Garde sans（不看底）",
        "garde_contre": "Garde contre（底归对方）",
    },
    "fr": {
        "pass": "passer",
        "prise": "une prise",
        "garde": "une garde",
        "garde_sans": "une garde sans",
        "garde_contre": "une garde contre",
    },
}


_SUITS = {
    "en": {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"},
    "zh": {"S": "黑桃", "H": "红心", "D": "方块", "C": "梅花"},
    "fr": {"S": "pique", "H": "cœur", "D": "carreau", "C": "trèfle"},
}
_RANKS = {
    "en": {"J": "jack", "C": "cavalier", "Q": "queen", "K": "king"},
    "zh": {"J": "J", "C": "骑士", "Q": "Q", "K": "K"},
    "fr": {"J": "valet", "C": "cavalier", "Q": "dame", "K": "roi"},
}


def card_text(name: str, lang: str) -> str:
    """A card in notation, in words as the table writes it ("the king of hearts", "红心K",
    "le roi de cœur"; the Petit, the 21 and the Excuse by name)."""
    if name == "EX":
        return {"en": "the Excuse", "zh": "Excuse（借口牌）", "fr": "l'excuse"}[lang]
    if name == "T1":
        return {"en": "the Petit", "zh": "Petit（将牌 1）", "fr": "le petit"}[lang]
    if name.startswith("T"):
        n = name[1:]
        return {"en": f"trump {n}", "zh": f"将牌 {n}", "fr": f"l'atout {n}"}[lang]
    suit = _SUITS[lang].get(name[0])
    if suit is None:
        return name
    rank = _RANKS[lang].get(name[1:], name[1:])
    if lang == "zh":
        return f"{suit}{rank}"
    if lang == "fr":
        return f"{'la' if name[1:] == 'Q' else 'le'} {rank} de {suit}"
    return f"the {rank} of {suit}"


def action_text(kind: str, action: Any, lang: str) -> str:
    """An action in notation, in words for one language."""
    if kind == "bid":
        return _BIDS[lang].get(str(action), str(action))
    if kind == "chelem":
        return {
            "en": ("announcing the chelem", "not announcing the chelem"),
            "zh": ("宣布大满贯", "不宣布大满贯"),
            "fr": ("annoncer le chelem", "ne pas annoncer le chelem"),
        }[lang][0 if action else 1]
    if kind == "poignee":
        if not action:
            return {
                "en": "showing no poignée",
                "zh": "不亮将牌（poignée）",
                "fr": "ne rien montrer",
            }[lang]
        n = len(action)
        return {
            "en": f"showing a poignée of {n}",
            "zh": f"亮出 {n} 张将牌（poignée）",
            "fr": f"montrer une poignée de {n}",
        }[lang]
    if kind == "discard":
        sep = "、" if lang == "zh" else ", "
        cards = sep.join(card_text(str(c), lang) for c in action)
        return {
            "en": f"the discard ({cards})",
            "zh": f"扣底（{cards}）",
            "fr": f"l'écart ({cards})",
        }[lang]
    if kind == "play" and isinstance(action, str):
        return card_text(action, lang)
    return str(action)


def _discarding(cards: list[str], lang: str) -> str:
    words = [card_text(str(c), lang) for c in cards]
    if lang == "zh":
        return "扣" + "、".join(words)
    if lang == "fr":  # "l'écart de la dame et du roi": de + le contracts
        words = ["du " + w[3:] if w.startswith("le ") else "de " + w for w in words]
    last = words.pop() if len(words) > 1 else ""
    names = ", ".join(words) + ({"en": " and ", "fr": " et "}[lang] + last if last else "")
    return {"en": f"the discard of {names}", "fr": f"l'écart {names}"}[lang]


def _names(words: list[str], lang: str) -> str:
    """ "a, b and c" in the language."""
    if len(words) == 1:
        return words[0]
    comma = "、" if lang == "zh" else ", "
    last = {"en": " and ", "zh": " 和 ", "fr": " et "}[lang]
    return comma.join(words[:-1]) + last + words[-1]


def _close(kind: str, p: dict[str, Any], lang: str, unclear: bool = False) -> str:
    """Options about equal to the choice: said so, with the largest gap, rather than ranked.
    ``unclear``: their noise is wide (``engine.WIDE_POINTS``): the coach could not tell them
    apart on the worlds it played, which is said instead, with that noise."""
    others = list(p["others"])
    if kind == "discard" and len(others) == 1:
        # two discards differ in a card or two: name those
        mine = [c for c in p["best"] if c not in others[0]]
        theirs = [c for c in others[0] if c not in p["best"]]
        words = [_discarding(mine, lang), _discarding(theirs, lang)]
    else:
        words = [action_text(kind, a, lang) for a in [p["best"], *others]]
    more = int(p.get("more", 0))
    if more:
        words.append(
            {
                "en": f"{more} other option{'s' if more > 1 else ''}",
                "zh": f"另外 {more} 个选择",
                "fr": f"{more} autre{'s' if more > 1 else ''} choix",
            }[lang]
        )
    names = _names(words, lang)
    gap = max(float(p["gap"]), 0.1)
    if kind == "discard" and len(others) > 1:  # six cards each: the options table lists them
        k = len(others) + 1 + more
        names = {
            "en": f"the {k} best discards",
            "zh": f"最好的 {k} 种扣底",
            "fr": f"les {k} meilleurs écarts",
        }[lang]
        if not unclear:
            return {
                "en": f"The {k} best discards are about equal here: within {_pts(gap)} points.",
                "zh": f"最好的 {k} 种扣底在这里差不多：相差在 {_pts(gap)} 分以内。",
                "fr": f"Les {k} meilleurs écarts se valent ici\u00a0: à {_pts(gap)} points près.",
            }[lang]
    if unclear:
        n = int(p["worlds"])
        noise = _pts(float(p["noise"]))
        pts = _pts(gap)
        several = len(others) + more > 1
        return {
            "en": f"The coach cannot tell {names} apart on the {n} deals it tried: "
            + (f"gaps of up to {pts} points" if several else f"{pts} points between them")
            + f" {'are' if several else 'is'} within the noise, ±{noise} points.",
            "zh": (
                f"在试过的 {n} 种可能牌局中，教练分不出 {names} 的高下："
                f"相差{'最多' if several else ''} {pts} 分，还在误差 ±{noise} 分之内。"
            ),
            "fr": f"Sur les {n} donnes essayées, l'entraîneur ne peut pas départager "
            + f"{names}\u00a0: "
            + ("jusqu'à " if several else "")
            + f"{pts} point{'s' if gap >= 2 else ''} d'écart, "
            + f"dans la marge d'erreur (±{noise} points).",
        }[lang]
    return {
        "en": f"{names} are about equal here: within {_pts(gap)} points.",
        "zh": f"{names} 在这里差不多：相差在 {_pts(gap)} 分以内。",
        "fr": f"{names} se valent ici\u00a0: à {_pts(gap)} point{'s' if gap >= 2 else ''} près.",
    }[lang]


def _pct(x: float) -> str:
    return f"{round(100 * x)}\u00a0%"  # no line break inside


def _pts(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


def _score(x: float) -> str:
    return f"{x:+.1f}"


_DECIMAL = re.compile(r"(?<=\d)\.(?=\d)")
_MINUS = re.compile(r"(?<![\w.])-(?=\d)")
_ZH_PLAY = re.compile(r"(^|[，；：。]|只能)出 ")
_ZH_GAP = re.compile(r"(?<=[\u4e00-\u9fff）]) (?=[\u4e00-\u9fff])")


def render(reason: Reason, lang: str = "en") -> str:
    if lang not in LANGS:
        raise ValueError(f"no such language {lang!r}: one of {', '.join(LANGS)}")
    # a negative number with a true minus sign, as the table and the hint's values write it
    text = _MINUS.sub("\u2212", _render(reason, lang))
    if lang == "zh":
        if reason.params.get("kind", "play") != "play":  # "出" is for a card: "选择" otherwise
            text = _ZH_PLAY.sub(r"\1选择 ", text)
        # no space between two Chinese characters ("出 黑桃3" reads "出黑桃3"), none before "%"
        return _ZH_GAP.sub("", text).replace("\u00a0%", "%")
    if lang == "fr":  # a decimal comma: "10,5 points"
        text = _DECIMAL.sub(",", text)
    return text[0].upper() + text[1:]


def _render(reason: Reason, lang: str) -> str:
    p = reason.params
    kind = str(p.get("kind", "play"))
    best = action_text(kind, p.get("best"), lang)
    other = action_text(kind, p.get("other"), lang) if "other" in p else ""
    if kind == "discard" and "other" in p:
        # Two discards differ in a card or two: name those, not all six twice.
        a_cards = [c for c in p["best"] if c not in p["other"]]
        b_cards = [c for c in p["other"] if c not in p["best"]]
        best, other = _discarding(a_cards, lang), _discarding(b_cards, lang)
    a = float(p.get("a", 0.0))
    b = float(p.get("b", 0.0))
    c = float(p.get("c", 0.0))
    code = reason.code
    if code == "forced":
        return {
            "en": f"{best} is the only legal choice.",
            "zh": f"只能出 {best}。",
            "fr": f"{best} est le seul choix permis.",
        }[lang]
    if code == "alone":
        return {
            "en": f"{best}: the best option found, {_score(a)} expected.",
            "zh": f"{best}：找到的最佳选择，期望得分 {_score(a)}。",
            "fr": f"{best}\u00a0: le meilleur choix trouvé, {_score(a)} en moyenne.",
        }[lang]
    if code in ("close", "unclear"):
        return _close(kind, p, lang, unclear=code == "unclear")
    if code == "score":
        return {
            "en": (
                f"{best} scores {_score(a)} on average over the deals that could be, "
                f"{other} {_score(b)}."
            ),
            "zh": f"在所有可能的牌局中，{best} 平均得分 {_score(a)}，{other} 为 {_score(b)}。",
            "fr": (
                f"{best} rapporte {_score(a)} en moyenne sur les donnes possibles, "
                f"{other} {_score(b)}."
            ),
        }[lang]
    texts: dict[str, dict[str, str]] = {
        "petit_lost": {
            "en": (
                f"With {other} your Petit is captured in {_pct(b)} of the deals that could be; "
                f"with {best} in {_pct(a)}."
            ),
            "zh": (
                f"出 {other}，你的 Petit（小将）在 {_pct(b)} "
                f"的可能牌局中被吃掉；出 {best} 只有 {_pct(a)}。"
            ),
            "fr": (
                f"Avec {other}, votre petit est pris dans {_pct(b)} des donnes possibles\u202f; "
                f"avec {best}, dans {_pct(a)}."
            ),
        },
        "petit_won": {
            "en": (
                f"{best} wins the opponents' Petit in {_pct(a)} of the deals that could be, "
                f"{other} in {_pct(b)}."
            ),
            "zh": (
                f"出 {best}，在 {_pct(a)} 的可能牌局中吃到对方的 "
                f"Petit（小将）；出 {other} 只有 {_pct(b)}。"
            ),
            "fr": (
                f"{best} prend le petit adverse dans {_pct(a)} des donnes possibles, "
                f"{other} dans {_pct(b)}."
            ),
        },
        "excuse_lost": {
            "en": (
                f"With {other} your Excuse is played in the last trick and changes sides in "
                f"{_pct(b)} of the deals; with {best} in {_pct(a)}."
            ),
            "zh": (
                f"出 {other}，你的 Excuse（借口牌）留到最后一墩，在 "
                f"{_pct(b)} 的牌局中归对方；出 {best} 只有 {_pct(a)}。"
            ),
            "fr": (
                f"Avec {other}, votre excuse part au dernier pli et change de camp dans "
                f"{_pct(b)} des donnes\u202f; avec {best}, dans {_pct(a)}."
            ),
        },
        "pab_ours": {
            "en": (
                f"{best} brings the petit au bout to your side in {_pct(a)}, {other} in {_pct(b)}."
            ),
            "zh": f"出 {best}，你方在 {_pct(a)} 的牌局中打成小将到底；出 {other} 只有 {_pct(b)}。",
            "fr": (
                f"{best} mène le petit au bout pour votre "
                f"camp dans {_pct(a)}, {other} dans {_pct(b)}."
            ),
        },
        "pab_theirs": {
            "en": (
                f"With {other} the other side gets the petit au "
                f"bout in {_pct(b)}; with {best} in {_pct(a)}."
            ),
            "zh": f"出 {other}，对方在 {_pct(b)} 的牌局中打成小将到底；出 {best} 只有 {_pct(a)}。",
            "fr": (
                f"Avec {other}, l'autre camp mène le petit au bout "
                f"dans {_pct(b)}\u202f; avec {best}, dans {_pct(a)}."
            ),
        },
        "made": {
            "en": (
                f"With {best} the contract is made in {_pct(a)} of the deals that could be, "
                f"with {other} in {_pct(b)}."
            ),
            # "出" a card; ``render`` makes it "选择" for the other kinds
            "zh": f"出 {best}，合约在 {_pct(a)} 的可能牌局中完成；出 {other} 为 {_pct(b)}。",
            "fr": (
                f"Avec {best}, le contrat est rempli dans {_pct(a)} des donnes possibles, "
                f"avec {other} dans {_pct(b)}."
            ),
        },
        "chelem": {
            "en": (
                f"Announced, the chelem is made in {_pct(c)} of the deals that could be: "
                f"{best} scores {_score(a)} on average, {other} {_score(b)}."
            ),
            "zh": (
                f"若宣布，大满贯在 {_pct(c)} 的可能牌局中完成：{best} "
                f"平均得分 {_score(a)}，{other} 为 {_score(b)}。"
            ),
            "fr": (
                f"Annoncé, le chelem est réussi dans {_pct(c)} des donnes possibles\u00a0: "
                f"{best} rapporte {_score(a)} en moyenne, {other} {_score(b)}."
            ),
        },
        "bid_made": {
            "en": (
                f"With {best} the contract is made in {_pct(c)} of the deals that could be: "
                f"{_score(a)} on average, against {_score(b)} for {other}."
            ),
            "zh": (
                f"选择 {best}，合约在 {_pct(c)} 的可能牌局中完成：平均得分 "
                f"{_score(a)}，{other} 为 {_score(b)}。"
            ),
            "fr": (
                f"Avec {best}, le contrat est rempli dans {_pct(c)} des donnes possibles\u00a0: "
                f"{_score(a)} en moyenne, contre {_score(b)} pour {other}."
            ),
        },
        "bid_down": {
            "en": (
                f"With {other} the contract would be made in only {_pct(c)} of the deals that "
                f"could be: {_score(b)} on average, against {_score(a)} for {best}."
            ),
            "zh": (
                f"选择 {other}，合约只在 {_pct(c)} 的可能牌局中完成："
                f"平均得分 {_score(b)}，{best} 为 {_score(a)}。"
            ),
            "fr": (
                f"Avec {other}, le contrat ne serait rempli que dans {_pct(c)} des donnes "
                f"possibles\u00a0: {_score(b)} en moyenne, contre {_score(a)} pour {best}."
            ),
        },
        "poignee": {
            "en": (
                f"The poignée's bonus goes to the side that wins the contract, and your side wins "
                f"it in {_pct(c)} of the deals that could be: {best} scores {_score(a)} on "
                f"average, {other} {_score(b)} (showing also tells the others your trumps)."
            ),
            "zh": (
                f"poignée（亮将牌）的奖励归完成合约的一方，你方在 {_pct(c)} 的可能牌局中获胜："
                f"{best} 平均得分 {_score(a)}，{other} "
                f"为 {_score(b)}（亮牌也会让对手知道你的将牌）。"
            ),
            "fr": (
                f"La prime de poignée va au camp qui gagne le contrat, et votre camp le gagne dans "
                f"{_pct(c)} des donnes possibles\u00a0: {best} rapporte {_score(a)} en moyenne, "
                f"{other} {_score(b)} (montrer renseigne aussi les autres sur vos atouts)."
            ),
        },
        "trick_ours": {
            "en": (
                f"{best} wins this trick for your side in "
                f"{_pct(a)} of the deals, {other} in {_pct(b)}."
            ),
            "zh": f"出 {best}，你方在 {_pct(a)} 的牌局中赢下这一墩；出 {other} 为 {_pct(b)}。",
            "fr": (
                f"{best} fait le pli pour votre camp dans "
                f"{_pct(a)} des donnes, {other} dans {_pct(b)}."
            ),
        },
        "trick_points": {
            "en": (
                f"Points of this trick: with {best} your side takes {_pts(a)} card points on "
                f"average, with {other} {_pts(b)}."
            ),
            "zh": f"这一墩的牌分：出 {best}，你方平均得 {_pts(a)} 分；出 {other} 为 {_pts(b)} 分。",
            "fr": (
                f"Points de ce pli\u00a0: avec {best}, votre camp y prend {_pts(a)} points de "
                f"cartes en moyenne, avec {other} {_pts(b)}."
            ),
        },
        "own_lost": {
            "en": (
                f"With {other}, the other side takes {_pts(b)} points of your cards on average; "
                f"with {best}, {_pts(a)}."
            ),
            "zh": f"出 {other}，对方平均吃掉你 {_pts(b)} 分的牌；出 {best} 只有 {_pts(a)} 分。",
            "fr": (
                f"Avec {other}, l'autre camp prend en moyenne {_pts(b)} points de vos "
                f"cartes\u202f; avec {best}, {_pts(a)}."
            ),
        },
        "points": {
            "en": (
                f"Card points of the deal: your side ends with {_pts(a)} on "
                f"average with {best}, {_pts(b)} with {other}."
            ),
            "zh": (
                f"这一手的牌分：出 {best}，你方平均拿到 {_pts(a)} 分；出 {other} 为 {_pts(b)} 分。"
            ),
            "fr": (
                f"Points de cartes de la donne\u00a0: votre camp finit avec {_pts(a)} en "
                f"moyenne avec {best}, {_pts(b)} avec {other}."
            ),
        },
    }
    if code not in texts:
        raise ValueError(f"unknown reason code {code!r}")
    text = texts[code][lang]
    if "made_a" in p and code != "made":
        ma, mb = float(p["made_a"]), float(p["made_b"])
        text += {
            "en": f" The contract is made in {_pct(ma)} with {best}, {_pct(mb)} with {other}.",
            "zh": f"合约完成率：{best} 为 {_pct(ma)}，{other} 为 {_pct(mb)}。",
            "fr": f" Le contrat est rempli dans {_pct(ma)} avec {best}, {_pct(mb)} avec {other}.",
        }[lang]
    return text
