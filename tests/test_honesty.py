"""Hidden cards cannot matter: for the same seed and observation, swapping hidden cards between
the other seats (and the unseen dog or discard), consistently with everything the seat has seen,
never changes a bot's decision.

A deal is played with bots while every action is logged. At a decision of the watched seat, two
hidden cards of two other holders are exchanged in the deal as dealt (the discard follows the
exchange), and the logged actions are replayed on the new deal: if the replay is legal and the
watched seat's observations are the same as before, the exchange is consistent with what it has
seen. A fresh bot with the same seed, shown those observations, must then decide exactly as before.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable

import pytest

from oudler.bots import LEVELS, expert_available, make_bot
from oudler.bots.base import Bot
from oudler.core import Action, Contract, Deal, IllegalActionError, Observation, Phase
from oudler.core import cards as C
from oudler.core.errors import NotationError

Log = list[tuple[int, Action]]


def _factory(level: str) -> Callable[[int], Bot]:
    if level.startswith("expert"):
        # A fixed number of sampled worlds: reproducible whatever the machine's load (a wall-time
        # budget would make the same observation give different decisions on a busy machine).
        expert = importlib.import_module("oudler.bots.expert").ExpertBot
        kernel = level != "expert-v1"  # expert-v1: the same search in pure Python
        inference = level != "expert-noinf"  # expert: worlds weighted by calls and cards
        return lambda seed: expert(seed, worlds=4, kernel=kernel, inference=inference)
    if level == "policy":
        # Whatever its weights, the network reads the observation only: random ones here (the
        # packaged file may not be trained yet).
        from oudler.bots.policy import PolicyBot, PolicyNet

        return lambda seed: PolicyBot(PolicyNet.init((32,), seed))
    return lambda seed: make_bot(level, seed=seed)


def _deal(index: int) -> Deal:
    while True:
        deal = Deal.from_seed(500 + index, index % 4)
        if not deal.is_over:
            return deal
        index += 1000


def _play_logged(deal: Deal, bots: list[Bot], forced: Contract | None, declarer: int) -> Log:
    log: Log = []
    for seat, bot in enumerate(bots):
        bot.begin_deal(seat)
    while not deal.is_over:
        seat = deal.to_move
        if deal.phase is Phase.BIDDING and forced is not None:
            action: Action = forced if seat == declarer else None
        else:
            action = bots[seat].act(deal.observation(seat))
        deal.act(action, seat)
        log.append((seat, action))
    return log


def _replay(hands: list[int], dog: int, dealer: int, log: Log, upto: int) -> Deal:
    deal = Deal(hands, dog, dealer)
    for seat, action in log[:upto]:
        deal.act(action, seat)
    return deal


def _public(deal: Deal) -> int:
    """Cards any seat knows the place of: played, shown dog, poignées, forced discard trumps."""
    known = C.mask_of(deal.play_log) | deal.discard_trumps
    for shown in deal.poignees.values():
        known |= shown
    if deal.contract is not None and deal.contract.dog_shown:
        known |= deal.dog
    return known


def _map(action: Action, x: int, y: int) -> Action:
    """The action with cards x and y exchanged (a discard or a poignée may name them)."""
    if isinstance(action, list):
        return [y if c == x else x if c == y else c for c in action]
    return action


def _swap(
    deal: Deal, log: Log, upto: int, watched: int, rng: random.Random, rejected: list[int]
) -> tuple[list[int], int, Log] | None:
    """A consistent exchange of two hidden cards between two holders other than ``watched``
    (seats, or the dog while it is unseen), or None if none was found in a few tries. Exchanges
    that contradict what was played are counted in ``rejected``."""
    now = _replay(list(deal.dealt), deal.dog, deal.dealer, log, upto)
    hidden = C.ALL_CARDS & ~_public(now) & ~now.hands[watched]
    holders = [p for p in range(4) if p != watched]
    dog_unseen = now.phase is Phase.BIDDING or not (now.contract and now.contract.dog_shown)
    sources = [deal.dealt[p] for p in range(4)] + [deal.dog]
    if dog_unseen:
        holders.append(4)
    for _ in range(60):
        a, b = rng.sample(holders, 2)
        pool_a = C.cards_of(sources[a] & hidden)
        pool_b = C.cards_of(sources[b] & hidden)
        if not pool_a or not pool_b:
            continue
        x, y = rng.choice(pool_a), rng.choice(pool_b)
        new = list(sources)
        new[a] = new[a] & ~(1 << x) | 1 << y
        new[b] = new[b] & ~(1 << y) | 1 << x
        new_log = [(s, _map(act, x, y)) for s, act in log]
        try:
            other = _replay(new[:4], new[4], deal.dealer, new_log, upto)
        except (IllegalActionError, NotationError):
            rejected[0] += 1  # the exchange contradicts something played: not consistent
            continue
        if other.is_over != now.is_over:
            continue
        if other.observation(watched) != now.observation(watched):
            continue
        return new[:4], new[4], new_log
    return None


def _decisions(
    make: Callable[[int], Bot], seed: int, hands: list[int], dog: int, dealer: int, log: Log,
    upto: int, watched: int, forced: bool,
) -> list[tuple[Observation, Action]]:  # fmt: skip
    """What a fresh bot with ``seed`` in seat ``watched`` decides at each of its decisions up to
    action ``upto``, given only the observations of that replay (fixed bids are not its own)."""
    bot = make(seed)
    bot.begin_deal(watched)
    deal = Deal(hands, dog, dealer)
    out = []
    for i, (seat, action) in enumerate(log[: upto + 1]):
        if seat == watched and not (forced and deal.phase is Phase.BIDDING):
            obs = deal.observation(watched)
            out.append((obs, bot.act(obs)))
        if i < upto:
            deal.act(action, seat)
    return out


CASES = {"random": 80, "novice": 80, "club": 80, "expert": 4, "expert-v1": 4, "expert-noinf": 4,
         "policy": 40}  # fmt: skip


@pytest.mark.parametrize("level", LEVELS)
def test_swapping_hidden_cards_never_changes_a_decision(level: str) -> None:
    expert = level.startswith("expert")
    if expert and not expert_available():
        pytest.skip("the expert level (oudler.bots.expert) is not available yet")
    make = _factory(level)
    rng = random.Random(level)
    swaps = 0
    rejected = [0]
    for i in range(CASES[level]):
        deal = _deal(i)
        # Every third deal fixes a Garde sans or a Garde contre, so the unseen dog is swapped too.
        forced = {1: Contract.GARDE_SANS, 2: Contract.GARDE_CONTRE}.get(i % 3)
        declarer = i % 4
        bots = [make(1000 * i + s) if not expert else make_bot("club", seed=s)
                for s in range(4)]  # fmt: skip
        watched = (i * 3 + 1) % 4
        if expert:
            bots[watched] = make(1000 * i + watched)
        log = _play_logged(deal, bots, forced, declarer)
        mine = [n for n, (seat, _) in enumerate(log) if seat == watched]
        if forced is not None:
            mine = [n for n in mine if n >= 4]  # bids were not the bot's
        points = sorted(rng.sample(mine, min(len(mine), 3 if not expert else 2)))
        for upto in points:
            # The bot decides as it did in the real deal...
            here = _decisions(make, 1000 * i + watched, list(deal.dealt), deal.dog, deal.dealer,
                              log, upto, watched, forced is not None)  # fmt: skip
            assert here[-1][1] == log[upto][1]
            # ...and as it does after two hidden cards change hands.
            found = _swap(deal, log, upto, watched, rng, rejected)
            if found is None:
                continue
            hands, dog, new_log = found
            there = _decisions(make, 1000 * i + watched, hands, dog, deal.dealer, new_log, upto,
                               watched, forced is not None)  # fmt: skip
            assert [o for o, _ in there] == [o for o, _ in here]
            assert [a for _, a in there] == [a for _, a in here], (level, i, upto)
            swaps += 1
    assert swaps >= CASES[level]  # enough consistent exchanges were found to mean something
    assert rejected[0] > 0  # and the consistency check turned some exchanges down
