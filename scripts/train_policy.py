"""Train the ``policy`` level's networks on ``oudler selfplay`` records (CPU, numpy, seeded).

    python scripts/train_policy.py RECORDS.jsonl [MORE.jsonl...] --out policy.npz \\
        [--hidden 256,128] [--epochs 20] [--seed 1] [--augment] [--summary summary.json] \\
        [--base policy.npz] [--card-hidden 64,32] [--card-epochs 8] [--discard-hidden 32,16] \
        [--discard-epochs 30] [--no-rows]

Three networks go into the weights file: the whole-observation one (calls, chelem, poignée),
the card network, which scores each legal card from facts about it, and the discard network,
which scores each candidate discard (``oudler.bots.cardmodel``). ``--base FILE`` takes the first
from FILE instead of training it; ``--no-rows`` trains only the first (which then plays the
cards and the discard too).

Prints one line per epoch (cross-entropy and agreement with the search's best option for the
first; for the others the regret, points a decision lost against the search's best option, on
training decisions and on a held-out tenth of the deals) and writes the weights (``.npz``;
the level ``policy@FILE`` plays with them, ``policy`` with ``src/oudler/bots/data/policy.npz``).
The same records, settings and seed give the same weights. See docs/selfplay.md, "Training a
policy".
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from oudler.bots.policy import PolicyNet
from oudler.lab.policy_train import (
    CARD_BASELINE,
    CARD_TEMPERATURE,
    DISCARD_BASELINE,
    TEMPERATURE,
    load_examples,
    load_row_examples,
    train,
    train_rows,
)


def _sizes(text: str) -> tuple[int, ...]:
    return tuple(int(h) for h in text.split(",") if h)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("records", nargs="+", type=Path, help="oudler selfplay files")
    parser.add_argument("--out", type=Path, required=True, help="the weights file to write")
    parser.add_argument("--hidden", default="256,128", help="hidden layer sizes, as 256,128")
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--temperature", type=float, default=TEMPERATURE)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--augment", action="store_true", help="rename the suits at random in each minibatch"
    )
    parser.add_argument(
        "--base", type=Path, help="take the whole-observation network from this weights file"
    )
    parser.add_argument("--card-hidden", default="64,32", help="the card network's hidden sizes")
    parser.add_argument("--card-epochs", type=int, default=8)
    parser.add_argument("--discard-hidden", default="32,16", help="the discard network's sizes")
    parser.add_argument("--discard-epochs", type=int, default=30)
    parser.add_argument("--row-temperature", type=float, default=CARD_TEMPERATURE)
    parser.add_argument(
        "--no-rows", action="store_true", help="train neither the card nor the discard network"
    )
    parser.add_argument("--summary", type=Path, help="write the training summary (JSON) here")
    args = parser.parse_args()
    start = time.perf_counter()

    def log(row: dict[str, object]) -> None:
        print(json.dumps(row), file=sys.stderr, flush=True)

    summary: dict[str, Any]
    if args.base is not None:
        net = PolicyNet.load(args.base)
        net.cards = net.discards = None
        summary = {"base": str(args.base), "base_meta": dict(net.meta)}
    else:
        examples = load_examples(args.records, args.temperature)
        print(f"{len(examples)} examples in {time.perf_counter() - start:.1f} s", file=sys.stderr)
        net, summary = train(
            examples,
            hidden=_sizes(args.hidden),
            epochs=args.epochs,
            batch=args.batch,
            lr=args.lr,
            seed=args.seed,
            augment=args.augment,
            log=log,
        )
        net.meta["records"] = [p.name for p in args.records]
        net.meta["temperature"] = args.temperature
    if not args.no_rows:
        for kind, hidden, epochs, column in (
            ("card", args.card_hidden, args.card_epochs, CARD_BASELINE),
            ("discard", args.discard_hidden, args.discard_epochs, DISCARD_BASELINE),
        ):
            t0 = time.perf_counter()
            rows = load_row_examples(args.records, kind)
            print(
                f"{len(rows)} {kind} decisions in {time.perf_counter() - t0:.1f} s", file=sys.stderr
            )
            sub, sub_summary = train_rows(
                rows,
                baseline_column=column,
                hidden=_sizes(hidden),
                epochs=epochs,
                temperature=args.row_temperature,
                seed=args.seed,
                log=log,
            )
            if kind == "card":
                net.cards = sub
            else:
                net.discards = sub
            summary[kind] = sub_summary
            net.meta[kind] = {k: v for k, v in sub_summary.items() if k != "history"} | {
                "final": sub_summary["history"][-1],
                "records": [p.name for p in args.records],
            }
    net.save(args.out)
    summary["seconds"] = round(time.perf_counter() - start, 1)
    summary["records"] = [str(p) for p in args.records]
    if args.summary:
        args.summary.write_text(json.dumps(summary, indent=1) + "\n")
    print(json.dumps({k: v for k, v in summary.items() if k not in ("history", "card", "discard")}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
