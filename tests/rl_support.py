"""Shared pieces of the environment tests (``oudler.rl``, the ``rl`` extra).

Without the extra these tests skip with the reason below; CI sets ``OUDLER_REQUIRE_RL=1`` so that
a missing package fails instead of skipping.
"""

from __future__ import annotations

import importlib
import json
import os
import random
from types import ModuleType

import pytest

from oudler.core import Deal
from oudler.core import cards as C

SKIP_REASON = "the rl extra is not installed (pip install -c constraints.txt -e '.[test,rl]')"


def need(module: str) -> ModuleType:
    """Import ``module`` or skip the test file (under ``OUDLER_REQUIRE_RL``: fail instead)."""
    if os.environ.get("OUDLER_REQUIRE_RL"):
        return importlib.import_module(module)
    return pytest.importorskip(module, reason=SKIP_REASON)


def may_know(deal: Deal, seat: int) -> int:
    """The cards ``seat`` may know of now (RULES.md §11), as tests/test_observation.py says."""
    from test_observation import may_know as known

    return known(deal, seat)


BIT = {name: 1 << card for card, name in enumerate(C.CARD_NAMES)}


def cards_in_text(text: str) -> int:
    """Every card named in ``text`` (JSON or plain), as a mask."""
    import re

    token = re.compile(
        r"(?<![A-Z0-9])(T1[0-9]|T2[01]|T[1-9]|EX|[SHDC](?:10|[1-9]|J|C|Q|K))(?![0-9])"
    )
    m = 0
    for name in set(token.findall(text)):
        m |= BIT[name]
    return m


def cards_in_json(data: object) -> int:
    return cards_in_text(json.dumps(data))


PASS_ACTION = 78  # oudler.encoding.BID_BASE (not imported: the extra may be missing)


def random_legal(legal: list[int], rng: random.Random) -> int:
    """A random legal action id; in the bidding, pass more often than not and prefer the next bid
    up (as tests/helpers.py does), so that every contract and the all-pass deal occur."""
    if legal[0] == PASS_ACTION and len(legal) > 1:
        if rng.random() < 0.6:
            return legal[0]
        if rng.random() < 0.5:
            return legal[1]
    return legal[int(rng.random() * len(legal))]
