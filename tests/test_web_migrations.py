"""The database grows by migrations (issue 29; ``oudler.tables.migrate``): the migrated schema is
the models', a database made by 0.7.0 upgrades in place and keeps every match, and server
processes started together on a new database all come up (issue 28, item 24).

On a temporary SQLite file, or on a fresh schema of ``OUDLER_TEST_DATABASE_URL`` (PostgreSQL).
"""

from __future__ import annotations

import datetime as dt
import json
import multiprocessing
import os
import sqlite3
import subprocess
import time
import traceback
from pathlib import Path
from typing import Any

import httpx2
import pytest
from sqlalchemy import DateTime, create_engine, insert, inspect, select, text

from oudler.tables import migrate
from oudler.tables.computer import ComputerPlayers
from oudler.tables.games import Tables
from oudler.tables.migrations import schema_070
from oudler.tables.store import Store
from redis_support import OUDLER, Process, free_port
from test_web_support import schema_differences, web_client

DATA = Path(__file__).parent / "data"


def upgraded(db: str) -> None:
    store = Store(db)
    try:
        store.create_schema()
    finally:
        store.close()


def revision(db: str) -> str | None:
    engine = create_engine(db)
    try:
        return migrate.current(engine)
    finally:
        engine.dispose()


def test_a_new_database_is_migrated_to_the_models_schema(db: str) -> None:
    assert revision(db) is None
    upgraded(db)
    assert revision(db) == migrate.head()
    assert schema_differences(db) == []
    upgraded(db)  # again: nothing to do, no error
    assert revision(db) == migrate.head()


# ------------------------------------------------------------------------------ 0.7.0's database


def load_070(db: str) -> None:
    """The database that 0.7.0 made (scripts/make_070_database.py), into ``db``: on SQLite as
    dumped; on PostgreSQL, 0.7.0's schema (frozen in ``schema_070``) and the dump's rows."""
    dump = (DATA / "oudler-0.7.0.sql").read_text()
    engine = create_engine(db)
    try:
        if engine.dialect.name == "sqlite":
            conn = sqlite3.connect(str(engine.url.database))
            conn.executescript(dump)
            conn.close()
            return
        source = create_engine("sqlite://")
        with source.connect() as src:
            src.connection.driver_connection.executescript(dump)  # type: ignore[union-attr]
            with engine.begin() as dst:
                schema_070.metadata.create_all(dst)
                for table in schema_070.metadata.sorted_tables:
                    rows = [dict(r._mapping) for r in src.execute(select(table))]
                    for row in rows:  # SQLite gives stored times back without their zone (UTC)
                        for column in table.columns:
                            if isinstance(column.type, DateTime) and row[column.name] is not None:
                                row[column.name] = row[column.name].replace(tzinfo=dt.UTC)
                    if rows:
                        dst.execute(insert(table), rows)
        source.dispose()
    finally:
        engine.dispose()


def as_json(value: Any) -> Any:
    return json.loads(json.dumps(value))


def test_a_070_database_upgrades_in_place_and_replays_every_match_as_070_showed_it(
    db: str,
) -> None:
    load_070(db)
    expected = json.loads((DATA / "oudler-0.7.0.json").read_text())
    assert expected["version"] == "0.7.0" and len(expected["matches"]) == 4
    assert revision(db) is None  # 0.7.0 had no migrations
    upgraded(db)
    assert revision(db) == migrate.head()
    assert schema_differences(db) == []
    store = Store(db)
    try:
        tables = Tables(store, ComputerPlayers())
        for match in expected["matches"]:
            mid = match["id"]
            info = store.get_match(mid)
            assert info is not None
            for player, view in match["views"].items():
                # Every field 0.7.0 showed, as it showed it (later releases add fields).
                now = as_json(tables.view(player, mid))
                assert {key: now.get(key) for key in view} == view
            assert as_json(tables.record(info.owner, mid)) == match["record"]
            assert as_json(store.hints(mid)) == match["hints"]
            assert as_json(store.analysis(mid, 1)) == match["analysis"]
    finally:
        store.close()
    with web_client(db) as client:  # and the web table starts on it
        assert client.get("/healthz").status_code == 200


