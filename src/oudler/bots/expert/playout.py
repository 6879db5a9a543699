"""Fast play of the cards inside one sampled world: a heuristic policy, playouts to the end of the
deal, and an exact alpha-beta solver for the last tricks.

Following, trumping and trick winners come from the core's pure ``tricks`` functions
(``legal_mask``, ``TrickState``); leaves are valued by ``scoring.per_defender``, the actual deal
score. A ``PlayState`` holds one world's hands and what the tricks so far mean for the score.
"""

from __future__ import annotations

from dataclasses import dataclass

from oudler.core import cards as C
from oudler.core.deal import TRICKS
from oudler.core.tricks import LED_NONE, LED_TRUMP, TrickState, legal_mask, trick_taker

from .scoring import per_defender

EXCUSE = C.EXCUSE
EXCUSE_BIT = C.EXCUSE_BIT
PETIT = C.PETIT
PETIT_BIT = C.PETIT_BIT
TRUMPS = C.TRUMPS
SUIT_MASKS = C.SUIT_MASKS
SUIT_CARDS = C.SUIT_CARDS
HALF = C.HALF_POINTS
LAST = TRICKS - 1


@dataclass(frozen=True)
class Table:
    """What does not change during one decision: the declarer and how the deal is scored."""

    declarer: int
    multiplier: int
    announced: bool  # chelem announced
    poignee_bonus: int
    pile_counts: bool  # the discard or dog counts for the declarer (all but Garde contre)


class PlayState:
    """One world during the play: the four hands, the trick in progress, and a running tally of
    what the finished tricks mean for the score (the declarer's pile, the Excuse, the Petit)."""

    __slots__ = (
        "cards",
        "dtricks",
        "ex_owner_decl",
        "ex_trick",
        "ex_winner_decl",
        "extra",
        "hands",
        "leader",
        "n",
        "pab",
        "petit17",
        "pile",
    )

    def __init__(self) -> None:
        self.hands = [0, 0, 0, 0]
        self.leader = 0
        self.cards: list[int] = []
        self.n = 0  # finished tricks
        self.pile = 0  # cards of the tricks the declarer won
        self.extra = 0  # the discard or the dog when it counts for the declarer
        self.dtricks = 0
        self.ex_trick = -1
        self.ex_owner_decl = False
        self.ex_winner_decl = False
        self.petit17 = False  # the declarer played the Petit in trick 17 (chelem petit au bout)
        self.pab = 0  # petit au bout, once the deal is over: +1 declarer's side, -1 defence's

    def copy(self) -> PlayState:
        o = PlayState.__new__(PlayState)
        o.hands = self.hands[:]
        o.leader = self.leader
        o.cards = self.cards[:]
        o.n = self.n
        o.pile = self.pile
        o.extra = self.extra
        o.dtricks = self.dtricks
        o.ex_trick = self.ex_trick
        o.ex_owner_decl = self.ex_owner_decl
        o.ex_winner_decl = self.ex_winner_decl
        o.petit17 = self.petit17
        o.pab = self.pab
        return o

    @property
    def to_move(self) -> int:
        return (self.leader + len(self.cards)) & 3

    def trick(self) -> TrickState:
        t = TrickState(self.leader)
        for c in self.cards:
            t.add(c)
        return t

    def finish_trick(self, t: TrickState, decl: int) -> None:
        """Gather a complete trick into the tally and set up the next one."""
        n = self.n
        cards = t.cards
        winner = trick_taker(t, n, decl, self.dtricks)
        won = winner == decl
        if won:
            self.dtricks += 1
            for c in cards:
                self.pile |= 1 << c
        if EXCUSE in cards:
            self.ex_trick = n
            self.ex_owner_decl = t.seat_of(cards.index(EXCUSE)) == decl
            self.ex_winner_decl = won
        if n == LAST - 1 and PETIT in cards and t.seat_of(cards.index(PETIT)) == decl:
            self.petit17 = True
        if n == LAST:
            if PETIT in cards:
                self.pab = 1 if won else -1
            elif cards[0] == EXCUSE and won and self.dtricks == TRICKS and self.petit17:
                self.pab = 1  # chelem: a Petit played in trick 17 counts as au bout
        self.n = n + 1
        self.leader = winner
        self.cards = []

    def score(self, table: Table) -> int:
        """D of RULES.md §9 for a finished world."""
        return per_defender(
            self.pile | self.extra,
            self.dtricks,
            self.ex_trick,
            self.ex_owner_decl,
            self.ex_winner_decl,
            self.pab,
            table.multiplier,
            table.announced,
            table.poignee_bonus,
        )


