"""RULES.md §10 (and §3): a match of 2, 4 or 8 scored deals, the deal passing to the right."""

from __future__ import annotations

import itertools
import random

import pytest

from handbuilt import random_action
from oudler.core import IllegalActionError, Match, NotationError
from oudler.core.deal import Deal


def finish(deal: Deal, rng: random.Random, *, all_pass: bool = False) -> None:
    while not deal.is_over:
        deal.act(None if all_pass else random_action(deal, rng, pass_rate=0.3))


@pytest.mark.parametrize("length", [2, 4, 8])
def test_match_is_2_4_or_8_scored_deals(length: int) -> None:
    match = Match(length, seed=length)
    rng = random.Random(length)
    while True:
        finish(match.current, rng)
        if match.is_over:
            break
        match.next_deal()
    assert len(match.scored_deals) == length
    with pytest.raises(IllegalActionError, match="match is over"):
        match.next_deal()


@pytest.mark.parametrize("length", [0, 1, 3, 5, 16])
def test_other_match_lengths_are_refused(length: int) -> None:
    with pytest.raises(NotationError):
        Match(length, seed=1)


def test_first_dealer_is_drawn_from_the_match_seed() -> None:
    assert Match(4, seed=77).first_dealer == Match(4, seed=77).first_dealer
    assert {Match(4, seed=s).first_dealer for s in range(40)} == {0, 1, 2, 3}
    assert Match(4, seed=77, first_dealer=2).current.dealer == 2


def test_deal_passes_to_the_right_after_every_deal_void_or_not() -> None:
    match = Match(4, seed=3)
    rng = random.Random(3)
    voids = 0
    while True:
        # Every other deal is passed out by everybody: it is void and dealt again.
        passed_out = len(match.deals) % 2 == 1 and match.current.void is None
        finish(match.current, rng, all_pass=passed_out)
        voids += match.current.void is not None
        if match.is_over:
            break
        match.next_deal()
    dealers = [d.dealer for d in match.deals]
    assert all(b == (a + 1) % 4 for a, b in itertools.pairwise(dealers))
    assert voids >= 3 and len(match.deals) == 4 + voids


def test_void_deals_do_not_count_towards_the_match_length() -> None:
    match = Match(2, seed=11, first_dealer=0)
    rng = random.Random(11)
    finish(match.current, rng, all_pass=True)
    assert match.current.void == "all_pass"
    assert match.scored_deals == [] and not match.is_over
    deal = match.next_deal()
    assert deal.dealer == 1
    while not match.is_over:
        finish(match.current, rng)
        if not match.is_over:
            match.next_deal()
    assert len(match.scored_deals) == 2
    assert match.deals[0] not in match.scored_deals


def test_match_total_is_the_sum_of_deal_scores_and_the_highest_total_wins() -> None:
    match = Match(4, seed=21)
    rng = random.Random(21)
    while True:
        finish(match.current, rng)
        if match.is_over:
            break
        match.next_deal()
    expected = [0, 0, 0, 0]
    for deal in match.scored_deals:
        assert deal.result is not None
        for seat in range(4):
            expected[seat] += deal.result.scores[seat]
    assert match.totals == expected
    assert sum(match.totals) == 0
    best = max(expected)
    assert match.winners() == [s for s in range(4) if expected[s] == best]


def test_next_deal_only_once_the_current_one_is_over() -> None:
    match = Match(2, seed=5)
    if match.current.is_over:  # a petit sec: deal again first
        match.advance()
    assert not match.current.is_over
    with pytest.raises(IllegalActionError, match="not over"):
        match.next_deal()


def test_advance_deals_again_after_void_deals() -> None:
    match = Match(2, seed=9, first_dealer=3)
    finish(match.current, random.Random(0), all_pass=True)
    deal = match.advance()
    assert deal.void is None and not deal.is_over
    assert deal.dealer == (match.deals[-2].dealer + 1) % 4
