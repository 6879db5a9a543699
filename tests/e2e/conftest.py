"""End-to-end fixtures: the real server (uvicorn in a thread, on a free loopback port, on a fresh
database) and Debian's Chromium driven by Playwright.

The database is a temporary SQLite file, or a fresh schema of the PostgreSQL database named by
``OUDLER_TEST_DATABASE_URL`` (as in the web API tests), so the suite runs on both.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from pagedriver import CHROMIUM, CHROMIUM_ARGS, Table

from oudler.web.app import create_app
from oudler.web.background import serve_in_thread
from test_web_support import temporary_database

# Every home page asks for the deals of the day, and a fresh database makes them (their par) in
# the server's background: with a cheap level, not minutes of the expert beside each test.
os.environ.setdefault("OUDLER_SERIES_LEVEL", "club")


@pytest.fixture
def database_url(tmp_path: Path) -> Iterator[str]:
    """A temporary SQLite file, or a fresh schema of $OUDLER_TEST_DATABASE_URL (PostgreSQL), so
    that parallel test workers never see each other's rows."""
    with temporary_database(tmp_path) as url:
        yield url


@pytest.fixture
def server(request: pytest.FixtureRequest, database_url: str) -> Iterator[str]:
    """The web table served by uvicorn on 127.0.0.1; yields its base URL. A module or test marked
    ``@pytest.mark.app_options(**options)`` gets ``create_app(database_url, **options)``."""
    marker = request.node.get_closest_marker("app_options")
    options = marker.kwargs if marker is not None else {}
    with serve_in_thread(create_app(database_url, **options)) as base:
        yield base


# Module scope, not session: Playwright's sync API marks an asyncio loop as running in this thread
# while it is started, so a browser kept for the session made asyncio.run() fail in any later test
# (outside tests/e2e) that the same xdist worker ran after a browser test.
@pytest.fixture(scope="module")
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
