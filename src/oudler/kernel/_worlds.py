"""Compiled world drawing and inference for the expert's sampler (``bots.expert.sampler``).

``draw_worlds`` deals the unseen cards exactly as ``WorldSampler.sample`` does (the same class
counts table, flattened; the same petit sec rejection), many worlds per call. ``log_weights``
gives each world the log-likelihood of what the other seats did: their calls (the hand-strength
model of ``bots.expert.handmodel``) and their cards (the heuristic policy of ``_jit.choose``,
seeing what the player could see, with a likelihood ``eps`` by situation for a card off it; the
Python reference is ``handmodel.play_log_likelihood``). Both read only what the sampler hands
them: the seat's own facts and the worlds, never a real deal.

Card sets are (T, S) word pairs as in ``_jit``; a row of ``out`` is the four hands then the dog
or discard (10 words).
"""

from typing import Any, NamedTuple

import numpy as np
from numba import njit

from ._bits import ctz, popc
from ._jit import (
    BEST,
    DTRICKS,
    EX_TRICK,
    EXB,
    HALF,
    HIGH,
    KING_S,
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
    smask,
)
from ._learned import MAX_LEGAL
from ._learned import facts as learned_facts

_J: dict[str, Any] = {"cache": True, "nogil": True}


class NetLik(NamedTuple):
    """A learned card policy as a likelihood (``card_loglik``): the network's weights (``w1``
    of no rows for none), its scores' scale ``beta`` and the uniform share ``mix``."""

    w1: Any
    b1: Any
    w2: Any
    b2: Any
    beta: float
    mix: float


NO_NET = NetLik(
    np.zeros((0, 1), dtype=np.float32), np.zeros(1, dtype=np.float32),
    np.zeros((1, 1), dtype=np.float32), np.zeros(1, dtype=np.float32), 1.0, 0.0,
)  # fmt: skip
"""No network: the heuristic policy's likelihood."""

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


# ---------------------------------------------------------------------- cards played

LEAD, FOLLOW, TRUMP_LED, RUFF, DISCARD = 0, 1, 2, 3, 4
KINDS = 5
"""Kinds of card decision: a lead, following the suit led, following trumps led, trumping for
want of the suit led, and discarding (neither the suit nor a trump); the situation of a play is
``KINDS * role + kind``, role 1 for the declarer and 0 for a defender."""


@njit(**_J)
def kind_of(S: Any, lt: Any, ls: Any) -> int:
    """The kind of decision for legal cards (lt, ls) in the trick ``S``."""
    led = S[LED]
    if S[K] == 0 or led < 0:
        return LEAD
    if led == 4:
        return TRUMP_LED if (lt & TR) != Z else DISCARD
    if ls & smask(led):
        return FOLLOW
    return RUFF if (lt & TR) != Z else DISCARD


ALL_T = TR | EXB
ALL_S = U((1 << 56) - 1)


@njit(**_J)
def fair_view(H: Any, G: Any, seat: int, gone_t: Any, gone_s: Any, voids: Any, decl: int,
              away_t: Any, away_s: Any) -> None:  # fmt: skip
    """``G``: the world as ``seat`` can know it, for the policy to decide from: its own hand as
    in ``H``, and each other seat holding every card neither ``seat`` holds nor anyone has
    played (``gone_t``, ``gone_s``), but for the suits it has shown it lacks (``voids[d]``, bit
    4 the trumps) and, for a seat other than the declarer, the cards ``away`` (the dog a
    defender saw: with the declarer or in his discard). A player's card then says something
    about its own hand only, never about cards it could not see."""
    ut = ALL_T & ~gone_t & ~H[2 * seat]
    us = ALL_S & ~gone_s & ~H[2 * seat + 1]
    G[:] = Z
    G[2 * seat] = H[2 * seat]
    G[2 * seat + 1] = H[2 * seat + 1]
    for d in range(4):
        if d != seat:
            v = voids[d]
            t = ut
            if v & 16:
                t &= ~TR
            m = us
            for su in range(4):
                if (v >> su) & 1:
                    m &= ~smask(su)
            if d != decl:
                t &= ~away_t
                m &= ~away_s
            G[2 * d] = t
            G[2 * d + 1] = m


