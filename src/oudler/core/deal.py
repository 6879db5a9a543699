"""One deal of French Tarot for four as an explicit state machine (RULES.md §3-§9).

A ``Deal`` is created from the four hands and the dog (or from a seed, by the real dealing
procedure). Actions are applied one at a time; each is checked first, so an illegal action raises
an ``IllegalActionError`` that says why and leaves the deal exactly as it was. Legal actions can be
queried for every phase without applying them, and ``observation(seat)`` gives what one seat may
know (RULES.md §11) and nothing else.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

from oudler.core import cards as C
from oudler.core.errors import (
    AuctionNotOverError,
    AuctionOverError,
    BidNotHigherError,
    CardNotHeldError,
    ChelemNoDeclarerError,
    DealOverError,
    DealVoidError,
    DiscardCountError,
    DiscardDuplicateError,
    DiscardKingError,
    DiscardNotHeldError,
    DiscardOudlerError,
    DiscardTrumpsError,
    IllegalActionError,
    IllegalBidError,
    IllegalDiscardError,
    IllegalPoigneeError,
    NotABidError,
    NotAnAnnouncementError,
    NotationError,
    NotYourTurnError,
    PoigneeDuplicateError,
    PoigneeExcuseError,
    PoigneeNotHeldError,
    PoigneeNotTrumpError,
    PoigneeSizeError,
    PoigneeTimingError,
    WrongPhaseError,
)
from oudler.core.observation import Legal, Observation

# The deal's words live in terms.py, below observation.py too; callers still read them here.
from oudler.core.terms import BID_NAMES as BID_NAMES
from oudler.core.terms import Bid as Bid
from oudler.core.terms import Contract as Contract
from oudler.core.terms import DealResult as DealResult
from oudler.core.terms import Phase as Phase
from oudler.core.terms import Trick as Trick
from oudler.core.terms import bid_name as bid_name
from oudler.core.terms import parse_bid as parse_bid
from oudler.core.tricks import (
    CARD_SUIT,
    LAST_TRICK,
    LED_TRUMP,
    TrickState,
    card_error,
    legal_mask,
    trick_taker,
)

HAND_SIZE = 18
DOG_SIZE = 6
TRICKS = 18


_PLAY = Phase.PLAY  # a module global is read faster than an enum member, on the play path


Action = Contract | None | bool | int | list[int]
"""A typed action: a bid, a discard, the chelem announcement, a poignée or a card."""

POIGNEE_SIZES = (10, 13, 15)
POIGNEE_BONUS = {10: 20, 13: 30, 15: 40}
POINTS_NEEDED = (56, 51, 41, 36)


PACKETS = 24  # 72 cards dealt three at a time
DOG_GAPS = range(1, PACKETS)  # a dog card goes between two packets: never first, never last


def deal_cards(seed: int, dealer: int) -> tuple[list[int], int]:
    """The real dealing procedure, seeded: three cards at a time from the dealer's right, and six
    single cards into the dog between packets, never the first or the last card of the pack."""
    rng = random.Random(seed)
    pack = list(range(C.NUM_CARDS))
    rng.shuffle(pack)
    return deal_pack(pack, rng.sample(DOG_GAPS, DOG_SIZE), dealer)


def deal_pack(pack: Sequence[int], dog_gaps: Iterable[int], dealer: int) -> tuple[list[int], int]:
    """Deal ``pack`` (78 cards, top first) by the real procedure: 24 packets of three, the first
    to the dealer's right, then counter-clockwise; before packet ``g`` for each ``g`` of
    ``dog_gaps`` (six distinct numbers 1..23) one single card goes to the dog."""
    gaps = set(dog_gaps)
    if len(gaps) != DOG_SIZE or not gaps <= set(DOG_GAPS):
        raise ValueError(f"the dog takes six cards between packets 1..23, not {sorted(gaps)}")
    if sorted(pack) != list(range(C.NUM_CARDS)):
        raise ValueError("the pack must hold each of the 78 cards once")
    hands = [0, 0, 0, 0]
    dog = 0
    pos = 0
    for packet in range(PACKETS):
        if packet in gaps:
            dog |= 1 << pack[pos]
            pos += 1
        seat = (dealer + 1 + packet) & 3
        for c in pack[pos : pos + 3]:
            hands[seat] |= 1 << c
        pos += 3
    return hands, dog


def discard_rule(hand: int) -> tuple[int, int]:
    """For the declarer's 24 cards: (cards that may be discarded, number of trumps the discard
    must hold). No King or oudler ever; trumps only when there are not six other cards (RULES §5).
    Pure, so that computer players can ask it about hands they imagine."""
    plain = hand & C.SUIT_CARDS & ~C.KINGS
    forced = max(0, DOG_SIZE - plain.bit_count())
    allowed = plain
    if forced:
        allowed |= hand & C.TRUMPS & ~C.OUDLERS
    return allowed, forced


def is_petit_sec(hand: int) -> bool:
    """The Petit as only trump, without the Excuse (Petit + Excuse is not petit sec)."""
    return hand & C.TRUMPS == C.PETIT_BIT and not hand & C.EXCUSE_BIT


def score_formula(
    *, won: bool, diff: int, multiplier: int, pab: int, poignee_bonus: int, chelem_bonus: int
) -> int:
    """D of RULES.md §9: what each defender pays the declarer (negative: receives)."""
    s = 1 if won else -1
    return s * (25 + diff) * multiplier + pab * 10 * multiplier + s * poignee_bonus + chelem_bonus


def chelem_bonus(*, announced: bool, declarer_chelem: bool, defence_chelem: bool) -> int:
    bonus = 0
    if announced:
        bonus += 400 if declarer_chelem else -200
    elif declarer_chelem:
        bonus += 200
    if defence_chelem:
        bonus -= 200
    return bonus


def side_of(seat: int, declarer: int) -> str:
    return "declarer" if seat == declarer else "defence"


def settle_points(half_points: int, oudlers: int) -> tuple[int, int, bool, int]:
    """The declarer's pile in half points and his oudlers -> (points, needed, won, diff).

    Won when points >= needed (equal is won by 0). An odd count (only an Excuse never exchanged
    makes one) gives its half point to the side that wins: 40.5 with 2 oudlers is 40, lost by 1;
    41.5 is 42, won by 1 (RULES.md §9).
    """
    needed = POINTS_NEEDED[oudlers]
    if half_points & 1:
        won = half_points >= 2 * needed
        points = (half_points + 1) // 2 if won else (half_points - 1) // 2
    else:
        points = half_points // 2
        won = points >= needed
    return points, needed, won, abs(points - needed)


def score_deal(
    contract: Contract,
    declarer: int,
    tricks: Sequence[Trick],
    *,
    discard: int,
    dog: int,
    chelem_announced: bool,
    poignees: Iterable[int],
) -> DealResult:
    """Count and score a finished deal (RULES.md §7-§9) from its 18 tricks (each with the seat
    that took it), the discard (Prise, Garde), the dog and the poignées shown (card masks)."""
    d = declarer
    pile = 0  # declarer's cards
    declarer_tricks = 0
    excuse_index = -1
    for i, t in enumerate(tricks):
        c = t.cards
        if t.winner == d:
            declarer_tricks += 1
            pile |= (1 << c[0]) | (1 << c[1]) | (1 << c[2]) | (1 << c[3])
        if C.EXCUSE in c:
            excuse_index = i
    if contract.dog_shown:
        pile |= discard
    elif contract is Contract.GARDE_SANS:
        pile |= dog
    defence_tricks = TRICKS - declarer_tricks

    half = C.half_points(pile & ~C.EXCUSE_BIT)
    exchange: str | None = None
    if excuse_index < 0:  # the Excuse lay in an unseen dog (Garde sans, Garde contre)
        excuse_in_pile = bool(pile & C.EXCUSE_BIT)
        half += 9 if excuse_in_pile else 0
    else:
        t = tricks[excuse_index]
        owner_decl = t.seat_of(t.cards.index(C.EXCUSE)) == d
        if excuse_index == LAST_TRICK:
            exchange = "last_trick"  # goes with the trick, no exchange
            excuse_in_pile = t.winner == d
            half += 9 if excuse_in_pile else 0
        elif owner_decl == (t.winner == d):
            exchange = "same_side"
            excuse_in_pile = owner_decl
            half += 9 if owner_decl else 0
        elif (declarer_tricks if owner_decl else defence_tricks) > 0:
            exchange = "exchanged"  # owner takes it back and gives a half-point card
            excuse_in_pile = owner_decl
            half += 8 if owner_decl else 1
        else:
            exchange = "never"  # counts 4 for its owner; the half point goes to the winner
            excuse_in_pile = owner_decl
            half += 8 if owner_decl else 0

    oudlers = (pile & (C.OUDLERS & ~C.EXCUSE_BIT)).bit_count() + int(excuse_in_pile)
    points, needed, won, diff = settle_points(half, oudlers)

    last = tricks[LAST_TRICK]
    pab_side: str | None = None
    if C.PETIT in last.cards:
        pab_side = side_of(last.winner, d)
    elif (
        last.cards[0] == C.EXCUSE
        and last.winner == d
        and last.leader == d
        and declarer_tricks == TRICKS
        and tricks[LAST_TRICK - 1].card_of(d) == C.PETIT
    ):
        pab_side = "declarer"  # chelem: a Petit played in trick 17 counts as au bout
    pab = 1 if pab_side == "declarer" else -1 if pab_side == "defence" else 0

    chelem_side = (
        "declarer" if declarer_tricks == TRICKS else "defence" if defence_tricks == TRICKS else None
    )
    cbonus = chelem_bonus(
        announced=chelem_announced,
        declarer_chelem=chelem_side == "declarer",
        defence_chelem=chelem_side == "defence",
    )
    pbonus = sum(POIGNEE_BONUS[m.bit_count()] for m in poignees) if poignees else 0
    m = contract.multiplier
    per_def = score_formula(
        won=won, diff=diff, multiplier=m, pab=pab, poignee_bonus=pbonus, chelem_bonus=cbonus
    )
    scores = [-per_def] * 4
    scores[d] = 3 * per_def
    return DealResult(
        void=None,
        scores=(scores[0], scores[1], scores[2], scores[3]),
        contract=contract,
        declarer=d,
        oudlers=oudlers,
        points=points,
        needed=needed,
        won=won,
        petit_au_bout=pab_side,
        chelem=chelem_side,
        half_points=half,
        diff=diff,
        multiplier=m,
        poignee_bonus=pbonus,
        chelem_bonus=cbonus,
        chelem_announced=chelem_announced,
        per_defender=per_def,
        excuse_exchange=exchange,
    )


def imposed_calls(dealer: int, declarer: int, contract: Contract) -> list[Bid]:
    """The calls of an imposed contract, in speaking order from the dealer's right: the
    declarer's contract, a pass from every other seat (each seat speaks once, RULES.md §4)."""
    return [contract if (dealer + 1 + i) & 3 == declarer else None for i in range(4)]


