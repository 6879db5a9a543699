"""The compiled functions (numba, nopython, cached on disk).

Layout. A card set is two uint64 words: ``T`` holds cards 0..21 (the trumps T1..T21 and the
Excuse at bit 21) and ``S`` the 56 suit cards, card ``c`` at bit ``c - 22`` (spades, hearts,
diamonds, clubs, 14 bits each), so that a suit is one shifted 14-bit mask and following a suit
or finding its highest card is one word operation. Card numbers are the core's (0..77).

A world in play is two arrays:

- ``H`` (uint64[12]): hands of seats 0..3 as (T, S) pairs at ``2*seat``, then the declarer's pile
  of won cards (8, 9) and the discard or dog that counts for him (10, 11);
- ``S`` (int64[NS]): the trick in progress and the tally of finished tricks, fields below.

Every rule here mirrors the pure Python core (``core.tricks``, ``core.deal``) and the expert's
heuristic policy (``bots.expert.playout``); tests/test_kernel_*.py check that they agree.
"""

from typing import Any

import numpy as np
from numba import njit

from ._bits import clz, ctz, popc

# fields of S
LEADER, K, C0, N, DTRICKS, EX_TRICK, EX_OWNER, EX_WINNER, PETIT17, PAB = (
    0,
    1,
    2,
    6,
    7,
    8,
    9,
    10,
    11,
    12,
)
LED, HIGH, BEST, WINNER = 13, 14, 15, 16
NS = 17

U = np.uint64
Z = U(0)
ONE = U(1)
TWO = U(2)
TR = U((1 << 21) - 1)  # trumps in T
EXB = U(1 << 21)  # the Excuse in T
PB = U(1)  # the Petit in T
SUIT1 = U((1 << 14) - 1)
OUD_T = U((1 << 0) | (1 << 20))  # Petit and Monde
KING_S = U(sum(1 << (14 * s + 13) for s in range(4)))
QUEEN_S = U(sum(1 << (14 * s + 12) for s in range(4)))
CAV_S = U(sum(1 << (14 * s + 11) for s in range(4)))
JACK_S = U(sum(1 << (14 * s + 10) for s in range(4)))
LOW_S = U(sum(((1 << 10) - 1) << (14 * s) for s in range(4)))

HALF = np.array(
    [9 if c in (0, 20, 21) else 1 for c in range(22)]
    + [{13: 9, 12: 7, 11: 5, 10: 3}.get(r, 1) for _ in range(4) for r in range(14)],
    dtype=np.int64,
)
NEEDED = np.array([56, 51, 41, 36], dtype=np.int64)

_J: dict[str, Any] = {"cache": True, "nogil": True}


@njit(**_J)
def smask(s: int) -> Any:
    return SUIT1 << U(14 * s)


@njit(**_J)
def low_t(m: Any) -> int:
    return ctz(m) if m else -1


@njit(**_J)
def high_t(m: Any) -> int:
    return 63 - clz(m) if m else -1


@njit(**_J)
def low2(t: Any, s: Any) -> int:
    if t:
        return ctz(t)
    if s:
        return 22 + ctz(s)
    return -1


@njit(**_J)
def high2(t: Any, s: Any) -> int:
    if s:
        return 85 - clz(s)
    if t:
        return 63 - clz(t)
    return -1


@njit(**_J)
def above(high: int) -> Any:
    """Trumps strictly above trump ``high`` (all trumps for -1)."""
    if high < 0:
        return TR
    return TR & ~((TWO << U(high)) - ONE)


@njit(**_J)
def legal(ht: Any, hs: Any, led: int, high: int) -> Any:
    """core.tricks.legal_mask on a (T, S) hand."""
    if led < 0:
        return ht, hs
    if led < 4:
        f = hs & smask(led)
        if f:
            return ht & EXB, f
    tr = ht & TR
    if tr:
        ab = tr & above(high)
        if ab:
            return ab | (ht & EXB), Z
        return tr | (ht & EXB), Z
    return ht, hs


@njit(**_J)
def card_suit(c: int) -> int:
    """0..3 for suit cards, 4 for trumps, -1 for the Excuse."""
    if c < 21:
        return 4
    if c == 21:
        return -1
    return (c - 22) // 14


