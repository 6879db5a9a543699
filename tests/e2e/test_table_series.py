"""The deals of the day in the browser (issue 30; docs/duplicate.md): two people play the same
daily series in two contexts and see the same deals and the same par; the later one sees the
ranking with the other's score; a third who has not played sees no ranking (409). And a deal of
the week's series (imposed taker) played as a defender."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from pagedriver import Table, person_action

from oudler.core.duplicate import series_bot_seed
from oudler.tables.series import LEVEL_ENV, imposed_boards, series_key
from oudler.tables.series_rows import SERIES_SECRET
from oudler.tables.store import SettingRow, Store


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
    page.click('[data-kind="daily"] [data-action="series-play"]')
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


def defending_secret(key: str) -> bytes:
    """A series secret whose weekly series ``key`` starts with a board that South defends."""
    for i in range(100):
        secret = f"e2e-defends-{i}".encode()
        _boards, cases = imposed_boards(secret, key, 1, "club", series_bot_seed(secret, key))
        if cases[0][0] != 0:
            return secret
    raise AssertionError("no secret found")  # pragma: no cover


def test_a_weekly_deal_played_as_a_defender(
    open_table: Any, database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(LEVEL_ENV, "club")
    key, _monday = series_key("weekly", dt.datetime.now(dt.UTC).date())
    # The server's secret, set before it makes any series: the week's first board is defended.
    secret = defending_secret(key)
    store = Store(database_url)
    with store.writing() as s:
        s.add(SettingRow(name=SERIES_SECRET, value=secret.hex()))
    store.close()

    table = open_table()
    table.home()
    page = table.page
    line = page.wait_for_selector('[data-kind="weekly"]')
    assert line.inner_text().startswith("The deals of the week")
    assert "imposed taker" in line.inner_text()
    page.click('[data-kind="weekly"] [data-action="series-play"]')
    page.wait_for_selector("#table-view[data-match]")
    table.match_id = page.get_attribute("#table-view", "data-match")
    # Said from the deal's start (before any card), and kept while it is played.
    case = page.wait_for_selector('[data-role="series-case"]')
    v = table.view()
    declarer, contract = v["series"]["case"]["declarer"], v["series"]["case"]["contract"]
    assert declarer != 0 and v["observation"]["declarer"] == declarer
    seat = ["South", "East", "North", "West"][declarer]
    words = {"prise": "Prise", "garde": "Garde", "garde_sans": "Garde sans"}
    words["garde_contre"] = "Garde contre"
    assert case.inner_text() == f"You defend against {seat}'s {words[contract]}"
    assert page.inner_text('[data-role="series-banner"]') == "The deals of the week"
    # No bidding is offered: the deal starts after it.
    assert page.query_selector("[data-bid]") is None
    v = table.settle()
    assert v["observation"]["bids"].count("pass") == 3
    while v["status"] != "deal_over":
        assert page.inner_text('[data-role="series-case"]').startswith("You defend against")
        v = table.act(v, person_action(v))
    you, par = v["sheet"][-1]["scores"][0], v["series"]["par"][0]
    line_text = page.inner_text('[data-role="series-par"]')
    assert line_text == f"You scored {signed(you)}; the computer in your seat scored {signed(par)}."
    assert v["sheet"][-1]["declarer"] == declarer
