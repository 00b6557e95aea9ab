"""The force editor, a screen of the app or an app of its own (``deathzap edit``)."""
