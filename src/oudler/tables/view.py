"""The view of a match sent to the browser (docs/web-api.md, "The view").

Built only from ``Deal.observation(seat)`` of the person's own seat plus match facts that are
public: the results of finished deals, the totals, who sits where. A seed is shown only for a
finished deal, since a deal's seed determines every hand.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from oudler.core import Deal, Match, Phase
from oudler.core import cards as C
from oudler.tables.store import OPEN, MatchInfo, shown_name

SEAT_NAMES = ("South", "East", "North", "West")
COMPUTER_NAMES = {
    # The computer players' names by level and seat (1-3), as the page says them in English
    # (js/i18n.js, ``bot.<level>.<seat>``): a record names them as the table did.
    "random": ("Lucky", "Dicey", "Chance"),
    "novice": ("Léo", "Zoé", "Max"),
    "club": ("Marcel", "Josette", "Gaston"),
    "expert": ("Hélène", "Octave", "Bertrand"),
}


def status_of(match: Match, seat: int, info: MatchInfo) -> str:
    """The table's state for the person at ``seat``: ``waiting`` (a shared table with a seat
    still open), ``your_turn``, ``computer_turn``, ``person_turn`` (another person is to act),
    ``deal_over`` or ``match_over``."""
    deal = match.current
    if not info.full:
        return "waiting"
    if deal.is_over:
        return "match_over" if match.is_over else "deal_over"
    if deal.to_move == seat:
        return "your_turn"
    return "computer_turn" if info.players[deal.to_move] is None else "person_turn"


def sheet_rows(match: Match) -> list[dict[str, Any]]:
    """One row per finished deal, void ones included (their scores are zeros)."""
    rows = []
    for number, deal in enumerate(match.deals, start=1):
        if not deal.is_over or deal.result is None:
            continue
        r = deal.result
        rows.append(
            {
                "deal": number,
                "seed": deal.seed,
                "dealer": deal.dealer,
                "void": r.void,
                "contract": r.contract.notation if r.contract else None,
                "declarer": r.declarer,
                "won": r.won,
                "points": r.points,
                "needed": r.needed,
                "scores": list(r.scores),
            }
        )
    return rows


def reasons_of(deal: Deal, seat: int) -> dict[str, str]:
    """Why each card of the hand at ``seat`` may not be played (or discarded) now, in the
    engine's words. Empty unless that seat is to play a card or to discard."""
    if deal.is_over or deal.to_move != seat:
        return {}
    hand = deal.hands[seat]
    out: dict[str, str] = {}
    if deal.phase is Phase.PLAY:
        legal = deal.legal_cards()
        for card in C.iter_cards(hand & ~legal):
            reason = deal.why_card_illegal(card, seat)
            if reason:
                out[C.CARD_NAMES[card]] = reason
    elif deal.phase is Phase.DISCARD:
        allowed, forced = deal.discard_info()
        # Ask the engine about each card that may not go: put it in an otherwise legal discard
        # (the forced trumps and enough other allowed cards) and take the engine's reason.
        trumps = C.cards_of(allowed & C.TRUMPS)
        plain = C.cards_of(allowed & ~C.TRUMPS)
        legal_discard = trumps[:forced] + plain[: 6 - forced]
        for card in C.iter_cards(hand & ~allowed):
            # Replace a plain card if there is one, so the trump count stays as the rule wants.
            swap = next((i for i, c in enumerate(legal_discard) if c > C.EXCUSE), 0)
            attempt = [*legal_discard[:swap], card, *legal_discard[swap + 1 :]]
            reason = deal.why_discard_illegal(attempt)
            out[C.CARD_NAMES[card]] = reason or "this card may not be discarded"
    return out


def seats_view(info: MatchInfo, seat: int) -> list[dict[str, Any]]:
    """Who sits where, as each person may see it: a person (with the name they chose, or None),
    a computer player or an open seat (with ``reserved``, the name of the account it is kept
    for, if any), and which one is yours (never a player id)."""
    out = []
    for s, who in enumerate(info.players):
        kind = "computer" if who is None else "open" if who == OPEN else "person"
        name = info.names[s] if kind == "person" else None
        entry: dict[str, Any] = {"seat": s, "kind": kind, "you": s == seat} | shown_name(name)
        if kind == "open" and info.reserved[s] is not None:
            entry["reserved"] = info.reserved_names[s]  # kept for this account's name
        out.append(entry)
    return out


def computer_name(level: str, seat: int) -> str:
    """The name of a computer player of ``level`` at ``seat`` (1-3; seat 0 is always a
    person's): the page's, or the level and the seat for a level the page does not name."""
    names = COMPUTER_NAMES.get(level)
    if names is None or not 1 <= seat <= 3:
        return f"{level} ({SEAT_NAMES[seat]})"
    return names[seat - 1]


def players_of(info: MatchInfo) -> list[dict[str, Any]]:
    """Who played at each seat, for a match's record: a person with the name they chose (None
    if they chose none), or a computer player with its level and name. No player id."""
    out: list[dict[str, Any]] = []
    for s, who in enumerate(info.players):
        if who is None:
            out.append(
                {
                    "seat": s,
                    "kind": "computer",
                    "level": info.level,
                    "name": computer_name(info.level, s),
                }
            )
        else:
            name = info.names[s] if who != OPEN else None
            kind = "person" if who != OPEN else "open"
            out.append({"seat": s, "kind": kind} | shown_name(name))
    return out


def build_view(info: MatchInfo, match: Match, version: int, seat: int) -> dict[str, Any]:
    """The view of the person at ``seat``. A table for one person has the keys it always had;
    a shared table adds ``seats`` (``seats_view``)."""
    deal = match.current
    status = status_of(match, seat, info)
    view = {
        "id": info.id,
        "version": version,
        "length": info.length,
        "level": info.level,
        "seat": seat,
        "deal_number": len(match.deals),
        # The seed of a deal in progress would reveal every hand: shown once the deal is over.
        "seed": deal.seed if deal.is_over else None,
        "status": status,
        "totals": list(match.totals),
        "sheet": sheet_rows(match),
        "observation": deal.observation(seat).to_dict(),
        "reasons": reasons_of(deal, seat),
        "winners": match.winners() if status == "match_over" else None,
    }
    if info.shared:
        view["seats"] = seats_view(info, seat)
    return view


def _iso(t: dt.datetime) -> str:
    # SQLite gives back naive datetimes; every stored time is UTC.
    return (t if t.tzinfo else t.replace(tzinfo=dt.UTC)).isoformat()


def summary_of(info: MatchInfo, version: int, seat: int = 0) -> dict[str, Any]:
    """A line of ``GET /api/matches`` for the person at ``seat``: no replay needed, nothing
    hidden."""
    line = {
        "id": info.id,
        "length": info.length,
        "level": info.level,
        "created": _iso(info.created),
        "finished": None if info.finished is None else _iso(info.finished),
        "version": version,
        "totals": info.totals,
        # The match seed decides every deal: shown only once the match is over.
        "seed": info.seed if info.finished is not None else None,
    }
    if info.shared:
        line["seat"] = seat
        line["seats"] = seats_view(info, seat)
        # A seat still open (never taken, or left): the table waits for a friend.
        line["waiting"] = not info.full and info.finished is None
    return line