@njit(**_J)
def note_void(S: Any, voids: Any, seat: int, c: int) -> None:
    """Record the suits ``seat`` shows it lacks by playing ``c`` to the trick ``S`` (before it)."""
    led = S[LED]
    if S[K] == 0 or led < 0 or c == 21:
        return
    s = card_suit(c)
    if s != led:
        if led < 4:
            voids[seat] |= 1 << led
        if s != 4:
            voids[seat] |= 16


@njit(**_J)
def fair_of(H: Any, G: Any, seat: int, gone_t: Any, gone_s: Any, voids: Any, decl: int,
            known: bool, row: Any, dog: Any) -> None:  # fmt: skip
    """``fair_view`` for ``seat``: when the dog was shown, the declarer knows his discard
    (``row[8:10]``) and a defender knows the dog's cards are not with his partner."""
    if not known:
        fair_view(H, G, seat, gone_t, gone_s, voids, decl, Z, Z)
    elif seat == decl:
        fair_view(H, G, seat, gone_t | row[8], gone_s | row[9], voids, decl, Z, Z)
    else:
        fair_view(H, G, seat, gone_t, gone_s, voids, decl, dog[0], dog[1])


@njit(**_J)
def card_loglik(G: Any, S: Any, decl: int, c: int, net: Any, cards: Any, rows: Any,
                vals: Any) -> float:  # fmt: skip
    """The log-probability of the card ``c`` by the learned network ``net`` for the seat to move
    in ``G`` (a fair view): a softmax of its scores times ``net.beta``, mixed with the uniform
    choice among the legal cards at weight ``net.mix``. ``cards``, ``rows``, ``vals``: scratch."""
    n = learned_facts(G, S, decl, cards, rows)
    hidden = net.w1.shape[1]
    vc = 0.0
    vmax = -np.inf
    for j in range(n):
        f = rows[j]
        v = net.b2[0]
        for h in range(hidden):
            a = net.b1[h]
            for i in range(f.shape[0]):
                a += f[i] * net.w1[i, h]
            if a > 0.0:
                v += a * net.w2[h, 0]
        v *= net.beta
        vals[j] = v
        if cards[j] == c:
            vc = v
        vmax = max(vmax, v)
    z = 0.0
    for j in range(n):
        z += np.exp(vals[j] - vmax)
    p = np.exp(vc - vmax) / z
    return float(np.log((1.0 - net.mix) * p + net.mix / n))


