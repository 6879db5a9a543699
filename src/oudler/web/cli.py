"""``oudler serve``: the web table on http://127.0.0.1:8000 by default."""

from __future__ import annotations

import os
from typing import Annotated

import typer


def register(app: typer.Typer) -> None:
    @app.command()
    def serve(
        host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
        port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
        database_url: Annotated[
            str | None,
            typer.Option(
                help="SQLAlchemy URL of the database, e.g. postgresql+psycopg://user@host/db "
                "(default: SQLite in the user's data directory)."
            ),
        ] = None,
        bot_processes: Annotated[
            int,
            typer.Option(help="Worker processes for the computer players (0: in the server)."),
        ] = min(2, os.cpu_count() or 1),
    ) -> None:
        """Serve the web table: play a match against three computer players in the browser."""
        import uvicorn

        from oudler.web.app import create_app, default_database_url

        url = database_url or default_database_url()
        web = create_app(url, bot_processes=bot_processes)
        shown = "localhost" if host in ("127.0.0.1", "::1") else host
        typer.echo(f"Oudler is at http://{shown}:{port}/  (database: {_safe(url)})")
        typer.echo("Press Ctrl+C to stop.")
        uvicorn.run(web, host=host, port=port, log_level="info")


def _safe(url: str) -> str:
    """The database URL without its password, for printing."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)
