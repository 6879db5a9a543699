"""``oudler bot``: a level speaking the bot protocol on standard input and output."""

from __future__ import annotations

import sys
from typing import Annotated

import typer


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
    app.command("bot")(bot)
