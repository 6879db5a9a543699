"""The schema of Oudler 0.7.0, the last release before migrations (``schema_070``).

Revision ID: 0001
Revises: (none)
"""

from __future__ import annotations

from alembic import op

from oudler.tables.migrations import schema_070

revision = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    schema_070.metadata.create_all(op.get_bind())


def downgrade() -> None:
    schema_070.metadata.drop_all(op.get_bind())
