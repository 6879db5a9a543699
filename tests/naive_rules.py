"""A deliberately naive second move generator, written only for the tests.

It follows RULES.md §7 word for word with sets of card names and plain if/else, and shares nothing
with the engine's bit tricks: it must not import ``oudler.core.tricks``. The perft tests compare
the number of legal card sequences it finds with the engine's count.
"""

from __future__ import annotations

from dataclasses import dataclass, field

RANK_ORDER = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "C", "Q", "K"]


def is_excuse(name: str) -> bool:
    return name == "EX"


def is_trump(name: str) -> bool:
    return name.startswith("T")


def suit_letter(name: str) -> str:
    """'S', 'H', 'D', 'C' for a suit card, 'T' for a trump, '' for the Excuse."""
    if is_excuse(name):
        return ""
    return name[0]


def trump_number(name: str) -> int:
    return int(name[1:])


def suit_rank(name: str) -> int:
    return RANK_ORDER.index(name[1:])


def suit_to_follow(trick: list[str]) -> str:
    """Set by the first card that is not the Excuse ('' while there is none)."""
    for name in trick:
        if not is_excuse(name):
            return suit_letter(name)
    return ""


def legal_cards(hand: set[str], trick: list[str]) -> set[str]:
    """The cards of ``hand`` that may be played on ``trick`` (cards in play order)."""
    led = suit_to_follow(trick)
    if led == "":
        # Leading, or only the Excuse is down: any card.
        return set(hand)
    allowed: set[str] = set()
    # 1. The Excuse may always be played.
    if "EX" in hand:
        allowed.add("EX")
    # 2. Holding the suit led, follow it (any card of it).
    if led != "T":
        same_suit = {c for c in hand if suit_letter(c) == led}
        if same_suit:
            return allowed | same_suit
    # 3. Void in the suit led, or trumps led: a trump, above the highest one down if possible.
    my_trumps = {c for c in hand if is_trump(c)}
    if my_trumps:
        trumps_down = [trump_number(c) for c in trick if is_trump(c)]
        highest_down = max(trumps_down) if trumps_down else 0
        higher = {c for c in my_trumps if trump_number(c) > highest_down}
        if higher:
            return allowed | higher
        return allowed | my_trumps
    # 4. No trump at all: any card.
    return set(hand)


def trick_winner(leader: int, trick: list[str]) -> int:
    """The seat winning a full trick: highest trump, else highest card of the suit led."""
    seats = [(leader + i) % 4 for i in range(len(trick))]
    best_seat = -1
    best_trump = 0
    for seat, name in zip(seats, trick, strict=True):
        if is_trump(name) and trump_number(name) > best_trump:
            best_trump = trump_number(name)
            best_seat = seat
    if best_seat >= 0:
        return best_seat
    led = suit_to_follow(trick)
    best_rank = -1
    for seat, name in zip(seats, trick, strict=True):
        if suit_letter(name) == led and suit_rank(name) > best_rank:
            best_rank = suit_rank(name)
            best_seat = seat
    return best_seat


@dataclass
class NaivePosition:
    """Hands by seat as sets of names, the trick so far and its leader."""

    hands: list[set[str]]
    leader: int
    trick: list[str] = field(default_factory=list)

    def to_move(self) -> int:
        return (self.leader + len(self.trick)) % 4

    def legal(self) -> set[str]:
        return legal_cards(self.hands[self.to_move()], self.trick)

    def after(self, name: str) -> NaivePosition:
        seat = self.to_move()
        hands = [set(h) for h in self.hands]
        hands[seat].remove(name)
        trick = [*self.trick, name]
        if len(trick) == 4:
            return NaivePosition(hands, trick_winner(self.leader, trick), [])
        return NaivePosition(hands, self.leader, trick)


def perft(position: NaivePosition, depth: int) -> int:
    """Number of legal card sequences of length ``depth`` (fewer if the hands run out)."""
    if depth == 0 or not any(position.hands):
        return 1
    return sum(perft(position.after(name), depth - 1) for name in sorted(position.legal()))
