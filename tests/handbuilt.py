"""Hand-built positions from card notation, and a random legal player, for the rules tests."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

import naive_rules
from helpers import random_discard, random_poignee
from oudler.core import Action, Deal, Phase, Trick, parse_bid
from oudler.core import cards as C

# Cards nobody was given fill short hands and the dog in this order: low suit cards first, clubs
# before diamonds, hearts, spades, then Kings, then trumps from the top, the Excuse last. Tests
# that care about a void or a trump count write the whole hand.
_FILL_ORDER = (
    [C.suit_card(s, r) for r in range(1, 14) for s in (3, 2, 1, 0)]
    + [C.suit_card(s, 14) for s in (3, 2, 1, 0)]
    + list(range(20, -1, -1))
    + [C.EXCUSE]
)


def phase(deal: Deal) -> Phase:
    """The deal's phase, read afresh (type checkers keep an asserted phase across actions)."""
    return deal.phase


def mask(text: str) -> int:
    """A set of cards written in notation, space separated: ``mask("T1 EX SK")``."""
    return C.mask_of(C.parse_cards(text))


def names(m: int) -> str:
    return " ".join(C.format_cards(m))


def build_deal(hands: Sequence[str], dog: str | None = None, dealer: int = 3) -> Deal:
    """A ``Deal`` from hands in notation (seats 0.. in order; missing seats are empty). A hand with
    fewer than 18 cards and a missing dog are completed with the cards nobody was given (the dog
    first, then seats 0..3)."""
    given = [mask(h) for h in hands] + [0] * (4 - len(hands))
    dog_mask = mask(dog) if dog is not None else 0
    free = [c for c in _FILL_ORDER if not (dog_mask | sum(given)) >> c & 1]
    if dog is None:
        dog_mask = C.mask_of(free[:6])
        free = free[6:]
    for seat in range(4):
        need = 18 - given[seat].bit_count()
        given[seat] |= C.mask_of(free[:need])
        free = free[need:]
    return Deal(given, dog_mask, dealer)


def start_play(
    deal: Deal,
    bids: Sequence[str],
    discard: str | None = None,
    chelem: bool = False,
) -> Deal:
    """Bid (speaking order), discard (Prise and Garde) and answer the chelem question."""
    for b in bids:
        deal.bid(parse_bid(b))
    if deal.phase is Phase.DISCARD:
        assert discard is not None, "Prise and Garde need a discard"
        deal.discard_cards(C.parse_cards(discard))
    if deal.phase is Phase.CHELEM:
        deal.announce_chelem(chelem)
    return deal


def play_cards(deal: Deal, cards: str, poignees: Mapping[int, str] | None = None) -> Deal:
    """Play cards in order, showing the poignées given by seat and declining the others."""
    poignees = poignees or {}
    for name in cards.split():
        if deal.phase is Phase.POIGNEE:
            shown = poignees.get(deal.to_move, "")
            deal.declare_poignee(C.parse_cards(shown) if shown else [])
        deal.play(C.parse_card(name))
    return deal


def tricks_taken(
    cards: Sequence[int], taken_by: Sequence[int], first_leader: int = 0
) -> list[Trick]:
    """Finished tricks for scoring tests: ``cards`` in play order, four a trick; trick ``i`` is
    taken by ``taken_by[i]``, who leads the next one."""
    assert len(cards) == 4 * len(taken_by)
    tricks = []
    leader = first_leader
    for i, taker in enumerate(taken_by):
        tricks.append(Trick(leader, tuple(cards[4 * i : 4 * i + 4]), taker))
        leader = taker
    return tricks


def deal_from_tricks(tricks: Sequence[str], dog: str, dealer: int, first_leader: int) -> Deal:
    """The deal whose hands hold exactly the cards each seat plays in ``tricks`` (each written in
    play order; the leader of a trick is the winner of the one before, by ``naive_rules``)."""
    hands: list[list[str]] = [[], [], [], []]
    leader = first_leader
    for trick in tricks:
        cards = trick.split()
        for i, name in enumerate(cards):
            hands[(leader + i) % 4].append(name)
        leader = naive_rules.trick_winner(leader, cards)
    return Deal([mask(" ".join(h)) for h in hands], mask(dog), dealer)


def play_tricks(
    deal: Deal, tricks: Sequence[str], poignees: Mapping[int, str] | None = None
) -> Deal:
    """Play written tricks, checking every card against the naive rules as well."""
    for trick in tricks:
        for name in trick.split():
            if deal.phase is Phase.POIGNEE:
                shown = (poignees or {}).get(deal.to_move, "")
                deal.declare_poignee(C.parse_cards(shown) if shown else [])
            hand = set(C.format_cards(deal.hands[deal.to_move]))
            down = [C.CARD_NAMES[c] for c in deal.trick.cards]
            assert name in naive_rules.legal_cards(hand, down), (name, down)
            deal.play(C.parse_card(name))
    return deal


def random_action(deal: Deal, rng: random.Random, pass_rate: float = 0.6) -> Action:
    """A random legal action of the seat to move, built only from the engine's legal queries."""
    phase = deal.phase
    if phase is Phase.PLAY:
        cards = C.cards_of(deal.legal_cards())
        return cards[rng.randrange(len(cards))]
    if phase is Phase.BIDDING:
        bids = deal.legal_bids()
        return None if rng.random() < pass_rate else rng.choice(bids[1:] or [None])
    if phase is Phase.DISCARD:
        return random_discard(deal, rng)
    if phase is Phase.CHELEM:
        return rng.random() < 0.05
    if phase is Phase.POIGNEE:
        sizes = deal.poignee_sizes(deal.to_move)
        if rng.random() < 0.5:
            return []
        size = rng.choice(sizes)
        return random_poignee(deal, deal.to_move, size, rng)
    raise AssertionError(f"no action in phase {phase}")
