"""RULES.md §5: the dog, the discard and its forced trumps."""

from __future__ import annotations

import pytest

from handbuilt import build_deal, mask, start_play, tricks_taken
from oudler.core import Contract, Deal, IllegalDiscardError, Phase
from oudler.core import cards as C
from oudler.core.deal import discard_rule, score_deal

PRISE = ["prise", "pass", "pass", "pass"]

# Declarer (seat 0, dealer 3) hands and dogs whose 24 cards hold n non-King suit cards.
CASES = {
    # n = 8: Kings are never counted, the rest is plain.
    8: ("T1 T2 T3 T4 T5 T10 T11 EX SK HK S1 S2 S3 S4 S5 H5 H6 H7", "DK CK T6 T7 T8 T9"),
    6: ("T1 T2 T3 T4 T5 T6 T7 EX SK HK S1 S2 S3 S4 DK CK T10 T11", "H1 H2 T8 T9 T12 T13"),
    4: ("T1 T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 T12 T13 EX SK HK S1 S2", "DK CK T14 T15 H1 H2"),
    1: ("T1 T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 T12 T13 T16 EX SK HK S1", "DK CK T14 T15 T17 T18"),
    0: ("T1 T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 T12 T13 T14 T15 T16 T17 EX", "SK HK DK CK T18 T19"),
}


def taken(n: int, contract: str = "prise") -> Deal:
    hand, dog = CASES[n]
    deal = build_deal([hand], dog, dealer=3)
    for bid in [contract, "pass", "pass", "pass"]:
        deal.apply(bid)
    assert deal.phase is Phase.DISCARD
    return deal


@pytest.mark.parametrize("contract", ["prise", "garde"])
def test_prise_and_garde_dog_is_shown_to_everyone_and_taken_by_the_declarer(contract: str) -> None:
    deal = taken(4, contract)
    dog = mask(CASES[4][1])
    assert deal.hands[0].bit_count() == 24 and deal.hands[0] & dog == dog
    for seat in range(4):
        assert deal.observation(seat).dog == dog


@pytest.mark.parametrize(("n", "forced"), [(8, 0), (6, 0), (4, 2), (1, 5), (0, 6)])
def test_discard_holds_exactly_max0_6_minus_n_trumps(n: int, forced: int) -> None:
    deal = taken(n)
    allowed, must = deal.discard_info()
    assert must == forced == max(0, 6 - n)
    trumps = C.cards_of(allowed & C.TRUMPS)
    plain = C.cards_of(allowed & C.SUIT_CARDS)
    assert len(plain) == n
    for k in range(7):
        if k > len(trumps) or 6 - k > len(plain):
            continue
        choice = trumps[:k] + plain[: 6 - k]
        reason = deal.why_discard_illegal(choice)
        assert (reason is None) == (k == forced), (k, reason)


def test_with_six_other_cards_no_trump_may_be_discarded() -> None:
    deal = taken(6)
    with pytest.raises(IllegalDiscardError, match="only when there are not six other cards"):
        deal.discard_cards(C.parse_cards("T2 S1 S2 S3 S4 H1"))
    assert deal.phase is Phase.DISCARD and deal.hands[0].bit_count() == 24


def test_forced_discard_takes_every_discardable_suit_card_first() -> None:
    deal = taken(4)  # plain cards: S1 S2 H1 H2; two trumps are forced
    with pytest.raises(IllegalDiscardError, match="only 2 trump"):
        deal.discard_cards(C.parse_cards("T2 T3 T4 S1 S2 H1"))
    deal.discard_cards(C.parse_cards("T2 T3 S1 S2 H1 H2"))
    assert deal.discard == mask("T2 T3 S1 S2 H1 H2")


@pytest.mark.parametrize(
    ("card", "word"), [("SK", "King"), ("DK", "King"), ("T1", "oudler"), ("EX", "oudler")]
)
def test_discard_may_hold_no_king_and_no_oudler_ever(card: str, word: str) -> None:
    for n in (6, 0):  # neither with plain cards to spare nor when trumps are forced
        deal = taken(n)
        allowed, _ = deal.discard_info()
        assert not allowed >> C.parse_card(card) & 1
        fill = [c for c in C.cards_of(allowed) if c != C.parse_card(card)][:5]
        with pytest.raises(IllegalDiscardError, match=word):
            deal.discard_cards([C.parse_card(card), *fill])


