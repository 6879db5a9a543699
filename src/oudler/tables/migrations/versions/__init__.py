"""The revisions, in order by their ``down_revision``; Alembic skips this file."""
