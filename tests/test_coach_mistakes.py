"""Hand-built deals with one clear mistake each: the analysis names that decision as the
costliest, with the right ``best``, and a reason that says why.

Each deal is played by club players, except the analysed seat: an expert with the analysis's own
seed and number of worlds, so its other decisions are the coach's choices (no loss), and a
scripted mistake where the test says.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from handbuilt import build_deal
from oudler.bots import make_bot
from oudler.bots.expert import ExpertBot
from oudler.coach import analyze_deal
from oudler.core import Action, Deal, Phase, parse_bid
from oudler.core import cards as C
from oudler.core.records import deal_to_record

SEED = 1
WORLDS = 48  # enough that a reason is not decided by a few (weighted, repeated) worlds
BOT = object()  # the seat's own player decides

Script = Callable[[Deal], Any]


def _play(deal: Deal, seat: int, mistake: Script, others: Script = lambda d: BOT) -> dict[str, Any]:
    bots = [make_bot("club", seed=10 + s) for s in range(4)]
    bots[seat] = ExpertBot(SEED, worlds=WORLDS)
    for s, bot in enumerate(bots):
        bot.begin_deal(s)
    while not deal.is_over:
        s = deal.to_move
        action = mistake(deal) if s == seat else others(deal)
        if action is BOT:
            action = bots[s].act(deal.observation(s))
        deal.act(action, s)
    return deal_to_record(deal)


def _costliest(record: dict[str, Any], seat: int) -> dict[str, Any]:
    out = analyze_deal(record, [seat], seed=SEED, worlds=WORLDS)
    decisions = sorted(out["decisions"], key=lambda d: -d["loss"])
    worst = decisions[0]
    assert worst["loss"] > 0
    if len(decisions) > 1:
        assert worst["loss"] > decisions[1]["loss"]
    assert set(worst["reasons"]) == {"en", "zh", "fr"}
    return worst


def _passing(d: Deal) -> Action | object:
    return None if d.phase is Phase.BIDDING else BOT


def test_keeping_the_excuse_for_the_last_trick() -> None:
    deal = Deal.from_seed(6, 3)
    seat = next(s for s in range(4) if deal.hands[s] & C.EXCUSE_BIT)
    planner = ExpertBot(SEED, worlds=8)
    planner.begin_deal(seat)

    def keep_the_excuse(d: Deal) -> Action | object:
        hand = d.hands[d.to_move]
        if d.phase is Phase.PLAY and hand & C.EXCUSE_BIT and hand.bit_count() > 1:
            card = planner.act(d.observation(d.to_move))
            if card == C.EXCUSE:  # never spent: it waits for the last trick
                return C.cards_of(d.legal_cards() & ~C.EXCUSE_BIT)[0]
            return card
        return BOT

    record = _play(deal, seat, keep_the_excuse)
    assert record["play"][-4:].count("EX") == 1
    worst = _costliest(record, seat)
    assert worst["kind"] == "play" and worst["trick"] == 16
    assert worst["best"] == "EX"
    assert worst["reason_code"]["code"] == "excuse_lost"
    assert "last trick" in worst["reasons"]["en"] and "100\u00a0%" in worst["reasons"]["en"]
    assert "dernier pli" in worst["reasons"]["fr"] and "最后一墩" in worst["reasons"]["zh"]


def test_dropping_the_petit_under_a_higher_trump_while_holding_another_low_trump() -> None:
    # Dealer 2: seat 3 speaks and leads first with the big trumps; seat 0 has none, seat 1 small
    # ones; seat 2 plays last to the first trick holding T1 and T3.
    deal = build_deal(
        [
            "S3 S4 S5 S6 S7 H3 H4 H5 H6 H7 D3 D4 D5 D6 C3 C4 C5 C6",
            "T2 T4 T5",
            "T1 T3 SJ SC S8 S9 S10 HJ HC H8 H9 H10 DJ DC D7 D8 CJ CC",
            "T21 T20 T19 T18 T17 T16 T15 T14 T13 EX SK SQ HK DK CK S2 H2 D2",
        ],
        dealer=2,
    )
    bids = ["garde", "pass", "pass"]

    def others(d: Deal) -> Action | object:
        if d.phase is Phase.BIDDING:
            return parse_bid(bids[len(d.bids)])
        if d.phase is Phase.PLAY and not d.play_log:
            return C.parse_card("T15")
        return BOT

    def drop_the_petit(d: Deal) -> Action | object:
        if d.phase is Phase.PLAY and len(d.play_log) == 3:
            return C.PETIT
        return BOT

    record = _play(deal, 2, drop_the_petit, others)
    assert record["play"][:4] == ["T15", "S3", "T2", "T1"]
    worst = _costliest(record, 2)
    assert worst["where"] == "play[3]" and worst["played"] == "T1"
    assert worst["best"] == "T3"
    assert worst["reason_code"]["code"] == "petit_lost"
    assert "Petit is captured in 100\u00a0%" in worst["reasons"]["en"]


def test_passing_a_hand_that_is_a_certain_garde_sans() -> None:
    hand = "T21 T20 T19 T18 T17 T16 T15 T14 T13 T12 T11 T1 EX SK HK DK CK SQ"
    deal = build_deal([hand], dealer=3)
    record = _play(deal, 0, _passing, _passing)
    assert record["bids"] == ["pass"] * 4
    worst = _costliest(record, 0)
    assert worst["where"] == "bids[0]" and worst["played"] == "pass"
    # Garde contre scores more still: the contract is as sure without the dog
    assert worst["best"] in ("garde_sans", "garde_contre")
    assert worst["values"]["garde_sans"] > worst["values"]["pass"] + 500
    assert worst["reason_code"]["code"] == "bid_made"
    assert "made in 100\u00a0%" in worst["reasons"]["en"]


def test_announcing_a_chelem_on_a_hand_that_cannot_make_it() -> None:
    hand = "T21 T20 T19 T18 T15 T12 T10 T7 T5 EX SK SQ HK H3 DK D2 C4 C5"
    deal = build_deal([hand], dealer=3)

    def announce(d: Deal) -> Action | object:
        return True if d.phase is Phase.CHELEM else BOT

    record = _play(deal, 0, announce)
    assert record["chelem"] is True
    worst = _costliest(record, 0)
    assert worst["where"] == "chelem" and worst["played"] is True
    assert worst["best"] is False
    assert worst["reason_code"]["code"] == "chelem"
    assert worst["reason_code"]["params"]["c"] < 0.2
    assert "chelem is made in" in worst["reasons"]["en"]


def test_bidding_garde_when_garde_sans_is_sure_and_worth_more() -> None:
    hand = "T21 T20 T18 T16 T14 T12 T9 T7 T4 EX SQ HK HQ H5 DK D4 C3 C5"
    deal = build_deal([hand], dog="C6 C7 D5 H6 S6 T2", dealer=3)

    def garde(d: Deal) -> Action | object:
        return parse_bid("garde") if d.phase is Phase.BIDDING else BOT

    record = _play(deal, 0, garde, _passing)
    worst = _costliest(record, 0)
    assert worst["where"] == "bids[0]" and worst["played"] == "garde"
    assert worst["best"] == "garde_sans"
    assert worst["reason_code"]["code"] == "bid_made"
