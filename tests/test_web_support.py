"""Helpers shared by the web tests (no tests here).

The database is SQLite in a temporary file, or, when ``OUDLER_TEST_DATABASE_URL`` is set (a
PostgreSQL URL such as the one ``scripts/start-test-postgres.sh`` prints), a fresh schema of that
database for each test, so that parallel test workers never see each other's rows.
"""

from __future__ import annotations

import os
import random
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import create_engine, select, text
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session

from oudler.core import Deal, Match
from oudler.tables.store import ActionRow, MatchRow
from oudler.web.app import create_app

PG_ENV = "OUDLER_TEST_DATABASE_URL"


@contextmanager
def temporary_database(tmp_path: Path) -> Iterator[str]:
    base = os.environ.get(PG_ENV)
    if not base:
        yield f"sqlite:///{tmp_path / 'web.sqlite3'}"
        return
    schema = "oudler_test_" + secrets.token_hex(6)
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


@contextmanager
def web_client(database_url: str, **kwargs: Any) -> Iterator[TestClient]:
    """A real app on a real database, spoken to over HTTP (the app's lifespan runs)."""
    with TestClient(create_app(database_url, **kwargs)) as client:
        yield client


def new_match(client: TestClient, **body: Any) -> dict[str, Any]:
    body.setdefault("deals", 2)
    body.setdefault("level", "random")
    r = client.post("/api/matches", json=body)
    assert r.status_code == 201, r.text
    view: dict[str, Any] = r.json()
    return view


# ------------------------------------------------------------------------------ the person's play


def is_trump(card: str) -> bool:
    return card.startswith("T")


def choose_action(view: dict[str, Any], rng: random.Random, eager: float = 0.5) -> Any:
    """A random legal action taken only from the view's ``legal`` (as the page would offer it).
    ``eager``: how often to bid the highest call and to show a poignée."""
    legal = view["observation"]["legal"]
    if "bids" in legal:
        bids = legal["bids"]
        return bids[-1] if rng.random() < eager else rng.choice(bids)
    if "discard" in legal:
        d = legal["discard"]
        trumps = [c for c in d["allowed"] if is_trump(c)]
        plain = [c for c in d["allowed"] if not is_trump(c)]
        n = d["forced_trumps"]
        return rng.sample(trumps, n) + rng.sample(plain, d["count"] - n)
    if "chelem" in legal:
        return rng.random() < 0.1
    if "poignee" in legal:
        p = legal["poignee"]
        if rng.random() >= eager:
            return []
        size = rng.choice(p["sizes"])
        trumps = [c for c in p["cards"] if is_trump(c)]
        # The Excuse may be shown only when no trump is hidden.
        return rng.sample(trumps, size) if len(trumps) >= size else [*trumps, "EX"]
    return rng.choice(legal["cards"])


