"""``python -m ragmeter`` runs the CLI."""

from ragmeter.cli.main import main

main()
