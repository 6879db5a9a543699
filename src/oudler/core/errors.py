"""Exceptions of the rules engine. Every illegal action leaves the state exactly as it was.

Every error has a stable ``code`` (spec/notation.md, "Error codes"): tools act on the code, people
read the message, which may change. ``kind`` is the kind of action refused (``bid``, ``discard``,
``chelem``, ``poignee``, ``play``) and ``seat`` the seat that took it, where there is one.

There is one class per reason. The broader classes (``IllegalCardError``, ``WrongPhaseError``...)
stay the bases of the precise ones, so code that catches them keeps working.
"""

from __future__ import annotations

from typing import ClassVar

ACTION_KINDS = ("bid", "discard", "chelem", "poignee", "play")

# The codes of notation.md, in its order.
ERROR_CODES = (
    "malformed", "deal_void", "auction_over", "auction_not_over", "bid_not_higher",
    "out_of_turn", "discard_count", "discard_duplicate", "discard_not_held", "discard_king",
    "discard_oudler", "discard_trumps", "chelem_no_declarer", "poignee_timing",
    "poignee_duplicate", "poignee_not_trump", "poignee_not_held", "poignee_size",
    "poignee_excuse", "card_not_held", "must_follow_suit", "trump_holding_suit", "must_trump",
    "must_overtrump", "deal_over", "mismatch",
)  # fmt: skip


class OudlerError(Exception):
    """Base class of every error the engine raises on purpose."""

    code: ClassVar[str] = "malformed"

    def __init__(self, message: str = "", *, kind: str | None = None, seat: int | None = None):
        super().__init__(message)
        self.kind = kind
        self.seat = seat


class NotationError(OudlerError, ValueError):
    """A card, action or record that cannot be read (unknown card, duplicate, wrong size...)."""

    code = "malformed"


class RecordError(NotationError):
    """A deal or match record that is malformed as a whole (missing field, wrong sizes...).
    ``field`` names the first bad field (notation.md: ``record``, ``format``, ``dealer``...;
    also ``seed``, optional and not in notation.md's list, and a match's ``deals`` and
    ``totals``)."""

    def __init__(self, message: str, *, field: str = "record") -> None:
        super().__init__(message)
        self.field = field


class IllegalActionError(OudlerError):
    """An action the rules do not allow now; the message says why in plain words."""

    code = "out_of_turn"


# ------------------------------------------------------------------ phase and turn


class WrongPhaseError(IllegalActionError):
    """An action of another phase (for example a discard in a Garde sans)."""

    code = "out_of_turn"


class NotYourTurnError(IllegalActionError):
    """An action by a seat whose turn it is not."""

    code = "out_of_turn"


class DealVoidError(WrongPhaseError):
    """A bid, discard or card on a void deal (petit sec, or four passes)."""

    code = "deal_void"


class AuctionOverError(WrongPhaseError):
    """A fifth call: each player speaks exactly once."""

    code = "auction_over"


class AuctionNotOverError(WrongPhaseError):
    """A discard, chelem announcement or card while a player has not spoken."""

    code = "auction_not_over"


class DealOverError(WrongPhaseError):
    """A card after the 72nd."""

    code = "deal_over"


# ------------------------------------------------------------------ bids


class IllegalBidError(IllegalActionError):
    code = "bid_not_higher"


class BidNotHigherError(IllegalBidError):
    """A bid not strictly higher than the highest bid so far."""

    code = "bid_not_higher"


class NotABidError(IllegalBidError):
    """Something given as a bid that is neither a contract nor a pass."""

    code = "malformed"


# ------------------------------------------------------------------ discard


class IllegalDiscardError(IllegalActionError):
    code = "discard_count"


class DiscardCountError(IllegalDiscardError):
    code = "discard_count"


class DiscardDuplicateError(IllegalDiscardError):
    code = "discard_duplicate"


class DiscardNotHeldError(IllegalDiscardError):
    """A card not among the declarer's 24 (or no card at all)."""

    code = "discard_not_held"


class DiscardKingError(IllegalDiscardError):
    code = "discard_king"


class DiscardOudlerError(IllegalDiscardError):
    code = "discard_oudler"


class DiscardTrumpsError(IllegalDiscardError):
    """Not exactly max(0, 6 - n) trumps, n the non-King suit cards of the declarer's 24."""

    code = "discard_trumps"


# ------------------------------------------------------------------ chelem


class IllegalChelemError(IllegalActionError):
    code = "chelem_no_declarer"


class ChelemNoDeclarerError(WrongPhaseError, IllegalChelemError):
    """A chelem announced when there is no declarer (the bidding unfinished or the deal void)."""

    code = "chelem_no_declarer"


class NotAnAnnouncementError(IllegalChelemError):
    """A chelem answer that is not true or false."""

    code = "malformed"


# ------------------------------------------------------------------ poignée


class IllegalPoigneeError(IllegalActionError):
    code = "poignee_size"


class PoigneeTimingError(WrongPhaseError, IllegalPoigneeError):
    """A poignée by a seat that is not about to play its first card."""

    code = "poignee_timing"


class PoigneeDuplicateError(IllegalPoigneeError):
    code = "poignee_duplicate"


class PoigneeNotTrumpError(IllegalPoigneeError):
    code = "poignee_not_trump"


class PoigneeNotHeldError(IllegalPoigneeError):
    code = "poignee_not_held"


class PoigneeSizeError(IllegalPoigneeError):
    """Not 10, 13 or 15 cards, or shown by a seat holding fewer than 10 trumps."""

    code = "poignee_size"


class PoigneeExcuseError(IllegalPoigneeError):
    """The Excuse shown while a trump is hidden."""

    code = "poignee_excuse"


# ------------------------------------------------------------------ cards


class IllegalCardError(IllegalActionError):
    code = "card_not_held"


class CardNotHeldError(IllegalCardError):
    """A card not in the player's hand: never dealt to it, already played, or no card at all."""

    code = "card_not_held"


class MustFollowSuitError(IllegalCardError):
    code = "must_follow_suit"


class TrumpHoldingSuitError(IllegalCardError):
    code = "trump_holding_suit"


class MustTrumpError(IllegalCardError):
    code = "must_trump"


class MustOvertrumpError(IllegalCardError):
    code = "must_overtrump"
