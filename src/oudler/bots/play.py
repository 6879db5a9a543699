"""Drive a deal or a match with bots, through ``Deal.observation(seat)`` only.

The loop asks the seat to move for one action, given nothing but its observation, and applies it
with ``Deal.act``. The engine checks every action; an illegal one becomes a ``BotError`` that names
the bot, the seat and the engine's reason, and leaves the deal as it was.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence

from oudler.bots.base import Bot, BotError
from oudler.bots.protocol import action_to_notation
from oudler.core import Action, Deal, DealResult, Match, OudlerError, Phase

DecisionHook = Callable[[int, Phase, float], None]
"""Called after every decision with (seat, phase, seconds the bot took)."""


def bot_name(bot: Bot) -> str:
    """How a bot is named in messages and reports: its ``name`` if it has one, else its level."""
    name = getattr(bot, "name", None)
    return name if isinstance(name, str) else bot.level


def _failure(bot: Bot, seat: int, phase: Phase, what: str) -> BotError:
    # An outside program also says which of its output lines was at fault (see protocol.py).
    answer = getattr(bot, "last_answer", None)
    where = f" ({answer})" if isinstance(answer, str) else ""
    return BotError(
        f"bot {bot_name(bot)!r} at seat {seat}, {phase.value} phase{where}: {what}",
        seat=seat,
        phase=phase,
    )


def _show(phase: Phase, action: Action) -> str:
    """An action as notation.md writes it, for messages (its repr if it is not even that)."""
    try:
        return json.dumps(action_to_notation(phase, action))
    except OudlerError:
        return repr(action)


def play_deal(
    deal: Deal, bots: Sequence[Bot], *, on_decision: DecisionHook | None = None
) -> DealResult:
    """Play ``deal`` to its end with ``bots[seat]`` deciding for each seat; return its result.

    The deal may already be under way (an arena fixes the bids of a fixed contract before). Each
    bot is told that a deal begins, then sees only ``deal.observation(seat)`` when it is to move.
    """
    if len(bots) != 4:
        raise ValueError(f"a deal needs 4 bots, not {len(bots)}")
    for seat, bot in enumerate(bots):
        bot.begin_deal(seat)
    while not deal.is_over:
        seat = deal.to_move
        phase = deal.phase
        bot = bots[seat]
        obs = deal.observation(seat)
        start = time.perf_counter()
        try:
            action: Action = bot.act(obs)
        except BotError:
            raise
        except Exception as err:
            raise _failure(bot, seat, phase, f"raised {type(err).__name__}: {err}") from err
        elapsed = time.perf_counter() - start
        try:
            deal.act(action, seat)
        except OudlerError as err:
            what = f"illegal action {_show(phase, action)}: {err}"
            raise _failure(bot, seat, phase, what) from err
        if on_decision is not None:
            on_decision(seat, phase, elapsed)
    assert deal.result is not None
    return deal.result


def play_match(
    match: Match, bots: Sequence[Bot], *, on_decision: DecisionHook | None = None
) -> list[int]:
    """Play ``match`` to its end (void deals are dealt again); return the four totals."""
    while True:
        deal = match.current
        if not deal.is_over:
            play_deal(deal, bots, on_decision=on_decision)
        if match.is_over:
            return match.totals
        match.next_deal()
