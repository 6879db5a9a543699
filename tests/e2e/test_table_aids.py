"""Table aids (issue 11), each a switch: points won by each side, cards played by suit, trumps
still out. Checked in a real Chromium against the server's view (what the person may see) and, at
the end of the deal, against the engine's count of the declarer's pile."""

from __future__ import annotations

from typing import Any

import pytest
from pagedriver import CHROMIUM, Table, View

from oudler.core import cards as C

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason=f"{CHROMIUM} is absent (apt-get install chromium)"
    ),
]


def halves(cards: list[str]) -> int:
    return C.half_points(C.mask_of(C.parse_cards(cards)))


def played(o: dict[str, Any]) -> list[str]:
    return [c for tr in o["tricks"] for c in tr["cards"]] + list(o["trick"]["cards"])


def check_aids(table: Table, v: View) -> None:
    page = table.page
    o = v["observation"]
    seen = played(o)
    # Cards played, suit by suit: as many as in the tricks everyone saw.
    for suit in "SHDCT":
        count = page.get_attribute(f'[data-role="aid-played"] [data-suit="{suit}"]', "data-count")
        assert int(count or -1) == sum(1 for c in seen if c[0] == suit), suit
    # Trumps still out: neither played, nor in the person's hand, nor shown in a discard.
    known = set(seen) | set(o["hand"]) | set(o["discard_trumps"] or []) | set(o["discard"] or [])
    out = [f"T{n}" for n in range(21, 0, -1) if f"T{n}" not in known]
    assert (page.get_attribute('[data-role="aid-trumps"]', "data-cards") or "").split() == out
    # Points won: every card of the finished tricks counted once, the Excuse's exchange included.
    points = page.locator('[data-role="aid-points"]')
    if o["tricks"] and o["declarer"] is not None:
        d = int(points.get_attribute("data-declarer") or -1)
        f = int(points.get_attribute("data-defence") or -1)
        assert d + f == halves([c for tr in o["tricks"] for c in tr["cards"]])


def test_the_aids_are_off_until_switched_on_and_agree_with_the_table(open_table: Any) -> None:
    table: Table = open_table()
    table.home()
    table.new_match(deals=2, seed=11)
    page = table.page
    table.settle()
    assert page.locator('[data-role="aids"] [data-aid]').count() == 3
    assert page.locator('[data-role^="aid-"]').count() == 0
    for aid in ("points", "played", "trumps"):
        page.check(f'[data-aid="{aid}"]')
    v = table.play_until(lambda v: len(v["observation"]["tricks"]) >= 5)
    check_aids(table, v)
    # Switched on, they stay on (kept in the browser).
    page.reload()
    table.drawn(v["version"])
    check_aids(table, v)
    v = table.play_until(lambda v: v["status"] in ("deal_over", "match_over"))
    page.click('[data-action="hide-result"]')
    o = v["observation"]
    r = o["result"]
    assert r["void"] is None, "seed 11's first deal is played (the person takes Garde)"
    check_aids(table, v)
    # At the end the declarer's tricks and discard (or the dog in a Garde sans) are the engine's
    # pile, unless the Excuse could never be exchanged (its half point is then the winner's).
    pile = int(page.get_attribute('[data-role="aid-points"]', "data-declarer") or -1)
    if r["contract"] in ("prise", "garde"):
        pile += halves(o["review"]["discard"])
    elif r["contract"] == "garde_sans":
        pile += halves(o["review"]["dog"])
    if r["contract"] != "garde_contre" and r["excuse_exchange"] != "never":
        assert pile == r["half_points"]
    page.uncheck('[data-aid="trumps"]')
    assert page.locator('[data-role="aid-trumps"]').count() == 0
