"""Two tested bots of one arena log compared deal by deal (paired on the same deals and seeds).

    .venv/bin/python bench/arena_compare.py LOG[.jsonl or .jsonl.gz] A [B]

An arena run with ``--bots A,B,REF`` tests A and B each against REF on the same duplicate deals;
its report gives each one's difference from REF. This prints, per deal, A's duplicate difference
minus B's (each the mean over the four seats of the bot's score minus REF's score in that seat),
averaged over the deals of the log with its 95 % confidence interval: A against B without the
noise of the deals, which both played. Without B: A's duplicate difference from REF (as the
arena's report), e.g. for a log still being written.
"""

from __future__ import annotations

import gzip
import json
import math
import statistics
import sys
from typing import Any


def per_deal(entry: dict[str, Any], bot: str) -> float:
    base = entry["baseline"]["scores"]
    plays = entry["tested"][bot]
    return sum(p["scores"][i] - base[i] for i, p in enumerate(plays)) / len(plays)


def main() -> None:
    path, a = sys.argv[1:3]
    b = sys.argv[3] if len(sys.argv) > 3 else None
    opener: Any = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        lines = [json.loads(line) for line in f if line.strip()]
    header, deals = lines[0], [e for e in lines[1:] if "tested" in e]
    diffs = [per_deal(e, a) - (per_deal(e, b) if b else 0.0) for e in deals]
    n = len(diffs)
    m = statistics.fmean(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(n) if n > 1 else math.inf
    vs = b or header.get("reference")
    print(f"{header.get('reference')} reference, {n} deals: {a} minus {vs} per deal per seat")
    print(f"  {m:+.2f}  95 % CI [{m - half:+.2f}, {m + half:+.2f}]")


if __name__ == "__main__":
    main()
