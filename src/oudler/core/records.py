"""Deal and match records (`tarot-deal/1`, `tarot-match/1` of spec/notation.md) and replay.

Pure: JSON-ready dicts in and out, no I/O. Writers produce the canonical form (cards in canonical
order, canonical spelling); readers accept any letter case and surrounding spaces and check
everything against the rules by replaying the record through ``Deal``, the one source of truth.

Actions of a record are numbered (the *action index*): the bids, then the discard as one action
(Prise and Garde only), then the chelem announcement as one action (whenever there is a declarer),
then each card of ``play``. A seat's poignée belongs to that seat's first card and shares its index.

A record that cannot be read (unknown card, a card dealt twice, wrong hand sizes, missing field,
bad type) raises ``RecordError``, which names the first bad field; an action the rules forbid,
including one at the wrong time (a fifth call, a discard in a Garde sans, a card played twice),
raises ``RecordActionError``, which carries the engine's code, the action's kind and seat and the
action index. ``replay_record`` turns either into the JSON
object that ``oudler replay --json`` prints (see docs/replay.md).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from oudler.core import cards as C
from oudler.core.deal import (
    DOG_SIZE,
    HAND_SIZE,
    TRICKS,
    Bid,
    Deal,
    DealResult,
    Phase,
    bid_name,
    parse_bid,
)
from oudler.core.errors import IllegalActionError, NotationError, RecordError
from oudler.core.match import MATCH_LENGTHS, Match

DEAL_FORMAT = "tarot-deal/1"
MATCH_FORMAT = "tarot-match/1"

PLAY_SIZE = 4 * TRICKS

# String fields of a result that are compared without regard to case and spaces.
_RESULT_NAMES = ("void", "contract", "petit_au_bout", "chelem")


class RecordActionError(IllegalActionError):
    """An action of a record that the rules forbid. ``index`` is its action index (see the module
    docstring), ``seat`` the seat that took it (None when no seat may take it then), ``kind`` the
    kind of action and ``code`` the engine's code (notation.md); the message says why."""

    def __init__(self, index: int, seat: int | None, message: str, *, code: str, kind: str) -> None:
        super().__init__(message, kind=kind, seat=seat)
        self.index = index
        self.code = code  # type: ignore[misc]  # the engine's code, per instance


# ---------------------------------------------------------------------------------------- writing


def deal_to_record(deal: Deal) -> dict[str, Any]:
    """The ``tarot-deal/1`` record of a deal, finished or not, in canonical form.

    Fields appear in the order of notation.md. A void deal has only ``result`` beyond the hands,
    the dog and the bids; an unfinished deal has the actions taken so far and no ``result``.
    """
    record: dict[str, Any] = {"format": DEAL_FORMAT}
    if deal.seed is not None:
        record["seed"] = deal.seed
    record["dealer"] = deal.dealer
    record["hands"] = [C.format_cards(h) for h in deal.dealt]
    record["dog"] = C.format_cards(deal.dog)
    record["bids"] = [bid_name(b) for b in deal.bids]
    contract = deal.contract
    if deal.void is None and contract is not None:
        if contract.dog_shown and deal.phase is not Phase.DISCARD:
            record["discard"] = C.format_cards(deal.discard)
        if deal.chelem is not None:
            record["chelem"] = deal.chelem
            if deal.poignees:
                record["poignees"] = {
                    str(seat): C.format_cards(shown)
                    for seat, shown in sorted(deal.poignees.items())
                }
            record["play"] = [C.CARD_NAMES[c] for c in deal.play_log]
    if deal.result is not None:
        record["result"] = deal.result.to_dict()
    return record


def match_to_record(match: Match) -> dict[str, Any]:
    """The ``tarot-match/1`` record of a match: every deal in order, void ones included (the
    current one too, even unfinished), and the totals of the scored deals."""
    return {
        "format": MATCH_FORMAT,
        "deals": [deal_to_record(d) for d in match.deals],
        "totals": list(match.totals),
    }


SEAT_FORMAT = "tarot-seat/1"


