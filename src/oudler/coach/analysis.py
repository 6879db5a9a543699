"""A finished deal's decisions judged one by one, each from what its seat could see then.

The record is replayed by the engine (``core.records.Replayer``); before each action of a chosen
seat, that seat's observation is taken from the live deal and handed to the coach with the action
played, which is valued beside the others. Nothing but the observation reaches the coach.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from oudler.core import cards as C
from oudler.core.deal import Deal, Phase
from oudler.core.observation import Observation
from oudler.core.records import Replayer

from .advice import Shown
from .engine import CLOSE_POINTS, CLOSE_Z, Evaluation, Option, evaluate, explain, paired_se
from .reasons import LANGS, Reason

DEFAULT_BUDGET_MS = 900
"""Search per decision when no budget is given (a whole deal for one seat: about 20 s)."""


def action_key(action: Any) -> str:
    """An action in notation as a JSON object key: a card or bid name, cards joined by spaces,
    ``true``/``false``, ``none`` for no poignée."""
    if action is None:
        return "none"
    if isinstance(action, bool):
        return "true" if action else "false"
    if isinstance(action, list | tuple):
        return " ".join(str(a) for a in action)
    return str(action)


def _where(kind: str, index: int, seat: int, bids: int, play: int) -> str:
    if kind == "bid":
        return f"bids[{index}]"
    if kind == "card":
        return f"play[{play}]"
    if kind == "poignee":
        return f"poignees.{seat}"
    return kind  # "discard", "chelem"


def _decision(
    ev: Evaluation, where: str, lang: str, reason: Reason | None = None
) -> dict[str, Any]:
    """``reason``: the one to give when the choice was played (a hint's own), else explained."""
    assert ev.played is not None
    played = ev.options[ev.played]
    best = ev.best
    if ev.played == 0:
        loss, se = 0.0, 0.0
        reason = reason or explain(ev)
    else:
        loss = max(0.0, best.value - played.value)
        se = played.diff_se
        reason = explain(ev, ev.played)
    texts = reason.texts()
    return {
        "where": where,
        "seat": ev.seat,
        "kind": ev.kind,
        "played": played.action,
        "best": best.action,
        "loss": round(loss, 1),
        "se": round(se, 1),
        "close": played.close,
        "values": {action_key(o.action): round(o.value, 1) for o in ev.options},
        "options": [
            Shown(o.action, o.value, o.se, o.diff_se, o.close, o.worlds).to_dict()
            for o in ev.options
        ],
        "reason": texts[lang],
        "reasons": texts,
        "reason_code": reason.to_dict(),
    }


@dataclass(frozen=True)
class Point:
    """One decision of a chosen seat in a record: the seat's observation just before it, the
    action played (record notation; ``None`` for no poignée), where it is in the record, its
    trick (cards only) and its flat action index. Plain data: picklable."""

    obs: Observation
    played: Any
    where: str
    trick: int | None
    index: int


def decision_points(record: dict[str, Any], seats: Sequence[int]) -> tuple[list[Point], Deal]:
    """Every decision of ``seats`` in a ``tarot-deal/1`` record, in the order played, and the
    replayed deal. ``RecordError`` or ``RecordActionError`` if the record does not replay."""
    chosen = sorted(set(seats))
    for s in chosen:
        if s not in range(4):
            raise ValueError(f"a seat is 0..3, not {s}")
    replayer = Replayer(record)
    points: list[Point] = []
    bids = 0
    cards = 0
    while True:
        deal = replayer.deal
        seat = None if deal.is_over else deal.to_move
        obs = deal.observation(seat) if seat in chosen and seat is not None else None
        step = replayer.step()
        if step is None:
            return points, replayer.deal
        where = _where(step.kind, step.index, step.seat, bids, cards)
        trick = cards // 4 if step.kind == "card" else None
        bids += step.kind == "bid"
        cards += step.kind == "card"
        if obs is None or step.seat != obs.seat:
            continue
        assert obs.phase is not Phase.DONE
        played = step.action
        if step.kind == "poignee" and not played:
            played = None
        points.append(Point(obs, played, where, trick, step.index))


def _same(kind: str, a: Any, b: Any) -> bool:
    """Two actions of a decision of ``kind`` in notation are one (a discard's or a poignée's
    cards in any order; a poignée valued by its size)."""
    if kind == "discard":
        return sorted(a) == sorted(b)
    if kind == "poignee":
        return (len(a) if a else None) == (len(b) if b else None)
    return bool(a == b)


def from_hint(point: Point, hint: dict[str, Any]) -> tuple[Evaluation, Reason] | None:
    """The decision at ``point`` as the hint given for its position valued it (a hint's stored
    JSON: ``oudler.tables.coaching.hint_payload``), and the hint's reason; its ``played`` is None
    when the hint did not value the action played (a discard its search never considered). None
    when the hint predates the measures a reason needs (``stats``) and another action than its
    choice was played."""
    kind = hint["kind"]
    code = hint["reason_code"]
    reason = Reason(code["code"], code["params"])
    obs = point.obs
    side = "bidder" if kind == "bid" else ("declarer" if obs.seat == obs.declarer else "defence")
    if code["code"] == "forced":
        forced = Option(point.played, 0.0, 0.0, 0)
        return Evaluation(kind, obs.seat, side, [forced], 0, True), reason
    stats: list[dict[str, float]] = hint.get("stats") or []
    measured = len(stats) == len(hint["options"])
    if not measured:  # a hint stored before its measures were: its reason holds for its choice
        stats = [{} for _ in hint["options"]]
    options = [
        Option(o["action"], o["value"], o["se"], o["worlds"], s, (), o["diff_se"], o["close"])
        for o, s in zip(hint["options"], stats, strict=True)
    ]
    played = point.played
    if kind == "play":
        # equivalent cards are valued as the lowest of their run (``engine._representative``)
        cards = sorted(C.parse_card(o.action) for o in options)
        card = C.parse_card(played)
        below = [c for c in cards if c <= card]
        if not below:
            return None
        played = C.card_name(below[-1])
    index = next((i for i, o in enumerate(options) if _same(kind, o.action, played)), None)
    if not measured and index != 0:
        return None
    if index is not None and options[index].action != point.played:
        options[index] = replace(options[index], action=point.played)  # named as played
    ev = Evaluation(kind, obs.seat, side, options, index, False, dict(hint.get("extra", {})))
    return ev, reason


def _anchored(hinted: Evaluation, fresh: Evaluation) -> Evaluation | None:
    """The hint's options and the action played, which the hint did not value: valued by its
    gap to the hint's choice in a search of its own (``fresh``, paired world by world) from the
    hint's value of that choice, so that the hint's figures stand beside it. Found better than
    the hint's choice, it is the choice (the hint never weighed it). None when that search did
    not value the hint's choice."""
    assert fresh.played is not None
    mine = fresh.options[fresh.played]
    best = hinted.best
    theirs = next((o for o in fresh.options if _same(hinted.kind, o.action, best.action)), None)
    if theirs is None:
        return None
    gap = theirs.value - mine.value
    d = paired_se(theirs, mine)
    close = abs(gap) <= max(CLOSE_Z * d, CLOSE_POINTS)
    played = Option(mine.action, best.value - gap, mine.se, mine.worlds, mine.stats, (), d, close)
    if gap < 0:
        options = [replace(played, diff_se=0.0, close=False), replace(best, diff_se=d, close=close)]
        return replace(hinted, options=[*options, *hinted.options[1:]], played=0)
    rest = sorted([*hinted.options[1:], played], key=lambda o: -o.value)
    index = 1 + next(i for i, o in enumerate(rest) if o is played)
    return replace(hinted, options=[best, *rest], played=index)


def judge(
    point: Point,
    *,
    seed: int = 0,
    budget_ms: int | None = None,
    worlds: int | None = None,
    lang: str = "en",
    hint: dict[str, Any] | None = None,
) -> dict[str, Any] | None:
    """One decision judged (an element of ``decisions``), or None when it was forced. ``hint``:
    the hint given for this position, whose figures and reason are then reused rather than
    searched again (another search, on other worlds, could rank the options otherwise and
    charge a person for following the hint). A plain function of plain data: it may run in
    another process."""
    given = None if hint is None else from_hint(point, hint)
    reason = None
    if given is not None and given[0].played is not None:
        ev, reason = given
    else:
        ms = DEFAULT_BUDGET_MS if budget_ms is None else budget_ms
        ev = evaluate(point.obs, seed=seed, budget_ms=ms, worlds=worlds, played=point.played)
        if given is not None:  # an action the hint did not value, set beside its figures
            ev = _anchored(given[0], ev) or ev
    if ev.forced:
        return None
    d = _decision(ev, point.where, lang, reason)
    if point.trick is not None:
        d["trick"] = point.trick
    d["index"] = point.index
    return d


def summary(
    record: dict[str, Any], deal: Deal, seats: Sequence[int], decisions: list[dict[str, Any]]
) -> dict[str, Any]:
    """The analysis of one deal from its judged decisions (``analyze_deal``'s result)."""
    losses = {str(s): 0.0 for s in sorted(set(seats))}
    for d in decisions:
        # a decision about equal to the best (within the estimate's noise) costs nothing: the
        # analysis tab and ``oudler analyze`` do not count it as a loss either
        if not d.get("close"):
            losses[str(d["seat"])] += d["loss"]
    result = deal.result
    return {
        "seed": record.get("seed"),
        "dealer": record.get("dealer"),
        "contract": None if deal.contract is None else deal.contract.notation,
        "declarer": deal.declarer,
        "scores": None if result is None else list(result.scores),
        "decisions": decisions,
        "total_loss": {s: round(v, 1) for s, v in losses.items()},
    }


def analyze_deal(
    record: dict[str, Any],
    seats: Sequence[int] = (0, 1, 2, 3),
    *,
    seed: int = 0,
    budget_ms: int | None = None,
    worlds: int | None = None,
    lang: str = "en",
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """One element of ``deals`` of the ``oudler-analysis/1`` format (docs/analyze.md) for a
    ``tarot-deal/1`` record: every decision of ``seats`` that had a choice, in the order played,
    with ``total_loss`` by seat. ``RecordError`` or ``RecordActionError`` if the record does not
    replay. ``progress(done, total)`` is called as decisions are judged."""
    if lang not in LANGS:
        raise ValueError(f"no such language {lang!r}: one of {', '.join(LANGS)}")
    points, deal = decision_points(record, seats)
    decisions: list[dict[str, Any]] = []
    if progress is not None:
        progress(0, len(points))
    for done, point in enumerate(points, start=1):
        d = judge(point, seed=seed, budget_ms=budget_ms, worlds=worlds, lang=lang)
        if progress is not None:
            progress(done, len(points))
        if d is not None:
            decisions.append(d)
    return summary(record, deal, seats, decisions)
