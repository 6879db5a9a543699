"""The expert's inference: worlds drawn on the kernel, weighted by the other seats' calls and cards.

The kernel's worlds obey the same hard facts as the Python sampler's (they replay through the
engine to the same observation, uniformly in small endgames); its weights are the hand model's
likelihood of the calls (equal to the Python ``WorldSampler.weight``) times the heuristic policy's
likelihood of the cards played, and they move the right way on hand-built positions.
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections import Counter
from collections.abc import Iterator

import numpy as np
import pytest

from oudler import kernel as K
from oudler.bots import make_bot
from oudler.bots.expert.handmodel import (
    CALLS,
    CALLS_V1,
    DISCARD,
    FOLLOW,
    LEAD,
    RUFF,
    TRUMP_LED,
    bid_likelihood,
    kind_of,
    play_log_likelihood,
    strength,
)
from oudler.bots.expert.playout import PlayState, advance
from oudler.bots.expert.sampler import (
    Facts,
    World,
    WorldSampler,
    facts,
    normalized_weights,
    resample,
    sampler_for,
    world_of,
)
from oudler.core import Contract, Deal, Observation, Phase
from oudler.core import cards as C
from oudler.core.tricks import TrickState, legal_mask
from test_sampler import assert_consistent, assert_uniform, random_positions, small_endgames

HEARTS = 1


def _strengths(sampler: WorldSampler, rows: np.ndarray, seat: int) -> list[float]:
    f = sampler.facts
    out = []
    for r in rows.tolist():
        w = world_of(r)
        out.append(strength(f.dealt_hand(seat, w.hands[seat], w.pile)))
    return out


def test_kernel_worlds_replay_through_the_engine_to_the_same_observation() -> None:
    rng = random.Random(21)
    for _, obs in random_positions(5, 250):
        f = facts(obs)
        sampler = WorldSampler(f)
        for inference in (False, True):
            for w in sampler.draw(rng, 3, inference):
                assert_consistent(obs, f, w)


def test_the_kernel_draws_every_consistent_world_uniformly_in_small_endgames() -> None:
    rng = random.Random(3)
    cases = small_endgames(4)
    assert len(cases) >= 5
    for _, f, worlds in cases:
        draws = WorldSampler(f).draw(rng, 60 * len(worlds), inference=False)
        assert_uniform(Counter(draws), worlds, 60)


def test_compiled_strength_is_the_hand_models() -> None:
    rng = random.Random(5)
    for _ in range(2000):
        hand = C.mask_of(rng.sample(range(C.NUM_CARDS), 18))
        assert K.strength(hand) == strength(hand)


def test_call_weights_are_the_python_samplers() -> None:
    """With calls and no card played, each world's kernel weight is the Python ``weight``."""
    rng = random.Random(9)
    seen = 0
    for _, obs in random_positions(6, 300):
        sampler = WorldSampler(facts(obs))
        ev = sampler.evidence()
        if ev is None or len(ev.plays):
            continue
        rows = sampler.draw_rows(rng, 8, inference=False)
        lw = K.log_weights(sampler.deck(), rows, ev)
        for r, x in zip(rows.tolist(), lw.tolist(), strict=True):
            assert abs(np.exp(x) / sampler.weight(world_of(r), CALLS) - 1) < 1e-9
        seen += 1
    assert seen >= 20


def _bid_then_observe(calls: dict[int, Contract | None], watched: int) -> WorldSampler:
    """Seat 0 to bid first (dealer 3); the others' calls as given; ``watched`` to move."""
    for seed in range(100):
        deal = Deal.from_seed(seed, 3)
        if deal.is_over:
            continue
        while deal.to_move != watched:
            deal.bid(calls[deal.to_move])
        return sampler_for(facts(deal.observation(watched)))
    raise AssertionError("no deal")


def test_a_pass_lowers_the_weight_of_worlds_giving_the_seat_a_strong_hand() -> None:
    sampler = _bid_then_observe({0: None, 1: None}, 2)
    rng = random.Random(1)
    plain = _strengths(sampler, sampler.draw_rows(rng, 2000, inference=False), 0)
    weighted = _strengths(sampler, sampler.draw_rows(rng, 2000, inference=True), 0)
    strong = 60.0  # a Garde hand by the hand model
    assert sum(s >= strong for s in weighted) < 0.5 * sum(s >= strong for s in plain)
    assert sum(weighted) / 2000 < sum(plain) / 2000 - 0.5


