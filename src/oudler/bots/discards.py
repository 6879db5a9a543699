"""Sensible discards for a declarer, and a quick preference among them: the candidates the
expert's discard search weighs (``expert.contract.discard_options``) and the ``policy`` level's
discard network chooses among (``cardmodel.DiscardNet``)."""

from __future__ import annotations

from oudler.core import cards as C
from oudler.core.deal import discard_rule

HALF = C.HALF_POINTS


def _first(order: list[int], k: int, voided: int) -> int:
    """The first ``k`` cards of ``order`` outside ``voided``, as a mask (fewer if it runs out)."""
    m = 0
    for c in order:
        if not k:
            break
        if not voided >> c & 1:
            m |= 1 << c
            k -= 1
    return m


def discard_candidates(hand: int) -> list[int]:
    """Sensible discards for a declarer's 24 cards: make voids in short suits, then bury the
    honours most likely to fall, or shorten another suit. Always legal (``discard_rule``)."""
    allowed, forced = discard_rule(hand)
    if forced:
        # every discardable suit card goes; the forced trumps are the smallest ones
        trumps = C.cards_of(allowed & C.TRUMPS)
        return [(allowed & C.SUIT_CARDS) | _first(trumps, forced, 0)]
    suits = [allowed & C.SUIT_MASKS[s] for s in range(4)]
    kings = [bool(hand & C.KINGS & C.SUIT_MASKS[s]) for s in range(4)]
    length = [m.bit_count() for m in suits]
    # Two orders of the cards, each one way to fill the discard after the voids: the honours of
    # suits without their King first (they would fall), the highest first; or the shortest
    # suits, highest first. Neither depends on the voids, so each is sorted once (the bidding's
    # playouts ask for a discard in every world).
    allowed_cards = C.cards_of(allowed)
    by_value = sorted(
        allowed_cards, key=lambda c: (-HALF[c] - (0 if kings[C.suit_of(c)] else 4), -c)
    )
    by_short = sorted(allowed_cards, key=lambda c: (length[C.suit_of(c)], -HALF[c], -c))
    out: list[int] = []
    for subset in range(16):
        voided = 0
        ok = True
        for s in range(4):
            if subset >> s & 1:
                if not suits[s]:
                    ok = False
                voided |= suits[s]
        if not ok or voided.bit_count() > 6:
            continue
        k = 6 - voided.bit_count()
        for order in (by_value, by_short):
            d = voided | _first(order, k, voided)
            if d not in out:
                out.append(d)
    return out


def quick_value(hand: int, discard: int) -> float:
    """A quick preference among discards: voids and short suits to trump, points saved."""
    kept = hand & ~discard
    v = C.half_points(discard) * 0.5
    trumps = (kept & C.TRUMPS).bit_count()
    for s in range(4):
        n = (kept & C.SUIT_MASKS[s]).bit_count()
        if n == 0:
            v += 6 + 0.5 * trumps
        elif n == 1 and kept & C.KINGS & C.SUIT_MASKS[s]:
            v += 3
        elif n == 1:
            v += 2
    return v


def rule_discard(hand: int) -> int:
    cands = discard_candidates(hand)
    return max(cands, key=lambda d: (quick_value(hand, d), -d))
