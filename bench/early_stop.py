"""The expert's early stop (level option ``/sX``, ``Budget.stop``): what it saves and what it costs.

    .venv/bin/python bench/early_stop.py replay --positions 40 [--worlds 1024]
    .venv/bin/python bench/early_stop.py deals --deals 4 [--levels expert,expert@s1]
    .venv/bin/python bench/early_stop.py log docs/results/NAME.log.jsonl.gz

``replay`` chooses the stop's margin and z. On positions of seeded deals played by club (the
first bid of a deal, the discard when club takes the dog, and cards with a choice), each
decision is searched as the expert searches it, at a fixed work of ``--worlds`` worlds (about
what the table's budget buys; the same seeded worlds for every setting): with the race alone
(today's expert) and with the stop at each setting of ``--stops`` (margins, points of the
seat's score), ``--zs`` and ``--afters``. Each choice is scored by its regret on
``--truth-worlds`` other worlds on which every option is played (the best option's mean there
less the chosen one's, in points of the seat's score). It prints per phase the mean regret,
its excess over the race alone's (paired by position, with its standard error), how often
the choice is the race's, and the worlds used as a share of ``--worlds`` (median, p95, mean).

``log`` reads an arena log (``oudler arena --log``) and prints each bot's decision seconds by
phase (median, p95, mean) and per deal per seat: the reference's from the baseline tables,
a tested bot's from its own seat in its tables. It is how the stop's SPRT run at the table's
budget gives the CPU of both bots in the same run (docs/arena.md).

``deals`` plays the same seeded deals with each level of ``--levels`` in all four seats, at the
table's wall-time budgets unless the levels name fixed work, and prints for each level the
CPU seconds (``time.process_time``, this process only) per decision by phase (median, p95, n)
and per deal per seat (median, p95, mean). The levels play one after the other, each in a
fresh process: at the wall-time budgets run it on an otherwise idle
machine; fixed work (``expert@w1000/b8000``, about what the table's budgets buy on an idle
core: 1.9 s of CPU per deal per seat for today's expert, as at the table) measures the same CPU
on a loaded one.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import defaultdict
from collections.abc import Iterator, Sequence
from typing import Any

from oudler.bots import make_bot
from oudler.core import Deal, Observation, Phase

Samples = list[list[float]]


def percentile(xs: Sequence[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


# ---------------------------------------------------------------------- replay


def positions(seed: int, deals: int) -> Iterator[tuple[str, Observation]]:
    """(phase, observation) of the seat to move: each deal's first bid with a contract open,
    the discard when club takes the dog, and three cards at random points with a choice."""
    for i in range(deals):
        deal = Deal.from_seed(seed + i, i % 4)
        rng = random.Random(seed + i)
        stops = set(rng.sample(range(72), 3))
        bots = [make_bot("club", seed=4 * i + s) for s in range(4)]
        for s, bot in enumerate(bots):
            bot.begin_deal(s)
        bid_taken = False
        while not deal.is_over:
            seat = deal.to_move
            obs = deal.observation(seat)
            if deal.phase is Phase.BIDDING and not bid_taken and any(obs.legal.bids):
                bid_taken = True
                yield "bidding", obs
            elif deal.phase is Phase.DISCARD:
                yield "discard", obs
            elif deal.phase is Phase.PLAY and len(deal.play_log) in stops:
                cards = obs.legal.cards
                if cards & (cards - 1):
                    yield "play", obs
            deal.act(bots[seat].act(obs), seat)


def searched(
    phase: str, obs: Observation, worlds: int, seed: int, **budget: float | None
) -> tuple[Samples, int, float]:
    """The expert's search of this decision at a fixed work of ``worlds`` worlds, with the
    ``Budget`` fields given (``race_after=10**9``: no race, every option on every world): every
    option's values world by world (the seat's score), the option it chooses and the seconds
    it took."""
    from oudler.bots.expert import contract, search
    from oudler.bots.expert.sampler import facts, sampler_for

    b = search.Budget(worlds=worlds, **budget)  # type: ignore[arg-type]
    b.playout_tail = search.PLAYOUT_TAIL if phase == "play" else 0
    sampler = sampler_for(facts(obs))
    rng = random.Random(seed)
    start = time.perf_counter()
    opts: search.Options[Any]
    if phase == "play":
        opts = search.card_options(obs, sampler, rng, b)
    elif phase == "discard":
        opts = contract.discard_options(obs, sampler, rng, b)
    else:
        scores, passing = contract.contract_values(obs, sampler, rng, b)
        opts = contract.bid_options(obs, scores, passing, contract.bid_margin(b))
    return opts.samples, opts.best(), time.perf_counter() - start


def replay(args: argparse.Namespace) -> None:
    settings: list[tuple[float | None, float, int]] = [(None, 0.0, 0)]
    for stop in args.stops:
        for z in args.zs:
            for after in args.afters:
                settings.append((stop, z, after))
    regret: dict[str, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    share: dict[str, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    same: dict[str, dict[int, list[bool]]] = defaultdict(lambda: defaultdict(list))
    speed: dict[str, list[float]] = defaultdict(list)
    counted = 0
    for k, (phase, obs) in enumerate(positions(args.seed, args.deals)):
        if counted >= args.positions:
            break
        if phase not in args.phases:
            continue
        counted += 1
        truth, _, took = searched(phase, obs, args.truth_worlds, 2 * k + 1, race_after=10**9)
        speed[phase].append(len(truth[0]) / took)
        means = [statistics.fmean(t) for t in truth]
        top = max(means)
        choices = []
        for j, (stop, z, after) in enumerate(settings):
            if stop is None:
                samples, best, _ = searched(phase, obs, args.worlds, 2 * k)
            else:
                samples, best, _ = searched(
                    phase, obs, args.worlds, 2 * k, stop=stop, stop_z=z, stop_after=after
                )
            choices.append(best)
            regret[phase][j].append(top - means[best])
            share[phase][j].append(max(len(x) for x in samples) / args.worlds)
            same[phase][j].append(best == choices[0])
    print(
        f"early stop replayed on {counted} positions of club deals (seed {args.seed}), "
        f"{args.worlds} worlds each, regret on {args.truth_worlds} other worlds "
        "(points of the seat's score)"
    )
    for phase in ("bidding", "discard", "play"):
        if phase not in regret:
            continue
        rate = statistics.median(speed[phase])
        print(f"{phase}: n={len(regret[phase][0])}, median {rate:,.0f} worlds/s")
        for j, (stop, z, after) in enumerate(settings):
            r = regret[phase][j]
            # paired with the race alone, position by position: the stop's own cost
            extra = [a - b for a, b in zip(r, regret[phase][0], strict=True)]
            se = statistics.stdev(extra) / len(r) ** 0.5 if len(r) > 1 else 0.0
            name = "race only" if stop is None else f"stop {stop:g} z {z:g} after {after}"
            used = share[phase][j]
            print(
                f"  {name:<26} regret {statistics.fmean(r):6.2f}, more than the race "
                f"{statistics.fmean(extra):+6.2f} +- {se:5.2f}  "
                f"same {sum(same[phase][j]) / len(r):4.0%}  worlds median "
                f"{percentile(used, 0.5):4.0%} p95 {percentile(used, 0.95):4.0%} "
                f"mean {statistics.fmean(used):4.0%}"
            )


# ---------------------------------------------------------------------- deals


def play_level(level: str, seed: int, count: int) -> tuple[dict[str, list[float]], list[float]]:
    """CPU seconds of ``level``'s decisions over ``count`` seeded deals, all four seats its:
    by phase, and per deal per seat."""
    cpu: dict[str, list[float]] = defaultdict(list)
    per_deal: list[float] = []
    for i in range(count):
        deal = Deal.from_seed(seed + i, i % 4)
        bots = [make_bot(level, seed=1000 * (seed + i) + s) for s in range(4)]
        for s, bot in enumerate(bots):
            bot.begin_deal(s)
        total = 0.0
        while not deal.is_over:
            seat = deal.to_move
            phase = deal.phase
            obs = deal.observation(seat)
            start = time.process_time()
            action = bots[seat].act(obs)
            took = time.process_time() - start
            cpu[phase.value].append(took)
            total += took
            deal.act(action, seat)
        per_deal.append(total / 4)  # per seat: one bot's share of the deal
    return dict(cpu), per_deal


def deals(args: argparse.Namespace) -> None:
    import multiprocessing

    levels = args.levels.split(",")
    cpu: dict[str, dict[str, list[float]]] = {}
    per_deal: dict[str, list[float]] = {}
    wall: dict[str, float] = {}
    for level in levels:
        # a fresh process per level: the kernel's transposition table (one per process) would
        # carry the exact values solved by the level before to the same positions
        started = time.perf_counter()
        with multiprocessing.get_context("spawn").Pool(1) as pool:
            cpu[level], per_deal[level] = pool.apply(play_level, (level, args.seed, args.deals))
        wall[level] = time.perf_counter() - started
    print(
        f"CPU seconds of the bots' decisions over {args.deals} deals (seed {args.seed}), all "
        "four seats the level, one process per level; per decision by phase and per deal per seat"
    )
    for level in levels:
        print(f"{level}  ({wall[level]:.0f} s wall)")
        for phase in ("bidding", "discard", "chelem", "poignee", "play"):
            xs = cpu[level].get(phase, [])
            if xs:
                print(
                    f"  {phase:<8} n={len(xs):<5} median {statistics.median(xs):7.3f} s  "
                    f"p95 {percentile(xs, 0.95):7.3f} s  mean {statistics.fmean(xs):7.3f} s"
                )
        d = per_deal[level]
        print(
            f"  per deal per seat: median {statistics.median(d):6.2f} s  "
            f"p95 {percentile(d, 0.95):6.2f} s  mean {statistics.fmean(d):6.2f} s"
        )
    base = statistics.fmean(per_deal[levels[0]])
    for level in levels[1:]:
        ratio = statistics.fmean(per_deal[level]) / base
        print(f"{level} / {levels[0]}: {ratio:.2f} of the CPU per deal")


def from_log(args: argparse.Namespace) -> None:
    """An arena log's decision times (seconds of wall time, each bot's own decisions; about
    its CPU time on a machine with a free core per process): per bot, per decision by phase
    and per deal per seat, the reference from the baseline tables (all four seats), a tested
    bot from its four tables (its one seat in each)."""
    import gzip
    import json

    opener = gzip.open if args.log.endswith(".gz") else open
    with opener(args.log, "rt") as f:
        lines = [json.loads(x) for x in f if x.strip()]
    header, rows = lines[0], [r for r in lines[1:] if "index" in r]
    reference = header["reference"]
    bots = [*header["tested"], reference]
    phases: dict[str, dict[str, list[float]]] = {b: defaultdict(list) for b in bots}
    per_deal: dict[str, list[float]] = {b: [] for b in bots}
    for row in rows:
        tables = [(reference, row["baseline"], None)]
        for bot in header["tested"]:
            tables.extend((bot, t, t["seats"].index(bot)) for t in row["tested"][bot])
        spent: dict[str, float] = defaultdict(float)
        for bot, table, seat in tables:
            for s, phase, dt in table["times"]:
                if seat is None or s == seat:
                    phases[bot][phase].append(dt)
                    spent[bot] += dt
        for bot in bots:
            per_deal[bot].append(spent[bot] / 4)
    print(f"{args.log}: {len(rows)} deals; seconds per decision by phase, per deal per seat")
    for bot in bots:
        print(f"{bot}{' (reference)' if bot == reference else ''}")
        for phase in ("bidding", "discard", "chelem", "poignee", "play"):
            xs = phases[bot].get(phase, [])
            if xs:
                print(
                    f"  {phase:<8} n={len(xs):<6} median {statistics.median(xs):7.3f}  "
                    f"p95 {percentile(xs, 0.95):7.3f}  mean {statistics.fmean(xs):7.3f}"
                )
        d = per_deal[bot]
        print(
            f"  per deal per seat: median {statistics.median(d):6.2f}  "
            f"p95 {percentile(d, 0.95):6.2f}  mean {statistics.fmean(d):6.2f}"
        )
    base = statistics.fmean(per_deal[reference])
    for bot in header["tested"]:
        ratio = statistics.fmean(per_deal[bot]) / base
        print(f"{bot} / {reference}: {ratio:.2f} of the time per deal")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("replay")
    r.add_argument("--positions", type=int, default=40)
    r.add_argument("--deals", type=int, default=200, help="deals to draw positions from")
    r.add_argument("--seed", type=int, default=31)
    r.add_argument("--worlds", type=int, default=1024)
    r.add_argument("--truth-worlds", type=int, default=2048)
    r.add_argument("--phases", default="bidding,discard,play")
    r.add_argument("--stops", type=float, nargs="+", default=[0.5, 1.0, 2.0])
    r.add_argument("--zs", type=float, nargs="+", default=[2.0])
    r.add_argument("--afters", type=int, nargs="+", default=[96])
    d = sub.add_parser("deals")
    d.add_argument("--deals", type=int, default=4)
    d.add_argument("--seed", type=int, default=31)
    d.add_argument("--levels", default="expert,expert@s1")
    g = sub.add_parser("log")
    g.add_argument("log", help="an arena log (.jsonl or .jsonl.gz)")
    args = p.parse_args()
    if args.cmd == "log":
        from_log(args)
    elif args.cmd == "replay":
        args.phases = args.phases.split(",")
        replay(args)
    else:
        deals(args)


if __name__ == "__main__":
    main()
