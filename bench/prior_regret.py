"""The learned policy as a prior on the expert's card: regret against a deeper search (by hand).

    .venv/bin/python bench/prior_regret.py docs/results/selfplay/expert-w100-seed1.jsonl \
        --from-deal 1489 --positions 500 [--per-deal 4] [--worlds 100] [--truth 1000] \
        [--priors 0,1,2,4,8] [--repeats 2] [--race-unique] [--json out.json]

Card positions (decisions the records' search had a choice in), ``--per-deal`` drawn at random
from each selfplay deal from ``--from-deal`` on (deals the packaged policy was not trained on).
For each position a search of ``--truth`` worlds values every candidate (its means stand for the
truth); then ``--repeats`` searches of ``--worlds`` worlds, each with its own worlds, and for
each prior weight X the card the expert would choose (``ExpertBot.prior``: best mean plus X
times the policy's log probability). A choice's regret is the deep search's best mean less the
deep search's mean of the chosen card, in points of the seat's score. Prints, per weight, the
mean regret, the difference from no prior with its 95 % interval (paired by position and
repeat), how often the choice changed, and the prior's time per decision. Much quicker than an
arena to pick a weight; the arena's SPRT then says whether it plays better.

``--race-unique``: each repeat is searched again on the same worlds racing on the distinct
worlds (``Budget.race_unique``), and its regret compared with the plain search's; also the share
of a decision's draws (``--worlds`` drawn with inference) that repeat a world already drawn.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from pathlib import Path

from oudler.bots.expert import ExpertBot
from oudler.bots.expert.sampler import facts, sampler_for
from oudler.bots.expert.search import Budget, card_samples
from oudler.bots.policy import packaged_net
from oudler.bots.protocol import observation_from_dict
from oudler.core import Observation
from oudler.lab.arena import mean_ci
from oudler.lab.selfplay import read_selfplay


def positions(paths: list[Path], first: int, per_deal: int, count: int) -> list[Observation]:
    """Up to ``per_deal`` card positions drawn at random (seeded) from each deal from ``first``
    on: positions spread over many deals, not the first ones of a few."""
    rng = random.Random(1)
    out = []
    for path in paths:
        _, deals = read_selfplay(path)
        for deal in deals:
            if deal["deal"] < first:
                continue
            ds = [
                d
                for d in deal["decisions"]
                if d["phase"] == "play" and d["searched"] and len(d["candidates"]) > 1
            ]
            for d in rng.sample(ds, min(per_deal, len(ds))):
                out.append(observation_from_dict(d["observation"]))
                if len(out) == count:
                    return out
    return out


def means(
    obs: Observation, worlds: int, seed: int, unique: bool = False
) -> tuple[list[int], list[float], list[int]]:
    """(candidates, mean of each in the seat's score, the ones kept by the race)."""
    sampler = sampler_for(facts(obs))
    budget = Budget(worlds=worlds, race_unique=unique)
    cands, values, active, _ = card_samples(obs, sampler, random.Random(seed), budget)
    scale = 3.0 if obs.seat == obs.declarer else 1.0
    return cands, [scale * sum(v) / len(v) for v in values], active


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("records", nargs="+", type=Path)
    parser.add_argument("--from-deal", type=int, default=0)
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--per-deal", type=int, default=4)
    parser.add_argument("--worlds", type=int, default=100)
    parser.add_argument("--truth", type=int, default=1000)
    parser.add_argument("--priors", default="0,1,2,4,8")
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--json", type=Path)
    parser.add_argument(
        "--race-unique",
        action="store_true",
        help="also race on distinct worlds (Budget.race_unique), on the same worlds",
    )
    args = parser.parse_args()
    weights = [float(x) for x in args.priors.split(",")]
    if 0.0 not in weights:
        weights.insert(0, 0.0)
    obs_list = positions(args.records, args.from_deal, args.per_deal, args.positions)
    bot = ExpertBot(seed=0, prior=1.0)
    packaged_net()  # read once, not timed
    regrets: dict[float, list[float]] = {w: [] for w in weights}
    changed = dict.fromkeys(weights, 0)
    prior_s: list[float] = []
    unique: list[float] = []
    unique_kept: list[int] = []
    unique_changed = 0
    repeats: list[float] = []
    start = time.perf_counter()
    for k, obs in enumerate(obs_list):
        t_cands, t_means, _ = means(obs, args.truth, 10_000 + k)
        truth = dict(zip(t_cands, t_means, strict=True))
        top = max(t_means)
        for r in range(args.repeats):
            cands, m, kept = means(obs, args.worlds, 20_000 + 97 * k + r)
            prior = bot._card_prior(obs)
            assert prior is not None
            t0 = time.perf_counter()
            unit = prior(cands)  # the bonus at weight 1
            prior_s.append(time.perf_counter() - t0)
            if args.race_unique:
                if r == 0:  # how many of a decision's draws repeat a world already drawn
                    rows = sampler_for(facts(obs)).draw_rows(random.Random(k), args.worlds, True)
                    repeats.append(1.0 - len({row.tobytes() for row in rows}) / len(rows))
                u_cands, u_m, u_kept = means(obs, args.worlds, 20_000 + 97 * k + r, True)
                u_best = max(u_kept, key=lambda i: (u_m[i], -i))
                unique.append(top - truth[u_cands[u_best]])
                plain_best = max(kept, key=lambda i: (m[i], -i))
                unique_changed += u_cands[u_best] != cands[plain_best]
                unique_kept.append(len(u_kept) - len(kept))
            plain = None
            for w in weights:
                best = max(kept, key=lambda i: (m[i] + w * unit[i], -i))
                plain = best if w == 0.0 else plain
                changed[w] += best != plain
                regrets[w].append(top - truth[cands[best]])
        if (k + 1) % 25 == 0:
            print(
                f"{k + 1}/{len(obs_list)} positions, {time.perf_counter() - start:.0f} s",
                flush=True,
            )
    base = regrets[0.0]
    rows = []
    for w in weights:
        diff = [a - b for a, b in zip(regrets[w], base, strict=True)]
        ci = mean_ci(diff) if w else {"mean": 0.0, "ci95": [0.0, 0.0]}
        rows.append(
            {
                "prior": w,
                "regret": round(statistics.fmean(regrets[w]), 3),
                "vs_none": ci,
                "changed": round(changed[w] / len(base), 4),
            }
        )
        print(
            f"prior {w:g}: regret {statistics.fmean(regrets[w]):.3f} points a decision; "
            f"vs none {ci['mean']:+.3f} [{ci['ci95'][0]:+.3f}, {ci['ci95'][1]:+.3f}]; "
            f"choice changed {100 * changed[w] / len(base):.1f} %"
        )
    race_unique = None
    if args.race_unique:
        diff = [a - b for a, b in zip(unique, base, strict=True)]
        ci = mean_ci(diff)
        race_unique = {
            "regret": round(statistics.fmean(unique), 3),
            "vs_plain": ci,
            "changed": round(unique_changed / len(base), 4),
            "more_kept": round(statistics.fmean(unique_kept), 3),
            "repeated_draws": {
                "median": round(statistics.median(repeats), 3),
                "p90": round(sorted(repeats)[int(0.9 * len(repeats))], 3),
            },
        }
        print(
            f"race on distinct worlds: regret {statistics.fmean(unique):.3f}; vs plain "
            f"{ci['mean']:+.3f} [{ci['ci95'][0]:+.3f}, {ci['ci95'][1]:+.3f}]; choice changed "
            f"{100 * unique_changed / len(base):.1f} %; options kept "
            f"{statistics.fmean(unique_kept):+.2f} on average; draws repeating a world: "
            f"median {statistics.median(repeats):.2f}, "
            f"p90 {sorted(repeats)[int(0.9 * len(repeats))]:.2f}"
        )
    prior_s.sort()
    p50 = 1000 * statistics.median(prior_s)
    p95 = 1000 * prior_s[int(0.95 * len(prior_s))]
    print(f"{len(obs_list)} positions x {args.repeats}; prior p50 {p50:.3f} ms, p95 {p95:.3f} ms")
    if args.json:
        summary = {
            "records": [str(p) for p in args.records],
            "from_deal": args.from_deal,
            "positions": len(obs_list),
            "per_deal": args.per_deal,
            "worlds": args.worlds,
            "truth": args.truth,
            "repeats": args.repeats,
            "rows": rows,
            "race_unique": race_unique,
            "prior_ms": {"p50": round(p50, 3), "p95": round(p95, 3)},
            "seconds": round(time.perf_counter() - start, 1),
        }
        args.json.write_text(json.dumps(summary, indent=1) + "\n")


if __name__ == "__main__":
    main()
