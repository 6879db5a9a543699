"""Invitations reserved for an account (issue 29): ``seats.reserved``, the player id of the
account an open seat is kept for.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision: str | None = "0005"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    # Batch mode: SQLite adds a foreign key only by rebuilding the table (PostgreSQL alters it).
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("reserved", sa.String(64), nullable=True))
        batch.create_foreign_key("fk_seats_reserved_players", "players", ["reserved"], ["id"])


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_constraint("fk_seats_reserved_players", type_="foreignkey")
        batch.drop_column("reserved")
