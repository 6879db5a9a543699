"""Seats follow their person (issue 29, "link a device") in a real Chromium: a signed-in person
at a friends' table mid-deal shows a one-time code in the account menu; a second browser context
types it into "Link this device", opens the match, sees the person's hand and plays their turn.
Its live socket follows the table (the friend's card reaches it unasked) and the first context
sees the card it played."""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote

import pytest
from pagedriver import CHROMIUM, Table, person_action, settled

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason=f"{CHROMIUM} is absent (apt-get install chromium)"
    ),
    pytest.mark.app_options(computer_pause=0),
]

NAME, PASSWORD = "Sacha", "a long enough secret"


def friends_table(me: Table, friend: Table) -> str:
    """``me`` makes a table with a friend at North; ``friend`` sits there."""
    url = me.new_friends_match((2,))[2]
    mid = me.match_id
    assert mid
    friend.page.goto(url)
    friend.page.locator('[data-action="sit"]').click()
    friend.page.wait_for_selector(f'#table-view[data-match="{mid}"]')
    friend.match_id = mid
    return mid


def test_a_linked_browser_takes_the_persons_seat_mid_deal_and_its_socket_follows(
    open_table: Any,
) -> None:
    me: Table = open_table()
    r = me.context.request.post(f"{me.base}/api/account", data={"name": NAME, "password": PASSWORD})
    assert r.status == 201, r.text()
    friend: Table = open_table()
    mid = friends_table(me, friend)

    # Mid-deal: the auction (and any discard) over, cards played, South (me) to play.
    tables = {0: me, 2: friend}
    views = settled(tables)
    while not (
        views[0]["status"] == "your_turn"
        and views[0]["observation"]["phase"] == "play"
        and len(views[0]["observation"]["hand"]) < 18
    ):
        assert views[0]["status"] not in ("deal_over", "match_over")
        mover = next(s for s, v in views.items() if v["status"] == "your_turn")
        tables[mover].act(views[mover], person_action(views[mover]))
        views = settled(tables)
    hand = views[0]["observation"]["hand"]

    # The first browser shows a code, its link and the QR code, at the server's address.
    menu = me.account_menu()
    menu.locator('[data-action="link-new"]').click()
    code = menu.locator('[data-role="link-code"]').inner_text()
    assert len(code) == 11 and code[5] == "-"
    url = menu.locator('[data-role="link-url"]').get_attribute("href")
    assert url and url.startswith(f"{me.base}/link#")
    qr = menu.locator('[data-role="link-qr"]')
    assert "<svg" in unquote(qr.get_attribute("src") or "")
    assert qr.evaluate("img => img.complete && img.naturalWidth > 0")
    assert "Expires in" in menu.locator('[data-role="link-countdown"]').inner_text()

    # A new browser types it in; a wrong code first says so, in words.
    second: Table = open_table()
    second.home()
    guest = second.account_menu()
    box = guest.locator('[data-role="link-form"]')
    box.locator('input[name="code"]').fill("00000-00000")
    box.locator('[type="submit"]').click()
    error = box.locator('[data-role="account-error"]')
    error.wait_for()
    assert error.inner_text() == "This code or link is not known. Check it, or ask for a new one."
    box.locator('input[name="code"]').fill(code.lower())
    with second.page.expect_navigation():
        box.locator('[type="submit"]').click()
    second.page.wait_for_selector('[data-role="account-summary"][data-signed-in="true"]')
    assert second.page.inner_text('[data-role="account-summary"]') == NAME

    # The first browser's panel sees the code used, and lists the new session.
    used = menu.locator('[data-role="link-state"][data-state="used"]')
    used.wait_for()
    assert used.inner_text() == "A device was signed in with this code."
    menu.locator('[data-role="sessions"] li').nth(1).wait_for()

    # The second browser opens the match: the person's own hand, and their turn.
    frames: list[str] = []
    second.page.on(
        "websocket",
        lambda ws: (
            ws.on("framereceived", lambda f: frames.append(ws.url))
            if f"/api/matches/{mid}/live" in ws.url
            else None
        ),
    )
    row = second.page.locator(f'tr[data-match="{mid}"]')
    row.wait_for()
    row.locator('[data-action="open-match"]').click()
    second.page.wait_for_selector(f'#table-view[data-match="{mid}"]')
    second.match_id = mid
    v = second.settle()
    assert v["status"] == "your_turn" and v["observation"]["seat"] == 0
    assert sorted(second.hand()) == sorted(hand) == sorted(v["observation"]["hand"])
    card = person_action(v)
    after = second.act(v, card)
    assert card not in after["observation"]["hand"]
    # The first browser, at the same seat, sees the card played (its socket, unasked).
    me.page.wait_for_selector(f'#table-view:not([data-version="{v["version"]}"])', state="attached")
    assert me.page.locator(f'#hand [data-card="{card}"]').count() == 0

    # The friend's next card (the second browser plays on for the person until then) reaches
    # the second browser over its live socket, without the page asking.
    tables = {0: second, 2: friend}
    views = settled(tables)
    while views[2]["status"] != "your_turn":
        assert views[0]["status"] == "your_turn", views[0]["status"]
        second.act(views[0], person_action(views[0]))
        views = settled(tables)
    before, heard = views[2]["version"], len(frames)
    assert heard > 0  # the second browser's live socket of this match is open
    friend.act(views[2], person_action(views[2]))
    second.page.wait_for_selector(f'#table-view:not([data-version="{before}"])', state="attached")
    views = settled(tables)
    assert views[0]["version"] > before and len(frames) > heard
    assert sorted(second.hand()) == sorted(views[0]["observation"]["hand"])


def test_the_link_asks_before_it_signs_in_and_works_once(open_table: Any) -> None:
    me: Table = open_table()
    r = me.context.request.post(f"{me.base}/api/account", data={"name": NAME, "password": PASSWORD})
    assert r.status == 201, r.text()
    me.home()
    menu = me.account_menu()
    menu.locator('[data-action="link-new"]').click()
    url = menu.locator('[data-role="link-url"]').get_attribute("href")
    assert url

    def me_of(table: Table) -> Any:
        return table.context.request.get(f"{table.base}/api/me").json()["account"]

    new: Table = open_table()
    new.page.goto(url)
    confirm = new.page.locator('[data-action="link-confirm"]')
    confirm.wait_for()
    assert me_of(new) is None  # opening the link signed nothing in
    with new.page.expect_navigation():
        confirm.click()
    new.page.wait_for_selector('[data-role="account-summary"][data-signed-in="true"]')
    assert me_of(new) == {"name": NAME}
    menu.locator('[data-role="link-state"][data-state="used"]').wait_for()

    # Opened again elsewhere, it is spent: the page says so in the page's language.
    late: Table = open_table(locale="fr-FR")
    late.page.goto(url)
    late.page.locator('[data-action="link-confirm"]').click()
    error = late.page.locator('[data-role="account-error"]')
    error.wait_for()
    assert error.inner_text() == "Ce code ou ce lien a déjà servi. Demandez-en un nouveau."
    assert me_of(late) is None
