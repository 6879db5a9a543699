"""The review of a series' deal in the browser (issue 30; docs/duplicate.md, "Review"): after two
people played the deals of the day, the later one opens the review of deal 1 and sees their record
beside the other's (named) and the par's, the sentence where they part, and the coach's analysis;
someone who has not finished the series sees neither ranking nor review, and no record."""

from __future__ import annotations

from typing import Any

import pytest
from test_table_series import play_series

from oudler.tables.series import LEVEL_ENV

pytestmark = [pytest.mark.app_options(coach_worlds=6)]


def test_the_review_of_a_deal_after_the_series(
    open_table: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(LEVEL_ENV, "club")  # the mechanics; the real level costs minutes
    anne = open_table()
    first = play_series(anne, "Anne")
    ben = open_table()
    play_series(ben, "Ben")
    sid = first["series"]["id"]
    review = ben.context.request.get(f"{ben.base}/api/series/{sid}/review/1").json()

    page = ben.page
    page.click('[data-action="series-reviews"]')
    page.wait_for_selector('[data-action="series-review"][data-deal="1"]')
    page.click('[data-action="series-review"][data-deal="1"]')
    page.wait_for_selector('[data-role="review-title"]')
    assert page.inner_text('[data-role="review-title"]') == "Deal 1 of 4"
    best = page.inner_text('[data-role="review-best"]')
    assert best.startswith("The best of the others: Anne")
    assert f"Score: {signed(review['best']['score'])}" in best
    par = page.inner_text('[data-role="review-par"]')
    assert par.startswith("The computer in your seat")
    parting = page.inner_text('[data-role="review-parting"]')
    if review["parting"] is None:
        assert parting == "You played this deal exactly as they did."
    else:
        assert ": here you played " in parting and "; they played " in parting
        where = review["parting"]
        if where["kind"] == "play":
            assert parting.startswith(f"Trick {where['trick'] + 1}: ")
            marked = page.inner_text('[data-role="review-best"] li.parting')
            assert marked  # the trick where they part is marked in the other's record
    # The coach's analysis of Ben's decisions, as in learning mode (computed on demand).
    page.wait_for_selector('[data-role="analysis-total"], [data-role="analysis"] p.muted')
    page.wait_for_selector('[data-role="analysis-total"]', timeout=120_000)
    page.click('[data-action="review-next"]')
    page.wait_for_selector('[data-role="review-title"]:text-is("Deal 2 of 4")')

    # Ben's history lists the series with his rank.
    page.goto(f"{ben.base}/#/series")
    row = page.wait_for_selector('[data-role="series-history-row"]').inner_text()
    assert " of 2" in row

    # Someone who has not finished: the page says so, and nothing of a record reaches it.
    carl = open_table()
    carl.home()
    carl.page.goto(f"{carl.base}/#/series/{sid}/review/1")
    text = carl.page.wait_for_selector('[data-role="series-not-yet"]').inner_text()
    assert text == "The ranking and the reviews are shown once you have finished the series."
    r = carl.context.request.get(f"{carl.base}/api/series/{sid}/review/1")
    assert r.status == 409 and r.json()["code"] == "not_finished"


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0"
