"""RULES.md §7-§9 on the Excuse: exchange, pending, never exchanged, last trick, chelem."""

from __future__ import annotations

from handbuilt import deal_from_tricks, mask, play_tricks, start_play, tricks_taken
from oudler.core import Contract, DealResult
from oudler.core import cards as C
from oudler.core.deal import score_deal, settle_points

# ----------------------------------------------------------------- counting, from given tricks
# Garde sans by seat 0; the dog (six low spades, 3 points) counts for him. The Excuse is put
# into trick ``at`` as the card of ``owner``; every other card keeps a fixed place.

DOG = mask("S1 S2 S3 S4 S5 S6")
OTHERS = [c for c in range(78) if not DOG >> c & 1 and c != C.EXCUSE]


def with_excuse(taken_by: list[int], at: int, owner: int) -> tuple[DealResult, int, int]:
    """Score the deal; also return the declarer's pile without the Excuse: its half points and
    its oudlers (the Petit and the 21)."""
    leaders = [0, *taken_by[:-1]]
    pos = 4 * at + (owner - leaders[at]) % 4
    cards = [*OTHERS[:pos], C.EXCUSE, *OTHERS[pos:]]
    tricks = tricks_taken(cards, taken_by)
    assert tricks[at].card_of(owner) == C.EXCUSE
    won = 0
    for t in tricks:
        if t.winner == 0:
            won |= C.mask_of(t.cards)
    result = score_deal(
        Contract.GARDE_SANS, 0, tricks, discard=0, dog=DOG, chelem_announced=False, poignees=[]
    )
    pile = (won | DOG) & ~C.EXCUSE_BIT
    return result, C.half_points(pile), (pile & C.OUDLERS).bit_count()


HALF = [0, 1] * 9  # each side takes nine tricks


def test_excuse_goes_back_to_its_owner_who_gives_a_half_point_card() -> None:
    # The declarer's Excuse falls in a trick the defence takes: he keeps 4.5 - 0.5 = 4.
    result, base, oudlers = with_excuse(HALF, at=1, owner=0)
    assert result.excuse_exchange == "exchanged"
    assert result.half_points == base + 9 - 1
    assert result.oudlers == oudlers + 1  # the Excuse counts as the declarer's oudler
    # A defender's Excuse in a trick the declarer takes: the declarer gets only a 0.5 card.
    result, base, oudlers = with_excuse(HALF, at=0, owner=2)
    assert result.excuse_exchange == "exchanged"
    assert result.half_points == base + 1
    assert result.oudlers == oudlers
    assert result.oudlers == oudlers


def test_excuse_in_a_trick_its_own_side_takes_stays_there() -> None:
    result, base, oudlers = with_excuse(HALF, at=0, owner=0)
    assert (result.excuse_exchange, result.half_points) == ("same_side", base + 9)
    result, base, oudlers = with_excuse(HALF, at=1, owner=3)
    assert (result.excuse_exchange, result.half_points) == ("same_side", base)
    assert result.oudlers == oudlers


def test_excuse_exchanged_late_when_its_side_wins_a_trick_only_afterwards() -> None:
    # The defence's Excuse is taken in trick 1; the defence wins only the 17th trick.
    taken = [0] * 16 + [1, 0]
    result, base, oudlers = with_excuse(taken, at=0, owner=1)
    assert result.excuse_exchange == "exchanged"
    assert result.half_points == base + 1
    assert result.oudlers == oudlers


def test_excuse_never_exchanged_counts_4_for_its_owner_declarer() -> None:
    # The declarer wins no trick at all: his Excuse stays his, worth 4, and he gives nothing.
    result, base, oudlers = with_excuse([1, 2, 3] * 6, at=0, owner=0)
    assert result.excuse_exchange == "never"
    assert result.half_points == base + 8
    assert result.oudlers == oudlers + 1
    assert result.chelem == "defence"


