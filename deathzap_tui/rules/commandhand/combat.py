"""Shooting, melee and damage (CH §4, §5).

Facts for the odds panel
------------------------
While an attack is resolved ``ctx.facts["attack"]`` describes it, updated as dice
come in; ``ctx.facts["attacks"]`` lists every attack of the activation::

    {"target": "black.1", "kind": "shooting",   # or "melee"
     "weapon": "Carbine",  # "" for melee
     "dice": 6,            # dice rolled to damage
     "to_damage": 4,       # N+ (melee: the attacker's melee damage)
     "aimed": False,       # re-roll 1s once (CH §3.5)
     "explosive": False,   # D6 damage per success (CH §4)
     "shields": 3, "figures": 5,               # the target before this attack
     "stage": "declared",  # "declared" | "reroll" | "damage" | "casualties" | "done"
     "successes": 0, "damage": 0,
     "rerolls": 0}         # aimed: 1s being re-rolled ("reroll" stage)

``stage``: "reroll" while aimed shots re-roll their 1s (``successes`` so far,
``rerolls`` dice still to come); "damage" once the successes are known, re-rolls
included (an Explosive weapon's damage dice still to come); "casualties" once the
``damage`` is known, while the owner removes figures; "done". An attack begins with
the target's shields and figures as the earlier attacks left them; once the target
is gone the attacks left are "done".

:func:`.odds.odds_from_facts` turns it into odds.
"""

from __future__ import annotations

from typing import Any

from deathzap_tui.rules.casualties import pick_casualty
from deathzap_tui.rules.commandhand import tables
from deathzap_tui.rules.commandhand.common import inches, uname, unit_destroyed
from deathzap_tui.rules.commandhand.state import FigureState, State, UnitState
from deathzap_tui.rules.ids import side_of
from deathzap_tui.rules.narration import Gen, dice_text, faces_text, plural
from deathzap_tui.rules.ruleset import other_side
from deathzap_tui.rules.steps import TOTAL, Choice, Context, DiceRequest, Luck, Question, Refused

COVER_PROMPT = (
    "What cover is {target} in? If the unit is split between two kinds of cover use the "
    "one most of its figures are in; an even split uses the WORSE (less protective) one.")

COVER_WORDS = {"open": "in the open", "soft": "in soft cover", "hard": "in hard cover"}


def enemies(state: State, unit: UnitState) -> list[UnitState]:
    """Enemy units that can be attacked: in play and on the table."""
    return [u for u in state.units[other_side(unit.side)] if u.in_play and u.entered]


def engaged_enemies(state: State, unit: UnitState) -> list[UnitState]:
    return [u for u in enemies(state, unit) if u.id in unit.engaged]


def new_fact(kind: str, target: UnitState, **kw: Any) -> dict[str, Any]:
    fact = {"target": target.id, "kind": kind, "weapon": "", "dice": 0, "to_damage": 0,
            "aimed": False, "explosive": False, "shields": target.shields,
            "figures": target.figures_left, "stage": "declared", "successes": 0,
            "damage": 0, "rerolls": 0}
    fact.update(kw)
    return fact


# --- damage ---------------------------------------------------------------------


def _kind(f: FigureState) -> tuple[Any, ...]:
    return (f.name, f.weapons)


def casualty_cost(state: State, f: FigureState) -> tuple[int, ...]:
    """What losing ``f`` costs, cheapest first (the casualty question's default). This
    edition has no points and no leaders (CH-R4): the figure with the fewest shots
    (both range bands, CH §4) goes first."""
    weapons = state.weapons[side_of(f.id)]
    return (sum(weapons[w].shots_near + weapons[w].shots_far for w in f.weapons
                if w in weapons),)


def figure_label(state: State, f: FigureState) -> str:
    weapons = state.weapons[side_of(f.id)]
    names = [weapons[w].name for w in f.weapons if w in weapons]
    return f.name + (f" ({', '.join(names)})" if names else "")


