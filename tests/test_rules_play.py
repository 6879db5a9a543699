"""RULES.md §7: following, trumping, overtrumping, the Excuse, and who takes a trick."""

from __future__ import annotations

import pytest

from handbuilt import build_deal, mask, names, play_cards, start_play
from oudler.core import Deal, IllegalCardError, NotYourTurnError, Phase, WrongPhaseError
from oudler.core import cards as C
from oudler.core.tricks import LED_NONE, LED_TRUMP, TrickState, legal_mask, trick_winner

# Dealer 3, seat 0 leads (Garde sans by seat 0, so no discard). Seat 1 is void in spades,
# seat 2 in spades and hearts, seat 3 holds no trump.
HANDS = [
    "EX T2 T5 T9 T14 T18 S1 S2 S3 S4 S5 S6 H1 H2 H3 D1 D2 D3",
    "T1 T3 T6 T10 T15 T19 H4 H5 H6 H7 H8 D4 D5 D6 D7 C1 C2 C3",
    "T4 T7 T11 T16 T20 T21 D8 D9 D10 DJ DC C4 C5 C6 C7 C8 C9 C10",
    "S7 S8 S9 S10 SJ SC SQ SK H9 H10 HJ HC HQ HK DQ DK CJ CC",
]
DOG = "T8 T12 T13 T17 CQ CK"


def position() -> Deal:
    return start_play(build_deal(HANDS, DOG, 3), ["garde_sans", "pass", "pass", "pass"])


def legal(deal: Deal) -> str:
    return names(deal.legal_cards())


def test_leader_may_play_any_card() -> None:
    deal = position()
    assert deal.to_move == 0
    assert deal.legal_cards() == mask(HANDS[0])


def test_void_in_the_suit_led_you_must_trump() -> None:
    deal = play_cards(position(), "S1")
    assert legal(deal) == "T1 T3 T6 T10 T15 T19"  # any trump: none is down yet
    with pytest.raises(IllegalCardError, match="no spades, so you must play a trump"):
        deal.play(C.parse_card("H4"))


def test_overtrump_required_even_over_partner() -> None:
    # Seats 1 and 2 defend together; seat 2 must still beat its partner's T15.
    deal = play_cards(position(), "S1 T15")
    assert legal(deal) == "T16 T20 T21"
    with pytest.raises(IllegalCardError, match="you must overtrump: T16 beats T15"):
        deal.play(C.parse_card("T11"))


def test_holding_the_suit_led_you_must_follow_it_and_may_not_trump() -> None:
    deal = play_cards(position(), "S1 T15 T16")
    assert legal(deal) == "S7 S8 S9 S10 SJ SC SQ SK"  # seat 3 follows; trumps are down already
    deal = play_cards(position(), "H1")
    assert legal(deal) == "H4 H5 H6 H7 H8"
    with pytest.raises(IllegalCardError, match="you must follow hearts: you may not trump"):
        deal.play(C.parse_card("T19"))


def test_follow_suit_with_any_card_of_it_not_necessarily_higher() -> None:
    deal = start_play(build_deal(["HQ", "H2 HK"], dealer=3), ["garde_sans", "pass", "pass", "pass"])
    play_cards(deal, "HQ")
    allowed = legal(deal).split()
    assert {"H2", "HK"} <= set(allowed)  # H2 under the Queen is as legal as the King
    assert all(c.startswith("H") for c in allowed)


def test_undertrump_when_no_trump_of_yours_beats_the_highest() -> None:
    deal = play_cards(position(), "S1 T15 T21 S7")  # seat 2 takes and leads
    assert deal.to_move == 2
    play_cards(deal, "T20")  # trumps led; seat 3 has none
    assert legal(deal) == names(mask(HANDS[3]) & ~mask("S7"))  # no trump at all: any card
    play_cards(deal, "SK")
    # Seat 0 cannot beat T20: any trump, or the Excuse, but no suit card.
    assert legal(deal) == "T2 T5 T9 T14 T18 EX"
    with pytest.raises(IllegalCardError, match="trumps were led: you must play a trump"):
        deal.play(C.parse_card("S2"))


def test_trump_lead_requires_a_higher_trump_when_you_have_one() -> None:
    deal = play_cards(position(), "T9")
    assert legal(deal) == "T10 T15 T19"
    play_cards(deal, "T10")
    assert legal(deal) == "T11 T16 T20 T21"


def test_void_with_trumps_must_trump_but_with_no_trump_may_play_any_card() -> None:
    deal = play_cards(position(), "S1 T15 T16 S7 D8 DQ D1 D4 CJ")  # seat 3 took with DQ, leads CJ
    assert deal.to_move == 0
    assert legal(deal) == "T2 T5 T9 T14 T18 EX"  # no club, trumps: a trump (or the Excuse)
    assert legal_mask(mask("EX H2 D3"), 0, -1) == mask("EX H2 D3")  # no spade, no trump: any
    assert legal_mask(mask("H2 D3"), 0, 5) == mask("H2 D3")


