"""The home page as a place to start from (issue 30, "Home"): three ways in, each starting what it
says; the friends' form one row per seat, its lead following the choices; learning mode offered
only where the server takes it; the deals of the day's status without moving the page."""

from __future__ import annotations

import time
from typing import Any

import pytest
from pagedriver import CHROMIUM, TIMEOUT, Table, person_action

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason=f"{CHROMIUM} is absent (apt-get install chromium)"
    ),
]

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}

WORDS = {
    "en-US": {
        "ways": ["Play against the computer", "Play with friends", "Duplicate"],
        "seats": ["South", "East", "North", "West"],
        "alone": "You sit South. Choose the seats of your friends: each gets an invitation link.",
        "north": "You sit South; your friend at North joins by an invitation link. East and West"
        " are computer players.",
        "all": "You sit South; your friends at East, North, and West join by invitation links.",
        "computer": "computer: {level}",
        "levels": {"novice": "novice", "expert": "expert"},
        "new": "Not played yet.",
        "playing": "In progress: 1 of 4",
    },
    "fr-FR": {
        "ways": ["Jouer contre l'ordinateur", "Jouer entre amis", "Tarot en duplicate"],
        "seats": ["Sud", "Est", "Nord", "Ouest"],
        "alone": "Vous êtes Sud. Choisissez les places de vos amis\u00a0: chacun reçoit un lien"
        " d'invitation.",
        "north": "Vous êtes Sud\u202f; votre ami à Nord vient par un lien d'invitation. Est et"
        " Ouest sont joués par l'ordinateur.",
        "all": "Vous êtes Sud\u202f; vos amis à Est, Nord et Ouest viennent par des liens"
        " d'invitation.",
        "computer": "ordinateur\u00a0: {level}",
        "levels": {"novice": "débutant", "expert": "expert"},
        "new": "Pas encore jouées.",
        "playing": "En cours\u00a0: 1 sur 4",
    },
}
LOCALES = list(WORDS)


def api(table: Table, method: str, path: str, body: Any = None) -> Any:
    """The server as this browser context sees it (its player cookie)."""
    call = getattr(table.context.request, method)
    r = call(f"{table.base}{path}", data=body) if body is not None else call(f"{table.base}{path}")
    assert r.ok, r.text()
    return r.json()


def matches(table: Table) -> list[dict[str, Any]]:
    return list(api(table, "get", "/api/matches")["matches"])


def started(table: Table) -> dict[str, Any]:
    """The match the page just opened, as the server has it."""
    table.page.wait_for_selector("#table-view[data-match]")
    table.match_id = table.page.get_attribute("#table-view", "data-match")
    return table.view()


DAILY = '[data-role="series-line"][data-kind="daily"]'  # the day's line of the home card


def daily_series(table: Table) -> dict[str, Any]:
    """The day's series in the list, once the server has made it."""
    deadline = time.monotonic() + TIMEOUT
    while True:
        lines = [s for s in api(table, "get", "/api/series")["series"] if s["kind"] == "daily"]
        if lines:
            return dict(lines[0])
        assert time.monotonic() < deadline, "the deals of the day were never made"
        time.sleep(0.2)


