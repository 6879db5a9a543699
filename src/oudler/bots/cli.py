"""``oudler arena`` and ``oudler bot``: measure bots on duplicate deals; speak the bot protocol."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

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


def arena(
    bots: Annotated[
        list[str],
        typer.Option(
            "--bots",
            "-b",
            help="Bots, comma-separated levels (random, novice, club, expert) or "
            "'cmd:PROGRAM ARGS' for an outside program speaking docs/bot-protocol.md. "
            "Repeatable. Every bot but the reference is tested against it.",
        ),
    ],
    reference: Annotated[
        str | None,
        typer.Option("--reference", "-r", help="The reference bot (default: the last of --bots)."),
    ] = None,
    deals: Annotated[int, typer.Option("--deals", "-n", help="Number of duplicate deals.")] = 200,
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
    from oudler.bots.arena import (
        ArenaConfig,
        ArenaError,
        format_report,
        parse_bot_specs,
        parse_contract,
        run_arena,
    )
    from oudler.bots.play import BotError
    from oudler.core import NotationError

    try:
        specs = parse_bot_specs(bots)
        ref = parse_bot_specs([reference])[0] if reference else (specs[-1] if specs else None)
        if ref is None:
            raise ArenaError("name at least one bot with --bots")
        tested = tuple(dict.fromkeys(s for s in specs if s != ref))
        if not tested:
            raise ArenaError(f"nothing to test: every bot given is the reference ({ref})")
        config = ArenaConfig(
            tested=tested,
            reference=ref,
            deals=deals,
            seed=seed,
            jobs=jobs,
            fixed_contract=parse_contract(fixed_contract),
            program_timeout=timeout,
        )
        report = run_arena(config, progress=_progress if sys.stderr.isatty() else None, log=log)
    except (ArenaError, UnknownLevelError, NotationError, BotError) as err:
        typer.echo(f"oudler arena: {err}", err=True)
        raise typer.Exit(2) from None
    if as_json:
        typer.echo(json.dumps(report))
    else:
        typer.echo(format_report(report))


def bot(
    level: Annotated[
        str, typer.Option("--level", "-l", help="random, novice, club or expert.")
    ] = "club",
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of the bot's randomness.")] = 1,
) -> None:
    """Speak the bot protocol on standard input and output (docs/bot-protocol.md).

    Reads one observation (JSON) per line and answers each with one action (JSON) per line, until
    the input ends.
    """
    from oudler.bots import UnknownLevelError, make_bot
    from oudler.bots.protocol import serve
    from oudler.core import NotationError

    try:
        player = make_bot(level, seed=seed)
    except UnknownLevelError as err:
        typer.echo(f"oudler bot: {err}", err=True)
        raise typer.Exit(2) from None
    try:
        serve(player, sys.stdin, sys.stdout)
    except NotationError as err:
        typer.echo(f"oudler bot: {err}", err=True)
        raise typer.Exit(2) from None


def register(app: typer.Typer) -> None:
    app.command("arena", help=ARENA_HELP)(arena)
    app.command("bot")(bot)
