"""RULES.md §4: one round of strictly higher bids, from the dealer's right to the dealer."""

from __future__ import annotations

import pytest

from oudler.core import Contract, Deal, IllegalBidError, NotYourTurnError, Phase

P, G, GS, GC = Contract.PRISE, Contract.GARDE, Contract.GARDE_SANS, Contract.GARDE_CONTRE


def fresh(dealer: int = 2) -> Deal:
    for seed in range(100):
        deal = Deal.from_seed(seed, dealer)
        if deal.phase is Phase.BIDDING:
            return deal
    raise AssertionError("no playable seed")  # pragma: no cover


def test_player_on_dealers_right_speaks_first_and_dealer_last() -> None:
    for dealer in range(4):
        deal = fresh(dealer)
        seats = []
        for _ in range(4):
            seats.append(deal.to_move)
            deal.bid(None)
        assert seats == [(dealer + 1) % 4, (dealer + 2) % 4, (dealer + 3) % 4, dealer]


def test_contracts_rank_prise_garde_garde_sans_garde_contre_with_multipliers_1_2_4_6() -> None:
    assert P < G < GS < GC
    assert [c.multiplier for c in (P, G, GS, GC)] == [1, 2, 4, 6]


def test_each_bid_must_be_strictly_higher_than_the_highest_so_far() -> None:
    deal = fresh()
    deal.bid(G)
    assert deal.legal_bids() == [None, GS, GC]
    for low in (P, G):
        assert deal.why_bid_illegal(low) is not None
        with pytest.raises(IllegalBidError, match="higher than garde"):
            deal.bid(low)
    deal.bid(GS)
    assert deal.legal_bids() == [None, GC]


def test_pass_is_always_legal_even_after_garde_contre() -> None:
    deal = fresh()
    deal.bid(GC)
    assert deal.legal_bids() == [None]
    deal.bid(None)
    deal.bid(None)
    deal.bid(None)
    assert deal.contract is GC


def test_every_player_speaks_exactly_once_then_bidding_ends() -> None:
    # A bidder who is overcalled does not speak again: after four calls the bidding is over.
    deal = fresh(dealer=0)
    deal.bid(P)  # seat 1
    deal.bid(G)  # seat 2 overcalls
    deal.bid(None)  # seat 3
    deal.bid(None)  # seat 0, the dealer
    assert deal.phase is Phase.DISCARD
    assert deal.legal_bids() == []
    assert len(deal.bids) == 4


def test_highest_bidder_is_the_declarer() -> None:
    deal = fresh(dealer=0)
    for bid in (P, None, GS, None):
        deal.bid(bid)
    assert deal.declarer == 3
    assert deal.contract is GS
    assert deal.to_move == 3


def test_a_bid_out_of_turn_is_rejected_and_changes_nothing() -> None:
    deal = fresh(dealer=1)
    with pytest.raises(NotYourTurnError):
        deal.bid(G, seat=0)
    assert deal.bids == [] and deal.to_move == 2
    deal.bid(G, seat=2)
    assert deal.bids == [G]


def test_prise_and_garde_go_to_the_discard_garde_sans_and_contre_to_the_chelem_question() -> None:
    for contract, phase in (
        (P, Phase.DISCARD),
        (G, Phase.DISCARD),
        (GS, Phase.CHELEM),
        (GC, Phase.CHELEM),
    ):
        deal = fresh()
        deal.bid(contract)
        for _ in range(3):
            deal.bid(None)
        assert deal.phase is phase


def test_a_call_that_is_not_a_contract_is_refused_with_a_reason() -> None:
    deal = fresh()
    for bad in (7, "garde", 2):
        with pytest.raises(IllegalBidError, match="is not a bid"):
            deal.bid(bad)  # type: ignore[arg-type]
    assert deal.bids == [] and deal.phase is Phase.BIDDING
