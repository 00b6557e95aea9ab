"""What the Textual app and the commands that run without it (``deathzap host``,
``report``, ``log``) share: nothing here imports Textual, so a headless command never
loads it (issue 20; ``tests/test_import_graph.py`` checks both)."""
