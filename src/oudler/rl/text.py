"""One seat's view of a deal as text, built from ``Deal.observation(seat)`` only (RULES.md §11)."""

from __future__ import annotations

from oudler.core import Observation, bid_name
from oudler.core import cards as C
from oudler.encoding import Stepper


def _cards(mask: int) -> str:
    return " ".join(C.format_cards(mask)) or "-"


def describe_observation(obs: Observation, picked: int = 0, poignee_size: int = 0) -> str:
    """Lines of what the seat knows now: its hand, the calls, the shown cards, the tricks."""
    lines = [
        f"seat {obs.seat}, dealer {obs.dealer}, phase {obs.phase.value}, "
        f"to move {'-' if obs.to_move is None else obs.to_move}",
        f"hand: {_cards(obs.hand)}",
    ]
    if obs.bids:
        first = obs.dealer + 1
        calls = ", ".join(f"{(first + i) & 3}:{bid_name(b)}" for i, b in enumerate(obs.bids))
        lines.append(f"bids: {calls}")
    if obs.contract is not None:
        chelem = {None: "undecided", False: "no", True: "announced"}[obs.chelem]
        lines.append(f"contract: {obs.contract.notation} by {obs.declarer}, chelem {chelem}")
    if obs.dog is not None:
        lines.append(f"dog: {_cards(obs.dog)}")
    if obs.own_discard is not None:
        lines.append(f"my discard: {_cards(obs.own_discard)}")
    if obs.discard_trumps:
        lines.append(f"discard trumps: {_cards(obs.discard_trumps)}")
    for s, shown in sorted(obs.poignees.items()):
        lines.append(f"poignee {s}: {_cards(shown)}")
    if poignee_size:
        lines.append(f"showing a poignee of {poignee_size}")
    if picked:
        lines.append(f"picked: {_cards(picked)}")
    for i, t in enumerate(obs.tricks):
        played = " ".join(C.CARD_NAMES[c] for c in t.cards)
        lines.append(f"trick {i + 1}: {t.leader}> {played} ({t.winner})")
    if obs.trick_cards or obs.tricks:
        played = " ".join(C.CARD_NAMES[c] for c in obs.trick_cards)
        lines.append(f"trick {len(obs.tricks) + 1}: {obs.trick_leader}> {played}")
    if obs.excuse_pending:
        lines.append("excuse pending")
    if obs.result is not None:
        lines.append(f"scores: {' '.join(str(s) for s in obs.result.scores)}")
    return "\n".join(lines)


def describe(stepper: Stepper, seat: int) -> str:
    picked, size = stepper.picked_by(seat)
    return describe_observation(stepper.observation(seat), picked, size)
