"""Stable error codes (spec/notation.md, "Error codes") for the engine and for ``oudler replay``.

Each rule has a hand-built record that breaks it and must answer its code, the action's kind and
seat and the flat action index of notation.md (or, malformed, the first bad field); then a corpus
of damaged random records where every failure must carry a code, an index or a field.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from handbuilt import build_deal
from helpers import play_out, play_random_deal
from oudler.core import Contract, Deal, IllegalCardError, Phase, WrongPhaseError
from oudler.core import cards as C
from oudler.core.errors import (
    ACTION_KINDS,
    ERROR_CODES,
    DiscardKingError,
    IllegalDiscardError,
    MustOvertrumpError,
    OudlerError,
    PoigneeSizeError,
)
from oudler.core.records import deal_from_record, deal_to_record, replay_record

# Dealer 3, so seat 0 speaks first and leads. Seat 1 holds 11 trumps and the Excuse (it is asked
# about a poignée); seat 3 holds no trump; nobody holds a petit sec.
HANDS = [
    "T1 T13 T14 T15 T21 SK HK H1 H2 H3 H4 H5 H6 D1 D2 D3 D4 D5",
    "T2 T3 T4 T5 T6 T7 T8 T9 T10 T19 T20 EX S1 S2 S3 S4 S5 S6",
    "T11 T12 T16 T17 T18 S7 S8 S9 S10 SJ SC SQ H7 H8 H9 H10 HJ HC",
    "HQ D6 D7 D8 D9 D10 DJ DC DQ DK C7 C8 C9 C10 CJ CC CQ CK",
]
DOG = "C1 C2 C3 C4 C5 C6"
SEAT1_POIGNEE = ["T2", "T3", "T4", "T5", "T6", "T7", "T8", "T9", "T10", "T19"]


def record(**fields: Any) -> dict[str, Any]:
    """The hand-built deal: seat 0 takes a Prise and discards C1..C6, no chelem; ``fields``
    replace or (None) remove fields."""
    out: dict[str, Any] = {
        "format": "tarot-deal/1",
        "dealer": 3,
        "hands": [h.split() for h in HANDS],
        "dog": DOG.split(),
        "bids": ["prise", "pass", "pass", "pass"],
        "discard": DOG.split(),
        "chelem": False,
        # trick 1: seat 0 leads T14, seat 1 overtrumps, seat 2 cannot, seat 3 has no trump
        "play": ["T14", "T19", "T16", "HQ"],
    }
    for name, value in fields.items():
        if value is None:
            out.pop(name, None)
        else:
            out[name] = value
    return out


def answer(rec: object) -> dict[str, Any]:
    out = replay_record(json.loads(json.dumps(rec))).to_dict()
    assert out["ok"] is False, out
    return out


def refused(rec: dict[str, Any]) -> tuple[str, str, int | None, int]:
    out = answer(rec)
    assert set(out) == {"ok", "code", "kind", "seat", "index", "error"}, out
    assert out["error"]
    return out["code"], out["kind"], out["seat"], out["index"]


def test_the_hand_built_record_is_legal_and_unfinished() -> None:
    out = replay_record(record()).to_dict()
    assert out == {
        "ok": True, "result": None, "unfinished": True, "phase": "play", "next_index": 10,
    }  # fmt: skip


# ------------------------------------------------------------------------------- the auction


def test_a_bid_on_a_petit_sec_deal_is_deal_void_at_index_0() -> None:
    hands = [h.split() for h in HANDS]
    hands[3][0], hands[0][0] = "T1", "HQ"  # seat 3: the Petit as only trump, no Excuse
    rec = record(hands=hands, bids=["pass"], discard=None, chelem=None, play=None)
    assert refused(rec) == ("deal_void", "bid", 0, 0)
    assert "petit sec" in answer(rec)["error"]
    rec["bids"] = []
    rec["play"] = ["T21"]
    assert refused(rec) == ("deal_void", "play", None, 0)  # any action on a petit sec: index 0


def test_a_fifth_call_is_auction_over_at_index_4() -> None:
    rec = record(bids=["prise", "pass", "pass", "pass", "garde"])
    assert refused(rec) == ("auction_over", "bid", 0, 4)
    rec["bids"] = ["pass"] * 5  # after four passes too: each player speaks once
    assert refused(rec) == ("auction_over", "bid", 0, 4)


def test_a_discard_while_the_dealer_has_not_spoken_is_auction_not_over_at_index_3() -> None:
    assert refused(record(bids=["prise", "pass", "pass"])) == (
        "auction_not_over", "discard", None, 3,
    )  # fmt: skip
    assert refused(record(bids=["prise", "pass", "pass"], discard=None)) == (
        "auction_not_over", "chelem", None, 3,
    )  # fmt: skip
    assert refused(record(bids=["prise"], discard=None, chelem=None)) == (
        "auction_not_over", "play", None, 1,
    )  # fmt: skip


def test_a_bid_not_higher_than_the_highest_is_bid_not_higher() -> None:
    assert refused(record(bids=["garde", "prise", "pass", "pass"])) == (
        "bid_not_higher", "bid", 1, 1,
    )  # fmt: skip
    assert refused(record(bids=["garde", "garde", "pass", "pass"]))[0] == "bid_not_higher"


def test_a_discard_on_a_deal_where_all_passed_is_deal_void() -> None:
    assert refused(record(bids=["pass"] * 4)) == ("deal_void", "discard", None, 4)


def test_a_chelem_answer_after_four_passes_is_chelem_no_declarer_at_index_4() -> None:
    rec = record(bids=["pass"] * 4, discard=None, chelem=True, play=None)
    assert refused(rec) == ("chelem_no_declarer", "chelem", None, 4)


def test_a_card_on_a_deal_where_all_passed_is_deal_void() -> None:
    rec = record(bids=["pass"] * 4, discard=None, chelem=None)
    assert refused(rec) == ("deal_void", "play", None, 4)


# ------------------------------------------------------------------------------- phase and turn


def test_a_discard_in_a_garde_sans_is_out_of_turn() -> None:
    rec = record(bids=["garde_sans", "pass", "pass", "pass"])
    assert refused(rec) == ("out_of_turn", "discard", 0, 4)


def test_a_card_while_the_discard_is_due_is_out_of_turn() -> None:
    assert refused(record(discard=None, chelem=None)) == ("out_of_turn", "play", None, 4)


def test_a_card_while_the_chelem_question_is_open_is_out_of_turn() -> None:
    assert refused(record(chelem=None)) == ("out_of_turn", "play", None, 5)


# ------------------------------------------------------------------------------- the discard


@pytest.mark.parametrize(
    ("discard", "code"),
    [
        ("C1 C2 C3 C4 C5", "discard_count"),
        ("C1 C2 C3 C4 C5 C6 H1", "discard_count"),
        ("C1 C1 C2 C3 C4 C5", "discard_duplicate"),
        ("C7 C2 C3 C4 C5 C6", "discard_not_held"),
        ("SK C2 C3 C4 C5 C6", "discard_king"),
        ("T1 C2 C3 C4 C5 C6", "discard_oudler"),
        ("T13 C2 C3 C4 C5 C6", "discard_trumps"),
    ],
)
def test_each_discard_rule_has_its_code_at_index_4(discard: str, code: str) -> None:
    assert refused(record(discard=discard.split())) == (code, "discard", 0, 4)


# ------------------------------------------------------------------------------- the poignée


@pytest.mark.parametrize(
    ("shown", "code"),
    [
        ([*SEAT1_POIGNEE[:9], "T2"], "poignee_duplicate"),
        ([*SEAT1_POIGNEE[:9], "S1"], "poignee_not_trump"),
        ([*SEAT1_POIGNEE[:9], "T11"], "poignee_not_held"),
        ([*SEAT1_POIGNEE, "T20"], "poignee_size"),
        ([*SEAT1_POIGNEE[:9], "EX"], "poignee_excuse"),
    ],
)
def test_each_poignee_rule_has_its_code_at_the_seats_first_card(
    shown: list[str], code: str
) -> None:
    assert refused(record(poignees={"1": shown})) == (code, "poignee", 1, 7)


def test_a_poignee_from_a_seat_with_fewer_than_10_trumps_is_poignee_size() -> None:
    rec = record(poignees={"2": ["T11", "T12", "T16", "T17", "T18", "S7", "S8", "S9", "S10", "SJ"]})
    assert refused(rec) == ("poignee_size", "poignee", 2, 8)
    assert "holds 5" in answer(rec)["error"]


def test_a_poignee_from_a_seat_that_has_not_reached_its_first_card_is_poignee_timing() -> None:
    rec = record(play=["T14", "T19"], poignees={"3": SEAT1_POIGNEE})
    assert refused(rec) == ("poignee_timing", "poignee", 3, 8)


def test_a_poignee_on_an_unfinished_bidding_is_poignee_timing() -> None:
    rec = record(bids=["pass"], discard=None, chelem=None, play=None, poignees={"1": []})
    assert replay_record(rec).to_dict()["ok"] is True  # an empty entry shows nothing
    rec["poignees"] = {"1": SEAT1_POIGNEE}
    assert refused(rec) == ("poignee_timing", "poignee", 1, 1)


# ------------------------------------------------------------------------------- the cards


def test_a_card_not_held_is_card_not_held() -> None:
    assert refused(record(play=["C7"])) == ("card_not_held", "play", 0, 6)


def test_a_card_played_twice_is_card_not_held_at_its_second_place() -> None:
    rec = record(play=["T14", "T19", "T16", "HQ", "T19"])  # seat 1 won and leads T19 again
    assert refused(rec) == ("card_not_held", "play", 1, 10)


def test_not_following_suit_is_must_follow_suit() -> None:
    assert refused(record(play=["H1", "T2", "S7"])) == ("must_follow_suit", "play", 2, 8)


def test_trumping_while_holding_the_suit_is_trump_holding_suit() -> None:
    assert refused(record(play=["H1", "T2", "T11"])) == ("trump_holding_suit", "play", 2, 8)


def test_a_suit_card_while_void_and_holding_trumps_is_must_trump() -> None:
    assert refused(record(play=["D1", "S1"])) == ("must_trump", "play", 1, 7)
    assert refused(record(play=["T14", "S1"])) == ("must_trump", "play", 1, 7)  # trumps led


def test_a_trump_under_the_highest_while_holding_a_higher_is_must_overtrump() -> None:
    assert refused(record(play=["T14", "T2"])) == ("must_overtrump", "play", 1, 7)


def test_a_card_after_the_72nd_is_deal_over() -> None:
    deal = build_deal(HANDS, DOG, dealer=3)
    play_out(deal, random.Random(5))
    rec = deal_to_record(deal)
    rec["play"].append(rec["play"][0])
    first = len(rec["bids"]) + ("discard" in rec) + 1
    assert refused(rec) == ("deal_over", "play", None, first + 72)


def test_a_stored_result_that_differs_is_mismatch_with_its_fields() -> None:
    deal = build_deal(HANDS, DOG, dealer=3)
    play_out(deal, random.Random(5))
    rec = deal_to_record(deal)
    rec["result"]["won"] = not rec["result"]["won"]
    out = answer(rec)
    assert out["code"] == "mismatch" and out["fields"] == ["won"]


# ------------------------------------------------------------------------------- malformed


def test_every_malformed_field_is_named() -> None:
    bad: dict[str, Any] = {
        "format": "tarot-deal/9",
        "dealer": 7,
        "hands": [HANDS[0].split()],
        "dog": ["C1", "C2"],
        "bids": "prise",
        "discard": "C1",
        "chelem": "yes",
        "poignees": {"5": []},
        "play": ["Z9"],
        "result": {"void": None},
    }
    for name, value in bad.items():
        out = answer(record(**{name: value}))
        assert (out["code"], out["field"], out["index"]) == ("malformed", name, None), name
    assert answer(["a", "list"])["field"] == "record"
    assert answer(record(format=None))["field"] == "format"
    for name in ("dealer", "hands", "dog", "bids"):
        assert answer(record(**{name: None}))["field"] == name
    # a card dealt twice: in the hands, or again in the dog
    hands = [h.split() for h in HANDS]
    hands[1][0] = "T1"
    assert answer(record(hands=hands))["field"] == "hands"
    assert answer(record(dog=["T1", *DOG.split()[1:]]))["field"] == "dog"


def test_malformed_fields_are_checked_in_the_order_of_notation() -> None:
    order = ["format", "dealer", "hands", "dog", "bids", "discard", "chelem", "poignees", "play"]
    junk: dict[str, Any] = {name: 12345 for name in order}
    junk["result"] = 12345
    names = [*order, "result"]
    rng = random.Random(3)
    for _ in range(40):
        chosen = rng.sample(names, rng.randint(2, 4))
        out = answer(record(**{n: junk[n] for n in chosen}))
        assert out["field"] == min(chosen, key=names.index), chosen


# ------------------------------------------------------------------------------- the engine


def test_engine_errors_carry_code_kind_and_seat_and_keep_their_base_classes() -> None:
    deal = build_deal(HANDS, DOG, dealer=3)
    with pytest.raises(WrongPhaseError) as phase_err:
        deal.play(C.parse_card("T14"))
    assert (phase_err.value.code, phase_err.value.kind) == ("auction_not_over", "play")
    deal.bid(Contract.PRISE)
    for _ in range(3):
        deal.bid(None)
    with pytest.raises(IllegalDiscardError) as discard_err:
        deal.discard_cards(C.parse_cards("SK C2 C3 C4 C5 C6"))
    assert isinstance(discard_err.value, DiscardKingError)
    assert (discard_err.value.code, discard_err.value.kind, discard_err.value.seat) == (
        "discard_king", "discard", 0,
    )  # fmt: skip
    deal.discard_cards(C.parse_cards(DOG))
    deal.announce_chelem(False)
    deal.play(C.parse_card("T14"))
    with pytest.raises(PoigneeSizeError):  # seat 1 is asked; 11 is no poignée size
        deal.declare_poignee(C.parse_cards(" ".join([*SEAT1_POIGNEE, "T20"])))
    deal.declare_poignee([])
    with pytest.raises(IllegalCardError) as card_err:
        deal.play(C.parse_card("T2"))
    assert isinstance(card_err.value, MustOvertrumpError)
    assert (card_err.value.code, card_err.value.kind, card_err.value.seat) == (
        "must_overtrump", "play", 1,
    )  # fmt: skip
    deal.play(C.parse_card("T19"))
    with pytest.raises(PoigneeSizeError) as size_err:  # seat 2 holds 5 trumps: never asked
        deal.declare_poignee(C.parse_cards("T11 T12 T16 T17 T18 S7 S8 S9 S10 SJ"), seat=2)
    assert (size_err.value.code, size_err.value.seat) == ("poignee_size", 2)


def test_every_code_of_the_engine_is_in_notation() -> None:
    import oudler.core.errors as errors

    classes = [c for c in vars(errors).values() if isinstance(c, type)]
    for cls in classes:
        if issubclass(cls, OudlerError):
            assert cls.code in ERROR_CODES, cls


# ------------------------------------------------------------------------------- corpus


def _held(rec: dict[str, Any]) -> list[str]:
    """The kind of each action the record holds, by flat index (record order)."""
    kinds = ["bid"] * len(rec.get("bids") or [])
    if rec.get("discard") is not None:
        kinds.append("discard")
    if rec.get("chelem") is not None:
        kinds.append("chelem")
    return kinds + ["play"] * len(rec.get("play") or [])


def _mutate(rec: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Drop, duplicate or alter one action or one field of a legal record."""
    rec = copy.deepcopy(rec)
    bids = ["pass", "prise", "garde", "garde_sans", "garde_contre"]
    how = rng.choice(["drop", "duplicate", "alter", "alter", "field", "poignee"])
    target = rng.choice(["bids", "discard", "chelem", "play", "play", "play"])
    if how == "field":
        name = rng.choice(["format", "seed", "dealer", "hands", "dog", "bids", "discard",
                           "chelem", "poignees", "play", "result"])  # fmt: skip
        rec[name] = rng.choice([None, 7, "x", [], ["Z1"], {"1": 2}, True])
        return rec
    if how == "poignee" and isinstance(rec.get("hands"), list) and len(rec["hands"]) == 4:
        seat = rng.randrange(4)
        trumps = [c for c in rec["hands"][seat] if str(c).startswith("T") or c == "EX"]
        poignees = rec.get("poignees")
        if not isinstance(poignees, dict):
            poignees = rec["poignees"] = {}
        poignees[str(seat)] = trumps[: rng.choice([9, 10, 11, 13])]
        return rec
    if how == "poignee":
        how = "alter"
    if target == "chelem":
        if how == "drop":
            rec.pop("chelem", None)
        else:
            rec["chelem"] = not rec.get("chelem", False)
        return rec
    items = rec.get(target)
    if not isinstance(items, list) or not items:
        items = rec[target] = ["C1", "C2"] if target == "discard" else ["pass"]
    i = rng.randrange(len(items))
    if how == "drop":
        del items[i]
    elif how == "duplicate":
        items.insert(rng.randrange(len(items) + 1), items[i])
    elif target == "bids":
        items[i] = rng.choice(bids)
    else:
        items[i] = rng.choice(C.CARD_NAMES)
    return rec