@njit(**_J)
def replay_plays(row: Any, me: int, played: Any, decl: int, dog: Any, add_pile: bool,
                 plays: Any, leader: int, fair: bool, count: bool, out: Any,
                 net: Any, lp: Any) -> None:  # fmt: skip
    """Replays the cards played so far in world ``row``; for each, ``out[p]`` = (situation, 1
    if the card is alike the policy's, legal cards alike the policy's when ``count``, legal
    cards), the situation -1 for a card of ``me`` or a forced one (one legal card). ``fair``:
    the policy decides from ``fair_view`` (when the dog was shown, the declarer knowing his
    discard and a defender the dog), not from the whole world. With a learned network ``net``
    (``NetLik``; a ``w1`` of no rows for none), ``lp[p]`` is instead the log-probability the
    network gives the card, on the fair view, and the heuristic policy is not asked."""
    H = np.zeros(12, dtype=np.uint64)
    G = np.zeros(12, dtype=np.uint64)
    S = np.zeros(17, dtype=np.int64)
    cards = np.zeros(MAX_LEGAL, dtype=np.int64)
    frows = np.zeros((MAX_LEGAL, max(net.w1.shape[0], 1)), dtype=np.float32)
    vals = np.zeros(MAX_LEGAL, dtype=np.float64)
    voids = np.zeros(4, dtype=np.int64)
    for seat in range(4):
        H[2 * seat] = row[2 * seat] | played[2 * seat]
        H[2 * seat + 1] = row[2 * seat + 1] | played[2 * seat + 1]
    S[EX_TRICK] = -1
    new_trick(S, leader)
    gone_t = Z
    gone_s = Z
    known = add_pile and (dog[0] | dog[1]) != Z  # the declarer's own discard, hidden to others
    for p in range(plays.shape[0]):
        c = plays[p]
        seat = (S[LEADER] + S[K]) & 3
        out[p, 0] = -1
        out[p, 1] = 0
        out[p, 2] = 0
        out[p, 3] = 0
        lp[p] = 0.0
        if seat != me:
            lt, ls = legal(H[2 * seat], H[2 * seat + 1], S[LED], S[HIGH])
            nl = popc(lt) + popc(ls)
            if nl > 1:
                out[p, 0] = KINDS * (1 if seat == decl else 0) + kind_of(S, lt, ls)
                out[p, 3] = nl
                learned = net.w1.shape[0] > 0  # the network always reads the fair view
                if fair or learned:
                    fair_of(H, G, seat, gone_t, gone_s, voids, decl, known, row, dog)
                if learned:
                    lp[p] = card_loglik(G, S, decl, c, net, cards, frows, vals)
                else:
                    best = choose(G if fair else H, S, seat, lt, ls, decl, S[DTRICKS] == S[N])
                    if count:
                        na = 0
                        for d in range(78):
                            inl = (lt >> U(d)) & ONE if d < 22 else (ls >> U(d - 22)) & ONE
                            if inl and alike(S, d, best):
                                na += 1
                        out[p, 2] = na
                    out[p, 1] = 1 if alike(S, c, best) else 0
        note_void(S, voids, seat, c)
        gone_t, gone_s = _add(gone_t, gone_s, c)
        play_card(H, S, c, decl)


@njit(**_J)
def quick_value(hT: Any, hS: Any, dS: Any) -> float:
    """``bots.discards.quick_value`` of the suit cards ``dS`` discarded from the 24 cards
    (``hT``, ``hS``): half the discard's half points, and for each suit the hand keeps none of
    (6 and half a point a trump kept), a lone King (3) or one other card (2)."""
    v = 0.0
    m = dS
    while m:
        b = ctz(m)
        m &= m - ONE
        v += HALF[22 + b]
    v *= 0.5
    kept = hS & ~dS
    trumps = popc(hT & TR)
    for s in range(4):
        n = popc(kept & smask(s))
        if n == 0:
            v += 6 + 0.5 * trumps
        elif n == 1 and kept & KING_S & smask(s):
            v += 3
        elif n == 1:
            v += 2
    return v


@njit(**_J)
def _take(order: Any, keys: Any, n: int, k: int) -> Any:
    """The first ``k`` of the ``n`` suit cards ``order`` (bits of S) by ascending ``keys``."""
    idx = np.argsort(keys[:n], kind="mergesort")
    d = Z
    for j in range(min(k, n)):
        d |= ONE << U(order[idx[j]])
    return d


