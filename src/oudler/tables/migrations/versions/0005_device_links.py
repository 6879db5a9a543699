"""One-time "link a device" codes and links (issue 29; docs/accounts.md, "Link a device").

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision: str | None = "0004"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "device_links",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        # The rows go with the account, and with the session that asked for them.
        sa.Column(
            "account",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column(
            "session",
            sa.String(64),
            sa.ForeignKey("sessions.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("code", sa.String(64), nullable=False, unique=True),
        sa.Column("token", sa.String(64), nullable=False, unique=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_device_links_account", "device_links", ["account"])
    op.create_index("ix_device_links_session", "device_links", ["session"])
    op.create_index("ix_device_links_expires", "device_links", ["expires"])


def downgrade() -> None:
    op.drop_table("device_links")