def test_a_database_of_a_newer_release_is_refused_and_left_as_it_is(db: str) -> None:
    upgraded(db)
    engine = create_engine(db)
    try:
        with engine.begin() as conn:
            conn.execute(text("UPDATE alembic_version SET version_num = 'from_the_future'"))
        with pytest.raises(migrate.MigrationError, match="newer Oudler"):
            upgraded(db)
        with engine.connect() as conn:
            assert conn.execute(text("SELECT version_num FROM alembic_version")).all() == [
                ("from_the_future",)
            ]
            assert "matches" in inspect(conn).get_table_names()
    finally:
        engine.dispose()


# ------------------------------------------------------------------------------ the command


def oudler(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([OUDLER, *args], capture_output=True, text=True, timeout=300)


def test_oudler_db_upgrade_migrates_a_070_database_and_says_where_it_is(db: str) -> None:
    load_070(db)
    done = oudler("db", "current", "--database-url", db)
    assert done.returncode == 0, done.stderr
    assert "no revision" in done.stdout
    done = oudler("db", "upgrade", "--database-url", db)
    assert done.returncode == 0, done.stderr
    assert migrate.head() in done.stdout
    assert revision(db) == migrate.head() and schema_differences(db) == []
    done = oudler("db", "current", "--database-url", db)
    assert done.returncode == 0 and migrate.head() in done.stdout
    done = oudler("db", "history")
    assert done.returncode == 0 and migrate.BASELINE in done.stdout


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("nonsense://x", "not a database URL"),
        ("postgresql+pg8000://x@127.0.0.1:1/x", "driver is missing"),  # pg8000: not installed
    ],
)
def test_oudler_db_upgrade_refuses_a_bad_url_clearly(url: str, said: str) -> None:
    done = oudler("db", "upgrade", "--database-url", url)
    assert done.returncode == 1
    assert said in done.stderr and "Traceback" not in done.stderr


# ------------------------------------------------------------------------------ the race

PROCESSES = 4


def migrate_at_once(db: str, start: Any, errors: Any) -> None:
    """In a process of its own: wait for the others, then migrate; any error goes to
    ``errors``."""
    store = Store(db)
    try:
        start.wait()
        store.create_schema()
    except BaseException as e:  # with where it came from: a race shows once in many runs
        errors.put(f"{type(e).__name__}: {e}\n{traceback.format_exc()}")
    finally:
        store.close()


def test_processes_migrating_a_new_database_at_the_same_moment_all_succeed(db: str) -> None:
    # Released together by a barrier once imported: before the lock, one of them died with
    # "table ... already exists" (issue 28, item 24).
    spawn = multiprocessing.get_context("spawn")
    start, errors = spawn.Barrier(PROCESSES), spawn.Queue()
    processes = [
        spawn.Process(target=migrate_at_once, args=(db, start, errors)) for _ in range(PROCESSES)
    ]
    for p in processes:
        p.start()
    for p in processes:
        p.join(300)
    failures = [errors.get() for _ in range(errors.qsize())]
    assert failures == [] and [p.exitcode for p in processes] == [0] * PROCESSES
    assert revision(db) == migrate.head() and schema_differences(db) == []


def test_two_servers_started_at_the_same_moment_on_a_new_database_both_come_up(db: str) -> None:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    ports = [free_port(), free_port()]
    argv = [OUDLER, "serve", "--database-url", db, "--bot-processes", "0", "--port"]
    pipes = {"stdout": subprocess.DEVNULL, "stderr": subprocess.PIPE}
    servers = [
        Process(subprocess.Popen([*argv, str(port)], text=True, env=env, **pipes), "serve")
        for port in ports
    ]
    try:
        up: set[int] = set()
        deadline = time.monotonic() + 120
        while len(up) < len(servers):
            for port, server in zip(ports, servers, strict=True):
                if port in up:
                    continue
                if server.proc.poll() is not None:
                    assert server.proc.stderr is not None
                    raise AssertionError(f"oudler serve exited: {server.proc.stderr.read()}")
                try:
                    r = httpx2.get(f"http://127.0.0.1:{port}/", timeout=5)
                except httpx2.TransportError:
                    continue
                assert r.status_code == 200
                up.add(port)
            assert time.monotonic() < deadline, "the servers did not start"
            time.sleep(0.1)
    finally:
        for server in servers:
            server.stop()
    assert revision(db) == migrate.head() and schema_differences(db) == []
