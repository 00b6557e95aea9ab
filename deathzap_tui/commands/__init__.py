"""One module per ``deathzap`` subcommand, each with ``add_arguments`` and ``run``."""
