"""The expert's search gives the same values on the kernel as in pure Python from the same
sampled worlds (the kernel plays the same policy and scores alike): bids, discards, chelem,
poignée and cards (before the kernel's earlier exact endgame)."""

from __future__ import annotations

import random

from oudler.bots.expert import contract, search
from oudler.bots.expert.sampler import facts, sampler_for
from oudler.bots.expert.search import Budget
from oudler.bots.random_bot import RandomBot
from oudler.core import Deal, Observation, Phase


def positions(phase: Phase, count: int) -> list[Observation]:
    """Observations of the seat to move in ``phase``, from deals played by random bots."""
    out: list[Observation] = []
    seed = 0
    while len(out) < count:
        seed += 1
        deal = Deal.from_seed(seed, seed & 3)
        bots = [RandomBot(seed=seed * 4 + s) for s in range(4)]
        for s, b in enumerate(bots):
            b.begin_deal(s)
        rng = random.Random(seed)
        while not deal.is_over:
            seat = deal.to_move
            obs = deal.observation(seat)
            if deal.phase is phase and (phase is not Phase.PLAY or rng.random() < 0.1):
                out.append(obs)
                break
            deal.act(bots[seat].act(obs), seat)
    return out


def both(fn, obs: Observation, worlds: int = 24):  # type: ignore[no-untyped-def]
    got = []
    for kernel in (False, True):
        sampler = sampler_for(facts(obs))
        # the Python sampler's worlds for both searches: the very same worlds
        budget = Budget(worlds=worlds, kernel=kernel, kernel_sampler=False)
        got.append(fn(obs, sampler, random.Random(7), budget))
    return got


def test_bid_values_are_the_same_on_the_kernel() -> None:
    for obs in positions(Phase.BIDDING, 4):
        py, k = both(contract.contract_values, obs)
        assert py == k


def test_discard_values_are_the_same_on_the_kernel() -> None:
    for obs in positions(Phase.DISCARD, 3):
        py, k = both(contract.discard_options, obs)
        assert py.values == k.values and py.kept == k.kept


def test_card_values_are_the_same_on_the_kernel_before_the_endgame() -> None:
    obs_list = [o for o in positions(Phase.PLAY, 12) if o.hand.bit_count() > 5]
    assert obs_list
    for obs in obs_list:
        py, k = both(search.card_options, obs)
        assert py.actions == k.actions and py.values == k.values and py.kept == k.kept
