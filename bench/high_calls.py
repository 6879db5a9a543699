"""The high calls' estimates against their real outcome, on hands that were not chosen by them.

    .venv/bin/python bench/high_calls.py --deals 10000 --seed 202 --floor -350 \\
        --out high-calls.jsonl [--level expert@w100]

``bench/bid_calibration.py`` compares estimate and outcome on the contracts the expert took,
which the estimate itself selected (the winner's curse), and it saw 12 Gardes sans and 3
Gardes contre. Here every hand is the first speaker's of a seeded deal; its calls are searched
as the level's bid would search them (``ExpertBot.decide``), and a hand whose Garde sans or
Garde contre estimate reaches ``--floor`` (3D, before the margin) is then played three times
from the same deal, the first speaker declaring a Garde, a Garde sans and a Garde contre (the
others passing), with the level in all four seats. Each line of ``--out`` holds one such hand:
the estimates of every contract and the three real scores of the declarer (3D). The summary
gives, per contract and band of estimate, the real score less the estimate (95 % interval),
and the mean real score when the call among the three is chosen by the estimates with a
margin for the Garde sans and the Garde contre other than the Garde's: what a separate margin
for the high calls would earn on these hands. ``--summary FILE`` prints it for an existing
file. About 10 s for 100 deals on one core at w100.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
from pathlib import Path
from typing import Any

from oudler.bots import make_bot
from oudler.bots.expert.contract import BID_MARGIN
from oudler.bots.play import play_deal
from oudler.core import Contract, Deal
from oudler.lab.arena import deal_seeds

HIGH = (Contract.GARDE, Contract.GARDE_SANS, Contract.GARDE_CONTRE)


def collect(level: str, deals: int, seed: int, floor: float, out: Path) -> None:
    with out.open("a") as f:
        for k, (deal_seed, dealer) in enumerate(deal_seeds(seed, deals)):
            deal = Deal.from_seed(deal_seed, dealer)
            seat = deal.to_move
            bot = make_bot(level, seed=k)
            bot.begin_deal(seat)
            _, opts = bot.decide(deal.observation(seat))  # type: ignore[attr-defined]
            if opts is None:
                continue
            # first speaker: passing is worth 0, so a call's value is its gain less the margin
            est = {
                a.notation: v.mean + BID_MARGIN
                for a, v in zip(opts.actions, opts.values, strict=True)
                if a is not None
            }
            if max(est["garde_sans"], est["garde_contre"]) < floor:
                continue
            real = {}
            for contract in HIGH:
                played = Deal.from_seed(deal_seed, dealer)
                for _ in range(4):
                    played.bid(contract if played.to_move == seat else None)
                bots = [make_bot(level, seed=1000 * k + s) for s in range(4)]
                real[contract.notation] = play_deal(played, bots).scores[seat]
            line = {"seed": seed, "deal": k, "seat": seat, "est": est, "real": real}
            f.write(json.dumps(line) + "\n")
            f.flush()


def mean_ci(xs: list[float]) -> str:
    m = statistics.fmean(xs)
    half = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs))
    return f"{m:+7.1f} [{m - half:+.1f}, {m + half:+.1f}]  n={len(xs)}"


def summary(rows: list[dict[str, Any]]) -> None:
    print(f"{len(rows)} hands")
    bands = [(-math.inf, -250.0), (-250.0, -150.0), (-150.0, 0.0), (0.0, math.inf)]
    for c in HIGH:
        for lo, hi in bands:
            xs = [
                r["real"][c.notation] - r["est"][c.notation]
                for r in rows
                if lo <= r["est"][c.notation] < hi
            ]
            if len(xs) > 2:
                print(
                    f"{c.notation:13s} estimate in [{lo:+.0f}, {hi:+.0f}): real - estimate "
                    f"{mean_ci(xs)}"
                )
    print(f"the Garde's margin {BID_MARGIN:+.0f}; real score of the call chosen among the three:")
    base = [_chosen(r, BID_MARGIN) for r in rows]
    for high in (80.0, 40.0, 0.0, BID_MARGIN, -100.0, -150.0, -200.0, -300.0):
        got = [_chosen(r, high) for r in rows]
        diff = [a - b for a, b in zip(got, base, strict=True)]
        changed = sum(1 for d in diff if d)
        print(
            f"  high calls' margin {high:+5.0f}: {statistics.fmean(got):+7.1f}, against "
            f"{BID_MARGIN:+.0f}: {mean_ci(diff)} ({changed} changed)"
        )
    for c in HIGH:
        always = statistics.fmean(r["real"][c.notation] for r in rows)
        print(f"  always {c.notation:13s} {always:+7.1f}")


def _chosen(row: dict[str, Any], high_margin: float) -> float:
    est = row["est"]
    best, value = "garde", est["garde"] - BID_MARGIN
    for c in ("garde_sans", "garde_contre"):
        if est[c] - high_margin > value:
            best, value = c, est[c] - high_margin
    return float(row["real"][best])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", default="expert@w100")
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=202)
    parser.add_argument("--floor", type=float, default=-350.0)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--summary", type=Path, help="only summarize this file")
    args = parser.parse_args()
    path = args.summary
    if path is None:
        if args.out is None:
            parser.error("--out or --summary is needed")
        collect(args.level, args.deals, args.seed, args.floor, args.out)
        path = args.out
    summary([json.loads(line) for line in path.open()])


if __name__ == "__main__":
    main()
