"""The end of a game: the result and its report."""