@njit(**_J)
def discard_gap(hT: Any, hS: Any, dT: Any, dS: Any) -> float:
    """How far the discard (``dT``, ``dS``) falls short of the best of
    ``bots.discards.discard_candidates`` for the declarer's 24 cards by ``quick_value``: 0 or
    less. 0 when the discard must hold trumps (not six suit cards besides the Kings), or does."""
    plain = hS & ~KING_S
    if popc(plain) < 6 or dT != Z:
        return 0.0
    order = np.zeros(24, dtype=np.int64)
    kv = np.zeros(24, dtype=np.int64)
    ks = np.zeros(24, dtype=np.int64)
    best = -np.inf
    for subset in range(16):
        voided = Z
        ok = True
        for s in range(4):
            if (subset >> s) & 1:
                if plain & smask(s) == Z:
                    ok = False
                voided |= plain & smask(s)
        if not ok or popc(voided) > 6:
            continue
        k = 6 - popc(voided)
        rest = plain & ~voided
        n = 0
        m = rest
        while m:
            b = ctz(m)
            m &= m - ONE
            s = b // 14
            c = 22 + b
            half = HALF[c]
            king = (hS & KING_S & smask(s)) != Z
            # honours of suits without their King first, the highest first; or the shortest
            # suits first, the highest first (bots.discards.discard_candidates's two orders)
            kv[n] = (-half - (0 if king else 4)) * 1000 - c
            ks[n] = popc(plain & smask(s)) * 100000 - half * 1000 - c
            order[n] = b
            n += 1
        for which in range(2):
            d = voided | _take(order, kv if which == 0 else ks, n, k)
            best = max(best, quick_value(hT, hS, d))
    if best == -np.inf:
        return 0.0
    return min(0.0, quick_value(hT, hS, dS) - best)


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
    log_eps: Any,
    fair: bool,
    net: Any,
    discard_lam: float,
    out: Any,
) -> None:
    """For each world: the log-likelihood of the other seats' calls and cards (see the module
    docstring). ``plays``: every card played so far in order, the first trick led by
    ``leader``; an empty ``plays`` or ``call_seats`` leaves that part out. A card off the
    policy adds ``log_eps[situation]``; with a learned network ``net`` (``NetLik``), its
    log-probability of the card instead. ``discard_lam`` > 0, for a defender once the dog was
    shown: the declarer's discard is evidence too, ``discard_lam`` times ``discard_gap`` of the
    world's discard from the 24 cards it gives the declarer."""
    by_discard = (
        discard_lam > 0 and decl >= 0 and me != decl and add_pile and (dog[0] | dog[1]) != Z
    )
    feat = np.zeros((plays.shape[0], 4), dtype=np.int64)
    lp = np.zeros(plays.shape[0], dtype=np.float64)
    learned = net.w1.shape[0] > 0
    for w in range(rows.shape[0]):
        row = rows[w]
        lw = 0.0
        for j in range(call_seats.shape[0]):
            seat = call_seats[j]
            t, s = _dealt(row, seat, played, decl, dog, add_pile)
            lw += np.log(bid_likelihood(strength(t, s), calls[j], lowests[j], thresholds,
                                        soft, floor))  # fmt: skip
        if plays.shape[0] > 0:
            replay_plays(row, me, played, decl, dog, add_pile, plays, leader, fair, False, feat,
                         net, lp)  # fmt: skip
            for p in range(plays.shape[0]):
                if feat[p, 0] < 0:
                    continue
                if learned:
                    lw += lp[p]
                elif feat[p, 1] == 0:
                    lw += log_eps[feat[p, 0]]
        if by_discard:
            lw += discard_lam * discard_gap(
                row[2 * decl] | played[2 * decl] | row[8],
                row[2 * decl + 1] | played[2 * decl + 1] | row[9],
                row[8],
                row[9],
            )
        out[w] = lw


@njit(**_J)
def play_features(rows: Any, me: int, played: Any, decl: int, dog: Any, add_pile: bool,
                  plays: Any, leader: int, fair: bool, net: Any, out: Any,
                  lp: Any) -> None:  # fmt: skip
    """``replay_plays`` of each world: ``out[w]`` and ``lp[w]`` for world ``rows[w]`` (for
    measuring)."""
    for w in range(rows.shape[0]):
        replay_plays(rows[w], me, played, decl, dog, add_pile, plays, leader, fair, True, out[w],
                     net, lp[w])  # fmt: skip


@njit(**_J)
def call_strengths(rows: Any, played: Any, decl: int, dog: Any, add_pile: bool,
                   call_seats: Any, out: Any) -> None:  # fmt: skip
    """``out[w, j]``: the hand-model strength of the hand ``call_seats[j]`` was dealt in world
    ``w``."""
    for w in range(rows.shape[0]):
        for j in range(call_seats.shape[0]):
            t, s = _dealt(rows[w], call_seats[j], played, decl, dog, add_pile)
            out[w, j] = strength(t, s)