def test_a_garde_raises_the_weight_of_worlds_giving_the_seat_a_strong_hand() -> None:
    sampler = _bid_then_observe({0: Contract.GARDE}, 1)
    rng = random.Random(2)
    plain = _strengths(sampler, sampler.draw_rows(rng, 2000, inference=False), 0)
    weighted = _strengths(sampler, sampler.draw_rows(rng, 2000, inference=True), 0)
    assert sum(weighted) / 2000 > sum(plain) / 2000 + 5


def _queen_under_the_king() -> Deal:
    """Seat 0 takes a Garde sans and leads the King of hearts; seat 1, holding the Queen and
    two small hearts, plays the Queen under it (the policy would keep the Queen: it gives the
    declarer 4.5 points). Seat 2 is to move."""
    rng = random.Random(4)
    king, queen = C.suit_card(HEARTS, 14), C.suit_card(HEARTS, 13)
    small = [C.suit_card(HEARTS, 2), C.suit_card(HEARTS, 3)]
    for _ in range(100):
        rest = [c for c in range(C.NUM_CARDS) if c not in (king, queen, *small)]
        rng.shuffle(rest)
        hands = [
            C.mask_of([king, *rest[:17]]),
            C.mask_of([queen, *small, *rest[17:32]]),
            C.mask_of(rest[32:50]),
            C.mask_of(rest[50:68]),
        ]
        deal = Deal(hands, C.mask_of(rest[68:74]), 3)
        if deal.is_over or any((h & C.TRUMPS).bit_count() >= 10 for h in hands):
            continue
        deal.bid(Contract.GARDE_SANS)
        for _ in range(3):
            deal.bid(None)
        deal.announce_chelem(False)
        deal.play(king)
        deal.play(queen)
        assert deal.to_move == 2
        return deal
    raise AssertionError("no deal")


def test_a_queen_given_to_the_declarer_makes_a_singleton_queen_likelier() -> None:
    deal = _queen_under_the_king()
    sampler = sampler_for(facts(deal.observation(2)))
    rng = random.Random(6)
    hearts = C.SUIT_MASKS[HEARTS]

    def void(rows: np.ndarray) -> int:
        return sum(not world_of(r).hands[1] & hearts for r in rows.tolist())

    plain = void(sampler.draw_rows(rng, 20000, inference=False))
    weighted = void(sampler.draw_rows(rng, 20000, inference=True))
    assert plain > 50
    assert weighted > 1.8 * plain


def test_the_true_deal_is_likelier_than_a_random_world_when_club_plays() -> None:
    """Over positions of deals played by club, the true world's weight ranks above most of the
    uniformly drawn worlds' (the model explains real play), never below them all on average."""
    rng = random.Random(7)
    ranks = []
    for seed in range(12):
        deal = Deal.from_seed(300 + seed, seed & 3)
        if deal.is_over:
            continue
        bots = [make_bot("club", seed=s) for s in range(4)]
        for s, b in enumerate(bots):
            b.begin_deal(s)
        stop = 30 + 3 * seed
        while not deal.is_over and len(deal.play_log) < stop:
            deal.act(bots[deal.to_move].act(deal.observation(deal.to_move)))
        if deal.is_over:
            continue
        watched = deal.to_move
        sampler = sampler_for(facts(deal.observation(watched)))
        ev = sampler.evidence()
        assert ev is not None
        truth = np.zeros((1, 10), dtype=np.uint64)
        for s in range(4):
            truth[0, 2 * s], truth[0, 2 * s + 1] = K.split(deal.hands[s])
        truth[0, 8], truth[0, 9] = K.split(deal.discard if deal.discard else deal.dog)
        deck = sampler.deck()
        mine = K.log_weights(deck, truth, ev)[0]
        others = K.log_weights(deck, sampler.draw_rows(rng, 400, inference=False), ev)
        ranks.append(float(np.mean(others < mine) + 0.5 * np.mean(others == mine)))
    assert len(ranks) >= 8
    assert sum(ranks) / len(ranks) > 0.75


