"""Every string of the web page exists in English, Chinese and French (issue 11).

i18n.js is read as text (its three dictionaries), the page's HTML and scripts are scanned for the
keys they use, and each key must be in all three languages with the same {placeholders}. Chinese
text uses Chinese punctuation; French is not English copied over.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest

STATIC = Path(__file__).parents[1] / "src" / "oudler" / "web" / "static"
LANGS = ("en", "zh", "fr")
_ENTRY = re.compile(r'^\s*"([^"]+)":\s*"((?:[^"\\]|\\.)*)",?\s*$')


def _entries(lang: str, block: str, entries: dict[str, str]) -> None:
    for line in block.splitlines():
        if not line.strip() or line.strip().startswith("//"):
            continue
        m = _ENTRY.match(line)
        assert m, f"{lang}: unreadable line {line!r}"
        assert m.group(1) not in entries, f"{lang}: {m.group(1)} twice"
        # the text as the page shows it: a "\\u00a0" in the source is one no-break space
        entries[m.group(1)] = json.loads(f'"{m.group(2)}"')


def dictionaries() -> dict[str, dict[str, str]]:
    """The three dictionaries of i18n.js, with the words other modules add to them
    (``Object.assign(LANGS.fr, {...})``, as coach.js does)."""
    text = (STATIC / "js" / "i18n.js").read_text(encoding="utf-8")
    out: dict[str, dict[str, str]] = {}
    for lang in LANGS:
        block = re.search(rf"^const {lang} = \{{\n(.*?)^\}};", text, re.S | re.M)
        assert block, f"no dictionary {lang} in i18n.js"
        out[lang] = {}
        _entries(lang, block.group(1), out[lang])
    for script in sorted((STATIC / "js").glob("*.js")):
        source = script.read_text(encoding="utf-8")
        for lang, block in re.findall(
            r"^Object\.assign\(LANGS\.(\w+), \{\n(.*?)^\}\);", source, re.S | re.M
        ):
            _entries(lang, block, out[lang])
    return out


# Keys built at run time from a value (t(`bid.${b}`)): every value they can take.
DYNAMIC = [
    *(f"bid.{b}" for b in ("pass", "prise", "garde", "garde_sans", "garde_contre")),
    *(f"bid.help.{b}" for b in ("pass", "prise", "garde", "garde_sans", "garde_contre")),
    *(f"level.{x}" for x in ("random", "novice", "club", "expert")),
    *(f"size.{n}" for n in (10, 13, 15)),
    *(f"seat.{s}" for s in range(4)),
    *(f"suit.{s}" for s in "SHDC"),
    *(f"rank.{r}" for r in "JCQK"),
    *(f"rankShort.{r}" for r in "JCQK"),
    "side.declarer",
    "side.defence",
    *(f"result.void.{v}" for v in ("all_pass", "petit_sec")),
    *(f"sheet.void.{v}" for v in ("all_pass", "petit_sec")),
    *(f"result.pab.{v}" for v in ("declarer", "defence", "none", "chelem")),
    *(f"bot.{lv}.{s}" for lv in ("random", "novice", "club", "expert") for s in (1, 2, 3)),
    *(
        f"tour.{step}.{part}"
        for step in ("bid", "dog", "discard", "play", "refused", "trick", "end")
        for part in ("title", "text")
    ),
]


def keys_used(namespaces: set[str]) -> set[str]:
    """Keys named in the page: data-i18n attributes and string literals in the scripts that look
    like a key of one of the dictionary's namespaces."""
    used = set(re.findall(r'data-i18n="([^"]+)"', (STATIC / "index.html").read_text("utf-8")))
    for script in (STATIC / "js").glob("*.js"):
        if script.name == "i18n.js":
            continue
        for literal in re.findall(r'"([a-z][A-Za-z]*\.[A-Za-z0-9_.]+)"', script.read_text("utf-8")):
            if literal.split(".")[0] in namespaces:
                used.add(literal)
    return used | set(DYNAMIC)


def placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))


def test_every_key_the_page_uses_is_in_every_language() -> None:
    d = dictionaries()
    namespaces = {k.split(".")[0] for k in d["en"]}
    used = keys_used(namespaces)
    assert len(used) > 150
    for lang in LANGS:
        # A key said in plural forms (i18n.js's tn) is there when its forms are.
        missing = sorted(k for k in used - set(d[lang]) if f"{k}.other" not in d[lang])
        assert not missing, f"{lang} lacks {missing}"