@njit(**_J)
def trick_add(S: Any, c: int) -> None:
    """core.tricks.TrickState.add."""
    k = S[K]
    seat = (S[LEADER] + k) & 3
    S[C0 + k] = c
    S[K] = k + 1
    s = card_suit(c)
    if s == 4:
        if S[LED] < 0:
            S[LED] = 4
        if c > S[HIGH]:
            S[HIGH] = c
            S[WINNER] = seat
    elif s < 0:
        return
    elif S[LED] < 0:
        S[LED] = s
        S[BEST] = c
        S[WINNER] = seat
    elif s == S[LED] and S[HIGH] < 0 and c > S[BEST]:
        S[BEST] = c
        S[WINNER] = seat


@njit(**_J)
def remove(H: Any, seat: int, c: int) -> None:
    if c < 22:
        H[2 * seat] &= ~(ONE << U(c))
    else:
        H[2 * seat + 1] &= ~(ONE << U(c - 22))


@njit(**_J)
def new_trick(S: Any, leader: int) -> None:
    S[LEADER] = leader
    S[K] = 0
    S[LED] = -1
    S[HIGH] = -1
    S[BEST] = -1
    S[WINNER] = -1


@njit(**_J)
def finish_trick(H: Any, S: Any, decl: int) -> None:
    """Gather a complete trick into the tally (PlayState.finish_trick, core.tricks.trick_taker)."""
    n = S[N]
    leader = S[LEADER]
    winner = S[WINNER]
    if n == 17 and S[DTRICKS] == 17 and leader == decl and S[C0] == 21:
        winner = decl
    won = winner == decl
    if won:
        S[DTRICKS] += 1
        for i in range(4):
            c = S[C0 + i]
            if c < 22:
                H[8] |= ONE << U(c)
            else:
                H[9] |= ONE << U(c - 22)
    petit_decl = False
    petit_in = False
    for i in range(4):
        c = S[C0 + i]
        if c == 21:
            S[EX_TRICK] = n
            S[EX_OWNER] = 1 if ((leader + i) & 3) == decl else 0
            S[EX_WINNER] = 1 if won else 0
        elif c == 0:
            petit_in = True
            petit_decl = ((leader + i) & 3) == decl
    if n == 16 and petit_in and petit_decl:
        S[PETIT17] = 1
    if n == 17:
        if petit_in:
            S[PAB] = 1 if won else -1
        elif S[C0] == 21 and won and S[DTRICKS] == 18 and S[PETIT17]:
            S[PAB] = 1
    S[N] = n + 1
    new_trick(S, winner)


@njit(**_J)
def half_points(t: Any, s: Any) -> int:
    """Value in half points of a (T, S) set, the Excuse excluded."""
    return (
        9 * popc(t & OUD_T)
        + popc(t & TR & ~OUD_T)
        + 9 * popc(s & KING_S)
        + 7 * popc(s & QUEEN_S)
        + 5 * popc(s & CAV_S)
        + 3 * popc(s & JACK_S)
        + popc(s & LOW_S)
    )


@njit(**_J)
def per_defender(
    pt: Any,
    ps: Any,
    dtricks: int,
    ex_trick: int,
    ex_owner: int,
    ex_winner: int,
    pab: int,
    mult: int,
    announced: int,
    pbonus: int,
) -> int:
    """D of RULES.md §9 (bots.expert.scoring.per_defender; core.deal.score_deal)."""
    half = half_points(pt, ps)
    if ex_trick < 0:
        in_pile = 1 if pt & EXB else 0
        half += 9 * in_pile
    elif ex_trick == 17:
        in_pile = ex_winner
        half += 9 * in_pile
    elif ex_owner == ex_winner:
        in_pile = ex_owner
        half += 9 * in_pile
    else:
        in_pile = ex_owner
        owner_tricks = dtricks if ex_owner else 18 - dtricks
        if owner_tricks:
            half += 8 if ex_owner else 1
        elif ex_owner:
            half += 8
    oudlers = popc(pt & OUD_T) + in_pile
    needed = NEEDED[oudlers]
    if half & 1:
        won = half >= 2 * needed
        points = (half + 1) // 2 if won else (half - 1) // 2
    else:
        points = half // 2
        won = points >= needed
    diff = abs(points - needed)
    bonus = 0
    if announced:
        bonus += 400 if dtricks == 18 else -200
    elif dtricks == 18:
        bonus += 200
    if dtricks == 0:
        bonus -= 200
    sg = 1 if won else -1
    return sg * (25 + diff) * mult + pab * 10 * mult + sg * pbonus + bonus


