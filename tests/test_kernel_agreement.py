"""The compiled kernel agrees with the pure Python core (the reference) on legal cards, trick
winners and deal scores over random playouts, and with the expert's Python heuristic policy card
by card."""

from __future__ import annotations

import random

import pytest

from oudler import kernel as K
from oudler.bots.expert.fast import position_of
from oudler.bots.expert.playout import PlayState, Table, advance, choose, playout
from oudler.core import cards as C
from oudler.core.deal import Contract, Trick, score_deal
from oudler.core.tricks import TrickState, legal_mask, trick_taker

DEALS = 5_000  # a batch: two batches make the 10,000 random playouts


def random_deal(rng: random.Random) -> tuple[list[int], int]:
    deck = list(range(C.NUM_CARDS))
    rng.shuffle(deck)
    return [C.mask_of(deck[18 * i : 18 * i + 18]) for i in range(4)], C.mask_of(deck[72:])


def random_setup(rng: random.Random) -> tuple[list[int], int, int, Contract, bool, int]:
    hands, dog = random_deal(rng)
    contract = rng.choice(list(Contract))
    return hands, dog, rng.randrange(4), contract, rng.random() < 0.1, rng.choice([0, 20, 30, 50])


def core_poignee_bonus(b: int) -> list[int]:
    masks = {0: [], 20: [(1 << 10) - 1], 30: [(1 << 13) - 1], 50: [(1 << 10) - 1, (1 << 13) - 1]}
    return masks[b]


@pytest.mark.parametrize("seed", [9, 10])
def test_kernel_agrees_with_core_on_legal_cards_trick_winners_and_scores(seed: int) -> None:
    rng = random.Random(seed)
    setups = [random_setup(rng) for _ in range(DEALS)]
    deals = []
    scorings = []
    for hands, dog, decl, contract, announced, bonus in setups:
        extra = dog if contract is not Contract.GARDE_CONTRE else 0
        deals.append((hands, extra))
        scorings.append(K.Scoring(decl, contract.multiplier, announced, bonus))
    leaders = [rng.randrange(4) for _ in range(DEALS)]
    rec = K.random_playouts(deals, leaders, scorings, seed=2026 + seed)
    excuse_kinds = set()
    for d, (hands0, dog, decl, contract, announced, bonus) in enumerate(setups):
        hands = hands0[:]
        tricks: list[Trick] = []
        t = TrickState(leaders[d])
        dtricks = 0
        for p in range(72):
            seat = t.seat_of(len(t.cards))
            assert rec.legals[d][p] == legal_mask(hands[seat], t.led, t.high), (d, p)
            card = int(rec.plays[d, p])
            assert rec.legals[d][p] >> card & 1
            hands[seat] &= ~(1 << card)
            t.add(card)
            if len(t.cards) == 4:
                taker = trick_taker(t, p // 4, decl, dtricks)
                assert rec.winners[d, p // 4] == taker, (d, p)
                dtricks += taker == decl
                tricks.append(Trick(t.leader, tuple(t.cards), taker))
                t = TrickState(taker)
        res = score_deal(
            contract,
            decl,
            tricks,
            discard=dog,
            dog=dog,
            chelem_announced=announced,
            poignees=core_poignee_bonus(bonus),
        )
        assert rec.scores[d] == res.per_defender, (d, res)
        excuse_kinds.add(res.excuse_exchange)
    # the random deals reached every Excuse settlement the core knows
    assert excuse_kinds >= {"exchanged", "same_side", "last_trick"}


def test_kernel_trick_winner_and_legal_cards_match_core_on_random_tricks() -> None:
    rng = random.Random(3)
    for _ in range(3000):
        cards = rng.sample(range(C.NUM_CARDS), 4)
        leader = rng.randrange(4)
        t = TrickState(leader)
        for c in cards:
            t.add(c)
        assert K.trick_winner(leader, cards) == t.winner
        hand = C.mask_of(rng.sample(range(C.NUM_CARDS), rng.randrange(1, 19)))
        led = rng.choice([-1, 0, 1, 2, 3, 4])
        high = rng.randrange(-1, 21) if led == 4 or rng.random() < 0.5 else -1
        assert K.legal(hand, led, high) == legal_mask(hand, led, high)


def _py_state(hands: list[int], leader: int, extra: int) -> PlayState:
    st = PlayState()
    st.hands = hands[:]
    st.leader = leader
    st.extra = extra
    return st


def test_kernel_policy_plays_the_same_cards_as_the_python_policy() -> None:
    rng = random.Random(5)
    for _ in range(1000):
        hands, dog, decl, contract, _, _ = random_setup(rng)
        extra = dog if contract is not Contract.GARDE_CONTRE else 0
        leader = rng.randrange(4)
        st = _py_state(hands, leader, extra)
        kp = K.position(hands, leader=leader, extra=extra)
        while st.n < 18:
            t = st.trick()
            seat = st.to_move
            lg = legal_mask(st.hands[seat], t.led, t.high)
            c = choose(st.hands, seat, lg, t, decl, st.dtricks == st.n)
            assert K.policy_card(kp, decl) == c
            advance(st, c, decl)
            K.play(kp, c, decl)
        assert K.declarer_tricks(kp) == st.dtricks


@pytest.mark.parametrize("cut", [0, 30, 55])
def test_kernel_playout_scores_equal_the_python_playout(cut: int) -> None:
    rng = random.Random(cut)
    for _ in range(300):
        hands, dog, decl, contract, announced, bonus = random_setup(rng)
        extra = dog if contract is not Contract.GARDE_CONTRE else 0
        st = _py_state(hands, rng.randrange(4), extra)
        for _ in range(cut):  # a random start of the play, then the policy to the end
            t = st.trick()
            lg = legal_mask(st.hands[st.to_move], t.led, t.high)
            advance(st, rng.choice(C.cards_of(lg)), decl)
        kp = position_of(st)
        table = Table(decl, contract.multiplier, announced, bonus, True)
        sc = K.Scoring(decl, contract.multiplier, announced, bonus)
        assert K.playout(kp, sc) == playout(st, table)