def test_damaged_random_records_always_answer_a_code_an_index_or_a_field() -> None:
    rng = random.Random(12)
    bases = [
        json.loads(json.dumps(deal_to_record(play_random_deal(s, random.Random(s)))))
        for s in range(40)
    ]
    seen: set[str] = set()
    for _ in range(1500):
        rec = _mutate(rng.choice(bases), rng)
        if rng.random() < 0.3:
            rec = _mutate(rec, rng)
        out = replay_record(rec).to_dict()
        if out["ok"]:
            assert out.get("unfinished") is not True or isinstance(out["next_index"], int)
            continue
        code = out["code"]
        assert code in ERROR_CODES, out
        seen.add(code)
        if code == "malformed":
            assert out["field"] in (
                "record", "format", "seed", "dealer", "hands", "dog", "bids", "discard",
                "chelem", "poignees", "play", "result",
            ), out  # fmt: skip
            assert out["index"] is None
        elif code == "mismatch":
            assert out["fields"]
        else:
            held = _held(rec)
            index = out["index"]
            assert isinstance(index, int) and 0 <= index <= len(held), out
            kind = out["kind"]
            assert kind in ACTION_KINDS
            if kind == "poignee":
                assert index == len(held) or held[index] == "play", out
            else:
                assert held[index] == kind, (out, held)
            assert out["seat"] is None or 0 <= out["seat"] <= 3
            # every action before the index is legal: the replay stops exactly there
            deal = deal_from_record(rec, upto=index)
            assert isinstance(deal, Deal)
            if kind == "play" and out["seat"] is not None:
                assert deal.to_move == out["seat"] and deal.phase in (Phase.PLAY, Phase.POIGNEE)
    # the corpus reaches the rules of every phase, not only the malformed fields
    assert {"malformed", "mismatch", "card_not_held", "auction_over", "discard_count",
            "discard_duplicate", "bid_not_higher", "poignee_size"} <= seen, seen  # fmt: skip
