"""The search kernel's speed (run by hand, one process, one core: ``python bench/search.py``).

1. Heuristic playouts per CPU second from the same dealt positions (bidding and discard done,
   as in bench/playouts.py): the compiled kernel (``oudler.kernel.playouts``, a batch of worlds
   per call) and the pure Python policy of the expert (``bots.expert.playout.playout``). Both
   play the same policy; the bench checks that they reach the same scores first.
2. The exact endgame solver (``oudler.kernel.solve``): median and 95th percentile wall time of a
   solve with 4, 5 and 6 tricks left, from positions reached by the policy, the transposition
   table emptied before each solve (a cold solve, the search's worst case).

3. Playouts per CPU second of the learned playout policy on the kernel (``/l`` levels; the
   packaged weights), from the same positions, and its cost against the heuristic's.

The last two lines are ``kernel playouts/s: N`` and ``python playouts/s: M``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from oudler import kernel as K
from oudler.bots.expert.playout import PlayState, Table, advance, choose, playout
from oudler.core import Deal
from oudler.core.deal import Contract
from oudler.core.tricks import legal_mask
from playouts import dealt_positions

POSITIONS = 256


def setup(deal: Deal) -> tuple[list[int], int, int, Table, K.Scoring]:
    assert deal.declarer is not None and deal.contract is not None
    c = deal.contract
    extra = deal.discard if c.dog_shown else (deal.dog if c is Contract.GARDE_SANS else 0)
    table = Table(deal.declarer, c.multiplier, False, 0, c is not Contract.GARDE_CONTRE)
    sc = K.Scoring(deal.declarer, c.multiplier, False, 0)
    return list(deal.hands), extra, (deal.dealer + 1) & 3, table, sc


def python_rate(starts: list[Deal], seconds: float) -> float:
    setups = [setup(d) for d in starts]
    done = 0
    t0 = time.process_time()
    while True:
        hands, extra, leader, table, _ = setups[done % len(setups)]
        st = PlayState()
        st.hands = hands[:]
        st.leader = leader
        st.extra = extra
        playout(st, table)
        done += 1
        if done % 50 == 0 and time.process_time() - t0 >= seconds:
            return done / (time.process_time() - t0)


def kernel_rate(starts: list[Deal], seconds: float, batch: int = 256) -> float:
    setups = [setup(d) for d in starts]
    groups = []
    for hands, extra, leader, _, sc in setups:
        base = K.position(hands, leader=leader)
        rows = K.world_rows([(hands, extra)] * batch)  # the same world, like a fixed position
        groups.append((base, rows, sc))
    done = 0
    i = 0
    t0 = time.process_time()
    while True:
        base, rows, sc = groups[i % len(groups)]
        K.playouts(base, rows, sc)
        done += batch
        i += 1
        if time.process_time() - t0 >= seconds:
            return done / (time.process_time() - t0)


def learned_rate(starts: list[Deal], seconds: float, batch: int = 256) -> float:
    """Playouts per CPU second by the learned policy (the packaged weights), from the same
    positions: each plays the leader's lowest legal card, then the network plays every card."""
    net = K.load_playout_net()
    groups = []
    for hands, extra, leader, _, sc in setup_all(starts):
        base = K.position(hands, leader=leader)
        rows = K.world_rows([(hands, extra)] * batch)
        first = (hands[leader] & -hands[leader]).bit_length() - 1
        groups.append((base, rows, [first], sc))
    done = 0
    i = 0
    t0 = time.process_time()
    while True:
        base, rows, cands, sc = groups[i % len(groups)]
        K.learned_card_values(base, rows, cands, sc, net)
        done += batch
        i += 1
        if time.process_time() - t0 >= seconds:
            return done / (time.process_time() - t0)


def setup_all(starts: list[Deal]) -> list[tuple[list[int], int, int, Table, K.Scoring]]:
    return [setup(d) for d in starts]


def check_same_policy(starts: list[Deal]) -> None:
    for d in starts:
        hands, extra, leader, table, sc = setup(d)
        st = PlayState()
        st.hands = hands[:]
        st.leader = leader
        st.extra = extra
        got, _ = K.playouts(K.position(hands, leader=leader), K.world_rows([(hands, extra)]), sc)
        assert int(got[0]) == playout(st, table)


def solver_times(starts: list[Deal], tricks_left: int, count: int) -> list[float]:
    times = []
    for d in starts[:count]:
        hands, extra, leader, table, sc = setup(d)
        st = PlayState()
        st.hands = hands[:]
        st.leader = leader
        st.extra = extra
        decl = table.declarer
        while st.n < 18 - tricks_left:
            t = st.trick()
            seat = st.to_move
            lg = legal_mask(st.hands[seat], t.led, t.high)
            advance(st, choose(st.hands, seat, lg, t, decl, st.dtricks == st.n), decl)
        p = K.position(
            st.hands, leader=st.leader, n=st.n, pile=st.pile, extra=st.extra,
            dtricks=st.dtricks, ex_trick=st.ex_trick, ex_owner_decl=st.ex_owner_decl,
            ex_winner_decl=st.ex_winner_decl, petit17=st.petit17, pab=st.pab,
        )  # fmt: skip
        K.clear_table()
        t0 = time.perf_counter()
        K.solve(p, sc)
        times.append(time.perf_counter() - t0)
    return times


def p95(xs: list[float]) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, round(0.95 * (len(s) - 1)))]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per run")
    parser.add_argument("--runs", type=int, default=5, help="runs per figure (median reported)")
    parser.add_argument("--solves", type=int, default=100, help="endgames per depth")
    args = parser.parse_args(argv)

    t0 = time.perf_counter()
    K.warm_up()
    print(f"kernel warm-up (cache load or compile): {time.perf_counter() - t0:.2f} s")
    starts = dealt_positions(POSITIONS, seed=2024)
    check_same_policy(starts[:64])
    for tricks_left in (4, 5, 6):
        ts = solver_times(starts, tricks_left, args.solves)
        print(
            f"exact solve, {tricks_left} tricks left: median {statistics.median(ts) * 1e3:.2f} ms,"
            f" p95 {p95(ts) * 1e3:.2f} ms ({len(ts)} positions, cold table)"
        )
    kern: list[float] = []
    py: list[float] = []
    learned: list[float] = []
    for _ in range(args.runs):  # interleaved, so a noisy moment hits all alike
        kern.append(kernel_rate(starts, args.seconds))
        py.append(python_rate(starts, args.seconds))
        learned.append(learned_rate(starts, args.seconds))
    k, m = round(statistics.median(kern)), round(statistics.median(py))
    n = round(statistics.median(learned))
    print(f"Python {sys.version.split()[0]}, {args.runs} runs of {args.seconds:g} CPU s each")
    print(f"learned-policy playouts/s (kernel): {n}; ratio heuristic/learned: {k / n:.1f}")
    print(f"ratio kernel/python: {k / m:.1f}")
    print(f"kernel playouts/s: {k}")
    print(f"python playouts/s: {m}")


if __name__ == "__main__":
    main()
