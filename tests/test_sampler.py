"""The expert's sampler of hidden cards: every world it draws is one the seat could be in.

The strongest check of consistency does not repeat the inference rules: a sampled world is turned
back into a whole deal (hands as dealt, dog, discard), the public history of the observation is
replayed through the real ``Deal`` (every bid, discard, poignée and card must be legal there), and
the seat's observation of the replayed deal must equal the one the sampler was given.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections import Counter
from collections.abc import Iterator

import pytest

from helpers import random_discard
from oudler.bots.expert.handmodel import strength
from oudler.bots.expert.sampler import (
    PILE,
    Facts,
    Inconsistent,
    World,
    WorldSampler,
    facts,
    sampler_for,
)
from oudler.bots.knowledge import forbidden_by_play
from oudler.core import Contract, Deal, Observation, Phase
from oudler.core import cards as C
from oudler.core.tricks import LED_NONE, LED_TRUMP, legal_mask

# ---------------------------------------------------------------------- random positions


def biased_deal(rng: random.Random) -> Deal:
    """A deal where one seat is long in trumps (poignées, forced discard trumps, chelems)
    half of the time, else an ordinary seeded deal."""
    dealer = rng.randrange(4)
    if rng.random() < 0.5:
        return Deal.from_seed(rng.getrandbits(32), dealer)
    strong = rng.randrange(4)
    trumps = list(range(22))
    rng.shuffle(trumps)
    take = rng.randint(10, 17)
    kings = [22 + 14 * s + 13 for s in range(4)]
    # a few Kings with the trumps, so that few discardable cards are left
    mine = (trumps[:take] + [k for k in kings if rng.random() < 0.7])[:18]
    rest = [c for c in range(C.NUM_CARDS) if c not in mine]
    rng.shuffle(rest)
    fill = 18 - len(mine)
    mine += rest[:fill]
    rest = rest[fill:]
    hands = [0, 0, 0, 0]
    hands[strong] = C.mask_of(mine)
    pos = 0
    for s in range(4):
        if s != strong:
            hands[s] = C.mask_of(rest[pos : pos + 18])
            pos += 18
    dog = C.mask_of(rest[pos : pos + 6])
    return Deal(hands, dog, dealer)


def random_action(deal: Deal, rng: random.Random, strong_bids: bool) -> object:
    """A random legal action; long-trump seats bid and show poignées more often."""
    phase = deal.phase
    seat = deal.to_move
    if phase is Phase.BIDDING:
        bids = deal.legal_bids()
        many = (deal.hands[seat] & C.TRUMPS).bit_count() >= 10
        if len(bids) > 1 and (rng.random() < 0.3 or (strong_bids and many)):
            return rng.choice(bids[1:])
        return None
    if phase is Phase.DISCARD:
        return random_discard(deal, rng)
    if phase is Phase.CHELEM:
        return rng.random() < 0.1
    if phase is Phase.POIGNEE:
        if rng.random() < 0.2:
            return []
        size = rng.choice(deal.poignee_sizes(seat))
        own = deal.poignee_cards(seat)
        trumps = C.cards_of(own & C.TRUMPS)
        if len(trumps) >= size and not (own & C.EXCUSE_BIT and rng.random() < 0.3):
            return rng.sample(trumps, size)
        if len(trumps) + 1 == size and own & C.EXCUSE_BIT:
            return [*trumps, C.EXCUSE]
        return rng.sample(trumps, size) if len(trumps) >= size else []
    return rng.choice(C.cards_of(deal.legal_cards()))


def random_positions(seed: int, count: int) -> Iterator[tuple[Deal, Observation]]:
    """``count`` positions (deal, observation of a seat) at random points of random deals, in
    every phase, from every seat's point of view (not only the seat to move)."""
    rng = random.Random(seed)
    made = 0
    while made < count:
        deal = biased_deal(rng)
        strong_bids = rng.random() < 0.7
        stop = rng.randrange(0, 95)
        steps = 0
        while not deal.is_over and steps < stop:
            deal.act(random_action(deal, rng, strong_bids))  # type: ignore[arg-type]
            steps += 1
        if deal.is_over:
            continue
        seat = deal.to_move if rng.random() < 0.6 else rng.randrange(4)
        if deal.phase is Phase.POIGNEE:
            seat = deal.to_move  # others would learn from the phase that it holds 10 trumps
        yield deal, deal.observation(seat)
        made += 1


# ---------------------------------------------------------------------- replaying a world


def replay(obs: Observation, f: Facts, w: World) -> Deal:
    """The deal a world stands for, replayed through the engine up to the observed point."""
    dealt = [f.dealt_hand(s, w.hands[s], w.pile) for s in range(4)]
    dog = f.dog if f.dog else w.pile
    deal = Deal(dealt, dog, obs.dealer)
    for b in obs.bids:
        deal.bid(b)
    if deal.phase is Phase.DISCARD and obs.phase is not Phase.DISCARD:
        deal.discard_cards(C.cards_of(w.pile))
    if deal.phase is Phase.CHELEM and obs.chelem is not None:
        deal.announce_chelem(obs.chelem)
    play = [c for t in obs.tricks for c in t.cards] + list(obs.trick_cards)
    for card in play:
        if deal.phase is Phase.POIGNEE:
            deal.declare_poignee(C.cards_of(obs.poignees.get(deal.to_move, 0)))
        deal.play(card)
    if deal.phase is Phase.POIGNEE and obs.phase is not Phase.POIGNEE:
        deal.declare_poignee(C.cards_of(obs.poignees.get(deal.to_move, 0)))
    return deal


