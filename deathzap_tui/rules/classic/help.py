"""Deathzap Classic rules in the app's own words (shown by the help screen).

Every number and table is formatted from :mod:`.tables`, never retyped, so a group
that corrects a value there (CL-R3 invites it for the save columns) sees the help
follow. Rule ids point at the digest (``shared/rules/classic.md``).
"""

from __future__ import annotations

from collections.abc import Mapping

from deathzap_tui.rules.classic import tables as t
from deathzap_tui.rules.narration import columns


def _needs(n: int) -> str:
    """A CL §5 save: "4+", or the table's words for no effect and no save."""
    return {t.SAFE: "safe", t.DEAD: "dead"}.get(n, f"{n}+")


def _faces(table: Mapping[int, str]) -> list[tuple[str, str]]:
    """D6 face -> objective as ("1-2", objective id) runs, in face order."""
    runs: list[tuple[int, int, str]] = []
    for face, objective in sorted(table.items()):
        if runs and runs[-1][2] == objective:
            runs[-1] = (runs[-1][0], face, objective)
        else:
            runs.append((face, face, objective))
    return [(f"{lo}-{hi}" if lo != hi else str(lo), obj) for lo, hi, obj in runs]


def _names(ids: tuple[str, ...], last: str) -> str:
    """Type names as a list in words: "Infantry, Heavy Infantry or Beasts"."""
    names = [t.TYPES[i].name for i in ids]
    return f" {last} ".join(filter(None, (", ".join(names[:-1]), names[-1])))


_TYPE_ROWS = [["type", "move", "attacks", "power", "save"]] + [
    [f.name, f'{f.move}"', str(f.melee_attacks), str(f.melee_power), f"{f.save}+"]
    for f in t.TYPES.values()] + [
    ["Panicked figures", "-", str(t.PANICKED_MELEE_ATTACKS), str(t.PANICKED_MELEE_POWER),
     "as type"]]

_GROUP_LETTERS = {g: chr(ord("A") + i) for i, g in enumerate(t.SAVE_GROUPS)}

_WEAPON_ROWS = [["weapon", "range", *t.COVERS, *(f"save {_GROUP_LETTERS[g]}"
                                                for g in t.SAVE_GROUPS)]] + [
    [w.name, f'{w.range}"', *(f"{w.to_hit[c]}+" for c in t.COVERS),
     *(_needs(w.save[g]) for g in t.SAVE_GROUPS)]
    for w in t.WEAPONS.values()]

_GROUP_LEGEND = "\n".join(f"  {_GROUP_LETTERS[g]}: {t.SAVE_GROUP_NAMES[g]}"
                          for g in t.SAVE_GROUPS)

_AUTO = ", ".join(w.name for w in t.WEAPONS.values() if w.dice_per_gun > 1)
_AUTO_DICE = max(w.dice_per_gun for w in t.WEAPONS.values())
_RADIUS = ", ".join(w.name for w in t.WEAPONS.values() if w.radius)
_LONE = _names(t.ALWAYS_PANICKED_ALONE, "or")
_BIG = _names(t.BIG_TYPES, "or")
_ORDERABLE = ", ".join(t.ORDERABLE)


def _objective_rows(table: Mapping[int, str], words: Mapping[str, str]) -> str:
    return "\n".join(f"  {faces}  {t.OBJECTIVE_NAMES[obj]}: {words[obj]}"
                     for faces, obj in _faces(table))


_OBJECTIVE_WORDS = {
    "assassinate": f"{t.ASSASSINATE_VP} VP for killing the enemy general.",
    "hard-hitters": f"{t.HARD_HITTERS_VP} VP to the first side to destroy half of the "
                    f"enemy force, each {_BIG} figure counting as "
                    f"{t.BIG_FIGURE_WORTH}.",
    "extermination": f"1 VP for every {t.EXTERMINATION_STEP} enemy casualties, and 1 VP "
                     f"for each enemy {_BIG} figure destroyed.",
    "hold": f"1 VP for each table quarter (0 to {t.HOLD_QUARTERS}) where you have "
            "figures when the game ends.",
    "push": f"{t.PUSH_VP} VP if your general stands in the enemy deployment zone when the "
            "game ends.",
    "macguffin": "a counter starts in the middle of the table and travels with any "
                 f"figure in base contact with it; {t.MACGUFFIN_VP} VP to the side that "
                 "carries it off the table.",
}

