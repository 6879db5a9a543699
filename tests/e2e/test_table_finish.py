"""The newcomer's defects of issue 11, each in a real Chromium against the real server: the
breakdown's Excuse line, reasons in words, "play this deal again", the end of a match, the dog,
deal numbers, the seed, Chinese and French wording, the previous trick and the small Excuse.

Finished deals for the breakdown are played here with the engine and rendered by the page's own
modules (result.js), so every Excuse case is checked without waiting for it to happen in a match."""

from __future__ import annotations

import datetime as dt
import random
import re
from typing import Any

import pytest
from pagedriver import CHROMIUM, TIMEOUT, Table, View, person_action

from oudler.core import Deal, Match, Phase
from oudler.core import cards as C
from oudler.tables.store import MatchInfo
from oudler.tables.view import build_view

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason=f"{CHROMIUM} is absent (apt-get install chromium)"
    ),
]

SEATS = {
    "en": ["South", "East", "North", "West"],
    "fr": ["Sud", "Est", "Nord", "Ouest"],
    "zh": ["南", "东", "北", "西"],
}


# ------------------------------------------------------------------------------ engine deals


def played_deal(seed: int, keep_excuse: bool) -> Deal:
    """A deal played to its end with random legal actions; ``keep_excuse``: whoever holds the
    Excuse keeps it while they can (so it often reaches the last trick)."""
    rng = random.Random(seed)
    d = Deal.from_seed(seed, seed % 4)
    while not d.is_over:
        if d.phase is Phase.DISCARD:
            allowed, forced = d.discard_info()
            trumps, plain = C.cards_of(allowed & C.TRUMPS), C.cards_of(allowed & ~C.TRUMPS)
            d.discard_cards(trumps[:forced] + plain[: 6 - forced])
            continue
        actions = d.legal_actions()
        if d.phase is Phase.CHELEM:
            d.apply(False)
            continue
        keep = [a for a in actions if a != "EX"] if keep_excuse else actions
        d.apply(rng.choice(keep or actions))
    return d


def excuse_case(d: Deal) -> str:
    r = d.result
    assert r is not None
    if r.void:
        return r.void
    if r.excuse_exchange is None:
        return "dog"
    if r.excuse_exchange != "last_trick":
        return r.excuse_exchange
    t = d.tricks[-1]
    owner = t.seat_of(t.cards.index(C.EXCUSE))
    return "last_lost" if (owner == r.declarer) != (t.winner == r.declarer) else "last_kept"


def first_deal_of_each_case() -> dict[str, Deal]:
    found: dict[str, Deal] = {}
    for seed in range(2000):
        d = played_deal(seed, keep_excuse=seed % 2 == 1)
        found.setdefault(excuse_case(d), d)
        if {"exchanged", "same_side", "never", "last_lost", "dog"} <= set(found):
            return found
    raise AssertionError(f"only these cases in 2000 deals: {sorted(found)}")


def view_of(deal: Deal) -> View:
    """The server's view of a match whose current deal is ``deal`` (finished)."""
    info = MatchInfo(
        id="0123456789ab", owner="p", length=2, level="random", seed=1, first_dealer=None,
        first_deal_seed=None, created=dt.datetime.now(dt.UTC), finished=None, totals=None,
    )  # fmt: skip
    match = Match(2, 1)
    match.deals[0] = deal
    return build_view(info, match, 1, 0)


RENDER = """async ([view, lang]) => {
  const i18n = await import("/static/js/i18n.js");
  i18n.setLanguage(lang, false);
  const { renderResult } = await import("/static/js/result.js");
  const nop = () => {};
  const node = renderResult(view, { onNext: nop, onNewMatch: nop, onMatches: nop, onReplay: nop,
    onHide: nop, recordUrl: "#", seedText: "" });
  const text = (s) => { const e = node.querySelector(s); return e ? e.textContent : null; };
  return {
    excuse: text('[data-rule="excuse"]'),
    lines: [...node.querySelectorAll('[data-role="breakdown"] li')].map((li) => li.textContent),
    tricksTable: node.querySelector('[data-role="review-tricks"]') !== null,
    noTricks: text('[data-role="no-tricks"]'),
  };
}"""