@njit(**_J)
def score(H: Any, S: Any, mult: int, announced: int, pbonus: int) -> int:
    return per_defender(
        H[8] | H[10],
        H[9] | H[11],
        S[DTRICKS],
        S[EX_TRICK],
        S[EX_OWNER],
        S[EX_WINNER],
        S[PAB],
        mult,
        announced,
        pbonus,
    )


# ---------------------------------------------------------------------- the heuristic policy


@njit(**_J)
def cheapest(mt: Any, ms: Any) -> int:
    best = -1
    bv = 99
    for s in range(4):
        sc = ms & smask(s)
        if sc:
            c = 22 + ctz(sc)
            v = HALF[c]
            if v < bv:
                best = c
                bv = v
    if best >= 0:
        return best
    tr = mt & TR & ~PB
    if tr:
        return ctz(tr)
    return low2(mt, ms)


@njit(**_J)
def dearest(mt: Any, ms: Any) -> int:
    best = -1
    bv = -1
    for s in range(4):
        sc = ms & smask(s)
        if sc:
            c = 85 - clz(sc)
            v = HALF[c]
            if v > bv:
                best = c
                bv = v
    if best >= 0:
        return best
    tr = mt & TR & ~PB
    if tr:
        return ctz(tr)
    return low2(mt, ms)


@njit(**_J)
def beatable(H: Any, S: Any, start: int, decl: int, mine: bool, best: int) -> bool:
    led = S[LED]
    high = S[HIGH]
    leader = S[LEADER]
    for j in range(start, 4):
        s = (leader + j) & 3
        if (s == decl) == mine:
            continue
        lt, ls = legal(H[2 * s], H[2 * s + 1], led, high)
        if high >= 0:
            if lt & TR & ~((TWO << U(high)) - ONE):
                return True
        elif lt & TR or ls & smask(led) & ~((TWO << U(best - 22)) - ONE):
            return True
    return False


@njit(**_J)
def beatable_by(H: Any, S: Any, k: int, decl: int, mine: bool, card: int) -> bool:
    if k == 3:
        return False
    if card < 21:
        led = S[LED] if S[LED] != -1 else 4
        leader = S[LEADER]
        for j in range(k + 1, 4):
            s = (leader + j) & 3
            if (s == decl) != mine:
                lt, _ = legal(H[2 * s], H[2 * s + 1], led, card)
                if lt & TR & ~((TWO << U(card)) - ONE):
                    return True
        return False
    return beatable(H, S, k + 1, decl, mine, card)


@njit(**_J)
def s_high(sc: Any) -> int:
    """Card number of the highest card of suit bits ``sc`` (-1 when empty)."""
    return 85 - clz(sc) if sc else -1


