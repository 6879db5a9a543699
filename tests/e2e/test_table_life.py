"""Life at the table (issue 11): cards that move (and stay still under prefers-reduced-motion),
sounds off by default and made on request, computer players with a name and a picture per level,
and the home page's line on how each level plays. In a real Chromium against the real server."""

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

# Counts every Web Animation and every audio context the page makes.
COUNTERS = """
window.__animations = 0;
const animate = Element.prototype.animate;
Element.prototype.animate = function (...args) {
  window.__animations++;
  return animate.apply(this, args);
};
window.__audio = 0;
const Real = window.AudioContext;
window.AudioContext = class extends Real { constructor(...a) { super(...a); window.__audio++; } };
"""


def open_counted(open_table: Any, **options: Any) -> Table:
    table: Table = open_table(**options)
    table.context.add_init_script(COUNTERS)
    table.page.close()
    table.page = table.new_page()
    return table


def play_some_tricks(table: Table) -> None:
    table.play_until(lambda v: len(v["observation"]["tricks"]) >= 2)


def test_cards_move_when_dealt_played_and_gathered(open_table: Any) -> None:
    table = open_counted(open_table)
    table.home()
    assert table.page.get_attribute("html", "data-motion") == "full"
    table.new_match(deals=2)
    play_some_tricks(table)
    # Dealt (18 cards), played (8 at least) and gathered (4 per trick).
    assert table.page.evaluate("window.__animations") >= 18 + 8 + 4
    transition = "getComputedStyle(document.querySelector('#hand .card')).transitionDuration"
    assert table.page.evaluate(transition) != "0s"


def test_nothing_moves_with_reduced_motion(open_table: Any) -> None:
    table = open_counted(open_table, reduced_motion="reduce")
    table.home()
    assert table.page.get_attribute("html", "data-motion") == "reduced"
    table.new_match(deals=2)
    play_some_tricks(table)
    assert table.page.evaluate("window.__animations") == 0
    assert table.page.locator(".card.ghost").count() == 0
    # Nor any CSS animation or transition (the "thinking…" pulse, raised cards).
    assert table.page.evaluate("document.getAnimations().length") == 0
    transition = "getComputedStyle(document.querySelector('#hand .card')).transitionDuration"
    assert table.page.evaluate(transition) == "0s"


def test_sounds_are_off_until_switched_on_then_made_on_the_page(open_table: Any) -> None:
    table = open_counted(open_table)
    table.home()
    page = table.page
    switch = page.locator('[data-role="sound"]')
    assert not switch.is_checked()
    table.new_match(deals=2)
    table.play_until(lambda v: len(v["observation"]["tricks"]) >= 1)
    assert page.evaluate("window.__audio") == 0
    played = "async () => (await import('/static/js/sounds.js')).played.map((p) => p.kind)"
    assert page.evaluate(played) == []
    page.click('[data-role="settings"] summary')  # the switch is in the settings menu
    switch.check()
    assert page.evaluate("window.__audio") == 1
    table.play_until(lambda v: len(v["observation"]["tricks"]) >= 3)
    kinds = page.evaluate(played)
    assert "card" in kinds and "gather" in kinds
    # Remembered for the next visit.
    page.reload()
    assert page.locator('[data-role="sound"]').is_checked()


NAMES = {
    ("club", "en"): ["Marcel", "Josette", "Gaston"],
    ("novice", "zh"): ["小乐", "小佐", "小马"],
    ("random", "fr"): ["Veinard", "Hasard", "Bonne-Pioche"],
}


@pytest.mark.parametrize(("level", "lang"), list(NAMES))
def test_computer_players_have_names_and_a_picture_of_their_level(
    open_table: Any, level: str, lang: str
) -> None:
    table: Table = open_table(locale={"en": "en-GB", "zh": "zh-CN", "fr": "fr-FR"}[lang])
    table.home()
    page = table.page
    # The home page says how each level plays, each with its picture.
    lines = page.locator('[data-role="level-lines"] li')
    assert lines.count() == 4
    assert lines.locator("svg.avatar").count() == 4
    assert all(len(x) > 15 for x in lines.all_inner_texts())
    table.new_match(deals=2, level=level)
    names = [page.inner_text(f'#seat-{s} [data-role="player-name"]') for s in (1, 2, 3)]
    assert names == NAMES[(level, lang)]
    assert page.locator(".seat .seat-name svg.avatar").count() == 3
    # The same picture as the level's line on the home page (kept in the page's modules).
    same = page.evaluate(
        """async (level) => { const p = await import('/static/js/players.js');
        const seat = document.querySelector('#seat-1 svg.avatar').outerHTML;
        const box = document.createElement('div');
        box.innerHTML = p.pictureSvg(level);
        return seat === box.firstElementChild.outerHTML; }""",
        level,
    )
    assert same
    # Each level has its own picture.
    distinct = page.evaluate(
        """async () => { const p = await import('/static/js/players.js');
        return new Set(p.LEVEL_NAMES.map((l) => p.pictureSvg(l))).size; }"""
    )
    assert distinct == 4
