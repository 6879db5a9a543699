"""The ``novice`` level: the simple rules a beginner is taught, and nothing more.

- Bid by counting oudlers and trumps; never bid a Garde sans or contre.
- Discard the most valuable cards that may go (points saved), then the lowest forced trumps.
- Never announce a chelem; show a single poignée whenever possible.
- Play: win the trick when a card can still win it, with the cheapest such card; otherwise play the
  smallest card. Keep the Petit out of harm unless forced; play the Excuse before the last trick.
  Lead a King when holding one; a declarer long in trumps leads them, from the top.

It remembers nothing and counts nothing beyond its own hand and the trick on the table.
"""

from __future__ import annotations

from oudler.core import Action, Contract, Observation, Phase
from oudler.core import cards as C
from oudler.core.deal import DOG_SIZE, POIGNEE_SIZES
from oudler.core.tricks import TrickState


def _value(card: int) -> int:
    return C.HALF_POINTS[card]


def _count_bid(hand: int) -> Contract | None:
    trumps = (hand & C.TRUMPS).bit_count()
    oudlers = (hand & C.OUDLERS).bit_count()
    if oudlers >= 3 or (oudlers >= 2 and trumps >= 9):
        return Contract.GARDE
    if oudlers >= 2 or (oudlers == 1 and trumps >= 8) or trumps >= 10:
        return Contract.PRISE
    return None


class NoviceBot:
    """A beginner: deterministic rules of thumb (``seed`` is accepted for the common interface)."""

    level = "novice"

    def __init__(self, *, seed: int) -> None:
        self.seed = seed

    def begin_deal(self, seat: int) -> None:
        pass

    def act(self, obs: Observation) -> Action:
        if obs.phase is Phase.BIDDING:
            want = _count_bid(obs.hand)
            return want if want in obs.legal.bids else None
        if obs.phase is Phase.DISCARD:
            return self._discard(obs)
        if obs.phase is Phase.CHELEM:
            return False
        if obs.phase is Phase.POIGNEE:
            return self._poignee(obs)
        if obs.phase is Phase.PLAY:
            return self._card(obs)
        raise ValueError(f"nothing to decide in the {obs.phase.value} phase")

    @staticmethod
    def _discard(obs: Observation) -> list[int]:
        legal = obs.legal
        forced = legal.discard_forced_trumps
        plain = sorted(C.cards_of(legal.discard_allowed & ~C.TRUMPS), key=lambda c: -_value(c))
        trumps = C.cards_of(legal.discard_allowed & C.TRUMPS)  # ascending: lowest first
        return sorted(plain[: DOG_SIZE - forced] + trumps[:forced])

    @staticmethod
    def _poignee(obs: Observation) -> list[int]:
        size = POIGNEE_SIZES[0]
        trumps = C.cards_of(obs.legal.poignee_cards & C.TRUMPS)
        if len(trumps) >= size:
            return trumps[:size]
        return [*trumps, C.EXCUSE]

    @staticmethod
    def _card(obs: Observation) -> int:
        legal = obs.legal.cards
        cards = C.cards_of(legal)
        if len(cards) == 1:
            return cards[0]
        hand_size = obs.hand.bit_count()
        if legal & C.EXCUSE_BIT and hand_size <= 2:
            return C.EXCUSE  # never keep the Excuse for the last trick
        others = [c for c in cards if c != C.EXCUSE]
        trick = TrickState(obs.trick_leader)
        for c in obs.trick_cards:
            trick.add(c)
        if trick.winner < 0:  # leading (or only the Excuse is down)
            return _lead(obs, others)
        winners = []
        for c in others:
            t = TrickState(obs.trick_leader)
            for p in obs.trick_cards:
                t.add(p)
            t.add(c)
            if t.winner == obs.seat:
                winners.append(c)
        if winners:
            # The cheapest winner: the lowest trump, or the lowest suit card that wins.
            safe = [c for c in winners if c != C.PETIT] or winners
            return min(safe, key=lambda c: (c >= C.TRUMP_COUNT, c))
        return min(others, key=lambda c: (c == C.PETIT, _value(c), c >= C.TRUMP_COUNT, c))


def _lead(obs: Observation, cards: list[int]) -> int:
    kings = [c for c in cards if C.KINGS >> c & 1]
    if kings:
        return kings[0]
    trumps = [c for c in cards if c < C.TRUMP_COUNT and c != C.PETIT]
    if obs.declarer == obs.seat and len(trumps) >= 6:
        return trumps[-1]
    plain = [c for c in cards if c >= C.TRUMP_COUNT]
    if plain:
        by_suit: dict[int, list[int]] = {}
        for c in plain:
            by_suit.setdefault(C.suit_of(c), []).append(c)
        longest = max(by_suit.values(), key=len)
        return longest[0]
    return min(cards, key=lambda c: (c == C.PETIT, c))