@njit(**_J)
def lead(H: Any, nt_: Any, ns_: Any, seat: int, decl: int, ot: Any, os_: Any) -> int:
    nT = nt_
    nS = ns_
    trumps = nT & TR
    small = trumps & ~PB
    their = ot & TR
    nt = popc(their)
    if seat == decl:
        if (trumps & PB) and nt == 0 and not (nT == PB and nS == Z):
            nT = nT & ~PB
            trumps = small
        ns = popc(small)
        if nt and ns >= 3 and ns >= nt + 2:
            top = high_t(small)
            if top > high_t(their) or ns >= nt + 4:
                return top
        if (their & PB) and ns and ns >= nt and high_t(small) > high_t(their):
            return high_t(small)
        best = -1
        bv = -1
        for s in range(4):
            sc = nS & smask(s)
            if sc:
                top = s_high(sc)
                if top > s_high(os_ & smask(s)) and HALF[top] > bv:
                    ruff = False
                    for d in range(4):
                        if d != decl and not (H[2 * d + 1] & smask(s)) and (H[2 * d] & TR):
                            ruff = True
                    if not ruff:
                        best = top
                        bv = HALF[top]
        if best >= 0:
            return best
        short = Z
        short_n = 99
        for s in range(4):
            sc = nS & smask(s)
            if sc and popc(sc) < short_n:
                short = sc
                short_n = popc(sc)
        if short:
            return 22 + ctz(short)
        if trumps:
            top = high_t(trumps)
            if top > high_t(their):
                return top
            return low_t(small) if small else top
        return low2(nT, nS)
    dT = H[2 * decl]
    dS = H[2 * decl + 1]
    if nS:
        if dT & TR:
            pick = Z
            for s in range(4):
                sc = nS & smask(s)
                if sc and not (dS & smask(s)) and popc(sc) > popc(pick):
                    pick = sc
            if pick:
                return 22 + ctz(pick)
        best = -1
        bv = 2
        for s in range(4):
            sc = nS & smask(s)
            if sc and (dS & smask(s)):
                top = s_high(sc)
                if top > s_high(os_ & smask(s)) and HALF[top] > bv:
                    best = top
                    bv = HALF[top]
        if best >= 0:
            return best
        for s in range(4):
            sc = nS & smask(s)
            if sc and (dS & smask(s)):
                for p in range(4):
                    if (
                        p != seat
                        and p != decl
                        and not (H[2 * p + 1] & smask(s))
                        and (H[2 * p] & TR)
                    ):
                        return 22 + ctz(sc)
        long = Z
        for s in range(4):
            sc = nS & smask(s)
            if popc(sc) > popc(long):
                long = sc
        return 22 + ctz(long)
    return low_t(small) if small else low2(nT, nS)


@njit(**_J)
def choose(H: Any, S: Any, seat: int, lt: Any, ls: Any, decl: int, chelem_on: bool) -> int:
    """bots.expert.playout.choose: the heuristic card for ``seat`` in a known world."""
    if popc(lt) + popc(ls) <= 1:
        return low2(lt, ls)
    hT = H[2 * seat]
    hS = H[2 * seat + 1]
    nT = lt & ~EXB
    nS = ls
    excuse = (lt & EXB) != Z
    mine = seat == decl
    if excuse:
        if nT == Z and nS == Z:
            return 21
        if popc(hT) + popc(hS) == 2 and not (chelem_on and mine):
            return 21
    oT = (H[0] | H[2] | H[4] | H[6]) & ~hT
    oS = (H[1] | H[3] | H[5] | H[7]) & ~hS
    k = S[K]
    led = S[LED]
    if k == 0 or led == -1:
        return lead(H, nT, nS, seat, decl, oT, oS)
    winner = S[WINNER]
    partner = winner >= 0 and (winner == decl) == mine
    high = S[HIGH]
    safe = partner and (k == 3 or not beatable(H, S, k + 1, decl, mine, S[BEST]))
    if 0 <= led < 4:
        follow = nS & smask(led)
        if follow:
            if safe:
                return dearest(Z, follow)
            if not partner and high < 0:
                over = follow & ~((TWO << U(S[BEST] - 22)) - ONE)
                while over:
                    c = 22 + ctz(over)
                    if not beatable_by(H, S, k, decl, mine, c):
                        return c
                    over &= over - ONE
            c = 22 + ctz(follow)
            if excuse and HALF[c] >= 5 and not partner:
                return 21
            return c
    trumps = nT & TR
    if trumps:
        small = trumps & ~PB
        if safe:
            if (trumps & PB) and ((oT & TR) or not mine):
                return 0
            return low_t(small) if small else 0
        over = trumps & ~((TWO << U(high)) - ONE) if high >= 0 else trumps
        while over:
            c = ctz(over)
            if not beatable_by(H, S, k, decl, mine, c):
                return c
            over &= over - ONE
        if small:
            return low_t(small)
        return 21 if excuse else 0
    if safe:
        return dearest(nT, nS)
    c = cheapest(nT, nS)
    if excuse and HALF[c] >= 5:
        return 21
    return c


@njit(**_J)
def play_card(H: Any, S: Any, c: int, decl: int) -> None:
    """The seat to move plays ``c``; a complete trick is gathered."""
    seat = (S[LEADER] + S[K]) & 3
    remove(H, seat, c)
    trick_add(S, c)
    if S[K] == 4:
        finish_trick(H, S, decl)


