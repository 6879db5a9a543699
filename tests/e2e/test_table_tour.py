"""The guided first deal (issue 11): on for a first visit, each step shown when the table reaches
it (the bid, the dog, the discard, following and trumping, a refused card, the trick, the score),
skippable, and reopened from the top bar. In a real Chromium against the real server."""

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


def step_shown(table: Table) -> str | None:
    box = table.page.locator('[data-role="tour"]')
    return box.get_attribute("data-step") if box.is_visible() else None


def read_steps(table: Table, seen: list[str]) -> None:
    """Reads every step the table shows now, pressing "Got it" after each."""
    while (step := step_shown(table)) is not None:
        text = table.page.inner_text('[data-role="tour"]')
        assert len(text) > 80, text
        seen.append(step)
        table.page.click('[data-action="tour-next"]')


def test_the_guide_walks_a_first_deal_can_be_skipped_and_reopened(open_table: Any) -> None:
    table: Table = open_table()
    table.home()
    page = table.page
    assert page.locator(".tour-offer").is_visible()
    table.new_match(deals=2, seed=7)
    seen: list[str] = []
    v: View = table.settle()
    # Through the deal until a card of the hand is refused, reading each step as it comes.
    while True:
        read_steps(table, seen)
        if v["status"] == "your_turn" and v["observation"]["phase"] == "play" and v["reasons"]:
            break
        assert v["status"] != "match_over", "no card was ever refused"
        if v["status"] == "deal_over":
            page.click('[data-action="hide-result"]')
            read_steps(table, seen)
            page.click('[data-action="show-result"]')
            page.click('[data-action="next-deal"]')
            table.after(v["version"])
            v = table.settle()
            continue
        v = table.act(v, person_action(v))
    assert seen[0] == "bid" and "play" in seen
    assert seen == sorted(seen, key=["bid", "dog", "discard", "play", "trick", "end"].index)
    # A refused card: the guide says why cards are refused.
    table.click_card(sorted(v["reasons"])[0], force=True)
    assert step_shown(table) == "refused"
    # Skipped, it stays away, also after a reload.
    page.click('[data-action="tour-skip"]')
    assert step_shown(table) is None
    page.reload()
    table.drawn(v["version"])
    assert step_shown(table) is None
    # Reopened from the top bar, it starts again where the table is.
    page.click('[data-action="tour"]')
    assert step_shown(table) == "play"


def test_the_guide_speaks_the_pages_language(open_table: Any) -> None:
    table: Table = open_table(locale="zh-CN")
    table.home()
    table.new_match(deals=2, seed=7)
    table.settle()
    box = table.page.locator('[data-role="tour"]')
    assert box.get_attribute("data-step") == "bid"
    assert "叫牌" in box.inner_text()