@pytest.mark.parametrize("lang", ["zh", "fr"])
def test_each_language_has_every_english_key_with_the_same_placeholders(lang: str) -> None:
    d = dictionaries()
    assert set(d[lang]) == set(d["en"]), sorted(set(d["en"]) ^ set(d[lang]))
    for key, text in d["en"].items():
        assert d[lang][key].strip(), f"{lang} {key} is empty"
        assert placeholders(d[lang][key]) == placeholders(text), f"{lang} {key}"


def test_counted_words_take_each_languages_plural_forms_not_a_bracketed_s() -> None:
    """Issue 28, item 13: "3 oudler(s)". A sentence about a number of things has its plural
    forms ("key.one", "key.other", chosen by Intl.PluralRules), in every language."""
    d = dictionaries()
    for lang in LANGS:
        bracketed = sorted(k for k, v in d[lang].items() if re.search(r"\w\(s\)", v))
        assert not bracketed, f"{lang}: {bracketed}"
    plural = {k.rsplit(".", 1)[0] for k in d["en"] if k.endswith((".one", ".other"))}
    assert {"result.oudlers", "discard.trumps", "reason.discardFewTrumps"} <= plural
    for lang in LANGS:
        for key in plural:
            assert {f"{key}.one", f"{key}.other"} <= set(d[lang]), (lang, key)
    assert "1 bout," in d["fr"]["result.oudlers.one"].replace("{o}", "1")
    assert "3 oudlers" in d["en"]["result.oudlers.other"].replace("{o}", "3")


# Words that are the same in French and English (names of the game's terms, numbers, symbols).
SAME_IN_FRENCH = {
    "app.name", "list.sep", "level.club", "level.expert", "bid.prise", "bid.garde",
    "bid.garde_sans", "bid.garde_contre", "size.13", "sheet.total", "rankShort.C",
    "card.excuseFace", "result.poigneeItem", "result.chelem.none", "chelem.no", "result.discard",
    "info.contract", "nav.glossary", "poignee.size", "rank.C", "sheet.void.petit_sec", "size.15",
    *(f"bot.{lv}.{s}" for lv in ("novice", "club", "expert") for s in (1, 2, 3)),
    "nav.guide", "tour.count", "aids.count", "seat.named",
    "analysis.cost", "analysis.where.chelem", "analysis.where.poignee", "coach.value",
    "coach.valuePm",
    "history.share",
}  # fmt: skip


def test_french_is_written_in_french() -> None:
    d = dictionaries()
    copied = sorted(k for k, v in d["en"].items() if d["fr"][k] == v and k not in SAME_IN_FRENCH)
    assert not copied, f"French still in English: {copied}"


# The breakdown's formulas keep their ASCII brackets: (25 + diff) × m.
FORMULAS = {"result.baseWon", "result.baseLost"}


def test_chinese_uses_chinese_punctuation() -> None:
    d = dictionaries()
    for key, text in d["zh"].items():
        assert ":" not in text, f"zh {key}: ASCII colon in {text!r}"
        if key not in FORMULAS:
            assert "(" not in text and ")" not in text, f"zh {key}: ASCII bracket in {text!r}"
        assert not re.search(r"[\u4e00-\u9fff][,;?!]", text), f"zh {key}: ASCII punctuation"


def test_the_rules_page_is_whole_in_each_language() -> None:
    html = (STATIC / "rules.html").read_text(encoding="utf-8")
    sections = {lang: re.findall(rf'<h2 id="{lang}-([\w-]+)"', html) for lang in LANGS}
    assert len(sections["en"]) >= 10
    assert sections["fr"] == sections["en"] == sections["zh"]
    for lang in LANGS:
        assert len(re.findall(rf'<article data-langs="{lang}"', html)) == 1, lang
    # Each glossary term is explained in each language.
    rows = re.findall(r'<tr id="g-[^"]+">(.*?)</tr>', html)
    assert len(rows) >= 15
    for row in rows:
        for lang in LANGS:
            assert re.search(rf'<span data-langs="{lang}">[^<]+</span>', row), (lang, row)


def test_chinese_glosses_every_contract_and_speaks_of_deals() -> None:
    zh = dictionaries()["zh"]
    for contract in ("prise", "garde", "garde_sans", "garde_contre"):
        name = zh[f"bid.{contract}"]
        assert re.fullmatch(r"[A-Za-z ]+（[\u4e00-\u9fff]+）", name), name
    # An empty score sheet has no finished deal (手), not "no cards played".
    assert "手" in zh["sheet.empty"] and zh["app.title"] != dictionaries()["en"]["app.title"]


# The card's face prints the Excuse's name; the card is named, glossed, everywhere else.
UNGLOSSED = {"card.excuseFace"}