WORDS = {
    "exchanged": {"en": "in exchange", "fr": "en échange", "zh": "作为交换"},
    "same_side": {"en": "nothing to exchange", "fr": "rien à échanger", "zh": "无须交换"},
    "never": {"en": "no card to give", "fr": "aucune carte à donner", "zh": "拿不出牌"},
    "last_lost": {"en": "last trick", "fr": "dernier pli", "zh": "最后一墩"},
    "dog": {"en": "unseen dog", "fr": "chien", "zh": "底牌"},
}


def test_the_breakdown_says_where_the_excuse_went_and_why(open_table: Any) -> None:
    deals = first_deal_of_each_case()
    table: Table = open_table()
    table.home()
    for case, words in WORDS.items():
        d = deals[case]
        view = view_of(d)
        for lang, expected in words.items():
            out = table.page.evaluate(RENDER, [view, lang])
            line = out["excuse"]
            assert line and expected in line, (case, lang, out["lines"])
            if case != "dog":
                t = next(t for t in d.tricks if C.EXCUSE in t.cards)
                owner = t.seat_of(t.cards.index(C.EXCUSE))
                assert line.startswith(SEATS[lang][owner]), (case, lang, line)
                if case in ("exchanged", "never", "last_lost"):
                    assert SEATS[lang][t.winner] in line, (case, lang, line)
            r = d.result
            assert r is not None
            # The unexchanged Excuse's half point has a line of its own.
            half = {"en": "half point", "fr": "demi-point", "zh": "半分"}[lang]
            assert any(half in x for x in out["lines"] if x != line) == bool(r.half_points % 2)


def test_a_deal_nobody_bid_is_reviewed_without_an_empty_tricks_table(open_table: Any) -> None:
    d = Deal.from_seed(3, 0)
    for _ in range(4):
        d.apply("pass")
    assert d.result is not None and d.result.void == "all_pass"
    table: Table = open_table()
    table.home()
    out = table.page.evaluate(RENDER, [view_of(d), "en"])
    assert not out["tricksTable"]
    assert out["noTricks"] == "No card was played in this deal."
    # The same view with tricks draws its table.
    played = played_deal(0, keep_excuse=False)
    assert table.page.evaluate(RENDER, [view_of(played), "en"])["tricksTable"]


def engine_reasons() -> list[tuple[str, str]]:
    """(card, engine reason) pairs met in random deals: one of each kind wanted."""
    wanted = {"overtrump": None, "follow": None, "King": None}
    out: list[tuple[str, str]] = []
    for seed in range(400):
        rng = random.Random(seed)
        d = Deal.from_seed(seed, 0)
        while not d.is_over and any(v is None for v in wanted.values()):
            if d.phase is Phase.DISCARD:
                allowed, forced = d.discard_info()
                tr, pl = C.cards_of(allowed & C.TRUMPS), C.cards_of(allowed & ~C.TRUMPS)
                for card in C.iter_cards(d.hands[d.to_move] & C.KINGS):
                    # A discard otherwise legal, with one king in it (as the server asks).
                    reason = d.why_discard_illegal([card, *tr[:forced], *pl[: 5 - forced]])
                    if reason and "King" in reason and wanted["King"] is None:
                        wanted["King"] = reason
                        out.append((C.CARD_NAMES[card], reason))
                d.discard_cards(tr[:forced] + pl[: 6 - forced])
                continue
            if d.phase is Phase.PLAY:
                for card in C.iter_cards(d.hands[d.to_move] & ~d.legal_cards()):
                    reason = d.why_card_illegal(card) or ""
                    for kind in wanted:
                        if kind in reason and wanted[kind] is None:
                            wanted[kind] = reason
                            out.append((C.CARD_NAMES[card], reason))
            actions = d.legal_actions()
            d.apply(False if d.phase is Phase.CHELEM else rng.choice(actions))
        if all(wanted.values()):
            return out
    raise AssertionError(f"not met: {wanted}")