def take_damage(ctx: Context, target: UnitState, damage: int, key: str, source: str,
                by: str) -> Gen:
    """CH §4: each point removes a shield; at 0 shields each point kills a figure (no
    saving throw). The owner picks which figure when they differ. Returns kills.

    The harm recorded against unit ``by`` is the ``damage`` points, what the rules
    call damage (CH §4: each strips a shield or kills; issue 26: stripped shields
    are damage too), and the figures removed as kills."""
    state: State = ctx.state
    if damage <= 0 or not target.in_play:
        return 0
    name = uname(state, target)
    removed = min(target.shields, damage)
    target.shields -= removed
    kills = damage - removed
    if removed:
        ctx.say(f"{name} loses {plural(removed, 'shield')} to {source} "
                f"({target.shields}/{target.max_shields} left, CH §4).")
    killed = 0
    for i in range(kills):
        victim = yield from pick_casualty(
            state, target, f"{key}.kill.{i + 1}", i + 1, kills, name, "CH §4", _kind,
            lambda f: figure_label(state, f), lambda f: casualty_cost(state, f))
        if victim is None:
            break
        victim.alive = False
        killed += 1
        ctx.say(f"{name} loses {victim.name}, killed by {source} "
                f"({target.figures_left}/{len(target.figures)} figures left, CH §4).")
    ctx.harm(target.id, by, damage=damage, kills=killed)
    if target.figures_left == 0 and target.in_play:
        unit_destroyed(ctx, target)
    return killed


# --- shooting -------------------------------------------------------------------


def weapon_groups(state: State, unit: UnitState) -> list[tuple[str, int]]:
    """(weapon id, how many carried by living figures), in force order. A figure
    listing a weapon twice carries two."""
    counts: dict[str, int] = {}
    weapons = state.weapons[unit.side]
    for f in unit.alive_figures:
        for w in f.weapons:
            if w in weapons:
                counts[w] = counts.get(w, 0) + 1
    return list(counts.items())


def shoot(ctx: Context, unit: UnitState, aimed: bool, key: str = "shoot") -> Gen:
    """Walk and shoot / Aimed shots (CH §3, §4): one target, every figure fires every
    weapon; shots by range band, one to-damage roll per shot against the target's
    cover; aimed shots re-roll 1s once; Explosive rolls D6 damage per success."""
    state: State = ctx.state
    side = unit.side
    name = uname(state, unit)
    groups = weapon_groups(state, unit)
    targets = enemies(state, unit)
    if not groups:
        ctx.say(f"{name} has no weapons to shoot.")
        return
    if not targets:
        ctx.say(f"{name} has no enemy on the table to shoot at.")
        return
    a = yield Question(f"{key}.target", f"{name} shoots: which target?",
                       (*(Choice(t.id, uname(state, t)) for t in targets),
                        Choice("hold", "Hold fire")), rule="CH §4", side=side,
                       default=targets[0].id)
    if a == "hold":
        ctx.say(f"{name} holds its fire.")
        return
    target = state.unit(a)
    tname = uname(state, target)
    band_range = inches(state, tables.RANGE_BAND)
    band = yield Question(
        f"{key}.range", f"How far is {tname} from {name}?",
        (Choice("near", f"Within {band_range}"), Choice("far", f"Beyond {band_range}")),
        rule="CH §4", side=side, default="near")
    cover = yield Question(
        f"{key}.cover", COVER_PROMPT.format(target=tname),
        (Choice("open", "Open"), Choice("soft", "Soft cover"), Choice("hard", "Hard cover")),
        rule="CH §4", side=target.side, default="open")
    where = f"within {band_range}" if band == "near" else f"beyond {band_range}"
    weapons = state.weapons[side]
    facts = []
    for wid, count in groups:
        w = weapons[wid]
        fact = new_fact("shooting", target, weapon=w.name, dice=count * w.shots(band),
                        to_damage=w.to_damage[cover], aimed=aimed, explosive=w.explosive)
        ctx.facts.setdefault("attacks", []).append(fact)
        facts.append((wid, count, fact))
    ctx.say(f"{name} {'takes aimed shots' if aimed else 'shoots'} at {tname}, {where}, "
            f"{COVER_WORDS[cover]} (CH §4).")
    for n, (wid, count, fact) in enumerate(facts, 1):
        w = weapons[wid]
        ctx.facts["attack"] = fact
        if not target.in_play:
            fact["stage"] = "done"
            continue
        fact.update(shields=target.shields, figures=target.figures_left)
        if not fact["dice"]:
            ctx.say(f"{w.name} x{count} has no shots {where} (CH §4).")
            fact["stage"] = "done"
            continue
        yield from _fire(ctx, unit, target, w.name, count, fact, f"{key}.{n}",
                         f"{w.name}, target {COVER_WORDS[cover]}")
        fact["stage"] = "done"


