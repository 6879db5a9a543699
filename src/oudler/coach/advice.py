"""A hint: the coach's choice for the decision at hand, the value of every option, and why."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from oudler.core.observation import Observation

from .engine import RACE_AFTER, RACE_Z, evaluate, explain
from .reasons import Reason


class Shown(NamedTuple):
    """One option as a hint shows it: its action in record notation, the seat's expected deal
    score with it and that value's standard error; ``diff_se``, the standard error of the
    choice's value minus this one's (world by world, 0 for the choice); ``close``, whether it is
    about equal to the choice (within that noise: the hint says so rather than rank them);
    ``worlds``, the worlds it was played in."""

    action: Any
    value: float
    se: float
    diff_se: float = 0.0
    close: bool = False
    worlds: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "action": self.action,
            "value": round(self.value, 1),
            "se": round(self.se, 1),
            "diff_se": round(self.diff_se, 1),
            "close": self.close,
            "worlds": self.worlds,
        }


@dataclass(frozen=True)
class Advice:
    """``kind``: "bid", "discard", "chelem", "poignee" or "play". ``best`` and the actions of
    ``options`` are in record notation (a card, a bid name, a list of six cards, a bool, the
    cards of a poignée or None for none); ``options``, the choice first then by value, every
    value being the seat's expected deal score on the same sampled worlds: the choice's value is
    the highest; none for a forced action (it is not valued). ``stats``: what was measured after
    each option (``reasons.STATS``, in the order of ``options``) and ``extra`` (``Evaluation``),
    kept so that the deal's analysis can quote this advice's own figures. Plain data:
    picklable."""

    kind: str
    seat: int
    best: Any
    options: list[Shown]
    reason: Reason
    worlds: int
    stats: list[dict[str, float]] = field(default_factory=list)
    extra: dict[str, float] = field(default_factory=dict)

    def option_dicts(self) -> list[dict[str, Any]]:
        return [o.to_dict() for o in self.options]

    def to_dict(self, lang: str = "en") -> dict[str, Any]:
        return {
            "kind": self.kind,
            "best": self.best,
            "reason": self.reason.text(lang),
            "options": self.option_dicts(),
        }


def advise(
    obs: Observation,
    *,
    seed: int,
    budget_ms: int = 700,
    worlds: int | None = None,
    cancelled: Callable[[], bool] | None = None,
    cap_ms: int | None = None,
    race_after: int = RACE_AFTER,
    race_z: float = RACE_Z,
    kernel: bool = True,
) -> Advice:
    """The coach's advice for the seat of ``obs``, whose turn it is (``ValueError`` otherwise).
    ``budget_ms`` of search, or exactly ``worlds`` sampled worlds (reproducible; ``cap_ms``:
    fewer if this much wall time passes first). Without the cap the result depends on the seed
    and the observation only. ``cancelled``, ``race_after``, ``race_z``, ``kernel``: see
    ``evaluate``."""
    ev = evaluate(
        obs,
        seed=seed,
        budget_ms=budget_ms,
        worlds=worlds,
        cancelled=cancelled,
        cap_ms=cap_ms,
        race_after=race_after,
        race_z=race_z,
        kernel=kernel,
    )
    valued = [] if ev.forced else ev.options
    return Advice(
        kind=ev.kind,
        seat=obs.seat,
        best=ev.best.action,
        options=[Shown(o.action, o.value, o.se, o.diff_se, o.close, o.worlds) for o in valued],
        reason=explain(ev),
        worlds=max((o.worlds for o in valued), default=0),
        stats=[o.stats for o in valued],
        extra=ev.extra,
    )
