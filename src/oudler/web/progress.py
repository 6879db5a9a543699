"""What a view says while the expert's compiled search is being built: the HTTP routes
(``app``) and the live socket (``live_routes``) add the same ``warming`` field."""

from __future__ import annotations

from typing import Any

from oudler.tables.computer import ComputerPlayers


def warming(computers: ComputerPlayers) -> dict[str, float] | None:
    share = computers.warming()
    return None if share is None else {"progress": round(share, 2)}


def add_warming(computers: ComputerPlayers, view: dict[str, Any]) -> dict[str, Any]:
    """An expert match's view says while its computer players are getting ready."""
    if view.get("level") == "expert":
        progress = warming(computers)
        if progress is not None:
            view["warming"] = progress
    return view
