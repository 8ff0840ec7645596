"""The `mines` command line: one subcommand module per front end."""
