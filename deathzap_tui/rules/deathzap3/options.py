"""Deathzap 3 per-game options (house rules), each citing the ruling it switches."""

from __future__ import annotations

from itertools import combinations

from deathzap_tui.rules.cards import SUITS
from deathzap_tui.rules.ruleset import OptionSpec

SUIT_CHOICES: tuple[str, ...] = tuple(
    ",".join(combo) for n in range(1, len(SUITS) + 1) for combo in combinations(SUITS, n)
)
"""Every non-empty set of suits, comma-joined in the order hearts, diamonds, clubs,
spades (so ``"hearts,spades"``, never ``"spades,hearts"``)."""

OPTION_SPECS: tuple[OptionSpec, ...] = (
    OptionSpec("deck", "Activation deck", "full", ("full", "half", "custom"), "DZ3-R1",
               "full: 52 cards + 2 jokers. half: hearts and spades + 1 joker (the author's "
               "500-point games). custom: the suits and jokers below."),
    OptionSpec("suits", "Suits (custom deck)", "hearts,diamonds,clubs,spades", SUIT_CHOICES,
               "DZ3-R1", "Comma-separated suits used by a custom deck."),
    OptionSpec("jokers", "Jokers (custom deck)", 2, (), "DZ3-R1",
               "Jokers in a custom deck.", minimum=0, maximum=4),
    OptionSpec("end", "Game end", "deck", ("deck", "decks", "agreement"), "DZ3-R2",
               "deck: ends when the deck runs out. decks: reshuffle until the number of "
               "decks below has been played. agreement: reshuffle forever; the players "
               "end the game with an explicit 'end game'."),
    OptionSpec("decks", "Decks to play", 2, (), "DZ3-R2",
               "How many decks a 'decks' game lasts.", minimum=1, maximum=20),
    OptionSpec("morale", "Morale tests", "per-attack", ("per-attack", "per-casualty"),
               "DZ3-R11",
               "per-attack: one test after each attack that caused casualties. "
               "per-casualty: one test for every casualty."),
)
