"""The kernel's buffers (transposition table, scratch) are each thread's own: its compiled
functions release the GIL, so searches in several threads at once (a duplicate series' par made
in a web process's thread beside the expert's decisions in its threads) run truly together.
With one shared set they corrupted each other: a fixed-work decision then differed from the
same decision made alone, and a series' par no longer matched the tables' play."""

from __future__ import annotations

import threading

from oudler.bots import make_bot
from oudler.core import Deal
from oudler.core.records import deal_to_record

LEVEL = "expert@w24"  # a fixed amount of work: the same decisions every time from their seeds


def play(seed: int) -> object:
    """A deal played to its end by the level in every seat, each decision seeded."""
    deal = Deal.from_seed(seed, seed & 3)
    actions = 0
    while not deal.is_over:
        seat = deal.to_move
        bot = make_bot(LEVEL, seed=seed * 1000 + actions)
        bot.begin_deal(seat)
        deal.act(bot.act(deal.observation(seat)), seat)
        actions += 1
    return deal_to_record(deal)


def test_fixed_work_deals_played_in_threads_at_once_are_those_played_alone() -> None:
    seeds = [3, 4]
    alone = {s: play(s) for s in seeds}
    start = threading.Barrier(2)
    got: list[dict[int, object]] = [{}, {}]

    def run(k: int) -> None:
        start.wait()
        for s in seeds[k:] + seeds[:k]:  # each thread in another order
            got[k][s] = play(s)

    threads = [threading.Thread(target=run, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == [alone, alone]
