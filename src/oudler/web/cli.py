"""``oudler serve``: the web table on http://127.0.0.1:8000 by default; ``oudler worker``: a
computer players' worker on a Redis queue."""

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
            typer.Option(
                help="Worker processes for the expert computer players, without --queue "
                "(0: threads of the server)."
            ),
        ] = min(2, os.cpu_count() or 1),
        queue: Annotated[
            str | None,
            typer.Option(
                help="Redis (or Valkey) URL, e.g. redis://127.0.0.1:6379/0: the computer "
                "players think on `oudler worker` processes taking jobs from it (default: in "
                "local worker processes, no other service)."
            ),
        ] = None,
        queue_lanes: Annotated[
            str,
            typer.Option(
                help="With --queue: the lanes sent there (quick, expert, or both); the others "
                "think in this process's workers, e.g. --queue-lanes expert keeps the "
                "millisecond decisions of random, novice and club off Redis."
            ),
        ] = "quick,expert",
        live: Annotated[
            str | None,
            typer.Option(
                help="Redis URL that tells every web process of each change at a table with "
                "friends (default: the --queue URL; without either, this process only)."
            ),
        ] = None,
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
        public_url: Annotated[
            str | None,
            typer.Option(
                envvar="OUDLER_PUBLIC_URL",
                help="The address people open the site at, e.g. https://tarot.example behind "
                "a proxy: invitation links are built on it, and only its pages may open the "
                "live tables' socket (default: the address each page was loaded from).",
            ),
        ] = None,
    ) -> None:
        """Serve the web table: play a match against three computer players in the browser.

        The player id signing key is kept in the database (shared by every server process on
        it); set OUDLER_SECRET_KEY (16+ characters) to give it yourself."""
        import uvicorn

        from oudler.web import addresses
        from oudler.web.app import create_app, default_database_url
        from oudler.web.serving import uvicorn_config

        url = database_url or default_database_url()
        key = os.environ.get("OUDLER_SECRET_KEY") or None
        if key is not None and len(key.encode()) < 16:
            raise typer.BadParameter("OUDLER_SECRET_KEY must be at least 16 characters")
        if queue is not None:
            _check_queue_url(queue)
        if live is not None:
            _check_queue_url(live)
        lanes = _lanes(queue_lanes)
        if public_url is not None:
            try:
                public_url = addresses.public_url(public_url)
            except ValueError as e:
                raise typer.BadParameter(str(e), param_hint="--public-url") from None
        web = create_app(
            url,
            bot_processes=bot_processes,
            https=behind_https,
            secret_key=key,
            queue_url=queue,
            queue_lanes=lanes,
            live_url=live,
            warm_kernel=True,
            public_url=public_url,
            listen_host=host,
        )
        for line in _where(host, port, public_url):
            typer.echo(line)
        typer.echo(f"Database: {_safe(url)}")
        if queue is not None:
            typer.echo(f"Computer players think on the queue at {_safe_queue(queue)}")
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

    @app.command()
    def worker(
        queue: Annotated[
            str,
            typer.Option(help="Redis (or Valkey) URL of the queue, e.g. redis://host:6379/0."),
        ],
        lanes: Annotated[
            str,
            typer.Option(
                help="Which decisions to take: quick (random, novice, club), expert, or both "
                "(comma-separated)."
            ),
        ] = "quick,expert",
        job_timeout: Annotated[
            float,
            typer.Option(
                help="Seconds a job may run; a job whose worker died is run again this "
                "long plus 10 s after it started."
            ),
        ] = 30.0,
        max_tries: Annotated[int, typer.Option(help="Runs of a job in all.")] = 3,
    ) -> None:
        """Think for the computer players of `oudler serve --queue URL` processes (run any number,
        on any machine that reaches Redis). Each takes one decision at a time per lane, the expert
        one in a child process that warms the search kernel up first; run one per core."""
        import asyncio
        import logging

        from oudler.tables.redisqueue import serve_worker

        _check_queue_url(queue)
        chosen = list(_lanes(lanes))
        if job_timeout <= 0 or max_tries < 1:
            raise typer.BadParameter("--job-timeout must be positive and --max-tries at least 1")
        logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
        typer.echo(f"Thinking for {', '.join(chosen)} on {_safe_queue(queue)}; Ctrl+C stops.")
        from redis.exceptions import RedisError

        try:
            asyncio.run(serve_worker(queue, chosen, job_timeout=job_timeout, max_tries=max_tries))
        except (RedisError, OSError) as e:
            typer.echo(f"cannot reach the queue at {_safe_queue(queue)}: {e}", err=True)
            raise typer.Exit(1) from None


def _where(host: str, port: int, public_url: str | None) -> list[str]:
    """Where people open the site: the public URL, or the addresses of this machine that other
    machines reach when the server listens on all of them (``0.0.0.0`` opens nowhere)."""
    from oudler.web import addresses

    if public_url is not None:
        return [f"Oudler is at {public_url}/"]
    if addresses.all_addresses(host):
        shared = [addresses.Origin("http", a, port).url() for a in addresses.shared_addresses(host)]
        lines = [f"Oudler is at http://localhost:{port}/ on this machine"]
        if shared:
            lines.append("Friends on other machines open: " + "  ".join(u + "/" for u in shared))
        return lines
    if addresses.this_machine_only(host):
        return [
            f"Oudler is at http://localhost:{port}/",
            "It listens on this machine only: for friends on other machines, serve with "
            "--host 0.0.0.0 (or behind a proxy, with --public-url).",
        ]
    return [f"Oudler is at {addresses.Origin('http', host, port).url()}/"]


def _lanes(text: str) -> tuple[str, ...]:
    from oudler.tables.jobs import LANES

    chosen = tuple(dict.fromkeys(lane.strip() for lane in text.split(",") if lane.strip()))
    if not chosen or any(lane not in LANES for lane in chosen):
        raise typer.BadParameter(f"lanes are {' and '.join(LANES)}, not {text!r}")
    return chosen


def _check_queue_url(url: str) -> None:
    from oudler.tables.redisqueue import settings_of

    try:
        settings_of(url)
    except ValueError as e:
        raise typer.BadParameter(str(e)) from None


def _safe_queue(url: str) -> str:
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    host = parts.hostname or "localhost"
    return f"{parts.scheme}://{host}:{parts.port or 6379}{parts.path}"


def _safe(url: str) -> str:
    """The database URL without its password, for printing."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)
