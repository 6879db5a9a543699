"""What one seat can infer for certain from its observation, and nothing more.

``infer(obs)`` is a pure function of an ``Observation``: it never sees a ``Deal``, so whatever it
concludes a person in that seat could conclude too. It answers, for every other seat and for the
unseen dog or discard (the "pile", index ``PILE``), which cards that holder surely has (``known``)
and which it may have (``possible``), from these facts (RULES.md §5-§7, §11):

- cards in the seat's hand and cards played are placed;
- every card played is checked against the core's ``legal_mask`` one other card at a time: a card
  whose presence would have made the played card illegal was not in that hand. This gives the
  voids (not following), "no trump" (neither following nor trumping) and "no trump above X"
  (undertrumping: it could not overtrump) without a second copy of the rules of following; the
  Excuse, always legal, says nothing;
- Prise and Garde: the shown dog went to the declarer; its Kings, oudlers and trumps (but the
  forced trumps shown in the discard) are in his hand until played; the discard holds only non-King
  suit cards and the shown trumps; if trumps were forced into it, the declarer kept no non-King
  suit card at all. The declarer knows his own discard;
- Garde sans and Garde contre: the dog is a sixth unseen hand of 6 cards that is never played;
- poignée cards are in their owner's hand until played (or in the discard, for the declarer's
  forced trumps); a poignée showing the Excuse proves its owner has no other trump;
- counting: a card only one holder may have is that holder's; a holder with as many possible cards
  as it holds has exactly those (repeated until nothing changes).

Bids say something about hands too, but only as likelihoods: they are left to the bots.
This is the one place facts about hidden cards are read: club plays from it and the expert's
sampler (``bots.expert.sampler.facts``) deals its worlds from it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache

from oudler.core import cards as C
from oudler.core.deal import DOG_SIZE, HAND_SIZE, Contract, Phase, discard_rule
from oudler.core.observation import Observation
from oudler.core.tricks import LED_TRUMP, TrickState, legal_mask

PILE = 4
"""Index of the dog or discard, a fifth holder that never plays, in ``known`` and ``possible``."""

VOID_TRUMPS = 1 << LED_TRUMP
"""Bit of ``voids`` meaning "holds no trump"; bits 0..3 are the suits S, H, D, C."""

PLAIN = discard_rule(C.SUIT_CARDS)[0]
"""Suit cards that may go to a discard: all but Kings (the core's discard rule with the most plain
cards possible allows exactly these)."""


def _pop(mask: int) -> int:
    return mask.bit_count()


@dataclass(frozen=True)
class Knowledge:
    """Certain facts one seat has about the cards it cannot see (see the module docstring)."""

    seat: int
    declarer: int | None
    contract: Contract | None
    hand: int
    played: int
    """Every card played so far, the trick in progress included."""
    played_by: tuple[int, int, int, int]
    """Cards each seat has played."""
    sizes: tuple[int, int, int, int, int]
    """How many cards each seat holds now, and (index PILE) how many lie in the dog or discard."""
    known: tuple[int, int, int, int, int]
    """Cards each holder surely has now (the seat's own hand for itself)."""
    possible: tuple[int, int, int, int, int]
    """Cards each holder may have now; ``known`` is included."""

    @property
    def voids(self) -> tuple[int, int, int, int]:
        """Suits (bits 0..3) and trumps (``VOID_TRUMPS``) each seat surely lacks now."""
        out = []
        for p in range(4):
            v = 0 if self.possible[p] & C.TRUMPS else VOID_TRUMPS
            for suit in range(4):
                if not self.possible[p] & C.SUIT_MASKS[suit]:
                    v |= 1 << suit
            out.append(v)
        return (out[0], out[1], out[2], out[3])

    @property
    def trump_ceiling(self) -> tuple[int, int, int, int]:
        """The highest trump (a card index) each seat may hold now; -1 when it has none."""
        c = [(self.possible[p] & C.TRUMPS).bit_length() - 1 for p in range(4)]
        return (c[0], c[1], c[2], c[3])

    # ------------------------------------------------------------------ locations

    @property
    def unseen(self) -> int:
        """Cards whose holder the seat cannot name for sure: neither its own, nor played, nor
        known to lie with one holder."""
        placed = self.hand | self.played
        for h in range(5):
            if h != self.seat:
                placed |= self.known[h]
        return C.ALL_CARDS & ~placed

    @property
    def outstanding(self) -> int:
        """Cards still to be played by the other seats (known or not), the pile excluded."""
        m = 0
        for p in range(4):
            if p != self.seat:
                m |= self.possible[p]
        return m

    def holders(self, card: int) -> list[int]:
        """The holders (seats 0..3, or PILE) that may have ``card`` now."""
        return [h for h in range(5) if self.possible[h] >> card & 1]

    def may_hold(self, holder: int, mask: int) -> int:
        """The cards of ``mask`` that ``holder`` may have."""
        return self.possible[holder] & mask

    def is_void(self, seat: int, suit: int) -> bool:
        """``seat`` surely has no card of ``suit`` (0..3, or LED_TRUMP for trumps) now."""
        mask = C.TRUMPS if suit == LED_TRUMP else C.SUIT_MASKS[suit]
        return not self.possible[seat] & mask

    # ------------------------------------------------------------------ counting

    @property
    def trumps_out(self) -> int:
        """Trumps the other seats may still play (not in this hand, not played, not in the pile
        for sure)."""
        return self.outstanding & C.TRUMPS

    @property
    def oudlers_out(self) -> int:
        """Oudlers still to be played by the other seats."""
        return self.outstanding & C.OUDLERS

    @property
    def remaining(self) -> int:
        """Cards still in play: this hand and those the other seats may still play."""
        return self.hand | self.outstanding

    def highest_outstanding(self, mask: int) -> int:
        """The highest card of ``mask`` (one suit, or trumps) another seat may still play, or -1."""
        return (self.outstanding & mask).bit_length() - 1

    def is_master(self, card: int) -> bool:
        """No other seat may hold a higher card of the same suit (or a higher trump). A master
        suit card can still be trumped."""
        if card == C.EXCUSE:
            return False
        mask = C.TRUMPS if card < C.TRUMP_COUNT else C.SUIT_MASKS[C.suit_of(card)]
        return self.highest_outstanding(mask) < card

    # ------------------------------------------------------------------ sides

    def same_side(self, a: int, b: int) -> bool:
        """Seats ``a`` and ``b`` play together in this deal (defenders with each other)."""
        d = self.declarer
        return a == b or (d is not None and a != d and b != d)

    @property
    def partners(self) -> list[int]:
        return [p for p in range(4) if p != self.seat and self.same_side(p, self.seat)]

    @property
    def opponents(self) -> list[int]:
        return [p for p in range(4) if not self.same_side(p, self.seat)]


@cache  # at most 78 cards x 6 led suits x 22 highest trumps
def forbidden_by_play(card: int, led: int, high: int) -> int:
    """Cards a player cannot have held when he played ``card`` on a trick where ``led`` was the
    suit to follow and ``high`` the highest trump: holding any one of them would have made
    ``card`` illegal. The core's ``legal_mask`` is asked card by card (whether a card may be
    played depends on the other cards one at a time: follow, trump, overtrump)."""
    m = 0
    cb = 1 << card
    for x in range(C.NUM_CARDS):
        if x != card and not legal_mask(cb | (1 << x), led, high) >> card & 1:
            m |= 1 << x
    return m


@lru_cache(maxsize=8192)
def _facts_of_trick(leader: int, cards: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """(cards played, cards it cannot have held) per seat from one trick (cached: a finished trick
    is read again at every later decision of the deal)."""
    facts = [[0, 0] for _ in range(4)]
    state = TrickState(leader)
    for i, card in enumerate(cards):
        f = facts[(leader + i) & 3]
        f[0] |= 1 << card
        f[1] |= forbidden_by_play(card, state.led, state.high)
        state.add(card)
    return tuple((f[0], f[1]) for f in facts)


def _trick_facts(obs: Observation) -> tuple[list[int], list[int]]:
    """(played_by, cannot have held) per seat, from every card played so far."""
    played_by = [0, 0, 0, 0]
    cannot = [0, 0, 0, 0]
    tricks: list[tuple[int, tuple[int, ...]]] = [(t.leader, tuple(t.cards)) for t in obs.tricks]
    tricks.append((obs.trick_leader, tuple(obs.trick_cards)))
    for leader, cards in tricks:
        for seat, (played, forbidden) in enumerate(_facts_of_trick(leader, cards)):
            played_by[seat] |= played
            cannot[seat] |= forbidden
    return played_by, cannot


def infer(obs: Observation) -> Knowledge:
    """Everything ``obs.seat`` knows for certain about where the cards are."""
    me = obs.seat
    decl = obs.declarer
    contract = obs.contract
    played_by, cannot = _trick_facts(obs)
    played = played_by[0] | played_by[1] | played_by[2] | played_by[3]

    sizes = [HAND_SIZE - _pop(played_by[p]) for p in range(4)] + [DOG_SIZE]
    if obs.phase is Phase.DISCARD and decl is not None:
        sizes[decl] += DOG_SIZE  # the dog is in the declarer's hand until he discards
        sizes[PILE] = 0
    if obs.phase is Phase.DONE:
        sizes = [0, 0, 0, 0, DOG_SIZE]
    sizes[me] = _pop(obs.hand)

    unknown = C.ALL_CARDS & ~obs.hand & ~played
    known = [0, 0, 0, 0, 0]
    possible = [unknown] * 5
    known[me] = possible[me] = obs.hand

    for p in range(4):
        if p != me:
            possible[p] &= ~cannot[p]

    if contract is not None and contract.dog_shown and obs.dog is not None and decl is not None:
        dog = obs.dog & ~played
        if obs.phase is Phase.DISCARD:
            if decl != me:
                known[decl] |= dog
            possible[PILE] = 0
        elif decl == me:
            own = obs.own_discard or 0
            known[PILE] = possible[PILE] = own
        else:
            forced = obs.discard_trumps
            known[PILE] = forced
            possible[PILE] &= PLAIN | forced
            # Dog cards stay with the declarer, or (plain suit cards only) went to the discard.
            known[decl] |= dog & ~PLAIN & ~forced
            for p in range(4):
                if p not in (me, decl):
                    possible[p] &= ~dog
            if forced:
                possible[decl] &= ~PLAIN  # every discardable suit card went to the discard
    elif obs.phase is Phase.DONE:
        possible[PILE] = 0

    for p, shown in obs.poignees.items():
        if p == me:
            continue
        in_hand = shown & ~played
        if p == decl:
            in_hand &= ~obs.discard_trumps
        known[p] |= in_hand
        if shown & C.EXCUSE_BIT:
            possible[p] &= ~(C.TRUMPS & ~shown)  # the Excuse is shown only with no trump hidden

    _settle(me, sizes, known, possible)
    return Knowledge(
        seat=me,
        declarer=decl,
        contract=contract,
        hand=obs.hand,
        played=played,
        played_by=(played_by[0], played_by[1], played_by[2], played_by[3]),
        sizes=(sizes[0], sizes[1], sizes[2], sizes[3], sizes[4]),
        known=(known[0], known[1], known[2], known[3], known[4]),
        possible=(possible[0], possible[1], possible[2], possible[3], possible[4]),
    )


def _settle(me: int, sizes: list[int], known: list[int], possible: list[int]) -> None:
    """Propagate the certainties until nothing changes (in place)."""
    holders = [h for h in range(5) if h != me]
    changed = True
    while changed:
        changed = False
        for h in holders:
            possible[h] |= known[h]
            if not sizes[h]:
                if possible[h]:
                    possible[h] = known[h] = 0
                    changed = True
                continue
            # A card known to lie with one holder lies with no other.
            others = 0
            for g in holders:
                if g != h:
                    others |= known[g]
            if possible[h] & others:
                possible[h] &= ~others
                changed = True
            if _pop(possible[h]) <= sizes[h] and known[h] != possible[h]:
                known[h] = possible[h]  # every possible card is needed to fill the hand
                changed = True
            elif _pop(known[h]) >= sizes[h] and possible[h] != known[h]:
                possible[h] = known[h]  # the hand is full of known cards
                changed = True
        # A card that only one holder may have is that holder's.
        seen = dup = 0
        for h in holders:
            dup |= seen & possible[h]
            seen |= possible[h]
        for h in holders:
            single = possible[h] & ~dup & ~known[h]
            if single:
                known[h] |= single
                changed = True