def test_weights_are_normalized_and_draws_deterministic_for_a_seed() -> None:
    deal = _queen_under_the_king()
    sampler = sampler_for(facts(deal.observation(2)))
    ev = sampler.evidence()
    assert ev is not None
    rows = sampler.draw_rows(random.Random(1), 300, inference=False)
    w = normalized_weights(K.log_weights(sampler.deck(), rows, ev))
    assert abs(float(w.sum()) - 1.0) < 1e-12 and (w > 0).all()
    assert len(set(w.tolist())) > 1  # the cards played tell worlds apart
    a = sampler.draw_rows(random.Random(11), 64, inference=True)
    b = sampler.draw_rows(random.Random(11), 64, inference=True)
    c = sampler.draw_rows(random.Random(12), 64, inference=True)
    assert (a == b).all() and not (a == c).all()


def test_systematic_resampling_follows_the_weights() -> None:
    log_w = np.log(np.array([1.0, 0.0001, 3.0, 0.0]) + 1e-300)
    idx = resample(log_w, 400, 0.37)
    counts = Counter(idx.tolist())
    assert counts[0] == 100 and counts[2] == 300 and counts[3] == 0 and counts[1] <= 1


def test_inference_off_draws_uniform_worlds_whatever_the_calls() -> None:
    sampler = _bid_then_observe({0: Contract.GARDE}, 1)
    a = sampler.draw_rows(random.Random(3), 50, inference=False)
    deck_only = K.draw_worlds(sampler.deck(), 50, random.Random(3).getrandbits(32), 50_000)
    assert (a == deck_only).all()


def _garde_for_seat_3(calls: tuple[Contract | None, ...], cards: int) -> Observation:
    """Dealer 3, seats 0-2 call ``calls``, seat 3 takes a Garde; club plays the discard, the
    chelem and poignée questions and at least ``cards`` cards; then seat 2's observation (once
    it is to play, if ``cards``)."""
    for seed in range(100):
        deal = Deal.from_seed(500 + seed, 3)
        if deal.is_over:
            continue
        for call in (*calls, Contract.GARDE):
            deal.bid(call)
        bots = [make_bot("club", seed=s) for s in range(4)]
        for s, b in enumerate(bots):
            b.begin_deal(s)
        while (
            deal.phase is not Phase.PLAY
            or len(deal.play_log) < cards
            or (cards and deal.to_move != 2)
        ):
            deal.act(bots[deal.to_move].act(deal.observation(deal.to_move)))
        return deal.observation(2)
    raise AssertionError("no deal")


def test_imposed_calls_are_not_evidence_but_real_calls_are() -> None:
    """The same position reached after seats 0-2 passed, or after seat 1 bid a Prise (seat 3's
    Garde above both): with the calls imposed (an arena's fixed contract) the worlds and their
    weights do not depend on them; with real calls the Prise makes seat 1's hand stronger."""
    for cards in (0, 6):
        passes = _garde_for_seat_3((None, None, None), cards)
        prise = _garde_for_seat_3((None, Contract.PRISE, None), cards)
        assert passes.bids != prise.bids
        assert (passes.hand, passes.tricks, passes.trick_cards) == (
            prise.hand,
            prise.tricks,
            prise.trick_cards,
        )
        imposed = [sampler_for(facts(o, calls_imposed=True)) for o in (passes, prise)]
        assert imposed[0].facts == imposed[1].facts and imposed[0].facts.calls == ()
        ev = imposed[0].evidence()
        if cards == 0:  # no card played yet: nothing but hard facts to go on
            assert ev is None
        else:  # the cards played still count, the calls do not
            assert ev is not None and len(ev.plays) and not len(ev.call_seats)
        a = imposed[0].draw_rows(random.Random(8), 500, inference=True)
        b = imposed[1].draw_rows(random.Random(8), 500, inference=True)
        assert (a == b).all()
        uniform = imposed[0].draw_rows(random.Random(4), 400, inference=False)
        if ev is not None:
            lw = K.log_weights(imposed[0].deck(), uniform, ev)
            assert (lw == K.log_weights(imposed[1].deck(), uniform, ev)).all()
        # the pure-Python sampler of expert-v1 reads the calls only: its worlds become uniform
        py_a = imposed[0].sample_weighted(random.Random(2), 20)
        assert py_a == imposed[1].sample_weighted(random.Random(2), 20)
        assert py_a == [imposed[0].sample(r) for r in [random.Random(2)] for _ in range(20)]
        # real calls: the same uniform worlds weigh differently, and seat 1 is stronger
        real = [sampler_for(facts(o)) for o in (passes, prise)]
        evs = [s.evidence() for s in real]
        assert evs[0] is not None and evs[1] is not None
        lws = [K.log_weights(s.deck(), uniform, e) for s, e in zip(real, evs, strict=True)]
        assert not (lws[0] == lws[1]).all()
        rng = random.Random(3)
        s1 = [_strengths(s, s.draw_rows(rng, 2000, inference=True), 1) for s in real]
        assert sum(s1[1]) / 2000 > sum(s1[0]) / 2000 + 5


