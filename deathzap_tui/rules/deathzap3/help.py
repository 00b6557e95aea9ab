"""Deathzap 3 rules in the app's own words (shown by the help screen).

Numbers and tables come from ``tables.py``; rule ids point at the digest
(``shared/rules/deathzap3.md``).
"""

from __future__ import annotations

HELP_SECTIONS: list[tuple[str, str]] = [
    ("Set-up (DZ3 §1)",
     "The table is 60\" by 30\" and both armies come on from the long edges. Nothing "
     "is deployed before play: each unit walks on from its own edge the first time it "
     "activates.\n"
     "1. Roll off: each player rolls a die, re-rolling ties. The higher roll chooses an "
     "edge; the other player gets the opposite one.\n"
     "2. Objectives: five markers. Number 1 goes in the middle, then each player puts "
     "down two more, keeping every marker 6\" or more from the others. The app asks "
     "for each marker's distance from Red's edge; Black's is the board depth minus that."),
    ("The activation deck (DZ3 §2, DZ3-R1..R3)",
     "Shuffle the deck and turn cards one at a time. A red card (hearts, diamonds) lets "
     "Red activate units, a black card (clubs, spades) lets Black:\n"
     "  2 to 10: 1 unit    J, Q, K: 2 units    Ace: 3 units\n"
     "A joker activates nobody but clears every activation token from the table.\n"
     "Deck options: full (52 + 2 jokers), half (hearts and spades + 1 joker, for small "
     "games) or a custom set of suits and jokers. The game ends when the deck runs out, "
     "after a chosen number of decks, or when both players agree.\n"
     "If a card gives more activations than you have units free to use them, the spare "
     "ones wait for the token reset and are used then; with no unit left in play the "
     "card is simply spent. All of a card's activations must be used before the next "
     "card is turned."),
    ("Actions (DZ3 §3)",
     "An activated unit picks exactly one action:\n"
     "  Advance: move, then shoot.\n"
     "  Charge: move into base contact and fight in melee.\n"
     "  Cover Ground: move its Move plus a D6 in inches.\n"
     "  Signal: shoot, and claim an objective that has no enemy within 3\" and no "
     "token yet since the last reset.\n"
     "  Protect: shields go back up to full.\n"
     "The first activation brings the unit onto the table at its own edge. It cannot "
     "Charge then, because entering units may not move into contact. A unit that moves away from a "
     "melee may neither shoot nor move into contact that activation. Players measure; "
     "the app only asks what it needs. An immobilised vehicle may still Advance (it "
     "shoots where it stands), Signal and Protect, but cannot Cover Ground or Charge "
     "unless it is already in contact."),
    ("Activation tokens (DZ3 §4, DZ3-R4)",
     "A unit (or objective) that has activated gets a token and cannot activate again "
     "while it has one. As soon as every unit one side still has in play carries a "
     "token, all tokens come off, both sides and objectives. Units still waiting off the "
     "table count as in play; destroyed and fled units do not. A joker clears them too."),
    ("Weapons (DZ3 §5)",
     "Each weapon has shots, a power (Light, Medium, Heavy) and maybe special rules. "
     "A weapon with two profiles uses one, picked before any die is rolled. Short Range "
     "weapons only reach targets within 12\". Strike is explained under Shooting."),
    ("Shooting (DZ3 §6, DZ3-R5..R7, DZ3-R11)",
     "Declare every target (and how fire is split) first, then roll. All figures "
     "firing the same weapon at the same target make one attack.\n"
     "To hit, by the shooter's skill and the target's cover:\n"
     "  Basic 4+ / 5+ / 6+   Regular 3+ / 4+ / 5+   Elite 2+ / 3+ / 4+  (open / soft / hard)\n"
     "A target in two kinds of cover uses the one most of it is in; half and half uses "
     "the less protective one.\n"
     "Each hit then rolls against the target's shields, weapon power against shield "
     "strength:\n"
     "  Light weapon 4+ / 5+ / 6+   Medium 3+ / 4+ / 5+   Heavy 2+ / 3+ / 4+  "
     "(light / medium / heavy shields)\n"
     "Every success is a point of damage. Damage knocks down one shield per point; once "
     "the unit's shields (one pool for the whole unit) are gone, each point means a "
     "saving throw. A Strike point knocks down a shield AND forces a save.\n"
     "Saves: Basic 6+, Regular 5+, Elite 4+. Each failed save kills a figure of the "
     "owner's choice.\n"
     "\"N+\" means the die shows N or more; 1s and 6s are not special, and 7+ can never "
     "succeed."),
    ("Melee (DZ3 §7, DZ3-R8)",
     "The attacker must be in base contact and attacks one unit. It rolls Melee Attacks "
     "dice for each figure. To hit, attacker skill against defender skill:\n"
     "  Basic attacker 4+ / 5+ / 6+   Regular 3+ / 4+ / 5+   Elite 2+ / 3+ / 4+  "
     "(basic / regular / elite defender)\n"
     "No roll against shields: each hit takes one shield away, and once none are left "
     "each hit forces a save. The defender does not hit back unless it activates and "
     "attacks itself."),
    ("Vehicles (DZ3 §9, DZ3-R9, R10, R13)",
     "A vehicle is a single model. A failed save does not remove it; roll a D6 on the "
     "damage table for each failed save instead:\n"
     "  1 nothing   2 immobilised   3 gun crippled (shots hit only on 6)\n"
     "  4 weapon crippled (melee hits only on 6)   5 killed   6 explodes: every unit "
     "within 3\" takes D6 damage (shields, then saves), and the vehicle is gone\n"
     "Results pile up; the same result twice changes nothing. Damage results are not "
     "casualties and never cause a morale test. The exploding vehicle's owner rolls "
     "the blast damage."),
    ("Morale (DZ3 §10, DZ3-R11, R12)",
     "A unit that lost figures to an attack tests at once: one die per figure left, and "
     "one success is enough. Basic 6+, Regular 5+, Elite 4+, each die +1 with a friendly "
     "leader within 6\" (the app lowers the target by one). Failing means the unit flees "
     "and counts as destroyed. A unit wiped out does not test. Option: test once per "
     "attack (default) or once per casualty."),
    ("Leaders and command (DZ3 §11, DZ3-R14)",
     "Leaders give the morale bonus and carry command points. While one of your cards "
     "is up you may spend one point of a leader to activate one more unit within 6\" of "
     "that leader: at most one such extra activation per card. Points are gone once "
     "spent, and a leader who dies takes the rest with him."),
    ("Victory (DZ3 §12, DZ3-R15)",
     "3 VP for every enemy unit wiped out, killed or fled. Signalling an objective "
     "scores 1 VP for every 6\" (or part of 6\") it lies from your own edge, never less "
     "than 1: 13\" is 3 VP, 21\" is 4 VP. Whoever has more VP at the end wins; equal "
     "scores are a draw. A unit lost to its own side's exploding vehicle still gives "
     "the enemy its 3 VP."),
]
