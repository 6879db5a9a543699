"""At a table with friends in a real Chromium (issue 18, "At the table"): the coach's hints
where the creator allowed them and no undo, everyone's names in the breakdown and the score
sheet."""

from __future__ import annotations

from typing import Any

import pytest
from pagedriver import CHROMIUM, Table, person_action, settled

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason=f"{CHROMIUM} is absent (apt-get install chromium)"
    ),
    pytest.mark.app_options(computer_pause=0, coach_worlds=6),
]


def make_table(open_table: Any, *, hints: bool, friend_name: str = "Léa") -> dict[int, Table]:
    """Marc makes a table (East a friend, the others computer players of the random level),
    with or without hints; Léa sits at East by the invitation link."""
    me = open_table()
    url = me.new_friends_match((1,), name="Marc", hints=hints)[1]
    friend = open_table()
    friend.page.goto(url)
    friend.page.locator('[data-role="name-input"]').fill(friend_name)
    friend.page.locator('[data-action="sit"]').click()
    friend.page.wait_for_selector("#table-view[data-match]")
    friend.match_id = me.match_id
    return {0: me, 1: friend}


def test_hints_allowed_by_the_creator_no_undo_and_everyones_names_after_the_deal(
    open_table: Any, server: str
) -> None:
    tables = make_table(open_table, hints=True)
    views = settled(tables)
    assert all(v["hints"] and not v["undo"] for v in views.values())
    asked = set()
    while views[0]["status"] not in ("deal_over", "match_over"):
        mover = next(s for s, v in views.items() if v["status"] == "your_turn")
        page = tables[mover].page
        # The hint is offered at the person's turn, undo never, and no learning switch.
        assert page.locator('[data-action="hint"]').is_enabled()
        assert page.locator('[data-action="undo"]').count() == 0
        assert page.locator('[data-role="learning-tool"]').is_hidden()
        waiting = tables[1 - mover].page
        assert waiting.locator('[data-action="undo"]').count() == 0
        if mover not in asked:
            page.locator('[data-action="hint"]').click()
            advice = page.locator('[data-role="hint"]')
            advice.wait_for()
            assert advice.get_attribute("data-best")
            asked.add(mover)
        tables[mover].act(views[mover], person_action(views[mover]))
        views = settled(tables)
    assert asked == {0, 1}
    for seat, t in tables.items():
        t.page.wait_for_selector("#deal-over:not([hidden])")
        expected = ["Marc (South)", "Léa (East)", "Dicey (North)", "Chance (West)"]
        heads = t.page.locator('#sheet [data-role="score-sheet"] thead th[data-seat]')
        assert heads.all_inner_texts() == expected
        marks = t.page.locator('#deal-over [data-role="marks"] th')
        assert marks.all_inner_texts() == expected
        r = views[seat]["observation"]["result"]
        breakdown = t.page.locator('#deal-over [data-role="breakdown"]').inner_text()
        if not r["void"]:
            assert expected[r["declarer"]] in breakdown
        # The analysis tab is there: each page shows its own person's decisions.
        t.page.locator('#deal-over [data-tab="analysis"]').click()
        t.page.wait_for_selector('#deal-over [data-role="analysis-total"]', timeout=120_000)


def test_without_hints_a_table_with_friends_offers_no_coach(open_table: Any, server: str) -> None:
    tables = make_table(open_table, hints=False, friend_name="Zoé")
    views = settled(tables)
    mover = next(s for s, v in views.items() if v["status"] == "your_turn")
    page = tables[mover].page
    page.wait_for_selector('[data-role="prompt"]')
    assert page.locator('[data-action="hint"]').count() == 0
    assert page.locator('[data-action="undo"]').count() == 0
    # The names at the table: each sees the other's.
    assert "Zoé" in tables[0].page.locator("#seat-1").inner_text()
    assert "Marc" in tables[1].page.locator("#seat-0").inner_text()


def test_who_is_connected_whose_turn_and_phrases_on_each_screen(
    open_table: Any, server: str
) -> None:
    me = open_table()
    url = me.new_friends_match((2,), name="Marc")[2]
    # While the table waits, the creator is connected and the friend's seat is open.
    me.page.wait_for_selector('#seat-0 [data-role="presence"][data-connected="true"]')
    friend = open_table(locale="fr-FR")
    friend.page.goto(url)
    friend.page.locator('[data-role="name-input"]').fill("Zoé")
    friend.page.locator('[data-action="sit"]').click()
    friend.page.wait_for_selector("#table-view[data-match]")
    friend.match_id = me.match_id
    tables = {0: me, 2: friend}

    def marker(t: Table, seat: int, on: bool) -> None:
        t.page.wait_for_selector(
            f'#seat-{seat} [data-role="presence"][data-connected="{str(on).lower()}"]'
        )

    for t in tables.values():
        marker(t, 0, True)
        marker(t, 2, True)
        # Computer players have no marker.
        assert t.page.locator('#seat-1 [data-role="presence"]').count() == 0
    # The friend's page goes away, then comes back: the creator's screen follows.
    friend.page.close()
    marker(me, 2, False)
    friend.page = friend.new_page()
    friend.page.goto(f"{server}/#/match/{me.match_id}")
    marker(me, 2, True)
    marker(friend, 0, True)

    # Whose turn: the other person's screen marks the mover's seat.
    views = settled(tables)
    while not any(v["status"] == "your_turn" for v in views.values()):
        views = settled(tables)
    mover = next(s for s, v in views.items() if v["status"] == "your_turn")
    watcher = 2 - mover
    tables[watcher].page.wait_for_selector(f'#seat-{mover} [data-role="their-turn"]')
    assert tables[watcher].page.locator('[data-role="their-turn"]').count() == 1
    assert tables[mover].page.locator('[data-role="their-turn"]').count() == 0

    # A phrase: said by one, shown by their seat on both screens, each in its own language.
    me.page.locator('[data-role="phrases"] [data-phrase="well_played"]').click()
    said = '#seat-0 [data-role="said"][data-phrase="well_played"]'
    assert friend.page.locator(said).inner_text() == "Bien joué\u202f!"
    assert me.page.locator(said).inner_text() == "Well played!"
    friend.page.locator('[data-role="phrases"] [data-phrase="thanks"]').click()
    me.page.wait_for_selector('#seat-2 [data-role="said"][data-phrase="thanks"]')
    # Shown briefly, then gone.
    me.page.wait_for_selector(said, state="detached")
    # Too many at once: the page says to wait, in its language.
    for _ in range(5):
        friend.page.locator('[data-role="phrases"] [data-phrase="oops"]').click()
    friend.page.wait_for_selector("#toast:not([hidden])")
    assert "Pas si vite" in friend.page.inner_text("#toast")
