"""Computer players: four levels behind one interface (``base.Bot``).

``make_bot(level, seed=...)`` builds a fresh bot; ``play.play_deal`` and ``play.play_match`` drive a
deal or a match through the engine, giving each bot only its seat's observation.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable
from typing import Any

from oudler.bots.base import Bot
from oudler.bots.levels import (
    LEVELS,
    MAX_ENDGAME,
    PLAYER_LEVELS,
    SEARCH_LEVELS,
    LevelSpec,
    UnknownLevelError,
    parse_level,
)

# The levels' names and their parsing live in levels.py, which the expert imports too: it needs
# them without importing this package, which imports it.
__all__ = [
    "LEVELS",
    "MAX_ENDGAME",
    "PLAYER_LEVELS",
    "SEARCH_LEVELS",
    "Bot",
    "LevelSpec",
    "UnknownLevelError",
    "expert_available",
    "expert_options",
    "make_bot",
    "parse_level",
]


def make_bot(
    level: str,
    *,
    seed: int,
    calls_imposed: bool = False,
    cancelled: Callable[[], bool] | None = None,
) -> Bot:
    """A new bot of ``level``; its own randomness comes from ``seed`` only.

    ``calls_imposed``: the bidding of every deal it plays is imposed, not chosen (an arena's
    fixed contract), so the bids say nothing about the hands. Only the expert levels read the
    other seats' bids as evidence, and they then stop; the other levels never read them outside
    their own bidding, which an imposed bidding skips.

    ``cancelled``: the expert asks it while it searches and stops once it is true (the other
    levels decide at once and never need it).

    A searching level may carry a fixed-work budget, ``expert@w200`` (``LevelSpec``): the same
    play whatever the machine's load, for measurements; the plain name searches by wall time,
    as at the table."""
    spec = parse_level(level)
    key = spec.level
    if key == "random":
        from oudler.bots.random_bot import RandomBot

        return RandomBot(seed=seed)
    if key == "novice":
        from oudler.bots.novice import NoviceBot

        return NoviceBot(seed=seed)
    if key == "club":
        from oudler.bots.club import ClubBot

        return ClubBot(seed=seed)
    if key == "policy":
        from pathlib import Path

        from oudler.bots.policy import PolicyError, make_policy_bot

        try:
            return make_policy_bot(Path(spec.weights) if spec.weights else None, spec.name)
        except PolicyError as err:
            raise UnknownLevelError(f"the policy level is not available: {err}") from None
    return _make_expert(seed, spec, calls_imposed=calls_imposed, cancelled=cancelled)


def expert_available() -> bool:
    """True once the expert package (``oudler.bots.expert``) is installed."""
    return importlib.util.find_spec("oudler.bots.expert") is not None


def expert_options(spec: LevelSpec) -> dict[str, Any]:
    """``ExpertBot``'s keyword arguments for a searching level's spec (``expert``,
    ``expert-v1``, ``expert-noinf`` with their options), but the seed, ``calls_imposed`` and
    ``cancelled``: ``make_bot``'s reading of a level, which the lab's oracles share."""
    key = spec.level
    if key not in SEARCH_LEVELS:
        raise UnknownLevelError(f"level {key!r} does not search")
    return {
        "kernel": key != "expert-v1",
        "inference": key != "expert-noinf",
        "worlds": spec.worlds,
        "bid_worlds": spec.bid_worlds,
        **({"prior": spec.prior} if spec.prior is not None else {}),
        **({"learned": True, "learned_contracts": spec.learned == "la"} if spec.learned else {}),
        **({"endgame": spec.endgame} if spec.endgame is not None else {}),
        **({"discard_evidence": spec.discard} if spec.discard is not None else {}),
        **({"playout_tail": spec.tail} if spec.tail is not None else {}),
        **({"contract_tail": spec.contract_tail} if spec.contract_tail is not None else {}),
        **({"stop": spec.stop} if spec.stop is not None else {}),
    }


def _make_expert(
    seed: int,
    spec: LevelSpec,
    calls_imposed: bool = False,
    cancelled: Callable[[], bool] | None = None,
) -> Bot:
    # Imported lazily: the search is heavy and lives in its own package. A missing package is a
    # clear error; an error inside it is not hidden.
    if not expert_available():
        others = ", ".join(lv for lv in LEVELS if not lv.startswith("expert"))
        raise UnknownLevelError(
            f"the expert level is not available yet (no oudler.bots.expert); choose {others}"
        )
    factory = getattr(importlib.import_module("oudler.bots.expert"), "ExpertBot", None)
    if factory is None:
        raise UnknownLevelError(
            "the expert level is not wired yet (oudler.bots.expert has no ExpertBot)"
        )
    bot: Bot = factory(
        seed=seed, calls_imposed=calls_imposed, cancelled=cancelled, **expert_options(spec)
    )
    return bot
