"""What one seat may know (RULES.md §11), and nothing else.

This is the only view of a deal that a computer player or a browser is ever given. It is built
from the deal's state by ``build_observation`` in deal.py, next to the deal, so that every
censoring rule lives in one place; this module holds the view's types and imports no deal.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from oudler.core import cards as C
from oudler.core.terms import Bid, Contract, DealResult, Phase, Trick, bid_name


@dataclass(frozen=True)
class Legal:
    """The legal actions of the seat to move, for every phase (empty when it is not its turn)."""

    bids: tuple[Bid, ...] = ()
    discard_allowed: int = 0  # cards that may go to the discard
    discard_forced_trumps: int = 0  # how many trumps the discard must hold
    poignee_cards: int = 0  # cards that may be shown in a poignée
    poignee_sizes: tuple[int, ...] = ()
    chelem: bool = False  # the chelem question is open
    cards: int = 0  # cards that may be played

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.bids:
            out["bids"] = [bid_name(b) for b in self.bids]
        if self.discard_allowed:
            out["discard"] = {
                "allowed": C.format_cards(self.discard_allowed),
                "forced_trumps": self.discard_forced_trumps,
                "count": 6,
            }
        if self.poignee_sizes:
            out["poignee"] = {
                "cards": C.format_cards(self.poignee_cards),
                "sizes": list(self.poignee_sizes),
            }
        if self.chelem:
            out["chelem"] = [False, True]
        if self.cards:
            out["cards"] = C.format_cards(self.cards)
        return out


@dataclass(frozen=True)
class Observation:
    seat: int
    dealer: int
    phase: Phase
    to_move: int | None
    hand: int
    bids: tuple[Bid, ...]
    contract: Contract | None
    declarer: int | None
    dog: int | None  # the dog when shown (Prise, Garde), else None
    own_discard: int | None  # the declarer's own discard, seen only by him
    discard_trumps: int  # trumps forced into the discard: public
    chelem: bool | None
    poignees: dict[int, int]
    tricks: tuple[Trick, ...]
    trick_leader: int
    trick_cards: tuple[int, ...]
    excuse_pending: bool
    petit_sec: tuple[int, int] | None  # (seat, hand) of a petit sec, shown to all
    result: DealResult | None
    legal: Legal = field(default_factory=Legal)
    # Everything, once the deal is over (RULES.md §11: shown in the review).
    review_hands: tuple[int, ...] | None = None
    review_dog: int | None = None
    review_discard: int | None = None
    # The seat winning the trick in progress so far (None while empty or only the Excuse is down).
    trick_winner: int | None = None

    @property
    def my_turn(self) -> bool:
        return self.to_move == self.seat

    @property
    def played(self) -> int:
        """Every card played so far (public)."""
        m = C.mask_of(self.trick_cards)
        for t in self.tricks:
            m |= C.mask_of(t.cards)
        return m

    def to_dict(self) -> dict[str, Any]:
        def cards(m: int | None) -> list[str] | None:
            return None if m is None else C.format_cards(m)

        return {
            "seat": self.seat,
            "dealer": self.dealer,
            "phase": self.phase.value,
            "to_move": self.to_move,
            "hand": cards(self.hand),
            "bids": [bid_name(b) for b in self.bids],
            "contract": self.contract.notation if self.contract else None,
            "declarer": self.declarer,
            "dog": cards(self.dog),
            "discard": cards(self.own_discard),
            "discard_trumps": cards(self.discard_trumps),
            "chelem": self.chelem,
            "poignees": {str(s): cards(m) for s, m in sorted(self.poignees.items())},
            "tricks": [
                {
                    "leader": t.leader,
                    "cards": [C.CARD_NAMES[c] for c in t.cards],
                    "winner": t.winner,
                }
                for t in self.tricks
            ],
            "trick": {
                "leader": self.trick_leader,
                "cards": [C.CARD_NAMES[c] for c in self.trick_cards],
                "winner": self.trick_winner,
            },
            "excuse_pending": self.excuse_pending,
            "petit_sec": None
            if self.petit_sec is None
            else {"seat": self.petit_sec[0], "hand": cards(self.petit_sec[1])},
            "result": None if self.result is None else self.result.to_dict(),
            "legal": self.legal.to_dict(),
            "review": None
            if self.review_hands is None
            else {
                "hands": [cards(h) for h in self.review_hands],
                "dog": cards(self.review_dog),
                "discard": cards(self.review_discard),
            },
        }
