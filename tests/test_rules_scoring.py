"""RULES.md §9: counting and scoring, with the five FFT worked examples."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from handbuilt import deal_from_tricks, mask, play_tricks, start_play, tricks_taken
from oudler.core import Contract, DealResult
from oudler.core.deal import POINTS_NEEDED, score_deal, score_formula, settle_points


def test_points_needed_by_oudlers_0_56_1_51_2_41_3_36() -> None:
    assert POINTS_NEEDED == (56, 51, 41, 36)
    for oudlers, needed in enumerate(POINTS_NEEDED):
        assert settle_points(2 * needed, oudlers)[1:] == (needed, True, 0)
        assert settle_points(2 * needed - 2, oudlers)[1:] == (needed, False, 1)


@pytest.mark.parametrize(
    ("example", "kwargs", "d"),
    [
        ("Garde, 49 with 2 oudlers, declarer poignée, declarer petit au bout",
         dict(won=True, diff=8, multiplier=2, pab=1, poignee_bonus=20, chelem_bonus=0), 106),
        ("Garde sans won by 4, defence petit au bout",
         dict(won=True, diff=4, multiplier=4, pab=-1, poignee_bonus=0, chelem_bonus=0), 76),
        ("Prise lost by 7, declarer poignée, declarer petit au bout",
         dict(won=False, diff=7, multiplier=1, pab=1, poignee_bonus=20, chelem_bonus=0), -42),
        ("Garde won by 11, a defender showed a poignée",
         dict(won=True, diff=11, multiplier=2, pab=0, poignee_bonus=20, chelem_bonus=0), 92),
        ("Garde, chelem announced and made, poignée, petit au bout, 87 with 2 oudlers",
         dict(won=True, diff=46, multiplier=2, pab=1, poignee_bonus=20, chelem_bonus=400), 582),
    ],
)  # fmt: skip
def test_fft_worked_examples_by_the_formula(example: str, kwargs: dict[str, int], d: int) -> None:
    assert score_formula(**kwargs) == d, example  # type: ignore[arg-type]


# ----------------------------------------------------------------- the examples as full deals
# Each deal is written trick by trick in play order; the hands are exactly the cards each seat
# plays (handbuilt.deal_from_tricks) and every card is also checked by the naive rules.


@dataclass(frozen=True)
class Example:
    tricks: list[str]
    dog: str
    dealer: int
    bids: list[str]
    discard: str | None = None
    chelem: bool = False
    poignees: dict[int, str] | None = None

    def play(self) -> DealResult:
        first_leader = (self.dealer + 1) % 4
        if self.chelem:
            first_leader = (self.dealer + 1 + [b != "pass" for b in self.bids].index(True)) % 4
        deal = deal_from_tricks(self.tricks, self.dog, self.dealer, first_leader)
        start_play(deal, self.bids, self.discard, self.chelem)
        play_tricks(deal, self.tricks, self.poignees)
        assert deal.result is not None
        return deal.result


DECLARER_0 = ["garde", "pass", "pass", "pass"]

# Garde by seat 0: he draws trumps with T21-T18 (the defence's Excuse falls in trick 4, before
# the defence has won a trick), loses five spades to seat 1 and ruffs five hearts back, wins
# his last three spades and the last trick with the Petit.
FFT_1 = Example(
    tricks=[
        "T21 T2 T6 T10", "T20 T3 T7 T11", "T19 T4 T8 T12", "T18 T5 T9 EX",
        "S1 S10 HJ CJ", "H1 H6 DQ T13", "S2 SJ H8 CC", "H2 H7 C1 T14", "S3 SC DJ CQ",
        "H3 HC C2 T15", "S4 SQ DC CK", "H4 HQ C3 T16", "S5 SK DK C5", "H5 HK C4 T17",
        "S6 D6 H9 C6", "S7 D7 H10 C7", "S8 D8 D10 C8", "T1 D9 C9 C10",
    ],
    dog="S9 D1 D2 D3 D4 D5", dealer=3, bids=DECLARER_0, discard="S9 D1 D2 D3 D4 D5",
    poignees={0: "T1 T13 T14 T15 T16 T17 T18 T19 T20 T21"},
)  # fmt: skip

# Garde sans by seat 0, who holds no trump: the 21 and the Excuse lie in his unseen dog. He wins
# six tricks with spade and heart honours; seat 1 trumps a diamond, seat 3 takes over with high
# trumps and leads the Petit to the last trick.
FFT_2 = Example(
    tricks=[
        "SK S1 S4 S7", "SQ S2 S5 S8", "SC S3 S6 S9", "HK H1 H4 H7", "HQ H2 H5 H8", "HC H3 H6 H9",
        "D8 T2 D1 D5", "T3 T4 T8 D9", "T9 D10 S10 T5", "T10 DJ SJ T6", "T11 DC H10 T7",
        "T12 DQ HJ D2", "T13 CK C1 D3", "T14 CQ C2 D4", "T15 CC C3 D6", "T16 CJ C4 D7",
        "T17 C10 C5 C7", "T1 C9 C6 C8",
    ],
    dog="T21 EX T20 T19 T18 DK", dealer=3, bids=["garde_sans", "pass", "pass", "pass"],
)  # fmt: skip

# Prise by seat 0, like example 1 but seat 3 holds the 21: it takes the first trick.
FFT_3 = Example(
    tricks=[
        "T20 T2 T6 T21", "T10 T19 T3 T7", "T18 T4 T8 T11", "T17 T5 T9 EX",
        "S1 S10 H7 CJ", "H1 H6 DQ T12", "S2 SJ H8 CC", "H2 HJ C1 T13", "S3 SC DJ CQ",
        "H3 HC C2 T14", "S4 SQ DC CK", "H4 HQ C3 T15", "S5 SK DK C5", "H5 HK C4 T16",
        "S6 D6 H9 C6", "S7 D7 H10 C7", "S8 D8 D10 C8", "T1 D9 C9 C10",
    ],
    dog="S9 D1 D2 D3 D4 D5", dealer=3, bids=["prise", "pass", "pass", "pass"],
    discard="S9 D1 D2 D3 D4 D5", poignees={0: "T1 T12 T13 T14 T15 T16 T17 T18 T19 T20"},
)  # fmt: skip

# Garde by seat 0 against seat 1's ten trumps (shown): ten rounds of trumps catch them all, the
# Petit included; then seat 1's spades take the rest, and the declarer's Excuse is exchanged.
FFT_4 = Example(
    tricks=[
        "T21 T1 T11 HK", "T20 T2 HQ DQ", "T19 T3 HC H5", "T18 T4 H6 H7", "T17 T5 H8 H9",
        "T16 T6 H10 D4", "T15 T7 D5 D6", "T14 T8 D7 D8", "T13 T9 D9 D10", "T12 T10 C1 C2",
        "S1 S8 C3 C4", "S9 C5 C6 EX", "S10 C7 C8 S2", "SJ C9 C10 S3", "SC HJ DJ S4",
        "SQ DC DK S5", "SK CJ CC S6", "H4 CQ CK S7",
    ],
    dog="H1 H2 H3 D1 D2 D3", dealer=3, bids=DECLARER_0, discard="H1 H2 H3 D1 D2 D3",
    poignees={1: "T1 T2 T3 T4 T5 T6 T7 T8 T9 T10"},
)  # fmt: skip

# Garde by seat 2 (dealer 0), chelem announced, so seat 2 leads. The defence's Excuse falls in
# trick 4 and, the defence never winning a trick, stays with it worth 4: 91 - 4.5 = 86.5 -> 87.
FFT_5 = Example(
    tricks=[
        "T21 T10 T2 T6", "T20 T11 T3 T7", "T19 T12 T4 T8", "T18 EX T5 T9",
        "SK S1 S3 S5", "SQ S2 S4 S6", "SC H4 D5 C3", "SJ H5 D6 C4", "S10 H6 D7 C5",
        "S9 H7 D8 C6", "S8 H8 D9 C7", "S7 H9 D10 C8", "T17 H10 DJ C9", "T16 HJ DC C10",
        "T15 HC DQ CJ", "T14 HQ DK CC", "T13 HK C1 CQ", "T1 D4 C2 CK",
    ],
    dog="H1 H2 H3 D1 D2 D3", dealer=0, bids=["pass", "garde", "pass", "pass"],
    discard="H1 H2 H3 D1 D2 D3", chelem=True,
    poignees={2: "T1 T13 T14 T15 T16 T17 T18 T19 T20 T21"},
)  # fmt: skip


def test_fft_example_1_garde_49_points_2_oudlers_poignee_petit_au_bout_full_deal() -> None:
    r = FFT_1.play()
    assert (r.contract, r.declarer, r.points, r.oudlers, r.needed, r.won, r.diff) == (
        Contract.GARDE, 0, 49, 2, 41, True, 8
    )  # fmt: skip
    assert (r.poignee_bonus, r.petit_au_bout, r.excuse_exchange) == (20, "declarer", "exchanged")
    assert r.per_defender == (25 + 8) * 2 + 20 + 20 == 106
    assert r.scores == (318, -106, -106, -106)


def test_fft_example_2_garde_sans_won_by_4_defence_petit_au_bout_full_deal() -> None:
    r = FFT_2.play()
    assert (r.contract, r.points, r.oudlers, r.won, r.diff) == (
        Contract.GARDE_SANS, 45, 2, True, 4
    )  # fmt: skip
    assert r.petit_au_bout == "defence"
    assert r.per_defender == (25 + 4) * 4 - 40 == 76
    assert r.scores == (228, -76, -76, -76)


def test_fft_example_3_prise_lost_by_7_declarer_poignee_and_petit_au_bout_full_deal() -> None:
    r = FFT_3.play()
    assert (r.contract, r.points, r.oudlers, r.needed, r.won, r.diff) == (
        Contract.PRISE, 44, 1, 51, False, 7
    )  # fmt: skip
    assert (r.poignee_bonus, r.petit_au_bout) == (20, "declarer")
    assert r.per_defender == -(25 + 7) - 20 + 10 == -42
    assert r.scores == (-126, 42, 42, 42)


def test_fft_example_4_garde_won_by_11_defender_poignee_full_deal() -> None:
    r = FFT_4.play()
    assert (r.contract, r.points, r.oudlers, r.won, r.diff) == (Contract.GARDE, 47, 3, True, 11)
    assert (r.poignee_bonus, r.petit_au_bout) == (20, None)
    assert r.per_defender == (25 + 11) * 2 + 20 == 92
    assert r.scores == (276, -92, -92, -92)


def test_fft_example_5_chelem_87_points_defence_kept_the_excuse_full_deal() -> None:
    r = FFT_5.play()
    assert (r.declarer, r.chelem, r.chelem_announced, r.excuse_exchange) == (
        2, "declarer", True, "never"
    )  # fmt: skip
    assert (r.half_points, r.points, r.oudlers, r.needed, r.diff) == (173, 87, 2, 41, 46)
    assert (r.poignee_bonus, r.petit_au_bout, r.chelem_bonus) == (20, "declarer", 400)
    assert r.per_defender == (25 + 46) * 2 + 20 + 20 + 400 == 582
    assert r.scores == (-582, -582, 1746, -582)


def test_declarer_scores_3_times_d_and_the_table_sums_to_zero() -> None:
    for example in (FFT_1, FFT_2, FFT_3, FFT_4, FFT_5):
        r = example.play()
        d = r.per_defender
        assert d is not None and r.declarer is not None
        assert r.scores[r.declarer] == 3 * d
        assert all(s == -d for i, s in enumerate(r.scores) if i != r.declarer)
        assert sum(r.scores) == 0


def test_petit_au_bout_goes_to_the_side_winning_the_last_trick_times_the_multiplier() -> None:
    low = mask("S1 S2 S3 S4 S5 S6")
    cards = [c for c in range(78) if not low >> c & 1]
    cards.remove(0)  # the Petit
    cards.insert(4 * 17 + 1, 0)  # played by seat 1, second in the last trick (seat 0 leads it)
    for contract in Contract:
        for taker, side, sign in ((0, "declarer", 1), (2, "defence", -1)):
            taken = [0] * 17 + [taker]
            r = score_deal(
                contract, 0, tricks_taken(cards, taken), discard=low, dog=low,
                chelem_announced=False, poignees=[],
            )  # fmt: skip
            assert r.petit_au_bout == side
            base = score_formula(
                won=bool(r.won), diff=r.diff or 0, multiplier=contract.multiplier, pab=0,
                poignee_bonus=0, chelem_bonus=r.chelem_bonus or 0,
            )  # fmt: skip
            assert r.per_defender == base + sign * 10 * contract.multiplier


def test_no_petit_au_bout_when_the_petit_is_not_in_the_last_trick() -> None:
    low = mask("S1 S2 S3 S4 S5 S6")
    cards = [c for c in range(78) if not low >> c & 1]  # the Petit falls in the first trick
    r = score_deal(
        Contract.GARDE, 0, tricks_taken(cards, [0] * 17 + [1]), discard=low, dog=low,
        chelem_announced=False, poignees=[],
    )  # fmt: skip
    assert r.petit_au_bout is None