# ---------------------------------------------------------------------- the heuristic policy


def _low(m: int) -> int:
    return (m & -m).bit_length() - 1


def _high(m: int) -> int:
    return m.bit_length() - 1


def _cheapest(m: int) -> int:
    """The card of least value, the lowest of its suit; trumps only when nothing else."""
    best = -1
    best_v = 99
    for s in range(4):
        sc = m & SUIT_MASKS[s]
        if sc:
            c = _low(sc)
            v = HALF[c]
            if v < best_v:
                best, best_v = c, v
    if best >= 0:
        return best
    tr = m & TRUMPS & ~PETIT_BIT
    if tr:
        return _low(tr)
    return _low(m)


def _dearest(m: int) -> int:
    """The card of most value (a partner's trick to charge), never a trump if avoidable."""
    best = -1
    best_v = -1
    for s in range(4):
        sc = m & SUIT_MASKS[s]
        if sc:
            c = _high(sc)
            v = HALF[c]
            if v > best_v:
                best, best_v = c, v
    if best >= 0:
        return best
    tr = m & TRUMPS & ~PETIT_BIT
    return _low(tr) if tr else _low(m)


def _beatable(
    hands: list[int], t: TrickState, start: int, decl: int, mine: bool, best: int
) -> bool:
    """Can an opponent still to play (positions ``start``..3 of the trick) beat the winning card,
    when the highest trump in the trick is ``t.high`` (or the best card of the led suit is
    ``best``)? Asked of the real hands of the world: the playouts are double-dummy."""
    led = t.led
    high = t.high
    for j in range(start, 4):
        s = (t.leader + j) & 3
        if (s == decl) == mine:
            continue
        lg = legal_mask(hands[s], led, high)
        if high >= 0:
            if lg & TRUMPS & ~((2 << high) - 1):
                return True
        elif lg & TRUMPS or lg & SUIT_MASKS[led] & ~((2 << best) - 1):
            return True
    return False


def _beatable_by(hands: list[int], t: TrickState, k: int, decl: int, mine: bool, card: int) -> bool:
    """Would ``card``, played now as the trick's winner, be beaten by an opponent after us?"""
    if k == 3:
        return False
    if card < 21:
        led = t.led if t.led != LED_NONE else LED_TRUMP
        for j in range(k + 1, 4):
            s = (t.leader + j) & 3
            if (s == decl) != mine and legal_mask(hands[s], led, card) & TRUMPS & ~(
                (2 << card) - 1
            ):
                return True
        return False
    return _beatable(hands, t, k + 1, decl, mine, card)


def _lead(hands: list[int], nonex: int, hand: int, seat: int, decl: int, out: int) -> int:
    plain = nonex & SUIT_CARDS
    trumps = nonex & TRUMPS
    small = trumps & ~PETIT_BIT
    their = out & TRUMPS
    nt = their.bit_count()
    if seat == decl:
        if trumps & PETIT_BIT and not nt and nonex != PETIT_BIT:
            nonex &= ~PETIT_BIT  # no trump left outside: the Petit waits for the last trick
            plain = nonex & SUIT_CARDS
            trumps = small
        ns = small.bit_count()
        if nt and ns >= 3 and ns >= nt + 2:
            top = _high(small)
            if top > _high(their) or ns >= nt + 4:
                return top  # draw trumps
        if their & PETIT_BIT and ns and ns >= nt and _high(small) > _high(their):
            return _high(small)  # hunt the Petit
        best = -1
        best_v = -1
        for s in range(4):
            sc = plain & SUIT_MASKS[s]
            if sc:
                rest = out & SUIT_MASKS[s]
                top = _high(sc)
                if top > _high(rest) and HALF[top] > best_v:
                    ruff = False
                    for d in range(4):
                        if d != decl and not hands[d] & SUIT_MASKS[s] and hands[d] & TRUMPS:
                            ruff = True
                    if not ruff:
                        best, best_v = top, HALF[top]
        if best >= 0:
            return best  # cash a master nobody can trump
        short = 0
        short_n = 99
        for s in range(4):
            sc = plain & SUIT_MASKS[s]
            if sc and sc.bit_count() < short_n:
                short, short_n = sc, sc.bit_count()
        if short:
            return _low(short)  # shorten a suit to trump it later
        if trumps:
            top = _high(trumps)
            if top > _high(their):
                return top
            return _low(small) if small else top
        return _low(nonex)
    dh = hands[decl]
    if plain:
        if dh & TRUMPS:
            pick = 0
            for s in range(4):
                sc = plain & SUIT_MASKS[s]
                if sc and not dh & SUIT_MASKS[s] and sc.bit_count() > pick.bit_count():
                    pick = sc
            if pick:
                return _low(pick)  # make the declarer trump
        best = -1
        best_v = 2
        for s in range(4):
            sc = plain & SUIT_MASKS[s]
            if sc and dh & SUIT_MASKS[s]:
                top = _high(sc)
                if top > _high(out & SUIT_MASKS[s]) and HALF[top] > best_v:
                    best, best_v = top, HALF[top]
        if best >= 0:
            return best  # cash a King while the declarer follows
        for s in range(4):
            sc = plain & SUIT_MASKS[s]
            if sc and dh & SUIT_MASKS[s]:
                for p in range(4):
                    if p not in (seat, decl) and not hands[p] & SUIT_MASKS[s] and hands[p] & TRUMPS:
                        return _low(sc)  # partner trumps over the declarer
        long = 0
        for s in range(4):
            sc = plain & SUIT_MASKS[s]
            if sc.bit_count() > long.bit_count():
                long = sc
        return _low(long)
    return _low(small) if small else _low(nonex)