class Deal:
    """A deal from the hands as dealt to the final score."""

    def __init__(
        self, hands: Sequence[int], dog: int, dealer: int, *, seed: int | None = None
    ) -> None:
        if len(hands) != 4:
            raise NotationError(f"a deal has 4 hands, not {len(hands)}")
        if not 0 <= dealer <= 3:
            raise NotationError(f"the dealer is a seat 0..3, not {dealer}")
        for i, h in enumerate(hands):
            if h.bit_count() != HAND_SIZE:
                raise NotationError(f"hand {i} has {h.bit_count()} cards, not {HAND_SIZE}")
        if dog.bit_count() != DOG_SIZE:
            raise NotationError(f"the dog has {dog.bit_count()} cards, not {DOG_SIZE}")
        union = dog
        for h in hands:
            if union & h:
                dup = C.format_cards(union & h)
                raise NotationError(f"card {dup[0]} is dealt twice")
            union |= h
        if union != C.ALL_CARDS:  # pragma: no cover - sizes and disjointness imply it
            raise NotationError("the hands and the dog must hold all 78 cards")

        self.seed = seed
        self.dealer = dealer
        self.dealt: tuple[int, int, int, int] = (hands[0], hands[1], hands[2], hands[3])
        self.dog = dog
        self.hands = list(hands)
        self.bids: list[Bid] = []
        self.contract: Contract | None = None
        self.declarer: int | None = None
        self.discard = 0
        self.chelem: bool | None = None
        self.poignees: dict[int, int] = {}
        self._poignee_done: set[int] = set()
        self.tricks: list[Trick] = []
        self.trick = TrickState((dealer + 1) & 3)
        self.play_log: list[int] = []
        self._legal = 0  # the seat to move's legal cards, once legal_cards() has looked
        self.to_move = (dealer + 1) & 3
        self.void: str | None = None
        self.petit_sec_seat: int | None = None
        self.result: DealResult | None = None
        self.phase = Phase.BIDDING
        for i in range(4):
            seat = (dealer + 1 + i) & 3
            if is_petit_sec(hands[seat]):
                self.petit_sec_seat = seat
                self._finish_void("petit_sec")
                break

    # ------------------------------------------------------------------ creation

    @classmethod
    def from_seed(cls, seed: int, dealer: int) -> Deal:
        hands, dog = deal_cards(seed, dealer)
        return cls(hands, dog, dealer, seed=seed)

    def copy(self) -> Deal:
        """An independent copy (finished tricks and the result are immutable and shared)."""
        other = Deal.__new__(Deal)
        state = self.__dict__.copy()
        state["hands"] = self.hands.copy()
        state["bids"] = self.bids.copy()
        state["poignees"] = self.poignees.copy()
        state["_poignee_done"] = self._poignee_done.copy()
        state["tricks"] = self.tricks.copy()
        state["play_log"] = self.play_log.copy()
        state["trick"] = self.trick.copy()
        other.__dict__.update(state)
        return other

    # ------------------------------------------------------------------ helpers

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.DONE

    @property
    def highest_bid(self) -> Contract | None:
        best: Contract | None = None
        for b in self.bids:
            if b is not None and (best is None or b > best):
                best = b
        return best

    def seat_of_bid(self, index: int) -> int:
        return (self.dealer + 1 + index) & 3

    def _check_phase(self, phase: Phase, seat: int | None, kind: str) -> None:
        if self.phase is not phase:
            raise self._phase_error(kind, seat)
        if seat is not None and seat != self.to_move:
            raise NotYourTurnError(
                f"it is seat {self.to_move}'s turn, not seat {seat}'s", kind=kind, seat=seat
            )

    def _phase_error(self, kind: str, seat: int | None) -> IllegalActionError:
        """Why an action of ``kind`` (notation.md's kinds) cannot be taken in this phase."""
        phase = self.phase
        if seat is None and phase is not Phase.DONE:
            seat = self.to_move
        if kind == "poignee":
            return PoigneeTimingError(
                "a poignée is shown only just before your first card, when you are asked",
                kind=kind,
                seat=seat,
            )
        if kind == "bid" and len(self.bids) >= 4:
            return AuctionOverError(
                "the bidding is over: each player speaks exactly once", kind=kind, seat=seat
            )
        if phase is Phase.BIDDING:
            left = 4 - len(self.bids)
            return AuctionNotOverError(
                f"the bidding is not over: {left} player(s) still to speak", kind=kind, seat=seat
            )
        if self.void is not None:
            if self.void == "petit_sec":
                why = (
                    f"the deal is void, seat {self.petit_sec_seat} holds the petit sec (the Petit "
                    "as only trump, without the Excuse)"
                )
            else:
                why = "the deal is void: all four passed"
            if kind == "chelem":
                return ChelemNoDeclarerError(
                    f"there is no declarer to announce a chelem: {why}", kind=kind, seat=seat
                )
            what = {"bid": "bid", "discard": "discard", "play": "card"}.get(kind, "action")
            return DealVoidError(f"no {what} is possible: {why}", kind=kind, seat=seat)
        if kind == "play" and phase is Phase.DONE:
            return DealOverError("the deal is over: all 72 cards are played", kind=kind, seat=seat)
        contract = self.contract
        if kind == "discard" and contract is not None and not contract.dog_shown:
            words = contract.notation.replace("_", " ")
            return WrongPhaseError(
                f"a {words} has no discard: the dog stays face down", kind=kind, seat=seat
            )
        wanted = {"bid": "bidding"}.get(kind, kind)
        return WrongPhaseError(
            f"this is the {phase.value} phase, not the {wanted} phase", kind=kind, seat=seat
        )

    def _finish_void(self, reason: str) -> None:
        self.void = reason
        self.phase = Phase.DONE
        self.result = DealResult(void=reason, scores=(0, 0, 0, 0))

    # ------------------------------------------------------------------ bidding

    def legal_bids(self) -> list[Bid]:
        if self.phase is not Phase.BIDDING:
            return []
        high = self.highest_bid
        return [None, *[c for c in Contract if high is None or c > high]]

    def why_bid_illegal(self, bid: Bid) -> str | None:
        error = self.bid_error(bid)
        return None if error is None else str(error)

    def bid_error(self, bid: Bid) -> IllegalBidError | None:
        """The error (with its code) that this call raises in the bidding, or None."""
        if bid is not None and not isinstance(bid, Contract):
            return NotABidError(
                f"{bid!r} is not a bid: pass, prise, garde, garde sans or garde contre", kind="bid"
            )
        high = self.highest_bid
        if bid is not None and high is not None and bid <= high:
            higher = " or ".join(c.notation for c in Contract if c > high) or "nothing"
            return BidNotHigherError(
                f"a bid must be higher than {high.notation.replace('_', ' ')}: "
                f"pass, or bid {higher}",
                kind="bid",
            )
        return None

    def bid(self, bid: Bid, seat: int | None = None) -> None:
        self._check_phase(Phase.BIDDING, seat, "bid")
        error = self.bid_error(bid)
        if error is not None:
            error.seat = self.to_move
            raise error
        self.bids.append(bid)
        self.to_move = (self.to_move + 1) & 3
        if len(self.bids) < 4:
            return
        high = self.highest_bid
        if high is None:
            self._finish_void("all_pass")
            return
        self.contract = high
        self.declarer = self.seat_of_bid(self.bids.index(high))
        self.to_move = self.declarer
        if high.dog_shown:
            self.hands[self.declarer] |= self.dog
            self.phase = Phase.DISCARD
        else:
            self.phase = Phase.CHELEM

    def impose(self, declarer: int, contract: Contract) -> None:
        """Start the deal after the bidding with ``declarer`` holding ``contract``: the imposed
        taker of FFT duplicate, where each deal's case names them and the bidding is not
        played. The case's calls (``imposed_calls``) go through ``bid``, so the state after
        them is the one the same bidding reaches at the table: the dog taken for a Prise or a
        Garde (``DISCARD``), else the chelem question, the declarer to act."""
        if not isinstance(contract, Contract):
            raise NotationError(f"an imposed contract is a Contract, not {contract!r}")
        if not 0 <= declarer <= 3:
            raise NotationError(f"the declarer is a seat 0..3, not {declarer!r}")
        if self.phase is not Phase.BIDDING:
            raise self._phase_error("bid", None)  # a petit sec, or the bidding is over
        if self.bids:
            raise WrongPhaseError(
                f"a contract is imposed before anyone speaks: {len(self.bids)} call(s) made",
                kind="bid",
                seat=self.to_move,
            )
        for call in imposed_calls(self.dealer, declarer, contract):
            self.bid(call)

    # ------------------------------------------------------------------ discard

    def discard_info(self) -> tuple[int, int]:
        """(cards that may be discarded, number of trumps the discard must hold)."""
        assert self.declarer is not None
        return discard_rule(self.hands[self.declarer])

    def why_discard_illegal(self, cards: Iterable[int]) -> str | None:
        error = self.discard_error(cards)
        return None if error is None else str(error)

    def discard_error(self, cards: Iterable[int]) -> IllegalDiscardError | None:
        """The error (with its code) that this discard raises in the discard phase, or None."""
        cards = list(cards)
        if reason := _not_cards(cards):
            return DiscardNotHeldError(reason, kind="discard")
        if len(cards) != DOG_SIZE:
            return DiscardCountError(
                f"the discard is exactly {DOG_SIZE} cards, not {len(cards)}", kind="discard"
            )
        mask = C.mask_of(cards)
        if mask.bit_count() != DOG_SIZE:
            return DiscardDuplicateError("the discard names a card twice", kind="discard")
        assert self.declarer is not None
        hand = self.hands[self.declarer]
        if mask & ~hand:
            return DiscardNotHeldError(
                f"you do not hold {C.describe(C.cards_of(mask & ~hand)[0])}", kind="discard"
            )
        if mask & C.KINGS:
            king = C.describe(C.cards_of(mask & C.KINGS)[0])
            return DiscardKingError(f"a King may not be discarded ({king})", kind="discard")
        if mask & C.OUDLERS:
            oudler = C.describe(C.cards_of(mask & C.OUDLERS)[0])
            return DiscardOudlerError(f"an oudler may not be discarded ({oudler})", kind="discard")
        _, forced = self.discard_info()
        trumps = (mask & C.TRUMPS).bit_count()
        if trumps > forced:
            if forced == 0:
                return DiscardTrumpsError(
                    "a trump may be discarded only when there are not six other cards to discard",
                    kind="discard",
                )
            return DiscardTrumpsError(
                f"you may discard only {forced} trump(s): discard every other card you can first",
                kind="discard",
            )
        if trumps < forced:  # pragma: no cover - six cards and too few trumps: impossible
            return DiscardTrumpsError(f"you must discard {forced} trump(s)", kind="discard")
        return None

    def discard_cards(self, cards: Iterable[int], seat: int | None = None) -> None:
        self._check_phase(Phase.DISCARD, seat, "discard")
        cards = list(cards)
        error = self.discard_error(cards)
        if error is not None:
            error.seat = self.to_move
            raise error
        assert self.declarer is not None
        self.discard = C.mask_of(cards)
        self.hands[self.declarer] &= ~self.discard
        self.phase = Phase.CHELEM

    @property
    def discard_trumps(self) -> int:
        """Trumps forced into the discard: public (RULES.md §5)."""
        return self.discard & C.TRUMPS

    # ------------------------------------------------------------------ chelem

    def announce_chelem(self, announce: bool, seat: int | None = None) -> None:
        self._check_phase(Phase.CHELEM, seat, "chelem")
        if not isinstance(announce, bool):
            raise NotAnAnnouncementError(
                "the chelem announcement is yes or no", kind="chelem", seat=self.to_move
            )
        assert self.declarer is not None
        self.chelem = announce
        leader = self.declarer if announce else (self.dealer + 1) & 3
        self.trick = TrickState(leader)
        self.to_move = leader
        self.phase = Phase.PLAY
        self._maybe_poignee()

    # ------------------------------------------------------------------ poignée

    def poignee_cards(self, seat: int) -> int:
        """The cards ``seat`` could show in a poignée: its trumps and Excuse (and, for the
        declarer, the trumps forced into the discard)."""
        cards = self.hands[seat] & (C.TRUMPS | C.EXCUSE_BIT)
        if seat == self.declarer:
            cards |= self.discard_trumps
        return cards

    @property
    def poignee_asked(self) -> frozenset[int]:
        """Seats that were asked about a poignée and answered (private to each of them)."""
        return frozenset(self._poignee_done)

    def poignee_sizes(self, seat: int) -> list[int]:
        n = self.poignee_cards(seat).bit_count()
        return [s for s in POIGNEE_SIZES if s <= n]

    def _poignee_not_asked(self, cards: list[int], seat: int | None) -> IllegalActionError:
        """A poignée when this seat is not asked for one: the seat to move in the first trick
        was not asked because it holds fewer than 10 trumps; any other is out of time."""
        mover = self.to_move
        if (
            cards
            and self.phase is _PLAY
            and not self.tricks
            and seat in (None, mover)
            and mover not in self._poignee_done
        ):
            held = self.poignee_cards(mover).bit_count()
            return PoigneeSizeError(
                "a poignée needs at least 10 trumps (the Excuse counting as one), "
                f"and seat {mover} holds {held}",
                kind="poignee",
                seat=mover,
            )
        return self._phase_error("poignee", seat)

    def _maybe_poignee(self) -> None:
        seat = self.to_move
        if (
            not self.tricks
            and seat not in self._poignee_done
            and self.poignee_cards(seat).bit_count() >= POIGNEE_SIZES[0]
        ):
            self.phase = Phase.POIGNEE
        else:
            self.phase = Phase.PLAY

    def why_poignee_illegal(self, seat: int, cards: Iterable[int]) -> str | None:
        error = self.poignee_error(seat, cards)
        return None if error is None else str(error)

    def poignee_error(self, seat: int, cards: Iterable[int]) -> IllegalPoigneeError | None:
        """The error (with its code) that this poignée by ``seat`` raises when it is asked, or
        None."""
        cards = list(cards)
        if not cards:
            return None
        if reason := _not_cards(cards):
            return PoigneeNotHeldError(reason, kind="poignee", seat=seat)
        mask = C.mask_of(cards)
        if mask.bit_count() != len(cards):
            return PoigneeDuplicateError("a poignée names a card twice", kind="poignee", seat=seat)
        if len(cards) not in POIGNEE_SIZES:
            return PoigneeSizeError(
                f"a poignée shows exactly 10, 13 or 15 trumps, not {len(cards)}",
                kind="poignee",
                seat=seat,
            )
        if mask & ~(C.TRUMPS | C.EXCUSE_BIT):
            suit_card = C.describe(C.cards_of(mask & C.SUIT_CARDS)[0])
            return PoigneeNotTrumpError(
                f"a poignée shows only trumps, not {suit_card}", kind="poignee", seat=seat
            )
        own = self.poignee_cards(seat)
        if mask & ~own:
            return PoigneeNotHeldError(
                f"you do not hold {C.describe(C.cards_of(mask & ~own)[0])}",
                kind="poignee",
                seat=seat,
            )
        # Only trumps held count: forced discard trumps are public already (RULES.md §6).
        if mask & C.EXCUSE_BIT and self.hands[seat] & C.TRUMPS & ~mask:
            return PoigneeExcuseError(
                "the Excuse may be shown only if you hide no trump: show a trump instead",
                kind="poignee",
                seat=seat,
            )
        return None

    def declare_poignee(self, cards: Iterable[int], seat: int | None = None) -> None:
        """Show a poignée (10, 13 or 15 cards) or, with no cards, decline to."""
        cards = list(cards)
        if self.phase is not Phase.POIGNEE or (seat is not None and seat != self.to_move):
            raise self._poignee_not_asked(cards, seat)
        error = self.poignee_error(self.to_move, cards)
        if error is not None:
            raise error
        if cards:
            self.poignees[self.to_move] = C.mask_of(cards)
        self._poignee_done.add(self.to_move)
        self.phase = Phase.PLAY

    # ------------------------------------------------------------------ play

    def legal_cards(self) -> int:
        """Mask of the cards the seat to move may play (0 outside the play phase)."""
        if self.phase is not _PLAY:
            return 0
        t = self.trick
        # Kept for play(), which then needs no second look; only play() moves a card in this
        # phase, and it clears it (0 means "not known": the seat to move always has a card).
        self._legal = legal = legal_mask(self.hands[self.to_move], t.led, t.high)
        return legal

    def why_card_illegal(self, card: int, seat: int | None = None) -> str | None:
        seat = self.to_move if seat is None else seat
        if self.phase is not Phase.PLAY or seat != self.to_move:
            return "it is not your turn to play a card"
        error = card_error(self.hands[seat], self.trick.led, self.trick.high, card)
        return None if error is None else str(error)

    def play(self, card: int, seat: int | None = None) -> None:
        mover = self.to_move
        if self.phase is not _PLAY or (seat is not None and seat != mover):
            if self.phase is Phase.POIGNEE and (seat is None or seat == mover):
                raise WrongPhaseError(
                    "first say whether you show a poignée", kind="play", seat=mover
                )
            self._check_phase(Phase.PLAY, seat, "play")
        hand = self.hands[mover]
        t = self.trick
        led = t.led
        high = t.high
        legal = self._legal or legal_mask(hand, led, high)
        if not 0 <= card < C.NUM_CARDS or not (legal >> card) & 1:
            error = card_error(hand, led, high, card)
            if error is None:  # pragma: no cover - legal_mask and card_error agree
                error = CardNotHeldError("not now", kind="play")
            error.seat = mover
            raise error
        self.hands[mover] = hand ^ (1 << card)
        self._legal = 0
        self.play_log.append(card)
        # TrickState.add, inlined: this is the hottest line of every playout through the API.
        cards = t.cards
        cards.append(card)
        s = CARD_SUIT[card]
        if s == LED_TRUMP:
            if led < 0:
                t.led = LED_TRUMP
            if card > high:
                t.high = card
                t.winner = mover
        elif s >= 0:  # the Excuse sets nothing and wins nothing
            if led < 0:
                t.led = s
                t.best = card
                t.winner = mover
            elif s == led and high < 0 and card > t.best:
                t.best = card
                t.winner = mover
        if len(cards) < 4:
            self.to_move = (mover + 1) & 3
            if not self.tricks:
                self._maybe_poignee()
            return
        tricks = self.tricks
        index = len(tricks)
        taker = t.winner
        if index == LAST_TRICK:
            d = self.declarer
            assert d is not None
            taker = trick_taker(t, index, d, sum(1 for u in tricks if u.winner == d))
        tricks.append(Trick(t.leader, tuple(cards), taker))
        if index == LAST_TRICK:
            self.result = self._score()
            self.phase = Phase.DONE
            return
        self.trick = TrickState(taker)
        self.to_move = taker

    # ------------------------------------------------------------------ generic actions

    def apply(self, action: Any, seat: int | None = None) -> None:
        """Apply one action written as in notation.md (a bid string, a discard list, a chelem
        bool, a poignée list or a card string), according to the current phase."""
        if self.phase is Phase.BIDDING:
            self.bid(parse_bid(action), seat)
        elif self.phase is Phase.DISCARD:
            self.discard_cards(_card_list(action, "discard"), seat)
        elif self.phase is Phase.CHELEM:
            if not isinstance(action, bool):
                raise NotationError(f"the chelem announcement is true or false, not {action!r}")
            self.announce_chelem(action, seat)
        elif self.phase is Phase.POIGNEE:
            self.declare_poignee(_card_list(action, "poignée"), seat)
        elif self.phase is Phase.PLAY:
            self.play(C.parse_card(action), seat)
        else:
            raise self._phase_error(_stray_kind(action), seat)

    def act(self, action: Action, seat: int | None = None) -> None:
        """Apply one typed action according to the phase: a ``Bid`` (None passes), the discard
        as a list of cards, the chelem announcement as a bool, the poignée as a list of cards
        (empty to decline) or a card."""
        if self.phase is Phase.BIDDING:
            if action is not None and not isinstance(action, Contract):
                raise NotationError(f"a bid is a Contract or None (pass), not {action!r}")
            self.bid(action, seat)
        elif self.phase is Phase.DISCARD:
            self.discard_cards(_typed_cards(action, "discard"), seat)
        elif self.phase is Phase.CHELEM:
            if not isinstance(action, bool):
                raise NotationError(f"the chelem announcement is True or False, not {action!r}")
            self.announce_chelem(action, seat)
        elif self.phase is Phase.POIGNEE:
            self.declare_poignee(_typed_cards(action, "poignée"), seat)
        elif self.phase is Phase.PLAY:
            if isinstance(action, bool) or not isinstance(action, int):
                raise NotationError(f"a card is an int 0..77, not {action!r}")
            self.play(action, seat)
        else:
            raise self._phase_error(_stray_kind(action), seat)

    def legal_actions(self) -> list[Any]:
        """Legal actions in notation, where they can be listed: bids, chelem, cards. The discard
        and the poignée are choices of several cards: see ``discard_info`` and
        ``poignee_cards``/``poignee_sizes`` (``[]``, declining a poignée, is listed)."""
        if self.phase is Phase.BIDDING:
            return [bid_name(b) for b in self.legal_bids()]
        if self.phase is Phase.CHELEM:
            return [False, True]
        if self.phase is Phase.POIGNEE:
            return [[]]
        if self.phase is Phase.PLAY:
            return C.format_cards(self.legal_cards())
        return []

    # ------------------------------------------------------------------ scoring

    def excuse_owner(self) -> int | None:
        """The seat that played the Excuse, once it has been played."""
        for t in self.tricks:
            if C.EXCUSE in t.cards:
                return t.seat_of(t.cards.index(C.EXCUSE))
        if C.EXCUSE in self.trick.cards:
            return self.trick.seat_of(self.trick.cards.index(C.EXCUSE))
        return None

    def excuse_pending(self) -> bool:
        """An Excuse waiting for its exchange: played before the last trick, taken by the other
        side, while its owner's side has won no trick yet (public: RULES.md §11)."""
        if self.declarer is None:
            return False
        for i, t in enumerate(self.tricks):
            if C.EXCUSE in t.cards and i < TRICKS - 1:
                d = self.declarer
                owner = t.seat_of(t.cards.index(C.EXCUSE))
                if (owner == d) == (t.winner == d):
                    return False
                return not any((u.winner == d) == (owner == d) for u in self.tricks)
        return False

    def _score(self) -> DealResult:
        assert self.declarer is not None and self.contract is not None
        return score_deal(
            self.contract,
            self.declarer,
            self.tricks,
            discard=self.discard,
            dog=self.dog,
            chelem_announced=bool(self.chelem),
            poignees=self.poignees.values(),
        )

    # ------------------------------------------------------------------ views

    def observation(self, seat: int) -> Observation:
        return build_observation(self, seat)


