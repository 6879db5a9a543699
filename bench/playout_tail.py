"""What an exact tail costs a card search's playout (level option ``/tN``; run by hand:
``python bench/playout_tail.py``).

From random positions of random deals (0 to 12 tricks played, so that the playout is long and
its tail is the deal's real end), ``kernel.card_values`` values every legal card in W random
worlds (the hidden hands shuffled among the other seats), once with each tail length. A figure
is the median over positions of (CPU time / (legal cards x worlds)): microseconds a playout,
the one number that decides how many worlds a wall-time budget buys. Also the 95th percentile
and the ratio of each tail's median to the plain playout's.

    python bench/playout_tail.py --positions 60 --worlds 64 --tails 0,3,4,5,6
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from oudler import kernel as K
from oudler.core import cards as C


def position(rng: random.Random) -> tuple[K.Position, list[int], int, int]:
    """(a random position, its legal cards, the seat to move, the declarer)."""
    deck = list(range(78))
    rng.shuffle(deck)
    hands = [sum(1 << c for c in deck[18 * s : 18 * s + 18]) for s in range(4)]
    decl = rng.randrange(4)
    p = K.position(hands, leader=rng.randrange(4), extra=sum(1 << c for c in deck[72:]))
    for _ in range(rng.randrange(0, 4 * 12 + 1)):
        seat = K.to_move(p)
        hand = K.join(int(p.H[2 * seat]), int(p.H[2 * seat + 1]))
        K.play(p, rng.choice(C.cards_of(K.legal(hand, int(p.S[13]), int(p.S[14])))), decl)
    seat = K.to_move(p)
    hand = K.join(int(p.H[2 * seat]), int(p.H[2 * seat + 1]))
    return p, C.cards_of(K.legal(hand, int(p.S[13]), int(p.S[14]))), seat, decl


def worlds(p: K.Position, seat: int, n: int, rng: random.Random) -> K.U64:
    """``n`` worlds: the other seats' cards dealt again at random, each keeping its count (no
    voids respected: the cost, not the play, is measured)."""
    hs = [K.join(int(p.H[2 * s]), int(p.H[2 * s + 1])) for s in range(4)]
    extra = K.join(int(p.H[10]), int(p.H[11]))
    others = [s for s in range(4) if s != seat]
    pool = [c for s in others for c in C.cards_of(hs[s])]
    out = []
    for _ in range(n):
        rng.shuffle(pool)
        dealt = list(hs)
        at = 0
        for s in others:
            k = hs[s].bit_count()
            dealt[s] = sum(1 << c for c in pool[at : at + k])
            at += k
        out.append((dealt, extra))
    return K.world_rows(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=60)
    ap.add_argument("--worlds", type=int, default=64)
    ap.add_argument("--tails", default="0,3,4,5")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    tails = [int(t) for t in args.tails.split(",")]
    K.warm_up()
    rng = random.Random(args.seed)
    cost: dict[int, list[float]] = {t: [] for t in tails}
    for _ in range(args.positions):
        p, legal, seat, decl = position(rng)
        rows = worlds(p, seat, args.worlds, rng)
        sc = K.Scoring(decl, 1, False, 0)
        for t in tails:
            start = time.process_time()
            K.card_values(p, rows, legal, sc, False, t)
            cost[t].append((time.process_time() - start) / (len(legal) * args.worlds) * 1e6)
    base = statistics.median(cost[tails[0]])
    print(f"{args.positions} positions, {args.worlds} worlds each; us a playout (CPU time)")
    print(f"{'tail':>4} {'median':>9} {'p95':>9} {'ratio':>7}")
    for t in tails:
        xs = sorted(cost[t])
        med = statistics.median(xs)
        p95 = xs[min(len(xs) - 1, int(0.95 * len(xs)))]
        print(f"{t:>4} {med:>9.1f} {p95:>9.1f} {med / base:>7.1f}")


if __name__ == "__main__":
    main()