def test_refusals_are_sentences_in_words_naming_the_card_once(open_table: Any) -> None:
    table: Table = open_table()
    table.home()
    for card, reason in engine_reasons():
        for lang in ("en", "fr", "zh"):
            said = table.page.evaluate(
                """async ([card, reason, lang]) => {
                  (await import("/static/js/i18n.js")).setLanguage(lang, false);
                  const r = await import("/static/js/reasons.js");
                  const c = await import("/static/js/cards.js");
                  return [r.translateReason(reason), r.reasonLine(card, reason), c.cardLabel(card)];
                }""",
                [card, reason, lang],
            )
            sentence, line, label = said
            assert not re.search(r"\bT\d+\b", sentence), (lang, sentence)
            assert sentence[0] == sentence[0].upper(), sentence
            assert line.lower().count(label.lower()) == 1, (lang, line)
            if "overtrump" in reason:
                high, low = re.findall(r"T(\d+)", reason)
                wants = {
                    "en": f"trump {high} beats trump {low}",
                    "fr": f"atout {high} bat atout {low}",
                    "zh": f"将牌 {high} 大于将牌 {low}",
                }
                assert wants[lang] in sentence, sentence


def test_a_small_excuse_is_named_on_its_face(open_table: Any) -> None:
    table: Table = open_table()
    table.home()
    label = table.page.evaluate(
        """async () => {
          const { cardView } = await import("/static/js/cards.js");
          const card = cardView("EX", ["small"]);
          document.body.append(card);
          const face = card.querySelector(".ex-label");
          const box = face.getBoundingClientRect();
          const inside = box.right <= card.getBoundingClientRect().right + 0.5;
          return [face.textContent, getComputedStyle(face).display, box.width > 0, inside];
        }"""
    )
    assert label == ["Excuse", "block", True, True]


# ------------------------------------------------------------------------------ through the page


def api(table: Table, path: str, body: dict[str, Any]) -> View:
    r = table.context.request.post(f"{table.base}{path}", data=body)
    if r.status == 409:
        # The open page stepped the computer players first: go on from the table as it is.
        moved: View = r.json()["view"]
        return moved
    assert r.ok, r.text()
    out: View = r.json()
    return out


def play_through_api(table: Table, until: Any) -> View:
    """Moves the match on with the API (the same player cookie) until ``until(view)``."""
    v = table.view()
    mid = table.match_id
    while not until(v) and v["status"] != "match_over":
        if v["status"] == "computer_turn":
            v = api(table, f"/api/matches/{mid}/step", {"version": v["version"]})
        elif v["status"] == "deal_over":
            v = api(table, f"/api/matches/{mid}/next-deal", {"version": v["version"]})
        else:
            action = person_action(v)
            v = api(
                table, f"/api/matches/{mid}/actions", {"version": v["version"], "action": action}
            )
    return v


# Match seed whose first deal is void at once (a petit sec), found with the engine.
VOID_FIRST = next(s for s in range(5000) if Match(2, s).current.void == "petit_sec")


def test_void_deals_are_not_counted_and_the_seed_is_shown_as_entered(open_table: Any) -> None:
    table: Table = open_table()
    table.home()
    table.new_match(deals=2, seed=VOID_FIRST)
    v = table.settle()
    page = table.page
    assert v["status"] == "deal_over" and v["observation"]["result"]["void"] == "petit_sec"
    assert page.inner_text('#deal-info [data-role="seed"]') == f"seed {VOID_FIRST}"
    assert page.inner_text('[data-role="deal-number"]') == "Deal 1 of 2"
    assert "void deal" in page.inner_text('[data-role="deal-note"]')
    result = page.locator("#deal-over")
    assert result.locator("h2").inner_text().startswith("A void deal")
    assert result.locator('[data-role="seed"]').inner_text() == f"seed {VOID_FIRST}"
    # The void deal's review: its hands, no empty table of tricks.
    assert result.locator('[data-role="no-tricks"]').count() == 1
    assert result.locator('[data-role="review-tricks"]').count() == 0
    page.click('[data-action="next-deal"]')
    table.after(v["version"])
    table.settle()
    assert page.inner_text('[data-role="deal-number"]') == "Deal 1 of 2"
    assert page.inner_text('[data-role="deal-note"]') == "void deals dealt again: 1"
    # Once the next deal is scored, the sheet numbers it 1: the void one is a dash.
    v = play_through_api(table, lambda v: v["status"] in ("deal_over", "match_over"))
    page.reload()
    table.drawn(v["version"])
    numbers = page.locator('[data-role="score-sheet"] tbody tr td:first-child').all_inner_texts()
    scored = [r for r in v["sheet"] if r["void"] is None]
    assert numbers[: len(v["sheet"])] == [
        "–" if r["void"] else str(scored.index(r) + 1) for r in v["sheet"]
    ]
    assert page.inner_text('#deal-info [data-role="seed"]') == f"seed {VOID_FIRST}"


