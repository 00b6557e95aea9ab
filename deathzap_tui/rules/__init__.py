"""The rules: pure Python, standard library only.

Nothing under this package may import textual, rich or do file I/O; a test imports
it in a fresh interpreter to prove it. Rulesets are plugins registered in
:mod:`deathzap_tui.rules.registry`.
"""