def _play_positions(seed: int, count: int) -> list[WorldSampler]:
    """Samplers of positions in the play with cards of other seats to explain."""
    out = []
    for _, obs in random_positions(seed, 400):
        sampler = sampler_for(facts(obs))
        ev = sampler.evidence()
        if obs.phase is Phase.PLAY and ev is not None and len(ev.plays) >= 6:
            out.append(sampler)
        if len(out) == count:
            break
    return out


def test_card_weights_are_the_python_reference() -> None:
    """The kernel's weight of each world (calls and cards, the policy seeing the whole world or
    only what the player could) is the Python reference's: ``WorldSampler.weight`` for the calls
    times ``handmodel.play_log_likelihood`` for the cards, with a different ``eps`` in each of
    the ten situations, so that a situation told apart wrongly shows."""
    rng = random.Random(13)
    eps = np.asarray([0.11, 0.13, 0.17, 0.19, 0.23, 0.29, 0.31, 0.37, 0.41, 0.43])
    samplers = _play_positions(17, 40)
    assert len(samplers) >= 30
    off = 0
    for sampler in samplers:
        f = sampler.facts
        ev = sampler.evidence()
        assert ev is not None
        rows = sampler.draw_rows(rng, 6, inference=False)
        for fair in (True, False):
            e = dataclasses.replace(ev, eps=eps, fair=fair)
            lw = K.log_weights(sampler.deck(), rows, e)
            for r, x in zip(rows.tolist(), lw.tolist(), strict=True):
                w = world_of(r)
                start = [w.hands[s] | f.played_by[s] for s in range(4)]
                assert f.declarer is not None
                shown = f.dog if f.phase is Phase.PLAY else 0
                discard = w.pile if shown else 0
                cards = play_log_likelihood(start, list(f.plays), f.leader, f.seat, f.declarer,
                                            shown, discard, tuple(eps), fair)  # fmt: skip
                assert abs(x - (math.log(sampler.weight(w, CALLS)) + cards)) < 1e-9
                off += cards < 0
    assert off >= 100  # random play: many cards off the policy were scored


def _seats(f: Facts, w: World) -> list[int]:
    """Who played each card of ``f.plays`` (the trick winners lead)."""
    st = PlayState()
    st.hands = [w.hands[s] | f.played_by[s] for s in range(4)]
    st.leader = f.leader
    seats = []
    assert f.declarer is not None
    for c in f.plays:
        seats.append(st.to_move)
        advance(st, c, f.declarer)
    return seats


def _swaps(
    rng: random.Random, positions: int, per: int
) -> Iterator[tuple[WorldSampler, World, int, tuple[int, int], np.ndarray]]:
    """For ``per`` uniform worlds of each of ``positions`` play positions: (the sampler, the
    world, a seat ``x`` other than the one to move, the two others ``a`` and ``b``, and two
    rows: the world, and the same with a random card of ``a`` and one of ``b`` swapped)."""
    for sampler in _play_positions(23, positions):
        others = [s for s in range(4) if s != sampler.facts.seat]
        for r in sampler.draw_rows(rng, per, inference=False).tolist():
            w = world_of(r)
            x = rng.choice(others)  # whose cards are scored
            a, b = [s for s in others if s != x]
            pair = _swapped(rng, r, w, a, b)
            if pair is not None:
                yield sampler, w, x, (a, b), pair