@njit(**_J)
def policy_card(H: Any, S: Any, decl: int) -> int:
    seat = (S[LEADER] + S[K]) & 3
    lt, ls = legal(H[2 * seat], H[2 * seat + 1], S[LED], S[HIGH])
    return choose(H, S, seat, lt, ls, decl, S[DTRICKS] == S[N])


@njit(**_J)
def play_policy(H: Any, S: Any, decl: int, stop: int) -> None:
    """Play with the policy for every seat until ``stop`` tricks are finished (18: the end)."""
    while S[N] < stop:
        chelem_on = S[DTRICKS] == S[N]
        while S[K] < 4:
            seat = (S[LEADER] + S[K]) & 3
            lt, ls = legal(H[2 * seat], H[2 * seat + 1], S[LED], S[HIGH])
            c = choose(H, S, seat, lt, ls, decl, chelem_on)
            remove(H, seat, c)
            trick_add(S, c)
        finish_trick(H, S, decl)


@njit(**_J)
def playout(H: Any, S: Any, decl: int, mult: int, announced: int, pbonus: int) -> int:
    """Play the world to the end with the policy for every seat; D. H and S are consumed."""
    play_policy(H, S, decl, 18)
    return score(H, S, mult, announced, pbonus)


# ---------------------------------------------------------------------- exact endgame

TT_BITS = 16
# 2^16 slots of 16 bytes: 1 MiB, a core's L2 cache here. The values are exact whatever the table
# holds; 2^20 slots in four arrays (four cache misses a probe) made the card search's solves
# about a fifth slower (bench/solver_table.py).
TT_MASK = U((1 << TT_BITS) - 1)
EXACT, LOWER, UPPER = 1, 2, 3
# A table entry is one row of two words, so that a probe reads one cache line: the key, then
# the value (offset to be non-negative, 32 bits), the flag (2 bits at 32) and the best move
# (at 40). Flag 0: empty.
TT_VAL = U(0xFFFFFFFF)
TT_FLAGS = U(3)
TT_FLAG = U(3 << 32)
TT_OFFSET = 1 << 31
INF = 1 << 40
M1 = U(0x9E3779B97F4A7C15)
M2 = U(0xBF58476D1CE4E5B9)


@njit(**_J)
def mix(h: Any, x: Any) -> Any:
    h = (h ^ x) * M1
    return h ^ (h >> U(31))


@njit(**_J)
def tt_key(H: Any, S: Any, decl: int, mult: int, announced: int, pbonus: int) -> Any:
    """A 64-bit hash of everything the value of a trick-start position depends on: the hands,
    the leader, and the tally reduced to what the score reads (points and oudlers won, whether
    the declarer has won all, none or some of the tricks, where the Excuse went)."""
    h = U(0x1234567)
    for i in range(8):
        h = mix(h, H[i] + U(i) * M2)
    pt = H[8] | H[10]
    ps = H[9] | H[11]
    n = S[N]
    dt = S[DTRICKS]
    dcls = 2 if dt == n else (0 if dt == 0 else 1)
    ex = S[EX_TRICK]
    ecls = 0 if ex < 0 else (2 if ex == 17 else 1)
    small = (
        half_points(pt, ps)
        | (1 if pt & ONE else 0) << 11
        | (1 if pt & (ONE << U(20)) else 0) << 12
        | (1 if pt & EXB else 0) << 13
        | dcls << 14
        | ecls << 16
        | S[EX_OWNER] << 18
        | S[EX_WINNER] << 19
        | S[PETIT17] << 20
        | S[LEADER] << 21
        | decl << 23
        | announced << 25
        | mult << 26
        | pbonus << 32
    )
    return mix(h, U(small))


