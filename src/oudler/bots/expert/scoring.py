"""A fast scorer for the end of a deal, for leaves of the search.

It computes the per-defender amount D of RULES.md §9 from a few numbers a playout keeps as it goes
(the declarer's pile, his trick count, where the Excuse fell, petit au bout), instead of building a
``Deal``. The formula, the half-point rule, the points needed and the bonuses are the core's; only
the pile arithmetic is done here, and ``tests/test_expert.py`` checks it against ``Deal``'s own
scoring on thousands of finished deals.
"""

from __future__ import annotations

from oudler.core import cards as C
from oudler.core.deal import TRICKS, chelem_bonus, score_formula, settle_points

LAST = TRICKS - 1
_COUNTED_OUDLERS = C.OUDLERS & ~C.EXCUSE_BIT


def per_defender(
    pile: int,
    decl_tricks: int,
    excuse_trick: int,
    excuse_owner_decl: bool,
    excuse_winner_decl: bool,
    pab: int,
    multiplier: int,
    announced: bool,
    poignee_bonus: int,
) -> int:
    """D seen from the declarer (he scores 3D, each defender -D).

    ``pile``: every card of the tricks the declarer won, plus the discard (Prise, Garde) or the dog
    (Garde sans). ``excuse_trick``: index 0..17 of the trick holding the Excuse, or -1 when it lay
    in the unseen dog. ``pab``: +1 declarer's petit au bout, -1 the defence's, 0 none.
    """
    half = C.half_points(pile & ~C.EXCUSE_BIT)
    if excuse_trick < 0:
        in_pile = bool(pile & C.EXCUSE_BIT)
        if in_pile:
            half += 9
    elif excuse_trick == LAST:
        in_pile = excuse_winner_decl  # it goes with the last trick
        if in_pile:
            half += 9
    elif excuse_owner_decl == excuse_winner_decl:
        in_pile = excuse_owner_decl
        if in_pile:
            half += 9
    else:
        in_pile = excuse_owner_decl
        owner_tricks = decl_tricks if excuse_owner_decl else TRICKS - decl_tricks
        if owner_tricks:
            half += 8 if excuse_owner_decl else 1  # taken back against a half-point card
        elif excuse_owner_decl:
            half += 8  # never exchanged: worth 4, the half point goes to the winning side
    oudlers = (pile & _COUNTED_OUDLERS).bit_count() + in_pile
    _, _, won, diff = settle_points(half, oudlers)
    bonus = chelem_bonus(
        announced=announced,
        declarer_chelem=decl_tricks == TRICKS,
        defence_chelem=decl_tricks == 0,
    )
    return score_formula(
        won=won,
        diff=diff,
        multiplier=multiplier,
        pab=pab,
        poignee_bonus=poignee_bonus,
        chelem_bonus=bonus,
    )
