"""``oudler db upgrade|current|history``: the database's migrations (``oudler.tables.migrate``).

``oudler serve`` upgrades the database at its start anyway; ``oudler db upgrade`` does it
beforehand (e.g. in a deployment step, before the new servers start), and ``current`` says where
a database is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine

DatabaseUrl = Annotated[
    str | None,
    typer.Option(
        help="SQLAlchemy URL of the database, e.g. postgresql+psycopg://user@host/db "
        "(default: SQLite in the user's data directory, as `oudler serve`)."
    ),
]


def _fail(message: str) -> typer.Exit:
    typer.echo(f"oudler db: {message}", err=True)
    return typer.Exit(1)


def _engine(database_url: str | None) -> Engine:
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError

    from oudler.tables.store import make_engine
    from oudler.web.app import default_database_url

    try:
        return make_engine(database_url or default_database_url())
    except (ArgumentError, NoSuchModuleError) as e:
        raise _fail(f"not a database URL: {e}") from None
    except ImportError as e:  # e.g. PostgreSQL without the postgres extra
        raise _fail(
            f"the database's driver is missing ({e}); for PostgreSQL, pip install "
            "'oudler[postgres]' and give a postgresql+psycopg:// URL"
        ) from None


def register(app: typer.Typer) -> None:
    db = typer.Typer(help="The database's schema: its migrations.", no_args_is_help=True)
    app.add_typer(db, name="db")

    @db.command()
    def upgrade(database_url: DatabaseUrl = None) -> None:
        """Apply the migrations the database lacks (a database made by 0.7.0 or older is
        brought to 0.7.0's schema first). Safe while servers run, and to run twice."""
        from sqlalchemy.exc import SQLAlchemyError

        from oudler.tables import migrate

        engine = _engine(database_url)
        try:
            migrate.upgrade(engine)
            typer.echo(f"The database is at revision {migrate.current(engine)} (the newest).")
        except (migrate.MigrationError, SQLAlchemyError) as e:
            raise _fail(str(e)) from None
        finally:
            engine.dispose()

    @db.command()
    def current(database_url: DatabaseUrl = None) -> None:
        """Say which revision the database is at."""
        from sqlalchemy.exc import SQLAlchemyError

        from oudler.tables import migrate

        engine = _engine(database_url)
        try:
            now, newest = migrate.current(engine), migrate.head()
        except SQLAlchemyError as e:
            raise _fail(str(e)) from None
        finally:
            engine.dispose()
        if now is None:
            typer.echo(
                f"no revision (a new database, or one made before migrations); newest: {newest}"
            )
        else:
            typer.echo(f"{now}{' (the newest)' if now == newest else f'; newest: {newest}'}")

    @db.command()
    def history() -> None:
        """List the revisions, newest first."""
        from alembic import command

        from oudler.tables import migrate

        command.history(migrate.config())
