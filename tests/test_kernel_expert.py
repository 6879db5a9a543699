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


def tails(fn, obs: Observation, tail: int, worlds: int = 16):  # type: ignore[no-untyped-def]
    """``fn`` on the kernel from the same worlds, without a contract tail and with ``tail``."""
    got = []
    for t in (0, tail):
        sampler = sampler_for(facts(obs))
        budget = Budget(worlds=worlds, kernel_sampler=False, contract_tail=t)
        got.append(fn(obs, sampler, random.Random(7), budget))
    return got


def test_a_one_trick_tail_on_the_calls_and_discard_is_the_plain_playout() -> None:
    """``Budget.contract_tail``: the last trick is forced, so a tail of one trick gives the
    plain playouts' values for every contract, for passing and for every discard: each
    contract is played out with its own dog, multiplier and declarer."""
    for obs in positions(Phase.BIDDING, 4):
        plain, one = tails(contract.contract_values, obs, 1)
        assert plain == one
    for obs in positions(Phase.DISCARD, 2):
        plain, one = tails(contract.discard_options, obs, 1)
        assert plain.values == one.values and plain.kept == one.kept


def test_a_tail_on_the_calls_changes_their_values() -> None:
    differ = 0
    for obs in positions(Phase.BIDDING, 4):
        plain, four = tails(contract.contract_values, obs, 4)
        assert plain[0].keys() == four[0].keys()
        assert all(len(four[0][c]) == 16 for c in four[0]) and len(four[1]) == 16
        differ += int(plain != four)
    assert differ > 0


def test_card_values_are_the_same_on_the_kernel_before_the_endgame() -> None:
    obs_list = [o for o in positions(Phase.PLAY, 12) if o.hand.bit_count() > 5]
    assert obs_list
    for obs in obs_list:
        py, k = both(search.card_options, obs)
        assert py.actions == k.actions and py.values == k.values and py.kept == k.kept


def test_a_world_drawn_many_times_counts_once_in_the_race() -> None:
    # three distinct worlds drawn 20 times each: option 1 is behind by 5, 5 and -1 points.
    # Counted 60 times the gap looks certain (3 points, 0.37 standard error); over three
    # worlds it is not (2.0), so racing on distinct worlds keeps option 1.
    gaps = {b"a": 5.0, b"b": 5.0, b"c": -1.0}
    keys = [k for k in (b"a", b"b", b"c") for _ in range(20)]
    best = [10.0 for _ in keys]
    other = [10.0 - gaps[k] for k in keys]
    assert search.race([best, other], [0, 1], 3.0) == [0]
    assert search.race([best, other], [0, 1], 3.0, keys) == [0, 1]
    # without repeats the keys change nothing
    fresh = [bytes([i]) for i in range(60)]
    assert search.race([best, other], [0, 1], 3.0, fresh) == [0]
    spread = [10.0 - (i % 7) for i in range(60)]
    assert search.race([best, spread], [0, 1], 3.0, fresh) == search.race([best, spread], [0, 1])


def test_racing_on_distinct_worlds_changes_only_which_options_stay() -> None:
    kept_more = 0
    for obs in [o for o in positions(Phase.PLAY, 10) if o.hand.bit_count() > 5][:4]:
        got = []
        for unique in (False, True):
            budget = Budget(worlds=96, race_after=16, race_unique=unique)
            got.append(search.card_samples(obs, sampler_for(facts(obs)), random.Random(3), budget))
        (c0, v0, a0, n0), (c1, v1, a1, n1) = got
        assert c0 == c1 and n0 <= n1  # (a race down to one option ends the search)
        for i in range(len(c0)):  # the same values in the same worlds, as far as both went
            k = min(len(v0[i]), len(v1[i]))
            assert v0[i][:k] == v1[i][:k]
        kept_more += len(a1) > len(a0) or n1 > n0
    assert kept_more  # repeats made the plain race drop options too early somewhere
