"""RULES.md §6: the chelem announcement and poignées."""

from __future__ import annotations

import pytest

from handbuilt import build_deal, mask, phase, start_play, tricks_taken
from oudler.core import (
    Contract,
    Deal,
    IllegalChelemError,
    IllegalPoigneeError,
    NotYourTurnError,
    Phase,
    WrongPhaseError,
)
from oudler.core import cards as C
from oudler.core.deal import score_deal, score_formula

GARDE_SANS = ["garde_sans", "pass", "pass", "pass"]


def trumps(lo: int, hi: int) -> str:
    return " ".join(f"T{n}" for n in range(lo, hi + 1))


def to_poignee(deal: Deal, seat: int) -> Deal:
    """Play the lowest legal card for other seats (declining their poignées) until ``seat`` is
    asked about its poignée."""
    while not (deal.phase is Phase.POIGNEE and deal.to_move == seat):
        if deal.phase is Phase.POIGNEE:
            deal.declare_poignee([])
        else:
            deal.play(C.cards_of(deal.legal_cards())[0])
    return deal


# ------------------------------------------------------------------------------------ chelem


def test_only_the_declarer_answers_the_chelem_question() -> None:
    deal = build_deal([], dealer=0)
    for bid in ["pass", "garde_sans", "pass", "pass"]:
        deal.apply(bid)
    assert deal.phase is Phase.CHELEM and deal.to_move == 2
    for seat in (0, 1, 3):
        with pytest.raises(NotYourTurnError):
            deal.announce_chelem(True, seat=seat)
    with pytest.raises(IllegalChelemError):
        deal.announce_chelem("yes", seat=2)  # type: ignore[arg-type]
    assert deal.chelem is None and deal.phase is Phase.CHELEM


@pytest.mark.parametrize("dealer", range(4))
def test_chelem_announcer_leads_the_first_trick(dealer: int) -> None:
    deal = build_deal([], dealer=dealer)
    for bid in ["pass", "pass", "garde_contre", "pass"]:
        deal.apply(bid)
    declarer = (dealer + 3) % 4
    deal.announce_chelem(True)
    assert deal.chelem is True
    assert deal.to_move == declarer == deal.trick.leader


@pytest.mark.parametrize("dealer", range(4))
def test_without_announcement_the_dealers_right_leads(dealer: int) -> None:
    deal = build_deal([], dealer=dealer)
    for bid in ["pass", "pass", "garde_contre", "pass"]:
        deal.apply(bid)
    deal.announce_chelem(False)
    assert deal.to_move == (dealer + 1) % 4 == deal.trick.leader


def test_chelem_is_asked_after_the_discard_in_prise_and_garde() -> None:
    deal = build_deal([], dealer=3)
    for bid in ["garde", "pass", "pass", "pass"]:
        deal.apply(bid)
    assert deal.phase is Phase.DISCARD
    with pytest.raises(WrongPhaseError):
        deal.announce_chelem(True)
    allowed, _ = deal.discard_info()
    deal.discard_cards(C.cards_of(allowed)[:6])
    assert phase(deal) is Phase.CHELEM


# Chelem bonuses, from 18 tricks taken as given (RULES.md §9 C).
def chelem_result(taken_by: list[int], announced: bool) -> tuple[str | None, int]:
    low = mask("S1 S2 S3 S4 S5 S6")
    cards = [c for c in range(78) if not low >> c & 1]
    r = score_deal(
        Contract.GARDE,
        0,
        tricks_taken(cards, taken_by),
        discard=low,
        dog=low,
        chelem_announced=announced,
        poignees=[],
    )
    assert r.chelem_bonus is not None
    return r.chelem, r.chelem_bonus


def test_chelem_announced_and_made_is_worth_400() -> None:
    assert chelem_result([0] * 18, True) == ("declarer", 400)


def test_chelem_made_without_announcement_is_worth_200() -> None:
    assert chelem_result([0] * 18, False) == ("declarer", 200)


def test_chelem_announced_and_failed_costs_200_even_if_the_contract_is_won() -> None:
    chelem, bonus = chelem_result([0] * 17 + [1], True)
    assert (chelem, bonus) == (None, -200)


def test_defence_winning_every_trick_costs_the_declarer_200() -> None:
    assert chelem_result([1, 2, 3] * 6, False) == ("defence", -200)
    assert chelem_result([1, 2, 3] * 6, True) == ("defence", -400)  # and the failed announcement


