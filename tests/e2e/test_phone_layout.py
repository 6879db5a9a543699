"""Layout at phone width (390 CSS px), from the acceptance review of issue 11: boxes that must not
overlap and text that must stay readable, measured in a real Chromium."""

from __future__ import annotations

from typing import Any

import pytest
from pagedriver import CHROMIUM, Table

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason=f"{CHROMIUM} is absent (apt-get install chromium)"
    ),
]

PHONE = {"width": 390, "height": 844}
Box = dict[str, float]


def boxes(page: Any, selector: str) -> list[Box]:
    return list(
        page.locator(selector).evaluate_all(
            "els => els.map(e => { const r = e.getBoundingClientRect();"
            " return {x: r.left, y: r.top, r: r.right, b: r.bottom}; })"
        )
    )


def overlap(a: Box, b: Box) -> bool:
    # A pixel of shared border is not an overlap.
    return (
        min(a["r"], b["r"]) - max(a["x"], b["x"]) > 1
        and min(a["b"], b["b"]) - max(a["y"], b["y"]) > 1
    )


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_the_previous_trick_window_at_phone_width_keeps_cards_names_and_button_apart(
    open_table: Any, locale: str
) -> None:
    table: Table = open_table(viewport=PHONE, locale=locale)
    table.home()
    table.new_match(deals=2, seed=7)
    table.play_until(lambda v: len(v["observation"]["tricks"]) >= 1)
    page = table.page
    page.keyboard.press("p")
    page.wait_for_selector("#prev-trick:not([hidden]) [data-role=played-by]")
    parts = {
        "card": boxes(page, "#prev-trick [data-role=trick] .card"),
        "name": boxes(page, "#prev-trick [data-role=played-by]"),
        "button": boxes(page, "#prev-trick [data-action=close-prev]"),
    }
    assert [len(parts[k]) for k in ("card", "name", "button")] == [4, 4, 1]
    named = [(k, i, b) for k, bs in parts.items() for i, b in enumerate(bs)]
    clashes = [
        (k1, i1, k2, i2)
        for n, (k1, i1, b1) in enumerate(named)
        for k2, i2, b2 in named[n + 1 :]
        if overlap(b1, b2)
    ]
    assert not clashes, clashes
    assert all(b["x"] >= 0 and b["r"] <= PHONE["width"] for _, _, b in named)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


CHART_TEXT = """() => [...document.querySelectorAll('[data-role="points-chart"] text')].map((t) => {
  const r = t.getBoundingClientRect();
  const chart = t.ownerSVGElement.getBoundingClientRect();
  return { text: t.textContent, px: parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a,
    inside: r.left >= chart.left - 1 && r.right <= chart.right + 1 };
})"""


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_the_history_charts_words_are_readable_at_phone_width(open_table: Any, locale: str) -> None:
    from test_table_history import finished_match

    table: Table = open_table(viewport=PHONE, locale=locale)
    table.home()
    finished_match(table, 41)
    page = table.page
    page.click('[data-role="history-link"]')
    page.wait_for_selector('[data-role="points-chart"] rect.bar')
    words = page.evaluate(CHART_TEXT)
    assert len(words) >= 2  # the scale: zero and at least one other value
    caption = page.locator('[data-role="chart-caption"]')
    assert "deals" in caption.inner_text() or "手" in caption.inner_text()
    assert float(caption.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) >= 11
    small = [w for w in words if w["px"] < 10.8]
    assert not small, small
    assert all(w["inside"] for w in words), words
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