@pytest.mark.parametrize("locale", LOCALES)
def test_three_ways_in_each_start_what_they_say(open_table: Any, locale: str) -> None:
    words = WORDS[locale]
    me: Table = open_table(locale=locale, viewport=LAPTOP)
    me.home()
    page = me.page
    ways = page.locator('[data-role="ways"] > .way')
    assert ways.count() == 3
    assert [h.strip() for h in ways.locator("h2").all_inner_texts()] == words["ways"]
    # Side by side at 1280x800: one row, the three cards' tops level.
    tops = {round(b["y"]) for b in (ways.nth(i).bounding_box() or {} for i in range(3))}
    assert len(tops) == 1, tops

    # 1. Against the computer: a table for one, with the chosen length, level and learning mode.
    solo = page.locator('[data-action="new-match"]')
    solo.locator('[data-deals="4"]').check()
    solo.locator('input[name="level"][value="novice"]').check()
    solo.locator('[data-role="learning-input"]').check()
    solo.locator('[type="submit"]').click()
    v = started(me)
    assert "seats" not in v and v["learning"] is True
    (made,) = matches(me)
    assert (made["length"], made["level"].split("@")[0]) == (4, "novice")

    # 2. With friends: the rows chosen, the table waits for the friend's link.
    me.home()
    friends = page.locator('[data-action="new-friends-match"]')
    friends.locator('select[name="seat2"]').select_option("person")
    friends.locator('select[name="level"]').select_option("expert")
    friends.locator('[data-role="hints-input"]').check()
    friends.locator('[type="submit"]').click()
    v = started(me)
    assert [s["kind"] for s in v["seats"]] == ["person", "computer", "open", "computer"]
    assert v["hints"] is True and v["undo"] is False
    assert page.locator('[data-role="invite-link"][data-seat="2"]').input_value()
    listed = {m["id"]: m for m in matches(me)}
    assert listed[v["id"]]["level"].split("@")[0] == "expert"

    # 3. The deals of the day: its Play, reached by the keyboard, starts the series' match.
    me.home()
    play = page.locator(f'{DAILY} [data-action="series-play"]')
    play.wait_for()
    assert page.inner_text(f'{DAILY} [data-role="series-status"]') == words["new"]
    play.focus()
    page.keyboard.press("Enter")
    v = started(me)
    assert v["series"]["id"] == daily_series(me)["id"]


@pytest.mark.parametrize("locale", LOCALES)
def test_the_friends_form_has_a_row_per_seat_and_its_lead_follows_the_choices(
    open_table: Any, locale: str
) -> None:
    words = WORDS[locale]
    me: Table = open_table(locale=locale, viewport=LAPTOP)
    me.home()
    page = me.page
    form = page.locator('[data-action="new-friends-match"]')
    rows = form.locator(".seat-row")
    assert rows.count() == 4
    assert [x.strip() for x in rows.locator(".seat-label").all_inner_texts()] == words["seats"]
    # One line each at 1280 wide: the seat's name beside who sits there, not wrapped under it.
    for i in range(1, 4):
        label = rows.nth(i).locator(".seat-label").bounding_box()
        who = rows.nth(i).locator("select").bounding_box()
        assert label and who
        middle = label["y"] + label["height"] / 2
        assert abs(middle - who["y"] - who["height"] / 2) < 4
    # South is you, with your name; each other seat's control is named by its seat's label.
    assert rows.nth(0).locator("[data-role=name-input]").is_visible()
    for i, seat in enumerate(words["seats"][1:], start=1):
        assert form.get_by_label(seat, exact=True).get_attribute("name") == f"seat{i}"

    lead = form.locator('[data-role="friends-lead"]')
    computer = words["computer"]
    level = form.locator('select[name="level"]')
    level.select_option("novice")
    option = form.locator('select[name="seat1"] option[value="computer"]')
    assert option.inner_text() == computer.format(level=words["levels"]["novice"])
    assert lead.inner_text() == words["alone"]
    form.locator('select[name="seat2"]').select_option("person")
    assert lead.inner_text() == words["north"]
    # Every seat a friend's: the lead names no computer player, and no level is asked.
    for seat in (1, 3):
        form.locator(f'select[name="seat{seat}"]').select_option("person")
    assert lead.inner_text() == words["all"]
    assert not level.is_visible()
    form.locator('select[name="seat3"]').select_option("computer")
    assert level.is_visible()
    level.select_option("expert")
    assert form.locator('select[name="seat3"] option:checked').inner_text() == computer.format(
        level=words["levels"]["expert"]
    )
    # No friend at all: this way in says so instead of starting a table for one.
    for seat in (1, 2, 3):
        form.locator(f'select[name="seat{seat}"]').select_option("computer")
    assert lead.inner_text() == words["alone"]
    form.locator('[type="submit"]').click()
    error = form.locator('[data-role="friends-error"]')
    error.wait_for()
    assert len(error.inner_text()) > 10
    assert page.evaluate("document.activeElement.name") == "seat1"
    assert matches(me) == []


