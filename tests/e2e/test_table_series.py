"""The deals of the day in the browser (issue 30; docs/duplicate.md): two people play the same
daily series in two contexts and see the same deals and the same par; the later one sees the
ranking with the other's score; a third who has not played sees no ranking (409)."""

from __future__ import annotations

from typing import Any

import pytest
from pagedriver import Table, person_action

from oudler.tables.series import LEVEL_ENV


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0"


def play_series(table: Table, name: str) -> dict[str, Any]:
    """From the home page: the person signs up, starts the deals of the day and plays them
    through the page with ``person_action``; checks the par line after each deal."""
    # Ranked play is for signed-in people: an account of that name (docs/duplicate.md).
    account = {"name": name, "password": "correct horse battery"}
    r = table.context.request.post(f"{table.base}/api/account", data=account)
    assert r.ok, r.text()
    table.home()
    page = table.page
    page.click('[data-action="series-play"]')
    page.wait_for_selector("#table-view[data-match]")
    table.match_id = page.get_attribute("#table-view", "data-match")
    assert page.inner_text('[data-role="series-banner"]') == "The deals of the day"
    v = table.settle()
    while v["status"] != "match_over":
        if v["status"] == "deal_over":
            board = len(v["sheet"])
            line = page.inner_text('[data-role="series-par"]')
            you, par = v["sheet"][-1]["scores"][0], v["series"]["par"][board - 1]
            assert (
                line == f"You scored {signed(you)}; the computer in your seat scored {signed(par)}."
            )
            assert page.query_selector('[data-action="replay-deal"]') is None
            page.click('[data-action="next-deal"]')
            table.after(v["version"])
            v = table.settle()
        else:
            v = table.act(v, person_action(v))
    page.wait_for_selector('[data-role="series-ranking"]')
    return v


def test_two_people_play_the_same_series_and_the_later_sees_the_others_score(
    open_table: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(LEVEL_ENV, "club")  # the mechanics; the real level costs minutes
    anne = open_table()
    first = play_series(anne, "Anne")
    ben = open_table()
    second = play_series(ben, "Ben")
    # The same boards: every deal's hands and dog, and the same par.
    deals = [(d["hands"], d["dog"]) for d in anne.record()["deals"]]
    assert deals == [(d["hands"], d["dog"]) for d in ben.record()["deals"]]
    assert first["series"]["par"] == second["series"]["par"]
    assert first["series"]["id"] == second["series"]["id"]

    rows = ben.page.query_selector_all('[data-role="series-ranking"] tbody tr')
    texts = [r.inner_text() for r in rows]
    assert any(t.split("\t")[1] == "Anne" for t in texts), texts
    own = ben.page.inner_text('[data-role="series-own-row"]')
    assert "Ben (you)" in own
    anne_scores = [row["scores"][0] for row in first["sheet"]]
    anne_row = next(t for t in texts if "\tAnne\t" in t)
    assert anne_row.split("\t")[3:] == [signed(s) for s in anne_scores]
    par_row = ben.page.inner_text('[data-role="series-par-row"]')
    assert par_row.split("\t")[-4:] == [signed(s) for s in second["series"]["par"]]

    # Home: the result line once done.
    ben.home()
    done = ben.page.wait_for_selector('[data-role="series-result"]').inner_text()
    assert done.startswith("played: ") and done.endswith("of 2")

    # Someone who has not played: a Play button, no result, and the ranking is refused.
    carl = open_table()
    carl.home()
    carl.page.wait_for_selector('[data-action="series-play"]')
    assert carl.page.query_selector('[data-role="series-result"]') is None
    sid = first["series"]["id"]
    r = carl.context.request.get(f"{carl.base}/api/series/{sid}/ranking")
    assert r.status == 409 and r.json()["code"] == "not_finished"
