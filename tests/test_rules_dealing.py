"""RULES.md §3: dealing, petit sec and void deals."""

from __future__ import annotations

import itertools

import pytest

from handbuilt import build_deal, mask, phase
from oudler.core import Contract, Deal, Phase, deal_cards
from oudler.core import cards as C
from oudler.core.deal import deal_pack

PACK = list(range(78))  # card i at position i: shows where every position of the pack goes


def test_deal_gives_18_cards_to_each_player_and_6_to_the_dog() -> None:
    for seed in range(50):
        hands, dog = deal_cards(seed, seed % 4)
        assert [h.bit_count() for h in hands] == [18] * 4
        assert dog.bit_count() == 6
        assert hands[0] | hands[1] | hands[2] | hands[3] | dog == C.ALL_CARDS


def test_dealing_is_three_at_a_time_starting_with_the_dealers_right() -> None:
    for dealer in range(4):
        hands, dog = deal_pack(PACK, [1, 5, 9, 13, 17, 21], dealer)
        pos = 0
        for packet in range(24):
            if packet in (1, 5, 9, 13, 17, 21):
                assert dog >> pos & 1
                pos += 1
            seat = (dealer + 1 + packet) % 4  # the dealer's right first, then counter-clockwise
            assert all(hands[seat] >> p & 1 for p in range(pos, pos + 3))
            pos += 3
        assert pos == 78


@pytest.mark.parametrize(
    "gaps", [[1, 2, 3, 4, 5, 6], [18, 19, 20, 21, 22, 23], [1, 4, 8, 12, 16, 23]]
)
def test_dog_cards_go_singly_between_packets_never_first_or_last_card(gaps: list[int]) -> None:
    hands, dog = deal_pack(PACK, gaps, dealer=2)
    positions = sorted(C.cards_of(dog))
    assert 0 not in positions and 77 not in positions
    # Single cards: no two dog cards are next to each other in the pack.
    assert all(b - a > 1 for a, b in itertools.pairwise(positions))
    assert hands[3] >> 0 & 1  # the first card goes to the dealer's right
    assert hands[2] >> 77 & 1  # the last card goes to the dealer


@pytest.mark.parametrize(
    "gaps", [[0, 1, 2, 3, 4, 5], [1, 2, 3, 4, 5, 24], [1, 1, 2, 3, 4, 5], [1, 2]]
)
def test_dog_must_take_six_distinct_gaps_between_packets(gaps: list[int]) -> None:
    with pytest.raises(ValueError):
        deal_pack(PACK, gaps, 0)


def test_same_seed_gives_the_same_deal_and_other_seeds_differ() -> None:
    assert deal_cards(1234, 3) == deal_cards(1234, 3)
    assert Deal.from_seed(99, 0).dealt == Deal.from_seed(99, 0).dealt
    assert len({tuple(deal_cards(s, 0)[0]) for s in range(20)}) == 20


def test_petit_sec_makes_the_deal_void_before_any_bid() -> None:
    deal = build_deal(["T1 S1 S2 S3 S4 S5 S6 S7 S8 S9 S10 SJ SC SQ SK H1 H2 H3"], dealer=3)
    assert deal.phase is Phase.DONE
    assert deal.void == "petit_sec"
    assert deal.petit_sec_seat == 0
    assert deal.bids == []
    assert deal.result is not None and deal.result.scores == (0, 0, 0, 0)


def test_petit_with_the_excuse_and_no_other_trump_is_not_petit_sec() -> None:
    deal = build_deal(["T1 EX S1 S2 S3 S4 S5 S6 S7 S8 S9 S10 SJ SC SQ SK H1 H2"], dealer=3)
    assert deal.phase is Phase.BIDDING
    assert deal.void is None


def test_petit_sec_hand_is_shown_to_everyone() -> None:
    hand = "T1 S1 S2 S3 S4 S5 S6 S7 S8 S9 S10 SJ SC SQ SK H1 H2 H3"
    deal = build_deal(["", "", hand], dealer=0)
    assert deal.void == "petit_sec"
    for seat in range(4):
        obs = deal.observation(seat)
        assert obs.petit_sec == (2, mask(hand))
        assert obs.to_dict()["petit_sec"] == {"seat": 2, "hand": hand.split()}


def test_all_four_pass_makes_the_deal_void() -> None:
    deal = Deal.from_seed(5, 0)
    assert deal.phase is Phase.BIDDING
    for _ in range(4):
        deal.bid(None)
    assert deal.void == "all_pass"
    assert phase(deal) is Phase.DONE
    assert deal.contract is None and deal.declarer is None
    assert deal.result is not None
    assert deal.result.to_dict()["scores"] == [0, 0, 0, 0]
    assert deal.result.to_dict()["points"] is None


def test_a_bid_ends_the_chance_of_an_all_pass_void() -> None:
    deal = Deal.from_seed(5, 0)
    for bid in (None, None, None, Contract.PRISE):
        deal.bid(bid)
    assert deal.void is None
    assert deal.declarer == 0  # the dealer spoke last and took
