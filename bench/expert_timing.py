"""The expert level: decision time per phase, and a quick duplicate strength check.

    .venv/bin/python bench/expert_timing.py timing --deals 6 [--busy]
    .venv/bin/python bench/expert_timing.py strength --deals 40 --baseline club --card-ms 150
    .venv/bin/python bench/expert_timing.py speed --deals 200
    .venv/bin/python bench/expert_timing.py worlds --deals 60
    .venv/bin/python bench/expert_timing.py posterior --deals 40 [--eps 0.4] [--whole-world]
    .venv/bin/python bench/expert_timing.py start --runs 5

``timing`` plays seeded deals with the expert in every seat at its default budgets and prints the
decision time p50/p95/max per phase. ``--busy`` keeps the other core busy meanwhile (one spinning
process, ended at the end of the run), as on a shared 2-core machine.

``speed`` measures the parts on positions at random points of random deals: building the sampler
(inference and counting), drawing one world, one heuristic playout to the end, and an exact solve
of the last three tricks.

``worlds`` counts the worlds the card search plays per decision at the card budget, on positions
at random points of deals played by club (the expert deciding for the seat to move; decisions
with one candidate left out), with and without inference. Run it with PYTHONPATH set to the
sources of an earlier commit for a before/after figure.

``posterior`` measures inference without playing: on positions of deals played by ``--players``
(club by default), the mean log-probability of each unseen card's true holder in 2,000 worlds drawn
with and without inference (higher is better), and the paired difference with its 95 % interval;
``--eps`` sets the likelihood kept by a card off the policy (in every situation);
``--whole-world`` lets the policy that explains a seat's cards see the whole world (as before
the fair view).

``start`` measures start-up: fresh interpreters (``python bench/expert_timing.py start-child``,
one per run) each play a seeded deal with the expert in all four seats, at its shipped budgets,
until the first card; the wall time from launching the interpreter to the end of the first
decision (a bid) and of the first card decision is taken, first with an empty ``NUMBA_CACHE_DIR``
(a new temporary directory per run: the first start after an install, compilation included),
then with the cache the last of those runs filled (later starts). It prints the medians and
ranges over ``--runs`` runs and the load average before and after.

``strength`` plays duplicate deals: the baseline bot in all four seats, then the expert in each
seat in turn against three baselines, with the same seeds for everyone's own randomness. Per deal
the figure is the expert's mean score over its four seats minus the baseline's over the same seats;
the mean over deals is printed with its 95 % confidence interval. ``oudler arena --bots
expert,club`` is the official measure; this one allows smaller budgets for quick runs.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import statistics
import time
from collections import defaultdict
from collections.abc import Iterator, Sequence

from oudler.bots import make_bot
from oudler.bots.base import Bot
from oudler.bots.expert import ExpertBot
from oudler.core import Contract, Deal, Observation, Phase


def _spin() -> None:  # pragma: no cover - a load generator
    x = 0
    while True:
        x += 1


def percentile(xs: Sequence[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def play(deal: Deal, bots: Sequence[Bot], times: dict[str, list[float]] | None = None) -> Deal:
    for seat, bot in enumerate(bots):
        bot.begin_deal(seat)
    while not deal.is_over:
        seat = deal.to_move
        phase = deal.phase
        start = time.perf_counter()
        action = bots[seat].act(deal.observation(seat))
        if times is not None and isinstance(bots[seat], ExpertBot):
            times[phase.value].append(time.perf_counter() - start)
        deal.act(action, seat)
    return deal


def timing(args: argparse.Namespace) -> None:
    spinner = None
    if args.busy:
        spinner = multiprocessing.Process(target=_spin, daemon=True)
        spinner.start()
    try:
        times: dict[str, list[float]] = defaultdict(list)
        started = time.perf_counter()
        for i in range(args.deals):
            deal = Deal.from_seed(args.seed + i, i % 4)
            bots: list[Bot] = [
                ExpertBot(seed=4 * i + s, budget_card_ms=args.card_ms, budget_bid_ms=args.bid_ms)
                for s in range(4)
            ]
            play(deal, bots, times)
        wall = time.perf_counter() - started
    finally:
        if spinner is not None:
            spinner.terminate()
            spinner.join()
    print(
        f"expert decision times over {args.deals} deals (budgets card {args.card_ms} ms, "
        f"bid/discard {args.bid_ms} ms{', other core busy' if args.busy else ''}; {wall:.0f} s)"
    )
    for phase in ("bidding", "discard", "chelem", "poignee", "play"):
        xs = times.get(phase, [])
        if xs:
            print(
                f"  {phase:<8} n={len(xs):<4} p50 {1000 * percentile(xs, 0.5):6.0f} ms   "
                f"p95 {1000 * percentile(xs, 0.95):6.0f} ms   max {1000 * max(xs):6.0f} ms"
            )


def club_positions(
    seed: int, deals: int, rng: random.Random, most: int
) -> Iterator[tuple[int, Observation]]:
    """Positions of seeded deals (deal ``i``: seed ``seed + i``, dealer ``i % 4``) that club
    players (seeded by ``i``) bid, discard and play up to a random card below ``most`` (drawn
    from ``rng`` once the previous position has been used): ``i`` and the observation of the seat
    to move. Deals over before that are skipped."""
    for i in range(deals):
        deal = Deal.from_seed(seed + i, i % 4)
        if deal.is_over:
            continue
        stop = rng.randrange(0, most)
        bots = [make_bot("club", seed=i * 4 + s) for s in range(4)]
        for s, bot in enumerate(bots):
            bot.begin_deal(s)
        while not deal.is_over and not (deal.phase is Phase.PLAY and len(deal.play_log) >= stop):
            deal.act(bots[deal.to_move].act(deal.observation(deal.to_move)), deal.to_move)
        if not deal.is_over and deal.phase is Phase.PLAY:
            yield i, deal.observation(deal.to_move)


def speed(args: argparse.Namespace) -> None:
    from oudler.bots.expert.playout import playout as run_playout
    from oudler.bots.expert.playout import solve
    from oudler.bots.expert.sampler import WorldSampler, facts
    from oudler.bots.expert.search import public_state, table_for, with_world

    rng = random.Random(args.seed)
    build: list[float] = []
    draw: list[float] = []
    full: list[float] = []
    end: list[float] = []
    for _, obs in club_positions(args.seed, args.deals, rng, 70):
        start = time.perf_counter()
        sampler = WorldSampler(facts(obs))
        build.append(time.perf_counter() - start)
        start = time.perf_counter()
        worlds = [sampler.sample(rng) for _ in range(50)]
        draw.append((time.perf_counter() - start) / 50)
        table = table_for(obs)
        base = public_state(obs)
        if obs.hand.bit_count() > 3 and not obs.tricks:
            start = time.perf_counter()
            for w in worlds[:20]:
                run_playout(with_world(base, w, table), table)
            full.append((time.perf_counter() - start) / 20)
        elif obs.hand.bit_count() == 3:
            start = time.perf_counter()
            for w in worlds[:20]:
                solve(with_world(base, w, table), table)
            end.append((time.perf_counter() - start) / 20)
    for name, xs, unit in (
        ("sampler setup", build, 1e3),
        ("one world", draw, 1e6),
        ("playout, 18 tricks", full, 1e6),
        ("exact solve, 3 tricks", end, 1e3),
    ):
        if xs:
            u = "ms" if unit == 1e3 else "us"
            print(
                f"  {name:<22} n={len(xs):<4} p50 {unit * percentile(xs, 0.5):8.1f} {u}   "
                f"p95 {unit * percentile(xs, 0.95):8.1f} {u}"
            )


def _table(
    args: argparse.Namespace, deal_seed: int, dealer: int, expert_seat: int | None
) -> tuple[tuple[int, ...], Deal]:
    deal = Deal.from_seed(deal_seed, dealer)
    if args.fixed_contract:
        from oudler.lab.arena import fixed_declarer

        declarer = fixed_declarer(deal)
        for _ in range(4):
            contract = Contract[args.fixed_contract.upper()]
            deal.bid(contract if deal.to_move == declarer else None)
    bots: list[Bot] = []
    for s in range(4):
        seed = 1000 * deal_seed + s
        if s == expert_seat:
            bots.append(
                ExpertBot(
                    seed=seed,
                    budget_card_ms=args.card_ms,
                    budget_bid_ms=args.bid_ms,
                    worlds=args.worlds,
                    bid_worlds=args.bid_worlds,
                    calls_imposed=bool(args.fixed_contract),
                )
            )
        else:
            bots.append(make_bot(args.baseline, seed=seed, calls_imposed=bool(args.fixed_contract)))
    play(deal, bots)
    assert deal.result is not None
    return deal.result.scores, deal


def duplicate(args: argparse.Namespace, i: int) -> tuple[float, int, int, int]:
    """(expert minus baseline, mean over the four seats; contracts the expert took, made, and
    the baseline took in the same seats)."""
    deal_seed = args.seed + i
    dealer = i % 4
    base, base_deal = _table(args, deal_seed, dealer, None)
    diffs = []
    taken = made = base_taken = 0
    for seat in range(4):
        scores, deal = _table(args, deal_seed, dealer, seat)
        diffs.append(scores[seat] - base[seat])
        if deal.declarer == seat:
            taken += 1
            made += bool(deal.result and deal.result.won)
        base_taken += base_deal.declarer == seat
    return statistics.fmean(diffs), taken, made, base_taken


def strength(args: argparse.Namespace) -> None:
    started = time.perf_counter()
    values: list[float] = []
    taken = made = base_taken = 0
    indices = list(range(args.deals))
    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs) as pool:
            results = pool.starmap(duplicate, [(args, i) for i in indices])
    else:
        results = []
        for i in indices:
            results.append(duplicate(args, i))
            if args.verbose:
                print(f"  deal {i}: {results[-1][0]:+.1f}", flush=True)
    for v, t, m, b in results:
        values.append(v)
        taken += t
        made += m
        base_taken += b
    n = len(values)
    mean = statistics.fmean(values)
    sd = statistics.stdev(values) if n > 1 else 0.0
    half = 1.96 * sd / math.sqrt(n) if n > 1 else math.inf
    fixed = f", fixed contract {args.fixed_contract}" if args.fixed_contract else ""
    worlds = f", {args.worlds} worlds" if args.worlds else ""
    worlds += f", {args.bid_worlds} bid worlds" if args.bid_worlds else ""
    wall = time.perf_counter() - started
    print(
        f"expert vs {args.baseline}: {n} duplicate deals{fixed} (card {args.card_ms} ms, "
        f"bid {args.bid_ms} ms{worlds}; {wall:.0f} s)"
    )
    print(
        f"  mean score per deal per seat: {mean:+.1f}  "
        f"95% CI [{mean - half:+.1f}, {mean + half:+.1f}]"
    )
    print(f"  sd per deal {sd:.1f}")
    print(f"  contracts taken by the expert {taken} (made {made}); by the baseline {base_taken}")


def worlds(args: argparse.Namespace) -> None:
    from oudler.bots.expert import search
    from oudler.bots.expert.sampler import facts, sampler_for

    tail = getattr(search, "PLAYOUT_TAIL", 0) if args.tail is None else args.tail
    modes = [True, False] if "inference" in search.Budget.__dataclass_fields__ else [True]
    rng = random.Random(args.seed)
    got: dict[bool, list[int]] = {m: [] for m in modes}
    open_: dict[bool, list[int]] = {m: [] for m in modes}
    for i, obs in club_positions(args.seed, args.deals, rng, 66):
        for m in modes:
            start = time.perf_counter()
            sampler = sampler_for(facts(obs))
            kw = {"inference": m} if len(modes) > 1 else {}
            budget = search.Budget(deadline=start + args.card_ms / 1000.0, **kw)
            budget.playout_tail = tail
            opts = search.card_options(obs, sampler, random.Random(i), budget)
            if len(opts.actions) < 2:
                continue
            got[m].append(opts.worlds)
            if len(opts.kept) > 1:
                open_[m].append(opts.worlds)
    print(
        f"worlds per card decision at {args.card_ms} ms, playout tail {tail} "
        f"(positions from {args.deals} deals)"
    )
    for m in modes:
        xs, ys = got[m], open_[m]
        name = "inference" if m else "no inference"
        if len(modes) == 1:
            name = "the expert"
        print(
            f"  {name:<12} n={len(xs):<3} median {percentile(xs, 0.5):>6} "
            f"p10 {percentile(xs, 0.1):>6} p90 {percentile(xs, 0.9):>6}; "
            f"still open at the deadline n={len(ys)} median "
            f"{percentile(ys, 0.5) if ys else 0:>6}"
        )


def posterior(args: argparse.Namespace) -> None:
    from oudler.bots.expert import sampler as sampling
    from oudler.core import cards as C

    if args.eps is not None:
        sampling.PLAY_EPS = (args.eps,) * 10
    if args.whole_world:
        sampling.PLAY_FAIR = False
    got: dict[bool, list[float]] = {True: [], False: []}
    for i in range(args.deals):
        deal = Deal.from_seed(args.seed + i, i & 3)
        if deal.is_over:
            continue
        bots = [make_bot(args.players, seed=4 * i + s) for s in range(4)]
        for s, bot in enumerate(bots):
            bot.begin_deal(s)
        stop = 8 + (i * 7) % 50
        while not deal.is_over and not (deal.phase is Phase.PLAY and len(deal.play_log) >= stop):
            deal.act(bots[deal.to_move].act(deal.observation(deal.to_move)))
        if deal.is_over or deal.phase is not Phase.PLAY:
            continue
        sampler = sampling.sampler_for(sampling.facts(deal.observation(deal.to_move)))
        held = [*deal.hands, deal.discard if deal.discard else deal.dog]
        unseen = C.cards_of(sampler.facts.unseen)
        for inference in (True, False):
            rows = sampler.draw_rows(random.Random(i), 2000, inference).tolist()
            worlds = [sampling.world_of(r) for r in rows]
            lp = 0.0
            for c in unseen:
                h = next(h for h in range(5) if held[h] >> c & 1)
                n = sum(1 for w in worlds if (w.hands[h] if h < 4 else w.pile) >> c & 1)
                lp += math.log((n + 0.5) / (len(worlds) + 1.5))
            got[inference].append(lp / max(1, len(unseen)))
    d = [a - b for a, b in zip(got[True], got[False], strict=True)]
    half = 1.96 * statistics.stdev(d) / math.sqrt(len(d))
    print(
        f"log-probability of the true holder per unseen card, {len(d)} positions of "
        f"{args.players} deals (eps {sampling.PLAY_EPS[0]}, fair {sampling.PLAY_FAIR}): "
        f"inference "
        f"{statistics.fmean(got[True]):.4f}, none {statistics.fmean(got[False]):.4f}, "
        f"difference {statistics.fmean(d):+.4f} +- {half:.4f}"
    )


def start_child(args: argparse.Namespace) -> None:
    """In a fresh interpreter: the expert in all four seats from a seeded deal to the first card
    decision; prints the wall-clock instants (``time.time``) of the steps, as JSON."""
    import json

    out: dict[str, float] = {"imported": time.time()}
    bots = [make_bot("expert", seed=s) for s in range(4)]
    deal_no = 0
    while "card" not in out:
        deal = Deal.from_seed(args.seed + deal_no, deal_no % 4)
        deal_no += 1
        for s, bot in enumerate(bots):
            bot.begin_deal(s)
        while not deal.is_over:  # all four passing deals again, as at a table
            seat = deal.to_move
            phase = deal.phase
            started = time.perf_counter()
            action = bots[seat].act(deal.observation(seat))
            took = time.perf_counter() - started
            deal.act(action, seat)
            if "bid" not in out:
                out["bid"], out["bid_thinking"] = time.time(), took
            if phase is Phase.PLAY:
                out["card"], out["card_thinking"] = time.time(), took
                break
    out["deals"] = deal_no
    print(json.dumps(out), flush=True)


def start(args: argparse.Namespace) -> None:
    import json
    import os
    import shutil
    import subprocess
    import sys
    import tempfile

    def run(cache: str) -> dict[str, float]:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        cmd = [sys.executable, __file__, "start-child", "--seed", str(args.seed)]
        launched = time.time()
        done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
        got = json.loads(done.stdout.strip().splitlines()[-1])
        return {
            "import": got["imported"] - launched,
            "first bid": got["bid"] - launched,
            "first card": got["card"] - launched,
            "bid thinking": got["bid_thinking"],
            "card thinking": got["card_thinking"],
            "deals": got["deals"],
        }

    load_before = os.getloadavg()
    results: dict[str, list[dict[str, float]]] = {"empty cache": [], "filled cache": []}
    caches: list[str] = []
    try:
        for _ in range(args.runs):
            caches.append(tempfile.mkdtemp(prefix="oudler-numba-"))
            results["empty cache"].append(run(caches[-1]))
        for _ in range(args.runs):
            results["filled cache"].append(run(caches[-1]))
    finally:
        for cache in caches:
            shutil.rmtree(cache, ignore_errors=True)
    load_after = os.getloadavg()
    print(
        f"expert start-up from a fresh interpreter (seed {args.seed}, {args.runs} runs each; "
        "seconds of wall time from launch, median [min, max])"
    )
    keys = ("import", "first bid", "first card", "bid thinking", "card thinking")
    print(f"  {'':<13}" + "".join(f"{k:>22}" for k in keys))
    for name, rows in results.items():
        cells = []
        for k in keys:
            xs = [r[k] for r in rows]
            cells.append(f"{statistics.median(xs):6.2f} [{min(xs):5.2f}, {max(xs):5.2f}]")
        print(f"  {name:<13}" + "".join(f"{c:>22}" for c in cells))
    deals = {int(r["deals"]) for rows in results.values() for r in rows}
    print(f"  (deals dealt until the first card: {sorted(deals)}; 'thinking' is that decision's")
    print("  own time, inside the figure before it)")
    print("load average (1, 5, 15 min) before: {:.2f} {:.2f} {:.2f}".format(*load_before))
    print("load average (1, 5, 15 min) after:  {:.2f} {:.2f} {:.2f}".format(*load_after))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    for name in ("start", "start-child"):
        s = sub.add_parser(name)
        s.add_argument("--seed", type=int, default=1)
        s.add_argument("--runs", type=int, default=5)
    for name in ("timing", "strength", "speed", "worlds", "posterior"):
        s = sub.add_parser(name)
        s.add_argument("--deals", type=int, default={"timing": 6, "strength": 40}.get(name, 300))
        s.add_argument("--seed", type=int, default=1)
        s.add_argument("--card-ms", type=int, default=400)
        s.add_argument("--bid-ms", type=int, default=ExpertBot(seed=0).budget_bid_ms)
        if name == "timing":
            s.add_argument("--busy", action="store_true")
        elif name == "worlds":
            s.add_argument("--tail", type=int, default=None, help="playout tail (the expert's)")
        elif name == "posterior":
            s.add_argument("--players", default="club")
            s.add_argument("--eps", type=float, default=None)
            s.add_argument("--whole-world", action="store_true", help="the policy sees it all")
        else:
            s.add_argument("--baseline", default="club")
            s.add_argument("--worlds", type=int, default=None, help="worlds per card")
            s.add_argument("--bid-worlds", type=int, default=None, help="per bid, discard")
            s.add_argument("--fixed-contract", default=None)
            s.add_argument("--jobs", type=int, default=1)
            s.add_argument("--verbose", action="store_true")
    args = p.parse_args()
    if args.cmd == "start":
        start(args)
    elif args.cmd == "start-child":
        start_child(args)
    elif args.cmd == "worlds":
        worlds(args)
    elif args.cmd == "posterior":
        posterior(args)
    elif args.cmd == "timing":
        timing(args)
    elif args.cmd == "speed":
        speed(args)
    else:
        strength(args)


if __name__ == "__main__":
    main()
