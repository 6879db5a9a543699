"""The database's schema grows by Alembic migrations (``oudler.tables.migrations``).

``upgrade`` brings a database to the newest revision: a new one gets every revision, one made
before migrations (0.7.0 or older: tables but no ``alembic_version``) is first brought to 0.7.0's
schema and stamped with the first revision. Every server process runs it at its start, so it
takes a lock first and does everything in one transaction: of several processes started
together on a new database, one migrates and the others wait, then find it current.

- PostgreSQL: a session advisory lock, one per schema (tests give each their own schema), held
  on the connection that migrates. PostgreSQL's DDL is transactional: a failed migration leaves
  nothing behind.
- SQLite: ``BEGIN EXCLUSIVE`` on the connection that migrates, so the lock is the migration's
  own transaction; another process's ``BEGIN EXCLUSIVE`` waits for it (busy timeout, retried).
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from alembic.util import CommandError
from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import OperationalError

from oudler.tables.migrations import schema_070

log = logging.getLogger("oudler.tables")

SCRIPTS = Path(__file__).parent / "migrations"
BASELINE = "0001"  # the revision whose schema is 0.7.0's
LOCK_TRIES = 20  # SQLite: busy timeouts (30 s each) waited for another process's migration


class MigrationError(Exception):
    """The database cannot be brought to this release's schema (nothing was changed)."""


def config(connection: Connection | None = None) -> Config:
    """Alembic's configuration, made in code: no alembic.ini is needed at run time."""
    cfg = Config()
    cfg.set_main_option("script_location", str(SCRIPTS))
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


def head() -> str:
    """The newest revision of this release."""
    revision = ScriptDirectory.from_config(config()).get_current_head()
    assert revision is not None
    return revision


def current(engine: Engine) -> str | None:
    """The database's revision (None: a new database, or one made before migrations)."""
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Bring the database to ``revision`` (default: the newest), under the lock."""
    with engine.connect() as conn, _locked(conn):
        try:
            _adopt_legacy(conn)
            command.upgrade(config(conn), revision)
        except CommandError as e:  # e.g. a revision of a newer release, unknown here
            raise MigrationError(
                f"cannot upgrade the database: {e} (was it made by a newer Oudler?)"
            ) from None
        conn.commit()


def _adopt_legacy(conn: Connection) -> None:
    """A database made before migrations: bring it to 0.7.0's schema (older releases lacked
    some tables and columns), then stamp it with the first revision."""
    tables = set(inspect(conn).get_table_names())
    if "alembic_version" in tables or not tables & set(schema_070.metadata.tables):
        return
    log.warning("the database was made before migrations: bringing it to 0.7.0's schema")
    schema_070.metadata.create_all(conn)  # the missing tables only
    for table, columns in schema_070.ADDED_COLUMNS.items():
        have = {c["name"] for c in inspect(conn).get_columns(table)}
        for name, ddl in columns.items():
            if name not in have:
                conn.execute(text(f"ALTER TABLE {table} ADD COLUMN {name} {ddl}"))
    command.stamp(config(conn), BASELINE)


@contextmanager
def _locked(conn: Connection) -> Iterator[None]:
    """Hold the migration lock on ``conn`` (see the module's docstring); the caller commits."""
    if conn.dialect.name == "postgresql":
        schema = conn.execute(text("SELECT current_schema()")).scalar_one()
        digest = hashlib.sha256(f"oudler migrations {schema}".encode()).digest()
        key = int.from_bytes(digest[:8], "big", signed=True)
        conn.execute(text("SELECT pg_advisory_lock(:key)"), {"key": key})
        conn.commit()  # the lock belongs to the session: it outlives the transaction
        try:
            yield
        finally:
            conn.rollback()  # whatever is left of a failed migration
            conn.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": key})
            conn.commit()
        return
    if conn.dialect.name == "sqlite":
        for tries in range(1, LOCK_TRIES + 1):
            try:
                conn.exec_driver_sql("BEGIN EXCLUSIVE")
                break
            except OperationalError as e:
                conn.rollback()
                if "locked" not in str(e) or tries == LOCK_TRIES:
                    raise
                log.warning("waiting for another process's migration of the database")
        try:
            yield
        finally:
            conn.rollback()  # nothing, once committed
        return
    yield  # another database: no lock known; one process should run ``oudler db upgrade``