# ------------------------------------------------------------------------------------ poignée


@pytest.mark.parametrize(
    ("held", "sizes"),
    [
        (trumps(1, 9), []),
        (trumps(1, 10), [10]),
        (trumps(2, 13), [10]),
        (trumps(1, 13), [10, 13]),
        (trumps(1, 15), [10, 13, 15]),
        (trumps(1, 9) + " EX", [10]),  # the Excuse stands in for the tenth trump
        (trumps(1, 14) + " EX", [10, 13, 15]),
    ],
)
def test_poignee_sizes_are_10_13_and_15_trumps(held: str, sizes: list[int]) -> None:
    deal = start_play(build_deal([held], dealer=3), GARDE_SANS)
    assert deal.poignee_sizes(0) == sizes
    assert (deal.phase is Phase.POIGNEE) == bool(sizes)


def test_poignee_shows_exactly_10_13_or_15_cards() -> None:
    deal = start_play(build_deal([trumps(1, 15)], dealer=3), GARDE_SANS)
    for n in (9, 11, 12, 14, 16):
        shown = C.parse_cards(trumps(1, 15))[:n] + ([C.EXCUSE] if n == 16 else [])
        with pytest.raises(IllegalPoigneeError):
            deal.declare_poignee(shown)
    assert deal.phase is Phase.POIGNEE and deal.poignees == {}
    for n in (10, 13, 15):
        assert deal.why_poignee_illegal(0, C.parse_cards(trumps(1, 15))[:n]) is None


def test_poignee_hides_the_extra_trumps_of_the_players_choice() -> None:
    deal = start_play(build_deal([trumps(1, 12)], dealer=3), GARDE_SANS)
    assert deal.why_poignee_illegal(0, C.parse_cards(trumps(1, 10))) is None
    assert deal.why_poignee_illegal(0, C.parse_cards(trumps(3, 12))) is None
    assert deal.why_poignee_illegal(0, C.parse_cards("T1 T2 T3 T4 T5 T6 T7 T8 T11 T12")) is None


def test_a_smaller_poignee_than_possible_may_be_shown() -> None:
    deal = start_play(build_deal([trumps(1, 15)], dealer=3), GARDE_SANS)
    deal.declare_poignee(C.parse_cards(trumps(6, 15)))
    assert deal.poignees == {0: mask(trumps(6, 15))}


def test_poignee_excuse_only_if_no_trump_is_hidden() -> None:
    deal = start_play(build_deal([trumps(1, 10) + " EX"], dealer=3), GARDE_SANS)
    with pytest.raises(IllegalPoigneeError, match="the Excuse may be shown only if you hide no"):
        deal.declare_poignee(C.parse_cards(trumps(1, 9) + " EX"))
    deal = start_play(build_deal([trumps(1, 9) + " EX"], dealer=3), GARDE_SANS)
    deal.declare_poignee(C.parse_cards(trumps(1, 9) + " EX"))
    assert deal.poignees == {0: mask(trumps(1, 9) + " EX")}
    deal = start_play(build_deal([trumps(1, 12) + " EX"], dealer=3), GARDE_SANS)
    assert deal.why_poignee_illegal(0, C.parse_cards(trumps(1, 12) + " EX")) is None  # double


def test_poignee_shows_only_trumps_the_player_holds() -> None:
    deal = start_play(build_deal([trumps(1, 10) + " SK"], dealer=3), GARDE_SANS)
    with pytest.raises(IllegalPoigneeError, match="only trumps"):
        deal.declare_poignee(C.parse_cards(trumps(1, 9) + " SK"))
    with pytest.raises(IllegalPoigneeError, match="do not hold"):
        deal.declare_poignee(C.parse_cards(trumps(1, 9) + " T21"))


def test_forced_discard_trumps_count_for_the_declarers_poignee() -> None:
    hand = "T1 T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 T12 T13 EX SK HK S1 S2"
    deal = build_deal([hand], "DK CK T14 T15 H1 H2", dealer=3)
    start_play(deal, ["prise", "pass", "pass", "pass"], discard="T2 T3 S1 S2 H1 H2")
    assert deal.phase is Phase.POIGNEE and deal.to_move == 0
    assert deal.hands[0] & mask("T2 T3") == 0
    assert deal.poignee_cards(0) == mask(trumps(1, 15) + " EX")
    assert deal.poignee_sizes(0) == [10, 13, 15]
    deal.declare_poignee(C.parse_cards(trumps(1, 15)))  # the two forced trumps included
    assert deal.poignees[0] == mask(trumps(1, 15))


