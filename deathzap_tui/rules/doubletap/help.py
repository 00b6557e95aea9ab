"""Double Tap v2.1 rules in the app's own words (shown by the help screen).

Every number and table is formatted from :mod:`.tables`, never retyped. Rule ids
point at the digest (``shared/rules/double-tap.md``); where the digest is silent the
text says what the app does and marks it "app reading". Table and list lines stay
within 78 columns so the help screen never wraps them.
"""

from __future__ import annotations

import textwrap

from deathzap_tui.rules.doubletap import tables as t
from deathzap_tui.rules.narration import columns

WIDTH = 78
"""Longest table or list line (prose is wrapped by the help screen)."""


def _signed(n: int) -> str:
    return f"{n:+d}"


_QUALITY_ROWS = [["modifier", "needs", "chance"]] + [
    [_signed(m) if m else "none", t.need_text(m), f"{t.p_quality(m):.0%}"]
    for m in range(2, t.QUALITY - t.TWO_DICE - 2, -1)]


_WEAPON_ROWS = [["weapon", "pts", "attacks", "range bands", "max"]] + [
    [w.name, str(w.points), str(w.attacks), w.bands_text() or "-",
     "melee" if w.melee else f'{w.max_range}"']
    for w in t.WEAPONS.values()]

_ACTION_ROWS = [["action", "move", "Fast", "attacks"]] + [
    [a.name, f'{a.move}"', f'+{a.fast_bonus}"' if a.fast_bonus else "-",
     "melee" if a.melee else "may shoot" if a.shoots else "none"]
    for a in t.ACTIONS.values()]


def _rule_lines() -> str:
    """Every DT §7 rule as "Name (pts): what it does", wrapped under its name."""
    return "\n".join(textwrap.fill(f"{r.name} ({r.points}): {r.summary}", WIDTH,
                                   initial_indent="  ", subsequent_indent="      ")
                     for r in t.SPECIAL_RULES.values())


_MELEE = [w.name for w in t.WEAPONS.values() if w.melee]
_REACTIONS = ", ".join(t.REACTIONS)

