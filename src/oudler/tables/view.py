"""The view of a match sent to the browser (docs/web-api.md, "The view").

Built only from ``Deal.observation(0)`` (the person's seat) plus match facts that are public: the
results of finished deals, the totals. A seed is shown only for a finished deal, since a deal's
seed determines every hand.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from oudler.core import Deal, Match, Phase
from oudler.core import cards as C
from oudler.tables.store import PERSON, MatchInfo

SEAT_NAMES = ("South", "East", "North", "West")


def status_of(match: Match) -> str:
    deal = match.current
    if deal.is_over:
        return "match_over" if match.is_over else "deal_over"
    return "your_turn" if deal.to_move == PERSON else "computer_turn"


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


def reasons_of(deal: Deal) -> dict[str, str]:
    """Why each card of the person's hand may not be played (or discarded) now, in the engine's
    words. Empty unless the person is to play a card or to discard."""
    if deal.is_over or deal.to_move != PERSON:
        return {}
    hand = deal.hands[PERSON]
    out: dict[str, str] = {}
    if deal.phase is Phase.PLAY:
        legal = deal.legal_cards()
        for card in C.iter_cards(hand & ~legal):
            reason = deal.why_card_illegal(card, PERSON)
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


def build_view(info: MatchInfo, match: Match, version: int) -> dict[str, Any]:
    deal = match.current
    status = status_of(match)
    return {
        "id": info.id,
        "version": version,
        "length": info.length,
        "level": info.level,
        "seat": PERSON,
        "deal_number": len(match.deals),
        # The seed of a deal in progress would reveal every hand: shown once the deal is over.
        "seed": deal.seed if deal.is_over else None,
        "status": status,
        "totals": list(match.totals),
        "sheet": sheet_rows(match),
        "observation": deal.observation(PERSON).to_dict(),
        "reasons": reasons_of(deal),
        "winners": match.winners() if status == "match_over" else None,
    }


def _iso(t: dt.datetime) -> str:
    # SQLite gives back naive datetimes; every stored time is UTC.
    return (t if t.tzinfo else t.replace(tzinfo=dt.UTC)).isoformat()


def summary_of(info: MatchInfo, version: int) -> dict[str, Any]:
    """A line of ``GET /api/matches``: no replay needed, nothing hidden."""
    return {
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
