"""Tables with friends in a real Chromium (issue 18): one person makes a table with a friend's
seat, the friend opens the invitation link in another browser context and sits, and both play a
deal to its end, each page showing only its own hand and following the other's play live."""

from __future__ import annotations

from typing import Any

import pytest
from pagedriver import CHROMIUM, person_action, settled

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason=f"{CHROMIUM} is absent (apt-get install chromium)"
    ),
    # The computer players at full speed (a table with people drives them).
    pytest.mark.app_options(computer_pause=0),
]


def test_two_friends_play_a_deal_each_seeing_only_their_own_hand(
    open_table: Any, server: str
) -> None:
    me = open_table()
    # The table waits: who is there, and the link to send.
    url = me.new_friends_match((2,))[2]
    assert "/join/" in url
    kinds = me.page.locator('[data-role="waiting-seats"] li').evaluate_all(
        "items => items.map(i => i.dataset.kind)"
    )
    assert kinds == ["person", "computer", "open", "computer"]

    friend = open_table()
    friend.page.goto(url)
    sit = friend.page.locator('[data-action="sit"]')
    assert "North" in sit.inner_text()
    shown = friend.page.locator('[data-role="join-seats"] li').evaluate_all(
        "items => items.map(i => i.dataset.kind)"
    )
    assert shown == ["person", "computer", "open", "computer"]
    sit.click()
    friend.page.wait_for_selector("#table-view[data-match]")
    friend.match_id = friend.page.get_attribute("#table-view", "data-match")
    assert friend.match_id == me.match_id
    # The friend's own seat is drawn at the bottom of their screen, the creator's across.
    assert friend.page.get_attribute(".seat.seat-south", "id") == "seat-2"
    assert friend.page.get_attribute(".seat.seat-north", "id") == "seat-0"
    assert me.page.get_attribute(".seat.seat-south", "id") == "seat-0"

    tables = {0: me, 2: friend}
    views = settled(tables)
    while views[0]["status"] not in ("deal_over", "match_over"):
        for seat, t in tables.items():
            # Each page shows its own hand, and only that.
            assert sorted(t.hand()) == sorted(views[seat]["observation"]["hand"])
        mover = next(s for s, v in views.items() if v["status"] == "your_turn")
        other = 2 - mover
        before = views[mover]["version"]
        asked = views[mover]["observation"]["phase"] == "poignee"
        tables[mover].act(views[mover], person_action(views[mover]))
        # The other page learns of it without asking (a poignée answer is no step: the other
        # page must see nothing of it, RULES.md §11).
        if not asked:
            tables[other].page.wait_for_selector(
                f'#table-view:not([data-version="{before}"])', state="attached"
            )
        views = settled(tables)
    for seat, t in tables.items():
        t.page.wait_for_selector("#deal-over:not([hidden])")
        assert views[seat]["observation"]["seat"] == seat
    if views[0]["status"] == "match_over":
        return
    # Each closes their own breakdown (issue 28, item 17): mine closes and says whom the table
    # waits for; the friend's stays open until they close it, which starts the next deal.
    me.page.locator('#deal-over [data-action="next-deal"]').click()
    waiting = me.page.locator('[data-role="waiting-others"]')
    waiting.wait_for()
    assert "North" in waiting.inner_text()
    assert me.page.locator("#deal-over").is_hidden()
    assert friend.page.locator("#deal-over").is_visible()
    assert friend.view()["next_deal"]["ready"] == [0]
    friend.page.locator('#deal-over [data-action="next-deal"]').click()
    version = views[0]["version"]
    for t in tables.values():
        t.page.wait_for_selector(f'#table-view:not([data-version="{version}"])', state="attached")
        assert t.view()["deal_number"] == 2