def seat_record(deal: Deal, seat: int) -> dict[str, Any]:
    """The ``tarot-seat/1`` record of a deal as the person at ``seat`` saw it while it was played
    (a person's data export, docs/accounts.md): a ``tarot-deal/1`` record (``deal_to_record``)
    without what that seat never saw. Other hands are null; the dog is there only when it was
    turned face up; ``discard`` only for the declarer who made it, the others getting the trumps
    forced into it (``discard_trumps``); a petit sec hand as shown; no seed (it decides every
    hand). What the seat saw is what its observation (``build_observation``, the one place of the
    rules of RULES.md §11) shows before the deal ends, not the review shown after it."""
    record = deal_to_record(deal)
    obs = deal.observation(seat)
    out: dict[str, Any] = {"format": SEAT_FORMAT, "seat": seat, "dealer": record["dealer"]}
    out["hands"] = [h if i == seat else None for i, h in enumerate(record["hands"])]
    contract = deal.contract
    # The observation's own rule for the dog before the deal ends (after it, it shows all).
    out["dog"] = record["dog"] if contract is not None and contract.dog_shown else None
    out["bids"] = record["bids"]
    if obs.own_discard is not None and "discard" in record:
        out["discard"] = C.format_cards(obs.own_discard)
    if obs.discard_trumps:
        out["discard_trumps"] = C.format_cards(obs.discard_trumps)
    if obs.petit_sec is not None and obs.petit_sec[0] != seat:
        out["petit_sec"] = {"seat": obs.petit_sec[0], "hand": C.format_cards(obs.petit_sec[1])}
    for name in ("chelem", "poignees", "play", "result"):
        if name in record:
            out[name] = record[name]
    return out


@dataclass(frozen=True)
class SeatDealRecord:
    """A ``tarot-seat/1`` record read and checked (``read_seat_record``)."""

    seat: int
    dealer: int
    hand: int
    dog: int | None
    bids: tuple[Bid, ...]
    discard: tuple[int, ...] | None
    play: tuple[int, ...]
    result: Mapping[str, Any] | None

    @property
    def cards(self) -> int:
        """Every card the record names."""
        out = self.hand | (self.dog or 0) | C.mask_of(self.play) | C.mask_of(self.discard or ())
        return out


def read_seat_record(record: object) -> SeatDealRecord:
    """Read a ``tarot-seat/1`` record (``seat_record``) and check it for form and against what
    one seat can tell: its hand of 18 cards, the others null, a dog of 6 or null (apart from the
    hand), the declarer's discard among the hand and the dog, no card played twice. Without the
    other hands the rules cannot replay it: ``RecordError`` naming the first bad field."""
    if not isinstance(record, Mapping):
        raise RecordError(f"a record is a JSON object, not {_type_name(record)}", field="record")
    fmt = record.get("format")
    if not isinstance(fmt, str) or fmt.strip().lower() != SEAT_FORMAT:
        raise RecordError(f"expected a {SEAT_FORMAT} record, not {fmt!r}", field="format")
    seat = _read_seat(_required(record, "seat"), "'seat'", "seat")
    dealer = _read_seat(_required(record, "dealer"), "'dealer'", "dealer")
    hands = _required(record, "hands")
    if not isinstance(hands, list) or len(hands) != 4:
        raise RecordError("'hands' must be a list of 4 items", field="hands")
    if any(h is not None for i, h in enumerate(hands) if i != seat):
        raise RecordError("'hands' holds another seat's hand", field="hands")
    hand = C.mask_of(_card_list(hands[seat], f"hands[{seat}]", "hands", HAND_SIZE))
    dog = None
    if record.get("dog") is not None:
        dog = C.mask_of(_card_list(record["dog"], "dog", "dog", DOG_SIZE))
        if dog & hand:
            raise RecordError("the dog holds a card of the hand", field="dog")
    bids = _bids(record)
    discard = None
    if record.get("discard") is not None:
        discard = _card_list(record["discard"], "discard", "discard", 6)
        if C.mask_of(discard) & ~(hand | (dog or 0)):
            raise RecordError(
                "the discard holds a card neither held nor in the dog", field="discard"
            )
    play = _card_list(record.get("play") or [], "play", "play", None)
    if len(play) > PLAY_SIZE:
        raise RecordError(f"'play' holds {len(play)} cards, more than {PLAY_SIZE}", field="play")
    result = _result(record)
    return SeatDealRecord(seat, dealer, hand, dog, tuple(bids), discard, play, result)


