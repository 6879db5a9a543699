"""RULES.md §1: the cards, their order and values, and the notation of spec/notation.md."""

from __future__ import annotations

import itertools

import pytest

from handbuilt import mask
from oudler.core import NotationError, format_cards, parse_card, parse_cards
from oudler.core import cards as C
from oudler.core.tricks import trick_winner


def test_pack_has_four_suits_of_14_cards_21_trumps_and_the_excuse() -> None:
    names = list(C.CARD_NAMES)
    assert len(names) == len(set(names)) == 78
    for suit in "SHDC":
        assert sum(1 for n in names if n[0] == suit) == 14
    assert sum(1 for n in names if n[0] == "T") == 21
    assert "EX" in names


def test_card_values_total_91_points() -> None:
    assert C.half_points(C.ALL_CARDS) == 182


@pytest.mark.parametrize(
    ("card", "half_points"),
    [
        ("T1", 9), ("T21", 9), ("EX", 9),  # oudlers 4.5
        ("SK", 9), ("HQ", 7), ("DC", 5), ("CJ", 3),  # King 4.5, Queen 3.5, Cavalier 2.5, Jack 1.5
        ("S10", 1), ("H1", 1), ("T2", 1), ("T20", 1),  # every other card 0.5
    ],
)  # fmt: skip
def test_card_values_oudler_and_king_4_5_queen_3_5_cavalier_2_5_jack_1_5_others_0_5(
    card: str, half_points: int
) -> None:
    assert C.HALF_POINTS[parse_card(card)] == half_points
    assert C.half_points(mask(card)) == half_points


def test_oudlers_are_the_petit_the_21_and_the_excuse() -> None:
    assert mask("T1 T21 EX") == C.OUDLERS


def test_suit_ranks_king_queen_cavalier_jack_then_10_down_to_1() -> None:
    order = ["H1", "H2", "H3", "H4", "H5", "H6", "H7", "H8", "H9", "H10", "HJ", "HC", "HQ", "HK"]
    for low, high in itertools.pairwise(order):
        # The higher card of the suit led wins, whichever seat plays it.
        assert trick_winner(0, [parse_card(low), parse_card(high)]) == 1
        assert trick_winner(0, [parse_card(high), parse_card(low)]) == 0


def test_trump_21_is_highest_and_every_trump_beats_every_suit_card() -> None:
    assert trick_winner(0, [parse_card("T20"), parse_card("T21")]) == 1
    assert trick_winner(0, [parse_card("T2"), parse_card("T1")]) == 0
    # The Petit, the lowest trump, still beats the King of the suit led.
    assert trick_winner(0, [parse_card("SK"), parse_card("T1")]) == 1


def test_notation_reads_any_case_and_spaces_and_writes_canonical() -> None:
    assert parse_card(" t21 ") == parse_card("T21")
    assert parse_card("ex") == C.EXCUSE
    assert parse_card("cc") == C.suit_card(3, 12)  # cavalier of clubs
    assert parse_card("Ck") == C.suit_card(3, 14)  # king of clubs
    assert format_cards(parse_cards(["ck", "t3", "Ex", "h10", "s1"])) == [
        "T3",
        "EX",
        "S1",
        "H10",
        "CK",
    ]


def test_canonical_order_is_trumps_ascending_excuse_then_s_h_d_c_ascending() -> None:
    written = format_cards(C.ALL_CARDS)
    assert written[:22] == [f"T{n}" for n in range(1, 22)] + ["EX"]
    ranks = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "C", "Q", "K"]
    assert written[22:] == [s + r for s in "SHDC" for r in ranks]


@pytest.mark.parametrize("text", ["T0", "T22", "S11", "SX", "", "EXX", "H 1"])
def test_unknown_card_is_a_notation_error(text: str) -> None:
    with pytest.raises(NotationError):
        parse_card(text)


def test_a_card_named_twice_in_a_set_is_a_notation_error() -> None:
    with pytest.raises(NotationError, match="twice"):
        parse_cards(["T1", "t1"])