def advance(client: TestClient, view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """One request that moves the match on, as the page would send it."""
    mid, version = view["id"], view["version"]
    status = view["status"]
    if status == "computer_turn":
        r = client.post(f"/api/matches/{mid}/step", json={"version": version})
        while r.status_code == 202:  # still thinking: the page asks again, as here
            assert r.json()["version"] == version
            r = client.post(f"/api/matches/{mid}/step", json={"version": version})
    elif status == "deal_over":
        r = client.post(f"/api/matches/{mid}/next-deal", json={"version": version})
    elif status == "your_turn":
        action = choose_action(view, rng)
        r = client.post(f"/api/matches/{mid}/actions", json={"version": version, "action": action})
    else:
        raise AssertionError(f"nothing to do in status {status}")
    assert r.status_code == 200, r.text
    new: dict[str, Any] = r.json()
    assert new["version"] == version + 1
    return new


# ------------------------------------------------------------------------------ the engine's view


def stored_rows(database_url: str, match_id: str) -> list[tuple[int, int | None, str, Any]]:
    engine = create_engine(database_url)
    try:
        with Session(engine) as s:
            rows = s.scalars(
                select(ActionRow).where(ActionRow.match_id == match_id).order_by(ActionRow.seq)
            ).all()
            return [(r.seq, r.seat, r.kind, r.action) for r in rows]
    finally:
        engine.dispose()


def steps_stored(database_url: str, match_id: str) -> int:
    """The match's version from its stored rows: every row is a step, except a computer player's
    poignée decision, which is stored with its first card (docs/web-api.md, "Versions")."""
    rows = stored_rows(database_url, match_id)
    return sum(1 for _seq, seat, kind, _action in rows if kind != "poignee" or seat == 0)


def engine_match(database_url: str, match_id: str, upto: int | None = None) -> Match:
    """The match rebuilt here, straight from the stored rows (the first ``upto`` of them, or
    all) and the engine."""
    engine = create_engine(database_url)
    try:
        with Session(engine) as s:
            row = s.get(MatchRow, match_id)
            assert row is not None
            match = Match(row.length, row.seed, first_dealer=row.first_dealer)
            if row.first_deal_seed is not None:
                match.deals[0] = Deal.from_seed(row.first_deal_seed, match.first_dealer)
    finally:
        engine.dispose()
    standing: list[tuple[int, int | None, Any]] = []  # the current deal's actions that stand
    for seq, seat, kind, action in stored_rows(database_url, match_id)[:upto]:
        if kind == "next_deal":
            match.next_deal()
            standing = []
        elif kind == "ready":  # a person closed the breakdown: nothing of the deal
            assert match.current.is_over
        elif kind == "left":  # a person's seat was vacated: nothing of the deal
            assert seat is not None and set(action) == {"name"}
        elif kind == "undo":
            # The person's action ``action["seq"]`` and everything after it no longer stand.
            standing = [a for a in standing if a[0] < action["seq"]]
            old = match.current
            assert old.seed is not None
            match.deals[-1] = Deal.from_seed(old.seed, old.dealer)
            for _s, st, act in standing:
                match.current.apply(act, st)
        else:
            match.current.apply(action, seat)
            standing.append((seq, seat, action))
    return match


def engine_sheet(match: Match) -> list[dict[str, Any]]:
    rows = []
    for number, deal in enumerate(match.deals, start=1):
        if deal.result is None:
            continue
        r = deal.result.to_dict()
        rows.append(
            {
                "deal": number,
                "seed": deal.seed,
                "dealer": deal.dealer,
                **{k: r[k] for k in ("void", "contract", "declarer", "won", "points", "needed")},
                "scores": r["scores"],
            }
        )
    return rows


# Tables that revisions after 0.7.0's schema (0001) add: a database "from before migrations" has
# none of them. Newest first: a table goes before those it refers to.
LATER_COLUMNS = (("seats", "reserved", "fk_seats_reserved_players"),)  # added by 0006
LATER_TABLES = (
    "device_links",
    "passkey_challenges",
    "passkeys",
    "series_results",
    "series_entries",
    "series",
    "sign_in_failures",
    "sessions",
    "accounts",
)


def drop_later_tables(conn: Any) -> None:
    """Make a migrated database look as an older release left it: no revision table, and none
    of the tables and columns later revisions add."""
    conn.execute(text("DROP TABLE alembic_version"))
    for table in LATER_TABLES:
        conn.execute(text(f"DROP TABLE {table}"))
    # Columns through Alembic's batch mode: SQLite drops a column with a foreign key only by
    # rebuilding its table.
    from alembic.operations import Operations
    from alembic.runtime.migration import MigrationContext

    ops = Operations(MigrationContext.configure(conn))
    for table, column, key in LATER_COLUMNS:
        with ops.batch_alter_table(table) as batch:
            batch.drop_constraint(key, type_="foreignkey")
            batch.drop_column(column)


def schema_differences(database_url: str) -> list[Any]:
    """What Alembic's autogenerate finds between the database and the models (none: the
    migrations made the models' schema)."""
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    from oudler.tables.store import Base

    engine = create_engine(database_url)
    try:
        with engine.connect() as conn:
            return list(compare_metadata(MigrationContext.configure(conn), Base.metadata))
    finally:
        engine.dispose()
