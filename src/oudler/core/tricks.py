"""The play of the cards (RULES.md §7) as small pure functions over int bit sets.

These are the one source of truth for following, trumping and trick winners: the deal state
machine and the computer players' fast playouts both call them.
"""

from __future__ import annotations

from oudler.core.cards import (
    CARD_NAMES,
    EXCUSE,
    EXCUSE_BIT,
    NUM_CARDS,
    SUIT_MASKS,
    SUIT_NAMES,
    TRUMPS,
    describe,
)
from oudler.core.errors import (
    CardNotHeldError,
    IllegalCardError,
    MustFollowSuitError,
    MustOvertrumpError,
    MustTrumpError,
    TrumpHoldingSuitError,
)

LED_NONE = -1  # no suit set yet: empty trick, or only the Excuse so far
LED_TRUMP = 4  # trumps were led

LAST_TRICK = 17  # index of the 18th and last trick

# suit 0..3 for suit cards, LED_TRUMP for trumps, LED_NONE for the Excuse
CARD_SUIT: tuple[int, ...] = tuple(
    LED_TRUMP if c < 21 else (LED_NONE if c == EXCUSE else (c - 22) // 14) for c in range(NUM_CARDS)
)

# Trumps strictly above trump index h, for h = -1..20 (looked up as _ABOVE[h + 1]).
_ABOVE: tuple[int, ...] = tuple(TRUMPS & ~((1 << (h + 1)) - 1) for h in range(-1, 21))


def legal_mask(hand: int, led: int, high: int) -> int:
    """Cards of ``hand`` that may be played.

    ``led`` is the suit to follow (LED_NONE, 0..3 or LED_TRUMP); ``high`` is the index of the
    highest trump already in the trick, or -1.
    """
    if led < 0:
        return hand
    if led < 4:
        follow = hand & SUIT_MASKS[led]
        if follow:
            return follow | (hand & EXCUSE_BIT)
    trumps = hand & TRUMPS
    if trumps:
        return (trumps & _ABOVE[high + 1] or trumps) | (hand & EXCUSE_BIT)
    return hand


class TrickState:
    """The running state of one trick: who leads, which suit, which card wins so far."""

    __slots__ = ("best", "cards", "high", "leader", "led", "winner")

    def __init__(self, leader: int) -> None:
        self.leader = leader
        self.cards: list[int] = []
        self.led = LED_NONE
        self.high = -1  # highest trump index in the trick
        self.best = -1  # highest card of the led suit when no trump is in
        self.winner = -1  # seat winning so far (-1 while only the Excuse is down)

    def add(self, card: int) -> None:
        cards = self.cards
        seat = (self.leader + len(cards)) & 3
        cards.append(card)
        s = CARD_SUIT[card]
        if s == LED_TRUMP:
            if self.led < 0:
                self.led = LED_TRUMP
            if card > self.high:
                self.high = card
                self.winner = seat
        elif s < 0:  # the Excuse sets nothing and wins nothing
            return
        elif self.led < 0:
            self.led = s
            self.best = card
            self.winner = seat
        elif s == self.led and self.high < 0 and card > self.best:
            self.best = card
            self.winner = seat

    def legal(self, hand: int) -> int:
        return legal_mask(hand, self.led, self.high)

    def seat_of(self, index: int) -> int:
        return (self.leader + index) & 3

    def copy(self) -> TrickState:
        other = TrickState.__new__(TrickState)
        other.leader = self.leader
        other.cards = self.cards.copy()
        other.led = self.led
        other.high = self.high
        other.best = self.best
        other.winner = self.winner
        return other


def trick_winner(leader: int, cards: list[int]) -> int:
    """The seat that wins a complete trick (without the chelem Excuse exception)."""
    t = TrickState(leader)
    for c in cards:
        t.add(c)
    return t.winner


def trick_taker(trick: TrickState, index: int, declarer: int, declarer_tricks: int) -> int:
    """The seat that takes complete trick number ``index`` (0..17): its winner, except that an
    Excuse led to the last trick by a declarer who won the 17 others takes it (RULES.md §8)."""
    if (
        index == LAST_TRICK
        and declarer_tricks == LAST_TRICK
        and trick.leader == declarer
        and trick.cards[0] == EXCUSE
    ):
        return declarer
    return trick.winner


def why_illegal(hand: int, led: int, high: int, card: int) -> str | None:
    """Plain-words reason why ``card`` may not be played now, or None when it may."""
    error = card_error(hand, led, high, card)
    return None if error is None else str(error)


def card_error(hand: int, led: int, high: int, card: int) -> IllegalCardError | None:
    """The error (with its code, notation.md) that playing ``card`` now raises, or None."""
    if not 0 <= card < NUM_CARDS:
        return CardNotHeldError(f"there is no card number {card}", kind="play")
    if not (hand >> card) & 1:
        return CardNotHeldError(f"you do not hold {describe(card)}", kind="play")
    if (legal_mask(hand, led, high) >> card) & 1:
        return None
    if 0 <= led < 4 and hand & SUIT_MASKS[led]:
        suit = SUIT_NAMES[led]
        if card < 21:
            return TrumpHoldingSuitError(
                f"you must follow {suit}: you may not trump while you hold {suit}", kind="play"
            )
        return MustFollowSuitError(f"you must follow {suit}", kind="play")
    trumps = hand & TRUMPS
    if card >= 21:  # a suit card while holding trumps
        if led == LED_TRUMP:
            return MustTrumpError("trumps were led: you must play a trump", kind="play")
        return MustTrumpError(
            f"you have no {SUIT_NAMES[led]}, so you must play a trump", kind="play"
        )
    over = trumps & _ABOVE[high + 1]
    lowest_over = (over & -over).bit_length() - 1
    return MustOvertrumpError(
        f"you must overtrump: {CARD_NAMES[lowest_over]} beats {CARD_NAMES[high]}", kind="play"
    )
