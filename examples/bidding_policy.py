"""Learn when to bid, by tabular Monte Carlo, against three bots; then measure it.

The agent sits at seat 0 of ``oudler.rl.gymnasium.TarotEnv``. It makes its own call from a table
indexed by (its trumps, its oudlers, its Kings, the highest bid so far); every later decision of
its seat (discard, chelem, poignée, cards) is taken by a novice bot of its own, whose typed action
``oudler.encoding.action_ids`` turns into action ids. So only the bidding is learnt.

Training: epsilon-greedy; the value of a (state, call) is the mean deal score that followed it.
Evaluation: on held-out deals, each played twice with everything else equal: once with the learnt
table's calls, once with the novice's own bidding rule. The report gives both means and the mean
paired difference with a 95 % interval.

    python examples/bidding_policy.py --episodes 20000 --eval 2000

The last line printed is the report as JSON.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from oudler.bots import make_bot
from oudler.core import Contract, Observation, Phase
from oudler.core import cards as C
from oudler.encoding import action_ids, bid_action
from oudler.rl.gymnasium import TarotEnv

CALLS = (None, *Contract)  # pass, prise, garde, garde sans, garde contre
State = tuple[int, int, int, int]


def state_of(obs: Observation) -> State:
    """What the table looks at: trumps (5 buckets), oudlers, Kings (3 buckets), highest bid."""
    hand = obs.hand
    trumps = min(4, max(0, ((hand & C.TRUMPS).bit_count() - 3) // 2))
    oudlers = (hand & C.OUDLERS).bit_count()
    kings = min(2, (hand & C.KINGS).bit_count() // 2)
    high = max((int(b) for b in obs.bids if b is not None), default=0)
    return trumps, oudlers, kings, high


class Table:
    """Mean return of each call in each state; unseen calls are tried first when exploring."""

    def __init__(self) -> None:
        self.total: dict[tuple[State, int], float] = defaultdict(float)
        self.count: dict[tuple[State, int], int] = defaultdict(int)

    def value(self, state: State, call: int) -> float:
        n = self.count[(state, call)]
        return self.total[(state, call)] / n if n else 0.0

    def best(self, state: State, legal: list[int]) -> int:
        return max(legal, key=lambda call: (self.value(state, call), -call))

    def update(self, visits: list[tuple[State, int]], ret: float) -> None:
        for key in visits:
            self.total[key] += ret
            self.count[key] += 1


def play(
    env: TarotEnv, seed: int, choose: Any, deal: tuple[int, int] | None = None
) -> tuple[float, list[tuple[State, int]]]:
    """One deal; ``choose(obs, legal_calls)`` makes the agent's call. Returns its score and the
    (state, call) pairs it chose."""
    options = None if deal is None else {"deal_seed": deal[0], "dealer": deal[1]}
    env.reset(seed=seed, options=options)
    helper = make_bot("novice", seed=seed)
    helper.begin_deal(env.seat)
    visits: list[tuple[State, int]] = []
    reward, done = 0.0, False
    while not done:
        stepper = env.stepper
        assert stepper is not None
        obs = stepper.observation(env.seat)
        if obs.phase is Phase.BIDDING:
            legal = [CALLS.index(b) for b in obs.legal.bids]
            call = choose(obs, legal)
            visits.append((state_of(obs), call))
            ids = [bid_action(CALLS[call])]
        else:
            ids = action_ids(obs.phase, helper.act(obs))
        for action in ids:
            _, reward, done, _, _ = env.step(action)
    return reward, visits


def novice_call(obs: Observation, legal: list[int]) -> int:
    bot = make_bot("novice", seed=0)
    return CALLS.index(bot.act(obs))  # type: ignore[arg-type, unused-ignore]


def run(episodes: int, evaluations: int, seed: int, level: str) -> dict[str, Any]:
    rng = random.Random(seed)
    env = TarotEnv(level=level, seat=0)
    table = Table()
    epsilon = 0.2

    def explore(obs: Observation, legal: list[int]) -> int:
        state = state_of(obs)
        untried = [c for c in legal if not table.count[(state, c)]]
        if untried and rng.random() < 0.5:
            return rng.choice(untried)
        if rng.random() < epsilon:
            return rng.choice(legal)
        return table.best(state, legal)

    for episode in range(episodes):
        ret, visits = play(env, rng.getrandbits(32), explore)
        table.update(visits, ret)
        if episode and episode % 1000 == 0:
            print(f"trained {episode} deals, {len(table.count)} (state, call) pairs seen")

    def greedy(obs: Observation, legal: list[int]) -> int:
        return table.best(state_of(obs), legal)

    eval_rng = random.Random(seed + 1)  # held-out deals, the same for both players
    learnt, baseline = [], []
    for _ in range(evaluations):
        deal = (eval_rng.getrandbits(40), eval_rng.randrange(4))
        bot_seed = eval_rng.getrandbits(32)
        learnt.append(play(env, bot_seed, greedy, deal)[0])
        baseline.append(play(env, bot_seed, novice_call, deal)[0])
    diffs = [a - b for a, b in zip(learnt, baseline, strict=True)]
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else 0.0
    mean = statistics.fmean(diffs)
    return {
        "episodes": episodes,
        "evaluations": evaluations,
        "level": level,
        "pairs_seen": len(table.count),
        "learnt_mean": statistics.fmean(learnt),
        "novice_rule_mean": statistics.fmean(baseline),
        "difference": {"mean": mean, "ci95": [mean - half, mean + half]},
    }


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=5000, help="training deals")
    parser.add_argument("--eval", type=int, default=1000, help="held-out deals, played twice")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--level", default="novice", help="the three opponents' level")
    args = parser.parse_args(argv)
    if args.episodes < 0 or args.eval < 2:
        parser.error("--episodes must be >= 0 and --eval >= 2")
    report = run(args.episodes, args.eval, args.seed, args.level)
    print(json.dumps(report))
    return report


if __name__ == "__main__":
    main(sys.argv[1:])
