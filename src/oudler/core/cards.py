"""Cards as small ints and card sets as bits of one Python int.

Card indices follow the canonical order of spec/notation.md, so sorting by index is the canonical
order: trumps T1..T21 are 0..20, the Excuse is 21, then spades, hearts, diamonds and clubs, each
from 1 up to King (14 cards per suit).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from oudler.core.errors import NotationError

Card = int
"""A card index 0..77."""

NUM_CARDS = 78
TRUMP_COUNT = 21
EXCUSE: Card = 21
PETIT: Card = 0  # T1
MONDE: Card = 20  # T21

SUITS = "SHDC"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
RANKS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "C", "Q", "K")
RANK_NAMES = {"J": "jack", "C": "cavalier", "Q": "queen", "K": "king"}

TRUMPS = (1 << TRUMP_COUNT) - 1
EXCUSE_BIT = 1 << EXCUSE
ALL_CARDS = (1 << NUM_CARDS) - 1
SUIT_MASKS = tuple(((1 << 14) - 1) << (22 + 14 * s) for s in range(4))
SUIT_CARDS = SUIT_MASKS[0] | SUIT_MASKS[1] | SUIT_MASKS[2] | SUIT_MASKS[3]
KINGS = sum(1 << (22 + 14 * s + 13) for s in range(4))
OUDLERS = (1 << PETIT) | (1 << MONDE) | EXCUSE_BIT
PETIT_BIT = 1 << PETIT


def suit_card(suit: int, rank: int) -> Card:
    """suit 0..3 (S, H, D, C), rank 1..14 (14 = King)."""
    return 22 + 14 * suit + rank - 1


def trump(n: int) -> Card:
    """Trump number 1..21."""
    return n - 1


def is_trump(card: Card) -> bool:
    return card < TRUMP_COUNT


def suit_of(card: Card) -> int:
    """0..3 for suit cards, -1 for trumps and the Excuse."""
    return (card - 22) // 14 if card >= 22 else -1


def rank_of(card: Card) -> int:
    """Rank 1..14 for suit cards, trump number 1..21, 0 for the Excuse."""
    if card < TRUMP_COUNT:
        return card + 1
    if card == EXCUSE:
        return 0
    return (card - 22) % 14 + 1


def _half_points(card: Card) -> int:
    if card in (PETIT, MONDE, EXCUSE):
        return 9
    if card < TRUMP_COUNT:
        return 1
    return {14: 9, 13: 7, 12: 5, 11: 3}.get(rank_of(card), 1)


HALF_POINTS: tuple[int, ...] = tuple(_half_points(c) for c in range(NUM_CARDS))
"""Card values in half points (an oudler or King 9, Queen 7, Cavalier 5, Jack 3, others 1)."""

# Masks of cards by value, so that a set's value is a few popcounts.
_VALUE_MASKS = tuple(
    (v, sum(1 << c for c in range(NUM_CARDS) if HALF_POINTS[c] == v)) for v in (9, 7, 5, 3, 1)
)


def _name(card: Card) -> str:
    if card < TRUMP_COUNT:
        return f"T{card + 1}"
    if card == EXCUSE:
        return "EX"
    return SUITS[suit_of(card)] + RANKS[rank_of(card) - 1]


CARD_NAMES: tuple[str, ...] = tuple(_name(c) for c in range(NUM_CARDS))
_BY_NAME = {n: c for c, n in enumerate(CARD_NAMES)}


def parse_card(text: str) -> Card:
    """Read a card in any letter case with surrounding spaces: ``" t21 "`` -> T21."""
    if not isinstance(text, str):
        raise NotationError(f"a card must be written as a string, not {text!r}")
    key = text.strip().upper()
    card = _BY_NAME.get(key)
    if card is None:
        raise NotationError(f"unknown card {text!r}")
    return card


def card_name(card: Card) -> str:
    return CARD_NAMES[card]


def describe(card: Card) -> str:
    """Plain-English name for messages: 'the king of hearts', 'T14', 'the Excuse'."""
    if card < TRUMP_COUNT:
        return "the Petit" if card == PETIT else f"T{card + 1}"
    if card == EXCUSE:
        return "the Excuse"
    r = RANKS[rank_of(card) - 1]
    return f"the {RANK_NAMES.get(r, r)} of {SUIT_NAMES[suit_of(card)]}"


def bit(card: Card) -> int:
    return 1 << card


def mask_of(cards: Iterable[Card]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(mask: int) -> list[Card]:
    """The cards of a mask in canonical order."""
    out: list[Card] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def iter_cards(mask: int) -> Iterator[Card]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def count(mask: int) -> int:
    return mask.bit_count()


_M9, _M7, _M5, _M3, _M1 = (m for _, m in _VALUE_MASKS)


def half_points(mask: int) -> int:
    """Value of a set of cards in half points."""
    # Unrolled over _VALUE_MASKS: every scored playout ends here.
    return (
        9 * (mask & _M9).bit_count()
        + 7 * (mask & _M7).bit_count()
        + 5 * (mask & _M5).bit_count()
        + 3 * (mask & _M3).bit_count()
        + (mask & _M1).bit_count()
    )


def highest_trump(mask: int) -> int:
    """Index of the highest trump in mask, or -1."""
    return (mask & TRUMPS).bit_length() - 1


def trumps_above(card: Card) -> int:
    """Mask of trumps strictly higher than trump ``card`` (or all trumps for -1)."""
    return TRUMPS & ~((1 << (card + 1)) - 1)


def format_cards(mask_or_cards: int | Iterable[Card]) -> list[str]:
    """Canonical notation of a set of cards, in canonical order."""
    mask = mask_or_cards if isinstance(mask_or_cards, int) else mask_of(mask_or_cards)
    out: list[str] = []
    while mask:
        low = mask & -mask
        out.append(CARD_NAMES[low.bit_length() - 1])
        mask ^= low
    return out


def parse_cards(texts: Iterable[str] | str, *, allow_duplicates: bool = False) -> list[Card]:
    """Read a JSON-style list of cards, or a space-separated string."""
    items = texts.split() if isinstance(texts, str) else list(texts)
    cards = [parse_card(t) for t in items]
    if not allow_duplicates and len(set(cards)) != len(cards):
        seen: set[int] = set()
        for c in cards:
            if c in seen:
                raise NotationError(f"card {CARD_NAMES[c]} appears twice")
            seen.add(c)
    return cards


def parse_mask(texts: Iterable[str] | str) -> int:
    return mask_of(parse_cards(texts))