def test_excuse_never_exchanged_counts_4_for_its_owner_defence() -> None:
    # Declarer takes every trick; a defender's Excuse played before the last trick stays with
    # the defence: the declarer has 91 - 4.5 = 86.5 and the half point goes to the winner.
    result, base, oudlers = with_excuse([0] * 18, at=3, owner=2)
    assert result.excuse_exchange == "never"
    assert result.half_points == base == 182 - 9
    assert result.oudlers == oudlers == 2
    assert result.points == 87 and result.won
    assert result.chelem == "declarer"


def test_half_point_goes_to_the_winning_side_40_5_with_2_oudlers_loses_by_1() -> None:
    assert settle_points(81, 2) == (40, 41, False, 1)


def test_half_point_goes_to_the_winning_side_41_5_with_2_oudlers_wins_by_1() -> None:
    assert settle_points(83, 2) == (42, 41, True, 1)


def test_whole_points_exactly_needed_win_by_0() -> None:
    assert settle_points(82, 2) == (41, 41, True, 0)
    assert settle_points(80, 2) == (40, 41, False, 1)
    assert settle_points(2 * 36, 3) == (36, 36, True, 0)
    assert settle_points(2 * 56, 0) == (56, 56, True, 0)


def test_excuse_in_the_last_trick_goes_to_the_side_that_wins_it() -> None:
    # The declarer's Excuse in a last trick the defence takes: lost, no exchange.
    result, base, oudlers = with_excuse(HALF, at=17, owner=0)
    assert (result.excuse_exchange, result.half_points) == ("last_trick", base)
    assert result.oudlers == oudlers
    # A defender's Excuse in a last trick the declarer takes: the declarer keeps it.
    taken = [1, 0] * 9
    result, base, oudlers = with_excuse(taken, at=17, owner=3)
    assert (result.excuse_exchange, result.half_points) == ("last_trick", base + 9)
    assert result.oudlers == oudlers + 1


def test_defenders_excuse_in_a_last_trick_won_by_his_partner_stays_with_the_defence() -> None:
    taken = [0] * 17 + [2]
    result, base, oudlers = with_excuse(taken, at=17, owner=1)
    assert result.excuse_exchange == "last_trick"
    assert result.half_points == base
    assert result.oudlers == oudlers


# ----------------------------------------------------------------- the Excuse in a real deal
# Dealer 0, Garde by seat 2 (chelem announced, so seat 2 leads). Seat 2 holds T1, T13-T21, the
# Excuse and the seven top spades; he draws trumps, runs spades and trumps, plays the Petit in
# trick 17 and leads the Excuse to the last trick. Tricks are written in play order.
DOG_SHOWN = "H1 H2 H3 D1 D2 D3"
GARDE_BY_2 = ["pass", "garde", "pass", "pass"]
CHELEM = [
    "T21 T2 T6 T10", "T20 T3 T7 T11", "T19 T4 T8 T12", "T18 T5 T9 C2",
    "SK S1 S4 S6", "SQ S2 S5 S7", "SC S3 D4 C3", "SJ H4 D5 C4", "S10 H5 D6 C5", "S9 H6 D7 C6",
    "S8 H7 D8 C7", "T17 H8 D9 C8", "T16 H9 D10 C9", "T15 H10 DJ C10", "T14 HJ DC CJ",
    "T13 HC DQ CC", "T1 HQ DK CQ", "EX HK C1 CK",
]  # fmt: skip
# The same, but the King of spades is seat 3's: the declarer loses trick 5, then ruffs back.
LOST_ONE = [
    "T21 T2 T6 T10", "T20 T3 T7 T11", "T19 T4 T8 T12", "T18 T5 T9 C2",
    "S1 SK S4 S6", "H4 D4 C3 T17", "SQ S2 S5 S7", "SC S3 D5 C4", "SJ H5 D6 C5", "S10 H6 D7 C6",
    "S9 H7 D8 C7", "S8 H8 D9 C8", "T16 H9 D10 C9", "T15 H10 DJ C10", "T14 HJ DC CJ",
    "T13 HC DQ CC", "T1 HQ DK CQ", "EX HK C1 CK",
]  # fmt: skip


