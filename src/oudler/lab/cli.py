"""``oudler arena`` and ``oudler selfplay``: measure bots on duplicate deals; record the expert."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from oudler.lab.sprt import Sprt

ARENA_HELP = (
    "Play duplicate deals between bots and report their strength.\n\n"
    "Each seeded deal is played by the reference bot in all four seats (the baseline), then by "
    "every tested bot in each seat in turn with the reference in the other three. Reports, per "
    "bot, the mean score per deal per seat with its 95 % confidence interval (duplicate "
    "difference against the baseline), contracts taken and made, petit au bout won and lost, "
    "and decision times (p50/p95) per phase. See docs/arena.md."
)


def _progress(done: int, total: int) -> None:
    # On a terminal only: a long run says how far it is (on standard error, apart from the report).
    end = "\n" if done == total else ""
    print(f"\r{done}/{total} deals", end=end, file=sys.stderr, flush=True)


SPRT_MAX_DEALS = 2000


def _sprt_status(test: Sprt) -> None:
    # One line per deal the test reads, on standard error (kept when redirected to a file).
    print(test.status(), file=sys.stderr, flush=True)


def arena(
    bots: Annotated[
        list[str],
        typer.Option(
            "--bots",
            "-b",
            help="Bots, comma-separated levels (random, novice, club, expert) or "
            "'cmd:PROGRAM ARGS' for an outside program speaking docs/bot-protocol.md, or "
            "the lab's oracles oracle-cards@w100 and oracle-calls@w100 (the expert deciding "
            "its cards, or its calls, on the real deal; docs/arena.md, Ceilings). "
            "Repeatable. Every bot but the reference is tested against it.",
        ),
    ],
    reference: Annotated[
        str | None,
        typer.Option("--reference", "-r", help="The reference bot (default: the last of --bots)."),
    ] = None,
    deals: Annotated[
        int | None,
        typer.Option(
            "--deals",
            "-n",
            help="Number of duplicate deals (default 200); with --sprt, the most to play "
            f"(default {SPRT_MAX_DEALS}).",
        ),
    ] = None,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of the deals and bots.")] = 1,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Processes to play in.")] = 1,
    fixed_contract: Annotated[
        str | None,
        typer.Option(
            "--fixed-contract",
            help="Skip the bidding: the seat with the strongest hand (club's hand count) takes "
            "this contract (prise, garde, garde_sans, garde_contre), the others pass. Measures "
            "the play alone.",
        ),
    ] = None,
    timeout: Annotated[
        float,
        typer.Option("--timeout", help="Seconds an outside program may take for one action."),
    ] = 60.0,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the report as one JSON object.")
    ] = False,
    sprt: Annotated[
        str | None,
        typer.Option(
            "--sprt",
            help="A,B: a sequential test of H0 'the tested bot scores A points per deal per "
            "seat against the reference' against H1 'it scores B' (A < B; e.g. 0,5), on the "
            "paired duplicate differences; plays until it accepts one (at most --deals). One "
            "tested bot. See docs/arena.md.",
        ),
    ] = None,
    alpha: Annotated[
        float, typer.Option("--alpha", help="The SPRT's chance of accepting H1 when H0 holds.")
    ] = 0.05,
    beta: Annotated[
        float, typer.Option("--beta", help="The SPRT's chance of accepting H0 when H1 holds.")
    ] = 0.05,
    log: Annotated[
        Path | None,
        typer.Option(
            "--log",
            help="Write each finished deal to this file (JSON lines) and, when it already holds "
            "deals of the same run, go on from there: a long run that stops loses little.",
            dir_okay=False,
        ),
    ] = None,
) -> None:
    from oudler.bots import UnknownLevelError
    from oudler.bots.base import BotError
    from oudler.core import NotationError
    from oudler.lab.arena import (
        ArenaConfig,
        ArenaError,
        format_report,
        parse_bot_specs,
        parse_contract,
        run_arena,
    )
    from oudler.lab.sprt import SprtConfig, SprtError, parse_bounds

    try:
        specs = parse_bot_specs(bots)
        ref = parse_bot_specs([reference])[0] if reference else (specs[-1] if specs else None)
        if ref is None:
            raise ArenaError("name at least one bot with --bots")
        tested = tuple(dict.fromkeys(s for s in specs if s != ref))
        if not tested:
            raise ArenaError(f"nothing to test: every bot given is the reference ({ref})")
        test = None
        if sprt is not None:
            low, high = parse_bounds(sprt)
            test = SprtConfig(low, high, alpha=alpha, beta=beta)
        elif alpha != 0.05 or beta != 0.05:
            raise ArenaError("--alpha and --beta are the SPRT's error rates: give --sprt A,B")
        config = ArenaConfig(
            tested=tested,
            reference=ref,
            deals=deals if deals is not None else (SPRT_MAX_DEALS if test else 200),
            sprt=test,
            seed=seed,
            jobs=jobs,
            fixed_contract=parse_contract(fixed_contract),
            program_timeout=timeout,
        )
        report = run_arena(
            config,
            progress=_progress if sys.stderr.isatty() and test is None else None,
            log=log,
            sprt_status=_sprt_status if test is not None else None,
        )
    except (ArenaError, SprtError, UnknownLevelError, NotationError, BotError) as err:
        typer.echo(f"oudler arena: {err}", err=True)
        raise typer.Exit(2) from None
    if as_json:
        typer.echo(json.dumps(report))
    else:
        typer.echo(format_report(report))


def selfplay(
    deals: Annotated[int, typer.Option("--deals", "-n", help="Number of deals to play.")],
    out: Annotated[
        Path,
        typer.Option(
            "--out",
            "-o",
            help="JSON-lines file to write (docs/selfplay.md); an existing file of the same run "
            "is continued.",
            dir_okay=False,
        ),
    ],
    level: Annotated[
        str,
        typer.Option(
            "--level", "-l", help="A searching level, best at fixed work (as expert@w200)."
        ),
    ] = "expert@w200",
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of the deals and bots.")] = 1,
) -> None:
    """Record the expert's own decisions with the value of every option it weighed.

    Four bots of LEVEL play seeded deals; each decision is written with the deciding seat's
    observation, the search's value (mean, standard error, worlds) of every option, the action
    chosen and the deal's result. See docs/selfplay.md.
    """
    from oudler.bots import UnknownLevelError
    from oudler.lab.selfplay import SelfplayError, run_selfplay

    try:
        summary = run_selfplay(
            level, deals, out, seed=seed, progress=_progress if sys.stderr.isatty() else None
        )
    except (SelfplayError, UnknownLevelError) as err:
        typer.echo(f"oudler selfplay: {err}", err=True)
        raise typer.Exit(2) from None
    typer.echo(json.dumps(summary))


def register(app: typer.Typer) -> None:
    app.command("arena", help=ARENA_HELP)(arena)
    app.command("selfplay")(selfplay)
