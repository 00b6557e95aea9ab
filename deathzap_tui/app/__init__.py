"""The Textual app. Nothing here knows a ruleset: it renders what the engine's
``BoardView``, intents and resolution steps carry, and posts intents back."""