# ---------------------------------------------------------------------------------------- reading


@dataclass(frozen=True)
class _DealRecord:
    """A deal record read and checked for form (not yet for the rules)."""

    dealer: int
    seed: int | None
    hands: tuple[int, int, int, int]
    dog: int
    bids: tuple[Bid, ...]
    discard: tuple[int, ...] | None
    chelem: bool | None
    poignees: dict[int, tuple[int, ...]]
    play: tuple[int, ...]
    result: Mapping[str, Any] | None


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _type_name(value: object) -> str:
    names = {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}
    if value is None:
        return "null"
    if _is_int(value):
        return "a number"
    return names.get(type(value), type(value).__name__)


def record_format(record: object) -> str:
    """The ``format`` of a record, normalised (``"tarot-deal/1"`` or ``"tarot-match/1"``)."""
    if not isinstance(record, Mapping):
        raise RecordError(f"a record is a JSON object, not {_type_name(record)}", field="record")
    if "format" not in record:
        raise RecordError("the record has no 'format' field", field="format")
    fmt = record["format"]
    if not isinstance(fmt, str):
        raise RecordError(f"'format' must be a string, not {_type_name(fmt)}", field="format")
    key = fmt.strip().lower()
    if key not in (DEAL_FORMAT, MATCH_FORMAT):
        raise RecordError(
            f"unknown record format {fmt!r}: expected {DEAL_FORMAT} or {MATCH_FORMAT}",
            field="format",
        )
    return key


def _bids(record: Mapping[str, Any]) -> list[Bid]:
    """A record's ``bids``: a list of calls in the notation."""
    value = _required(record, "bids")
    if not isinstance(value, list):
        raise RecordError(f"'bids' must be a list, not {_type_name(value)}", field="bids")
    bids: list[Bid] = []
    for i, text in enumerate(value):
        try:
            bids.append(parse_bid(text))
        except NotationError as e:
            raise RecordError(f"'bids', item {i}: {e}", field="bids") from None
    return bids


def _result(record: Mapping[str, Any]) -> Any:
    """A record's stored ``result`` (None: not over), its form checked."""
    result = record.get("result")
    if result is not None:
        if not isinstance(result, Mapping):
            raise RecordError(
                f"'result' must be an object, not {_type_name(result)}", field="result"
            )
        for name in DealResult.REQUIRED:
            if name not in result:
                raise RecordError(f"the stored result has no '{name}' field", field="result")
    return result


def _required(record: Mapping[str, Any], name: str) -> Any:
    if name not in record:
        raise RecordError(f"the record has no '{name}' field", field=name)
    return record[name]


def _card_list(
    value: object, where: str, field: str, size: int | None = None, *, once: bool = True
) -> tuple[int, ...]:
    """Cards read from a list of names. ``once``: a card named twice makes the record malformed
    (hands, dog); otherwise it is an action for the rules to refuse (discard, poignée, play)."""
    if not isinstance(value, list):
        raise RecordError(
            f"'{where}' must be a list of cards, not {_type_name(value)}", field=field
        )
    cards: list[int] = []
    seen = 0
    for i, text in enumerate(value):
        try:
            card = C.parse_card(text)
        except NotationError as e:
            raise RecordError(f"'{where}', item {i}: {e}", field=field) from None
        if once and seen >> card & 1:
            raise RecordError(f"'{where}': card {C.CARD_NAMES[card]} appears twice", field=field)
        seen |= 1 << card
        cards.append(card)
    if size is not None and len(cards) != size:
        raise RecordError(f"'{where}' holds {len(cards)} cards, not {size}", field=field)
    return tuple(cards)


def _read_seat(value: object, where: str, field: str, *, text: bool = False) -> int:
    """A seat 0..3; ``text`` also accepts it written as a string (the keys of 'poignees')."""
    seat = value
    if text and isinstance(value, str) and value.strip().isdigit():
        seat = int(value.strip())
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat <= 3:
        raise RecordError(f"{where} must be a seat 0..3, not {value!r}", field=field)
    return seat