def build_observation(deal: Deal, seat: int) -> Observation:
    """What ``seat`` may know of ``deal`` (RULES.md §11): every censoring rule is here."""
    phase = deal.phase
    done = phase is Phase.DONE
    to_move = None if done else deal.to_move
    legal = Legal()
    if to_move == seat:
        if phase is Phase.BIDDING:
            legal = Legal(bids=tuple(deal.legal_bids()))
        elif phase is Phase.DISCARD:
            allowed, forced = deal.discard_info()
            legal = Legal(discard_allowed=allowed, discard_forced_trumps=forced)
        elif phase is Phase.CHELEM:
            legal = Legal(chelem=True)
        elif phase is Phase.POIGNEE:
            legal = Legal(
                poignee_cards=deal.poignee_cards(seat),
                poignee_sizes=tuple(deal.poignee_sizes(seat)),
            )
        elif phase is Phase.PLAY:
            legal = Legal(cards=deal.legal_cards())
    if phase is Phase.POIGNEE and seat != to_move:
        # Being asked about a poignée proves 10+ trumps: the others only see that a card is due.
        phase = Phase.PLAY
    contract = deal.contract
    dog_shown = contract is not None and contract.dog_shown
    own_discard = (
        deal.discard if seat == deal.declarer and dog_shown and phase is not Phase.DISCARD else None
    )
    petit_sec = None
    if deal.petit_sec_seat is not None:
        petit_sec = (deal.petit_sec_seat, deal.dealt[deal.petit_sec_seat])
    return Observation(
        seat=seat,
        dealer=deal.dealer,
        phase=phase,
        to_move=to_move,
        hand=deal.hands[seat],
        bids=tuple(deal.bids),
        contract=contract,
        declarer=deal.declarer,
        dog=deal.dog if dog_shown or done else None,
        own_discard=own_discard,
        discard_trumps=deal.discard_trumps,
        chelem=deal.chelem,
        poignees=dict(deal.poignees),
        tricks=tuple(deal.tricks),
        trick_leader=deal.trick.leader,
        trick_cards=tuple(deal.trick.cards),
        excuse_pending=deal.excuse_pending(),
        petit_sec=petit_sec,
        result=deal.result,
        legal=legal,
        review_hands=deal.dealt if done else None,
        review_dog=deal.dog if done else None,
        review_discard=deal.discard if done else None,
        trick_winner=deal.trick.winner if deal.trick.cards and deal.trick.winner >= 0 else None,
    )


