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
        behind_https: Annotated[
            bool,
            typer.Option(
                help="The site is served over HTTPS by a proxy in front: the player cookie is "
                "Secure and browsers are told to keep to HTTPS."
            ),
        ] = False,
        forwarded_allow_ips: Annotated[
            str,
            typer.Option(
                help="Proxies (comma-separated addresses, or *) whose X-Forwarded-For and "
                "X-Forwarded-Proto headers are trusted."
            ),
        ] = "127.0.0.1",
    ) -> None:
        """Serve the web table: play a match against three computer players in the browser.

        The player id signing key is kept in the database (shared by every server process on
        it); set OUDLER_SECRET_KEY (16+ characters) to give it yourself."""
        import uvicorn

        from oudler.web.app import create_app, default_database_url
        from oudler.web.serving import uvicorn_config

        url = database_url or default_database_url()
        key = os.environ.get("OUDLER_SECRET_KEY") or None
        if key is not None and len(key.encode()) < 16:
            raise typer.BadParameter("OUDLER_SECRET_KEY must be at least 16 characters")
        web = create_app(url, bot_processes=bot_processes, https=behind_https, secret_key=key)
        shown = "localhost" if host in ("127.0.0.1", "::1") else host
        typer.echo(f"Oudler is at http://{shown}:{port}/  (database: {_safe(url)})")
        typer.echo("Press Ctrl+C to stop.")
        config = uvicorn_config(
            web,
            host=host,
            port=port,
            log_level="info",
            proxy_headers=True,
            forwarded_allow_ips=forwarded_allow_ips,
        )
        uvicorn.Server(config).run()


def _safe(url: str) -> str:
    """The database URL without its password, for printing."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)