def assert_consistent(obs: Observation, f: Facts, w: World) -> None:
    sizes = [w.hands[s].bit_count() for s in range(4)]
    assert sizes == list(f.sizes[:4])
    assert w.pile.bit_count() == f.sizes[PILE]
    assert w.hands[obs.seat] == obs.hand
    # cards the seat has seen in a known place stay there
    in_pile = (obs.own_discard or 0) | obs.discard_trumps
    placed = obs.played | obs.hand | in_pile
    for s in range(4):
        if s != obs.seat:
            assert not w.hands[s] & placed
    assert not w.pile & (obs.played | obs.hand)
    assert w.pile & in_pile == in_pile
    replayed = replay(obs, f, w)
    assert replayed.observation(obs.seat) == obs


# ---------------------------------------------------------------------- tests


def test_a_played_card_excludes_exactly_the_cards_that_would_have_made_it_illegal() -> None:
    # legal_mask is a conjunction over single cards, which forbidden_by_play relies on
    rng = random.Random(5)
    for _ in range(3000):
        hand = C.mask_of(rng.sample(range(C.NUM_CARDS), rng.randint(1, 18)))
        led = rng.choice([LED_NONE, 0, 1, 2, 3, LED_TRUMP])
        high = rng.randrange(-1, 21) if led != LED_NONE else -1
        for card in C.cards_of(hand):
            legal = bool(legal_mask(hand, led, high) >> card & 1)
            assert legal == (not hand & forbidden_by_play(card, led, high))


def test_sampled_worlds_replay_through_the_engine_to_the_same_observation() -> None:
    rng = random.Random(11)
    phases: Counter[str] = Counter()
    for _, obs in random_positions(1, 400):
        f = facts(obs)
        sampler = WorldSampler(f)
        for _ in range(3):
            assert_consistent(obs, f, sampler.sample(rng))
        for w in sampler.sample_weighted(rng, 2):
            assert_consistent(obs, f, w)
        phases[obs.phase.value] += 1
        if obs.contract is not None:
            phases[obs.contract.notation] += 1
        phases["poignee shown"] += bool(obs.poignees)
        phases["forced discard trumps"] += bool(obs.discard_trumps)
    # the positions reached every situation the sampler must handle
    for what in ("bidding", "discard", "play", "poignee", "chelem", "prise", "garde"):
        assert phases[what] > 0, phases
    for what in ("garde_sans", "garde_contre", "poignee shown", "forced discard trumps"):
        assert phases[what] > 0, phases


def test_the_true_deal_is_always_among_the_possible_worlds() -> None:
    for deal, obs in random_positions(2, 300):
        f = facts(obs)
        pile = deal.discard if obs.contract is not None and obs.contract.dog_shown else deal.dog
        if obs.phase is Phase.DISCARD:
            pile = 0
        truth = World((deal.hands[0], deal.hands[1], deal.hands[2], deal.hands[3]), pile)
        for h in range(5):
            held = truth.hands[h] if h < 4 else truth.pile
            assert f.fixed[h] & ~held == 0, "a card was placed where it is not"
            assert not held & f.cannot[h] & ~f.fixed[h], "a possible card was excluded"
        WorldSampler(f)  # the dynamic programme finds at least this world


def _all_worlds(obs: Observation, f: Facts) -> list[World]:
    """Brute force: every split of the unseen cards that replays to the same observation."""
    holders = [h for h in range(5) if h != obs.seat and f.need(h) > 0]
    needs = [f.need(h) for h in holders]
    unseen = C.cards_of(f.unseen)
    out = []
    for labels in itertools.product(range(len(holders)), repeat=len(unseen)):
        if any(labels.count(i) != n for i, n in enumerate(needs)):
            continue
        got = list(f.fixed)
        for c, i in zip(unseen, labels, strict=True):
            got[holders[i]] |= 1 << c
        w = World((got[0], got[1], got[2], got[3]), got[PILE])
        try:
            assert_consistent(obs, f, w)
        except Exception:
            continue
        out.append(w)
    return out


def small_endgames(seed: int, count: int = 12) -> list[tuple[Observation, Facts, list[World]]]:
    """Up to ``count`` late play positions with 4 to 9 unseen cards (the dog or discard known),
    each with every world consistent with it (``_all_worlds``)."""
    out = []
    for _, obs in random_positions(seed, 4000):
        if obs.phase is not Phase.PLAY or len(obs.tricks) < 15:
            continue
        f = facts(obs)
        if not 4 <= f.unseen.bit_count() <= 9 or (f.sizes[PILE] and f.need(PILE)):
            continue
        out.append((obs, f, _all_worlds(obs, f)))
        if len(out) == count:
            break
    return out


