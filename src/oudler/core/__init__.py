"""The rules engine: pure, no I/O, no third-party dependency.

Nothing here imports the web, the database or the computer players; they only call it.
"""

from oudler.core.cards import (
    CARD_NAMES,
    EXCUSE,
    PETIT,
    Card,
    card_name,
    cards_of,
    format_cards,
    mask_of,
    parse_card,
    parse_cards,
)
from oudler.core.deal import (
    Action,
    Bid,
    Contract,
    Deal,
    DealResult,
    Phase,
    Trick,
    bid_name,
    deal_cards,
    parse_bid,
)
from oudler.core.errors import (
    IllegalActionError,
    IllegalBidError,
    IllegalCardError,
    IllegalChelemError,
    IllegalDiscardError,
    IllegalPoigneeError,
    NotationError,
    NotYourTurnError,
    OudlerError,
    RecordError,
    WrongPhaseError,
)
from oudler.core.match import MATCH_LENGTHS, Match
from oudler.core.observation import Legal, Observation

__all__ = [
    "CARD_NAMES",
    "EXCUSE",
    "MATCH_LENGTHS",
    "PETIT",
    "Action",
    "Bid",
    "Card",
    "Contract",
    "Deal",
    "DealResult",
    "IllegalActionError",
    "IllegalBidError",
    "IllegalCardError",
    "IllegalChelemError",
    "IllegalDiscardError",
    "IllegalPoigneeError",
    "Legal",
    "Match",
    "NotYourTurnError",
    "NotationError",
    "Observation",
    "OudlerError",
    "Phase",
    "RecordError",
    "Trick",
    "WrongPhaseError",
    "bid_name",
    "card_name",
    "cards_of",
    "deal_cards",
    "format_cards",
    "mask_of",
    "parse_bid",
    "parse_card",
    "parse_cards",
]
