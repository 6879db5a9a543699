"""The expert computer player: search over the hidden cards for every decision."""

from __future__ import annotations

import bisect
import hashlib
import json
import math
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from oudler import kernel as K
from oudler.bots.levels import LevelSpec
from oudler.core import Action, Observation, Phase
from oudler.core import cards as C

from .contract import (
    CHELEM_MADE,
    POIGNEE_WIN,
    bid_margin,
    bid_options,
    chelem_options,
    chelem_samples,
    choose_bid,
    choose_chelem,
    choose_discard,
    choose_poignee,
    contract_values,
    discard_options,
    poignee_options,
    poignee_samples,
    poignee_shown,
)
from .sampler import DISCARD_EVIDENCE, WorldSampler, facts, sampler_for
from .search import (
    EXPERT_STOP,
    PLAYOUT_TAIL,
    Budget,
    Options,
    Prior,
    card_options,
    choose_card,
    mean_se,
)

Searched = tuple[Action, Options[Any] | None]
"""A decision and the values the search gave its options (``None``: decided without search)."""


class ExpertBot:
    """Perfect-information Monte Carlo over worlds sampled from what the seat has seen.

    Each decision has a wall-time budget (``budget_card_ms`` for a card, ``budget_bid_ms`` for a
    bid or a discard; the chelem and poignée questions take a third of the latter). The bid's
    1,450 ms leave room for the last batch of worlds and the answer within 1.5 s (at 1,500 ms
    the arena measured a bid p95 of 1,510 ms). With
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

    ``prior``: the learned policy (``oudler.bots.policy``, the packaged weights) as a prior on
    the card: among the options the search kept, the card of best mean plus ``prior`` times the
    policy's log probability of the card (in points of the seat's score), so that the policy
    settles what the sampled worlds leave close. 0: the search alone.

    ``learned``: the card's search plays its playouts with the learned playout policy
    (``oudler.kernel.load_playout_net``, the packaged weights) instead of the heuristic one
    (the kernel only; level option ``/l``). ``learned_contracts``: the bids', discard's,
    chelem's and poignée's playouts too (``/la``).

    ``endgame``: the card's search solves exactly once the hands hold this many cards or fewer
    (level option ``/eN``; None: the search's own depth).

    ``playout_tail``: the card search's playouts solve their last this many tricks exactly
    (level option ``/tN``; 0: none; None: ``PLAYOUT_TAIL`` on the kernel, none in pure
    Python).

    ``contract_tail``: the same for the playouts of the calls and the discard (level option
    ``/cN``; None or 0: none).

    ``stop``: stop every search (cards, calls, discard) before its budget once no option
    left can beat the best by this many points of the seat's score (``Budget.stop``; level
    option ``/sX``; None: ``EXPERT_STOP`` on the kernel, none in pure Python; 0: none, every
    search runs to its budget).

    ``discard_evidence``: with ``inference``, a defender reads the declarer's discard once the
    dog was shown, at this weight (``Budget.discard_evidence``; level option ``/dX``; None:
    ``DISCARD_EVIDENCE``).
    """

    def __init__(
        self,
        seed: int,
        *,
        budget_card_ms: int = 400,
        budget_bid_ms: int = 1450,
        worlds: int | None = None,
        bid_worlds: int | None = None,
        kernel: bool = True,
        inference: bool = True,
        calls_imposed: bool = False,
        cancelled: Callable[[], bool] | None = None,
        prior: float = 0.0,
        learned: bool = False,
        learned_contracts: bool = False,
        endgame: int | None = None,
        discard_evidence: float | None = None,
        playout_tail: int | None = None,
        contract_tail: int | None = None,
        stop: float | None = None,
    ) -> None:
        self.seed = seed
        self.playout_net = K.load_playout_net() if learned and kernel else None
        self.contract_net = self.playout_net if learned_contracts else None
        self.prior = prior
        self.calls_imposed = calls_imposed
        self.cancelled = cancelled
        self.kernel = kernel
        self.inference = inference
        self.endgame = endgame
        self.discard_evidence = (
            DISCARD_EVIDENCE if discard_evidence is None else float(discard_evidence)
        )
        default_tail = PLAYOUT_TAIL if kernel else 0
        self.playout_tail = default_tail if playout_tail is None else playout_tail
        self.contract_tail = contract_tail or 0
        # the level's name as make_bot reads it back: one spelling, bots.levels.LevelSpec's
        self.level = LevelSpec(
            ("expert" if inference else "expert-noinf") if kernel else "expert-v1",
            worlds,
            bid_worlds,
            prior=prior or None,
            learned=""
            if self.playout_net is None
            else ("la" if self.contract_net is not None else "l"),
            endgame=endgame,
            discard=discard_evidence,
            tail=playout_tail,
            contract_tail=contract_tail,
            stop=stop,
        ).name
        default_stop = EXPERT_STOP if kernel else None
        self.stop = default_stop if stop is None else (stop or None)
        self.budget_card_ms = budget_card_ms
        self.budget_bid_ms = budget_bid_ms
        self.worlds = worlds
        self.bid_worlds = bid_worlds
        self.seat = -1

    @property
    def poignee_budget_ms(self) -> int:
        """Wall time for the poignée question (the web table waits as long before a first card,
        whether the question was asked or not and however soon it was answered, so the pause
        does not tell that 10+ trumps are held)."""
        return self.budget_bid_ms // 3

    def begin_deal(self, seat: int) -> None:
        self.seat = seat

    def _rng(self, obs: Observation) -> random.Random:
        key = json.dumps(obs.to_dict(), sort_keys=True).encode()
        digest = hashlib.blake2b(key, digest_size=8, key=str(self.seed).encode()[:64]).digest()
        return random.Random(int.from_bytes(digest, "big"))

    def _card_budget(self, start: float) -> Budget:
        budget = self._budget(start, self.budget_card_ms)
        budget.playout_net = self.playout_net
        budget.endgame = self.endgame
        budget.playout_tail = self.playout_tail
        return budget

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
                playout_net=self.contract_net,
                discard_evidence=self.discard_evidence,
                contract_tail=self.contract_tail,
                stop=self.stop,
            )
        return Budget(
            deadline=start + ms / 1000.0,
            kernel=self.kernel,
            inference=self.inference,
            cancelled=self.cancelled,
            playout_net=self.contract_net,
            discard_evidence=self.discard_evidence,
            contract_tail=self.contract_tail,
            stop=self.stop,
        )

    def worlds_for(self, obs: Observation) -> WorldSampler:
        """Where every search of this decision draws its worlds: the hidden cards dealt
        consistently with what the seat has seen (``sampler.facts``). The one place the
        expert's worlds come from (the lab's oracles, ``oudler.lab.oracle``, put the real deal
        here; no level does)."""
        return sampler_for(facts(obs, calls_imposed=self.calls_imposed))

    def _card_prior(self, obs: Observation) -> Prior | None:
        """The policy's bonus for each candidate card, in points of the seat's score (asked
        only when the search leaves more than one card)."""
        if not self.prior:
            return None
        from oudler.bots.policy import card_log_probs, packaged_net

        weight = self.prior

        def bonus(cards: list[int]) -> list[float]:
            # a candidate stands for its run of equivalent cards (search.candidates): the
            # run's probability is the sum of its cards'; a run starts at its candidate and
            # goes up to the next one
            p = np.exp(card_log_probs(packaged_net(), obs).astype(np.float64))
            reps = sorted(cards)
            mass = dict.fromkeys(reps, 0.0)
            for c in C.cards_of(obs.legal.cards):
                owner = reps[max(0, bisect.bisect_right(reps, c) - 1)]
                mass[owner] += float(p[c])
            return [weight * math.log(max(mass[c], 1e-30)) for c in cards]

        return bonus

    def act(self, obs: Observation) -> Action:
        start = time.perf_counter()
        phase = obs.phase
        legal = obs.legal
        if phase is Phase.PLAY and not legal.cards & (legal.cards - 1):
            return C.cards_of(legal.cards)[0]  # forced: no thinking
        rng = self._rng(obs)
        sampler = self.worlds_for(obs)
        if phase is Phase.PLAY:
            return choose_card(obs, sampler, rng, self._card_budget(start), self._card_prior(obs))
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

    def decide(self, obs: Observation) -> Searched:
        """``act``'s decision together with the value of every option the search weighed
        (``oudler selfplay`` records them). The same searches with the same randomness as
        ``act``, so the same action (tests/test_selfplay.py); ``act`` itself skips building the
        options, which the table does not need."""
        start = time.perf_counter()
        phase = obs.phase
        legal = obs.legal
        if phase is Phase.PLAY and not legal.cards & (legal.cards - 1):
            return C.cards_of(legal.cards)[0], None
        rng = self._rng(obs)
        sampler = self.worlds_for(obs)
        if phase is Phase.PLAY:
            opts: Options[Any] = card_options(obs, sampler, rng, self._card_budget(start))
            prior = self._card_prior(obs)
            bonus = prior(opts.actions) if prior is not None and len(opts.kept) > 1 else None
            return opts.actions[opts.best(bonus)], opts
        if phase is Phase.BIDDING:
            if not any(b is not None for b in legal.bids):
                return None, None
            budget = self._budget(start, self.budget_bid_ms, bid=True)
            scores, passing = contract_values(obs, sampler, rng, budget)
            bids = bid_options(obs, scores, passing, bid_margin(budget))
            # choose_bid's rule: the best gain over passing if it beats the margin, which is
            # the best of these values (passing's value plus the gain less the margin)
            return bids.actions[bids.best()], bids
        if phase is Phase.DISCARD:
            budget = self._budget(start, self.budget_bid_ms, bid=True)
            dopts = discard_options(obs, sampler, rng, budget)
            if len(dopts.actions) == 1:
                return C.cards_of(dopts.actions[0]), None
            cards = [C.cards_of(d) for d in dopts.actions]
            best = dopts.best()
            return cards[best], Options(cards, dopts.values, dopts.kept, dopts.worlds)
        if phase is Phase.CHELEM:
            hand = obs.hand
            if (hand & (C.TRUMPS | C.EXCUSE_BIT)).bit_count() < 11:
                return False, None  # choose_chelem: far from a chelem, no simulation
            budget = self._budget(start, self.budget_bid_ms // 3)
            d_no, d_yes, made = chelem_samples(obs, sampler, rng, budget)
            mean, _ = mean_se([y - n for y, n in zip(d_yes, d_no, strict=True)])
            announce = made >= CHELEM_MADE * len(d_no) and mean > 0
            return announce, chelem_options(d_no, d_yes)
        if phase is Phase.POIGNEE:
            sizes = legal.poignee_sizes
            if not sizes:
                return [], None
            assert obs.declarer is not None
            budget = self._budget(start, self.poignee_budget_ms, 0.5)
            ds = poignee_samples(obs, sampler, rng, budget)
            mine = obs.seat == obs.declarer
            p = sum((d > 0) == mine for d in ds) / max(len(ds), 1)
            shown = poignee_shown(obs, max(sizes)) if p >= POIGNEE_WIN else []
            return shown, poignee_options(obs, ds)
        raise ValueError(f"nothing to decide in the {phase.value} phase")
