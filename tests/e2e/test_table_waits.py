"""The page learns a computer player's move when it is ready (issue 10): the server holds a step
for a short while and answers 202 while the expert still thinks; the page asks again until the
decision comes, then draws it. Real Chromium, real server, the expert thinking a while (a close
call, which its early stop does not cut short)."""

from __future__ import annotations

from typing import Any

import pytest
from pagedriver import CHROMIUM, Table

from test_web_cancel import CLOSE_SEED

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason=f"{CHROMIUM} is absent (apt-get install chromium)"
    ),
    # Steps held 50 ms at most, so that an expert's close call (about a second) is answered 202
    # many times.
    pytest.mark.app_options(step_wait=0.05),
]


def test_the_page_asks_again_after_a_202_and_draws_the_decision_once_made(
    open_table: Any,
) -> None:
    table: Table = open_table()
    steps: list[int] = []
    table.page.on("response", lambda r: steps.append(r.status) if r.url.endswith("/step") else None)
    table.home()
    table.new_match(deals=2, level="expert", seed=CLOSE_SEED)
    v = table.settle()  # the page stepped the computer players until the person's turn
    assert v["status"] == "your_turn" and v["observation"]["phase"] == "bidding"
    calls = v["observation"]["bids"]  # every call so far, a pass included
    assert v["version"] == len(calls) >= 1
    assert steps.count(202) > 0  # still thinking: asked again
    assert steps.count(200) == v["version"]  # each decision drawn once made
    assert set(steps) <= {200, 202}
    assert table.page.locator("[data-call]").count() == len(calls)
