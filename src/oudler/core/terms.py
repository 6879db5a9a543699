"""The words a deal and a seat's view of it share: phases, contracts and bids, tricks, results.

They live below both ``deal`` (the state machine) and ``observation`` (what a seat may know), so
that neither imports the other's module to name them; ``deal`` re-exports them.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, NamedTuple

from oudler.core.errors import NotationError


class Phase(enum.Enum):
    BIDDING = "bidding"
    DISCARD = "discard"
    CHELEM = "chelem"
    POIGNEE = "poignee"
    PLAY = "play"
    DONE = "done"


class Contract(enum.IntEnum):
    PRISE = 1
    GARDE = 2
    GARDE_SANS = 3
    GARDE_CONTRE = 4

    @property
    def multiplier(self) -> int:
        return (1, 2, 4, 6)[self - 1]

    @property
    def notation(self) -> str:
        return self.name.lower()

    @property
    def dog_shown(self) -> bool:
        """Prise and Garde: the dog is turned face up and taken by the declarer."""
        return self <= Contract.GARDE


Bid = Contract | None
"""A call: a contract, or None for a pass."""

BID_NAMES: dict[str, Bid] = {"pass": None, **{c.notation: c for c in Contract}}


def parse_bid(text: str) -> Bid:
    if not isinstance(text, str):
        raise NotationError(f"a bid must be a string, not {text!r}")
    key = text.strip().lower()
    if key not in BID_NAMES:
        raise NotationError(f"unknown bid {text!r}; expected one of {', '.join(BID_NAMES)}")
    return BID_NAMES[key]


def bid_name(bid: Bid) -> str:
    return "pass" if bid is None else bid.notation


class Trick(NamedTuple):
    """A finished trick: who led, the four cards in play order, who took it."""

    leader: int
    cards: tuple[int, ...]
    winner: int

    def seat_of(self, index: int) -> int:
        return (self.leader + index) & 3

    def card_of(self, seat: int) -> int:
        return self.cards[(seat - self.leader) & 3]


@dataclass(frozen=True)
class DealResult:
    """The outcome of a deal; ``to_dict`` gives the fields of notation.md and the breakdown."""

    void: str | None
    scores: tuple[int, int, int, int]
    contract: Contract | None = None
    declarer: int | None = None
    oudlers: int | None = None
    points: int | None = None
    needed: int | None = None
    won: bool | None = None
    petit_au_bout: str | None = None
    chelem: str | None = None
    # breakdown, for explanations
    half_points: int | None = None  # declarer's pile in half points, before the half-point rule
    diff: int | None = None
    multiplier: int | None = None
    poignee_bonus: int | None = None
    chelem_bonus: int | None = None
    chelem_announced: bool | None = None
    per_defender: int | None = None  # D of RULES.md §9, seen from the declarer
    excuse_exchange: str | None = None  # "exchanged", "same_side", "never", "last_trick", None

    REQUIRED = (
        "void", "contract", "declarer", "oudlers", "points", "needed", "won",
        "petit_au_bout", "chelem", "scores",
    )  # fmt: skip

    def to_dict(self) -> dict[str, Any]:
        return {
            "void": self.void,
            "contract": self.contract.notation if self.contract else None,
            "declarer": self.declarer,
            "oudlers": self.oudlers,
            "points": self.points,
            "needed": self.needed,
            "won": self.won,
            "petit_au_bout": self.petit_au_bout,
            "chelem": self.chelem,
            "scores": list(self.scores),
            "diff": self.diff,
            "multiplier": self.multiplier,
            "poignee_bonus": self.poignee_bonus,
            "chelem_bonus": self.chelem_bonus,
            "chelem_announced": self.chelem_announced,
            "per_defender": self.per_defender,
            "half_points": self.half_points,
            "excuse_exchange": self.excuse_exchange,
        }
