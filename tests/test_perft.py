"""Perft: the number of legal card sequences to a fixed depth from fixed positions.

Three generators must agree at every depth and for every first card: the ``Deal`` API (copy and
play), a lean loop on the pure functions of ``oudler.core.tricks``, and the deliberately naive
generator of ``naive_rules`` (sets of card names, RULES.md §7 read plainly). Once they agreed,
some counts were written down as constants, so a change that broke all three alike still fails.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from handbuilt import build_deal, play_cards, start_play
from naive_rules import NaivePosition
from naive_rules import perft as naive_perft
from oudler.core import Contract, Deal, Phase
from oudler.core import cards as C
from oudler.core.tricks import TrickState


def engine_divide(deal: Deal, depth: int) -> dict[str, int]:
    """Sequences of ``depth`` cards by first card, through the public Deal API."""
    out: dict[str, int] = {}
    for card in C.cards_of(deal.legal_cards()):
        child = deal.copy()
        child.play(card)
        out[C.CARD_NAMES[card]] = engine_perft(child, depth - 1)
    return out


def engine_perft(deal: Deal, depth: int) -> int:
    if depth == 0 or deal.phase is Phase.DONE:
        return 1
    if deal.phase is Phase.POIGNEE:
        deal = deal.copy()
        deal.declare_poignee([])
    total = 0
    for card in C.cards_of(deal.legal_cards()):
        child = deal.copy()
        child.play(card)
        total += engine_perft(child, depth - 1)
    return total


def core_perft(hands: list[int], trick: TrickState, depth: int) -> int:
    """The same count from ``tricks.legal_mask``/``TrickState`` alone, as a fast playout would."""
    if depth == 0 or not any(hands):
        return 1
    seat = trick.seat_of(len(trick.cards))
    total = 0
    for card in C.cards_of(trick.legal(hands[seat])):
        child_hands = hands.copy()
        child_hands[seat] ^= 1 << card
        child = trick.copy()
        child.add(card)
        if len(child.cards) == 4:
            child = TrickState(child.winner)
        total += core_perft(child_hands, child, depth - 1)
    return total


def naive_position(deal: Deal) -> NaivePosition:
    return NaivePosition(
        [set(C.format_cards(h)) for h in deal.hands],
        deal.trick.leader,
        [C.CARD_NAMES[c] for c in deal.trick.cards],
    )


def naive_divide(deal: Deal, depth: int) -> dict[str, int]:
    pos = naive_position(deal)
    return {name: naive_perft(pos.after(name), depth - 1) for name in pos.legal()}


# ------------------------------------------------------------------------------ positions

GARDE_SANS = ["garde_sans", "pass", "pass", "pass"]

# Seat 0 leads and holds the Excuse; seat 1 is void in spades, seat 2 in spades and hearts,
# seat 3 has no trump: every lead meets following, trumping, overtrumping and discarding.
VOIDS = [
    "EX T2 T5 T9 T14 T18 S1 S2 S3 S4 S5 S6 H1 H2 H3 D1 D2 D3",
    "T1 T3 T6 T10 T15 T19 H4 H5 H6 H7 H8 D4 D5 D6 D7 C1 C2 C3",
    "T4 T7 T11 T16 T20 T21 D8 D9 D10 DJ DC C4 C5 C6 C7 C8 C9 C10",
    "S7 S8 S9 S10 SJ SC SQ SK H9 H10 HJ HC HQ HK DQ DK CJ CC",
]
VOIDS_DOG = "T8 T12 T13 T17 CQ CK"

# Trumps spread over every seat and the Excuse with the second player: trump leads and long
# overtrumping chains, the Excuse played second.
TRUMPS = [
    "T2 T4 T6 T8 T10 T12 S1 S2 S3 H1 H2 H3 D1 D2 D3 C1 C2 C3",
    "EX T1 T3 T5 T7 S4 S5 S6 S7 H4 H5 H6 H7 D4 D5 D6 D7 C4",
    "T9 T11 T13 T15 T17 T19 T21 S8 S9 S10 H8 H9 H10 D8 D9 D10 C5 C6",
    "T14 T16 T18 T20 SJ SC SQ SK HJ HC HQ HK DJ DC DQ DK C7 C8",
]
TRUMPS_DOG = "C9 C10 CJ CC CQ CK"


def voids() -> Deal:
    return start_play(build_deal(VOIDS, VOIDS_DOG, 3), GARDE_SANS)


def excuse_led() -> Deal:
    return play_cards(voids(), "EX")


def trumps() -> Deal:
    return start_play(build_deal(TRUMPS, TRUMPS_DOG, 3), GARDE_SANS)


def trump_led() -> Deal:
    return play_cards(trumps(), "T12")


def seeded(seed: int, cards: int) -> Callable[[], Deal]:
    """A seeded deal in Garde sans by the first bidder, ``cards`` cards into the play, each
    chosen by a fixed rule from the legal ones (mid-game voids and short hands)."""

    def make() -> Deal:
        deal = Deal.from_seed(seed, 0)
        deal.bid(Contract.GARDE_SANS)
        for _ in range(3):
            deal.bid(None)
        deal.announce_chelem(False)
        while len(deal.play_log) < cards:
            if deal.phase is Phase.POIGNEE:
                deal.declare_poignee([])
                continue
            legal = deal.legal_cards()
            deal.play(C.cards_of(legal)[len(deal.play_log) % legal.bit_count()])
        return deal

    return make


POSITIONS = {
    "voids": (voids, 5),
    "excuse_led": (excuse_led, 5),
    "trumps_excuse_second": (trumps, 6),
    "trump_led": (trump_led, 6),
    "seed1_mid": (seeded(1, 40), 8),
    "seed5_early": (seeded(5, 28), 7),
    "seed3_to_the_end": (seeded(3, 58), 14),
}


@pytest.mark.parametrize("name", list(POSITIONS))
def test_perft_engine_agrees_with_naive_generator(name: str) -> None:
    make, depth = POSITIONS[name]
    deal = make()
    assert deal.phase is Phase.PLAY
    for d in range(1, depth):
        assert engine_perft(deal, d) == naive_perft(naive_position(deal), d), d
    # At full depth, card by card, so a disagreement names the first card.
    assert engine_divide(deal, depth) == naive_divide(deal, depth)


@pytest.mark.parametrize("name", list(POSITIONS))
def test_perft_core_functions_agree_with_the_deal(name: str) -> None:
    make, depth = POSITIONS[name]
    deal = make()
    trick = deal.trick.copy()
    assert core_perft(list(deal.hands), trick, depth) == engine_perft(deal, depth)


# Counts written down once all three generators agreed.
KNOWN = {
    ("voids", 4): 3538,
    ("voids", 5): 60146,
    ("trumps_excuse_second", 5): 17544,
    ("trumps_excuse_second", 6): 60300,
    ("seed1_mid", 8): 17152,
    ("seed3_to_the_end", 14): 1872,
}


@pytest.mark.parametrize(("name", "depth"), list(KNOWN))
def test_perft_known_counts(name: str, depth: int) -> None:
    make, _ = POSITIONS[name]
    assert engine_perft(make(), depth) == KNOWN[name, depth]


def test_perft_one_ply_counts_follow_the_trumping_rules() -> None:
    # Seat 1, void in spades, must trump a spade lead with one of its six trumps; seat 2 must
    # then beat its partner's T19 (T20 or T21); after a trump lead seat 3, with no trump, may
    # play any of its 18 cards.
    assert engine_perft(play_cards(voids(), "S1"), 1) == 6
    assert engine_perft(play_cards(voids(), "S1 T19"), 1) == 2
    assert engine_perft(play_cards(voids(), "T2 T3 T4"), 1) == 18
