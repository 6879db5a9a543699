"""How far the calls' playouts are from the real outcome: the declarer's real score less the
search's estimate of its contract, on the contracts taken in ``oudler selfplay`` records.

    .venv/bin/python bench/bid_calibration.py docs/results/selfplay/expert-w100-seed1.jsonl \\
        [--contracts 400] [--worlds 100]

For every bid that became the deal's contract, the seat's observation at that bid is searched
again (``contract.contract_values``, ``--worlds`` worlds) with the heuristic playouts and with
the learned ones (the packaged network, ``/la``), on the same worlds; the estimate is the mean
of the contract's samples (3D, before any margin), the real score the seat's score in the
record. Prints the mean difference (real less estimated) per contract with its 95 % interval,
and over the Prises and Gardes together: what ``BID_MARGIN`` (heuristic) and
``LEARNED_BID_MARGIN`` make up for. Run by hand; about a minute for 400 contracts.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
from pathlib import Path

from oudler import kernel as K
from oudler.bots.expert.contract import contract_values
from oudler.bots.expert.sampler import facts, sampler_for
from oudler.bots.expert.search import Budget
from oudler.bots.protocol import action_from_notation, observation_from_dict
from oudler.core import Phase
from oudler.lab.selfplay import read_selfplay


def mean_ci(xs: list[float]) -> str:
    m = statistics.fmean(xs)
    half = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else math.inf
    return f"{m:+7.1f} [{m - half:+.1f}, {m + half:+.1f}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("records", type=Path)
    parser.add_argument("--contracts", type=int, default=400, help="contracts taken to read")
    parser.add_argument("--worlds", type=int, default=100)
    args = parser.parse_args()
    net = K.load_playout_net()
    diffs: dict[str, dict[str, list[float]]] = {"heuristic": {}, "learned": {}}
    _, deals = read_selfplay(args.records)
    n = 0
    for deal in deals:
        res = deal["result"]
        if res["contract"] is None:
            continue
        for d in deal["decisions"]:
            if (
                d["phase"] != "bidding"
                or d["seat"] != res["declarer"]
                or d["action"] != res["contract"]
            ):
                continue
            obs = observation_from_dict(d["observation"])
            contract = action_from_notation(Phase.BIDDING, d["action"])
            real = float(res["scores"][d["seat"]])
            for name, playouts in (("heuristic", None), ("learned", net)):
                budget = Budget(worlds=args.worlds, playout_net=playouts)
                scores, _ = contract_values(obs, sampler_for(facts(obs)), random.Random(n), budget)
                estimate = statistics.fmean(scores[contract])  # type: ignore[index]
                diffs[name].setdefault(res["contract"], []).append(real - estimate)
            n += 1
        if n >= args.contracts:
            break
    print(f"{n} contracts taken, {args.worlds} worlds each; real score less the estimate:")
    for name, by in diffs.items():
        for c, xs in sorted(by.items()):
            print(f"  {name:9s} {c:12s} {len(xs):4d}  {mean_ci(xs)}")
        both = by.get("prise", []) + by.get("garde", [])
        if both:
            print(f"  {name:9s} {'prise+garde':12s} {len(both):4d}  {mean_ci(both)}")


if __name__ == "__main__":
    main()