def played(tricks: list[str]) -> DealResult:
    deal = deal_from_tricks(tricks, DOG_SHOWN, dealer=0, first_leader=2)
    start_play(deal, GARDE_BY_2, discard=DOG_SHOWN, chelem=True)
    play_tricks(deal, tricks)
    assert deal.result is not None
    return deal.result


def test_chelem_excuse_led_to_the_last_trick_wins_it() -> None:
    deal = deal_from_tricks(CHELEM, DOG_SHOWN, dealer=0, first_leader=2)
    start_play(deal, GARDE_BY_2, discard=DOG_SHOWN, chelem=True)
    play_tricks(deal, CHELEM)
    # By the ordinary rule seat 3's HK would take the last trick; the Excuse takes it instead.
    assert deal.tricks[-1].winner == 2
    assert all(t.winner == 2 for t in deal.tricks)
    r = deal.result
    assert r is not None
    assert (r.chelem, r.points, r.oudlers, r.excuse_exchange) == ("declarer", 91, 3, "last_trick")


def test_chelem_petit_played_in_trick_17_counts_as_au_bout() -> None:
    r = played(CHELEM)
    assert r.petit_au_bout == "declarer"
    # Garde, 91 with 3 oudlers: (25 + 55) x 2, petit au bout 10 x 2, announced chelem 400.
    assert r.per_defender == 160 + 20 + 400
    assert r.scores == (-580, -580, 1740, -580)


def test_excuse_led_to_the_last_trick_without_a_chelem_loses_it() -> None:
    r = played(LOST_ONE)
    assert r.chelem is None
    assert r.excuse_exchange == "last_trick"
    assert r.oudlers == 2  # the Excuse went to the defence with the last trick
    assert r.petit_au_bout is None  # the Petit of trick 17 is not au bout without a chelem
    assert r.points == 91 - 6 - 14  # trick 5 (S1 SK S4 S6) and trick 18 (EX HK C1 CK) lost
    assert r.chelem_bonus == -200  # announced and failed, though the contract is won
    assert r.per_defender == (25 + 30) * 2 - 200


def test_excuse_pending_while_its_side_has_won_no_trick_is_public() -> None:
    # FFT example 1's deal: seat 3's Excuse falls in trick 4, taken by the declarer, before the
    # defence has won a trick; the defence wins trick 5 and then gives the half-point card.
    deal = deal_from_tricks(FFT1, "S9 D1 D2 D3 D4 D5", dealer=3, first_leader=0)
    start_play(deal, ["garde", "pass", "pass", "pass"], discard="S9 D1 D2 D3 D4 D5")
    play_tricks(deal, FFT1[:3], poignees={0: FFT1_POIGNEE})
    assert not deal.excuse_pending()
    play_tricks(deal, FFT1[3:4])
    assert deal.excuse_pending()
    assert all(deal.observation(s).excuse_pending for s in range(4))
    assert all(deal.observation(s).to_dict()["excuse_pending"] for s in range(4))
    play_tricks(deal, FFT1[4:5])
    assert not deal.excuse_pending()


FFT1 = [
    "T21 T2 T6 T10", "T20 T3 T7 T11", "T19 T4 T8 T12", "T18 T5 T9 EX",
    "S1 S10 HJ CJ", "H1 H6 DQ T13", "S2 SJ H8 CC", "H2 H7 C1 T14", "S3 SC DJ CQ", "H3 HC C2 T15",
    "S4 SQ DC CK", "H4 HQ C3 T16", "S5 SK DK C5", "H5 HK C4 T17",
    "S6 D6 H9 C6", "S7 D7 H10 C7", "S8 D8 D10 C8", "T1 D9 C9 C10",
]  # fmt: skip
FFT1_POIGNEE = "T1 T13 T14 T15 T16 T17 T18 T19 T20 T21"
