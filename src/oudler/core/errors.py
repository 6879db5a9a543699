"""Exceptions of the rules engine. Every illegal action leaves the state exactly as it was."""

from __future__ import annotations


class OudlerError(Exception):
    """Base class of every error the engine raises on purpose."""


class NotationError(OudlerError, ValueError):
    """A card, action or record that cannot be read (unknown card, duplicate, wrong size...)."""


class RecordError(NotationError):
    """A deal or match record that is malformed as a whole (missing field, wrong sizes...)."""


class IllegalActionError(OudlerError):
    """An action the rules do not allow now; the message says why in plain words."""


class WrongPhaseError(IllegalActionError):
    """An action of another phase (for example a card during the bidding)."""


class NotYourTurnError(IllegalActionError):
    """An action by a seat whose turn it is not."""


class IllegalBidError(IllegalActionError):
    pass


class IllegalDiscardError(IllegalActionError):
    pass


class IllegalChelemError(IllegalActionError):
    pass


class IllegalPoigneeError(IllegalActionError):
    pass


class IllegalCardError(IllegalActionError):
    pass
