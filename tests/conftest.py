"""Fixtures shared by the web tests: a temporary database (SQLite, or a fresh PostgreSQL
database when OUDLER_TEST_DATABASE_URL is set) and a test client of the app on it. A test file
that needs other settings defines its own ``client``, which takes precedence."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from test_web_support import temporary_database, web_client


def pytest_sessionstart(session: pytest.Session) -> None:
    """Load the expert's compiled search once before any test, as a long-running server has
    it, or build it on a fresh install (CI: numba's cache is empty). Without it the test
    processes each compiled it at their first expert decision or hint, at once, and a browser
    test waiting 60 s for a hint timed out. xdist starts its workers after this hook (its own
    runs last), so only the controller (or a run without xdist) builds."""
    if hasattr(session.config, "workerinput"):
        return
    from oudler import kernel

    kernel.warm_up()


@pytest.fixture
def db(tmp_path: Path) -> Iterator[str]:
    with temporary_database(tmp_path) as url:
        yield url


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    with web_client(db) as c:
        yield c