def choose(
    hands: list[int],
    seat: int,
    legal: int,
    t: TrickState,
    decl: int,
    chelem_on: bool,
) -> int:
    """A quick, sensible card for ``seat`` in a world where every hand is known (double dummy):
    charge a partner's safe trick, win cheaply and surely, cash masters, draw trumps when long,
    keep and protect the Petit, spend the Excuse on a trick it saves, never on the last one."""
    if not legal & (legal - 1):
        return _low(legal)
    hand = hands[seat]
    nonex = legal & ~EXCUSE_BIT
    excuse = legal & EXCUSE_BIT
    mine = seat == decl
    if excuse:
        if not nonex:
            return EXCUSE
        if hand.bit_count() == 2 and not (chelem_on and mine):
            return EXCUSE  # played in the last trick it would go to the winners
    out = (hands[0] | hands[1] | hands[2] | hands[3]) & ~hand
    k = len(t.cards)
    if k == 0 or t.led == LED_NONE:
        return _lead(hands, nonex, hand, seat, decl, out)
    winner = t.winner
    partner = winner >= 0 and (winner == decl) == mine
    last = k == 3
    led = t.led
    high = t.high
    safe = partner and (last or not _beatable(hands, t, k + 1, decl, mine, t.best))
    if 0 <= led < 4:
        follow = nonex & SUIT_MASKS[led]
        if follow:
            if safe:
                return _dearest(follow)
            if not partner and high < 0:
                over = follow & ~((2 << t.best) - 1)
                while over:
                    c = _low(over)
                    if not _beatable_by(hands, t, k, decl, mine, c):
                        return c  # the cheapest sure winner
                    over &= over - 1
            c = _low(follow)
            if excuse and HALF[c] >= 5 and not partner:
                return EXCUSE  # save an honour
            return c
    trumps = nonex & TRUMPS
    if trumps:
        small = trumps & ~PETIT_BIT
        if safe:
            if trumps & PETIT_BIT and (out & TRUMPS or not mine):
                return PETIT  # the Petit is safe on a partner's trick
            return _low(small) if small else PETIT
        over = trumps & ~((2 << high) - 1) if high >= 0 else trumps
        while over:
            c = _low(over)
            if not _beatable_by(hands, t, k, decl, mine, c):
                return c  # the cheapest sure winner (the Petit too, when it is one)
            over &= over - 1
        if small:
            return _low(small)
        return EXCUSE if excuse else PETIT
    if safe:
        return _dearest(nonex)
    c = _cheapest(nonex)
    if excuse and HALF[c] >= 5:
        return EXCUSE
    return c


# ---------------------------------------------------------------------- playouts


