"""What the other seats' actions say about their hands: the models the expert weighs its
worlds by (the Python reference of ``kernel._worlds``).

Bids are soft evidence: a seat that bid Garde probably holds a strong hand, one that passed
probably does not. ``bid_likelihood`` gives the probability of a call given a hand's strength
(an ordered logistic model over a classic point count); the sampler weights worlds by it.
Cards are soft evidence too: ``play_log_likelihood`` replays the cards played in a world and
asks whether the heuristic policy, seeing what the player could see, would have played alike.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from oudler.core import cards as C
from oudler.core.deal import Contract
from oudler.core.tricks import CARD_SUIT, LED_NONE, LED_TRUMP, TrickState, legal_mask

from .playout import PlayState, advance, choose

_KING, _QUEEN, _CAV, _JACK = 14, 13, 12, 11
_BIG_TRUMPS = sum(1 << t for t in range(15, 20))  # T16..T20


@dataclass(frozen=True)
class CallModel:
    """Strength at which a player makes each call (Prise, Garde, Garde sans, Garde contre), how
    soft the thresholds are (points of strength for a factor e in the odds), and the floor every
    call keeps (nobody bids exactly by a book)."""

    thresholds: tuple[float, float, float, float]
    softness: float
    floor: float


CALLS = CallModel((37.0, 45.0, 67.0, 130.0), 2.5, 0.01)
"""The calls of the players who sit at the table, fitted by maximum likelihood to 590 deals bid
by club and 160 by the expert, each level weighing the same (``python bench/inference_fit.py
fit``, README "Inference, measured offline"). Neither level bid a Garde contre, so its threshold
is out of reach: such a call, or a pass after a Garde sans, tells nothing; the floor is kept at
0.01 (the fit's best, 0.002, would let one unusual call of a human rule out nearly every world)."""

CALLS_V1 = CallModel((41.0, 56.0, 71.0, 81.0), 5.0, 0.02)
"""The thresholds set by hand before the fit: expert-v1 (the pure-Python search, the arena's
fixed reference) keeps them."""


def strength(hand: int) -> float:
    """A point count of an 18-card hand (oudlers, trumps, honours, long suits, voids)."""
    trumps = hand & C.TRUMPS
    nt = trumps.bit_count()
    s = 2.0 * nt + (trumps & _BIG_TRUMPS).bit_count()
    if hand >> C.MONDE & 1:
        s += 10
    if hand & C.EXCUSE_BIT:
        s += 8
    if hand & C.PETIT_BIT:
        s += 9 if nt >= 6 else (6 if nt >= 5 else 2)
    if nt >= 7:
        s += 2 * (nt - 6)
    for suit in range(4):
        m = hand & C.SUIT_MASKS[suit]
        n = m.bit_count()
        base = 22 + 14 * suit
        king = m >> (base + _KING - 1) & 1
        queen = m >> (base + _QUEEN - 1) & 1
        s += 6 * king + 3 * queen + (m >> (base + _CAV - 1) & 1) * 2 + (m >> (base + _JACK - 1) & 1)
        if king and queen:
            s += 1
        if n >= 5:
            s += 2 * (n - 4)
        elif n == 0:
            s += 6 if nt >= 5 else 3
        elif n == 1:
            s += 3 if nt >= 5 else 1
    return s


def _sig(x: float) -> float:
    if x > 30:
        return 1.0
    if x < -30:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


def bid_likelihood(
    s: float, call: Contract | None, high_before: Contract | None, model: CallModel = CALLS
) -> float:
    """P(call | strength s) when the highest bid so far was ``high_before``."""
    lowest = 1 if high_before is None else int(high_before) + 1
    if lowest > 4:
        return 1.0  # nothing was left to bid
    th, soft = model.thresholds, model.softness
    if call is None:
        p = 1.0 - _sig((s - th[lowest - 1]) / soft)
    else:
        c = int(call)
        p = _sig((s - th[c - 1]) / soft)
        if c < 4:
            p -= _sig((s - th[c]) / soft)
    return max(p, 0.0) + model.floor


# ---------------------------------------------------------------------- cards played
# The Python reference of the card likelihood of ``kernel._worlds.log_weights`` (the expert
# weighs its worlds on the kernel; tests/test_inference.py checks that the two agree).

LEAD, FOLLOW, TRUMP_LED, RUFF, DISCARD = 0, 1, 2, 3, 4
KINDS = 5
"""Kinds of card decision; the situation of a play is ``KINDS * role + kind``, role 1 for the
declarer, 0 for a defender."""


def kind_of(t: TrickState, legal: int) -> int:
    """A lead, following the suit led, following trumps led, trumping for want of the suit
    led, or discarding (neither)."""
    if not t.cards or t.led == LED_NONE:
        return LEAD
    has_trump = bool(legal & C.TRUMPS)
    if t.led == LED_TRUMP:
        return TRUMP_LED if has_trump else DISCARD
    if legal & C.SUIT_MASKS[t.led]:
        return FOLLOW
    return RUFF if has_trump else DISCARD


def _takes_lead(t: TrickState, c: int) -> bool:
    s = CARD_SUIT[c]
    if s == LED_NONE:
        return False
    if t.led == LED_NONE:
        return True
    if s == LED_TRUMP:
        return c > t.high
    return s == t.led and t.high < 0 and c > t.best


def alike(t: TrickState, c: int, d: int) -> bool:
    """Cards of the same effect: the same card, or two small cards (a suit card below the Jack,
    a trump but an oudler) of one suit that both take the trick or both do not."""
    if c == d:
        return True
    if C.EXCUSE in (c, d) or CARD_SUIT[c] != CARD_SUIT[d]:
        return False
    if C.HALF_POINTS[c] != 1 or C.HALF_POINTS[d] != 1:
        return False
    return _takes_lead(t, c) == _takes_lead(t, d)


def fair_view(
    hands: list[int], seat: int, gone: int, voids: list[int], declarer: int, away: int
) -> list[int]:
    """The hands as ``seat`` can know them, for the policy to decide from: its own, and each
    other seat holding every card neither ``seat`` holds nor anyone has played (``gone``), but
    for the suits it has shown it lacks (``voids[d]``: bits 0..3 the suits, 4 the trumps) and,
    for a seat other than the declarer, the cards ``away`` (the dog a defender saw)."""
    unknown = C.ALL_CARDS & ~gone & ~hands[seat]
    out = []
    for d in range(4):
        if d == seat:
            out.append(hands[seat])
            continue
        m = unknown
        for s in range(4):
            if voids[d] >> s & 1:
                m &= ~C.SUIT_MASKS[s]
        if voids[d] & 16:
            m &= ~C.TRUMPS
        if d != declarer:
            m &= ~away
        out.append(m)
    return out


def play_log_likelihood(
    hands: list[int],
    plays: list[int],
    leader: int,
    me: int,
    declarer: int,
    dog: int,
    discard: int,
    eps: tuple[float, ...],
    fair: bool,
) -> float:
    """log P(the cards played | a world), ``hands`` the four hands before the first card: each
    card of another seat than ``me`` with two or more legal cards weighs 1 when it is alike the
    heuristic policy's choice, ``eps[situation]`` when not. ``fair``: the policy sees the hands
    as the player could (``fair_view``; when the dog was shown (``dog``, else 0), the declarer
    knows ``discard``, his own, and a defender the dog)."""
    st = PlayState()
    st.hands = list(hands)
    st.leader = leader
    voids = [0, 0, 0, 0]
    gone = 0
    lw = 0.0
    for c in plays:
        seat = st.to_move
        t = st.trick()
        if seat != me:
            legal = legal_mask(st.hands[seat], t.led, t.high)
            if legal & (legal - 1):
                if fair and seat == declarer:
                    view = fair_view(st.hands, seat, gone | discard, voids, declarer, 0)
                elif fair:
                    view = fair_view(st.hands, seat, gone, voids, declarer, dog)
                else:
                    view = st.hands
                best = choose(view, seat, legal, t, declarer, st.dtricks == st.n)
                if not alike(t, c, best):
                    situation = KINDS * (seat == declarer) + kind_of(t, legal)
                    lw += math.log(eps[situation])
        if t.cards and t.led != LED_NONE and c != C.EXCUSE and CARD_SUIT[c] != t.led:
            if t.led != LED_TRUMP:
                voids[seat] |= 1 << t.led
            if CARD_SUIT[c] != LED_TRUMP:
                voids[seat] |= 16
        gone |= 1 << c
        advance(st, c, declarer)
    return lw
