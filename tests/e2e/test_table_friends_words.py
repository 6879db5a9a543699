"""What a person reads and sees at a table with friends (issue 28, items 10-16, 18-20, 28), each
in a real Chromium against the real server, in the language the item names: a stale tab's
refusal, whose turn to do what, a table that waits, a phrase's bubble, the guide and the hand
at 1280x800, the countdown on a phone, the home page's words, the invitation page, the list of
matches, the refusal tooltip, the Analysis tab and the remembered level."""

from __future__ import annotations

import re
from typing import Any

import httpx2
import pytest
from pagedriver import CHROMIUM, TIMEOUT, Table, View, person_action, settled

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason=f"{CHROMIUM} is absent (apt-get install chromium)"
    ),
    pytest.mark.app_options(computer_pause=0, coach_worlds=6),
]

LOCALES = ["en-US", "zh-CN", "fr-FR"]
LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
Box = dict[str, float]


def sit(friend: Table, url: str, name: str | None = None) -> None:
    friend.page.goto(url)
    if name:
        friend.page.locator('[data-role="name-input"]').fill(name)
    friend.page.locator('[data-action="sit"]').click()
    friend.page.wait_for_selector("#table-view[data-match]")
    friend.match_id = friend.page.get_attribute("#table-view", "data-match")


def boxes(page: Any, selector: str) -> list[Box]:
    found: list[Box] = page.locator(selector).evaluate_all(
        "els => els.map(e => { const r = e.getBoundingClientRect();"
        " return {x: r.left, y: r.top, r: r.right, b: r.bottom}; })"
    )
    return found


def status_line(table: Table) -> str:
    return table.page.locator('#prompt [data-role="status"]').first.inner_text()


# ------------------------------------------------------------------------------ item 10


def test_a_stale_tab_is_told_in_the_pages_language_without_version_numbers(
    open_table: Any,
) -> None:
    table: Table = open_table(locale="fr-FR")
    table.home()
    table.new_match(deals=2, seed=7)
    v = table.play_until(lambda v: v["status"] == "your_turn")
    assert v["observation"]["phase"] == "bidding"
    stale = table.new_page()
    stale.goto(f"{table.base}/#/match/{table.match_id}")
    stale.wait_for_selector(f'#table-view[data-version="{v["version"]}"]', state="attached")
    table.act(v, person_action(v))  # the first tab moves the table on
    stale.click('[data-bid="pass"]')  # the second still shows the call to make
    stale.wait_for_selector("#toast:not([hidden])")
    words = stale.inner_text("#toast")
    assert words == "La table avait avancé\u202f; la voici où elle en est.", words
    assert not re.search(r"\d", words)
    stale.wait_for_selector(f'#table-view:not([data-version="{v["version"]}"])', state="attached")


# ------------------------------------------------------------------------------ item 11

CALL = {
    "en-US": "Waiting for Bob (West) to call.",
    "zh-CN": "等待Bob（西）叫牌。",
    "fr-FR": "Bob (Ouest) doit annoncer\u00a0: on l'attend.",
}


@pytest.mark.parametrize("locale", LOCALES)
def test_while_a_friend_bids_the_others_are_told_they_call_not_play(
    open_table: Any, locale: str
) -> None:
    me: Table = open_table(locale=locale)
    links = me.new_friends_match((3,))
    friend: Table = open_table(locale=locale)
    sit(friend, links[3], "Bob")
    v = me.play_until(lambda v: v["status"] == "person_turn")
    assert v["observation"]["phase"] == "bidding" and v["observation"]["to_move"] == 3
    assert status_line(me) == CALL[locale]
    # A card of the hand, pointed at, says the same.
    reason = me.page.locator("#hand [data-card]").first.get_attribute("data-reason") or ""
    assert reason == CALL[locale].replace("Bob (West)", "West").replace("Bob（西）", "西").replace(
        "Bob (Ouest)", "Ouest"
    ), reason


# ------------------------------------------------------------------------------ items 12, 14


