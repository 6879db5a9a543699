"""The kernel's exact endgame solver (alpha-beta, move ordering, transposition table) returns
the value of a plain minimax over every legal card, scored by the core's ``score_deal``."""

from __future__ import annotations

import random

from oudler import kernel as K
from oudler.bots.expert.fast import position_of
from oudler.bots.expert.playout import PlayState, Table, advance, solve
from oudler.core import cards as C
from oudler.core.deal import Contract, Trick, score_deal
from oudler.core.tricks import TrickState, legal_mask, trick_taker


class Endgame:
    """A deal played at random up to a few cards from the end, kept as the core sees it."""

    def __init__(self, rng: random.Random, cards_left: int) -> None:
        deck = list(range(C.NUM_CARDS))
        rng.shuffle(deck)
        self.hands = [C.mask_of(deck[18 * i : 18 * i + 18]) for i in range(4)]
        self.dog = C.mask_of(deck[72:])
        self.decl = rng.randrange(4)
        self.contract = rng.choice(list(Contract))
        self.announced = rng.random() < 0.2
        self.bonus = rng.choice([0, 20, 40])
        self.tricks: list[Trick] = []
        self.t = TrickState(rng.randrange(4))
        for _ in range(72 - cards_left):
            seat = self.t.seat_of(len(self.t.cards))
            lg = legal_mask(self.hands[seat], self.t.led, self.t.high)
            self.play(rng.choice(C.cards_of(lg)))

    @property
    def dtricks(self) -> int:
        return sum(t.winner == self.decl for t in self.tricks)

    def play(self, card: int) -> None:
        seat = self.t.seat_of(len(self.t.cards))
        self.hands[seat] &= ~(1 << card)
        self.t.add(card)
        if len(self.t.cards) == 4:
            taker = trick_taker(self.t, len(self.tricks), self.decl, self.dtricks)
            self.tricks.append(Trick(self.t.leader, tuple(self.t.cards), taker))
            self.t = TrickState(taker)

    def minimax(self) -> int:
        """Plain minimax: every legal card, no pruning, leaves scored by the core."""
        if len(self.tricks) == 18:
            masks = {0: [], 20: [(1 << 10) - 1], 40: [(1 << 15) - 1]}
            return score_deal(
                self.contract,
                self.decl,
                self.tricks,
                discard=self.dog,
                dog=self.dog,
                chelem_announced=self.announced,
                poignees=masks[self.bonus],
            ).per_defender
        seat = self.t.seat_of(len(self.t.cards))
        values = []
        for c in C.cards_of(legal_mask(self.hands[seat], self.t.led, self.t.high)):
            saved = (self.hands[:], self.t.copy(), self.tricks[:])
            self.play(c)
            values.append(self.minimax())
            self.hands, self.t, self.tricks = saved
        return max(values) if seat == self.decl else min(values)

    def position(self) -> K.Position:
        st = self.py_state()
        return position_of(st)

    def py_state(self) -> PlayState:
        st = PlayState()
        st.leader = self.tricks[0].leader if self.tricks else self.t.leader
        for t in self.tricks:
            for c in t.cards:
                advance(st, c, self.decl)
        for c in self.t.cards:
            advance(st, c, self.decl)
        st.hands = self.hands[:]
        st.extra = self.dog if self.contract is not Contract.GARDE_CONTRE else 0
        return st

    def scoring(self) -> K.Scoring:
        return K.Scoring(self.decl, self.contract.multiplier, self.announced, self.bonus)


def test_kernel_solver_equals_plain_minimax_on_small_endgames() -> None:
    rng = random.Random(17)
    K.clear_table()
    cases = [(n, 600) for n in (4, 5, 6, 7, 8)] + [(n, 100) for n in (9, 10, 11, 12)]
    for cards_left, count in cases:
        for _ in range(count):
            g = Endgame(rng, cards_left)
            p = g.position()
            before = (p.H.copy(), p.S.copy())
            assert K.solve(p, g.scoring()) == g.minimax(), (cards_left, g.hands)
            assert (before[0] == p.H).all() and (before[1] == p.S).all()  # left as it was


def test_kernel_solver_equals_the_python_solver_with_four_tricks_left() -> None:
    rng = random.Random(23)
    for cards_left in (13, 16):
        for _ in range(60):
            g = Endgame(rng, cards_left)
            st = g.py_state()
            table = Table(g.decl, g.contract.multiplier, g.announced, g.bonus, True)
            assert K.solve(g.position(), g.scoring()) == solve(st, table)
