"""Train the ``policy`` level's network on ``oudler selfplay`` records (CPU, numpy, seeded).

    python scripts/train_policy.py RECORDS.jsonl [MORE.jsonl...] --out policy.npz \\
        [--hidden 256,128] [--epochs 20] [--seed 1] [--augment] [--summary summary.json]

Prints one line per epoch (cross-entropy and agreement with the search's best option, on the
training examples and on a held-out tenth) and writes the weights (``.npz``; the level
``policy@FILE`` plays with them, ``policy`` with ``src/oudler/bots/data/policy.npz``). The same
records, settings and seed give the same weights. See docs/selfplay.md, "Training a policy".
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from oudler.bots.policy_train import TEMPERATURE, load_examples, train


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
    parser.add_argument("--summary", type=Path, help="write the training summary (JSON) here")
    args = parser.parse_args()
    hidden = tuple(int(h) for h in args.hidden.split(",") if h)
    start = time.perf_counter()
    examples = load_examples(args.records, args.temperature)
    print(f"{len(examples)} examples in {time.perf_counter() - start:.1f} s", file=sys.stderr)

    def log(row: dict[str, object]) -> None:
        print(json.dumps(row), file=sys.stderr, flush=True)

    net, summary = train(
        examples,
        hidden=hidden,
        epochs=args.epochs,
        batch=args.batch,
        lr=args.lr,
        seed=args.seed,
        augment=args.augment,
        log=log,
    )
    net.meta["records"] = [p.name for p in args.records]
    net.meta["temperature"] = args.temperature
    net.save(args.out)
    summary["seconds"] = round(time.perf_counter() - start, 1)
    summary["records"] = [str(p) for p in args.records]
    if args.summary:
        args.summary.write_text(json.dumps(summary, indent=1) + "\n")
    print(json.dumps({k: v for k, v in summary.items() if k != "history"}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
