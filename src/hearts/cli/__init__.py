"""The ``hearts`` command line: one module a subcommand."""
