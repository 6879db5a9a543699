"""What the exact solver costs a card search, and a check that a change to it keeps its values
(run by hand: ``python bench/solver_table.py``; to compare two versions of the kernel, run it
from each, e.g. ``PYTHONPATH=/tmp/old/src python bench/solver_table.py``).

Two workloads of ``kernel.card_values``, the call the expert's card search spends its time in:

- ``tail4``: every legal card in 64 random worlds from random positions (0 to 12 tricks
  played), each playout's last 4 tricks solved exactly (``/t4``, the expert's default);
- ``exact5``: every legal card in 8 random worlds from positions with 5 tricks left, solved
  to the end (the expert's endgame).

Each workload runs ``--reps`` times with the transposition table emptied first; it prints the
minimum and the median CPU seconds of a run, and a digest of the values. The solver's values
are exact whatever the table holds, so the digest must be the same for any layout or size of
the table: a different digest is a bug.

2026-12-06 (2-core AMD EPYC, 1 MiB L2 a core, beside two arenas at nice 19), min of 5, seconds:

    table                                   tail4   exact5
    2^20 slots, four arrays (until 0.9.0)   1.07    0.34
    2^20 slots, one row a slot              0.95    0.30
    2^17 slots, one row a slot              0.89    0.29
    2^16 slots, one row a slot (0.10.0)     0.86    0.28
    2^14 slots, one row a slot              0.82    0.28
"""

from __future__ import annotations

import argparse
import hashlib
import random
import statistics
import time

from oudler import kernel as K
from oudler.core import cards as C
from playout_tail import position, worlds


def legal_cards(p: K.Position) -> tuple[int, list[int]]:
    seat = K.to_move(p)
    hand = K.join(int(p.H[2 * seat]), int(p.H[2 * seat + 1]))
    return seat, C.cards_of(K.legal(hand, int(p.S[13]), int(p.S[14])))


Case = tuple[K.Position, list[int], K.U64, K.Scoring]


def cases(seed: int, count: int) -> tuple[list[Case], list[Case]]:
    """(the tail4 positions, the exact5 ones), each with its legal cards, worlds and scoring."""
    rng = random.Random(seed)
    tail: list[Case] = []
    for _ in range(count):
        p, legal, seat, decl = position(rng)
        tail.append((p, legal, worlds(p, seat, 64, rng), K.Scoring(decl, 1, False, 0)))
    ends: list[Case] = []
    while len(ends) < count // 2:
        p, _, _, decl = position(rng)
        if int(p.S[6]) < 10:  # tricks finished
            continue
        while int(p.S[6]) < 13 or int(p.S[1]) != 0:  # to the start of the 14th trick
            K.play(p, rng.choice(legal_cards(p)[1]), decl)
        seat, legal = legal_cards(p)
        ends.append((p, legal, worlds(p, seat, 8, rng), K.Scoring(decl, 1, False, 0)))
    return tail, ends


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=60)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    K.warm_up()
    tail, ends = cases(args.seed, args.positions)
    for name, group, exact, tail_tricks in (("tail4", tail, False, 4), ("exact5", ends, True, 0)):
        digest = hashlib.sha256()
        runs = []
        for rep in range(args.reps):
            K.clear_table()
            start = time.process_time()
            for p, legal, rows, sc in group:
                out = K.card_values(p, rows, legal, sc, exact, tail_tricks)
                if rep == 0:
                    digest.update(out.tobytes())
            runs.append(time.process_time() - start)
        print(
            f"{name:>6}: min {min(runs):.3f} s, median {statistics.median(runs):.3f} s "
            f"({len(group)} positions); values {digest.hexdigest()[:12]}"
        )


if __name__ == "__main__":
    main()
