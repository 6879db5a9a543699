"""A person's data (issue 29; docs/accounts.md, "Your data"): everything they played, as one file.

Each match the person can open (``Store.list_matches``: the ones they created or sit at) is replayed
by the engine, as for any view, and each deal written as that person's seat saw it while it was
played (``records.seat_record``: never another hand, an unseen dog or a discard they did not make).
Their hints and undos come from the match record's own code (``Tables._coach_record``), and their
analyses keep their own decisions only.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from oudler.core.records import seat_record
from oudler.tables.games import Tables
from oudler.tables.store import utcnow
from oudler.tables.view import _iso, players_of

EXPORT_FORMAT = "oudler-export/1"


def own_analysis(analysis: Any, seat: int) -> Any:
    """A deal's stored analysis with the decisions of ``seat`` only (at a table with people one
    analysis judges every person's) and without the deal's seed, which decides every hand."""
    if not isinstance(analysis, dict):
        return analysis
    out = {k: v for k, v in analysis.items() if k not in ("seed", "decisions", "total_loss")}
    out["decisions"] = [d for d in analysis.get("decisions", []) if d.get("seat") == seat]
    losses = analysis.get("total_loss") or {}
    out["total_loss"] = {k: v for k, v in losses.items() if k == str(seat)}
    return out


def export_match(tables: Tables, player: str, match_id: str) -> dict[str, Any]:
    """One match as ``player`` saw it."""
    with tables.lock(match_id):
        game = tables.load(match_id, player)
        seat = tables.seat(game, player)
        info = game.info
        players = players_of(info)
        if not info.shared:  # the creator's name is read with seat rows only
            players[0] |= {"name": tables.store.player_name(info.owner)}
        deals = list(game.match.deals)
        out: dict[str, Any] = {
            "id": info.id,
            "created": _iso(info.created),
            "finished": None if info.finished is None else _iso(info.finished),
            "length": info.length,
            "level": info.level,
            "shared": info.shared,
            "seat": seat,
            "players": players,
            "totals": list(game.match.totals),
            "deals": [seat_record(d, seat) for d in deals],
        }
        coach = tables._coach_record(game, seat)
    analyses = []
    for number, deal in enumerate(deals, start=1):
        stored = tables.store.analysis(match_id, number) if deal.is_over else None
        if stored is not None:
            analyses.append({"deal": number, "analysis": own_analysis(stored, seat)})
    out["coach"] = coach
    out["analyses"] = analyses
    return out


def export_data(
    tables: Tables, player: str, account: dict[str, Any] | None, now: dt.datetime | None = None
) -> dict[str, Any]:
    """The whole file: the account (name and when it was made; None for a guest), the name shown
    at tables, and every match, oldest first."""
    infos = [info for info, _ in tables.store.list_matches(player, limit=None)]
    infos.sort(key=lambda i: (i.created, i.id))
    return {
        "format": EXPORT_FORMAT,
        "exported": _iso(now or utcnow()),
        "account": account,
        "name": tables.store.player_name(player),
        "matches": [export_match(tables, player, info.id) for info in infos],
    }
