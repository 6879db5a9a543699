"""Computer players: four levels behind one interface (``base.Bot``).

``make_bot(level, seed=...)`` builds a fresh bot; ``play.play_deal`` and ``play.play_match`` drive a
deal or a match through the engine, giving each bot only its seat's observation.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable

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
    return _make_expert(
        seed,
        kernel=key != "expert-v1",
        inference=key != "expert-noinf",
        calls_imposed=calls_imposed,
        cancelled=cancelled,
        worlds=spec.worlds,
        bid_worlds=spec.bid_worlds,
        prior=spec.prior,
        learned=spec.learned,
        endgame=spec.endgame,
        discard=spec.discard,
        tail=spec.tail,
        contract_tail=spec.contract_tail,
        stop=spec.stop,
    )


def expert_available() -> bool:
    """True once the expert package (``oudler.bots.expert``) is installed."""
    return importlib.util.find_spec("oudler.bots.expert") is not None


def _make_expert(
    seed: int,
    kernel: bool = True,
    inference: bool = True,
    calls_imposed: bool = False,
    cancelled: Callable[[], bool] | None = None,
    worlds: int | None = None,
    bid_worlds: int | None = None,
    prior: float | None = None,
    learned: str = "",
    endgame: int | None = None,
    discard: float | None = None,
    tail: int | None = None,
    contract_tail: int | None = None,
    stop: float | None = None,
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
        seed=seed,
        kernel=kernel,
        inference=inference,
        calls_imposed=calls_imposed,
        cancelled=cancelled,
        worlds=worlds,
        bid_worlds=bid_worlds,
        **({"prior": prior} if prior is not None else {}),
        **({"learned": True, "learned_contracts": learned == "la"} if learned else {}),
        **({"endgame": endgame} if endgame is not None else {}),
        **({"discard_evidence": discard} if discard is not None else {}),
        **({"playout_tail": tail} if tail is not None else {}),
        **({"contract_tail": contract_tail} if contract_tail is not None else {}),
        **({"stop": stop} if stop is not None else {}),
    )
    return bot


__all__ = [
    "LEVELS",
    "PLAYER_LEVELS",
    "SEARCH_LEVELS",
    "Bot",
    "LevelSpec",
    "UnknownLevelError",
    "expert_available",
    "make_bot",
    "parse_level",
]
