"""Card faces (issue 11): in a fanned hand, at desktop and phone width, every card's corner (a
trump's number, the Excuse's name) lies in the strip its neighbour leaves visible and is large
enough to read; the four-colour deck gives each suit its own colour. In a real Chromium."""

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

HAND = ["T1", "T7", "T18", "T21", "EX", "SK", "S10", "HQ", "H1", "DC", "D7", "CJ", "C9"]

FAN = """async (names) => {
  const { cardButton } = await import("/static/js/cards.js");
  const hand = document.createElement("div");
  hand.className = "hand";
  document.getElementById("app").prepend(hand);
  for (const n of names) hand.append(cardButton(n));
  const cards = [...hand.children];
  return cards.slice(0, -1).map((card, i) => {
    const corner = card.querySelector(".idx");
    const next = cards[i + 1].getBoundingClientRect();
    const box = corner.getBoundingClientRect();
    const text = card.querySelector(".trump-num, .idx-rank, .idx-word");
    return {
      card: card.dataset.card,
      visible: box.right <= next.left + 0.5 && box.width > 0,
      size: text ? parseFloat(getComputedStyle(text).fontSize) : null,
      word: card.querySelector(".idx-word")?.textContent ?? null,
    };
  });
}"""


@pytest.mark.parametrize("width", [1280, 390])
def test_a_fanned_hand_shows_each_cards_corner_legibly(open_table: Any, width: int) -> None:
    table: Table = open_table(viewport={"width": width, "height": 844})
    table.home()
    corners = table.page.evaluate(FAN, HAND)
    for c in corners:
        assert c["visible"], c
        if c["card"].startswith("T"):
            assert c["size"] >= 14, c  # a trump's number
        elif c["card"] != "EX":
            assert c["size"] >= 11, c
    excuse = next(c for c in corners if c["card"] == "EX")
    assert excuse["word"] == "Excuse"


def test_the_four_colour_deck_gives_each_suit_its_colour(open_table: Any) -> None:
    table: Table = open_table()
    table.home()
    page = table.page
    page.evaluate(FAN, ["SK", "HK", "DK", "CK"])
    colour = "s => getComputedStyle(document.querySelector(`.hand [data-card='${s}']`)).color"
    two = [page.evaluate(colour, s) for s in ("SK", "HK", "DK", "CK")]
    assert len(set(two)) == 2  # black and red
    page.click('[data-role="settings"] summary')
    page.check('[data-role="four-colour"]')
    four = [page.evaluate(colour, s) for s in ("SK", "HK", "DK", "CK")]
    assert len(set(four)) == 4 and four[:2] == two[:2]
    # Remembered: a new visit shows the same deck.
    page.reload()
    assert page.evaluate("document.body.classList.contains('four-colour')")
