"""Oracles: the expert searching on the real deal, to measure ceilings (issue 31, part 2).

A lab instrument only. An oracle sees the hidden cards, which no computer player at a real table
may (RULES.md §11): it is not a level (``bots.levels.LEVELS``), ``bots.make_bot`` refuses its
name, and so do the web tables, the bot protocol and the coach; only the arena
(``oudler arena --bots oracle-cards@w100 --bots expert@w100``) builds one, through
``make_oracle``, and hands it the live deal (``OracleBot.see_deal``) before the deal is played.

- ``oracle-cards@OPTS``: the expert ``expert@OPTS`` whose card search plays every world as the
  real one; its calls, discard, chelem and poignée are the expert's own. What any inference about
  the hidden cards could at most buy in card play, with the same playouts.
- ``oracle-calls@OPTS``: the same expert whose calls, discard, chelem and poignée are valued on
  the real hands (the three other seats' hands and the dog, or the hidden discard) in every
  world, by the same playouts; its card play is the expert's own.

The budget is the expert's, world for world: each of the N worlds of a decision is the real one.
The playouts are deterministic (the kernel's policy, its exact tail and endgame solver have no
randomness), so the N values of an option are one value N times: the choice is the real world's
best, exactly as from one world, and the race (from 48 worlds, a zero standard error) ends the
card's and the discard's searches there. The oracle thus costs no more than the expert, often
less.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import numpy.typing as npt

from oudler import kernel as K
from oudler.bots import LevelSpec, UnknownLevelError, expert_options, parse_level
from oudler.bots.expert import ExpertBot
from oudler.bots.expert.sampler import Facts, World, WorldSampler, facts, sampler_for
from oudler.bots.knowledge import PILE
from oudler.core import Deal, Observation, Phase
from oudler.core import cards as C

CARDS = "oracle-cards"
CALLS = "oracle-calls"
ORACLES = (CARDS, CALLS)
"""The oracles' names; each takes the expert's options after ``@`` (``oracle-cards@w100/t6``)."""


def is_oracle(name: str) -> bool:
    """Does ``name`` name an oracle (whatever its options)?"""
    return name.strip().partition("@")[0].lower() in ORACLES


def oracle_name(name: str) -> str:
    """``name`` spelled as the arena writes it (the expert's spelling of the options,
    ``oracle-cards@w100``); an unknown oracle or option is an ``UnknownLevelError``."""
    kind, spec = _parse(name)
    return kind + spec.name[len("expert") :]


def _parse(name: str) -> tuple[str, LevelSpec]:
    base, at, options = name.strip().partition("@")
    kind = base.lower()
    if kind not in ORACLES:
        raise UnknownLevelError(f"unknown oracle {name!r}; expected one of {', '.join(ORACLES)}")
    return kind, parse_level("expert" + at + options)


def make_oracle(name: str, *, seed: int, calls_imposed: bool = False) -> OracleBot:
    """A fresh oracle for ``name`` (``oracle-cards@w100``), seeded with ``seed``; it decides
    only once it was handed the deal (``OracleBot.see_deal``)."""
    kind, spec = _parse(name)
    return OracleBot(kind, seed=seed, calls_imposed=calls_imposed, **expert_options(spec))


class OracleError(RuntimeError):
    """An oracle asked to decide without the deal, or a deal that does not fit what its seat
    saw (a bug in the arena or in the knowledge of the hidden cards)."""


def true_world(deal: Deal, f: Facts) -> World:
    """The real world now, as the sampler of ``f``'s seat deals them: the four hands held now
    and the cards in no hand and not played (the dog, or the declarer's discard, or nothing
    while the declarer holds the dog to discard). Checked against every hard fact of ``f``."""
    hands = (deal.hands[0], deal.hands[1], deal.hands[2], deal.hands[3])
    held = hands[0] | hands[1] | hands[2] | hands[3]
    pile = C.ALL_CARDS & ~held & ~f.played
    where = (*hands, pile)
    for h in range(5):
        who = "the pile" if h == PILE else f"seat {h}"
        if where[h].bit_count() != f.sizes[h]:
            raise OracleError(f"{who} holds {where[h].bit_count()} cards, not {f.sizes[h]}")
        if f.fixed[h] & ~where[h]:
            raise OracleError(f"{who} lacks cards its seat {f.seat} knows it has")
        if f.cannot[h] & where[h]:
            raise OracleError(f"{who} holds cards seat {f.seat} knows it cannot have")
    return World(hands, pile)


class TrueWorldSampler(WorldSampler):
    """A sampler whose every world is the real one (``true_world``): the same ``facts`` as the
    seat's sampler, every draw the same world."""

    def __init__(self, f: Facts, world: World) -> None:  # no counting: nothing is sampled
        self.facts = f
        self.world = world
        self._row = K.world_rows([(world.hands, world.pile)])

    def sample_raw(self, rng: random.Random) -> World:
        return self.world

    def sample(self, rng: random.Random) -> World:
        return self.world

    def sample_weighted(self, rng: random.Random, n: int, pool_factor: int = 4) -> list[World]:
        return [self.world] * n

    def draw_rows(
        self,
        rng: random.Random,
        n: int,
        inference: bool = True,
        pool_factor: int = 4,
        discard: float = 0.0,
    ) -> npt.NDArray[np.uint64]:
        return np.repeat(self._row, n, axis=0)

    def draw(
        self, rng: random.Random, n: int, inference: bool = True, discard: float = 0.0
    ) -> list[World]:
        return [self.world] * n


class OracleBot(ExpertBot):
    """The expert, but the searches of ``kind``'s decisions draw the real world every time
    (``CARDS``: the card play; ``CALLS``: the bids, the discard, the chelem and the poignée).
    Its name is ``kind`` with the expert's options (``oracle-cards@w100``)."""

    def __init__(self, kind: str, *, seed: int, **options: Any) -> None:
        if kind not in ORACLES:
            raise UnknownLevelError(f"unknown oracle {kind!r}")
        super().__init__(seed, **options)
        if not self.kernel:
            raise UnknownLevelError("an oracle searches on the kernel: not expert-v1")
        self.kind = kind
        self.level = kind + self.level[len("expert") :]
        self.deal: Deal | None = None

    def see_deal(self, deal: Deal) -> None:
        """The deal this bot plays (the live object: its hands are read at each decision)."""
        self.deal = deal

    def sees(self, phase: Phase) -> bool:
        """Does this oracle decide ``phase`` on the real world?"""
        return (phase is Phase.PLAY) == (self.kind == CARDS)

    def worlds_for(self, obs: Observation) -> WorldSampler:
        f = facts(obs, calls_imposed=self.calls_imposed)
        if not self.sees(obs.phase):
            return sampler_for(f)
        deal = self.deal
        if deal is None:
            raise OracleError(f"{self.level} decides on the real deal: none was given (see_deal)")
        if (
            deal.to_move != obs.seat
            or deal.phase is not obs.phase
            or deal.hands[obs.seat] != obs.hand
        ):
            raise OracleError(f"{self.level} was given another deal than the one it plays")
        return TrueWorldSampler(f, true_world(deal, f))
