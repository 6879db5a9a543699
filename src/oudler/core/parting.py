"""Where two records of one board part (docs/duplicate.md, "Review"): the first action that
differs between two ``tarot-deal/1`` records of the same cards and dealer.

Pure: both records are replayed by the engine (``records.Replayer``), so an action is compared as
the rules read it, in the order it was taken. In a series the computer players decide the same
wherever the tables agree so far, so the first difference is a decision of the person in South.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from oudler.core.records import Replayer, Step

KINDS = {"card": "play"}  # a record's step kind as the coach names the decision


def _decisions(record: Mapping[str, Any]) -> list[tuple[Step, int | None]]:
    """Each step of the record with its trick (cards only)."""
    out: list[tuple[Step, int | None]] = []
    cards = 0
    for step in Replayer(record):
        out.append((step, cards // 4 if step.kind == "card" else None))
        cards += step.kind == "card"
    return out


def first_difference(mine: Mapping[str, Any], theirs: Mapping[str, Any]) -> dict[str, Any] | None:
    """The first action where ``theirs`` parts from ``mine``: its index in ``mine``, the kind
    of decision (``bid``, ``discard``, ``chelem``, ``poignee``, ``play``), the seat, both
    actions in notation, and the trick of a card; None when the two records are the same play.
    ``ValueError`` for records of different cards."""
    if (mine["hands"], mine["dog"], mine["dealer"]) != (
        theirs["hands"],
        theirs["dog"],
        theirs["dealer"],
    ):
        raise ValueError("the two records are not of the same board")
    a, b = _decisions(mine), _decisions(theirs)
    for (x, trick), (y, _) in zip(a, b, strict=False):
        if (x.kind, x.seat, x.action) != (y.kind, y.seat, y.action):
            return {
                "index": x.index,
                "kind": KINDS.get(x.kind, x.kind),
                "seat": x.seat,
                "yours": x.action,
                "theirs": y.action if y.kind == x.kind else None,
                "trick": trick,
            }
    if len(a) != len(b):  # one record stops short of the other: the shorter one is unfinished
        step, trick = (a if len(a) > len(b) else b)[min(len(a), len(b))]
        mine_longer = len(a) > len(b)
        return {
            "index": step.index,
            "kind": KINDS.get(step.kind, step.kind),
            "seat": step.seat,
            "yours": step.action if mine_longer else None,
            "theirs": None if mine_longer else step.action,
            "trick": trick,
        }
    return None