def test_the_excuse_may_always_be_played() -> None:
    deal = play_cards(position(), "S1 T15 T16 S7")
    # Seat 2 leads a diamond: seat 0 holds diamonds, yet may play the Excuse instead.
    play_cards(deal, "D8 DQ")
    assert legal(deal) == "EX D1 D2 D3"
    deal = play_cards(position(), "S1 T15 T16 S7 T20 SK")
    assert "EX" in legal(deal).split()  # trumps led, unable to overtrump: Excuse still allowed


def test_excuse_lead_the_second_card_sets_the_suit() -> None:
    deal = play_cards(position(), "EX")
    assert deal.trick.led == LED_NONE
    assert deal.legal_cards() == mask(HANDS[1])  # the second player may play anything
    play_cards(deal, "D4")
    assert legal(deal) == "D8 D9 D10 DJ DC"  # diamonds were set by the second card
    play_cards(deal, "D8")
    assert legal(deal) == "DQ DK"
    play_cards(deal, "DK")
    assert deal.tricks[-1].winner == 3  # the Excuse never wins


def test_excuse_lead_then_a_trump_means_trumps_were_led() -> None:
    deal = play_cards(position(), "EX T3")
    assert deal.trick.led == LED_TRUMP
    assert legal(deal) == "T4 T7 T11 T16 T20 T21"
    play_cards(deal, "T4")
    assert legal(deal) == names(mask(HANDS[3]))  # seat 3: no trump, any card
    play_cards(deal, "SK")
    assert deal.tricks[-1].winner == 2


def test_trick_goes_to_highest_trump_else_highest_card_of_the_suit_led() -> None:
    t = C.parse_cards("H5 HK T1 H9", allow_duplicates=True)
    assert trick_winner(0, t) == 2  # the Petit beats the King
    t = C.parse_cards("H5 SK DK H9", allow_duplicates=True)
    assert trick_winner(1, t) == 0  # seat 1+3: H9 beats H5; off-suit Kings never win
    t = C.parse_cards("EX S2 SK S1", allow_duplicates=True)
    assert trick_winner(3, t) == 1  # Excuse led by seat 3: SK by seat 1 wins
    t = C.parse_cards("T2 EX T1 C1", allow_duplicates=True)
    assert trick_winner(2, t) == 2  # the Excuse never wins; T2 beats T1


def test_winner_of_a_trick_leads_the_next() -> None:
    deal = play_cards(position(), "S1 T15 T16 S7")
    assert deal.tricks[0].winner == 2
    assert deal.to_move == 2 and deal.trick.leader == 2


def test_legal_mask_follows_rules_for_small_hands() -> None:
    hand = mask("T3 T12 EX H2 HK")
    assert legal_mask(hand, 1, -1) == mask("H2 HK EX")  # hearts led, no trump yet
    assert legal_mask(hand, 1, C.parse_card("T15")) == mask("H2 HK EX")  # still follow hearts
    assert legal_mask(hand, 0, C.parse_card("T10")) == mask("T12 EX")  # spades led: overtrump
    assert legal_mask(hand, 0, C.parse_card("T15")) == mask("T3 T12 EX")  # undertrump
    assert legal_mask(hand, LED_TRUMP, C.parse_card("T2")) == mask("T3 T12 EX")
    assert legal_mask(mask("EX H2 D3"), 0, 5) == mask("EX H2 D3")  # void, no trump: any card
    t = TrickState(0)
    t.add(C.EXCUSE)
    assert t.legal(hand) == hand


def test_an_illegal_card_raises_and_leaves_the_deal_unchanged() -> None:
    deal = play_cards(position(), "S1 T15")
    before = (list(deal.hands), list(deal.trick.cards), deal.to_move, list(deal.play_log))
    for bad in ("T11", "S2", "SK", "H4"):  # undertrump, then cards seat 2 does not hold
        with pytest.raises(IllegalCardError):
            deal.play(C.parse_card(bad))
        assert (list(deal.hands), list(deal.trick.cards), deal.to_move, list(deal.play_log)) == (
            before
        )
    with pytest.raises(IllegalCardError, match="there is no card number 78"):
        deal.play(78)


def test_a_card_out_of_turn_or_out_of_phase_is_rejected() -> None:
    deal = position()
    with pytest.raises(NotYourTurnError):
        deal.play(C.parse_card("T3"), seat=1)
    fresh = build_deal(HANDS, DOG, 3)
    assert fresh.phase is Phase.BIDDING
    with pytest.raises(WrongPhaseError):
        fresh.play(C.parse_card("S1"))
