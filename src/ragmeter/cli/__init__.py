"""The ``ragmeter`` command: one thin module per command group."""
