"""Passkeys (WebAuthn credentials) of accounts, and the challenges handed out for them (issue 29;
docs/accounts.md, "Passkeys"). Both go with their account (ON DELETE CASCADE).

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision: str | None = "0003"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "passkeys",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("credential", sa.String(1400), nullable=False, unique=True),
        sa.Column("public_key", sa.LargeBinary(), nullable=False),
        sa.Column("sign_count", sa.BigInteger(), nullable=False),
        sa.Column("user_handle", sa.String(88), nullable=False),
        sa.Column(
            "account",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_used", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_passkeys_account", "passkeys", ["account"])
    op.create_table(
        "passkey_challenges",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("purpose", sa.String(8), nullable=False),
        sa.Column(
            "account",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=True,
        ),
        sa.Column("expires", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_passkey_challenges_expires", "passkey_challenges", ["expires"])


def downgrade() -> None:
    op.drop_table("passkey_challenges")
    op.drop_table("passkeys")