def _read_deal(record: object) -> _DealRecord:
    """Read a deal record for form, field by field in the order of notation.md ("Error codes":
    record, format, dealer, hands, dog, bids, discard, chelem, poignees, play, result; and the
    optional seed, which that list leaves out, right after format), so that the first bad field
    is the one named. Sizes and repeats of the actions (a discard of 5, a
    card played twice, a fifth call) are left to the rules: they are illegal actions."""
    fmt = record_format(record)
    if fmt != DEAL_FORMAT:
        raise RecordError(f"expected a {DEAL_FORMAT} record, not {fmt}", field="format")
    assert isinstance(record, Mapping)

    seed = record.get("seed")
    if seed is not None and not _is_int(seed):
        raise RecordError(
            f"'seed' must be an integer or absent, not {_type_name(seed)}", field="seed"
        )
    dealer = _read_seat(_required(record, "dealer"), "'dealer'", "dealer")

    hands_value = _required(record, "hands")
    if not isinstance(hands_value, list) or len(hands_value) != 4:
        what = f"{len(hands_value)} items" if isinstance(hands_value, list) else "not a list"
        raise RecordError(f"'hands' must be a list of 4 hands ({what})", field="hands")
    hands = [
        C.mask_of(_card_list(h, f"hands[{i}]", "hands", HAND_SIZE))
        for i, h in enumerate(hands_value)
    ]
    dealt = 0
    for i, part in enumerate(hands):
        if dealt & part:
            twice = C.CARD_NAMES[C.cards_of(dealt & part)[0]]
            raise RecordError(f"card {twice} is dealt twice (again in hands[{i}])", field="hands")
        dealt |= part
    dog = C.mask_of(_card_list(_required(record, "dog"), "dog", "dog", DOG_SIZE))
    if dealt & dog:
        twice = C.CARD_NAMES[C.cards_of(dealt & dog)[0]]
        raise RecordError(f"card {twice} is dealt twice (again in the dog)", field="dog")

    bids = _bids(record)

    discard = None
    if "discard" in record and record["discard"] is not None:
        discard = _card_list(record["discard"], "discard", "discard", once=False)

    chelem = record.get("chelem")
    if chelem is not None and not isinstance(chelem, bool):
        raise RecordError(
            f"'chelem' must be true or false, not {_type_name(chelem)}", field="chelem"
        )

    poignees: dict[int, tuple[int, ...]] = {}
    poignees_value = record.get("poignees")
    if poignees_value is not None:
        if not isinstance(poignees_value, Mapping):
            raise RecordError(
                f"'poignees' must be an object, not {_type_name(poignees_value)}",
                field="poignees",
            )
        for key, shown in poignees_value.items():
            seat = _read_seat(key, "a key of 'poignees'", "poignees", text=True)
            if seat in poignees:
                raise RecordError(f"'poignees' names seat {seat} twice", field="poignees")
            poignees[seat] = _card_list(shown, f"poignees.{seat}", "poignees", once=False)

    play_value = record.get("play")
    play: tuple[int, ...] = ()
    if play_value is not None:
        play = _card_list(play_value, "play", "play", once=False)

    result = _result(record)

    return _DealRecord(
        dealer=dealer,
        seed=seed,
        hands=(hands[0], hands[1], hands[2], hands[3]),
        dog=dog,
        bids=tuple(bids),
        discard=discard,
        chelem=chelem,
        poignees=poignees,
        play=play,
        result=result,
    )


# ---------------------------------------------------------------------------------------- replay


@dataclass(frozen=True)
class Step:
    """One action of a record as replayed. A poignée (``kind == "poignee"``) shares the index of
    the card it comes with; ``action`` is written as in notation.md."""

    index: int
    kind: str  # "bid", "discard", "chelem", "poignee" or "card"
    seat: int
    action: Any

    def to_dict(self) -> dict[str, Any]:
        return {"index": self.index, "kind": self.kind, "seat": self.seat, "action": self.action}


@dataclass(frozen=True)
class _Pending:
    step: Step
    apply: Callable[[], None]


