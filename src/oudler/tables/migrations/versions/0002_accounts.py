"""Accounts, their sessions and the failed sign-ins counted against guessing (issue 29).

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(24), nullable=False),
        sa.Column("key", sa.String(96), nullable=False, unique=True),
        sa.Column(
            "player", sa.String(64), sa.ForeignKey("players.id"), nullable=False, unique=True
        ),
        sa.Column("password", sa.String(256), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "sessions",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("account", sa.Integer(), sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_seen", sa.DateTime(timezone=True), nullable=False),
        sa.Column("browser", sa.String(160), nullable=False),
        sa.Column("place", sa.String(64), nullable=False),
    )
    op.create_index("ix_sessions_account", "sessions", ["account"])
    op.create_table(
        "sign_in_failures",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("who", sa.String(112), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_sign_in_failures_who", "sign_in_failures", ["who"])
    op.create_index("ix_sign_in_failures_at", "sign_in_failures", ["at"])


def downgrade() -> None:
    op.drop_table("sign_in_failures")
    op.drop_table("sessions")
    op.drop_table("accounts")