@njit(**_J)
def merged(lt: Any, ls: Any, live_t: Any, live_s: Any, out: Any) -> int:
    """bots.expert.playout.merged into ``out``; returns how many moves."""
    n = 0
    prev = -2
    m = lt
    while m:
        c = ctz(m)
        m &= m - ONE
        if c == 0 or c == 21 or prev < 0 or HALF[c] != HALF[prev]:
            out[n] = c
            n += 1
        else:
            between = live_t & ((ONE << U(c)) - ONE) & ~((ONE << U(prev + 1)) - ONE)
            if between:
                out[n] = c
                n += 1
        prev = c if c != 0 and c != 21 else -2
    m = ls
    while m:
        b = ctz(m)
        c = 22 + b
        m &= m - ONE
        if prev < 22 or HALF[c] != HALF[prev] or (c - 22) // 14 != (prev - 22) // 14:
            out[n] = c
            n += 1
        else:
            pb = prev - 22
            between = live_s & ((ONE << U(b)) - ONE) & ~((ONE << U(pb + 1)) - ONE)
            if between:
                out[n] = c
                n += 1
        prev = c
    return n


@njit(**_J)
def last_trick(
    H: Any, S: Any, decl: int, mult: int, announced: int, pbonus: int, saves_h: Any, saves_s: Any
) -> int:
    """Every hand holds its last card: no choice is left. H and S are restored."""
    ply = 68 + S[K]
    saved_h = saves_h[ply]
    saved_s = saves_s[ply]
    saved_h[:] = H
    saved_s[:] = S
    while S[K] < 4:
        seat = (S[LEADER] + S[K]) & 3
        c = low2(H[2 * seat], H[2 * seat + 1])
        remove(H, seat, c)
        trick_add(S, c)
    finish_trick(H, S, decl)
    v = score(H, S, mult, announced, pbonus)
    H[:] = saved_h
    S[:] = saved_s
    return v


@njit(**_J)
def solve(
    H: Any,
    S: Any,
    decl: int,
    mult: int,
    announced: int,
    pbonus: int,
    moves: Any,
    saves_h: Any,
    saves_s: Any,
    tt: Any,
) -> int:
    """Exact value D with perfect information (declarer maximises, defence minimises).

    Alpha-beta (fail-soft) on an explicit stack indexed by the number of cards played so far
    (numba's on-disk cache does not keep recursive functions), with the policy's card (or the
    transposition table's best one) tried first and a transposition table at trick starts.
    H and S are left as they were."""
    if S[N] == 18:
        return score(H, S, mult, announced, pbonus)
    fa = np.empty(72, dtype=np.int64)
    fb = np.empty(72, dtype=np.int64)
    fa0 = np.empty(72, dtype=np.int64)
    fb0 = np.empty(72, dtype=np.int64)
    fbest = np.empty(72, dtype=np.int64)
    fmove = np.empty(72, dtype=np.int64)
    fidx = np.empty(72, dtype=np.int64)
    fnm = np.empty(72, dtype=np.int64)
    fslot = np.empty(72, dtype=np.int64)
    fkey = np.empty(72, dtype=np.uint64)
    fseat = np.empty(72, dtype=np.int64)
    root = S[N] * 4 + S[K]
    p = root
    fa[p] = -INF
    fb[p] = INF
    entering = True
    have_v = False
    v = 0
    while True:
        if entering:
            entering = False
            done = False
            if S[N] == 17:
                v = last_trick(H, S, decl, mult, announced, pbonus, saves_h, saves_s)
                done = True
            else:
                k = S[K]
                seat = (S[LEADER] + k) & 3
                fseat[p] = seat
                lt, ls = legal(H[2 * seat], H[2 * seat + 1], S[LED], S[HIGH])
                # cards still in play, the trick's included: a card between two of ours
                # played to this trick makes them different
                live_t = H[0] | H[2] | H[4] | H[6]
                live_s = H[1] | H[3] | H[5] | H[7]
                for i in range(k):
                    c = S[C0 + i]
                    if c < 22:
                        live_t |= ONE << U(c)
                    else:
                        live_s |= ONE << U(c - 22)
                mv = moves[p]
                nm = merged(lt, ls, live_t, live_s, mv)
                fnm[p] = nm
                fslot[p] = -1
                first = -1
                if k == 0:
                    key = tt_key(H, S, decl, mult, announced, pbonus)
                    slot = np.int64(key & TT_MASK)
                    fkey[p] = key
                    fslot[p] = slot
                    entry = tt[slot, 1]
                    if tt[slot, 0] == key and entry & TT_FLAG != Z:
                        tv = int(np.int64(entry & TT_VAL)) - TT_OFFSET
                        f = int(np.int64((entry >> U(32)) & TT_FLAGS))
                        if f == EXACT:
                            v = tv
                            done = True
                        else:
                            if f == LOWER:
                                fa[p] = max(fa[p], tv)
                            else:
                                fb[p] = min(fb[p], tv)
                            if fa[p] >= fb[p]:
                                v = tv
                                done = True
                            first = int(np.int64(entry >> U(40)))
                if not done:
                    fa0[p] = fa[p]  # the window searched, after the table narrowed it
                    fb0[p] = fb[p]
                    if nm > 1:
                        if first < 0:
                            first = choose(H, S, seat, lt, ls, decl, S[DTRICKS] == S[N])
                        for i in range(nm):
                            if mv[i] == first:
                                mv[i] = mv[0]
                                mv[0] = first
                                break
                    fbest[p] = -INF if seat == decl else INF
                    fmove[p] = mv[0]
                    fidx[p] = 0
                    saves_h[p, :] = H
                    saves_s[p, :] = S
            if done:
                if p == root:
                    return v
                p -= 1
                have_v = True
        if have_v:
            have_v = False
            H[:] = saves_h[p]
            S[:] = saves_s[p]
            c = moves[p, fidx[p]]
            if fseat[p] == decl:
                if v > fbest[p]:
                    fbest[p] = v
                    fmove[p] = c
                if v > fa[p]:
                    fa[p] = v
            else:
                if v < fbest[p]:
                    fbest[p] = v
                    fmove[p] = c
                if v < fb[p]:
                    fb[p] = v
            fidx[p] += 1
        if fidx[p] < fnm[p] and fa[p] < fb[p]:
            c = moves[p, fidx[p]]
            remove(H, fseat[p], c)
            trick_add(S, c)
            if S[K] == 4:
                finish_trick(H, S, decl)
                if S[N] == 18:
                    v = score(H, S, mult, announced, pbonus)
                    have_v = True
                    continue
            fa[p + 1] = fa[p]
            fb[p + 1] = fb[p]
            p += 1
            entering = True
            continue
        best = fbest[p]
        slot = fslot[p]
        if slot >= 0:
            if best <= fa0[p]:
                f = UPPER
            elif best >= fb0[p]:
                f = LOWER
            else:
                f = EXACT
            tt[slot, 0] = fkey[p]
            tt[slot, 1] = U(best + TT_OFFSET) | (U(f) << U(32)) | (U(fmove[p]) << U(40))
        if p == root:
            return best
        p -= 1
        v = best
        have_v = True


