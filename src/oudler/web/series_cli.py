"""``oudler duplicate make|results|export``: duplicate series by hand (the server makes its own
daily series when first asked; docs/duplicate.md)."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from oudler.web.db_cli import DatabaseUrl

if TYPE_CHECKING:
    from oudler.tables.games import Tables


def _fail(message: str) -> typer.Exit:
    typer.echo(f"oudler duplicate: {message}", err=True)
    return typer.Exit(1)


def register(app: typer.Typer) -> None:
    dup = typer.Typer(help="Duplicate series: the same deals for everyone.", no_args_is_help=True)
    app.add_typer(dup, name="duplicate")

    @dup.command()
    def make(
        date: str = typer.Option("", "--date", help="The day (UTC), YYYY-MM-DD; default today."),
        kind: str = typer.Option("daily", "--kind", help="The kind of series: daily or weekly."),
        weekly: bool = typer.Option(
            False, "--weekly", help="The week's series (imposed taker), as --kind weekly."
        ),
        database_url: DatabaseUrl = None,
    ) -> None:
        """Make a series (its boards and its par), or say which one exists already. A weekly
        series is the week's that the day falls in (from its Monday)."""
        from oudler.tables.series import Series
        from oudler.web.app import default_database_url

        try:
            day = dt.date.fromisoformat(date) if date else None
        except ValueError:
            raise _fail(f"not a date (YYYY-MM-DD): {date!r}") from None
        tables = _tables(database_url or default_database_url())
        try:
            made = Series(tables).make("weekly" if weekly else kind, day)
        except ValueError as e:
            raise _fail(str(e)) from None
        finally:
            tables.store.close()
        closes = made.closes.isoformat()
        typer.echo(f"series {made.id} ({made.key}): {len(made.boards)} deals, closes {closes}")

    @dup.command()
    def results(
        series: str = typer.Argument(..., help="The series' id."),
        as_json: bool = typer.Option(False, "--json", help="Print JSON."),
        database_url: DatabaseUrl = None,
    ) -> None:
        """Print a series' ranking: finished entries, best first, and the par."""
        from oudler.tables.games import WebError
        from oudler.tables.series import Series
        from oudler.web.app import default_database_url

        tables = _tables(database_url or default_database_url())
        try:
            out = Series(tables).results(series)
        except WebError as e:
            raise _fail(e.message) from None
        finally:
            tables.store.close()
        if as_json:
            typer.echo(json.dumps(out, indent=2))
            return
        typer.echo(f"series {out['id']} ({out['key']}); par {out['par']}")
        for r in out["rows"]:
            typer.echo(
                f"{r['rank']:>4}  {r['percent']:6.2f} %  {r['name'] or '-':24}  {r['scores']}"
            )

    @dup.command()
    def export(
        series: str = typer.Argument(..., help="The series' id."),
        out: str = typer.Option("", "--out", help="The file to write; default stdout."),
        names: bool = typer.Option(
            False, "--names", help="Name signed-in people (default: pseudonymous ids)."
        ),
        database_url: DatabaseUrl = None,
    ) -> None:
        """Write a closed series as records: every person's own view of every deal they
        finished, and the par's, in the self-play format (docs/duplicate.md, "Export")."""
        from oudler.tables.games import WebError
        from oudler.tables.series import Series
        from oudler.web.app import default_database_url

        tables = _tables(database_url or default_database_url())
        try:
            lines = Series(tables).after.export_lines(series, names=names)
            if not out:
                for line in lines:
                    typer.echo(line, nl=False)
            else:
                # Written whole to a file beside, then moved: a refused or broken export
                # leaves no half file under the name asked for.
                target = Path(out)
                part = target.with_name(target.name + ".part")
                try:
                    with part.open("w", encoding="utf-8") as fh:
                        fh.writelines(lines)
                except BaseException:
                    part.unlink(missing_ok=True)
                    raise
                part.replace(target)
        except WebError as e:
            raise _fail(e.message) from None
        finally:
            tables.store.close()


def _tables(database_url: str) -> Tables:
    from oudler.tables.computer import ComputerPlayers
    from oudler.tables.games import Tables
    from oudler.tables.store import Store

    store = Store(database_url)
    store.create_schema()
    return Tables(store, ComputerPlayers())
