"""A person's own play across matches (issue 11): ``GET /api/history`` and, for reviewing a past
match deal by deal, ``GET /api/matches/{id}/deals/{n}``.

Both are computed from the stored actions (each match replayed by the engine, as for any view) and
only from finished deals, whose cards are all shown at the table once they end; the deal in play
is never counted nor shown. The player is the one the signed cookie names.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from oudler.core import Deal
from oudler.tables.games import REPLAY_LENGTH, BadRequest, Tables, Unprocessable
from oudler.tables.store import MatchInfo
from oudler.tables.view import _iso

CONTRACTS = ("prise", "garde", "garde_sans", "garde_contre")
HISTORY_LIMIT = 200  # matches, newest first (as in the list of matches)


@dataclass(frozen=True)
class PastMatch:
    info: MatchInfo
    deals: list[Deal]  # every deal dealt; only finished ones are read
    over: bool
    winners: list[int]
    seat: int  # the player's seat at that table


def past_match(tables: Tables, player: str, match_id: str) -> PastMatch:
    """The match's deals, read under its lock (a finished deal never changes afterwards)."""
    with tables.lock(match_id):
        game = tables.load(match_id, player)
        match = game.match
        over = match.is_over
        winners = match.winners() if over else []
        return PastMatch(game.info, list(match.deals), over, winners, tables.seat(game, player))


def player_history(tables: Tables, player: str) -> dict[str, Any]:
    infos = [info for info, _ in tables.store.list_matches(player, limit=HISTORY_LIMIT)]
    infos.sort(key=lambda i: i.created)  # oldest first: the chart reads left to right
    played = won = in_play = practice = 0
    contracts = {c: {"taken": 0, "made": 0} for c in CONTRACTS}
    deals: list[dict[str, Any]] = []
    pab = {"won": 0, "lost": 0}
    poignees = {"10": 0, "13": 0, "15": 0}
    chelems = 0
    matches: list[dict[str, Any]] = []
    for info in infos:
        past = past_match(tables, player, info.id)
        me = info.seat_of(player)  # where they sat at that table
        assert me is not None
        if info.length == REPLAY_LENGTH:
            practice += 1
        elif past.over:
            played += 1
            won += me in past.winners
        else:
            in_play += 1
        scored = 0
        for number, deal in enumerate(past.deals, start=1):
            r = deal.result
            if not deal.is_over or r is None or r.void is not None:
                continue
            scored += 1
            assert r.contract is not None and r.declarer is not None
            mine = r.declarer == me
            if mine:
                contracts[r.contract.notation]["taken"] += 1
                contracts[r.contract.notation]["made"] += bool(r.won)
            side = "declarer" if mine else "defence"
            if r.petit_au_bout is not None:
                pab["won" if r.petit_au_bout == side else "lost"] += 1
            shown = deal.poignees.get(me)
            if shown:
                poignees[str(shown.bit_count())] += 1
            chelems += mine and r.chelem == "declarer"
            deals.append(
                {
                    "match": info.id,
                    "deal": number,
                    "scored": scored,
                    "created": _iso(info.created),
                    "score": r.scores[me],
                    "contract": r.contract.notation,
                    "declarer": r.declarer,
                    "won": r.won,
                }
            )
        matches.append(
            {
                "id": info.id,
                "created": _iso(info.created),
                "finished": None if info.finished is None else _iso(info.finished),
                "length": info.length,
                "level": info.level,
                "deals": scored,
                "total": sum(d["score"] for d in deals if d["match"] == info.id),
                "won": past.over and me in past.winners,
            }
        )
    return {
        "matches": {"played": played, "won": won, "in_play": in_play, "practice": practice},
        "contracts": contracts,
        "deals": deals,
        "petit_au_bout": pab,
        "poignees": poignees,
        "chelems": chelems,
        "list": matches[::-1],  # newest first, as on the home page
        "since": _iso(infos[0].created) if infos else _iso(dt.datetime.now(dt.UTC)),
    }


def deal_review(tables: Tables, player: str, match_id: str, number: int) -> dict[str, Any]:
    """A finished deal of one of the player's matches, as the table showed it at its end."""
    past = past_match(tables, player, match_id)
    if not 1 <= number <= len(past.deals):
        raise BadRequest(f"match {match_id} has no deal {number}")
    deal = past.deals[number - 1]
    if not deal.is_over:
        raise Unprocessable("this deal is still in play: it can be reviewed once it is over")
    scored_before = sum(
        1 for d in past.deals[: number - 1] if d.is_over and d.result and d.result.void is None
    )
    return {
        "match": match_id,
        "deal": number,
        "scored_before": scored_before,
        "length": past.info.length,
        "level": past.info.level,
        "seed": deal.seed,
        "deals": len(past.deals),
        "observation": deal.observation(past.seat).to_dict(),
    }
