"""The database's migrations (Alembic): ``env.py``, ``versions/`` and the frozen schema of 0.7.0,
the last release before them. ``oudler.tables.migrate`` runs them."""
