"""The ``random`` level: a uniformly random legal action at every phase (tests and baselines)."""

from __future__ import annotations

import random

from oudler.core import Action, Observation, Phase
from oudler.core import cards as C
from oudler.core.deal import DOG_SIZE
from oudler.core.observation import Legal


def random_discard(rng: random.Random, legal: Legal) -> list[int]:
    """A uniformly random legal discard: the forced trumps among the allowed trumps, the rest
    among the allowed suit cards (when trumps are forced, every allowed suit card goes)."""
    forced = legal.discard_forced_trumps
    plain = C.cards_of(legal.discard_allowed & ~C.TRUMPS)
    trumps = C.cards_of(legal.discard_allowed & C.TRUMPS)
    return sorted(rng.sample(plain, DOG_SIZE - forced) + rng.sample(trumps, forced))


def random_poignee(rng: random.Random, legal: Legal) -> list[int]:
    """Half the time no poignée; otherwise a random size and random cards to show. The Excuse is
    shown only when every trump is shown and one card is still missing (RULES.md §6)."""
    if rng.random() < 0.5:
        return []
    size = rng.choice(legal.poignee_sizes)
    trumps = C.cards_of(legal.poignee_cards & C.TRUMPS)
    if size <= len(trumps):
        return sorted(rng.sample(trumps, size))
    return [*trumps, C.EXCUSE]


class RandomBot:
    """Chooses uniformly among the legal actions; its randomness comes from ``seed`` only."""

    level = "random"

    def __init__(self, *, seed: int) -> None:
        self._rng = random.Random(seed)

    def begin_deal(self, seat: int) -> None:
        pass

    def act(self, obs: Observation) -> Action:
        legal = obs.legal
        if obs.phase is Phase.BIDDING:
            return self._rng.choice(legal.bids)
        if obs.phase is Phase.DISCARD:
            return random_discard(self._rng, legal)
        if obs.phase is Phase.CHELEM:
            return self._rng.random() < 0.5
        if obs.phase is Phase.POIGNEE:
            return random_poignee(self._rng, legal)
        if obs.phase is Phase.PLAY:
            return self._rng.choice(C.cards_of(legal.cards))
        raise ValueError(f"nothing to decide in the {obs.phase.value} phase")