def _fire(ctx: Context, unit: UnitState, target: UnitState, wname: str, count: int,
          fact: dict[str, Any], key: str, why: str) -> Gen:
    state: State = ctx.state
    target_n = fact["to_damage"]
    aimed = fact["aimed"]
    d = yield DiceRequest(f"{key}.damage", fact["dice"], f"{wname} at {uname(state, target)}: "
                          "to damage", target_n,
                          why + ("; aimed: 1s are re-rolled once" if aimed else ""),
                          "CH §4" + (" / CH §3.5" if aimed else ""), unit.side)
    successes = d.count(target_n)
    text = dice_text(d, target_n)
    if aimed:
        if d.successes is not None:
            raise Refused("aimed shots need the faces of the dice, to re-roll the 1s "
                          "(CH §3.5)")
        ones = sum(1 for f in d.faces if f == tables.AIMED_REROLL)
        if ones and target_n > tables.AIMED_REROLL:
            fact.update(successes=successes, rerolls=ones, stage="reroll")
            r = yield DiceRequest(f"{key}.reroll", ones, f"{wname}: re-roll the "
                                  f"{plural(ones, '1')}", target_n,
                                  "aimed shots re-roll 1s to damage, once (CH §3.5)",
                                  "CH §3.5", unit.side)
            again = r.count(target_n)
            successes += again
            fact["rerolls"] = 0
            text += f"; re-rolled {plural(ones, '1')}: {faces_text(r.faces)} (+{again})"
    fact["successes"] = successes
    fact["stage"] = "damage"
    ctx.say(f"{uname(state, unit)} fires {wname} x{count} ({plural(fact['dice'], 'shot')}) "
            f"at {uname(state, target)}: {text}: {plural(successes, 'success', 'successes')}.")
    damage = successes
    if fact["explosive"] and successes:
        e = yield DiceRequest(f"{key}.explosive", successes, f"{wname}: Explosive damage",
                              None, "D6 points of damage per success (CH §4)", "CH §4",
                              unit.side, luck=Luck(TOTAL))  # more damage helps the shooter (CH §4)
        damage = sum(e.faces)
        ctx.say(f"Explosive: {faces_text(e.faces)} = {plural(damage, 'point')} of damage "
                "(CH §4).")
    fact.update(damage=damage, stage="casualties")
    yield from take_damage(ctx, target, damage, key, wname, unit.id)


# --- melee ----------------------------------------------------------------------


def melee(ctx: Context, unit: UnitState, charging: bool, key: str = "melee") -> Gen:
    """Charge / Fight (CH §3, §5): figures x melee attacks dice, each die at or above
    the unit's melee damage is a point of damage, applied as shooting's."""
    state: State = ctx.state
    name = uname(state, unit)
    engaged = engaged_enemies(state, unit)
    options = engaged + [t for t in enemies(state, unit) if t not in engaged] if charging \
        else engaged
    verb = "charges" if charging else "fights"
    a = yield Question(f"{key}.target", f"{name} {verb}: which enemy unit does it attack"
                       + (" (it must reach base contact)?" if charging else "?"),
                       tuple(Choice(t.id, uname(state, t) + (" (in contact)" if t in engaged
                                                             else "")) for t in options),
                       rule="CH §3 / CH §5", side=unit.side, default=options[0].id)
    target = state.unit(a)
    tname = uname(state, target)
    if target.id not in unit.engaged:
        unit.engaged.append(target.id)
    if unit.id not in target.engaged:
        target.engaged.append(unit.id)
    dice = unit.figures_left * unit.melee_attacks
    fact = new_fact("melee", target, dice=dice, to_damage=unit.melee_damage)
    ctx.facts.setdefault("attacks", []).append(fact)
    ctx.facts["attack"] = fact
    if not dice:
        ctx.say(f"{name} is in base contact with {tname} but has no melee attacks.")
        fact["stage"] = "done"
        return
    d = yield DiceRequest(f"{key}.damage", dice, f"{name} melee attacks on {tname}",
                          unit.melee_damage, f"{unit.figures_left} figures x "
                          f"{unit.melee_attacks} attacks, melee damage {unit.melee_damage}+",
                          "CH §5", unit.side)
    hits = d.count(unit.melee_damage)
    fact.update(successes=hits, damage=hits, stage="casualties")
    ctx.say(f"{name} attacks {tname} in melee with {plural(dice, 'die', 'dice')}: "
            f"{dice_text(d, unit.melee_damage)}: {plural(hits, 'point')} of damage (CH §5).")
    yield from take_damage(ctx, target, hits, key, "the melee", unit.id)
    fact["stage"] = "done"
