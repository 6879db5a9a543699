"""The bot interface: a bot sees one seat's observation (with its legal actions) and nothing else.

A bot never receives the engine's ``Deal``; it is given ``Observation`` objects built by
``Deal.observation(seat)`` and returns one typed action (see ``oudler.core.Action``). It may keep
memory between calls within a deal; ``begin_deal`` tells it a new deal starts.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from oudler.core import Action, Observation, OudlerError, Phase


@runtime_checkable
class Bot(Protocol):
    """A computer player for one seat."""

    level: str

    def begin_deal(self, seat: int) -> None:
        """A new deal starts; forget what belonged to the previous one."""

    def act(self, obs: Observation) -> Action:
        """Choose an action for the current phase; ``obs.legal`` lists what is allowed."""


class BotError(OudlerError):
    """A bot failed: it raised, or it chose an action the rules do not allow."""

    def __init__(self, message: str, *, seat: int, phase: Phase) -> None:
        super().__init__(message)
        self.seat = seat
        self.phase = phase
