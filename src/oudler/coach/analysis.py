"""A finished deal's decisions judged one by one, each from what its seat could see then.

The record is replayed by the engine (``core.records.Replayer``); before each action of a chosen
seat, that seat's observation is taken from the live deal and handed to the coach with the action
played, which is valued beside the others. Nothing but the observation reaches the coach.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from oudler.core.deal import Phase
from oudler.core.records import Replayer, replay_steps

from .engine import Evaluation, evaluate, explain, paired_se
from .reasons import LANGS

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


def _decision(ev: Evaluation, where: str, lang: str) -> dict[str, Any]:
    assert ev.played is not None
    played = ev.options[ev.played]
    best = ev.best
    if ev.played == 0:
        loss, se = 0.0, 0.0
        reason = explain(ev)
    else:
        loss = max(0.0, best.value - played.value)
        se = paired_se(best, played)
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
        "values": {action_key(o.action): round(o.value, 1) for o in ev.options},
        "options": [
            {"action": o.action, "value": round(o.value, 1), "se": round(o.se, 1)}
            for o in ev.options
        ],
        "reason": texts[lang],
        "reasons": texts,
        "reason_code": reason.to_dict(),
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
    chosen = sorted(set(seats))
    for s in chosen:
        if s not in range(4):
            raise ValueError(f"a seat is 0..3, not {s}")
    ms = DEFAULT_BUDGET_MS if budget_ms is None else budget_ms
    total = sum(1 for step, _ in replay_steps(record) if step.seat in chosen)
    replayer = Replayer(record)
    decisions: list[dict[str, Any]] = []
    losses = {str(s): 0.0 for s in chosen}
    done = 0
    bids = 0
    cards = 0
    if progress is not None:
        progress(0, total)
    while True:
        deal = replayer.deal
        seat = None if deal.is_over else deal.to_move
        obs = deal.observation(seat) if seat in chosen and seat is not None else None
        step = replayer.step()
        if step is None:
            break
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
        ev = evaluate(obs, seed=seed, budget_ms=ms, worlds=worlds, played=played)
        done += 1
        if progress is not None:
            progress(done, total)
        if ev.forced:
            continue  # nothing to judge
        d = _decision(ev, where, lang)
        if trick is not None:
            d["trick"] = trick
        d["index"] = step.index
        decisions.append(d)
        losses[str(ev.seat)] += d["loss"]
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