def test_chinese_glosses_the_french_terms_it_names() -> None:
    """Issue 20, item 5: no French term bare in a Chinese phrase ("不亮 poignée"): each string
    glosses each French term where it first names it, as the calls are ("Prise（小叫）")."""
    from glossing import bare_french_terms

    zh = dictionaries()["zh"]
    bare = {k: bare_french_terms(v) for k, v in zh.items() if k not in UNGLOSSED}
    assert not {k: v for k, v in bare.items() if v}
    # The scan knows the terms: the names of the calls are glossed, and bare without it.
    assert bare_french_terms(zh["bid.garde_sans"]) == []
    assert bare_french_terms(zh["bid.garde_sans"].split("（")[0] + "不看底") == ["Garde sans"]
    assert bare_french_terms("不亮 poignée") == ["poignée"]
    assert bare_french_terms("不亮将牌（poignée）") == []


# French typography, the Imprimerie nationale's rule: a no-break space (U+00A0) before ":" and
# inside « », a narrow no-break space (U+202F) before ";", "!" and "?". A plain space there let a
# line wrap before the mark ("Votre temps est écoulé / : un ordinateur..." on a phone).
FRENCH_SPACE_BEFORE = {":": "\u00a0", ";": "\u202f", "!": "\u202f", "?": "\u202f"}
_URL = re.compile(r"\b[a-z][a-z0-9+.-]*://\S*")


def french_spacing_faults(text: str) -> list[str]:
    """Where a French ``text`` breaks that rule: a plain (breakable) space, the other no-break
    space, or no space at all after a letter or a bracket, before ":", ";", "!" or "?"; the
    same inside « ». A URL's colon, a time's (12:30) and a mark after a {placeholder} or a
    number are not checked."""
    text = _URL.sub("", text)
    faults = []
    for i, mark in enumerate(text):
        if mark not in FRENCH_SPACE_BEFORE or i == 0:
            continue
        before = text[i - 1]
        at = text[max(0, i - 12) : i + 1]
        if before.isspace() and before != FRENCH_SPACE_BEFORE[mark]:
            faults.append(f"{before!r} before {mark!r}: {at!r}")
        elif before.isalpha() or before in ")»":
            faults.append(f"no space before {mark!r}: {at!r}")
    for m in re.finditer(r"«(.)|(.)»", text):
        if (m.group(1) or m.group(2)) != "\u00a0":
            faults.append(f"no no-break space inside « »: {m.group(0)!r}")
    return faults


def test_the_french_spacing_check_finds_what_it_should() -> None:
    nb, narrow = "\u00a0", "\u202f"
    good = f"Donneur{nb}: {{seat}}{narrow}; Bravo{narrow}! Prêt{narrow}? «{nb}carte{nb}»"
    assert french_spacing_faults(good) == []
    # a URL, a time and placeholders side by side are not French marks
    assert french_spacing_faults("https://x.fr:8000/a?b=1 à 12:30, {n}:{m}") == []
    assert len(french_spacing_faults("Donneur : {seat} ; Bravo ! Prêt ?")) == 4
    assert len(french_spacing_faults("Donneur: x; Bravo! (Prêt)?")) == 4
    assert len(french_spacing_faults(f"Donneur{narrow}: x{nb}; « carte»")) == 4
    assert len(french_spacing_faults("écoulé\n: un")) == 1  # a line break in the source too


def test_french_puts_a_no_break_space_before_the_two_part_marks() -> None:
    fr = dictionaries()["fr"]
    marked = [k for k, v in fr.items() if re.search("[:;!?«»]", v)]
    assert len(marked) > 100  # the scan reads the French strings, with their marks
    faults = {k: f for k, v in fr.items() if (f := french_spacing_faults(v))}
    assert not faults, f"{len(faults)} French strings: {faults}"


def french_of_the_rules_page() -> list[str]:
    """The French text of rules.html as shown: its French article and every French span, link
    and heading outside it (the glossary's), tags taken out and entities read."""
    page = (STATIC / "rules.html").read_text(encoding="utf-8")
    article = re.search(r'<article data-langs="fr"[^>]*>(.*?)</article>', page, re.S)
    assert article
    rest = page.replace(article.group(0), "")
    parts = [
        article.group(1),
        *(m[1] for m in re.findall(r'<(\w+) data-langs="fr"[^>]*>(.*?)</\1>', rest)),
    ]
    return [html.unescape(re.sub(r"<!--.*?-->|<[^>]+>", "", part, flags=re.S)) for part in parts]


def test_the_french_rules_page_puts_a_no_break_space_before_the_two_part_marks() -> None:
    texts = french_of_the_rules_page()
    assert len(texts) > 20 and sum(t.count(":") + t.count(";") for t in texts) > 40
    faults = [f for t in texts for f in french_spacing_faults(t)]
    assert not faults, f"{len(faults)} in rules.html: {faults}"