class Replayer:
    """Replays a ``tarot-deal/1`` record one action at a time, checking each against the rules.

    ``Replayer(record)`` reads the record (``RecordError`` if it is malformed); ``step()`` applies
    the next action and returns it, or None once the record is exhausted; iterating yields every
    step. ``deal`` is the live state after the last step (``deal.copy()`` to keep one). An illegal
    action raises ``RecordActionError`` and leaves ``deal`` as it was before it.
    """

    def __init__(self, record: object) -> None:
        self.record = _read_deal(record)
        r = self.record
        try:
            self.deal = Deal(list(r.hands), r.dog, r.dealer, seed=r.seed)
        except NotationError as e:  # pragma: no cover - _read_deal already checked the cards
            raise RecordError(str(e)) from None
        self.steps: list[Step] = []
        self._plan = self._actions()
        self._pending: _Pending | None = None
        self._exhausted = False

    @property
    def stored_result(self) -> Mapping[str, Any] | None:
        return self.record.result

    @property
    def next_index(self) -> int | None:
        """The action index of the next step, or None when the record is exhausted."""
        pending = self._peek()
        return None if pending is None else pending.step.index

    def _peek(self) -> _Pending | None:
        if self._pending is None and not self._exhausted:
            self._pending = next(self._plan, None)
            self._exhausted = self._pending is None
        return self._pending

    def step(self) -> Step | None:
        pending = self._peek()
        if pending is None:
            return None
        pending.apply()  # raises before the step is consumed, so a failed step stays failed
        self._pending = None
        self.steps.append(pending.step)
        return pending.step

    def __iter__(self) -> Iterator[Step]:
        while (s := self.step()) is not None:
            yield s

    def run(self, upto: int | None = None) -> Deal:
        """Apply every action (or those with an index below ``upto``) and return the deal."""
        while (pending := self._peek()) is not None:
            if upto is not None and pending.step.index >= upto:
                break
            self.step()
        return self.deal

    # The plan is a generator so that each action is worked out from the state it meets: which
    # seat a card or a poignée belongs to follows from the rules. Every action the record holds
    # is given to the engine in the record's order, so the engine (one source of truth) refuses
    # whatever comes at the wrong time, with its code, at the index the action takes.
    def _actions(self) -> Iterator[_Pending]:
        deal, r = self.deal, self.record
        index = 0
        for bid in r.bids:
            yield self._bid(index, bid)
            index += 1
        if r.discard is not None:
            yield self._discard(index, r.discard)
            index += 1
        if r.chelem is not None:
            yield self._chelem(index, r.chelem)
            index += 1

        shown: set[int] = set()  # seats whose poignée entry has been used
        for i, card in enumerate(r.play):
            if deal.phase is Phase.POIGNEE:
                seat = deal.to_move
                shown.add(seat)
                yield self._poignee(index + i, seat, r.poignees.get(seat, ()))
            seat = deal.to_move
            if deal.phase is Phase.PLAY and not deal.tricks and seat not in shown:
                shown.add(seat)  # its first card: a seat not asked has no poignée to show
                if r.poignees.get(seat):
                    yield self._poignee_not_asked(index + i, seat, r.poignees[seat])
            yield self._card(index + i, card)
        # A poignée shown just before a first card that the record does not hold yet; any
        # other entry left is for a seat the record never brings to its first card.
        end = index + len(r.play)
        if deal.phase is Phase.POIGNEE and r.poignees.get(deal.to_move):
            shown.add(deal.to_move)
            yield self._poignee(end, deal.to_move, r.poignees[deal.to_move])
        for seat, cards in sorted(r.poignees.items()):
            if cards and seat not in shown:
                yield self._poignee(end, seat, cards)

    def _refused(self, index: int, seat: int | None, what: str, e: IllegalActionError) -> None:
        kind = e.kind or "play"
        raise RecordActionError(index, seat, f"{what}: {e}", code=e.code, kind=kind) from e

    def _bid(self, index: int, bid: Bid) -> _Pending:
        deal = self.deal
        seat = deal.seat_of_bid(index)  # each call in turn, from the dealer's right

        def apply() -> None:
            try:
                deal.bid(bid, seat)
            except IllegalActionError as e:
                self._refused(index, seat, f"seat {seat} bids {bid_name(bid)}", e)

        return _Pending(Step(index, "bid", seat, bid_name(bid)), apply)

    def _discard(self, index: int, cards: tuple[int, ...]) -> _Pending:
        deal = self.deal
        seat = deal.declarer  # None before the bidding ends or on a void deal

        def apply() -> None:
            try:
                deal.discard_cards(cards)
            except IllegalActionError as e:
                who = "the discard" if seat is None else f"seat {seat}'s discard"
                self._refused(index, seat, who, e)

        return _Pending(Step(index, "discard", _seat(seat), C.format_cards(cards)), apply)

    def _chelem(self, index: int, announce: bool) -> _Pending:
        deal = self.deal
        seat = deal.declarer

        def apply() -> None:
            try:
                deal.announce_chelem(announce)
            except IllegalActionError as e:
                who = "the chelem announcement" if seat is None else f"seat {seat}'s chelem"
                self._refused(index, seat, who, e)

        return _Pending(Step(index, "chelem", _seat(seat), announce), apply)

    def _poignee(self, index: int, seat: int, cards: tuple[int, ...]) -> _Pending:
        deal = self.deal

        def apply() -> None:
            try:
                deal.declare_poignee(cards, seat)
            except IllegalActionError as e:
                self._refused(index, seat, f"seat {seat} shows a poignée of {len(cards)}", e)

        return _Pending(Step(index, "poignee", seat, C.format_cards(cards)), apply)

    def _poignee_not_asked(self, index: int, seat: int, cards: tuple[int, ...]) -> _Pending:
        deal = self.deal

        def apply() -> None:
            # The engine did not ask this seat for a poignée before its first card.
            try:
                deal.declare_poignee(cards, seat)
            except IllegalActionError as e:
                held = deal.poignee_cards(seat).bit_count()
                raise RecordActionError(
                    index,
                    seat,
                    f"seat {seat} may not show a poignée: that needs at least 10 trumps (the "
                    f"Excuse counting as one) and seat {seat} holds {held}",
                    code=e.code,
                    kind="poignee",
                ) from e
            raise AssertionError("a seat not asked was allowed a poignée")  # pragma: no cover

        return _Pending(Step(index, "poignee", seat, C.format_cards(cards)), apply)

    def _card(self, index: int, card: int) -> _Pending:
        deal = self.deal
        playing = deal.phase is Phase.PLAY or deal.phase is Phase.POIGNEE
        seat = deal.to_move if playing else None  # nobody plays before the play or after it

        def apply() -> None:
            try:
                deal.play(card, seat)
            except IllegalActionError as e:
                if seat is None:
                    self._refused(index, None, f"card {C.CARD_NAMES[card]}", e)
                message = f"seat {seat} plays {C.CARD_NAMES[card]}: {e}{_whose_card(deal, card)}"
                raise RecordActionError(index, seat, message, code=e.code, kind="play") from e

        return _Pending(Step(index, "card", _seat(seat), C.CARD_NAMES[card]), apply)


