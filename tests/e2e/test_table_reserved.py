"""A seat kept for an account, in a real Chromium (issue 29): the creator keeps a seat of the
waiting table for Camille; Camille's browser, signed out, opens the link and is told the seat is
kept for her, signs in from the invitation page and sits there."""

from __future__ import annotations

from typing import Any

import pytest
from pagedriver import CHROMIUM

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason=f"{CHROMIUM} is absent (apt-get install chromium)"
    ),
    pytest.mark.app_options(computer_pause=0),
]

PASSWORD = "a long enough secret"


def test_a_seat_kept_for_an_account_is_taken_after_signing_in(open_table: Any, server: str) -> None:
    camille = open_table()
    camille.home()
    api = camille.context.request
    assert api.post(f"{server}/api/account", data={"name": "Camille", "password": PASSWORD}).ok
    assert api.delete(f"{server}/api/session").ok  # a guest again, in this browser

    me = open_table()
    url = me.new_friends_match((1,))[1]
    me.page.locator('[data-role="reserve-name"][data-seat="1"]').fill("camille")
    me.page.locator('[data-action="reserve-seat"][data-seat="1"]').click()
    kept = me.page.locator('[data-role="waiting-seats"] li[data-seat="1"]')
    me.page.wait_for_function(
        '() => document.querySelector(\'[data-role="waiting-seats"] li[data-seat="1"]\')'
        ".textContent.includes('kept for Camille')"
    )
    assert "kept for Camille" in kept.inner_text()
    assert me.page.locator('[data-action="unreserve-seat"][data-seat="1"]').is_visible()

    camille.page.goto(url)
    notice = camille.page.locator('[data-role="join-message"][data-code="seat_reserved"]')
    notice.wait_for()
    assert "kept for Camille" in notice.inner_text() and "sign in" in notice.inner_text()
    assert camille.page.locator('[data-action="sit"]').count() == 0
    box = camille.page.locator('[data-role="join-sign-in"]')
    assert box.locator('[data-role="sign-in-name"]').input_value() == "Camille"
    box.locator('[data-role="sign-in-password"]').fill(PASSWORD)
    box.locator('[data-action="sign-in-sit"]').click()
    sit = camille.page.locator('[data-action="sit"]')
    sit.wait_for()
    assert "East" in sit.inner_text()
    # Signed in, the name at the table is the account's: no field to choose one.
    assert camille.page.locator('[data-role="name-input"]').count() == 0
    sit.click()
    camille.page.wait_for_selector("#table-view[data-match]")
    assert camille.page.get_attribute(".seat.seat-south", "id") == "seat-1"
    assert me.view()["seats"][1]["name"] == "Camille"

    # On the home page too, the table-name field shows the account's name, locked, and says why.
    camille.home()
    field = camille.page.locator('[data-role="name-input"]')
    camille.page.wait_for_selector('[data-role="name-locked"]', state="attached")
    assert field.is_disabled() and field.input_value() == "Camille"
    note = camille.page.locator('[data-role="name-locked"]').text_content() or ""
    assert "Camille" in note and "account menu" in note
