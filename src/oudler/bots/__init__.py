"""Computer players: four levels behind one interface (``base.Bot``).

``make_bot(level, seed=...)`` builds a fresh bot; ``play.play_deal`` and ``play.play_match`` drive a
deal or a match through the engine, giving each bot only its seat's observation.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable

from oudler.bots.base import Bot

LEVELS = ("random", "novice", "club", "expert", "expert-v1", "expert-noinf")
"""Every level a bot can be made at. ``expert-v1`` is the expert as it was before the compiled
kernel (the same search in pure Python, fewer worlds), kept to measure the kernel's gain;
``expert-noinf`` is the expert without inference from the other seats' calls and cards (worlds
uniform among those fitting the hard facts), kept to measure what inference adds."""

PLAYER_LEVELS = LEVELS[:4]
"""The levels offered to people at the table."""


class UnknownLevelError(ValueError):
    """A level name that is not one of ``LEVELS``, or a level that is not available yet."""


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
    levels decide at once and never need it)."""
    key = level.strip().lower()
    if key == "random":
        from oudler.bots.random_bot import RandomBot

        return RandomBot(seed=seed)
    if key == "novice":
        from oudler.bots.novice import NoviceBot

        return NoviceBot(seed=seed)
    if key == "club":
        from oudler.bots.club import ClubBot

        return ClubBot(seed=seed)
    if key == "expert":
        return _make_expert(seed, calls_imposed=calls_imposed, cancelled=cancelled)
    if key == "expert-v1":
        return _make_expert(seed, kernel=False, calls_imposed=calls_imposed, cancelled=cancelled)
    if key == "expert-noinf":
        return _make_expert(seed, inference=False, calls_imposed=calls_imposed, cancelled=cancelled)
    raise UnknownLevelError(f"unknown level {level!r}; expected one of {', '.join(LEVELS)}")


def expert_available() -> bool:
    """True once the expert package (``oudler.bots.expert``) is installed."""
    return importlib.util.find_spec("oudler.bots.expert") is not None


def _make_expert(
    seed: int,
    kernel: bool = True,
    inference: bool = True,
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
        seed=seed,
        kernel=kernel,
        inference=inference,
        calls_imposed=calls_imposed,
        cancelled=cancelled,
    )
    return bot


__all__ = ["LEVELS", "PLAYER_LEVELS", "Bot", "UnknownLevelError", "expert_available", "make_bot"]