def english_only_strings() -> list[str]:
    """Whole English sentences of the page that French and Chinese must never show."""
    from test_i18n import dictionaries

    d = dictionaries()
    return [
        text
        for key, text in d["en"].items()
        if "{" not in text and len(text) > 12 and text not in (d["fr"][key], d["zh"][key])
    ]


@pytest.mark.parametrize(("locale", "lang"), [("fr-FR", "fr"), ("zh-CN", "zh")])
def test_french_and_chinese_pages_show_no_english(open_table: Any, locale: str, lang: str) -> None:
    table: Table = open_table(locale=locale, viewport={"width": 390, "height": 844})
    table.home()
    page = table.page
    # The first visit follows the browser's language.
    assert page.evaluate("document.documentElement.lang").startswith(lang)
    title = {"fr": "Oudler · Tarot à quatre", "zh": "Oudler · 法式塔罗"}[lang]
    assert page.title() == title
    english = english_only_strings()
    home_text = page.inner_text("body")
    table.new_match(deals=2, seed=VOID_FIRST)
    table.settle()
    texts = [home_text, page.inner_text("body")]
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # the result fits
    page.click('[data-action="hide-result"]')
    texts.append(page.inner_text("body"))
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # so does the table
    for text in texts:
        shown = [s for s in english if s in text]
        assert not shown, shown
    info = page.inner_text("#info")
    if lang == "zh":
        # Chinese punctuation: full-width colon and brackets.
        assert "发牌者：" in info and ": " not in info
        assert page.inner_text("#seat-0 .seat-name").startswith("南（你）")
    else:
        assert "Donneur\u00a0: " in info
    # The rules page, one click away, is in the same language.
    with page.context.expect_page() as opened:
        page.click('[data-role="rules-link"]')
    rules = opened.value
    rules.wait_for_load_state()
    assert rules.locator(f"article[data-langs='{lang}']").is_visible()
    assert not rules.locator("article[data-langs='en']").is_visible()
    rules.close()


def bot_takes_the_dog(table: Table, seed: int) -> bool:
    """Whether, the person passing, a computer player takes the dog (Prise or Garde) in the
    first deal of a match with this seed (played through the API with another cookie)."""
    ctx = table.context.browser.new_context()
    try:
        req = ctx.request
        body = {"deals": 2, "level": "random", "seed": seed}
        r = req.post(f"{table.base}/api/matches", data=body)
        v = r.json()
        while v["observation"]["phase"] == "bidding":
            path = "step" if v["status"] == "computer_turn" else "actions"
            body: dict[str, Any] = {"version": v["version"]}
            if path == "actions":
                body["action"] = "pass"
            v = req.post(f"{table.base}/api/matches/{v['id']}/{path}", data=body).json()
        o = v["observation"]
        return o["contract"] in ("prise", "garde") and o["declarer"] != 0
    finally:
        ctx.close()


def test_the_dog_stays_until_closed_and_reopens_and_the_previous_trick_names_seats(
    open_table: Any,
) -> None:
    table: Table = open_table(viewport={"width": 390, "height": 844})
    seed = next(s for s in range(1, 40) if bot_takes_the_dog(table, s))
    table.home()
    table.new_match(deals=2, seed=seed)
    page = table.page
    v = table.settle()
    while v["observation"]["phase"] == "bidding":
        page.click('[data-bid="pass"]')
        table.after(v["version"])
        v = table.settle()
    o = v["observation"]
    assert o["dog"] and o["declarer"] != 0
    # Play on: the dog stays shown after the declarer's discard, under the table, on screen.
    v = table.act(v, person_action(v)) if v["status"] == "your_turn" else v
    box = page.locator('[data-role="dog-box"]')
    shown = box.locator("[data-show]").evaluate_all("els => els.map(e => e.dataset.show)")
    assert sorted(shown) == sorted(o["dog"])
    assert f"taken by {SEATS['en'][o['declarer']]}" in box.inner_text()
    top = box.evaluate("e => e.getBoundingClientRect().top")
    assert top < 844, "the dog is below the fold"
    page.click('[data-action="hide-dog"]')
    assert box.locator("[data-show]").count() == 0
    page.click('[data-action="show-dog"]')
    assert box.locator("[data-show]").count() == 6
    # The previous trick, once there is one, says whose each card was.
    v = table.play_until(lambda v: len(v["observation"]["tricks"]) >= 1)
    last = v["observation"]["tricks"][-1]
    page.keyboard.press("p")
    names = page.locator('#prev-trick [data-role="played-by"]').all_inner_texts()
    assert names == [SEATS["en"][(last["leader"] + i) % 4] for i in range(4)]
    page.keyboard.press("Escape")


