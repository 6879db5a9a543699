"""The expert computer player: search over the hidden cards for every decision."""

from __future__ import annotations

import hashlib
import json
import random
import time
from collections.abc import Callable

from oudler.core import Action, Observation, Phase
from oudler.core import cards as C

from .contract import choose_bid, choose_chelem, choose_discard, choose_poignee
from .sampler import facts, sampler_for
from .search import Budget, choose_card


class ExpertBot:
    """Perfect-information Monte Carlo over worlds sampled from what the seat has seen.

    Each decision has a wall-time budget (``budget_card_ms`` for a card, ``budget_bid_ms`` for a
    bid or a discard; the chelem and poignée questions take a third of the latter). With
    ``worlds`` set, every decision uses exactly that many sampled worlds instead (``bid_worlds``
    for bids and discards, if given): slower or faster, but reproducible whatever the machine's
    load (for tests and measurements).

    ``cancelled``: asked between batches of worlds; once true, ``act`` raises
    ``SearchCancelled`` instead of deciding (a web table that no longer wants the decision).

    Randomness comes from ``seed`` and the observation only, so the same observation gives the
    same decision in the fixed-``worlds`` mode; nothing is remembered between calls.

    ``kernel``: play the worlds on the compiled kernel (level ``expert``: many more worlds and
    an exact solve from five tricks left), or in pure Python as before it (level ``expert-v1``).
    ``inference``: weight the worlds by the other seats' calls and cards (the kernel only; level
    ``expert-noinf`` is the expert without it, to measure what it adds).
    ``calls_imposed``: the bids of every deal are imposed, not chosen (an arena's fixed
    contract): they are not read as evidence about the hands, by inference or by the
    pure-Python weighting; only the hard facts and the cards played are.
    """

    def __init__(
        self,
        seed: int,
        *,
        budget_card_ms: int = 400,
        budget_bid_ms: int = 1500,
        worlds: int | None = None,
        bid_worlds: int | None = None,
        kernel: bool = True,
        inference: bool = True,
        calls_imposed: bool = False,
        cancelled: Callable[[], bool] | None = None,
    ) -> None:
        self.seed = seed
        self.calls_imposed = calls_imposed
        self.cancelled = cancelled
        self.kernel = kernel
        self.inference = inference
        self.level = ("expert" if inference else "expert-noinf") if kernel else "expert-v1"
        if worlds is not None:  # the fixed-work level's name (bots.LevelSpec)
            self.level += f"@w{worlds}" + (f"/b{bid_worlds}" if bid_worlds is not None else "")
        self.budget_card_ms = budget_card_ms
        self.budget_bid_ms = budget_bid_ms
        self.worlds = worlds
        self.bid_worlds = bid_worlds
        self.seat = -1

    @property
    def poignee_budget_ms(self) -> int:
        """Wall time for the poignée question (the web table pads a first card by as much when
        the question was not asked, so the pause does not tell that 10+ trumps are held)."""
        return self.budget_bid_ms // 3

    def begin_deal(self, seat: int) -> None:
        self.seat = seat

    def _rng(self, obs: Observation) -> random.Random:
        key = json.dumps(obs.to_dict(), sort_keys=True).encode()
        digest = hashlib.blake2b(key, digest_size=8, key=str(self.seed).encode()[:64]).digest()
        return random.Random(int.from_bytes(digest, "big"))

    def _budget(
        self, start: float, ms: int, worlds_scale: float = 1.0, bid: bool = False
    ) -> Budget:
        worlds = self.bid_worlds if bid and self.bid_worlds is not None else self.worlds
        if worlds is not None:
            return Budget(
                worlds=max(1, int(worlds * worlds_scale)),
                kernel=self.kernel,
                inference=self.inference,
                cancelled=self.cancelled,
            )
        return Budget(
            deadline=start + ms / 1000.0,
            kernel=self.kernel,
            inference=self.inference,
            cancelled=self.cancelled,
        )

    def act(self, obs: Observation) -> Action:
        start = time.perf_counter()
        phase = obs.phase
        legal = obs.legal
        if phase is Phase.PLAY and not legal.cards & (legal.cards - 1):
            return C.cards_of(legal.cards)[0]  # forced: no thinking
        rng = self._rng(obs)
        sampler = sampler_for(facts(obs, calls_imposed=self.calls_imposed))
        if phase is Phase.PLAY:
            return choose_card(obs, sampler, rng, self._budget(start, self.budget_card_ms))
        if phase is Phase.BIDDING:
            return choose_bid(obs, sampler, rng, self._budget(start, self.budget_bid_ms, bid=True))
        if phase is Phase.DISCARD:
            budget = self._budget(start, self.budget_bid_ms, bid=True)
            return choose_discard(obs, sampler, rng, budget)
        if phase is Phase.CHELEM:
            return choose_chelem(obs, sampler, rng, self._budget(start, self.budget_bid_ms // 3))
        if phase is Phase.POIGNEE:
            budget = self._budget(start, self.poignee_budget_ms, 0.5)
            return choose_poignee(obs, sampler, rng, budget)
        raise ValueError(f"nothing to decide in the {phase.value} phase")