HELP_SECTIONS: list[tuple[str, str]] = [
    ("Set-up (CL §1)",
     "Both players roll a die. The higher roll chooses which table edge is its base "
     "line and deploys first; the other side deploys along the opposite edge. Every "
     f"figure starts within {t.DEPLOYMENT_ZONE}\" of its own edge.\n"
     "A unit is a group of figures of one type, each within 1\" of another of the "
     "group; they may carry different guns.\n"
     "Each side names one figure its general. The general matters only for the "
     "objectives; the app asks at set-up, offering the figure the force file marks "
     "general = true.\n"
     "Choose the basic game (fight until one side is beaten) or the advanced game "
     "(objectives and a turn limit) with the \"game\" option."),
    ("Figure types (CL §2)",
     "Every unit is of one type, and the type gives all of its numbers: how far it "
     "moves, how many melee dice each figure rolls, the power its melee pips are "
     "divided by, and the save it makes against melee hits (shooting saves come from "
     "the weapon table).\n"
     + columns(_TYPE_ROWS) + "\n"
     "A panicked figure fights with the panicked row's numbers but still saves as its "
     "type."),
    ("The turn (CL §3)",
     "There are no cards and no activations: both sides play every phase of each "
     "turn.\n"
     "1. Impetus: both sides roll; the winner sets this turn's order of "
     f"{_ORDERABLE}.\n"
     "2-4. Those three phases, in the chosen order.\n"
     "5. Morale, always last.\n"
     "In the advanced game the two objectives are rolled straight after the first "
     "turn's impetus roll. The phase track shows the turn, the chosen order and the "
     "phase under way."),
    ("Impetus (CL §3, CL-R1)",
     "Each side rolls a D6 and adds 1 for every enemy unit that is panicked at that "
     "moment. The higher total wins the impetus: that side picks the order in which "
     f"{_ORDERABLE} are played this turn, and moves first in the movement phase. On "
     "equal totals both sides roll again (CL-R1)."),
    ("Movement (CL §4)",
     "The side with the impetus moves all its units first, then the other side. Each "
     "figure moves up to its type's move (see Figure types); the players measure and "
     "move the models themselves.\n"
     "Panicked units may not move towards the enemy. Units locked in melee do not "
     "move at all.\n"
     f"A unit of a single {_LONE} figure is always panicked, and "
     "stays so until it joins a friendly unit of its type."),
    ("Rallying by merging (CL §4)",
     "A unit that is not panicked may move into a panicked friendly unit of its type so "
     "that the two become one unit; a panicked unit cannot move to join a steady one. "
     "Then roll a D6 and multiply it by the number of panicked figures, and another D6 "
     "multiplied by the number of steady figures. If the panicked product is higher "
     "the whole new unit is panicked; otherwise nobody in it is.\n"
     f"App ruling: a lone {_LONE} figure may itself move to join a friendly unit of "
     "its type. Joining a steady unit rolls as above, the lone figure being the "
     "panicked side. Joining a panicked unit rolls nothing: the new unit is panicked, "
     "but no longer a lone figure, so it can recover in a later morale phase.\n"
     "The joined figures are listed under the unit they joined from then on."),
    ("Shooting (CL §5, CL-R2)",
     "Both sides shoot in the same phase, and every casualty stays on the table until "
     "everybody has fired (CL-R2): a unit shot to pieces still shoots back.\n"
     "Units in melee can neither shoot nor be shot at. A unit may split its guns "
     "between several targets.\n"
     "Each gun rolls one die to hit, needing the number for the target's cover "
     f"(open, soft or hard). A panicked unit hits only on a {t.PANICKED_TO_HIT}, "
     "whatever the cover.\n"
     f"{_AUTO}: {_AUTO_DICE} dice to hit per gun, each one a separate shot.\n"
     f"{_RADIUS}: choose a figure or a point on the ground; roll to hit once for every "
     f"figure within {t.RADIUS_INCHES}\" of it, the chosen figure included. The players "
     "count those figures and the app asks how many.\n"
     "Every hit then needs a save from the target (see Weapons and saves); each "
     "failed save is one casualty, and the target's owner picks which figures go."),
    ("Weapons and saves (CL §5, CL-R3)",
     "To hit by the target's cover, then the save the target needs against each hit, "
     "by the column of its type:\n"
     + columns(_WEAPON_ROWS) + "\n"
     + _GROUP_LEGEND + "\n"
     "\"safe\": the hit does nothing. \"dead\": there is no save, every hit kills.\n"
     "The seed lost the headings of the three save columns; the grouping above is "
     "the digest's reading of them (CL-R3). The app keeps it as data so that a group "
     "reading it differently can change it in one place."),
    ("Suppression (CL §5)",
     "A unit that lost figures to shooting checks whether it holds: roll a D6 and "
     "multiply it by the figures it has left, and another D6 multiplied by the "
     "figures it lost. If the losses' product is higher, the unit is panicked."),
    ("Melee (CL §6, CL-R4)",
     "Units in base contact fight. Each side rolls its figures' melee dice (see "
     "Figure types) and adds up the pips of each figure type separately. Each type's "
     "total is divided by that type's power, rounding down, and the results are added: "
     "that is the side's number of hits.\n"
     "Every hit gets a save at the type's melee save; each failure is a casualty. "
     "Hits on a unit of several types are shared out between the types as evenly as "
     "possible, the owner deciding where the odd ones fall.\n"
     "When the fighting is done each side rolls a D6 and multiplies it by its figures "
     "still standing plus the enemy figures it killed. The lower side retreats a full "
     "move towards its base line and is panicked; on equal scores both roll again "
     "(CL-R4)."),
    ("Morale (CL §7)",
     "Last in every turn, each panicked unit rolls a D6. On "
     f"{t.MORALE_RECOVERS}+ it recovers. Otherwise it falls back "
     f"{t.MORALE_FALLBACK_FACTOR} times the roll in inches towards its deployment "
     "zone and is still panicked.\n"
     "A unit that became panicked during this turn (it was steady until it was "
     "suppressed, lost a melee or was left a lone figure) fails without rolling, but "
     "does not fall back; one already panicked before tests as usual. A lone "
     f"{_LONE} figure always fails, until it joins a friendly unit of its type; the "
     "app rolls its D6 only for the distance it falls back. A unit in melee that fails "
     "stays where it is."),
    ("Winning (CL §8, CL-R5)",
     "Basic game: you win the moment the enemy has no unit left in play that is not "
     "panicked (none at all, or only panicked ones): the app checks as the battle "
     "begins and after the shooting casualties, every melee and every merge. If both "
     "sides reach it at once the game is a draw.\n"
     "In either game, a side with no unit left in play ends the game at once.\n"
     "Advanced game: after the first impetus roll the app rolls once on each "
     "objective table; both sides play for the same two objectives (CL-R5). The game "
     f"ends after turn {t.GAME_TURNS} (the \"turns\" option changes that) and the side "
     "with more VP wins; equal VP is a draw.\n"
     "Table 1:\n" + _objective_rows(t.OBJECTIVES_1, _OBJECTIVE_WORDS) + "\n"
     "Table 2:\n" + _objective_rows(t.OBJECTIVES_2, _OBJECTIVE_WORDS)),
    ("Forces and counts (CL §1, §2, §5, CL-R6)",
     "A force file lists units, each with its type and its figures; a figure carries "
     "guns named by class (" + ", ".join(t.WEAPONS) + ") or by the force's own names "
     "for them, and one figure may be marked as the general. This edition has no "
     "points (CL-R6): `deathzap points` shows how many figures of each type, and how "
     "many guns of each class, a force brings, so players can match forces by eye."),
    ("Rulings (CL-R1..CL-R6)",
     "Where the rules are silent or damaged the app decides as follows:\n"
     "  CL-R1: equal impetus totals are rolled again.\n"
     "  CL-R2: shooting is simultaneous; casualties come off once both sides have "
     "fired.\n"
     "  CL-R3: the three shooting-save columns are read as: "
     + "; ".join(t.SAVE_GROUP_NAMES[g] for g in t.SAVE_GROUPS) + ".\n"
     "  CL-R4: a tie at the end of a melee is rolled again.\n"
     "  CL-R5: the two advanced-game objectives are the same for both sides.\n"
     "  CL-R6: there are no points; forces are compared by their counts."),
]