def lit(table: Table) -> dict[str, int]:
    return {
        "calls": table.page.locator('#center [data-role="calls"] li.now').count(),
        "seats": table.page.locator(".seat.to-move").count(),
    }


def test_a_waiting_table_lights_no_seat_and_says_if_it_starts_or_goes_on(
    open_table: Any,
) -> None:
    me: Table = open_table()
    links = me.new_friends_match((2,))
    v = me.view()
    assert v["status"] == "waiting" and v["observation"]["phase"] == "bidding"
    me.drawn(v["version"])
    # Nobody is to call until every seat is taken: neither the bidding box nor a seat is lit.
    assert lit(me) == {"calls": 0, "seats": 0}
    assert status_line(me) == "The table starts when every seat is taken."
    friend: Table = open_table()
    sit(friend, links[2])
    views = settled({0: me, 2: friend})
    assert lit(me)["calls"] == 1  # the table plays: the seat to call is lit
    # A call or two, then the friend leaves mid-deal.
    while views[0]["version"] < 2:
        mover = next(s for s, x in views.items() if x["status"] == "your_turn")
        t = me if mover == 0 else friend
        t.act(views[mover], person_action(views[mover]))
        views = settled({0: me, 2: friend})
    friend.page.locator('[data-action="leave-table"]').click()
    friend.page.locator('[data-action="confirm-yes"]').click()
    me.page.locator('[data-role="left-seat"][data-seat="2"]').wait_for()
    assert status_line(me) == "Play goes on when every seat is taken again."
    assert lit(me) == {"calls": 0, "seats": 0}


# ------------------------------------------------------------------------------ item 15


def test_a_phrase_bubble_moves_nothing_on_the_table(open_table: Any) -> None:
    me: Table = open_table(viewport=LAPTOP)
    links = me.new_friends_match((2,), turn="120")
    friend: Table = open_table(viewport=LAPTOP, locale="fr-FR")
    sit(friend, links[2])
    settled({0: me, 2: friend})
    parts = "#hand, #table, #prompt, .seat, .seat-name"
    before = {t: boxes(t.page, parts) for t in (me, friend)}
    friend.page.locator('[data-role="phrases"] [data-phrase="hello"]').click()
    me.page.locator('#seat-2 [data-role="said"]').wait_for()
    friend.page.locator('#seat-2 [data-role="said"]').wait_for()
    # Across (North on my screen) and at the bottom (the friend's own): nothing moved.
    for t in (me, friend):
        assert boxes(t.page, parts) == before[t]
    # The bubble itself is on the felt, by North's name.
    table, bubble = boxes(me.page, '#table, #seat-2 [data-role="said"]')  # in page order
    assert table["x"] <= bubble["x"] and bubble["r"] <= table["r"], (bubble, table)
    assert table["y"] <= bubble["y"] and bubble["b"] <= table["b"], (bubble, table)


# ------------------------------------------------------------------------------ item 16


def discarding_seed(base: str) -> int:
    """A seed whose first deal, played with ``person_action`` by South and by the random
    computer players, has South take the dog and discard."""
    with httpx2.Client(base_url=base, timeout=TIMEOUT) as client:
        for seed in range(1, 200):
            v = client.post("/api/matches", json={"deals": 2, "level": "random", "seed": seed})
            v = v.json()
            mid = v["id"]
            while v["observation"]["phase"] == "bidding" and v["deal_number"] == 1:
                if v["status"] == "computer_turn":
                    v = client.post(f"/api/matches/{mid}/step", json={"version": v["version"]})
                elif v["status"] == "your_turn":
                    body = {"version": v["version"], "action": person_action(v)}
                    v = client.post(f"/api/matches/{mid}/actions", json=body)
                else:
                    break
                v = v.json()
            if v["observation"]["phase"] == "discard" and v["observation"]["declarer"] == 0:
                return seed
    raise AssertionError("no seed below 200 makes South discard")


def hand_in_view(table: Table) -> tuple[Box, float]:
    table.page.evaluate("window.scrollTo(0, 0)")
    hand = boxes(table.page, "#hand")[0]
    return hand, float(table.page.evaluate("window.innerHeight"))


