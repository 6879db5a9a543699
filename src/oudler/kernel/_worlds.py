"""Compiled world drawing and inference for the expert's sampler (``bots.expert.sampler``).

``draw_worlds`` deals the unseen cards exactly as ``WorldSampler.sample`` does (the same class
counts table, flattened; the same petit sec rejection), many worlds per call. ``log_weights``
gives each world the log-likelihood of what the other seats did: their calls (the hand-strength
model of ``bots.expert.handmodel``) and their cards (the heuristic policy of ``_jit.choose`` with
a chance ``eps`` of playing anything else). Both read only what the sampler hands them: the
seat's own facts and the worlds, never a real deal.

Card sets are (T, S) word pairs as in ``_jit``; a row of ``out`` is the four hands then the dog
or discard (10 words).
"""

from typing import Any

import numpy as np
from numba import njit

from ._bits import popc
from ._jit import (
    BEST,
    DTRICKS,
    EX_TRICK,
    EXB,
    HALF,
    HIGH,
    LEADER,
    LED,
    ONE,
    PB,
    TR,
    K,
    N,
    U,
    Z,
    card_suit,
    choose,
    legal,
    new_trick,
    play_card,
)

_J: dict[str, Any] = {"cache": True, "nogil": True}

KEY_BITS = 5
"""Bits per holder's need in a counts-table key (needs are at most 24)."""


@njit(**_J)
def _key(i: int, r: Any) -> int:
    code = i
    for h in range(r.shape[0]):
        code = (code << KEY_BITS) | r[h]
    return code


@njit(**_J)
def _bisect_right(a: Any, lo: int, hi: int, x: float) -> int:
    while lo < hi:
        mid = (lo + hi) // 2
        if x < a[mid]:
            hi = mid
        else:
            lo = mid + 1
    return lo


@njit(**_J)
def _find(keys: Any, key: int) -> int:
    lo = 0
    hi = keys.shape[0]
    while lo < hi:
        mid = (lo + hi) // 2
        if keys[mid] < key:
            lo = mid + 1
        else:
            hi = mid
    return lo


@njit(**_J)
def _add(t: Any, s: Any, c: int) -> Any:
    if c < 22:
        return t | (ONE << U(c)), s
    return t, s | (ONE << U(c - 22))


@njit(**_J)
def _dealt(row: Any, seat: int, played: Any, decl: int, dog: Any, add_pile: bool) -> Any:
    """The 18 cards ``seat`` was dealt in a world (``Facts.dealt_hand``)."""
    t = row[2 * seat] | played[2 * seat]
    s = row[2 * seat + 1] | played[2 * seat + 1]
    if seat == decl and (dog[0] | dog[1]) != Z:
        if add_pile:
            t |= row[8]
            s |= row[9]
        t &= ~dog[0]
        s &= ~dog[1]
    return t, s


@njit(**_J)
def draw_worlds(
    n: int,
    seed: int,
    root: Any,
    sizes: Any,
    masks: Any,
    cards: Any,
    coff: Any,
    pair: bool,
    keys: Any,
    koff: Any,
    cum: Any,
    allocs: Any,
    holder_ids: Any,
    fixed: Any,
    me: int,
    played: Any,
    decl: int,
    dog: Any,
    add_pile: bool,
    max_tries: int,
    out: Any,
) -> int:
    """Up to ``n`` worlds into ``out``; how many were drawn (fewer only when ``max_tries`` draws
    all held a petit sec)."""
    np.random.seed(seed)
    nh = root.shape[0]
    k = sizes.shape[0]
    r = np.empty(nh, dtype=np.int64)
    a = np.empty(nh, dtype=np.int64)
    got = np.empty(2 * nh, dtype=np.uint64)
    deck = np.empty(78, dtype=np.int64)
    row = np.empty(10, dtype=np.uint64)
    done = 0
    tries = 0
    while done < n and tries < max_tries:
        tries += 1
        r[:] = root
        got[:] = Z
        for i in range(k):
            if i == k - 1:
                a[:] = r
            elif pair and i == k - 2:
                # the first of the last two groups: draws without replacement from the needs
                a[:] = 0
                tot = 0
                for h in range(nh):
                    if (masks[i] >> h) & 1:
                        tot += r[h]
                for _ in range(sizes[i]):
                    u = np.random.randint(0, tot)
                    for h in range(nh):
                        if (masks[i] >> h) & 1:
                            avail = r[h] - a[h]
                            if u < avail:
                                a[h] += 1
                                break
                            u -= avail
                    tot -= 1
            else:
                j = _find(keys, _key(i, r))
                lo = koff[j]
                hi = koff[j + 1]
                x = np.random.random() * cum[hi - 1]
                t = _bisect_right(cum, lo, hi, x)
                if t >= hi:
                    t = hi - 1
                a[:] = allocs[t]
            for h in range(nh):
                r[h] -= a[h]
            m = coff[i + 1] - coff[i]
            deck[:m] = cards[coff[i] : coff[i + 1]]
            pos = 0
            for h in range(nh):
                for _ in range(a[h]):
                    j2 = pos + np.random.randint(0, m - pos)
                    c = deck[j2]
                    deck[j2] = deck[pos]
                    deck[pos] = c
                    got[2 * h], got[2 * h + 1] = _add(got[2 * h], got[2 * h + 1], c)
                    pos += 1
        row[:] = fixed
        for h in range(nh):
            hid = holder_ids[h]
            row[2 * hid] |= got[2 * h]
            row[2 * hid + 1] |= got[2 * h + 1]
        sec = False
        for seat in range(4):
            if seat != me:
                dt, _ = _dealt(row, seat, played, decl, dog, add_pile)
                if (dt & TR) == PB and (dt & EXB) == Z:
                    sec = True
        if not sec:
            out[done, :] = row
            done += 1
    return done


