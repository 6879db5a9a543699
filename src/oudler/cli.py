"""The ``oudler`` command. Each part of the program registers its own sub-commands."""

from __future__ import annotations

import importlib

import typer

app = typer.Typer(
    help="Oudler: French Tarot for four (FFT free-play rules).",
    no_args_is_help=True,
    add_completion=False,
)


def _show_version(value: bool) -> None:
    if value:
        from oudler import __version__

        typer.echo(f"oudler {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_show_version, is_eager=True, help="Show the version."
    ),
) -> None:
    # A callback keeps sub-command names required even while only one command is registered
    # (typer otherwise runs a lone command directly and reads its name as an argument).
    pass


# Modules that define ``register(app)``; each adds its commands (imports stay lazy inside them).
COMMAND_MODULES: list[str] = [
    "oudler.replay",
    "oudler.web.cli",
    "oudler.web.db_cli",
    "oudler.web.series_cli",
    "oudler.lab.cli",  # arena, selfplay (before bot: the order of --help)
    "oudler.bots.cli",
    "oudler.coach.cli",
]

for _name in COMMAND_MODULES:
    importlib.import_module(_name).register(app)


def main() -> None:
    app()