def test_at_1280_by_800_the_guide_leaves_the_hand_in_view_bidding_and_discarding(
    open_table: Any, server: str
) -> None:
    seed = discarding_seed(server)
    me: Table = open_table(viewport=LAPTOP)
    me.new_friends_match((2,), turn="60", seed=seed)
    # Nobody came: the seat goes to a computer player, and the guide shows the newcomer each step.
    me.page.locator('[data-action="fill-seat"][data-seat="2"]').click()
    v = me.settle()
    checked = set()
    while v["observation"]["phase"] in ("bidding", "discard"):
        if v["status"] == "your_turn":
            me.page.locator('[data-role="tour"]').wait_for()  # the guide's step is shown
            hand, height = hand_in_view(me)
            assert hand["b"] <= height, (v["observation"]["phase"], hand, height)
            checked.add(v["observation"]["phase"])
        v = me.act(v, person_action(v))
    assert checked == {"bidding", "discard"}


@pytest.mark.parametrize("locale", LOCALES)
def test_on_a_phone_the_countdown_keeps_clear_of_the_top_seats_name_and_badges(
    open_table: Any, locale: str
) -> None:
    me: Table = open_table(viewport=PHONE, locale=locale)
    links = me.new_friends_match((2,), turn="60")
    friend: Table = open_table(viewport=PHONE, locale=locale)
    sit(friend, links[2], "Marguerite")
    settled({0: me, 2: friend})
    for t, top in ((me, 2), (friend, 0)):
        clock = t.page.locator('[data-role="turn-clock"]')
        clock.wait_for(state="visible")
        c = boxes(t.page, "#turn-clock")[0]
        for b in boxes(t.page, f"#seat-{top} .seat-name, #seat-{top} .seat-name > *"):
            # Not touching: a clear gap between the pill and the name's box or any badge.
            gap = max(b["y"] - c["b"], c["y"] - b["b"], b["x"] - c["r"], c["x"] - b["r"])
            assert gap >= 4, (locale, c, b)


# ------------------------------------------------------------------------------ item 18
# The home page's words about who sits where: tests/e2e/test_home.py.


# ------------------------------------------------------------------------------ item 19

JOIN = {
    "en-US": ("North: a computer player", "Time per turn: 1 minute."),
    "zh-CN": ("北：电脑玩家", "每步限时：1 分钟。"),
    "fr-FR": ("Nord\u00a0: un joueur ordinateur", "Temps par coup\u00a0: 1 min."),
}


@pytest.mark.parametrize("locale", LOCALES)
def test_the_invitation_shows_the_table_its_turn_time_and_punctuates_each_language(
    open_table: Any, locale: str
) -> None:
    me: Table = open_table()
    links = me.new_friends_match((1,), turn="60", name="Alice")
    friend: Table = open_table(locale=locale)
    friend.page.goto(links[1])
    page = friend.page
    table = page.locator('[data-role="join-table"]')
    table.wait_for()
    # The table drawn from the invited seat: it at the bottom, the creator on its left...
    seat = {p: table.locator(f".seat-{p}") for p in ("south", "east", "north", "west")}
    assert seat["south"].get_attribute("data-seat") == "1"
    assert seat["south"].get_attribute("data-kind") == "open"
    assert "Alice" in seat["west"].inner_text()
    south, north = (
        boxes(page, '[data-role="join-table"] .seat-south')[0],
        boxes(page, '[data-role="join-table"] .seat-north')[0],
    )
    assert south["y"] > north["b"]
    lines = page.locator('[data-role="join-seats"] li').all_inner_texts()
    seat_line, turn_line = JOIN[locale]
    assert seat_line in lines, lines
    assert page.locator('[data-role="join-turn"]').inner_text() == turn_line
    if locale == "zh-CN":
        assert not any(":" in x for x in lines)


# ------------------------------------------------------------------------------ item 20