def _stray_kind(action: object) -> str:
    """The kind of an action sent after the deal, guessed from how it is written (its code
    depends on it: a bid after four calls is ``auction_over``, a card ``deal_over``...)."""
    if isinstance(action, bool):
        return "chelem"
    if action is None or isinstance(action, Contract):
        return "bid"
    if isinstance(action, str):
        return "bid" if action.strip().lower() in BID_NAMES else "play"
    if isinstance(action, (list, tuple)):
        return "discard"
    return "play"


def _not_cards(cards: list[int]) -> str | None:
    """A reason when some item is not a card number 0..77 (direct calls are not parsed)."""
    for c in cards:
        if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < C.NUM_CARDS:
            return f"there is no card {c!r}"
    return None


def _typed_cards(action: object, what: str) -> list[int]:
    if not isinstance(action, (list, tuple)) or not all(
        isinstance(c, int) and not isinstance(c, bool) and 0 <= c < C.NUM_CARDS for c in action
    ):
        raise NotationError(f"the {what} is a list of cards (ints 0..77), not {action!r}")
    return list(action)


def _card_list(action: Any, what: str) -> list[int]:
    if isinstance(action, str) or not isinstance(action, (list, tuple)):
        raise NotationError(f"the {what} is a list of cards, not {action!r}")
    return C.parse_cards(action)
