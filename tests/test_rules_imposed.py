"""The imposed taker (FFT duplicate; docs/duplicate.md): a deal started after the bidding with a
given declarer and contract. The bidding's end state is reached through the bidding itself: the
case's calls, passes and the contract, go through ``Deal.bid``."""

from __future__ import annotations

import random

import pytest

from helpers import play_out
from oudler.core import Contract, Deal, IllegalActionError, Phase, WrongPhaseError
from oudler.core.deal import imposed_calls
from oudler.core.duplicate import BoardMatch, imposed_deal, series_boards
from oudler.core.errors import AuctionOverError, DealVoidError, NotationError
from oudler.core.records import deal_from_record, deal_to_record

P, G, GS, GC = Contract.PRISE, Contract.GARDE, Contract.GARDE_SANS, Contract.GARDE_CONTRE


def fresh(seed: int = 0, dealer: int = 2) -> Deal:
    for s in range(seed, seed + 100):
        deal = Deal.from_seed(s, dealer)
        if deal.phase is Phase.BIDDING:
            return deal
    raise AssertionError("no playable seed")  # pragma: no cover


def state(deal: Deal) -> dict[str, object]:
    """Everything a deal holds (its running trick's slots included)."""
    out = dict(deal.__dict__)
    trick = out.pop("trick")
    out["trick"] = {name: getattr(trick, name) for name in type(trick).__slots__}
    return out


def test_the_imposed_calls_are_the_contract_and_a_pass_from_every_other_seat_in_turn() -> None:
    # Dealer 2: seat 3 speaks first, then 0, 1 and the dealer.
    assert imposed_calls(2, 3, G) == [G, None, None, None]
    assert imposed_calls(2, 1, GS) == [None, None, GS, None]
    assert imposed_calls(2, 2, P) == [None, None, None, P]


@pytest.mark.parametrize("declarer", range(4))
@pytest.mark.parametrize("contract", list(Contract))
def test_an_imposed_contract_is_the_state_its_bidding_reaches(
    declarer: int, contract: Contract
) -> None:
    imposed = fresh(7)
    imposed.impose(declarer, contract)
    bid = fresh(7)
    for _ in range(4):
        bid.bid(contract if bid.to_move == declarer else None)
    assert state(imposed) == state(bid)
    assert imposed.declarer == declarer and imposed.contract is contract
    assert imposed.to_move == declarer


@pytest.mark.parametrize("contract", [P, G])
def test_an_imposed_prise_or_garde_gives_the_dog_to_the_declarer_who_discards(
    contract: Contract,
) -> None:
    deal = fresh(3, dealer=0)
    hand = deal.hands[3]
    deal.impose(3, contract)
    assert deal.phase is Phase.DISCARD and deal.to_move == 3
    assert deal.hands[3] == hand | deal.dog  # RULES.md §5: the dog taken, 24 cards
    assert deal.observation(0).dog is not None  # turned face up for everyone


@pytest.mark.parametrize("contract", [GS, GC])
def test_an_imposed_garde_sans_or_contre_keeps_the_dog_down_and_asks_the_chelem(
    contract: Contract,
) -> None:
    deal = fresh(3, dealer=0)
    deal.impose(0, contract)
    assert deal.phase is Phase.CHELEM and deal.to_move == 0
    assert deal.hands[0].bit_count() == 18
    assert deal.observation(1).dog is None


@pytest.mark.parametrize("seed", range(20))
def test_an_imposed_deal_plays_on_as_usual_poignee_and_chelem_included(seed: int) -> None:
    rng = random.Random(seed)
    deal = fresh(seed * 10, dealer=seed % 4)
    declarer, contract = rng.randrange(4), rng.choice(list(Contract))
    deal.impose(declarer, contract)
    play_out(deal, rng)  # random discards, chelem answers, poignées and cards
    assert deal.result is not None and deal.result.declarer == declarer
    assert deal.result.contract is contract and sum(deal.result.scores) == 0
    # Its record holds the case's calls: read back, it is the same deal.
    again = deal_from_record(deal_to_record(deal))
    assert again.result == deal.result
    assert again.bids == imposed_calls(deal.dealer, declarer, contract)


def test_a_contract_is_imposed_only_before_anyone_speaks() -> None:
    deal = fresh()
    deal.bid(None)
    before = state(deal)
    with pytest.raises(WrongPhaseError) as err:
        deal.impose(0, G)
    assert err.value.code == "out_of_turn"
    assert state(deal) == before  # nothing changed
    done = fresh()
    done.impose(1, P)
    with pytest.raises(AuctionOverError):
        done.impose(1, P)


def test_no_contract_is_imposed_on_a_petit_sec() -> None:
    for seed in range(2000):
        deal = Deal.from_seed(seed, 0)
        if deal.void == "petit_sec":
            break
    else:  # pragma: no cover
        raise AssertionError("no petit sec in 2000 seeds")
    with pytest.raises(DealVoidError):
        deal.impose(1, G)


def test_an_imposed_case_is_a_seat_and_a_contract() -> None:
    deal = fresh()
    with pytest.raises(NotationError):
        deal.impose(4, G)
    with pytest.raises(NotationError):
        deal.impose(0, "garde")  # type: ignore[arg-type]
    assert deal.bids == [] and deal.phase is Phase.BIDDING


def test_a_board_match_with_cases_starts_every_board_after_the_bidding() -> None:
    boards = series_boards(b"s", "weekly:2026-11-30", 3)
    cases = [(0, G), (1, GS), (3, P)]
    match = BoardMatch(boards, cases=cases)
    rng = random.Random(1)
    for i, (declarer, contract) in enumerate(cases):
        deal = match.current
        assert (deal.declarer, deal.contract) == (declarer, contract)
        assert state(deal) == state(imposed_deal(boards[i], cases[i]))
        play_out(deal, rng)
        if i < 2:
            match.next_deal()
    assert match.is_over and len(match.scored_deals) == 3
    with pytest.raises(IllegalActionError, match="one case per board"):
        BoardMatch(boards, cases=cases[:2])