def _swapped(rng: random.Random, r: list[int], w: World, a: int, b: int) -> np.ndarray | None:
    """Two rows: the world ``r``, and the same with one random card of seat ``a`` and one of
    seat ``b`` swapped (None when either holds none)."""
    if not w.hands[a] or not w.hands[b]:
        return None
    ca = rng.choice(C.cards_of(w.hands[a]))
    cb = rng.choice(C.cards_of(w.hands[b]))
    hands = list(w.hands)
    hands[a] = hands[a] ^ (1 << ca) | (1 << cb)
    hands[b] = hands[b] ^ (1 << cb) | (1 << ca)
    pair = np.zeros((2, 10), dtype=np.uint64)
    pair[0] = r
    pair[1] = r
    for s in (a, b):
        pair[1, 2 * s], pair[1, 2 * s + 1] = K.split(hands[s])
    return pair


def test_under_the_fair_view_a_card_tells_about_its_players_hand_only() -> None:
    """Swapping hidden cards between two seats leaves the likelihood of a third seat's cards
    unchanged when the policy sees what that player could see, but not always when it sees
    the whole world (then a defender's lead, say, would tell where the declarer's voids are)."""
    rng = random.Random(19)
    moved = {True: 0, False: 0}
    checked = 0
    for sampler, w, x, _, pair in _swaps(rng, 40, 4):
        f = sampler.facts
        plays = np.asarray(f.plays, dtype=np.int64)
        mine = [i for i, s in enumerate(_seats(f, w)) if s == x]
        for fair in (True, False):
            feats = K.play_features(sampler.deck(), pair, plays, f.leader, fair)
            same = (feats[0, mine, :2] == feats[1, mine, :2]).all()
            if fair:
                assert same
            moved[fair] += not same
        checked += 1
    assert checked >= 60
    assert moved[False] > 0 and moved[True] == 0


def test_situations_of_a_card_decision() -> None:
    """``handmodel.kind_of`` (and the kernel's, through the agreement test): a lead, following
    the suit led, trumps led, trumping for want of the suit, and discarding (neither the suit
    nor a trump), whatever other suits the hand holds."""
    spade = [C.suit_card(0, r) for r in (2, 9)]
    heart = C.suit_card(HEARTS, 5)
    t5, t12 = C.trump(5), C.trump(12)

    def kind(led: int | None, hand: list[int]) -> int:
        t = TrickState(0)
        if led is not None:
            t.add(led)
        m = C.mask_of(hand)
        return kind_of(t, legal_mask(m, t.led, t.high))

    assert kind(None, [*spade, t5]) == LEAD
    assert kind(C.EXCUSE, [*spade, t5]) == LEAD  # only the Excuse down: no suit to follow yet
    assert kind(C.suit_card(0, 13), [*spade, heart, t5]) == FOLLOW
    assert kind(C.suit_card(0, 13), [heart, t5, t12]) == RUFF
    assert kind(C.suit_card(0, 13), [heart, C.suit_card(2, 4)]) == DISCARD  # other suits only
    assert kind(t12, [heart, t5]) == TRUMP_LED
    assert kind(t12, [heart, *spade]) == DISCARD


def test_expert_v1_keeps_the_hand_set_call_model() -> None:
    """The arena's fixed reference (expert-v1, the Python sampler's ``sample_weighted``) weighs
    calls by ``CALLS_V1``; the kernel's inference by the fitted ``CALLS``, under which a Garde
    says the hand is above strength 45 rather than 56."""
    sampler = _bid_then_observe({0: Contract.GARDE}, 1)
    rng = random.Random(5)
    worlds = [sampler.sample(rng) for _ in range(200)]
    assert all(sampler.weight(w) == sampler.weight(w, CALLS_V1) for w in worlds)
    assert any(sampler.weight(w) != sampler.weight(w, CALLS) for w in worlds)
    mid = 50.0  # a Garde hand for the fitted model, rather not one for the hand-set one
    assert bid_likelihood(mid, Contract.GARDE, None) > 0.5
    assert bid_likelihood(mid, Contract.GARDE, None, CALLS_V1) < 0.3


