"""Command Hand rules in the app's own words (shown by the help screen).

Rule ids point at the digest (``shared/rules/command-hand.md``).
"""

from __future__ import annotations

HELP_SECTIONS: list[tuple[str, str]] = [
    ("Set-up (CH §1, CH-R1)",
     "A 2' square table suits 15mm and 20mm figures. Bigger figures (25mm and up) want "
     "a 4' table with every distance doubled; turn on the \"double distances\" option "
     "and the app doubles every inch it shows or asks about (12\" becomes 24\").\n"
     "Each player rolls a die, re-rolling ties. The winner chooses a home edge and the "
     "other player takes the edge opposite. Nothing is deployed: every unit walks on "
     "during the game."),
    ("Command Hands and the deck (CH §2, CH-R2)",
     "Red plays the hearts and diamonds, Black the clubs and spades. Before play the "
     "app deals each player, at random from their own colour, as many cards as their "
     "force's Command Rating. That is the player's Command Hand: only its owner sees "
     "it. Every other card, both colours, goes into the activation deck with the two "
     "jokers.\n"
     "Cards are turned one at a time, as in Deathzap 3: your colour lets you activate "
     "units, one for 2 to 10, two for a Jack, Queen or King, three for an Ace. A joker "
     "activates nobody and strips every activation token from the table.\n"
     "Hand cards are spent for good: once played, a card is gone and the hand is never "
     "topped up."),
    ("Interrupts (CH §2, CH-R3)",
     "When a card of your opponent's colour is turned, you may answer it with one card "
     "from your hand. The app asks you, and only you, each time it can happen; choose "
     "a card or let it go.\n"
     "Compare ranks, aces counting highest: a hand card of the same rank or lower "
     "than the turned card is used FIRST, then the turned card. A higher hand card is "
     "used straight AFTER the turned card.\n"
     "You can never answer a card of your own colour, nobody can answer a card played "
     "from a hand, and each turned card can be answered only once."),
    ("Actions (CH §3)",
     "An activated unit does one thing:\n"
     "  Run: move up to its run distance.\n"
     "  Charge: run into base contact with an enemy and attack it in melee (one figure "
     "reaching contact is enough).\n"
     "  Fight: melee attacks on an enemy it is already touching.\n"
     "  Walk and shoot: move up to its walk distance, then shoot.\n"
     "  Aimed shots: shoot without moving; every 1 rolled to damage is rolled again, "
     "once only.\n"
     "  Disengage: step out of melee; no moving into contact or shooting this time.\n"
     "  Recharge: get back shields equal to its recharge stat, but never more than it "
     "started with.\n"
     "A unit touching an enemy must Disengage before it moves away (the app then "
     "offers Fight, Aimed shots, Disengage or Recharge). The app does not measure: "
     "the players do, and answer its questions."),
    ("Coming on, and flanking (CH §3)",
     "A unit's first activation brings it on at its home edge, then it acts (not "
     "Fight, Disengage or Aimed shots: it has moved and touches nobody yet). Or it may "
     "try to flank: roll a die, and on 4 or more it comes on from the side edge you "
     "pick; on 1 to 3 it stays off and that activation (and its token) is used up; "
     "it may try again next time. Nobody ever comes on from the enemy's home edge."),
    ("Shooting (CH §4)",
     "Pick one target and say whether it is within 12\" or further. Every figure "
     "fires every weapon it carries, with that weapon's shots for the distance. There "
     "is no roll to hit: each shot rolls to damage, needing the weapon's number for "
     "the target's cover (open, soft or hard). If the target is spread over two kinds "
     "of cover, use the one most figures are in; half and half means the less "
     "protective one.\n"
     "Explosive weapons deal a D6 of damage for each success instead of 1."),
    ("Damage (CH §4, §5)",
     "Shields belong to the whole unit. Each point of damage knocks one down; with no "
     "shields left, each point kills a figure outright: there is no saving throw in "
     "this edition. The owner picks which figure dies when they differ."),
    ("Melee (CH §5)",
     "Roll the unit's melee attacks for each of its figures. Every die showing its "
     "melee damage number or more is a point of damage, dealt as for shooting. The "
     "unit attacked does not strike back until it activates itself."),
    ("Activation tokens (CH §6)",
     "As in Deathzap 3: a unit that has activated takes a token and waits. As soon as "
     "every unit one side still has in play carries a token, all tokens come off, "
     "both sides. A joker clears them too. A side with no unit left in play loses the "
     "activations its cards give."),
    ("Forces and winning (CH §7, CH-R4, CH-R5)",
     "Units have run and walk distances, melee attacks and melee damage, shields and a "
     "recharge; figures carry weapons; the force has a Command Rating. There are no "
     "points: `deathzap points` lists units and figures instead, and any force is "
     "allowed.\n"
     "Victory, by option: elimination (default): you win when the enemy has no "
     "figures left (an empty deck is simply reshuffled from the turned cards). "
     "Objectives: Deathzap 3's five markers and victory points: 3 VP per enemy unit "
     "wiped out; a unit that shoots (Walk and shoot, Aimed shots) may also activate "
     "an objective with no token and no enemy within 3\" for 1 VP per 6\" (or part) "
     "from its home edge; the game ends when the deck runs out and most VP wins."),
]
