"""A simple hand-strength model: what a call says about the hand that made it.

Bids are soft evidence: a seat that bid Garde probably holds a strong hand, one that passed
probably does not. ``bid_likelihood`` gives the probability of a call given a hand's strength
(an ordered logistic model over a classic point count); the sampler weights worlds by it.
"""

from __future__ import annotations

import math

from oudler.core import cards as C
from oudler.core.deal import Contract

_KING, _QUEEN, _CAV, _JACK = 14, 13, 12, 11
_BIG_TRUMPS = sum(1 << t for t in range(15, 20))  # T16..T20

# Strength at which a typical player makes each call (Prise, Garde, Garde sans, Garde contre),
# and how soft the thresholds are (points of strength for a factor e in the odds).
THRESHOLDS = (41.0, 56.0, 71.0, 81.0)
SOFTNESS = 5.0
FLOOR = 0.02  # nobody bids exactly by a book: every call keeps some probability


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


def bid_likelihood(s: float, call: Contract | None, high_before: Contract | None) -> float:
    """P(call | strength s) when the highest bid so far was ``high_before``."""
    lowest = 1 if high_before is None else int(high_before) + 1
    if lowest > 4:
        return 1.0  # nothing was left to bid
    if call is None:
        p = 1.0 - _sig((s - THRESHOLDS[lowest - 1]) / SOFTNESS)
    else:
        c = int(call)
        p = _sig((s - THRESHOLDS[c - 1]) / SOFTNESS)
        if c < 4:
            p -= _sig((s - THRESHOLDS[c]) / SOFTNESS)
    return max(p, 0.0) + FLOOR
