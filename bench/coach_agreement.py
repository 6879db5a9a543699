"""How often the hint's choice is the choice of a search 20 times deeper, and the points it loses.

    nice -n 19 .venv/bin/python bench/coach_agreement.py run --log agreement.jsonl
    .venv/bin/python bench/coach_agreement.py report --log agreement.jsonl

Positions: every decision with a choice of seeded deals played by club players (every seat; every
bid, discard, chelem and poignée question, and every third card with a choice), 500 by default.
At each, the hint's search (the coach's ``evaluate`` at the web's ``HINT_WORLDS``: fixed work, so
the figure does not depend on the machine's load) and the same search from the same seat's
observation at 20 times its budget (20 times the worlds, options dropped only after 20 times as
many worlds), on other worlds (another seed): its choice is the reference, and a hint's loss is the
deep search's value of its choice minus that of its own.

Resumable: each result is a line appended to ``--log`` (the deep search of a position, or one
hint variant's choice there), and a run skips what the log holds. ``--variant NAME:WORLDS`` adds a
hint with another budget on the same positions against the same deep searches (cheap: the deep
search is done once). Run at ``nice -n 19``, one run at a time; ``report`` prints the agreement
share (95 % Wilson interval) and the mean points lost (95 % interval) by kind and overall.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from oudler.bots import make_bot
from oudler.coach.analysis import action_key
from oudler.coach.engine import RACE_AFTER, RACE_Z, evaluate
from oudler.core import Deal, Observation, Phase
from oudler.tables.coaching import HINT_WORLDS

DEEP = 20
"""The reference searches this many times the hint's worlds."""
CARD_EVERY = 3
"""One card decision in this many (with a choice) is taken: the other kinds are rarer."""


def positions(count: int) -> Iterator[tuple[str, Observation]]:
    """(id, observation) of ``count`` decisions with a choice, the same every run."""
    taken = 0
    seed = 1000
    while True:
        deal = Deal.from_seed(seed, seed % 4)
        bots = [make_bot("club", seed=seed * 4 + s) for s in range(4)]
        cards = 0
        index = 0
        while not deal.is_over:
            s = deal.to_move
            obs = deal.observation(s)
            take = deal.phase is not Phase.PLAY
            if not take and obs.legal.cards & (obs.legal.cards - 1):
                take = cards % CARD_EVERY == 0
                cards += 1
            if take:
                yield f"{seed}:{index}", obs
                taken += 1
                if taken >= count:
                    return
            deal.act(bots[s].act(obs), s)
            index += 1
        seed += 1


def _seed(pid: str) -> int:
    deal, index = pid.split(":")
    return int(deal) * 1000 + int(index)


def load(log: Path) -> tuple[dict[str, dict[str, Any]], dict[tuple[str, str], dict[str, Any]]]:
    deep: dict[str, dict[str, Any]] = {}
    hints: dict[tuple[str, str], dict[str, Any]] = {}
    if log.exists():
        for line in log.read_text().splitlines():
            if not line.strip():
                continue
            row = json.loads(line)
            if "variant" in row:
                hints[(row["id"], row["variant"])] = row
            else:
                deep[row["id"]] = row
    return deep, hints


Variant = tuple[str, int, int, float]
"""A hint's search: (name, worlds, worlds before options are dropped, standard errors)."""


def run(log: Path, count: int, variants: list[Variant]) -> None:
    deep, hints = load(log)
    with log.open("a") as out:

        def put(row: dict[str, Any]) -> None:
            out.write(json.dumps(row) + "\n")
            out.flush()

        for n, (pid, obs) in enumerate(positions(count), 1):
            seed = _seed(pid)
            if pid not in deep:
                began = time.perf_counter()
                ev = evaluate(
                    obs,
                    seed=seed + 7_000_000_007,
                    worlds=DEEP * HINT_WORLDS,
                    race_after=DEEP * RACE_AFTER,
                    race_z=RACE_Z,
                )
                row = {
                    "id": pid,
                    "kind": ev.kind,
                    "worlds": DEEP * HINT_WORLDS,
                    "race_after": DEEP * RACE_AFTER,
                    "best": action_key(ev.best.action),
                    "values": {action_key(o.action): o.value for o in ev.options},
                    "ms": round((time.perf_counter() - began) * 1000),
                }
                deep[pid] = row
                put(row)
            for name, worlds, after, z in variants:
                if (pid, name) in hints:
                    continue
                began = time.perf_counter()
                hint = evaluate(obs, seed=seed, worlds=worlds, race_after=after, race_z=z)
                row = {
                    "id": pid,
                    "variant": name,
                    "worlds": worlds,
                    "race_after": after,
                    "race_z": z,
                    "best": action_key(hint.best.action),
                    "close": [action_key(o.action) for o in hint.close],
                    "ms": round((time.perf_counter() - began) * 1000),
                }
                hints[(pid, name)] = row
                put(row)
            if n % 25 == 0:
                print(f"{n}/{count} positions", flush=True)


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return c - h, c + h


