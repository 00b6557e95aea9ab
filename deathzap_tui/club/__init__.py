"""The club: many members, many games, one SSH address (issue 23)."""