def _seat(seat: int | None) -> int:
    """Steps name a seat; an action refused for lack of one (no declarer yet, the deal over)
    is shown as seat -1 in its step, which never becomes a step of a legal replay."""
    return -1 if seat is None else seat


def next_action_index(deal: Deal) -> int:
    """The flat action index (notation.md) of the next action of ``deal``: the bids, the
    discard (Prise, Garde), the chelem announcement, then the cards; a poignée asked shares
    the index of the card it comes with."""
    n = len(deal.bids)
    contract = deal.contract
    if contract is not None:
        if contract.dog_shown and deal.phase is not Phase.DISCARD:
            n += 1
        if deal.chelem is not None:
            n += 1
        n += len(deal.play_log)
    return n


def _contract_words(deal: Deal) -> str:
    assert deal.contract is not None
    return deal.contract.notation.replace("_", " ")


def _whose_card(deal: Deal, card: int) -> str:
    """For a card the seat to move does not hold: where it is, and why that seat is to play."""
    seat = deal.to_move
    if deal.hands[seat] >> card & 1:
        return ""
    holder = next((s for s in range(4) if deal.hands[s] >> card & 1), None)
    if holder is None:
        where = "the discard" if deal.discard >> card & 1 else "the dog"
        return f" (it is in {where})"
    why = ""
    if not deal.trick.cards:
        if not deal.tricks:
            why = (
                ": the declarer leads after announcing a chelem"
                if deal.chelem
                else ": the player on the dealer's right leads"
            )
        else:
            why = f": seat {seat} won the last trick and leads"
    return f" (seat {holder} holds it; it is seat {seat}'s turn{why})"