def mean_ci(xs: list[float], resamples: int = 2000) -> tuple[float, float, float]:
    """The mean and a 95 % bootstrap interval (percentiles; losses are mostly 0, skewed)."""
    m = statistics.fmean(xs) if xs else 0.0
    if len(xs) < 2:
        return m, m, m
    rng = random.Random(0)
    n = len(xs)
    means = sorted(statistics.fmean(rng.choices(xs, k=n)) for _ in range(resamples))
    return m, means[int(0.025 * resamples)], means[int(0.975 * resamples) - 1]


EQUAL = 0.05
"""A loss under this many points: the deep search found the hint's choice worth the same (an
equivalent card, or options it could not tell apart)."""


def report(log: Path) -> None:
    deep, hints = load(log)
    by_variant: dict[str, dict[str, dict[str, Any]]] = defaultdict(dict)
    for (pid, name), row in hints.items():
        if pid in deep:
            by_variant[name][pid] = row
    losses: dict[str, dict[str, float]] = {}
    for name, rows in sorted(by_variant.items()):
        some = next(iter(rows.values()))
        print(
            f"hint {name} ({some['worlds']} worlds, dropping after {some.get('race_after')} at "
            f"z={some.get('race_z')}) against the same search at {DEEP} times:"
        )
        groups: dict[str, list[tuple[bool, float, int]]] = defaultdict(list)
        losses[name] = {}
        for pid, row in rows.items():
            d = deep[pid]
            values = d["values"]
            loss = max(0.0, values[d["best"]] - values[row["best"]])
            losses[name][pid] = loss
            item = (row["best"] == d["best"], loss, row["ms"])
            groups[d["kind"]].append(item)
            groups["all"].append(item)
        for kind in sorted(groups, key=lambda k: (k == "all", k)):
            items = groups[kind]
            n = len(items)
            k = sum(1 for same, _, _ in items if same)
            e = sum(1 for same, loss, _ in items if same or loss < EQUAL)
            lo, hi = wilson(k, n)
            elo, ehi = wilson(e, n)
            m, mlo, mhi = mean_ci([loss for _, loss, _ in items])
            ms = sorted(t for _, _, t in items)
            print(
                f"  {kind:8} n={n:4d}  same choice {100 * k / n:5.1f} % [{100 * lo:4.1f}, "
                f"{100 * hi:5.1f}]  or worth the same {100 * e / n:5.1f} % [{100 * elo:4.1f}, "
                f"{100 * ehi:5.1f}]  points lost {m:5.2f} [{mlo:4.2f}, {mhi:4.2f}]  "
                f"hint p50 {ms[n // 2]} ms p95 {ms[min(n - 1, int(0.95 * n))]} ms"
            )
    names = sorted(losses)
    for a in names:
        for b in names:
            if a >= b:
                continue
            both = sorted(set(losses[a]) & set(losses[b]))
            diff = [losses[a][p] - losses[b][p] for p in both]
            m, lo, hi = mean_ci(diff)
            print(
                f"points lost, {a} minus {b}, paired over {len(both)}: "
                f"{m:+.3f} [{lo:+.3f}, {hi:+.3f}]"
            )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="what", required=True)
    r = sub.add_parser("run")
    r.add_argument("--log", type=Path, required=True)
    r.add_argument("--positions", type=int, default=500)
    r.add_argument(
        "--variant",
        action="append",
        default=[],
        help="NAME:WORLDS:RACE_AFTER:Z, a hint's search to compare (default: the coach's)",
    )
    p = sub.add_parser("report")
    p.add_argument("--log", type=Path, required=True)
    args = ap.parse_args()
    if args.what == "run":
        variants = []
        for v in args.variant:
            name, worlds, after, z = v.split(":")
            variants.append((name, int(worlds), int(after), float(z)))
        run(args.log, args.positions, variants or [("hint", HINT_WORLDS, RACE_AFTER, RACE_Z)])
    else:
        report(args.log)


if __name__ == "__main__":
    main()
