"""A joined terminal: the app on a referee's table (``deathzap join``, and each game
the club's lobby opens): app.py, its battle screen, wizard, undo/redo request and
status line."""
