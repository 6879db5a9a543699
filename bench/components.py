"""Where a level's strength comes from: one kind of decision at a time, the rest by club.

    .venv/bin/python bench/components.py LEVEL [--phases bidding,discard,chelem,poignee,play] \\
        [--deals 300] [--seed 7] [--jobs 2] [--log-dir DIR]

For each phase named (``all``: every phase at once), a duplicate arena against club
(docs/arena.md) in which the tested bot is LEVEL for that phase's decisions and club for all
the others: what LEVEL's calls, discard, chelem, poignée or card play alone are worth against
club's, in points a deal per seat with the arena's 95 % interval, and the contracts taken and
made. ``combined`` phases are written ``bidding+discard``. With ``--log-dir`` each run writes
the arena's log there (``LEVEL-PHASES-seedS.log.jsonl``) and goes on from it when run again;
``bench/arena_compare.py`` pairs two such logs deal by deal.

The mixed bot is built in each of the arena's processes (a level name the arena does not know,
``mix:LEVEL:PHASES``, read by a wrapped ``make_bot``), so this runs only with the fork start
method (Linux), as the arena's own processes do here.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import oudler.lab.arena as arena
from oudler.bots import make_bot
from oudler.bots.base import Bot
from oudler.core import Action, Observation

PHASES = ("bidding", "discard", "chelem", "poignee", "play")


class Mixed:
    """``level`` for the decisions of ``phases``, club for the others."""

    def __init__(self, level: str, phases: set[str], seed: int, calls_imposed: bool) -> None:
        self.phases = phases
        self.main = make_bot(level, seed=seed, calls_imposed=calls_imposed)
        self.club = make_bot("club", seed=seed)
        self.level = f"mix:{level}:{'+'.join(sorted(phases))}"

    def begin_deal(self, seat: int) -> None:
        self.main.begin_deal(seat)
        self.club.begin_deal(seat)

    def act(self, obs: Observation) -> Action:
        bot = self.main if obs.phase.value in self.phases else self.club
        return bot.act(obs)


def _make(level: str, *, seed: int, calls_imposed: bool = False, cancelled: Any = None) -> Bot:
    if level.startswith("mix:"):
        inner, phases = level.split(":", 1)[1].rsplit(":", 1)
        return Mixed(inner, set(phases.split("+")), seed, calls_imposed)
    return make_bot(level, seed=seed, calls_imposed=calls_imposed, cancelled=cancelled)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("level", help="the level to take apart, as expert@w100 or policy")
    parser.add_argument("--phases", default=",".join(PHASES), help="phases, or a+b, or all")
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--log-dir", type=Path)
    args = parser.parse_args()
    arena.make_bot = _make  # type: ignore[attr-defined]  # the arena's processes build the mix
    for group in args.phases.split(","):
        phases = set(PHASES) if group == "all" else set(group.split("+"))
        unknown = phases - set(PHASES)
        if unknown:
            parser.error(f"unknown phase {sorted(unknown)}; expected {', '.join(PHASES)}")
        name = f"mix:{args.level}:{'+'.join(sorted(phases))}"
        log = None
        if args.log_dir is not None:
            args.log_dir.mkdir(parents=True, exist_ok=True)
            tag = "all" if group == "all" else "+".join(sorted(phases))
            safe = args.level.replace("/", "_").replace("@", "_")
            log = args.log_dir / f"{safe}-{tag}-seed{args.seed}.log.jsonl"
        config = arena.ArenaConfig(
            tested=(name,), reference="club", deals=args.deals, seed=args.seed, jobs=args.jobs
        )
        report = arena.run_arena(config, log=log)
        mine = report["bots"][0]
        club = report["bots"][1]
        row = {
            "level": args.level,
            "phases": group,
            "deals": report["deals"],
            "seed": args.seed,
            "score": mine["score"],
            "contracts": mine["contracts"],
            "club_contracts": club["contracts"],
            "seconds": report["seconds"],
        }
        print(json.dumps(row), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
