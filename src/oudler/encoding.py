"""One integer action space for every phase, legal-action masks and observation vectors.

Actions (``NUM_ACTIONS`` = 89):

| ids | phase | meaning |
|---|---|---|
| 0..77 | play | play that card (ids of ``oudler.core.cards``: T1..T21 0..20, EX 21, S, H, D, C) |
| 0..77 | discard | put that card into the discard; the sixth pick makes the discard |
| 0..21 | poignée | show that trump (or the Excuse), once a size is chosen; the last pick shows it |
| 78..82 | bidding | pass, prise, garde, garde sans, garde contre |
| 83, 84 | chelem | do not announce, announce |
| 85..88 | poignée | show none, or choose a single (10), double (13) or triple (15) poignée |

Card picks are masked so that every completed choice is legal: the discard takes exactly the
forced trumps (RULES.md §5) and the poignée shows the Excuse only when no held trump is hidden.

The observation vector (``OBS_SIZE`` = 1695 float32 values, all 0 or 1) is seen from one seat;
"seat +k" is the seat k places after it (``(seat + k) % 4``), so a policy is the same at every
seat. Card planes have 78 entries in card-id order. In order (see ``OBS_LAYOUT``):

| name | size | content |
|---|---|---|
| hand | 78 | the seat's cards now |
| picked | 78 | the cards it has picked so far in a discard or poignée it is choosing |
| dog | 78 | the dog, once shown (Prise, Garde) |
| own_discard | 78 | the declarer's own discard, for the declarer only |
| discard_trumps | 78 | trumps forced into the discard (public) |
| poignees | 4 x 78 | cards shown in a poignée, by seat +0..+3 |
| played | 4 x 78 | cards played so far (current trick included), by seat +0..+3 |
| trick | 4 x 78 | the current trick's cards, by seat +0..+3 |
| won | 4 x 78 | the cards of the tricks each seat +0..+3 took |
| bids | 4 x 6 | by seat +0..+3: not spoken, pass, prise, garde, garde sans, garde contre |
| dealer, declarer, to_move, trick_leader | 4 each | one-hot seat +0..+3 (all zero: none) |
| contract | 4 | prise, garde, garde sans, garde contre |
| phase | 6 | bidding, discard, chelem, poignée, play, done (what this seat sees) |
| chelem | 3 | not decided, not announced, announced |
| poignee_size | 3 | the size being shown: 10, 13, 15 (the seat's own choice) |
| excuse_pending | 1 | an Excuse waiting for its exchange |

Everything comes from ``Deal.observation(seat)``, which holds what the seat may know and nothing
else (RULES.md §11); the picks in progress are the seat's own.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import numpy.typing as npt

from oudler.core import Action, Contract, Deal, Observation, Phase
from oudler.core import cards as C
from oudler.core.deal import DOG_SIZE, POIGNEE_SIZES

__all__ = [
    "BID_BASE",
    "CARD_PLANES",
    "CHELEM_NO",
    "CHELEM_YES",
    "NUM_ACTIONS",
    "NUM_CARDS",
    "OBS_LAYOUT",
    "OBS_SIZE",
    "OFFSET",
    "PHASES",
    "POIGNEE_NONE",
    "POIGNEE_SIZE_BASE",
    "SEAT_CARD_PLANES",
    "FloatArray",
    "IllegalAgentAction",
    "MaskArray",
    "Stepper",
    "action_ids",
    "action_name",
    "bid_action",
    "cards_in_vector",
    "encode_observation",
    "new_deal",
]

NUM_CARDS = C.NUM_CARDS
BID_BASE = 78  # pass, then the contracts in order
CHELEM_NO = 83
CHELEM_YES = 84
POIGNEE_NONE = 85
POIGNEE_SIZE_BASE = 86  # 86, 87, 88: sizes 10, 13, 15
NUM_ACTIONS = 89

PHASES = (Phase.BIDDING, Phase.DISCARD, Phase.CHELEM, Phase.POIGNEE, Phase.PLAY, Phase.DONE)

OBS_LAYOUT: tuple[tuple[str, int], ...] = (
    ("hand", 78),
    ("picked", 78),
    ("dog", 78),
    ("own_discard", 78),
    ("discard_trumps", 78),
    ("poignees", 4 * 78),
    ("played", 4 * 78),
    ("trick", 4 * 78),
    ("won", 4 * 78),
    ("bids", 4 * 6),
    ("dealer", 4),
    ("declarer", 4),
    ("to_move", 4),
    ("trick_leader", 4),
    ("contract", 4),
    ("phase", 6),
    ("chelem", 3),
    ("poignee_size", 3),
    ("excuse_pending", 1),
)


def _offsets() -> dict[str, int]:
    out: dict[str, int] = {}
    at = 0
    for name, size in OBS_LAYOUT:
        out[name] = at
        at += size
    return out


OFFSET = _offsets()
OBS_SIZE = sum(size for _, size in OBS_LAYOUT)
CARD_PLANES = ("hand", "picked", "dog", "own_discard", "discard_trumps")
SEAT_CARD_PLANES = ("poignees", "played", "trick", "won")

FloatArray = npt.NDArray[np.float32]
MaskArray = npt.NDArray[np.int8]


class IllegalAgentAction(ValueError):
    """An action id that is not legal for the seat to move now; the state is unchanged."""


def bid_action(bid: Contract | None) -> int:
    return BID_BASE + (0 if bid is None else int(bid))


def action_name(action: int) -> str:
    """An action id in words, as notation.md writes the action it stands for (or picks)."""
    if 0 <= action < NUM_CARDS:
        return C.CARD_NAMES[action]
    if BID_BASE <= action < CHELEM_NO:
        return ("pass", *(c.notation for c in Contract))[action - BID_BASE]
    if action in (CHELEM_NO, CHELEM_YES):
        return "chelem" if action == CHELEM_YES else "no chelem"
    if action == POIGNEE_NONE:
        return "no poignee"
    if POIGNEE_SIZE_BASE <= action < NUM_ACTIONS:
        return f"poignee of {POIGNEE_SIZES[action - POIGNEE_SIZE_BASE]}"
    raise IllegalAgentAction(f"there is no action {action!r}: actions are 0..{NUM_ACTIONS - 1}")


def action_ids(phase: Phase, action: Action) -> list[int]:
    """The action ids that make one typed action (``Deal.act``'s, as bots return them): one id,
    six picks for a discard, a size and its picks for a poignée (any order of a legal choice is
    a legal order of picks)."""
    if phase is Phase.BIDDING:
        if action is not None and not isinstance(action, Contract):
            raise IllegalAgentAction(f"a bid is a Contract or None, not {action!r}")
        return [bid_action(action)]
    if phase is Phase.CHELEM:
        return [CHELEM_YES if action is True else CHELEM_NO]
    if phase is Phase.PLAY and isinstance(action, int) and not isinstance(action, bool):
        return [action]
    if phase in (Phase.DISCARD, Phase.POIGNEE) and isinstance(action, list):
        cards = sorted(action)
        if phase is Phase.DISCARD:
            return cards
        if not cards:
            return [POIGNEE_NONE]
        if len(cards) not in POIGNEE_SIZES:
            raise IllegalAgentAction(f"a poignée shows 10, 13 or 15 cards, not {len(cards)}")
        return [POIGNEE_SIZE_BASE + POIGNEE_SIZES.index(len(cards)), *cards]
    raise IllegalAgentAction(f"{action!r} is not an action of the {phase.value} phase")


class Stepper:
    """A ``Deal`` driven by action ids: the discard and the poignée are picked one card at a time.

    ``picked`` holds the cards chosen so far (private to the seat to move); nothing reaches the
    deal until the choice is complete, when the engine checks it like any other action.
    """

    __slots__ = ("deal", "picked", "poignee_size")

    def __init__(self, deal: Deal) -> None:
        self.deal = deal
        self.picked = 0
        self.poignee_size = 0

    def copy(self) -> Stepper:
        other = Stepper(self.deal.copy())
        other.picked = self.picked
        other.poignee_size = self.poignee_size
        return other

    @property
    def is_over(self) -> bool:
        return self.deal.is_over

    @property
    def to_move(self) -> int:
        return self.deal.to_move

    def legal_actions(self) -> list[int]:
        """The legal action ids of the seat to move, ascending (empty once the deal is over)."""
        deal = self.deal
        phase = deal.phase
        if phase is Phase.PLAY:
            return C.cards_of(deal.legal_cards())
        if phase is Phase.BIDDING:
            return [bid_action(b) for b in deal.legal_bids()]
        if phase is Phase.DISCARD:
            return C.cards_of(self._discard_picks())
        if phase is Phase.CHELEM:
            return [CHELEM_NO, CHELEM_YES]
        if phase is Phase.POIGNEE:
            if not self.poignee_size:
                sizes = deal.poignee_sizes(deal.to_move)
                return [POIGNEE_NONE, *(POIGNEE_SIZE_BASE + POIGNEE_SIZES.index(s) for s in sizes)]
            return C.cards_of(self._poignee_picks())
        return []

    def legal_mask(self) -> MaskArray:
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        mask[self.legal_actions()] = 1
        return mask

    def _discard_picks(self) -> int:
        allowed, forced = self.deal.discard_info()
        picked = self.picked
        left = allowed & ~picked
        picks = 0
        if (picked & C.TRUMPS).bit_count() < forced:
            picks |= left & C.TRUMPS
        if (picked & ~C.TRUMPS).bit_count() < DOG_SIZE - forced:
            picks |= left & ~C.TRUMPS
        return picks

    def _poignee_picks(self) -> int:
        seat = self.deal.to_move
        own = self.deal.poignee_cards(seat)
        trumps = own & C.TRUMPS
        held = self.deal.hands[seat] & C.TRUMPS
        excuse = own & C.EXCUSE_BIT
        picks = 0
        for card in C.cards_of(own & ~self.picked):
            chosen = self.picked | (1 << card)
            left = self.poignee_size - chosen.bit_count()
            free = (trumps & ~chosen).bit_count()  # trumps still to choose from
            hidden = (held & ~chosen).bit_count()  # held trumps not shown yet
            if chosen & C.EXCUSE_BIT:
                ok = hidden <= left <= free  # the Excuse hides no trump (RULES.md §6)
            else:
                ok = left <= free or (bool(excuse) and hidden <= left - 1 <= free)
            if ok:
                picks |= 1 << card
        return picks

    def step(self, action: int) -> None:
        """Apply one action id for the seat to move; an illegal one raises and changes nothing."""
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
            raise IllegalAgentAction(f"an action is an int 0..{NUM_ACTIONS - 1}, not {action!r}")
        action = int(action)
        legal = self.legal_actions()
        if action not in legal:
            if not 0 <= action < NUM_ACTIONS:
                raise IllegalAgentAction(f"there is no action {action}")
            raise IllegalAgentAction(
                f"{action_name(action)} ({action}) is not legal in the "
                f"{self.deal.phase.value} phase now; "
                f"legal: {legal}"
            )
        deal = self.deal
        phase = deal.phase
        if phase is Phase.PLAY:
            deal.play(action)
        elif phase is Phase.BIDDING:
            deal.bid(None if action == BID_BASE else Contract(action - BID_BASE))
        elif phase is Phase.DISCARD:
            self.picked |= 1 << action
            if self.picked.bit_count() == DOG_SIZE:
                cards, self.picked = C.cards_of(self.picked), 0
                deal.discard_cards(cards)
        elif phase is Phase.CHELEM:
            deal.announce_chelem(action == CHELEM_YES)
        elif action == POIGNEE_NONE:
            deal.declare_poignee([])
        elif action >= POIGNEE_SIZE_BASE:
            self.poignee_size = POIGNEE_SIZES[action - POIGNEE_SIZE_BASE]
        else:
            self.picked |= 1 << action
            if self.picked.bit_count() == self.poignee_size:
                cards, self.picked, self.poignee_size = C.cards_of(self.picked), 0, 0
                deal.declare_poignee(cards)

    def observation(self, seat: int) -> Observation:
        return self.deal.observation(seat)

    def picked_by(self, seat: int) -> tuple[int, int]:
        """(cards picked so far, poignée size chosen) of ``seat``: its own, so zero for others."""
        if self.deal.is_over or seat != self.deal.to_move:
            return 0, 0
        return self.picked, self.poignee_size

    def encode(self, seat: int, out: FloatArray | None = None) -> FloatArray:
        """The observation vector of ``seat`` (see the module docstring), written into ``out``."""
        if out is None:
            out = np.zeros(OBS_SIZE, dtype=np.float32)
        else:
            out.fill(0)
        obs = self.observation(seat)
        picked, size = self.picked_by(seat)
        encode_observation(obs, picked, size, out)
        return out

    def info(self, seat: int) -> dict[str, Any]:
        """The JSON observation of ``seat`` (``Observation.to_dict()``) and its picks so far."""
        picked, size = self.picked_by(seat)
        return {
            "observation": self.observation(seat).to_dict(),
            "picked": C.format_cards(picked),
            "poignee_size": size or None,
        }


def _cards(out: FloatArray, at: int, mask: int) -> None:
    while mask:
        low = mask & -mask
        out[at + low.bit_length() - 1] = 1
        mask ^= low


def encode_observation(obs: Observation, picked: int, poignee_size: int, out: FloatArray) -> None:
    """Write ``obs`` (and the seat's own picks) into the zeroed vector ``out``."""
    me = obs.seat
    o = OFFSET
    _cards(out, o["hand"], obs.hand)
    _cards(out, o["picked"], picked)
    _cards(out, o["dog"], obs.dog or 0)
    _cards(out, o["own_discard"], obs.own_discard or 0)
    _cards(out, o["discard_trumps"], obs.discard_trumps)
    for s, shown in obs.poignees.items():
        _cards(out, o["poignees"] + 78 * ((s - me) & 3), shown)
    played, won = o["played"], o["won"]
    for t in obs.tricks:
        for i, card in enumerate(t.cards):
            out[played + 78 * ((t.leader + i - me) & 3) + card] = 1
            out[won + 78 * ((t.winner - me) & 3) + card] = 1
    for i, card in enumerate(obs.trick_cards):
        rel = (obs.trick_leader + i - me) & 3
        out[played + 78 * rel + card] = 1
        out[o["trick"] + 78 * rel + card] = 1
    bids = o["bids"]
    for k in range(4):
        rel = (obs.dealer + 1 + k - me) & 3
        out[bids + 6 * rel + (1 + _bid_index(obs.bids[k]) if k < len(obs.bids) else 0)] = 1
    out[o["dealer"] + ((obs.dealer - me) & 3)] = 1
    if obs.declarer is not None:
        out[o["declarer"] + ((obs.declarer - me) & 3)] = 1
    if obs.to_move is not None:
        out[o["to_move"] + ((obs.to_move - me) & 3)] = 1
    if obs.phase is Phase.PLAY or obs.tricks or obs.trick_cards:
        out[o["trick_leader"] + ((obs.trick_leader - me) & 3)] = 1
    if obs.contract is not None:
        out[o["contract"] + int(obs.contract) - 1] = 1
    out[o["phase"] + PHASES.index(obs.phase)] = 1
    out[o["chelem"] + (0 if obs.chelem is None else 1 + int(obs.chelem))] = 1
    if poignee_size:
        out[o["poignee_size"] + POIGNEE_SIZES.index(poignee_size)] = 1
    if obs.excuse_pending:
        out[o["excuse_pending"]] = 1


def _bid_index(bid: Contract | None) -> int:
    return 0 if bid is None else int(bid)


def cards_in_vector(vector: FloatArray) -> int:
    """Every card any card plane of ``vector`` holds, as a mask (for honesty checks)."""
    m = 0
    for name in CARD_PLANES:
        at = OFFSET[name]
        m |= C.mask_of(int(i) for i in np.flatnonzero(vector[at : at + 78]))
    for name in SEAT_CARD_PLANES:
        at = OFFSET[name]
        m |= C.mask_of(int(i) % 78 for i in np.flatnonzero(vector[at : at + 4 * 78]))
    return m


def new_deal(rng: random.Random, options: dict[str, Any] | None = None) -> Deal:
    """The deal an environment's ``reset`` starts: ``options["deal_seed"]`` (and ``"dealer"``)
    if given, else one drawn from ``rng``; a petit sec is dealt again by the next dealer."""
    options = options or {}
    if "deal_seed" in options:
        return Deal.from_seed(int(options["deal_seed"]), int(options.get("dealer", 0)))
    deal = Deal.from_seed(rng.getrandbits(40), rng.randrange(4))
    while deal.is_over:
        deal = Deal.from_seed(rng.getrandbits(40), (deal.dealer + 1) & 3)
    return deal
