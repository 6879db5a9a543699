"""Accounts in a real Chromium (issue 29): a guest plays, keeps their games from the top bar's
menu, and a second browser context signs in with the password, finds the match in "Your matches"
and plays on; "sign out everywhere" there makes the first context's next request a guest's."""

from __future__ import annotations

from typing import Any

import pytest
from pagedriver import CHROMIUM, Table, person_action

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason=f"{CHROMIUM} is absent (apt-get install chromium)"
    ),
]

NAME, PASSWORD = "Sacha", "a long enough secret"


def fill(menu: Any, form: str, **values: str) -> None:
    box = menu.locator(f'[data-role="{form}"]')
    for name, value in values.items():
        box.locator(f'input[name="{name}"]').fill(value)
    with menu.page.expect_navigation():
        box.locator('[type="submit"]').click()


def test_a_guest_keeps_their_games_and_another_browser_signs_in_and_resumes(
    open_table: Any,
) -> None:
    first: Table = open_table()
    first.home()
    mid = first.new_match(seed=12)
    v = first.settle()
    for _ in range(3):
        if v["status"] != "your_turn":
            break
        v = first.act(v, person_action(v))
    played = first.view()["version"]
    assert played > 0

    # Keep my games, from the top bar.
    first.home()
    fill(first.account_menu(), "keep-form", name=NAME, password=PASSWORD)
    first.page.wait_for_selector('[data-role="account-summary"][data-signed-in="true"]')
    assert first.page.inner_text('[data-role="account-summary"]') == NAME
    assert first.me()["account"] == {"name": NAME}

    # A second browser: a wrong password says so, the right one signs in.
    second: Table = open_table()
    second.home()
    assert second.page.locator(f'tr[data-match="{mid}"]').count() == 0
    menu = second.account_menu()
    box = menu.locator('[data-role="sign-in-form"]')
    box.locator('input[name="name"]').fill(NAME.lower())
    box.locator('input[name="password"]').fill("not the password")
    box.locator('[type="submit"]').click()
    error = box.locator('[data-role="account-error"]')
    error.wait_for()
    assert error.inner_text() == "The name or the password is wrong."
    fill(menu, "sign-in-form", name=NAME.lower(), password=PASSWORD)
    second.page.wait_for_selector('[data-role="account-summary"][data-signed-in="true"]')
    row = second.page.locator(f'tr[data-match="{mid}"]')
    row.wait_for()
    row.locator('[data-action="open-match"]').click()
    second.page.wait_for_selector(f'#table-view[data-match="{mid}"]')
    second.match_id = mid
    v = second.settle()
    assert v["version"] >= played
    if v["status"] not in ("deal_over", "match_over"):
        after = second.act(v, person_action(v))
        assert after["version"] > v["version"]

    # The sessions, then sign out everywhere.
    second.home()
    menu = second.account_menu()
    sessions = menu.locator('[data-role="sessions"] li')
    sessions.nth(1).wait_for()
    assert sessions.count() == 2
    assert menu.locator('[data-role="sessions"] li[data-current="true"]').count() == 1
    assert "null" not in menu.inner_text() and "undefined" not in menu.inner_text()
    with second.page.expect_navigation():
        menu.locator('[data-action="sign-out-everywhere"]').click()
    second.page.wait_for_selector('[data-role="account-summary"][data-signed-in="false"]')
    assert first.me()["account"] is None  # the first browser's next request is a guest's
    first.home()
    first.page.wait_for_selector('[data-role="account-summary"][data-signed-in="false"]')
    assert first.page.locator(f'tr[data-match="{mid}"]').count() == 0


def test_the_menu_opened_before_the_page_knows_who_it_is_still_lists_the_sessions(
    open_table: Any,
) -> None:
    # A quick click: the menu opened while /api/me was on its way found no one to ask for the
    # sessions, and said "…" for good.
    table = open_table()
    table.home()
    api = table.context.request
    assert api.post(f"{table.base}/api/account", data={"name": NAME, "password": PASSWORD}).ok
    held: list[Any] = []
    table.page.route("**/api/me", lambda route: held.append(route))
    table.page.goto(f"{table.base}/")
    table.page.locator('[data-role="account-summary"]').click()
    table.wait_until(lambda: held)  # Playwright hands the handler the request
    assert len(held) == 1
    held[0].continue_()
    table.page.locator('[data-role="account-menu"] [data-role="sessions"] li').wait_for()