HELP_SECTIONS: list[tuple[str, str]] = [
    ("Quality tests (DT §1, DT-R1)",
     "Almost every roll is a quality test: one die, a success on "
     f"{t.QUALITY}+. Modifiers move the number needed: +1 makes the test easier "
     "(3+), -1 harder (5+). A roll of 1 always fails, however good the modifiers.\n"
     f"Needing {t.TWO_DICE}+, a 6 must be followed by a {t.SECOND_DIE}+ on a second "
     f"die. DT-R1: the seed says \"7+ or higher\", so needing {t.TWO_DICE + 1}+, "
     f"{t.TWO_DICE + 2}+ or more is still a 6 then a {t.SECOND_DIE}+ (1 in 12), never "
     "impossible; needing 2+ or less, a 1 still fails.\n"
     + columns(_QUALITY_ROWS) + "\n"
     "App reading: a test of several dice at 7+ or higher is asked as one roll for "
     "the 6s, then the 6s are rolled again for the second die.\n"
     "A model sees only through the front half of its base; the players judge "
     "line of sight, and questions about it say so."),
    ("Set-up and markers (DT §2)",
     f"Armies are {t.ARMY_POINTS} points each, played on a 4' by 4' table with "
     "plenty of terrain. Each unit is a single model.\n"
     "The sides roll off; the winner picks a table edge, the other takes the "
     "opposite one. Then they take turns placing one unit each within "
     f"{t.DEPLOY_ZONE}\" of their own edge, the winner first.\n"
     "App reading: each placement asks the placing side which of its unplaced "
     "units goes down; a side with nothing left to place is skipped. An Ambush "
     "unit may be kept in reserve instead; Scouts are placed last, after every "
     "other unit (if both sides have Scouts they roll off, then alternate). After "
     f"an Infiltrate unit is placed the app reminds you it may move up to "
     f"{t.INFILTRATE_MOVE}\" at once.\n"
     "Mission: D3 objective markers. App reading: the D3 is a die read as 1-2: 1, "
     "3-4: 2, 5-6: 3. The sides roll off for who places first and then alternate, "
     "each marker outside the deployment zones and more than "
     f"{t.MARKER_SPACING}\" from the others. Markers start neutral."),
    ("Turns and activation points (DT §3)",
     "The game is played in rounds; in each round every player takes one turn. "
     "The side that deployed first plays first in every round (app reading).\n"
     "At the start of its turn a side gets one activation point per living unit "
     "(app reading: units still in Ambush reserve count, they are part of the "
     "army). Each point buys one action of any unit; the same unit may act again "
     "and again. The turn ends when the points are spent, or when the player ends "
     "it early, giving up the points left (app reading).\n"
     + columns(_ACTION_ROWS) + "\n"
     "Advance may shoot at any point of its move. Fast units add the Fast column. "
     "Climbing up to 4\" counts the height against the move; a ladder lets a unit "
     "climb any height at half of it. Difficult terrain halves a move. Units may "
     "move into base contact freely but leave it only by dodging, so a unit in "
     "contact cannot Rush or Advance away (app reading).\n"
     "App reading: only a Charge ends in base contact (the app records it); an "
     "Advance or Rush stops short of enemy units.\n"
     "Special actions also cost one point each: recover (a stunned unit, DT §5), "
     "detect, cloak, hack and spot (DT §7, see Special rules). App reading: a "
     "stunned unit may only recover."),
    ("Shooting (DT §4, DT-R2)",
     "A unit not in melee fires one weapon (Hold or Advance) at enemies in range "
     "and sight, and may split its attacks among them. Each attack is a quality "
     "test; each success is a hit.\n"
     "To hit: the weapon's range band (see Range bands), -1 if the target is in or "
     "behind cover, +1 shooting down at a lower target.\n"
     "App reading: the players answer the distance in inches and whether cover or "
     "a lower target applies; with a friendly Engineer in play the app asks if "
     f"one is within {t.AURA}\" (+1). A target spotted by your side gives +1 to the "
     "first unit that shoots at it; a hacked shooter has -1 once; a flashed one "
     f"{t.FLASH_MODIFIER}. Units with a camo marker cannot be picked as targets."),
    ("Range bands (DT §4, DT-R2)",
     "Each weapon's attacks, points, and its to-hit modifier by distance:\n"
     + columns(_WEAPON_ROWS) + "\n"
     "DT-R2: \"best\" is +1 and \"worst\" -1 to hit within the band; outside the "
     "listed bands there is no modifier, and nothing can be fired beyond its "
     f"maximum range. {' and '.join(_MELEE)} are melee weapons; every unit "
     "carries at least one."),
    ("Melee (DT §4)",
     "A Charge moves the unit into base contact with one enemy (or fights one it "
     "already touches) and attacks with all its melee weapons together, their "
     "attacks added up (app reading). Melee works like shooting, without range, "
     "cover or elevation. The defender may react only by dodging or fighting back "
     "in melee. Units in melee cannot shoot."),
    ("Blocks (DT §4)",
     "Each hit makes the target take a quality test, a block; if any block fails "
     "the model is killed.\n"
     f"Block modifiers: Armored +1; a friendly Doctor within {t.AURA}\" +1 (app "
     "reading: asked only if one is in play); Fire Ammo shooting hits "
     f"{t.FIRE_AMMO}, Piercing Ammo {t.PIERCING_AMMO}; hacked {t.HACKED} (used up "
     f"by the roll); flashed {t.FLASH_MODIFIER}.\n"
     "Tough: each failed block is a wound marker instead; the unit dies when it "
     f"has {t.TOUGH_WOUNDS}. Regeneration: a unit about to be killed, by failed "
     f"blocks or by its poison, rolls one die and survives on {t.REGENERATION}+ (app "
     "reading: wound markers stay, and a unit saved from its poison stays poisoned "
     "and tests again at its next action)."),
    ("Reactions and cancelling (DT §6, DT-R3)",
     "When an enemy acts, your units that can see it may react: "
     f"{_REACTIONS}. DT-R3: each unit reacts at most once to each enemy action. "
     "Stunned units cannot react. A unit in base contact reacts only to the units "
     "it touches, and only by dodging or melee.\n"
     "Move: up to its Advance move, after the action's attacks.\n"
     f"Dodge: up to {t.DODGE_MOVE}\", out of contact if need be. If it was "
     f"attacked it takes {t.DODGE_TESTS} quality tests; each success cancels one "
     f"enemy success. With none left it moves {t.DODGE_MOVE}\"; otherwise it takes "
     "the hits that remain and stays put.\n"
     f"Shoot / Melee: an attack with {t.REACTION_ATTACKS} die at the acting unit. "
     "If the reacting unit was itself the target of the same kind of attack, each "
     "success cancels one enemy success instead (app reading: successes beyond "
     "the enemy's hit the acting unit).\n"
     "Grenades cannot be cancelled: a dodging unit moves "
     f"{t.DODGE_MOVE}\" per success instead.\n"
     "Action and reaction happen together: a unit killed by a reaction still "
     "finishes its action.\n"
     "App reading: after an action is declared the other side is asked once "
     "whether it reacts; if so it picks, one at a time, which of the units that "
     "may react does (or none more), and how each reacts. Reactions to a "
     f"camouflaged unit's attack are at {t.CAMO_REACTION}.\n"
     "Detect (DT §7, when acting or reacting): a unit not in base contact may react "
     "to a camouflaged unit's action by detecting it, a quality test before the "
     "action's attacks; success removes the camo marker. With a Sixth Sense unit "
     "on the reacting side the app first asks whether the camouflaged actor is "
     f"within {t.SIXTH_SENSE_RANGE}\" of it; if so it loses its marker at once. "
     "App reading: the reactions are all chosen together, so a unit cannot shoot "
     "at an actor that is only detected by another unit's reaction.\n"
     "App reading: an acting unit hit by several reactions blocks each reaction's "
     "hits at that reaction's modifiers, then takes one morale test for them all "
     "if it lives (stunned if any hit was in melee)."),
    ("Morale (DT §5)",
     "A unit that takes hits and is not killed takes a quality test (app reading: "
     "one test for all the hits of one attack, or of all the reactions to its "
     "action). If it fails "
     f"after shooting (or a grenade) it moves {t.FALL_BACK}\" away, out of sight "
     "if it can; after melee hits it is stunned instead. A stunned unit cannot "
     "react, and its next action must be spent recovering."),
    ("Special rules (DT §7, DT-R4)",
     "A unit buys special rules with points; each at most once:\n"
     + _rule_lines() + "\n"
     "DT-R4: the seed stops after Tough; this list is complete.\n"
     "App readings: Ambush units in reserve are offered to their owner at the "
     "start of every round from the second (both sides: roll off for who places "
     f"first) and arrive more than {t.AMBUSH_DISTANCE}\" from enemy units. Detect "
     "is a quality test against a camouflaged enemy; success removes its marker. "
     "Cloak puts the marker back while no enemy sees the unit; attacking loses it. "
     f"A Sixth Sense unit is asked whether a camouflaged enemy is within "
     f"{t.SIXTH_SENSE_RANGE}\" of it; if so the marker goes. Hack: an enemy within "
     f"{t.HACK_RANGE}\", one die, {t.HACK_TEST}+ and it is hacked. Spot: an enemy "
     "in sight is marked for your side's next shooter. Poison: a poisoned unit "
     f"rolls when given an action, before acting: {t.POISON_CURE}+ cures it, "
     "otherwise it dies (unless Regeneration saves it: then it acts, still "
     "poisoned) and the point is spent."),
    ("Grenades (DT §7)",
     f"Once per game a Grenade unit throws one instead of firing a weapon: "
     f"{t.GRENADE_ATTACKS} quality tests, each success carrying it "
     f"{t.GRENADE_FLIGHT}\" further. Whatever lands within {t.GRENADE_BLAST}\" is "
     "affected:\n"
     f"  flash: {t.FLASH_MODIFIER} to all rolls until the end of the thrower's turn\n"
     "         (app reading: all quality tests; single dice such as Regeneration,\n"
     "         poison and hack are not quality tests and are not affected)\n"
     "  frag: one automatic hit on each unit (blocks and morale)\n"
     "  smoke: blocks sight until the start of the thrower's next turn\n"
     "App reading: the thrower picks the kind and a target unit; with no success "
     "it falls short to no effect. The players then name the units within "
     f"{t.GRENADE_BLAST}\" of where it lands, one at a time, of either side.\n"
     "A throw works like a weapon (DT §7): its tests take the thrower's shooting "
     "modifiers at the target unit (cover, shooting down, a friendly Engineer, "
     "the side's spot, used up; hacked, flashed), but no range band."),
    ("Winning (DT §2)",
     f"At the end of each round a marker is seized by a side with a unit within "
     f"{t.MARKER_REACH}\" of it and no enemy that close; it stays that side's even "
     "when the unit leaves. Stunned units cannot seize a marker, but they still "
     "contest it: units of both sides within reach, stunned or not, make it "
     "neutral again.\n"
     "App reading: for each marker the app asks which units are within reach: "
     "units of one side, some not stunned, and none of the other seize it; units "
     "of both sides make it neutral; only stunned units of one side, or none at "
     "all, leave it as it was.\n"
     f"The game ends after round {t.ROUNDS} (the \"rounds\" option changes that); "
     "the side holding more markers wins, equal is a draw. App reading: a side "
     "with no living unit, on the table or in reserve, loses at once; both at "
     "once is a draw."),
    ("Forces and points (DT §2, §4, §7, DT-R4)",
     "A unit costs its weapons plus its special rules (DT-R4); the points are in "
     "the Range bands and Special rules tables. A weapon may be carried twice and "
     f"is paid twice. Every unit needs a melee weapon ({' or '.join(_MELEE)}, "
     "DT-R2).\n"
     f"An army is {t.ARMY_POINTS} points: `deathzap check` warns about an army "
     "over that, and `deathzap points` prices every unit. In a force file "
     "a unit lists weapon and rule ids, poison = \"melee\" or \"shooting\" with Poison "
     "Gear, and count for several alike units (see forces/dt-*.toml)."),
    ("Rulings (DT-R1..DT-R4)",
     "Where the seed is unclear the app decides as follows:\n"
     f"  DT-R1: needing {t.TWO_DICE + 1}+ or higher is a 6 then a {t.SECOND_DIE}+, as 7+;\n"
     "         needing 2+ still fails on a 1.\n"
     "  DT-R2: best/worst bands are +1/-1 to hit, none outside them, no shots\n"
     "         beyond maximum range; every unit has a melee weapon.\n"
     "  DT-R3: a unit reacts at most once to each enemy action.\n"
     "  DT-R4: the special rules end with Tough; a unit costs its weapons and\n"
     "         rules."),
]
