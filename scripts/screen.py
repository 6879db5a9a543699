"""A short control before a long one: screen a change at a small fixed budget, and only if the
SPRT accepts it there, test it at the table's budget (docs/arena.md, "Short control, then long").

    python scripts/screen.py NAME --new expert --base expert-v1 --sprt 0,5
    python scripts/screen.py NAME --new expert --base expert --base-commit 5ffb8e9 --sprt 0,5
    python scripts/screen.py NAME --new expert@p1 --base expert --sprt 0,3

Stage 1 (the screen): ``oudler arena --bots NEW@wK,BASE@wK --sprt A,B`` at ``--worlds K``
(default 100) worlds a decision, in ``--jobs`` processes; fixed work, so the machine's load does
not matter. H0 accepted: the change is rejected and nothing more is played. H1 accepted: stage 2
(the long control) plays the wall-time levels as the table does, with the same test, one
process under ``flock /tmp/oudler-bench.lock`` (wall time is sensitive to load: the lock keeps
two measurements from slowing each other). ``--long-worlds K`` runs stage 2 at a large fixed
budget instead.

``--base-commit``: the base bot is the level as it was at that commit, run as an outside program
from a copy of its ``src`` in /tmp, so a change to the expert's code is tested
against the code before it. Without it, the base is a level of the code checked out here.

Everything goes into ``docs/results/`` (``NAME-screen-wK.log.jsonl`` and ``.json``, then
``NAME-long*.log.jsonl`` and ``.json``); the script runs at ``nice -n 19``. Run again with the same
arguments, it goes on from the logs: a stage already decided is read back, not played.
Exit status: 0 accepted at both stages, 1 rejected, 3 undecided (out of deals: raise --deals).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

from oudler.bots import SEARCH_LEVELS, parse_level

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "docs" / "results"


def base_program(level: str, commit: str) -> str:
    """A ``cmd:`` bot playing ``level`` with the code of ``commit`` (its ``src`` exported to
    /tmp by ``git archive``: no worktree to register or clean up)."""
    sha = subprocess.run(
        ["git", "rev-parse", "--short=12", commit], cwd=ROOT, check=True, capture_output=True,
        text=True,
    ).stdout.strip()  # fmt: skip
    where = Path(f"/tmp/oudler-base-{sha}")
    if not where.exists():
        where.mkdir(parents=True)
        archive = subprocess.run(
            ["git", "archive", sha, "src"], cwd=ROOT, check=True, capture_output=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(where)], input=archive, check=True)
    python = shlex.quote(sys.executable)
    return f"cmd:env PYTHONPATH={where / 'src'} {python} -m oudler bot --level {level}"


def stage(name: str, bots: list[str], args: argparse.Namespace, jobs: int, lock: bool) -> str:
    """Run (or resume) one arena SPRT; its decision."""
    log = RESULTS / f"{name}.log.jsonl"
    report = RESULTS / f"{name}.json"
    cmd = [sys.executable, "-m", "oudler", "arena"]
    for b in bots:
        cmd += ["--bots", b]
    cmd += ["--sprt", args.sprt, "--alpha", str(args.alpha), "--beta", str(args.beta)]
    cmd += ["--deals", str(args.deals), "--seed", str(args.seed), "--jobs", str(jobs)]
    cmd += ["--json", "--log", str(log)]
    if lock:
        cmd = ["flock", "/tmp/oudler-bench.lock", *cmd]
    print("$", shlex.join(cmd), ">", report, file=sys.stderr, flush=True)
    with report.open("w") as out:
        done = subprocess.run(cmd, stdout=out, cwd=ROOT)
    if done.returncode != 0:
        sys.exit(f"screen: the arena failed (exit {done.returncode})")
    decision: str | None = json.loads(report.read_text())["sprt"]["decision"]
    print(f"{name}: {decision or 'no decision yet'}", file=sys.stderr, flush=True)
    return decision or "none"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("name", help="names the logs in docs/results/")
    parser.add_argument("--new", required=True, help="the changed level (as expert)")
    parser.add_argument("--base", required=True, help="the level it must beat (as expert-v1)")
    parser.add_argument("--base-commit", help="play --base with the code of this commit")
    parser.add_argument("--sprt", default="0,5", help="A,B in points per deal per seat")
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--beta", type=float, default=0.05)
    parser.add_argument("--worlds", type=int, default=100, help="the screen's worlds a decision")
    parser.add_argument("--long-worlds", type=int, help="stage 2 at this fixed budget")
    parser.add_argument("--deals", type=int, default=2000, help="most deals per stage")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2, help="processes for fixed-work stages")
    parser.add_argument("--screen-only", action="store_true", help="stop after stage 1")
    args = parser.parse_args()
    os.nice(19)

    def bot(level: str, worlds: int | None, base: bool) -> str:
        # club, novice... have no budget: they play the same in both stages; a searching level
        # keeps its other settings (expert@p2: the policy's prior) with the stage's worlds
        parsed = parse_level(level)
        spec = (
            dataclasses.replace(parsed, worlds=worlds, bid_worlds=None).name
            if parsed.level in SEARCH_LEVELS
            else level
        )
        return base_program(spec, args.base_commit) if base and args.base_commit else spec

    screen = f"{args.name}-screen-w{args.worlds}"
    short = args.worlds
    first = stage(
        screen, [bot(args.new, short, False), bot(args.base, short, True)], args, args.jobs, False
    )
    if first != "H1" or args.screen_only:
        return {"H1": 0, "H0": 1}.get(first, 3)
    if args.long_worlds:
        long = args.long_worlds
        bots = [bot(args.new, long, False), bot(args.base, long, True)]
        second = stage(f"{args.name}-long-w{args.long_worlds}", bots, args, args.jobs, False)
    else:
        bots = [bot(args.new, None, False), bot(args.base, None, True)]
        second = stage(f"{args.name}-long-table", bots, args, 1, True)
    return {"H1": 0, "H0": 1}.get(second, 3)


if __name__ == "__main__":
    sys.exit(main())
