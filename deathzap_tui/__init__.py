"""deathzap-tui: a terminal referee for the Deathzap family of wargames."""

__version__ = "0.1.0"