def test_a_world_drawn_twice_has_the_same_card_values() -> None:
    """The search computes each distinct world once (resampling repeats some): a world's card
    values, played out or solved, do not depend on the other worlds of the batch."""
    from oudler.bots.expert import fast
    from oudler.bots.expert.search import public_state, table_for

    deal = _queen_under_the_king()
    obs = deal.observation(2)
    sampler = sampler_for(facts(obs))
    rows = sampler.draw_rows(random.Random(3), 200, inference=True)
    distinct, back = np.unique(rows, axis=0, return_inverse=True)
    assert len(distinct) < len(rows)  # the resampling did repeat worlds
    table = table_for(obs)
    base = fast.position_of(public_state(obs))
    sc = fast.scoring_of(table)
    cands = C.cards_of(obs.legal.cards)
    whole = K.card_values(base, rows, cands, sc, False)
    assert (K.card_values(base, distinct, cands, sc, False)[:, back.reshape(-1)] == whole).all()
    # the exact solve, in endgames (3 to 4 tricks left): a world's value alone or in a batch
    solved = 0
    for end, f, _ in small_endgames(4):
        cs = C.cards_of(end.legal.cards)
        if len(cs) < 2 or solved == 3:
            continue
        solved += 1
        s = WorldSampler(f)
        few = s.draw_rows(random.Random(4), 6, inference=False)
        t = table_for(end)
        b = fast.position_of(public_state(end))
        both = K.card_values(b, few, cs, fast.scoring_of(t), True)
        for k in range(len(few)):
            alone = K.card_values(b, few[k : k + 1], cs, fast.scoring_of(t), True)
            assert (alone[:, 0] == both[:, k]).all()
    assert solved >= 1


def _packaged_lik(beta: float = 1.0, mix: float = 0.0) -> K.NetLik:
    return K.card_likelihood(K.load_playout_net(), beta, mix)


def test_the_learned_card_likelihood_is_a_distribution_over_the_legal_cards() -> None:
    """``_worlds.card_loglik``: the learned network's probabilities of a seat's legal cards sum
    to 1, the uniform share ``mix`` = 1 gives each 1/n, and a larger ``beta`` sharpens them
    (the best card's probability does not fall)."""
    from oudler.kernel import _learned, _worlds
    from test_learned_playout import random_position

    rng = random.Random(29)
    cards = np.zeros(_learned.MAX_LEGAL, dtype=np.int64)
    rows = np.zeros((_learned.MAX_LEGAL, K.PLAYOUT_WIDTH), dtype=np.float32)
    vals = np.zeros(_learned.MAX_LEGAL, dtype=np.float64)
    seen = 0
    for _ in range(60):
        p, declarer, _ = random_position(rng)
        legal, _ = K.playout_facts(p, declarer)
        if len(legal) < 2:
            continue

        def probs(lik: K.NetLik, p: K.Position = p, decl: int = declarer) -> list[float]:
            return [
                math.exp(_worlds.card_loglik(p.H, p.S, decl, c, lik, cards, rows, vals))
                for c in legal  # noqa: B023 (used at once, in this pass of the loop)
            ]

        plain = probs(_packaged_lik())
        assert abs(sum(plain) - 1) < 1e-9
        assert all(abs(x - 1 / len(legal)) < 1e-12 for x in probs(_packaged_lik(1.0, 1.0)))
        mixed = probs(_packaged_lik(1.0, 0.2))
        assert abs(sum(mixed) - 1) < 1e-9 and min(mixed) >= 0.2 / len(legal) - 1e-12
        best = max(range(len(legal)), key=plain.__getitem__)
        assert probs(_packaged_lik(3.0))[best] >= plain[best] - 1e-12
        seen += 1
    assert seen >= 30


def test_the_learned_card_likelihood_reads_its_players_hand_only() -> None:
    """Swapping hidden cards between two seats leaves the learned likelihood of a third seat's
    cards unchanged (it decides from the fair view); the cards of the two seats swapped do
    move it somewhere, and the evidence's total is the sum of the cards'."""
    rng = random.Random(31)
    lik = _packaged_lik(0.7, 0.1)
    moved = checked = 0
    for sampler, w, x, (a, b), pair in _swaps(rng, 30, 3):
        f = sampler.facts
        plays = np.asarray(f.plays, dtype=np.int64)
        lp = K.play_logliks(sampler.deck(), pair, plays, f.leader, lik)
        seats = _seats(f, w)
        mine = [i for i, s in enumerate(seats) if s == x]
        theirs = [i for i, s in enumerate(seats) if s in (a, b)]
        assert (lp[0, mine] == lp[1, mine]).all()
        assert (lp[:, [i for i, s in enumerate(seats) if s == f.seat]] == 0).all()
        moved += bool((lp[0, theirs] != lp[1, theirs]).any())
        ev = dataclasses.replace(sampler.evidence(), net=lik, call_seats=np.zeros(0, np.int64))
        total = K.log_weights(sampler.deck(), pair, ev)
        assert np.allclose(total, lp.sum(axis=1))
        checked += 1
    assert checked >= 40 and moved > 0


