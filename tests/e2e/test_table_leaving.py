"""Turn time and leaving at a table with friends, in a real Chromium (issue 18): the countdown on
each person's screen, a friend who leaves by the button, and the creator's two choices for the
seat (a new link to wait for someone, or a computer player)."""

from __future__ import annotations

from typing import Any

import pytest
from pagedriver import CHROMIUM, Table, person_action

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason=f"{CHROMIUM} is absent (apt-get install chromium)"
    ),
    pytest.mark.app_options(computer_pause=0),
]

PHONE = {"width": 390, "height": 844}


def make_table(me: Table, turn: str, seat: int = 2) -> str:
    """The creator's table: ``seat`` (North unless said) kept for a friend, the turn time
    ``turn``; the link to send."""
    return me.new_friends_match((seat,), turn=turn)[seat]


def boxes(page: Any, *selectors: str) -> list[dict[str, float]]:
    """The on-screen boxes of the first element each selector finds, measured at once (the page
    may draw a new view between two calls)."""
    found: list[dict[str, float]] = page.evaluate(
        "sels => sels.map(s => { const r = document.querySelector(s).getBoundingClientRect();"
        " return {x: r.left, y: r.top, r: r.right, b: r.bottom}; })",
        list(selectors),
    )
    return found


def apart(a: dict[str, float], b: dict[str, float]) -> bool:
    # A pixel of shared border is not an overlap.
    return (
        min(a["r"], b["r"]) - max(a["x"], b["x"]) <= 1
        or min(a["b"], b["b"]) - max(a["y"], b["y"]) <= 1
    )


def inside(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] >= b["x"] - 1
        and a["r"] <= b["r"] + 1
        and a["y"] >= b["y"] - 1
        and a["b"] <= b["b"] + 1
    )


def sit(friend: Table, url: str) -> None:
    friend.page.goto(url)
    friend.page.locator('[data-action="sit"]').click()
    friend.page.wait_for_selector("#table-view[data-match]")
    friend.match_id = friend.page.get_attribute("#table-view", "data-match")


@pytest.mark.parametrize("locale", ["en-US", "zh-CN", "fr-FR"])
def test_each_person_sees_the_countdown_of_the_person_to_act(open_table: Any, locale: str) -> None:
    me = open_table(locale=locale)
    url = make_table(me, "60")
    friend = open_table(locale=locale)
    sit(friend, url)
    v = me.play_until(lambda v: v["status"] in ("your_turn", "person_turn"))
    seat = v["turn"]["seat"]
    words = {"en-US": " s left", "zh-CN": "秒", "fr-FR": "encore"}[locale]
    for t in (me, friend):
        clock = t.page.locator(f'[data-role="turn-clock"][data-seat="{seat}"]')
        clock.wait_for(state="visible")
        assert words in clock.inner_text()
        left = int(clock.get_attribute("data-left") or 0)
        assert 50 <= left <= 60
    # Mine says it is my turn; theirs names my seat.
    mover, other = (me, friend) if seat == 0 else (friend, me)
    assert "mine" in (mover.page.get_attribute('[data-role="turn-clock"]', "class") or "")
    assert "mine" not in (other.page.get_attribute('[data-role="turn-clock"]', "class") or "")
    # On a phone the clock keeps above North: it covers no name or badge there.
    for t in (me, friend):
        t.page.set_viewport_size(PHONE)
        clock, north, table = boxes(t.page, "#turn-clock", "#seat-2 .seat-name", "#table")
        assert apart(clock, north) and inside(clock, table), (locale, clock, north, table)


def test_a_friend_leaves_and_the_creator_waits_then_gives_the_seat_to_a_computer(
    open_table: Any,
) -> None:
    me = open_table()
    url = make_table(me, "")
    friend = open_table()
    sit(friend, url)
    assert me.page.locator('[data-role="turn-clock"]').is_hidden()  # no turn time: no clock
    # The creator has no button to leave; the friend has.
    assert me.page.locator('[data-action="leave-table"]').is_hidden()
    friend.page.locator('[data-action="leave-table"]').click()
    friend.page.locator('[data-action="confirm-yes"]').click()
    friend.page.wait_for_selector("#home:not([hidden])")
    assert friend.context.request.get(f"{friend.base}/api/matches/{me.match_id}").status == 404
    # The creator's table waits, with the two choices for North; a second tab of theirs too.
    left = me.page.locator('[data-role="left-seat"][data-seat="2"]')
    left.wait_for()
    tab = me.context.new_page()
    tab.goto(f"{me.base}/#/match/{me.match_id}")
    tab.locator('[data-role="left-seat"][data-seat="2"]').wait_for()
    assert "left the table" in left.inner_text()
    assert me.page.locator('[data-role="invite-link"]').count() == 0  # the old link is dead
    left.locator('[data-action="reinvite-seat"]').click()
    link = me.page.locator('[data-role="invite-link"][data-seat="2"]')
    link.wait_for()
    new_url = link.input_value()
    assert new_url != url and "/join/" in new_url
    # The other tab follows without an action (the same version): the seat waits by a new link.
    tab.locator('[data-role="left-seat"]').wait_for(state="detached")
    tab.locator('[data-role="waiting-seats"] [data-seat="2"][data-kind="open"]').wait_for()
    tab.close()
    # Nobody came by the link after all: the seat goes to a computer player and play goes on.
    fill = me.page.locator('[data-action="fill-seat"][data-seat="2"]')
    fill.click()
    fill.wait_for(state="detached")  # the table is drawn again once the seat is filled
    v = me.settle()
    assert v["seats"][2]["kind"] == "computer" and v["status"] != "waiting"
    friend.page.goto(new_url)
    friend.page.wait_for_selector('[data-role="join-seats"]')
    assert friend.page.locator('[data-action="sit"]').count() == 0  # taken now