def playout(st: PlayState, table: Table) -> int:
    """Play ``st`` to the end with the policy for every seat; return D. ``st`` is consumed."""
    decl = table.declarer
    hands = st.hands
    t = st.trick()
    while True:
        k = len(t.cards)
        chelem_on = st.dtricks == st.n
        while k < 4:
            seat = (t.leader + k) & 3
            hand = hands[seat]
            c = choose(hands, seat, legal_mask(hand, t.led, t.high), t, decl, chelem_on)
            hands[seat] = hand ^ (1 << c)
            t.add(c)
            k += 1
        st.finish_trick(t, decl)
        if st.n == TRICKS:
            return st.score(table)
        t = TrickState(st.leader)


def advance(st: PlayState, card: int, decl: int) -> None:
    """Play one card in ``st`` (the seat to move holds it), gathering the trick if complete."""
    seat = st.to_move
    t = st.trick()
    st.hands[seat] &= ~(1 << card)
    t.add(card)
    st.cards.append(card)
    if len(t.cards) == 4:
        st.finish_trick(t, decl)


# ---------------------------------------------------------------------- exact endgame


def merged(legal: int, live: int) -> list[int]:
    """One card of each run of equivalent cards: same suit (or trumps), same value, and no card
    still in play between them. The Petit and the Excuse stand alone."""
    out: list[int] = []
    prev = -2
    m = legal
    while m:
        c = _low(m)
        m &= m - 1
        if c in (PETIT, EXCUSE) or prev < 0 or HALF[c] != HALF[prev]:
            out.append(c)
        else:
            between = live & ((1 << c) - 1) & ~((1 << (prev + 1)) - 1)
            same_group = (c < 21) == (prev < 21) and (c < 21 or (c - 22) // 14 == (prev - 22) // 14)
            if between or not same_group:
                out.append(c)
        prev = c if c not in (PETIT, EXCUSE) else -2
    return out


def solve(st: PlayState, table: Table) -> int:
    """Exact value D of ``st`` with perfect information (declarer maximises, defence minimises)."""
    decl = table.declarer
    hands = st.hands
    live = hands[0] | hands[1] | hands[2] | hands[3]
    return _ab(st, table, decl, st.trick(), live, -(10**9), 10**9)


def _last_trick(st: PlayState, table: Table, decl: int, t: TrickState) -> int:
    """Every hand holds its last card: no choice is left."""
    hands = st.hands
    saved = hands[:]
    nt = t.copy()
    for j in range(len(t.cards), 4):
        s = (t.leader + j) & 3
        nt.add(_low(hands[s]))
        hands[s] = 0
    keep = (st.n, st.pile, st.dtricks, st.ex_trick, st.ex_owner_decl, st.ex_winner_decl, st.pab)
    st.finish_trick(nt, decl)
    v = st.score(table)
    st.n, st.pile, st.dtricks, st.ex_trick, st.ex_owner_decl, st.ex_winner_decl, st.pab = keep
    hands[:] = saved
    return v


def _ab(
    st: PlayState, table: Table, decl: int, t: TrickState, live: int, alpha: int, beta: int
) -> int:
    if st.n == LAST:
        return _last_trick(st, table, decl, t)
    k = len(t.cards)
    seat = (t.leader + k) & 3
    hands = st.hands
    hand = hands[seat]
    legal = legal_mask(hand, t.led, t.high)
    moves = merged(legal, live | C.mask_of(t.cards))  # a card of this trick between two differs
    if len(moves) > 1 and k == 0:  # leads ordered by the policy: most of the cut-offs
        first = choose(hands, seat, legal, t, decl, st.dtricks == st.n)
        if first in moves:
            moves.remove(first)
            moves.insert(0, first)
    maxing = seat == decl
    best = -(10**9) if maxing else 10**9
    for c in moves:
        b = 1 << c
        hands[seat] = hand ^ b
        nt = t.copy()
        nt.add(c)
        if k == 3:
            child = st.copy()  # the tally of finished tricks changes: search on a copy
            child.finish_trick(nt, decl)
            if child.n == TRICKS:
                v = child.score(table)
            else:
                v = _ab(child, table, decl, TrickState(child.leader), live ^ b, alpha, beta)
        else:
            v = _ab(st, table, decl, nt, live ^ b, alpha, beta)
        hands[seat] = hand
        if maxing:
            if v > best:
                best = v
            if best > alpha:
                alpha = best
        else:
            if v < best:
                best = v
            if best < beta:
                beta = best
        if alpha >= beta:
            break
    return best
