"""French terms of the game in Chinese text (issue 20, item 5): the page keeps the French names
(the glossary's choice: "Prise / Petite（小叫）", "Excuse / 借口牌"), but never bare in a Chinese
phrase ("不亮 poignée"): each term is glossed where a text first names it, either followed by its
Chinese gloss in full-width brackets ("Prise（小叫）") or itself the gloss of a Chinese phrase
("亮将牌（poignée）")."""

from __future__ import annotations

import re

# Longest first, so that "Garde sans" is one term and not "Garde" followed by "sans".
FRENCH_TERMS = (
    "petit au bout",
    "Garde contre",
    "Garde sans",
    "Petit sec",
    "Garde",
    "Prise",
    "poignée",
    "Excuse",
    "Petit",
    "oudler",
    "chelem",
)
_TERM = re.compile(
    r"(?<![A-Za-zÀ-ÿ])(" + "|".join(re.escape(t) for t in FRENCH_TERMS) + r")(?![A-Za-zÀ-ÿ])",
    re.I,
)
_CJK = re.compile(r"[\u4e00-\u9fff]")


def _glossed(text: str, start: int, end: int) -> bool:
    after = text[end:].lstrip(" ")
    if after.startswith("（"):
        inside = after[1:].split("）", 1)[0]
        if _CJK.search(inside):
            return True  # Prise（小叫）
    # Inside brackets that gloss Chinese (亮将牌（poignée）, 赢（petit au bout）) or that are a
    # Chinese gloss themselves (oudler（将牌 1、21 和 Excuse）).
    opened = text.rfind("（", 0, start)
    if opened < 0 or "）" in text[opened:start]:
        return False
    closed = text.find("）", end)
    if closed < 0:
        return False
    return bool(_CJK.search(text[max(0, opened - 1) : opened] + text[opened + 1 : closed]))


def bare_french_terms(text: str) -> list[str]:
    """The French terms that ``text`` names first without a gloss (each term once)."""
    seen: set[str] = set()
    bare = []
    for m in _TERM.finditer(text):
        if m.group(1) == "Oudler":
            continue  # the program's name
        term = m.group(1).lower()
        if term in seen:
            continue  # glossed (or reported) where the text first names it
        seen.add(term)
        if not _glossed(text, m.start(), m.end()):
            bare.append(m.group(1))
    return bare
