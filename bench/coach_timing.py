"""The coach: hint time and whole-deal analysis time, at the default budgets.

    .venv/bin/python bench/coach_timing.py hints --deals 8
    .venv/bin/python bench/coach_timing.py deals --deals 3

``hints`` plays seeded deals with club players and asks ``advise`` (default budget, 700 ms) at every
decision that has a choice; it prints the wall time p50/p95/max per kind and overall. ``deals``
analyses the same kind of deals (``analyze_deal`` at its default budget) for one seat (the
declarer) and for all four, and prints the wall time of each. One process, one core; run it under
``flock /tmp/oudler-heavy.lock`` on the shared machine.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import defaultdict

from oudler.bots import make_bot
from oudler.coach import advise, analyze_deal
from oudler.core import Deal, Phase
from oudler.core.records import deal_to_record


def _deal(seed: int) -> tuple[Deal, dict[str, object]]:
    """A deal with a contract, played to its end by club players, and its record."""
    while True:
        deal = Deal.from_seed(seed, seed % 4)
        bots = [make_bot("club", seed=seed * 4 + s) for s in range(4)]
        while not deal.is_over:
            s = deal.to_move
            deal.act(bots[s].act(deal.observation(s)), s)
        if deal.contract is not None:
            return deal, deal_to_record(deal)
        seed += 1000


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def hints(deals: int) -> None:
    times: dict[str, list[float]] = defaultdict(list)
    for i in range(deals):
        deal, _ = _deal(100 + i)
        replay = Deal(deal.dealt, deal.dog, deal.dealer)
        bots = [make_bot("club", seed=(100 + i) * 4 + s) for s in range(4)]
        while not replay.is_over:
            s = replay.to_move
            obs = replay.observation(s)
            choice = replay.phase is not Phase.PLAY or obs.legal.cards & (obs.legal.cards - 1)
            if choice:
                start = time.perf_counter()
                advice = advise(obs, seed=i)
                times[advice.kind].append(time.perf_counter() - start)
            replay.act(bots[s].act(obs), s)
    every = [t for ts in times.values() for t in ts]
    for kind, ts in [*sorted(times.items()), ("all", every)]:
        print(
            f"{kind:8} n={len(ts):4}  p50 {statistics.median(ts) * 1000:6.0f} ms"
            f"  p95 {_pct(ts, 0.95) * 1000:6.0f} ms  max {max(ts) * 1000:6.0f} ms"
        )


def deals(count: int) -> None:
    for i in range(count):
        deal, record = _deal(200 + i)
        assert deal.declarer is not None
        start = time.perf_counter()
        one = analyze_deal(record, [deal.declarer])
        t1 = time.perf_counter() - start
        start = time.perf_counter()
        four = analyze_deal(record)
        t4 = time.perf_counter() - start
        print(
            f"deal {i}: {deal.contract.notation if deal.contract else '-'}; one seat "
            f"({len(one['decisions'])} decisions) {t1:5.1f} s; four seats "
            f"({len(four['decisions'])} decisions) {t4:5.1f} s"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    h = sub.add_parser("hints")
    h.add_argument("--deals", type=int, default=8)
    d = sub.add_parser("deals")
    d.add_argument("--deals", type=int, default=3)
    args = parser.parse_args()
    if args.what == "hints":
        hints(args.deals)
    else:
        deals(args.deals)


if __name__ == "__main__":
    main()
