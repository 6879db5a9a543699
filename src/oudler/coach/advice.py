"""A hint: the coach's choice for the decision at hand, the value of every option, and why."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from oudler.core.observation import Observation

from .engine import evaluate, explain
from .reasons import Reason


@dataclass(frozen=True)
class Advice:
    """``kind``: "bid", "discard", "chelem", "poignee" or "play". ``best`` and the actions of
    ``options`` are in record notation (a card, a bid name, a list of six cards, a bool, the
    cards of a poignée or None for none); ``options`` are (action, value, se), the best first,
    values being the seat's expected deal score. Plain data: picklable."""

    kind: str
    seat: int
    best: Any
    options: list[tuple[Any, float, float]]
    reason: Reason
    worlds: int

    def to_dict(self, lang: str = "en") -> dict[str, Any]:
        return {
            "kind": self.kind,
            "best": self.best,
            "reason": self.reason.text(lang),
            "options": [
                {"action": a, "value": round(v, 1), "se": round(se, 1)} for a, v, se in self.options
            ],
        }


def advise(
    obs: Observation,
    *,
    seed: int,
    budget_ms: int = 700,
    worlds: int | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> Advice:
    """The coach's advice for the seat of ``obs``, whose turn it is (``ValueError`` otherwise).
    ``budget_ms`` of search, or exactly ``worlds`` sampled worlds (reproducible). The result
    depends on the seed and the observation only. ``cancelled``: see ``evaluate``."""
    ev = evaluate(obs, seed=seed, budget_ms=budget_ms, worlds=worlds, cancelled=cancelled)
    return Advice(
        kind=ev.kind,
        seat=obs.seat,
        best=ev.best.action,
        options=[(o.action, o.value, o.se) for o in ev.options],
        reason=explain(ev),
        worlds=max(o.worlds for o in ev.options),
    )
