"""Quick resolve in Double Tap: one action of a unit at an enemy (shooting, a
charge, a grenade, a hack, a detect), with the enemy's chance to react, a morale test
or a bare quality test, outside any game, through the real :mod:`.actions`, :mod:`.attacks`
and :mod:`.quality` code on a two-unit state (see :mod:`deathzap_tui.rules.quick`).
Nothing is saved.

Each unit is one model (DT §2): how it stands is whether it is hacked, its wound
markers when Tough, whether the target is stunned and whether the acting unit still
has its camo marker (DT §5, §7). The target starts without one, since it is being
attacked, unless it is to be detected.
"""

from __future__ import annotations

from typing import Any

from deathzap_tui.rules import quick
from deathzap_tui.rules.doubletap import actions, quality, specials, tables
from deathzap_tui.rules.doubletap.attacks import Plan, take_morale
from deathzap_tui.rules.doubletap.reactions import ranged
from deathzap_tui.rules.doubletap.state import new_state
from deathzap_tui.rules.narration import YES_NO, Gen
from deathzap_tui.rules.steps import (
    Answer,
    Choice,
    Context,
    Question,
    Refused,
    Resolution,
    refuse_if,
)

KINDS: tuple[tuple[str, str], ...] = (
    ("shoot", "Shooting (Hold and shoot), with reactions"),
    ("melee", "Melee (Charge), with reactions"),
    ("grenade", "Grenade throw, with reactions"),
    ("hack", "Hack (special action)"),
    ("detect", "Detect a camouflaged unit (special action)"),
    ("morale", "Morale test after hits"),
    ("quality", "Quality test (4+ with modifiers)"),
)
ACTIONS = {"shoot": "hold", "melee": "charge", "grenade": "hold", "hack": "hack",
           "detect": "detect"}
"""The action (DT §3, §7) each kind of attack is taken as."""
ALONE = ("morale", "quality")
"""Tests the unit takes on its own."""
MODIFIER = 4
"""The largest modifier asked for a bare quality test, either way (DT §1)."""


def quick_resolution(kind: str, attacker: tuple[Any, int],
                     target: tuple[Any, int] | None, seed: int) -> Resolution:
    """A resolution of ``kind`` (see :data:`KINDS`): the attacker's unit acts at the
    target's; the tests are the attacker's unit's alone."""
    red, black = quick.pair(kind, KINDS, attacker, target, alone_kinds=ALONE)
    state = new_state(red, black, {}, seed)
    state.stage, state.round, state.player = "battle", 1, "red"
    state.edges, state.first = {"red": "south", "black": "north"}, "red"
    for side in ("red", "black"):
        state.units[side][0].placed = True
    acting, other = state.unit(quick.ACTING), state.unit(quick.OTHER)
    other.camo = other.camo and kind == "detect"  # one attacked has been seen
    if kind in ACTIONS:
        refuse_if(actions.action_refusal(state, acting.id, ACTIONS[kind]))
    if kind == "grenade" and not specials.grenade_ready(acting):
        raise Refused(f"{acting.name} has no Grenade (DT §7)")
    if kind == "shoot" and not ranged(acting):
        raise Refused(f"{acting.name} has no ranged weapon (DT §4)")

    def versus(ctx: Context, unit: Any, other: Any) -> Gen:
        yield from standing(ctx, unit, other)
        yield from quick.preset(actions.perform(ctx, unit.id, ACTIONS[kind]),
                                _known(kind, unit))

    return quick.resolution(state, kind, versus, {"quality": _quality, "morale": _morale})


def _known(kind: str, unit: Any) -> quick.Known:
    """The weapon of a grenade throw, or of shooting with one ranged weapon; the target
    picked, which is also the only unit that may react (DT §6)."""
    guns = ranged(unit)
    weapon = actions.GRENADE if kind == "grenade" else guns[0].id if len(guns) == 1 else None
    at_target = quick.at_target("target", "reactor.black.1")  # the one unit that may react

    def known(question: Question) -> Answer | None:
        return weapon if question.key == "weapon" else at_target(question)

    return known


def _yes_no(unit: Any, what: str, prompt: str, default: str) -> tuple[Question,
                                                                      quick.Setter]:
    """A yes/no question about ``unit`` setting its flag ``what``."""
    return (Question(f"quick.{unit.side}.{what}", prompt, YES_NO, rule="DT §5, DT §7",
                     side=unit.side, default=default),
            lambda a: setattr(unit, what, a == "yes"))


def standing(ctx: Context, acting: Any, target: Any) -> Gen:
    """Whether either unit is hacked (-1 to its next attack or block) and has wound
    markers (Tough), whether the target is stunned (it cannot react) and the acting
    unit still has its camo marker (DT §5, §7)."""
    asks: list[tuple[Question | None, quick.Setter]] = []
    for unit in (acting, target):
        asks.append(_yes_no(unit, "hacked", f"Is {unit.name} hacked (-1 to its next attack "
                            "or block)?", "no"))
        if unit.has("tough"):
            asks.append((Question(f"quick.{unit.side}.wounds", f"How many wound markers "
                                  f"has {unit.name} (Tough: killed at the "
                                  f"{tables.TOUGH_WOUNDS}rd)?", minimum=0,
                                  maximum=tables.TOUGH_WOUNDS - 1, rule="DT §7",
                                  side=unit.side, default=0),
                         lambda n, u=unit: setattr(u, "wounds", n)))
    asks.append(_yes_no(target, "stunned", f"Is {target.name} stunned (it cannot react)?",
                        "no"))
    if acting.has("camouflage"):
        asks.append(_yes_no(acting, "camo", f"Has {acting.name} still its camo marker "
                            "(reactions to its attack at -2)?", "yes"))
    if (yield from quick.as_they_stand(asks)):
        ctx.say("As they stand: " + "; ".join(_words(u) for u in (acting, target)) + ".")


def _words(unit: Any) -> str:
    said = [unit.name]
    if unit.has("tough"):
        said.append(f"{unit.wounds} wound marker{'s' if unit.wounds != 1 else ''}")
    said += [word for word, flag in (("hacked", unit.hacked), ("stunned", unit.stunned),
                                     ("camouflaged", unit.camo)) if flag]
    return ", ".join(said)


def _morale(ctx: Context, unit: Any) -> Gen:
    """DT §5: a unit hit and not killed tests; how it fails depends on where the hits
    came from."""
    where = yield Question("morale.from", f"Where did the hits on {unit.name} come from?",
                           (Choice("shooting", "Shooting or a grenade (fails: moves 2\" "
                                   "away)"),
                            Choice("melee", "Melee (fails: stunned)")),
                           rule="DT §5", side=unit.side, default="shooting")
    yield from take_morale(Plan(ctx, unit, "hold"), unit, where == "melee")


def _quality(ctx: Context, unit: Any) -> Gen:
    """DT §1: one quality test at the modifier the players name."""
    modifier = yield Question("quality.modifier", f"{unit.name}: the test's total modifier "
                              f"(-{MODIFIER} to +{MODIFIER}; 0 needs 4+)?",
                              minimum=-MODIFIER, maximum=MODIFIER, rule="DT §1",
                              side=unit.side, default=0)
    ok = yield from quality.quality_test(
        ctx, "quality", 1, modifier, f"{unit.name}: quality test",
        quality.why_words([(modifier, "named")]), "DT §1, DT-R1", unit.side)
    ctx.say(f"{unit.name} {'passes' if ok else 'fails'} the quality test (DT §1).")