def test_a_friend_out_of_time_is_played_for_and_every_screen_says_so(open_table: Any) -> None:
    me = open_table()
    url = make_table(me, "30", seat=3)
    friend = open_table()
    sit(friend, url)
    # I play my turns; the friend at West stays silent on theirs.
    v = me.play_until(lambda v: v["status"] == "person_turn")
    assert v["turn"]["seat"] == 3
    mark = me.page.locator('#seat-3 [data-role="stood-in"]')
    mark.wait_for(timeout=60_000)  # their 30 s, then a computer player acts for them
    assert mark.get_attribute("title") == "time ran out: a computer player acted for this seat"
    assert mark.inner_text() == "computer played"
    # On a phone West's column is narrow: the name and its mark stay in it, on the table.
    me.page.set_viewport_size(PHONE)
    sel = ("#seat-3 .seat-name", "#seat-3", "#table", '#seat-3 [data-role="stood-in"]')
    name, seat, table, badge = found = boxes(me.page, *sel)
    assert inside(name, seat) and inside(name, table) and inside(badge, name), found
    me.page.set_viewport_size({"width": 1280, "height": 900})
    notice = friend.page.locator('[data-role="stood-in-mine"]')
    notice.wait_for()
    assert notice.inner_text().startswith("Your time ran out: a computer player ")
    assert friend.page.locator('[data-role="stood-in"]').count() == 0  # the notice says it
    # Back in time: their own next action is theirs, and their notice goes.
    me.play_until(lambda v: v["status"] == "person_turn")
    fv = friend.settle()
    assert fv["status"] == "your_turn"
    friend.act(fv, person_action(fv))
    notice.wait_for(state="detached")


@pytest.mark.app_options(computer_pause=0, free_after=1.0)
def test_a_friend_who_lost_their_cookie_gets_a_new_link_after_the_creator_frees_the_seat(
    open_table: Any,
) -> None:
    """Issue 28, item 2: a friend sat, then opened the link again in another browser. The link
    says its seat is taken (not "Your seat") with a way home; the creator frees the seat of the
    friend gone for a while, sends a new link, and the friend sits again in the new browser."""
    me = open_table()
    url = make_table(me, "")
    friend = open_table()
    sit(friend, url)
    me.page.locator('#seat-2 [data-role="presence"][data-connected="true"]').wait_for()
    friend.context.close()  # a closed private window: the cookie is gone with it
    again = open_table(locale="fr-FR")
    again.page.goto(url)
    message = again.page.locator('[data-role="join-message"]')
    message.wait_for()
    assert "prise" in message.inner_text() and "Nord" in message.inner_text()
    assert "Votre place" not in again.page.locator("#join").inner_text()
    assert again.page.locator('[data-action="sit"]').count() == 0
    assert again.page.locator('a[data-action="home"]').get_attribute("href") == "/"
    # The creator frees North once the friend has been away ``free_after`` seconds.
    me.page.locator('#seat-2 [data-role="presence"][data-connected="false"]').wait_for()
    free = me.page.locator('#seat-2 [data-action="free-seat"]')
    free.wait_for()
    assert free.inner_text() == "Free the seat"
    free.click()
    left = me.page.locator('[data-role="left-seat"][data-seat="2"]')
    left.wait_for()
    left.locator('[data-action="reinvite-seat"]').click()
    link = me.page.locator('[data-role="invite-link"][data-seat="2"]')
    link.wait_for()
    new_url = link.input_value()
    assert new_url != url
    again.page.goto(url)  # the old link no longer seats anyone
    again.page.locator('[data-role="join-message"]').wait_for()
    assert again.page.locator('[data-action="sit"]').count() == 0
    sit(again, new_url)
    assert again.settle()["seat"] == 2
    assert me.settle()["status"] != "waiting"
