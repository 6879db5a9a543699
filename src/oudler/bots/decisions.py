"""The lines of decision records (``oudler-selfplay/1``, docs/selfplay.md): each decision with
what its seat could see then (the seat's own observation, as the bot protocol writes it), the
action taken and, once the deal is over, its result.

Written by ``oudler selfplay`` (with the search's values of each option) and by the export of a
closed duplicate series (people's and computer players' decisions, without values): one format
for both, kept here below the lab and the service so that both use the same writer.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from oudler.core.observation import Observation

FORMAT = "oudler-selfplay/1"


def decision_line(
    obs: Observation,
    action: Any,
    *,
    worlds: int = 0,
    candidates: Sequence[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """One decision: ``obs`` the deciding seat's observation just before it, ``action`` in
    notation (``[]`` for no poignée); ``candidates`` the options a search weighed (None: the
    decision was made without search, or its values were not kept)."""
    return {
        "seat": obs.seat,
        "phase": obs.phase.value,
        "observation": obs.to_dict(),
        "action": action,
        "searched": candidates is not None,
        "worlds": worlds if candidates is not None else 0,
        "candidates": list(candidates or []),
    }


def deal_line(
    index: int, result: dict[str, Any], decisions: list[dict[str, Any]], **extra: Any
) -> dict[str, Any]:
    """One deal's line: its decisions, each given the deciding seat's score (the outcome), and
    the result as ``DealResult.to_dict`` writes it. ``extra``: fields of a line of another
    writer (a series' board and player)."""
    for d in decisions:
        d["score"] = result["scores"][d["seat"]]
    return {"deal": index, **extra, "result": result, "decisions": decisions}