# ---------------------------------------------------------------------- batches


@njit(**_J)
def load_world(H: Any, S: Any, H0: Any, S0: Any, row: Any) -> None:
    """(H, S) set to one world of a batch: the four hands and the counting discard or dog from
    ``row`` (its 8 hand words, then 2 words), the declarer's pile from H0, the trick in
    progress and the tally from S0."""
    H[:] = H0
    H[0:8] = row[0:8]
    H[10] = row[8]
    H[11] = row[9]
    S[:] = S0


@njit(**_J)
def card_values(
    H0: Any,
    S0: Any,
    worlds: Any,
    cands: Any,
    decl: int,
    mult: int,
    announced: int,
    pbonus: int,
    exact: bool,
    tail: int,
    out: Any,
    moves: Any,
    saves_h: Any,
    saves_s: Any,
    tt: Any,
) -> None:
    """For each world (rows of ``worlds``: the 8 hand words and the 2 words of the counting
    discard or dog) and each candidate card of the seat to move: D after the card, by a policy
    playout or, with ``exact``, by the solver; ``tail`` > 0: the playout's last ``tail`` tricks
    solved exactly. ``out[i, w]``."""
    H = H0.copy()
    S = S0.copy()
    for w in range(worlds.shape[0]):
        for i in range(cands.shape[0]):
            load_world(H, S, H0, S0, worlds[w])
            play_card(H, S, cands[i], decl)
            if exact:
                out[i, w] = solve(
                    H, S, decl, mult, announced, pbonus, moves, saves_h, saves_s,
                    tt,
                )  # fmt: skip
            elif tail > 0:
                out[i, w] = playout_tail(
                    H, S, decl, mult, announced, pbonus, tail, moves, saves_h, saves_s,
                    tt,
                )  # fmt: skip
            else:
                out[i, w] = playout(H, S, decl, mult, announced, pbonus)


