"""RULES.md §11: an observation holds what its seat may know, and no hidden card.

Over thousands of random deals, at every step and for every seat, no card of another hand, of
an unseen dog or of the discard (beyond the forced trumps) appears in the observation: neither
in the object nor in the JSON text of ``to_dict()``. Once the deal is over everything may show.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re

from handbuilt import build_deal, mask, random_action, start_play
from oudler.core import Deal, Observation, Phase
from oudler.core import cards as C

OBSERVATION_DEALS = 2000

CARD_TOKEN = re.compile(r'"(T1[0-9]|T2[01]|T[1-9]|EX|[SHDC](?:10|[1-9]|J|C|Q|K))"')

# Every field of Observation and what it may carry. A new field must be added here, with the
# cards it can hold, before this test passes: that is the point.
CARD_FIELDS = {
    "hand", "dog", "own_discard", "discard_trumps", "poignees", "tricks", "trick_cards",
    "petit_sec", "legal", "review_hands", "review_dog", "review_discard", "result",
}  # fmt: skip
PLAIN_FIELDS = {
    "seat", "dealer", "phase", "to_move", "bids", "contract", "declarer", "chelem",
    "trick_leader", "excuse_pending", "trick_winner",
}  # fmt: skip


def may_know(deal: Deal, seat: int) -> int:
    """The cards ``seat`` may know of now, by RULES.md §11."""
    known = deal.hands[seat] | C.mask_of(deal.play_log) | deal.discard_trumps
    for shown in deal.poignees.values():
        known |= shown
    contract = deal.contract
    if contract is not None and contract.dog_shown:
        known |= deal.dog  # shown to everyone before the declarer took it
        if seat == deal.declarer:
            known |= deal.discard  # he chose it
    return known


def cards_in(obs: Observation) -> int:
    """Every card the observation object mentions, whatever the field."""
    names = {f.name for f in dataclasses.fields(obs)}
    unknown = names - CARD_FIELDS - PLAIN_FIELDS
    assert not unknown, f"new Observation fields {unknown}: say here which cards they may hold"
    m = obs.hand | (obs.dog or 0) | (obs.own_discard or 0) | obs.discard_trumps
    for shown in obs.poignees.values():
        m |= shown
    for t in obs.tricks:
        m |= C.mask_of(t.cards)
    m |= C.mask_of(obs.trick_cards)
    if obs.petit_sec is not None:
        m |= obs.petit_sec[1]
    legal = obs.legal
    m |= legal.discard_allowed | legal.poignee_cards | legal.cards
    for h in obs.review_hands or ():
        m |= h
    m |= (obs.review_dog or 0) | (obs.review_discard or 0)
    return m


BIT = {name: 1 << card for card, name in enumerate(C.CARD_NAMES)}


def cards_in_text(obs: Observation) -> int:
    """Every card named anywhere in the JSON text of the observation."""
    m = 0
    for name in set(CARD_TOKEN.findall(json.dumps(obs.to_dict()))):
        m |= BIT[name]
    return m


def check_seat(deal: Deal, seat: int) -> None:
    obs = deal.observation(seat)
    assert obs.seat == seat and obs.hand == deal.hands[seat]
    if deal.phase is Phase.DONE:
        return  # the review shows everything (RULES.md §11)
    allowed = may_know(deal, seat)
    leaked = cards_in(obs) & ~allowed
    assert not leaked, f"seat {seat} sees {C.format_cards(leaked)} in {deal.phase}"
    leaked = cards_in_text(obs) & ~allowed
    assert not leaked, f"seat {seat}'s JSON shows {C.format_cards(leaked)} in {deal.phase}"
    assert obs.review_hands is None and obs.review_dog is None and obs.review_discard is None
    if seat != deal.to_move:
        assert obs.legal == type(obs.legal)()  # no legal actions shown to a seat not to move


def test_no_hidden_card_reaches_another_seat_at_any_step() -> None:
    rng = random.Random(1111)
    phases: set[Phase] = set()
    for n in range(OBSERVATION_DEALS):
        deal = Deal.from_seed(rng.getrandbits(40), n & 3)
        while True:
            for seat in range(4):
                check_seat(deal, seat)
            phases.add(deal.phase)
            if deal.phase is Phase.DONE:
                break
            deal.act(random_action(deal, rng, pass_rate=0.5))
    assert phases == set(Phase)


def test_a_hidden_card_in_an_observation_would_be_caught() -> None:
    # The checker itself: an observation of seat 1 given seat 0's hand must fail.
    deal = Deal.from_seed(3, 0)
    obs = deal.observation(1)
    forged = dataclasses.replace(obs, hand=obs.hand | deal.hands[0])
    assert cards_in(forged) & ~may_know(deal, 1)
    assert cards_in_text(forged) & ~may_know(deal, 1)


HAND = "T1 T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 T12 T13 EX SK HK S1 S2"
DOG = "DK CK T14 T15 H1 H2"


def test_declarer_sees_his_own_discard_and_others_only_its_forced_trumps() -> None:
    deal = build_deal([HAND], DOG, dealer=3)
    start_play(deal, ["garde", "pass", "pass", "pass"], discard="T2 T3 S1 S2 H1 H2")
    mine = deal.observation(0)
    assert mine.own_discard == mask("T2 T3 S1 S2 H1 H2")
    assert mine.to_dict()["discard"] == ["T2", "T3", "S1", "S2", "H1", "H2"]
    for seat in (1, 2, 3):
        obs = deal.observation(seat)
        assert obs.own_discard is None and obs.to_dict()["discard"] is None
        assert obs.discard_trumps == mask("T2 T3")
        # S1 and S2 came from the declarer's hand: unseen. H1 and H2 were in the shown dog:
        # everyone saw them, but not whether they were discarded.
        assert not cards_in_text(obs) & mask("S1 S2")
        assert obs.dog == mask(DOG)


def test_unseen_dog_stays_hidden_from_everyone_until_the_end() -> None:
    for contract in ("garde_sans", "garde_contre"):
        deal = build_deal([HAND], DOG, dealer=3)
        start_play(deal, [contract, "pass", "pass", "pass"])
        rng = random.Random(0)
        while deal.phase is not Phase.DONE:
            for seat in range(4):
                obs = deal.observation(seat)
                assert obs.dog is None
                assert not cards_in_text(obs) & mask(DOG)
            deal.act(random_action(deal, rng))
        assert all(deal.observation(s).review_dog == mask(DOG) for s in range(4))


def test_a_seat_sees_only_its_own_hand_during_the_bidding() -> None:
    deal = Deal.from_seed(8, 1)
    for seat in range(4):
        obs = deal.observation(seat)
        assert obs.hand == deal.hands[seat]
        assert cards_in(obs) == deal.hands[seat]
        assert cards_in_text(obs) == deal.hands[seat]


def test_calls_contract_chelem_and_every_played_card_reach_every_seat() -> None:
    deal = build_deal([HAND], DOG, dealer=3)
    start_play(deal, ["pass", "pass", "garde_sans", "pass"], chelem=True)
    rng = random.Random(5)
    while len(deal.tricks) < 3 or deal.trick.cards:
        deal.act(random_action(deal, rng))
    deal.act(random_action(deal, rng))  # the first card of trick 4
    for seat in range(4):
        obs = deal.observation(seat)
        assert [b.notation if b else "pass" for b in obs.bids] == [
            "pass",
            "pass",
            "garde_sans",
            "pass",
        ]
        assert obs.contract is deal.contract and obs.declarer == 2 and obs.chelem is True
        assert obs.tricks == tuple(deal.tricks)  # the previous trick included
        assert obs.trick_cards == tuple(deal.trick.cards)
        assert obs.played == C.mask_of(deal.play_log)
        text = obs.to_dict()
        assert text["tricks"][-1]["cards"] == [C.CARD_NAMES[c] for c in deal.tricks[-1].cards]
        assert text["chelem"] is True and text["contract"] == "garde_sans"
