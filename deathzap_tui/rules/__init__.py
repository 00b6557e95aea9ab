"""The rules: pure Python, standard library only.

Nothing under this package may import textual, rich or do file I/O; a test imports
it in a fresh interpreter to prove it. Rulesets are plugins registered in
:mod:`deathzap_tui.rules.registry`.
"""

RULES_VERSION = 2
"""The version of the rules code, as far as a kept game is concerned. Bump it with any
change to this package that changes what replaying a log gives (a rule, a dice
reading, a narration line, what the end-of-game report makes of it) or the classes a
game's state is made of: a save's cache (:mod:`deathzap_tui.savecache`) holds a game
replayed and pickled by the rules code of one version, and a finished game's kept
report the report that code made; each is used only by the same version (issue 21). Reinstalling or
editing anything else keeps every cache good. (2: states carry their game's rules
revision, :mod:`.revision`, which is another thing: what a game asks.)"""