@njit(**_J)
def playout_tail(H: Any, S: Any, decl: int, mult: int, announced: int, pbonus: int, tail: int,
                 moves: Any, saves_h: Any, saves_s: Any, tt: Any) -> int:  # fmt: skip
    """``playout`` until ``tail`` tricks are left (the one in progress counted), then
    ``solve``: D. H and S are consumed."""
    play_policy(H, S, decl, 18 - tail)
    return solve(
        H, S, decl, mult, announced, pbonus, moves, saves_h, saves_s,
        tt,
    )  # fmt: skip


@njit(**_J)
def tail_playouts(H0: Any, S0: Any, worlds: Any, decl: int, mult: int, announced: int,
                  pbonus: int, tail: int, out: Any, moves: Any, saves_h: Any, saves_s: Any,
                  tt: Any) -> None:  # fmt: skip
    """``playout_tail`` of each world from (H0, S0): D in ``out``."""
    H = H0.copy()
    S = S0.copy()
    for w in range(worlds.shape[0]):
        load_world(H, S, H0, S0, worlds[w])
        out[w] = playout_tail(
            H, S, decl, mult, announced, pbonus, tail, moves, saves_h, saves_s,
            tt,
        )  # fmt: skip


@njit(**_J)
def playouts(H0: Any, S0: Any, worlds: Any, decl: int, mult: int, announced: int, pbonus: int,
             out: Any, dtricks: Any) -> None:  # fmt: skip
    """A policy playout of each world from (H0, S0): D in ``out`` and the declarer's tricks."""
    H = H0.copy()
    S = S0.copy()
    for w in range(worlds.shape[0]):
        load_world(H, S, H0, S0, worlds[w])
        out[w] = playout(H, S, decl, mult, announced, pbonus)
        dtricks[w] = S[DTRICKS]


@njit(**_J)
def random_playouts(
    hands: Any,
    extras: Any,
    leaders: Any,
    decls: Any,
    mults: Any,
    anns: Any,
    pbonuses: Any,
    seed: int,
    plays: Any,
    legals: Any,
    winners: Any,
    scores: Any,
) -> None:
    """Uniformly random legal cards from each dealt position (for the agreement tests): every
    card played, the legal set it was chosen from (T, S), every trick's taker and the D."""
    np.random.seed(seed)
    H = np.zeros(12, dtype=np.uint64)
    S = np.zeros(NS, dtype=np.int64)
    for d in range(hands.shape[0]):
        H[:] = Z
        H[0:8] = hands[d]
        H[10] = extras[d, 0]
        H[11] = extras[d, 1]
        S[:] = 0
        S[EX_TRICK] = -1
        new_trick(S, leaders[d])
        decl = decls[d]
        for p in range(72):
            seat = (S[LEADER] + S[K]) & 3
            lt, ls = legal(H[2 * seat], H[2 * seat + 1], S[LED], S[HIGH])
            legals[d, p, 0] = lt
            legals[d, p, 1] = ls
            nt = popc(lt)
            r = np.random.randint(0, nt + popc(ls))
            off = 0
            m = lt
            if r >= nt:
                r -= nt
                m = ls
                off = 22
            for _ in range(r):
                m &= m - ONE
            c = ctz(m) + off
            plays[d, p] = c
            remove(H, seat, c)
            trick_add(S, c)
            if S[K] == 4:
                finish_trick(H, S, decl)
                winners[d, p // 4] = S[LEADER]
        scores[d] = score(H, S, mults[d], anns[d], pbonuses[d])


@njit(**_J)
def playouts_final(
    H0: Any,
    S0: Any,
    worlds: Any,
    decl: int,
    mult: int,
    announced: int,
    pbonus: int,
    out: Any,
    out_h: Any,
    out_s: Any,
) -> None:
    """``playouts``, keeping each world's final H and S (the tally the score reads)."""
    H = H0.copy()
    S = S0.copy()
    for w in range(worlds.shape[0]):
        load_world(H, S, H0, S0, worlds[w])
        out[w] = playout(H, S, decl, mult, announced, pbonus)
        out_h[w, :] = H
        out_s[w, :] = S
