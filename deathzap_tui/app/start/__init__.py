"""Choosing a game: the start screen, the set-up steps before a battle, and what
happened since a player last looked (or who holds a save)."""