def replay_steps(record: object) -> Iterator[tuple[Step, Deal]]:
    """Each step of a deal record with the live deal just after it (copy it to keep it)."""
    replayer = Replayer(record)
    for step in replayer:
        yield step, replayer.deal


def deal_from_record(record: object, *, upto: int | None = None) -> Deal:
    """Read and replay a ``tarot-deal/1`` record (all of it, or the actions with an index below
    ``upto``). Raises ``RecordError`` if it is malformed, ``RecordActionError`` at an illegal
    action."""
    return Replayer(record).run(upto)


# ---------------------------------------------------------------------------------------- outcome


@dataclass(frozen=True)
class ReplayOutcome:
    """What replaying one record gave; ``to_dict`` is the JSON object of ``oudler replay --json``.

    ``kind`` is "ok", "unfinished", "illegal", "malformed" or "mismatch". For a match record
    ``deal`` is the position of the deal at fault (None for the match as a whole).
    """

    kind: str
    result: dict[str, Any] | None = None
    index: int | None = None
    error: str | None = None
    mismatch: dict[str, dict[str, Any]] = field(default_factory=dict)
    phase: str | None = None
    deal: int | None = None
    code: str | None = None  # notation.md's code: "malformed", "mismatch", or the rule broken
    action: str | None = None  # the kind of the illegal action: bid, discard, chelem...
    seat: int | None = None  # the seat that took the illegal action, where there is one
    field: str | None = None  # the first bad field of a malformed record
    next_index: int | None = None  # where an unfinished deal stands

    @classmethod
    def malformed(cls, error: RecordError, deal: int | None = None) -> ReplayOutcome:
        return cls("malformed", error=str(error), code="malformed", field=error.field, deal=deal)

    @property
    def ok(self) -> bool:
        return self.kind in ("ok", "unfinished")

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"ok": self.ok}
        if self.deal is not None:
            out["deal"] = self.deal
        if self.kind == "ok":
            out["result"] = self.result
        elif self.kind == "unfinished":
            out["result"] = self.result
            out["unfinished"] = True
            if self.phase is not None:
                out["phase"] = self.phase
            out["next_index"] = self.next_index
        elif self.kind == "mismatch":
            out["code"] = "mismatch"
            out["fields"] = list(self.mismatch)
            out["mismatch"] = self.mismatch
        elif self.kind == "malformed":
            out["code"] = "malformed"
            out["field"] = self.field
            out["index"] = None
            out["error"] = self.error
        else:
            out["code"] = self.code
            out["kind"] = self.action
            out["seat"] = self.seat
            out["index"] = self.index
            out["error"] = self.error
        return out


def _same(stored: object, replayed: object) -> bool:
    if isinstance(replayed, bool) or isinstance(stored, bool):
        return isinstance(stored, bool) and stored == replayed
    if isinstance(replayed, str):
        return isinstance(stored, str) and stored.strip().lower() == replayed
    if isinstance(replayed, list):
        return (
            isinstance(stored, list)
            and len(stored) == len(replayed)
            and all(_same(s, r) for s, r in zip(stored, replayed, strict=True))
        )
    if replayed is None:
        return stored is None
    return _is_int(stored) and stored == replayed


def compare_results(
    stored: Mapping[str, Any], replayed: Mapping[str, Any] | None
) -> dict[str, dict[str, Any]]:
    """The required result fields (notation.md) on which a stored result differs from the
    replayed one (None: the replayed deal is unfinished), as ``{field: {stored, replayed}}``."""
    out: dict[str, dict[str, Any]] = {}
    for name in DealResult.REQUIRED:
        mine = None if replayed is None else replayed.get(name)
        theirs = stored.get(name)
        if not _same(theirs, mine):
            out[name] = {"stored": theirs, "replayed": mine}
    return out


