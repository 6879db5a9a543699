"""The history page (issue 11) after two finished matches, in a real Chromium: what it says is
the server's /api/history, the chart draws every scored deal, and a past match is reviewed deal by
deal with each deal's breakdown and marks."""

from __future__ import annotations

from typing import Any

import pytest
from pagedriver import CHROMIUM, Table, View, person_action

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason=f"{CHROMIUM} is absent (apt-get install chromium)"
    ),
]


def finished_match(table: Table, seed: int) -> str:
    """A 2-deal match played to its end through the API, with the page's cookie."""
    req = table.context.request

    def post(path: str, body: dict[str, Any]) -> View:
        r = req.post(f"{table.base}{path}", data=body)
        assert r.ok, r.text()
        out: View = r.json()
        return out

    v = post("/api/matches", {"deals": 2, "level": "random", "seed": seed})
    mid = v["id"]
    while v["status"] != "match_over":
        base = f"/api/matches/{mid}"
        if v["status"] == "computer_turn":
            v = post(f"{base}/step", {"version": v["version"]})
        elif v["status"] == "deal_over":
            v = post(f"{base}/next-deal", {"version": v["version"]})
        else:
            v = post(f"{base}/actions", {"version": v["version"], "action": person_action(v)})
    return str(mid)


def test_the_history_page_after_two_matches_and_a_past_match_deal_by_deal(
    open_table: Any,
) -> None:
    table: Table = open_table()
    table.home()
    ids = [finished_match(table, seed) for seed in (41, 42)]
    history = table.context.request.get(f"{table.base}/api/history").json()
    page = table.page
    page.click('[data-role="history-link"]')
    page.wait_for_selector('[data-role="history"]')
    stat = lambda role: page.inner_text(f'[data-role="{role}"] .value')  # noqa: E731
    assert stat("matches-played") == "2"
    assert stat("matches-won").startswith(str(history["matches"]["won"]))
    assert stat("deals-scored") == str(len(history["deals"]))
    for contract, n in history["contracts"].items():
        row = page.locator(f'[data-role="contracts"] tr[data-contract="{contract}"]')
        assert row.locator('[data-role="taken"]').inner_text() == str(n["taken"])
        assert row.locator('[data-role="made"]').inner_text() == str(n["made"])
    bars = page.locator('[data-role="points-chart"] rect.bar')
    scores = [int(b.get_attribute("data-score") or 0) for b in bars.all()]
    assert scores == [d["score"] for d in history["deals"]] and len(scores) >= 4
    pab = history["petit_au_bout"]
    assert page.inner_text('[data-role="pab"]') == (
        f"Petit au bout: won {pab['won']}, lost {pab['lost']}"
    )
    # A past match, deal by deal.
    page.click(f'tr[data-match="{ids[0]}"] [data-action="review-match"]')
    past = page.locator(f'[data-role="past-match"][data-match="{ids[0]}"]')
    past.wait_for()
    view = table.context.request.get(f"{table.base}/api/matches/{ids[0]}").json()
    scored = [row for row in view["sheet"] if row["void"] is None]
    for row in scored:
        past.locator(f'[data-deal="{row["deal"]}"]').click()
        page.wait_for_selector(
            f'[data-role="past-match"] [data-deal="{row["deal"]}"][aria-selected="true"]'
        )
        marks = page.locator('[data-role="past-match"] [data-role="marks"] td').all_inner_texts()
        assert [int(m.replace("−", "-")) for m in marks] == row["scores"]
        assert page.locator('[data-role="past-match"] [data-role="breakdown"] li').count() >= 5
        assert page.locator('[data-role="past-match"] [data-role="review"]').count() == 1
        # Nothing to play here: a past deal is only read.
        assert page.locator('[data-role="past-match"] [data-action="next-deal"]').count() == 0
    # At phone width, a past deal and the history page fit the screen.
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.click('[data-action="back-history"]')
    page.wait_for_selector('[data-role="history"]')
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.set_viewport_size({"width": 1280, "height": 900})
    # In French, the same page in French.
    page.select_option('[data-role="lang"]', "fr")
    page.wait_for_function(
        "() => document.querySelector('[data-role=\"history\"] h1')?.textContent === 'Mon jeu'"
    )
    won, played = history["matches"]["won"], 2
    share = f"{won} ({round(100 * won / played)}\u00a0%)"
    assert stat("matches-won") == share
    # In Chinese, full-width brackets and no space before the per cent sign.
    page.select_option('[data-role="lang"]', "zh")
    page.wait_for_function(
        "() => document.querySelector('[data-role=\"history\"] h1')?.textContent === '我的战绩'"
    )
    assert stat("matches-won") == f"{won}（{round(100 * won / played)}%）"
    rates = page.locator('[data-role="contracts"] td.num:nth-child(4)').all_inner_texts()
    assert rates and all(r == "–" or (r.endswith("%") and " " not in r) for r in rates), rates
