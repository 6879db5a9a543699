"""The schema of Oudler 0.7.0, frozen: the first revision creates it, and a database made before
migrations (no ``alembic_version`` table) is brought to it first (``oudler.tables.migrate``).

Never edit it to follow the models (``oudler.tables.store``): a change of the schema is a new
revision in ``versions/``. It is Core tables, not the ORM models, so that it stays 0.7.0's
whatever the models become.
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    DateTime,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    UniqueConstraint,
    false,
)

metadata = MetaData()

Table(
    "players",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("name", String(24)),
)

Table(
    "settings",
    metadata,
    Column("name", String(32), primary_key=True),
    Column("value", String(128), nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
)

Table(
    "matches",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("owner", String(64), ForeignKey("players.id"), nullable=False, index=True),
    Column("length", Integer, nullable=False),
    Column("level", String(16), nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("first_dealer", Integer),
    Column("first_deal_seed", BigInteger),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("finished", DateTime(timezone=True)),
    Column("totals", JSON),
    Column("learning", Boolean, nullable=False, server_default=false()),
    Column("shared", Boolean, nullable=False, server_default=false()),
    Column("turn_time", Integer),
)

Table(
    "actions",
    metadata,
    Column("match_id", String(32), ForeignKey("matches.id"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("seat", Integer),
    Column("kind", String(16), nullable=False),
    Column("action", JSON, nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("stand_in", Boolean, nullable=False, server_default=false()),
)

Table(
    "analyses",
    metadata,
    Column("match_id", String(32), ForeignKey("matches.id"), primary_key=True),
    Column("deal", Integer, primary_key=True),
    Column("analysis", JSON, nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
)

Table(
    "hints",
    metadata,
    Column("match_id", String(32), ForeignKey("matches.id"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("deal", Integer, nullable=False),
    Column("hint", JSON, nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("position", String(32)),
)

Table(
    "seats",
    metadata,
    Column("match_id", String(32), ForeignKey("matches.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("player", String(64), ForeignKey("players.id"), index=True),
    Column("computer", Boolean, nullable=False),
    Column("invite", String(64), unique=True),
    Column("joined", DateTime(timezone=True)),
    UniqueConstraint("match_id", "player"),
)

ADDED_COLUMNS = {
    "matches": {
        "learning": "BOOLEAN NOT NULL DEFAULT FALSE",
        "shared": "BOOLEAN NOT NULL DEFAULT FALSE",
        "turn_time": "INTEGER",
    },
    "hints": {"position": "VARCHAR(32)"},
    "players": {"name": "VARCHAR(24)"},
    "actions": {"stand_in": "BOOLEAN NOT NULL DEFAULT FALSE"},
}
"""Columns that releases before 0.7.0 added to their existing tables by hand (``ALTER TABLE``):
a database made by one of them may lack some."""