def test_discard_rule_never_allows_kings_or_oudlers_and_forces_trumps_only_when_short() -> None:
    for seed in range(300):
        hands, dog = Deal.from_seed(seed, 0).dealt, Deal.from_seed(seed, 0).dog
        hand = hands[seed % 4] | dog
        allowed, forced = discard_rule(hand)
        plain = hand & C.SUIT_CARDS & ~C.KINGS
        assert allowed & (C.KINGS | C.OUDLERS) == 0
        assert forced == max(0, 6 - plain.bit_count())
        assert (allowed & C.TRUMPS != 0) == (forced > 0)


def test_discard_is_six_cards_the_declarer_holds() -> None:
    deal = taken(6)
    with pytest.raises(IllegalDiscardError, match="exactly 6"):
        deal.discard_cards(C.parse_cards("S1 S2 S3 S4 H1"))
    with pytest.raises(IllegalDiscardError, match="do not hold"):
        deal.discard_cards(C.parse_cards("S1 S2 S3 S4 H1 C5"))
    with pytest.raises(IllegalDiscardError, match="twice"):
        deal.discard_cards(C.parse_cards("S1 S1 S2 S3 S4 H1", allow_duplicates=True))
    assert deal.phase is Phase.DISCARD


def test_trumps_forced_into_the_discard_are_shown_to_everyone() -> None:
    deal = taken(4)
    deal.discard_cards(C.parse_cards("T2 T3 S1 S2 H1 H2"))
    for seat in range(4):
        obs = deal.observation(seat)
        assert obs.discard_trumps == mask("T2 T3")
        assert obs.to_dict()["discard_trumps"] == ["T2", "T3"]
    # The rest of the discard is seen by the declarer only.
    assert deal.observation(0).own_discard == mask("T2 T3 S1 S2 H1 H2")
    for seat in (1, 2, 3):
        assert deal.observation(seat).own_discard is None


@pytest.mark.parametrize("contract", ["garde_sans", "garde_contre"])
def test_garde_sans_and_garde_contre_dog_stays_unseen(contract: str) -> None:
    deal = start_play(build_deal([CASES[6][0]], CASES[6][1], 3), [contract, "pass", "pass", "pass"])
    assert deal.hands[0].bit_count() == 18
    for seat in range(4):
        obs = deal.observation(seat)
        assert obs.dog is None
        assert obs.to_dict()["dog"] is None


# The same 18 tricks, the declarer (seat 0) taking the first nine: only the dog's owner differs.
DOG = mask("T21 EX T1 SK HK DK")
TRICK_CARDS = [c for c in range(78) if not DOG >> c & 1]
TAKEN = [0] * 9 + [1] * 9


def scored(contract: Contract, discard: int = 0) -> tuple[int, int]:
    r = score_deal(
        contract,
        0,
        tricks_taken(TRICK_CARDS, TAKEN),
        discard=discard,
        dog=DOG,
        chelem_announced=False,
        poignees=[],
    )
    assert r.half_points is not None and r.oudlers is not None
    return r.half_points, r.oudlers


@pytest.mark.parametrize("discard", ["S1 S2 S3 S4 S5 S6", "SQ HQ DQ CQ S1 S2"])
def test_discard_counts_for_the_declarer(discard: str) -> None:
    # The dog went into the declarer's hand; the discard left it: 72 cards are played.
    cards = [c for c in range(78) if not mask(discard) >> c & 1 and c != C.EXCUSE]
    cards = [*cards[:40], C.EXCUSE, *cards[40:]]  # the Excuse in a defence trick, kept there
    half = score_deal(
        Contract.GARDE,
        0,
        tricks_taken(cards, TAKEN),
        discard=mask(discard),
        dog=DOG,
        chelem_announced=False,
        poignees=[],
    ).half_points
    assert half == C.half_points(C.mask_of(cards[:36]) | mask(discard))


def test_garde_sans_dog_counts_for_the_declarer_oudlers_included() -> None:
    half, oudlers = scored(Contract.GARDE_SANS)
    pile = C.mask_of(TRICK_CARDS[:36])
    assert half == C.half_points(pile | DOG)
    assert oudlers == 3  # T21, Excuse and Petit lie in the dog


def test_garde_contre_dog_counts_for_the_defence() -> None:
    half, oudlers = scored(Contract.GARDE_CONTRE)
    assert half == C.half_points(C.mask_of(TRICK_CARDS[:36]))
    assert oudlers == 0


@pytest.mark.parametrize("bad", [78, 100, -1, True, "S1"])
def test_discard_naming_no_card_is_refused_with_a_reason(bad: object) -> None:
    deal = taken(6)
    with pytest.raises(IllegalDiscardError, match="there is no card"):
        deal.discard_cards([bad, *C.parse_cards("S1 S2 S3 S4 H1")])  # type: ignore[list-item]
    assert deal.phase is Phase.DISCARD and deal.hands[0].bit_count() == 24
