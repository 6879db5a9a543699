"""Duplicate series (docs/duplicate.md): the series, each person's entry, one row per board result.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "series",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("key", sa.String(40), nullable=False, unique=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("form", sa.String(8), nullable=False),
        sa.Column("level", sa.String(16), nullable=False),
        sa.Column("opens", sa.DateTime(timezone=True), nullable=False),
        sa.Column("closes", sa.DateTime(timezone=True), nullable=False),
        sa.Column("boards", sa.JSON(), nullable=False),
        sa.Column("par", sa.JSON(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "series_entries",
        sa.Column("series_id", sa.String(32), sa.ForeignKey("series.id"), primary_key=True),
        sa.Column("player", sa.String(64), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column(
            "match_id", sa.String(32), sa.ForeignKey("matches.id"), nullable=False, unique=True
        ),
        sa.Column("started", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_table(
        "series_results",
        sa.Column("series_id", sa.String(32), sa.ForeignKey("series.id"), primary_key=True),
        sa.Column("board", sa.Integer(), primary_key=True),
        sa.Column("player", sa.String(64), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("score", sa.Integer(), nullable=False),
    )
    op.create_index("ix_series_results_ranking", "series_results", ["series_id", "board", "score"])


def downgrade() -> None:
    op.drop_index("ix_series_results_ranking", table_name="series_results")
    op.drop_table("series_results")
    op.drop_table("series_entries")
    op.drop_table("series")
