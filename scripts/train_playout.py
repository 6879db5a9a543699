"""Train the kernel's learned playout policy on ``oudler selfplay`` records (CPU, numpy, seeded).

    python scripts/train_playout.py RECORDS.jsonl [MORE.jsonl...] --out playout.npz \\
        [--hidden 16] [--epochs 30] [--temperature 5] [--seed 1] [--pad 1] \\
        [--summary summary.json]

Every card decision the search weighed becomes an example: the kernel's facts of each legal
card in the deal's true world at that moment (``oudler.kernel.PLAYOUT_FACTS``) and each card's
value by the search (``oudler.lab.playout_train``). The network (one hidden layer: the kernel
runs it at every card of every playout) learns a softmax over the cards against a softmax of
the values over ``--temperature`` points, a tenth of the deals held out.

Prints one line per epoch (the regret, points a decision lost against the search's best card,
on training and held-out decisions), then the summary with the heuristic policy's own held-out
regret for scale, and writes the weights (``.npz``, keys w1, b1, w2, b2; the level option
``/l``, as in ``expert@w100/l``, plays with ``src/oudler/bots/data/playout.npz``). The same
records, settings and seed give the same weights. See docs/selfplay.md.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from oudler.lab.playout_train import kernel_weights, load_playout_examples
from oudler.lab.policy_train import CARD_TEMPERATURE, train_rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("records", nargs="+", type=Path, help="oudler selfplay files")
    parser.add_argument("--out", type=Path, required=True, help="the weights file to write")
    parser.add_argument("--hidden", type=int, default=16, help="the hidden layer's size")
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--temperature", type=float, default=CARD_TEMPERATURE)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--pad",
        type=int,
        default=0,
        help="train with this many more facts, always 0, and drop their weights after: only "
        "the initial weights change (the packaged network was trained with --pad 1)",
    )
    parser.add_argument("--summary", type=Path, help="write the training summary (JSON) here")
    args = parser.parse_args()
    if args.hidden < 1 or args.epochs < 1 or args.pad < 0:
        parser.error("--hidden and --epochs must be at least 1, --pad at least 0")

    start = time.perf_counter()
    examples = load_playout_examples(args.records)
    if args.pad:
        zeros = np.zeros((*examples.x.shape[:2], args.pad), dtype=np.float32)
        examples.x = np.concatenate([examples.x, zeros], axis=2)
    loaded = time.perf_counter() - start
    net, summary = train_rows(
        examples,
        hidden=(args.hidden,),
        epochs=args.epochs,
        batch=args.batch,
        lr=args.lr,
        temperature=args.temperature,
        seed=args.seed,
        log=lambda row: print(json.dumps(row), file=sys.stderr, flush=True),
    )
    w1, b1, w2, b2 = kernel_weights(net)
    w1 = np.ascontiguousarray(w1[: w1.shape[0] - args.pad])  # the padding's rows read only 0
    args.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez(args.out, w1=w1, b1=b1, w2=w2, b2=b2)
    summary.update(
        records=[str(p) for p in args.records],
        seed=args.seed,
        pad=args.pad,
        load_seconds=round(loaded, 1),
        seconds=round(time.perf_counter() - start, 1),
    )
    if args.summary:
        args.summary.write_text(json.dumps(summary, indent=1) + "\n")
    print(json.dumps({k: v for k, v in summary.items() if k != "history"}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
