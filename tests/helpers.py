"""A random-play helper for tests: deals finished by random legal actions."""

from __future__ import annotations

import random

from oudler.core import Action, Contract, Deal, Phase
from oudler.core import cards as C


def random_action(deal: Deal, rng: random.Random) -> Action:
    """A random legal typed action for the seat to move (see ``Deal.act``)."""
    phase = deal.phase
    if phase is Phase.BIDDING:
        bids = deal.legal_bids()
        # Pass more often than not and prefer the next bid up, so that every contract and the
        # all-pass void deal occur.
        if len(bids) == 1 or rng.random() < 0.6:
            return None
        return bids[1] if rng.random() < 0.5 else rng.choice(bids[1:])
    if phase is Phase.DISCARD:
        return random_discard(deal, rng)
    if phase is Phase.CHELEM:
        return rng.random() < 0.05
    if phase is Phase.POIGNEE:
        seat = deal.to_move
        sizes = deal.poignee_sizes(seat)
        if rng.random() < 0.3:
            return []
        size = rng.choice(sizes)
        return random_poignee(deal, seat, size, rng)
    return rng.choice(C.cards_of(deal.legal_cards()))


def random_discard(deal: Deal, rng: random.Random) -> list[int]:
    """Six random cards the declarer may discard, with exactly the trumps he is forced to."""
    allowed, forced = deal.discard_info()
    trumps = C.cards_of(allowed & C.TRUMPS)
    plain = C.cards_of(allowed & ~C.TRUMPS)
    return rng.sample(trumps, forced) + rng.sample(plain, 6 - forced)


def random_poignee(deal: Deal, seat: int, size: int, rng: random.Random) -> list[int]:
    """A poignée of ``size`` random trumps of ``seat``; the Excuse only with every trump shown."""
    shown = deal.poignee_cards(seat)
    trumps = C.cards_of(shown & C.TRUMPS)
    if len(trumps) >= size:
        return rng.sample(trumps, size)
    return [*trumps, C.EXCUSE]


def play_out(deal: Deal, rng: random.Random, *, stop_after: int | None = None) -> Deal:
    """Take random legal actions until the deal is over (or ``stop_after`` actions)."""
    done = 0
    while not deal.is_over and (stop_after is None or done < stop_after):
        deal.act(random_action(deal, rng))
        done += 1
    return deal


def play_random_deal(seed: int, rng: random.Random) -> Deal:
    """The deal of ``seed`` (dealer drawn from ``rng``) played to its end by random legal actions:
    random bids, discards, chelem announcements, poignées and cards. Void deals end at once."""
    deal = Deal.from_seed(seed, rng.randrange(4))
    return play_out(deal, rng)


def first_follow(seed: int = 11) -> tuple[Deal, int, int]:
    """Seed ``seed``'s deal (dealer 3) with seat 0 declaring a Garde contre (club answering the
    other questions) and the first trick led by its leader's lowest legal card: the deal, the
    leader and that card. The next seat is to follow."""
    from oudler.bots import make_bot

    deal = Deal.from_seed(seed, 3)
    for _ in range(4):
        deal.bid(Contract.GARDE_CONTRE if deal.to_move == 0 else None)
    while deal.phase is not Phase.PLAY:
        deal.act(make_bot("club", seed=0).act(deal.observation(deal.to_move)), deal.to_move)
    lead = deal.to_move
    card = min(C.cards_of(deal.observation(lead).legal.cards))
    deal.play(card)
    return deal, lead, card