def test_your_matches_says_a_table_is_with_friends_who_sits_there_and_that_it_waits(
    open_table: Any,
) -> None:
    me: Table = open_table()
    links = me.new_friends_match((2,), name="Alice")
    me.home()
    row = me.page.locator(f'[data-match="{me.match_id}"]')
    row.wait_for()
    text = row.inner_text()
    assert "with friends" in text and "waiting for friends" in text, text
    assert row.locator('[data-role="match-seats"]').inner_text() == (
        "Alice (you), Lucky (East), a seat for a friend (North), Chance (West)"
    )
    friend: Table = open_table()
    sit(friend, links[2], "Bob")
    me.home()
    row = me.page.locator(f'[data-match="{me.match_id}"]')
    text = row.inner_text()
    assert "with friends" in text and "waiting" not in text and "in play" in text, text
    assert "Bob (North)" in row.locator('[data-role="match-seats"]').inner_text()
    friend.home()
    theirs = friend.page.locator(f'[data-match="{me.match_id}"]')
    assert "Alice (South)" in theirs.locator('[data-role="match-seats"]').inner_text()


# ------------------------------------------------------------------------------ item 28

TIP = """(card) => {
  const r = card.getBoundingClientRect();
  const s = getComputedStyle(card, "::before");
  const m = new DOMMatrixReadOnly(s.transform === "none" ? undefined : s.transform);
  const w = parseFloat(s.width);
  const left = s.left === "auto" ? r.width - parseFloat(s.right) - w : parseFloat(s.left);
  return { content: s.content, x: r.left + left + m.e, r: r.left + left + m.e + w };
}"""


def test_the_why_not_tooltip_stays_in_the_window_at_both_ends_of_the_hand(
    open_table: Any, server: str
) -> None:
    seed = discarding_seed(server)
    table: Table = open_table(viewport=LAPTOP)
    table.home()
    table.new_match(deals=2, seed=seed)
    v = table.play_until(lambda v: v["observation"]["phase"] == "discard")
    assert v["status"] == "your_turn"
    refused = [c for c in table.hand() if c in table.disabled()]
    cards = table.page.locator("#hand [data-card]")
    first = cards.first.get_attribute("data-card")
    # Every card of the hand is pointed at: a refused one's reason stays in the window.
    checked = 0
    for i in range(cards.count()):
        card = cards.nth(i)
        if card.get_attribute("data-card") not in refused:
            continue
        card.hover(position={"x": 6, "y": 30})
        tip = card.evaluate(TIP)
        assert tip["content"] != "none"
        assert tip["x"] >= 0 and tip["r"] <= LAPTOP["width"], (i, tip)
        checked += 1
    assert first in refused and checked >= 2  # the leftmost card's reason among them


def test_the_home_page_remembers_the_chosen_level(open_table: Any) -> None:
    table: Table = open_table()
    table.home()
    table.page.check('input[name="level"][value="expert"]')
    table.page.reload()
    table.page.wait_for_selector("#home:not([hidden])")
    assert table.page.is_checked('input[name="level"][value="expert"]')


def test_the_breakdown_counts_oudlers_in_each_languages_plural(open_table: Any) -> None:
    from test_table_finish import RENDER, played_deal, view_of

    table: Table = open_table()
    table.home()
    by_oudlers: dict[int, View] = {}
    for seed in range(300):
        d = played_deal(seed, keep_excuse=False)
        r = d.result
        if r is not None and not r.void:
            by_oudlers.setdefault(r.oudlers, view_of(d))
        if {0, 1, 2} <= set(by_oudlers):
            break
    words = {
        "en": {0: "With 0 oudlers the", 1: "With 1 oudler the", 2: "With 2 oudlers the"},
        "fr": {0: "Avec 0 bout,", 1: "Avec 1 bout,", 2: "Avec 2 bouts,"},
        "zh": {0: "有 0 张 oudler", 1: "有 1 张 oudler", 2: "有 2 张 oudler"},
    }
    for lang, expected in words.items():
        for n, text in expected.items():
            lines = table.page.evaluate(RENDER, [by_oudlers[n], lang])["lines"]
            assert any(text in x for x in lines), (lang, n, lines)
            assert not any("(s)" in x for x in lines), lines