def test_playing_a_deal_again_asks_first_is_one_deal_and_its_end_leads_on(
    open_table: Any,
) -> None:
    table: Table = open_table()
    table.home()
    table.new_match(deals=2, seed=5)
    first = table.match_id
    v = play_through_api(
        table, lambda v: v["status"] == "deal_over" and not v["observation"]["result"]["void"]
    )
    page = table.page
    page.reload()
    table.drawn(v["version"])
    replay = page.locator('#deal-over [data-action="replay-deal"]')
    assert replay.inner_text() == "Play this deal again"
    replay.click()
    dialog = page.locator('[data-role="confirm"]')
    assert "stays in Your matches" in dialog.inner_text()
    page.click('[data-action="confirm-no"]')
    assert dialog.count() == 0 and table.view()["id"] == first
    replay.click()
    page.click('[data-action="confirm-yes"]')
    page.wait_for_function(
        "id => document.querySelector('#table-view').dataset.match !== id", arg=first
    )
    table.match_id = page.get_attribute("#table-view", "data-match")
    again = table.view()
    assert again["length"] == 1
    assert page.inner_text('[data-role="deal-number"]') == "A deal played again"
    end = play_through_api(table, lambda v: False)
    assert end["status"] == "match_over"
    page.reload()
    table.drawn(end["version"])
    # The end of the match: the top bar stays usable above the result, which leads on.
    hit = page.evaluate(
        """() => { const r = document.querySelector('[data-role="lang"]').getBoundingClientRect();
        const e = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
        return e.closest('.topbar') !== null; }"""
    )
    assert hit, "the result covers the top bar"
    link = page.locator('#deal-over [data-action="download-record"]')
    assert link.get_attribute("href") == f"/api/matches/{table.match_id}/record"
    assert page.locator('#deal-over [data-action="new-match-again"]').is_visible()
    page.click('#deal-over [data-action="your-matches"]')
    listed = page.locator(f'#match-list tr[data-match="{table.match_id}"]')
    listed.wait_for(timeout=TIMEOUT * 1000)
    assert page.locator(f'#match-list tr[data-match="{first}"]').count() == 1


def test_a_seed_past_javascript_numbers_deals_that_very_seed(open_table: Any) -> None:
    """Seeds go up to 2^63 - 1 (the server's range): the page sends the digits exactly, though a
    JavaScript number would round them (2^63 - 1 becomes 2^63), and refuses 2^63 itself."""
    table: Table = open_table()
    table.home()
    table.new_match(deals=2, seed=2**63 - 1)
    v = table.settle()
    assert table.page.inner_text('#deal-info [data-role="seed"]') == f"seed {2**63 - 1}"
    first = Match(2, 2**63 - 1).current
    assert sorted(v["observation"]["hand"]) == sorted(C.format_cards(first.hands[0]))
    matches = table.context.request.get(f"{table.base}/api/matches").json()
    table.home()
    form = table.page.locator('[data-action="new-match"]')
    form.locator("details.more summary").click()
    form.locator('[data-role="seed-input"]').fill(str(2**63))
    form.locator('[type="submit"]').click()
    table.page.wait_for_selector("#toast:not([hidden])")
    assert "9223372036854775807" in table.page.inner_text("#toast")
    assert table.context.request.get(f"{table.base}/api/matches").json() == matches
