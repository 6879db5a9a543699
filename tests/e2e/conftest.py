"""End-to-end fixtures: the real server (uvicorn in a thread, on a free loopback port, on a fresh
database) and Debian's Chromium driven by Playwright.

The database is a temporary SQLite file, or a fresh schema of the PostgreSQL database named by
``OUDLER_TEST_DATABASE_URL`` (as in the web API tests), so the suite runs on both.
"""

from __future__ import annotations

import os
import secrets
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from pagedriver import CHROMIUM, CHROMIUM_ARGS, Table

PG_ENV = "OUDLER_TEST_DATABASE_URL"


@pytest.fixture
def database_url(tmp_path: Path) -> Iterator[str]:
    """A temporary SQLite file, or a fresh schema of $OUDLER_TEST_DATABASE_URL (PostgreSQL), so
    that parallel test workers never see each other's rows."""
    base = os.environ.get(PG_ENV)
    if not base:
        yield f"sqlite:///{tmp_path / 'e2e.sqlite3'}"
        return
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    schema = "oudler_e2e_" + secrets.token_hex(6)
    admin = create_engine(base)
    with admin.begin() as conn:
        conn.execute(text(f"CREATE SCHEMA {schema}"))
    url = make_url(base).update_query_dict({"options": f"-csearch_path={schema}"})
    try:
        yield url.render_as_string(hide_password=False)
    finally:
        with admin.begin() as conn:
            conn.execute(text(f"DROP SCHEMA {schema} CASCADE"))
        admin.dispose()


@pytest.fixture
def server(database_url: str) -> Iterator[str]:
    """The web table served by uvicorn on 127.0.0.1; yields its base URL."""
    import uvicorn

    from oudler.web.app import create_app

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))  # an already bound socket: no race for the port
    port = sock.getsockname()[1]
    config = uvicorn.Config(create_app(database_url), log_level="warning", lifespan="on")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not srv.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the web server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        srv.should_exit = True
        thread.join(timeout=15)
        sock.close()


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is absent")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def open_table(browser: object, server: str) -> Iterator[object]:
    """Opens the table in a fresh browser context (its own player cookie) and checks at the end
    that the page raised no script error. Call it with Playwright context options."""
    tables: list[Table] = []

    def open_one(**options: object) -> Table:
        options.setdefault("viewport", {"width": 1280, "height": 900})
        options.setdefault("locale", "en-US")
        context = browser.new_context(**options)  # type: ignore[attr-defined]
        table = Table(context, server)
        tables.append(table)
        return table

    yield open_one
    for table in tables:
        table.context.close()
    for table in tables:
        assert not table.errors, f"script errors in the page: {table.errors}"