def _replay_deal(record: object) -> tuple[ReplayOutcome, Deal | None]:
    try:
        replayer = Replayer(record)
        deal = replayer.run()
    except RecordError as e:
        return ReplayOutcome.malformed(e), None
    except RecordActionError as e:
        outcome = ReplayOutcome(
            "illegal", index=e.index, error=str(e), code=e.code, action=e.kind, seat=e.seat
        )
        return outcome, None
    replayed = None if deal.result is None else deal.result.to_dict()
    stored = replayer.stored_result
    if stored is not None:
        mismatch = compare_results(stored, replayed)
        if mismatch:
            return ReplayOutcome("mismatch", mismatch=mismatch), deal
    if replayed is None:
        outcome = ReplayOutcome(
            "unfinished", phase=deal.phase.value, next_index=next_action_index(deal)
        )
        return outcome, deal
    return ReplayOutcome("ok", result=replayed), deal


def _replay_match(record: Mapping[str, Any]) -> ReplayOutcome:
    try:
        deals = _required(record, "deals")
        if not isinstance(deals, list) or not deals:
            raise RecordError("'deals' must be a non-empty list of deal records", field="deals")
        stored_totals = _required(record, "totals")
        if not isinstance(stored_totals, list) or len(stored_totals) != 4:
            raise RecordError("'totals' must be a list of 4 integers", field="totals")
    except RecordError as e:
        return ReplayOutcome.malformed(e)

    results: list[dict[str, Any] | None] = []
    totals = [0, 0, 0, 0]
    scored = 0
    previous: Deal | None = None
    unfinished: ReplayOutcome | None = None
    for k, item in enumerate(deals):
        if unfinished is not None:
            error = RecordError(
                f"deal {k - 1} is unfinished, yet another deal follows", field="deals"
            )
            return ReplayOutcome.malformed(error, deal=k)
        outcome, deal = _replay_deal(item)
        if not outcome.ok:
            return dataclasses.replace(outcome, deal=k)
        assert deal is not None
        if previous is not None and deal.dealer != (previous.dealer + 1) & 3:
            error = RecordError(
                f"deal {k} is dealt by seat {deal.dealer}, but the deal passes to the "
                f"right: seat {(previous.dealer + 1) & 3} deals it",
                field="dealer",
            )
            return ReplayOutcome.malformed(error, deal=k)
        previous = deal
        results.append(outcome.result)
        if outcome.kind == "unfinished":
            unfinished = outcome
        elif deal.void is None:
            assert deal.result is not None
            scored += 1
            totals = [t + s for t, s in zip(totals, deal.result.scores, strict=True)]
    if scored > max(MATCH_LENGTHS):
        error = RecordError(
            f"a match has at most {max(MATCH_LENGTHS)} scored deals, not {scored}", field="deals"
        )
        return ReplayOutcome.malformed(error)
    if not _same(stored_totals, totals):
        return ReplayOutcome(
            "mismatch", mismatch={"totals": {"stored": stored_totals, "replayed": totals}}
        )
    summary = {"deals": results, "totals": totals}
    if unfinished is not None:
        return dataclasses.replace(unfinished, result=summary)
    return ReplayOutcome("ok", result=summary)


def replay_record(record: object) -> ReplayOutcome:
    """Check every action of a deal or match record and its stored result.

    A deal gives "ok" with the replayed result, "unfinished" (ok too, no result) when the record
    stops early, "illegal" with the action index of the first illegal action, "malformed" (index
    None) when it cannot be read, or "mismatch" when the stored result differs on a required
    field. A match replays its deals in order and stops at the first that fails (``deal``).
    """
    try:
        fmt = record_format(record)
    except RecordError as e:
        return ReplayOutcome.malformed(e)
    if fmt == MATCH_FORMAT:
        assert isinstance(record, Mapping)
        return _replay_match(record)
    return _replay_deal(record)[0]