def test_learning_mode_is_offered_only_where_the_server_takes_it(open_table: Any) -> None:
    me: Table = open_table(viewport=LAPTOP)
    me.home()
    page = me.page
    solo = page.locator('[data-action="new-match"]')
    friends = page.locator('[data-action="new-friends-match"]')
    # Against the computer: learning mode, no hints to allow (the server refuses hints there).
    assert solo.locator('[name="learning"]').count() == 1
    assert solo.locator('[name="hints"]').count() == 0
    # With friends: the coach's hints for all, no learning mode (the server refuses it there).
    assert friends.locator('[name="learning"]').count() == 0
    assert friends.locator('[name="hints"]').is_visible()
    for body in (
        {
            "deals": 2,
            "level": "random",
            "seats": ["me", "computer", "person", "computer"],
            "learning": True,
        },
        {"deals": 2, "level": "random", "hints": True},
    ):
        r = me.context.request.post(f"{me.base}/api/matches", data=body)
        assert r.status == 400, r.text()
    # Every control of the home page has a name a screen reader says.
    unnamed = page.evaluate(
        """() => [...document.querySelectorAll('#home input, #home select, #home button')]
        .filter((e) => !(e.labels && e.labels.length) && !e.getAttribute('aria-label')
          && !e.getAttribute('aria-labelledby')
          && !(e.tagName === 'BUTTON' && e.textContent.trim()))
        .map((e) => e.outerHTML)"""
    )
    assert unnamed == []


def play_one_deal(table: Table, match_id: str) -> None:
    """The person's first deal of a match through the API, with ``person_action``."""
    v = api(table, "get", f"/api/matches/{match_id}")
    deadline = time.monotonic() + TIMEOUT
    while v["status"] != "deal_over":
        assert time.monotonic() < deadline, "the deal did not end"
        if v["status"] == "computer_turn":
            v = api(table, "post", f"/api/matches/{match_id}/step", {"version": v["version"]})
        else:
            body = {"version": v["version"], "action": person_action(v)}
            v = api(table, "post", f"/api/matches/{match_id}/actions", body)


@pytest.mark.parametrize(("locale", "viewport"), [("en-US", LAPTOP), ("fr-FR", PHONE)])
def test_the_series_status_arrives_without_moving_the_page(
    open_table: Any, locale: str, viewport: dict[str, int]
) -> None:
    me: Table = open_table(locale=locale, viewport=viewport)
    line = daily_series(me)
    mid = api(me, "post", f"/api/series/{line['id']}/play")["match"]
    play_one_deal(me, mid)
    page = me.page
    # The list of series held back: the page as drawn before, then as drawn after it comes.
    held: list[Any] = []
    page.route("**/api/series", lambda route: held.append(route))
    page.goto(f"{me.base}/")
    page.wait_for_selector("#home:not([hidden])")
    page.wait_for_selector("#match-list table")
    deadline = time.monotonic() + TIMEOUT
    while not held:
        assert time.monotonic() < deadline
        page.wait_for_timeout(50)

    def where() -> list[float]:
        return [
            round(page.locator(s).bounding_box()["y"], 1)  # type: ignore[index]
            for s in ("#series-home", ".matches", "#match-list")
        ]

    before = where()
    assert page.locator("#series-home").get_attribute("aria-busy") == "true"
    held[0].continue_()
    status = page.locator(f'{DAILY} [data-role="series-status"]')
    page.wait_for_selector("#series-home:not([aria-busy])")
    assert status.inner_text() == WORDS[locale]["playing"]
    assert page.locator(f'{DAILY} [data-action="series-play"]').is_visible()
    assert where() == before
    # The match in play is listed under the matches in play.
    assert page.locator(f'[data-role="matches-in-play"] tr[data-match="{mid}"]').count() == 1
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