# ---------------------------------------------------------------------- calls

BIG_T = U(sum(1 << t for t in range(15, 20)))  # T16..T20
MONDE_T = U(1 << 20)


@njit(**_J)
def strength(t: Any, s: Any) -> float:
    """bots.expert.handmodel.strength of a (T, S) hand."""
    trumps = t & TR
    nt = popc(trumps)
    v = 2.0 * nt + popc(trumps & BIG_T)
    if t & MONDE_T:
        v += 10
    if t & EXB:
        v += 8
    if t & PB:
        v += 9 if nt >= 6 else (6 if nt >= 5 else 2)
    if nt >= 7:
        v += 2 * (nt - 6)
    for suit in range(4):
        m = (s >> U(14 * suit)) & U(0x3FFF)
        cnt = popc(m)
        king = (m >> U(13)) & ONE
        queen = (m >> U(12)) & ONE
        v += 6 * king + 3 * queen + 2 * ((m >> U(11)) & ONE) + ((m >> U(10)) & ONE)
        if king and queen:
            v += 1
        if cnt >= 5:
            v += 2 * (cnt - 4)
        elif cnt == 0:
            v += 6 if nt >= 5 else 3
        elif cnt == 1:
            v += 3 if nt >= 5 else 1
    return v


@njit(**_J)
def _sig(x: float) -> float:
    if x > 30:
        return 1.0
    if x < -30:
        return 0.0
    return 1.0 / (1.0 + np.exp(-x))


@njit(**_J)
def bid_likelihood(v: float, call: int, lowest: int, thresholds: Any, soft: float,
                   floor: float) -> float:  # fmt: skip
    """bots.expert.handmodel.bid_likelihood; ``call`` 0 for a pass, ``lowest`` the lowest
    contract still allowed (1..4, 5 when none was)."""
    if lowest > 4:
        return 1.0
    if call == 0:
        p = 1.0 - _sig((v - thresholds[lowest - 1]) / soft)
    else:
        p = _sig((v - thresholds[call - 1]) / soft)
        if call < 4:
            p -= _sig((v - thresholds[call]) / soft)
    return max(p, 0.0) + floor


# ---------------------------------------------------------------------- cards


@njit(**_J)
def _wins(S: Any, c: int) -> bool:
    """Would ``c`` take the lead of the trick in progress?"""
    s = card_suit(c)
    if s < 0:
        return False
    if S[LED] < 0:
        return True
    if s == 4:
        return c > S[HIGH]
    return s == S[LED] and S[HIGH] < 0 and c > S[BEST]


@njit(**_J)
def alike(S: Any, c: int, d: int) -> bool:
    """Cards of the same effect for the model: the same card, or two small cards (a suit card
    below the Jack, a trump but an oudler) of one suit that both take the trick or both do not."""
    if c == d:
        return True
    if c == 21 or d == 21 or card_suit(c) != card_suit(d):
        return False
    if HALF[c] != 1 or HALF[d] != 1:
        return False
    return _wins(S, c) == _wins(S, d)


@njit(**_J)
def log_weights(
    rows: Any,
    me: int,
    played: Any,
    decl: int,
    dog: Any,
    add_pile: bool,
    call_seats: Any,
    calls: Any,
    lowests: Any,
    thresholds: Any,
    soft: float,
    floor: float,
    plays: Any,
    leader: int,
    log_eps: float,
    out: Any,
) -> None:
    """For each world: the log-likelihood of the other seats' calls and cards (see the module
    docstring). ``plays``: every card played so far in order, the first trick led by
    ``leader``; an empty ``plays`` or ``call_seats`` leaves that part out."""
    H = np.zeros(12, dtype=np.uint64)
    S = np.zeros(17, dtype=np.int64)
    for w in range(rows.shape[0]):
        row = rows[w]
        lw = 0.0
        for j in range(call_seats.shape[0]):
            seat = call_seats[j]
            t, s = _dealt(row, seat, played, decl, dog, add_pile)
            lw += np.log(bid_likelihood(strength(t, s), calls[j], lowests[j], thresholds,
                                        soft, floor))  # fmt: skip
        if plays.shape[0] > 0:
            H[:] = Z
            for seat in range(4):
                H[2 * seat] = row[2 * seat] | played[2 * seat]
                H[2 * seat + 1] = row[2 * seat + 1] | played[2 * seat + 1]
            S[:] = 0
            S[EX_TRICK] = -1
            new_trick(S, leader)
            for p in range(plays.shape[0]):
                c = plays[p]
                seat = (S[LEADER] + S[K]) & 3
                if seat != me:
                    lt, ls = legal(H[2 * seat], H[2 * seat + 1], S[LED], S[HIGH])
                    if popc(lt) + popc(ls) > 1:
                        best = choose(H, S, seat, lt, ls, decl, S[DTRICKS] == S[N])
                        if not alike(S, c, best):
                            lw += log_eps
                play_card(H, S, c, decl)
        out[w] = lw
