"""Quick resolution outside a game (``deathzap resolve``, ctrl+r)."""