def assert_uniform(draws: Counter[World], worlds: list[World], expected: int) -> None:
    """``draws`` hold every world of ``worlds`` and nothing else, about ``expected`` times each."""
    assert set(draws) == set(worlds)  # every consistent world, and nothing else
    chi2 = sum((n - expected) ** 2 / expected for n in draws.values())
    # loose bound: chi-square with len-1 degrees of freedom, far in the tail
    assert chi2 < 2 * len(worlds) + 40


def test_the_sampler_draws_every_consistent_world_uniformly_in_small_endgames() -> None:
    rng = random.Random(3)
    cases = small_endgames(4)
    assert len(cases) >= 5
    for _, f, worlds in cases:
        sampler = WorldSampler(f)
        assert_uniform(Counter(sampler.sample(rng) for _ in range(60 * len(worlds))), worlds, 60)


def test_exact_counts_match_the_number_of_deals_in_a_constrained_case() -> None:
    # Unseen: three trumps, three hearts; seat 1 is void in trumps (it cannot hold them).
    hearts = [C.suit_card(1, r) for r in (2, 3, 4)]
    trumps = [C.trump(n) for n in (5, 6, 7)]
    mine = C.ALL_CARDS & ~C.mask_of(hearts + trumps)
    small = Facts(
        seat=0,
        dealer=0,
        phase=Phase.PLAY,
        contract=Contract.GARDE_CONTRE,
        declarer=0,
        hand=mine,
        played_by=(0, 0, 0, 0),
        sizes=(mine.bit_count(), 2, 2, 2, 0),
        fixed=(mine, 0, 0, 0, 0),
        cannot=(0, C.TRUMPS, 0, 0, 0),
        dog=0,
        calls=(),
    )
    sampler = WorldSampler(small)
    # seat 1 takes two of the hearts (3 ways); seats 2 and 3 split the other four cards (6 ways)
    assert sampler._count(0, sampler.root) == pytest.approx(18)
    rng = random.Random(1)
    worlds = [sampler.sample_raw(rng) for _ in range(3600)]
    draws = Counter((w.hands[1], w.hands[2], w.hands[3]) for w in worlds)
    assert len(draws) == 18
    assert max(draws.values()) < 2 * min(draws.values())


def test_an_excuse_in_a_poignee_proves_no_other_trump() -> None:
    # Seat 1 holds exactly nine trumps and the Excuse, and shows them all.
    rng = random.Random(8)
    trumps = [C.trump(n) for n in range(2, 11)]
    plain = list(range(22, C.NUM_CARDS))
    rng.shuffle(plain)
    others = [c for c in range(C.NUM_CARDS) if c not in trumps and c != C.EXCUSE]
    others = [c for c in others if c not in plain[:8]]
    rng.shuffle(others)
    hands = [0, 0, 0, 0]
    hands[1] = C.mask_of([*trumps, C.EXCUSE, *plain[:8]])
    pos = 0
    for s in (0, 2, 3):
        hands[s] = C.mask_of(others[pos : pos + 18])
        pos += 18
    deal = Deal(hands, C.mask_of(others[pos : pos + 6]), 0)
    for _ in range(4):
        deal.bid(None if deal.to_move != 1 else Contract.GARDE_SANS)
    deal.announce_chelem(False)
    deal.declare_poignee([*trumps, C.EXCUSE])
    obs = deal.observation(0)
    f = facts(obs)
    sampler = WorldSampler(f)
    for _ in range(50):
        w = sampler.sample(rng)
        assert w.hands[1] & C.TRUMPS == C.mask_of(trumps)
        assert_consistent(obs, f, w)


def test_bids_weight_the_worlds_towards_strong_hands_for_a_garde() -> None:
    rng = random.Random(2)
    for seed in range(50):
        deal = Deal.from_seed(seed, 3)
        if deal.is_over:
            continue
        deal.bid(Contract.GARDE)  # seat 0
        obs = deal.observation(1)
        sampler = WorldSampler(facts(obs))
        plain = [strength(sampler.sample(rng).hands[0]) for _ in range(300)]
        weighted = [strength(w.hands[0]) for w in sampler.sample_weighted(rng, 300)]
        assert sum(weighted) / 300 > sum(plain) / 300 + 5
        return


def test_contradictory_facts_fall_back_to_hand_sizes_alone() -> None:
    deal = Deal.from_seed(3, 0)
    obs = deal.observation(1)
    f = facts(obs)
    broken = dataclasses.replace(f, cannot=(0, C.ALL_CARDS, C.ALL_CARDS, C.ALL_CARDS, C.ALL_CARDS))
    with pytest.raises(Inconsistent):
        WorldSampler(broken)
    w = sampler_for(broken).sample(random.Random(1))
    assert [w.hands[s].bit_count() for s in range(4)] == [18, 18, 18, 18]
    assert w.hands[1] == obs.hand and w.pile.bit_count() == 6