def test_a_card_likelihood_needs_a_positive_scale_and_a_share() -> None:
    net = K.load_playout_net()
    for beta, mix in ((0.0, 0.1), (-1.0, 0.1), (1.0, -0.1), (1.0, 1.5)):
        with pytest.raises(ValueError, match="beta > 0"):
            K.card_likelihood(net, beta, mix)


def test_discard_gap_is_the_discard_heuristics() -> None:
    """``kernel.discard_gap``: the discard's ``quick_value`` less the best of
    ``discard_candidates`` (capped at 0), as ``bots.discards`` has them; 0 when the discard must
    hold trumps."""
    from oudler.bots.discards import discard_candidates, quick_value
    from oudler.core.deal import discard_rule

    rng = random.Random(41)
    below = forced_seen = 0
    for _ in range(1500):
        hand = C.mask_of(rng.sample(range(C.NUM_CARDS), 24))
        if rng.random() < 0.1:  # few suit cards: the discard must hold trumps
            hand = C.mask_of(rng.sample(range(22), 20) + rng.sample(range(22, 78), 4))
        allowed, forced = discard_rule(hand)
        if forced:
            forced_seen += 1
            d = C.mask_of(rng.sample(C.cards_of(allowed), 6))
            assert K.discard_gap(hand, d) == 0.0
            continue
        cands = discard_candidates(hand)
        d = (
            rng.choice(cands)
            if rng.random() < 0.3
            else C.mask_of(rng.sample(C.cards_of(allowed), 6))
        )
        best = max(quick_value(hand, c) for c in cands)
        want = min(0.0, quick_value(hand, d) - best)
        assert K.discard_gap(hand, d) == pytest.approx(want, abs=1e-9)
        below += want < 0
    assert below > 500 and forced_seen > 50


def test_a_defender_reads_the_declarers_discard_once_the_dog_was_shown() -> None:
    """With ``discard`` > 0 a defender's world weights gain that many times the world's discard
    gap (the declarer's 24 cards being his hand, what he played and the discard); the
    declarer's own weights, and any seat's when the dog was not shown, do not move. The worlds
    it favours hold discards the heuristic rates higher."""
    rng = random.Random(43)
    lam = 0.3
    moved = same = 0
    for _, obs in random_positions(47, 500):
        f = facts(obs)
        if obs.phase is not Phase.PLAY or f.declarer is None:
            continue
        sampler = sampler_for(f)
        ev0 = sampler.evidence()
        ev1 = sampler.evidence(lam)
        rows = sampler.draw_rows(rng, 30, inference=False)
        deck = sampler.deck()
        defender_seeing_dog = f.seat != f.declarer and bool(f.dog)
        if not defender_seeing_dog:
            assert (ev0 is None) == (ev1 is None)
            assert ev1 is None or ev1.discard == 0
            same += 1
            continue
        assert ev1 is not None and ev1.discard == lam
        base = K.log_weights(deck, rows, ev0) if ev0 is not None else np.zeros(len(rows))
        got = K.log_weights(deck, rows, ev1)
        d = f.declarer
        for r, a, b in zip(rows.tolist(), base.tolist(), got.tolist(), strict=True):
            pile = K.join(r[8], r[9])
            hand = K.join(r[2 * d], r[2 * d + 1]) | f.played_by[d] | pile
            assert b - a == pytest.approx(lam * K.discard_gap(hand, pile), abs=1e-9)
        if moved < 5:  # drawn with the evidence, the discards rate higher

            def mean_gap(drawn: np.ndarray, d: int = d, gone: int = f.played_by[d]) -> float:
                gaps = []
                for r in drawn.tolist():
                    pile = K.join(r[8], r[9])
                    hand = K.join(r[2 * d], r[2 * d + 1]) | gone | pile
                    gaps.append(K.discard_gap(hand, pile))
                return sum(gaps) / len(gaps)

            plain = mean_gap(sampler.draw_rows(rng, 300, inference=False))
            weighted = mean_gap(sampler.draw_rows(rng, 300, inference=True, discard=1.0))
            assert weighted > plain
        moved += 1
        if moved >= 25 and same >= 25:
            break
    assert moved >= 25 and same >= 25
