"""``python -m oudler`` runs the ``oudler`` command."""

from oudler.cli import main

main()