def test_poignee_only_just_before_the_seats_first_card() -> None:
    deal = start_play(build_deal(["", trumps(1, 11)], dealer=3), GARDE_SANS)
    assert deal.phase is Phase.PLAY and deal.to_move == 0
    with pytest.raises(WrongPhaseError):
        deal.declare_poignee(C.parse_cards(trumps(1, 10)), seat=1)
    to_poignee(deal, 1)
    with pytest.raises(WrongPhaseError, match="first say whether you show a poignée"):
        deal.play(C.cards_of(deal.hands[1])[0])
    deal.declare_poignee([])  # declined: never asked again
    asked: list[tuple[int, int]] = []
    while phase(deal) is not Phase.DONE:
        if phase(deal) is Phase.POIGNEE:  # seat 3 holds the other trumps and the Excuse
            asked.append((deal.to_move, len(deal.tricks)))
            deal.declare_poignee([])
        deal.play(C.cards_of(deal.legal_cards())[0])
    assert asked == [(3, 0)]
    assert deal.poignees == {}


def test_poignee_cards_are_shown_to_everyone() -> None:
    deal = start_play(build_deal(["", trumps(1, 11)], dealer=3), GARDE_SANS)
    to_poignee(deal, 1)
    deal.declare_poignee(C.parse_cards(trumps(2, 11)))
    for seat in range(4):
        obs = deal.observation(seat)
        assert obs.poignees == {1: mask(trumps(2, 11))}
        assert obs.to_dict()["poignees"] == {"1": trumps(2, 11).split()}


def test_poignee_bonus_goes_to_the_side_that_wins_and_is_not_multiplied() -> None:
    # The same shown poignée adds 20 to the winner, whoever showed it, at any multiplier.
    for m in (1, 2, 4, 6):
        assert (
            score_formula(won=True, diff=0, multiplier=m, pab=0, poignee_bonus=20, chelem_bonus=0)
            == 25 * m + 20
        )
        assert (
            score_formula(won=False, diff=0, multiplier=m, pab=0, poignee_bonus=20, chelem_bonus=0)
            == -25 * m - 20
        )
    cards = [c for c in range(78) if c not in C.cards_of(mask("S1 S2 S3 S4 S5 S6"))]
    single, double, triple = mask(trumps(1, 10)), mask(trumps(1, 13)), mask(trumps(1, 15))
    two_singles = [single, mask(trumps(11, 20))]
    for shown, bonus in (([single], 20), ([double], 30), ([triple], 40), (two_singles, 40)):
        r = score_deal(
            Contract.GARDE_SANS,
            0,
            tricks_taken(cards, [0] * 9 + [1] * 9),
            discard=0,
            dog=mask("S1 S2 S3 S4 S5 S6"),
            chelem_announced=False,
            poignees=shown,
        )
        assert r.poignee_bonus == bonus


def test_poignee_naming_no_card_is_refused_with_a_reason() -> None:
    deal = start_play(build_deal([trumps(1, 11)], dealer=3), GARDE_SANS)
    for bad in (78, -3):
        with pytest.raises(IllegalPoigneeError, match="there is no card"):
            deal.declare_poignee([bad, *C.parse_cards(trumps(1, 9))])
    assert deal.phase is Phase.POIGNEE and deal.poignees == {}


def test_poignee_excuse_rule_looks_at_trumps_held_not_at_forced_discard_trumps() -> None:
    # 19 trumps, the Excuse and four Kings: six trumps are forced into the discard and shown.
    hand = "SK HK DK CK EX " + trumps(1, 13)
    deal = build_deal([hand], trumps(14, 19), dealer=3)
    start_play(deal, ["prise", "pass", "pass", "pass"], discard=trumps(14, 19))
    assert deal.poignee_sizes(0) == [10, 13, 15]
    # Every trump in hand, the Excuse and one forced trump: nothing hidden the table can't see.
    assert deal.why_poignee_illegal(0, C.parse_cards(trumps(1, 14) + " EX")) is None
    # The Excuse while a trump in hand stays hidden: refused.
    with pytest.raises(IllegalPoigneeError, match="the Excuse may be shown only if you hide no"):
        deal.declare_poignee(C.parse_cards(trumps(1, 12) + " T14 T15 EX"))
