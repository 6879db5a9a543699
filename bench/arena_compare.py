"""Two tested bots compared deal by deal (paired on the same deals and seeds).

    .venv/bin/python bench/arena_compare.py LOG[.jsonl or .jsonl.gz] A [B]
    .venv/bin/python bench/arena_compare.py LOG A LOG2 B

An arena run with ``--bots A,B,REF`` tests A and B each against REF on the same duplicate deals;
its report gives each one's difference from REF. This prints, per deal, A's duplicate difference
minus B's (each the mean over the four seats of the bot's score minus REF's score in that seat),
averaged over the deals of the log with its 95 % confidence interval: A against B without the
noise of the deals, which both played. Without B: A's duplicate difference from REF (as the
arena's report), e.g. for a log still being written.

With a second log (``LOG A LOG2 B``): A of the first log against B of the second, on the deals
(by index) both logs hold; the two runs must have the same reference and seed (checked), so
that the deals, the reference's play and everyone's seeds are the same.

Then where the difference comes from: the deals grouped by the contract the reference played
(its all-reference game; "none" when all passed) and by whether a petit au bout happened in any
game of the deal, each group's mean with its interval and its share of the overall mean (the
group's sum over all the deals: the shares add up to the mean).
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


def read(path: str) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
    opener: Any = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        lines = [json.loads(line) for line in f if line.strip()]
    return lines[0], {e["index"]: e for e in lines[1:] if "tested" in e}


def main() -> None:
    args = sys.argv[1:]
    path, a = args[:2]
    header, deals = read(path)
    if len(args) == 4:
        header2, deals2 = read(args[2])
        b: str | None = args[3]
        for key in ("reference", "seed", "fixed_contract"):
            if header.get(key) != header2.get(key):
                sys.exit(f"the two logs differ in {key}: {header.get(key)} / {header2.get(key)}")
        both = sorted(set(deals) & set(deals2))
        diffs = [per_deal(deals[i], a) - per_deal(deals2[i], args[3]) for i in both]
        entries = [(deals[i], deals2[i]) for i in both]
    else:
        b = args[2] if len(args) > 2 else None
        diffs = [per_deal(e, a) - (per_deal(e, b) if b else 0.0) for e in deals.values()]
        entries = [(e, e) for e in deals.values()]
    n = len(diffs)
    m = statistics.fmean(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(n) if n > 1 else math.inf
    vs = b or header.get("reference")
    print(f"{header.get('reference')} reference, {n} deals: {a} minus {vs} per deal per seat")
    print(f"  {m:+.2f}  95 % CI [{m - half:+.2f}, {m + half:+.2f}]")
    groups: dict[str, list[float]] = {}
    for (e, e2), d in zip(entries, diffs, strict=True):
        groups.setdefault(f"contract {e['baseline']['contract'] or 'none'}", []).append(d)
        pab = any(g["petit_au_bout"] is not None for g in games(e) + games(e2))
        groups.setdefault("petit au bout" if pab else "no petit au bout", []).append(d)
    for name, xs in sorted(groups.items()):
        mx = statistics.fmean(xs)
        hx = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else math.inf
        print(
            f"  {name:<22} {len(xs):>5} deals  {mx:+7.2f} [{mx - hx:+.2f}, {mx + hx:+.2f}]"
            f"  share {sum(xs) / n:+.2f}"
        )


def games(entry: dict[str, Any]) -> list[dict[str, Any]]:
    """The deal's games: the reference's, then each tested bot's in every seat."""
    return [entry["baseline"], *(g for plays in entry["tested"].values() for g in plays)]


if __name__ == "__main__":
    main()
