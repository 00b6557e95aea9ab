"""Shooting, melee, damage, saves, casualties, vehicle damage and morale
(DZ3 §6, §7, §9, §10).

Facts for the odds panel
------------------------
While an attack is being resolved ``ctx.facts["attack"]`` is a dict describing it,
updated as dice come in, and ``ctx.facts["attacks"]`` lists every attack declared in
this activation (the same dict objects, in declaration order)::

    {"target": "black.2",      # unit id
     "kind": "shooting",       # "shooting" | "melee" | "explosion"
     "weapon": "Repeater",     # weapon (and profile) name; "" for melee / explosion
     "dice": 8,                # to-hit dice (explosion: the damage, once rolled)
     "to_hit": 4,              # N+ to hit (fixed 6 when crippled; 0 for explosion)
     "vs_shields": 5,          # N+ against shields (0 for melee / explosion)
     "strike": False,
     "shields": 6,             # target shields before this attack
     "figures": 7,             # target figures before this attack
     "save": 6,                # the target's save N+
     "vehicle": False,         # target is a vehicle (failed saves roll damage)
     "own_leader": True,       # a leader of the target's own is alive: its morale
                               # gets the +1 without asking (DZ3 §11, app ruling)
     "morale_target": 0,       # morale N+ after the leader bonus; 0 until known
     "stage": "declared",      # "declared" | "hit" | "shields" | "saves" | "morale"
                               # | "done"
     "hits": 0, "damage": 0, "failed_saves": 0}

``stage`` names the roll being asked for (or "done"). When an attack ends, the
attacks still "declared" are brought up to date (:func:`settle_declared`): the
target's shields, figures and leader as the earlier attacks left them, or "done" if
it is gone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from deathzap_tui.rules.casualties import pick_casualty
from deathzap_tui.rules.deathzap3 import tables
from deathzap_tui.rules.deathzap3.common import (
    Gen,
    ask_yes_no,
    dice_text,
    is_are,
    plural,
    uname,
    unit_gone,
)
from deathzap_tui.rules.deathzap3.costs import weapon_cost
from deathzap_tui.rules.deathzap3.model import Profile
from deathzap_tui.rules.deathzap3.state import FigureState, State, UnitState
from deathzap_tui.rules.ids import side_of, split_figure_id
from deathzap_tui.rules.ruleset import other_side
from deathzap_tui.rules.steps import TOTAL, Choice, Context, DiceRequest, Luck, Question, Refused

COVER_PROMPT = (
    "What cover is {target} in? If the unit is split between two kinds of cover use the "
    "one most of its figures are in; an even split uses the WORSE (less protective) one.")


def new_fact(kind: str, target: UnitState, **kw: Any) -> dict[str, Any]:
    fact = {"target": target.id, "kind": kind, "weapon": "", "dice": 0, "to_hit": 0,
            "vs_shields": 0, "strike": False, "shields": target.shields,
            "figures": target.figures_left, "save": tables.SAVE[target.skill],
            "vehicle": target.vehicle, "own_leader": own_leader_alive(target),
            "morale_target": 0, "stage": "declared",
            "hits": 0, "damage": 0, "failed_saves": 0}
    fact.update(kw)
    return fact


def declare(ctx: Context, fact: dict[str, Any]) -> None:
    ctx.facts.setdefault("attacks", []).append(fact)


def settle_declared(ctx: Context) -> None:
    """After an attack: the attacks declared but not begun describe their target as
    it is now (an earlier attack on it took shields, figures or its leader), and an
    attack on a target gone (destroyed, fled) is done (it will not be rolled)."""
    state: State = ctx.state
    for fact in ctx.facts.get("attacks", ()):
        if fact["stage"] != "declared":
            continue
        target = state.unit(fact["target"])
        if not target.in_play:
            fact["stage"] = "done"
        else:
            fact.update(shields=target.shields, figures=target.figures_left,
                        own_leader=own_leader_alive(target))


def enemies(state: State, unit: UnitState) -> list[UnitState]:
    """Enemy units that can be targeted: in play and on the table."""
    return [u for u in state.units[other_side(unit.side)] if u.in_play and u.entered]


# --- damage, saves, casualties --------------------------------------------------


def take_damage(ctx: Context, target: UnitState, damage: int, strike: bool, key: str,
                fact: dict[str, Any], source: str, by: str | None) -> Gen:
    """Apply ``damage`` points: drain shields first, then saves (DZ3 §6); a Strike
    point removes a shield AND forces a save. Melee hits use the same rule (DZ3 §7).
    Returns the number of casualties (figures removed; 0 for a vehicle, DZ3-R13).

    The harm recorded against unit ``by`` (``None``: no unit, an explosion) is the
    ``damage`` points, what the rules call damage (DZ3 §6: each strips a shield or
    forces a save; issue 26: stripped shields are damage too), and the figures
    removed as kills. A
    vehicle the table kills or blows up is its one model removed (DZ3 §9 "remove it"):
    a kill for the report, though not a casualty for morale (DZ3-R13)."""
    state: State = ctx.state
    if damage <= 0 or not target.in_play:
        return 0
    stripped = min(target.shields, damage)
    saves = damage if strike else damage - stripped
    target.shields -= stripped
    fact["damage"] = damage
    if stripped:
        ctx.say(f"{uname(state, target)} loses {plural(stripped, 'shield')} "
                f"({target.shields}/{target.max_shields} left, DZ3 §6 / DZ3-R6).")
    if not saves:
        ctx.harm(target.id, by, damage=damage)
        return 0
    why = "Strike: every point forces a save (DZ3 §6)" if strike else "shields are down"
    save = tables.SAVE[target.skill]
    fact["stage"] = "saves"
    d = yield DiceRequest(f"{key}.saves", saves, f"{uname(state, target)}: saving throws",
                          save, f"{target.skill.capitalize()} save {save}+; {why}",
                          "DZ3 §6", target.side)
    failed = saves - d.count(save)
    fact["failed_saves"] = failed
    ctx.say(f"{uname(state, target)} saves against {source}: {dice_text(d, save)}; "
            f"{plural(failed, 'failed save')}.")
    if target.vehicle:
        yield from vehicle_damage(ctx, target, failed, key)
        ctx.harm(target.id, by, damage=damage, kills=int(target.destroyed))
        return 0
    removed = yield from remove_casualties(ctx, target, failed, key)
    ctx.harm(target.id, by, damage=damage, kills=removed)
    return removed


def _kind(f: FigureState) -> tuple[Any, ...]:
    return (f.name, f.weapons, f.leader, f.command)


def casualty_cost(state: State, unit: UnitState, f: FigureState) -> tuple[int, ...]:
    """What losing ``f`` costs, cheapest first (the casualty question's default): any
    other figure before a leader (its morale bonus, DZ3 §11), a leader with fewer
    command points before one with more (DZ3-R14), then the points of the weapons it
    carries (DZ3 §13)."""
    weapons = state.weapons[unit.side]
    return (f.leader, f.command,
            sum(weapon_cost(weapons[w], unit.skill) for w in f.weapons if w in weapons))


def figure_label(state: State, f: FigureState) -> str:
    names = [state.weapons[side_of(f.id)][w].name for w in f.weapons
             if w in state.weapons[side_of(f.id)]]
    text = f.name + (f" ({', '.join(names)})" if names else "")
    if f.leader:
        text += f", leader, {plural(f.command, 'command point')}"
    return text


def remove_casualties(ctx: Context, target: UnitState, n: int, key: str) -> Gen:
    """Remove ``n`` figures; the owner chooses which when they differ (DZ3 §6). A
    removed leader takes its command points with it (DZ3-R14). Returns how many were
    removed; a unit with no figure left is destroyed (3 VP to the enemy)."""
    state: State = ctx.state
    removed = 0
    for i in range(n):
        victim = yield from pick_casualty(
            state, target, f"{key}.casualty.{i + 1}", i + 1, n, uname(state, target),
            "DZ3 §6", _kind, lambda f: figure_label(state, f),
            lambda f: casualty_cost(state, target, f))
        if victim is None:
            break
        victim.alive = False
        removed += 1
        lost = ""
        if victim.leader and victim.command:
            lost = (f"; its {plural(victim.command, 'command point')} "
                    f"{is_are(victim.command)} lost (DZ3-R14)")
        if victim.leader:
            victim.command = 0
        ctx.say(f"Casualty: {uname(state, target)} loses {victim.name}{lost} "
                f"({target.figures_left}/{len(target.figures)} figures left).")
    if target.figures_left == 0 and target.in_play:
        ctx.say(f"{uname(state, target)} is wiped out.")
        unit_gone(ctx, target, "destroyed")
    return removed


def vehicle_damage(ctx: Context, vehicle: UnitState, failed: int, key: str) -> Gen:
    """One damage-table roll per failed save (DZ3 §9, DZ3-R9); effects stack
    (DZ3-R10); results are not casualties and cause no morale test (DZ3-R13)."""
    state: State = ctx.state
    for i in range(failed):
        if not vehicle.in_play:
            break
        # Not judged (luck None): the table's effects have no order for the owner
        # who rolls it, 2-4 cripple different things and a 6 also damages the units
        # near it, enemy or friend (DZ3 §9; the brief's "mixed table" reading).
        d = yield DiceRequest(f"{key}.damage.{i + 1}", 1, f"{uname(state, vehicle)}: damage "
                              "table", None, f"failed save {i + 1} of {failed}",
                              "DZ3 §9 / DZ3-R9", vehicle.side)
        roll = d.faces[0]
        effect = tables.VEHICLE_DAMAGE[roll]
        name = uname(state, vehicle)
        if effect == "no-effect":
            ctx.say(f"Damage roll {roll}: no effect on {name}.")
        elif effect == "immobilised":
            again = " (already immobilised: no change, DZ3-R10)" if vehicle.immobilised else ""
            vehicle.immobilised = True
            ctx.say(f"Damage roll {roll}: {name} is immobilised{again}.")
        elif effect == "gun-crippled":
            again = " (already: no change, DZ3-R10)" if vehicle.gun_crippled else ""
            vehicle.gun_crippled = True
            ctx.say(f"Damage roll {roll}: {name}'s gun is crippled, it hits only on 6{again}.")
        elif effect == "weapon-crippled":
            again = " (already: no change, DZ3-R10)" if vehicle.weapon_crippled else ""
            vehicle.weapon_crippled = True
            ctx.say(f"Damage roll {roll}: {name}'s melee weapon is crippled, it hits only "
                    f"on 6{again}.")
        elif effect == "killed":
            ctx.say(f"Damage roll {roll}: {name} is killed.")
            unit_gone(ctx, vehicle, "destroyed")
        else:
            ctx.say(f"Damage roll {roll}: {name} explodes!")
            unit_gone(ctx, vehicle, "destroyed")
            yield from explosion(ctx, vehicle, f"{key}.x{i + 1}")


def explosion(ctx: Context, vehicle: UnitState, key: str) -> Gen:
    """Every unit within 3" takes D6 damage, drained from shields then saved, as
    shooting (DZ3 §9). The players name the units one at a time, then "done"; the
    exploding vehicle's owner rolls each D6: a higher one is better for them against
    an enemy unit, worse against one of their own. The harm is nobody's (``by`` None):
    it is the vehicle's own explosion, whoever wrecked it."""
    state: State = ctx.state
    chosen: list[UnitState] = []
    while True:
        options = [u for u in state.all_units()
                   if u.in_play and u.entered and u is not vehicle and u not in chosen]
        if not options:
            break
        answer = yield Question(
            f"{key}.near.{len(chosen) + 1}",
            f"Which unit is within {tables.EXPLOSION_RANGE}\" of the exploding "
            f"{uname(state, vehicle)}? Name them one at a time, then 'done'.",
            (*(Choice(u.id, uname(state, u)) for u in options),
             Choice("done", "Done: no other unit")),
            rule="DZ3 §9", side=vehicle.side, default="done")
        if answer == "done":
            break
        chosen.append(state.unit(answer))
    if not chosen:
        ctx.say("No unit is caught in the explosion.")
    for n, unit in enumerate(chosen, 1):
        if not unit.in_play:
            continue
        fact = new_fact("explosion", unit)
        declare(ctx, fact)
        ctx.facts["attack"] = fact
        fact["stage"] = "hit"
        d = yield DiceRequest(f"{key}.blast.{n}", 1, f"Explosion damage to {uname(state, unit)}",
                              None, "D6 points of damage", "DZ3 §9", vehicle.side,
                              luck=Luck(TOTAL, more=unit.side != vehicle.side))
        dmg = d.faces[0]
        fact["dice"] = fact["hits"] = dmg
        ctx.say(f"The explosion deals {plural(dmg, 'point')} of damage to {uname(state, unit)}.")
        cas = yield from take_damage(ctx, unit, dmg, False, f"{key}.blast.{n}", fact,
                                     "the explosion", None)
        yield from morale(ctx, unit, cas, f"{key}.blast.{n}", fact)
        fact["stage"] = "done"
        settle_declared(ctx)


# --- morale ---------------------------------------------------------------------


def own_leader_alive(unit: UnitState) -> bool:
    """A leader of the unit's own is alive in it: its morale dice get the +1 of a
    friendly leader within 6" without asking (DZ3 §10, §11; the app's ruling)."""
    return any(f.alive and f.leader for f in unit.figures)


def living_leaders(state: State, side: str) -> list[FigureState]:
    """Leaders still alive in units in play on the table."""
    return [f for u in state.units[side] if u.in_play and u.entered
            for f in u.figures if f.alive and f.leader]


def morale(ctx: Context, unit: UnitState, casualties: int, key: str,
           fact: dict[str, Any]) -> Gen:
    """Morale after an attack that caused casualties (DZ3 §10): one die per figure
    left, passes if any die succeeds. DZ3-R11 option: one test per attack (default) or
    per casualty. DZ3-R12: a wiped-out unit does not test. DZ3-R13: vehicles never do.
    A friendly leader within 6" adds 1 to each die (DZ3 §11), shown as target - 1."""
    state: State = ctx.state
    if casualties <= 0 or unit.vehicle or not unit.in_play:
        return
    tests = casualties if state.options.get("morale") == "per-casualty" else 1
    name = uname(state, unit)
    if own_leader_alive(unit):
        bonus, why_leader = True, "its own leader is with it"
    elif not state.quick and not [f for f in living_leaders(state, unit.side)
                                  if split_figure_id(f.id)[0] != unit.id]:
        bonus, why_leader = False, "no friendly leader left on the table"
    else:
        bonus = yield from ask_yes_no(
            f"{key}.leader", f"Is a friendly leader within {tables.LEADER_RANGE}\" of {name}?",
            "DZ3 §10 / DZ3 §11", unit.side, default="no")
        why_leader = "a friendly leader within 6\"" if bonus else "no leader within 6\""
    base = tables.MORALE[unit.skill]
    target = base - (tables.LEADER_MORALE_BONUS if bonus else 0)
    fact["morale_target"] = target
    why = f"{unit.skill.capitalize()} morale {base}+"
    why += f", +1 per die for {why_leader} = {target}+" if bonus else f" ({why_leader})"
    for t in range(tests):
        if not unit.in_play:
            break
        fact["stage"] = "morale"
        label = f" ({t + 1} of {tests}, DZ3-R11 per casualty)" if tests > 1 else ""
        d = yield DiceRequest(f"{key}.morale.{t + 1}", unit.figures_left,
                              f"{name}: morale test{label}", target, why,
                              "DZ3 §10 / DZ3-R11", unit.side)
        ok = d.count(target) > 0
        ctx.say(f"{name} tests morale{label}: {dice_text(d, target)}: "
                f"{'passed' if ok else 'FAILED, the unit breaks and flees'}.")
        if not ok:
            unit_gone(ctx, unit, "fled")


# --- shooting -------------------------------------------------------------------


@dataclass
class Group:
    """One attack: figures firing the same weapon and profile at one target
    (DZ3-R11)."""

    weapon: str
    figures: list[str]
    target: str
    profile: int = 0
    cover: str = "open"
    fact: dict[str, Any] = field(default_factory=dict)


def weapon_carriers(unit: UnitState) -> dict[str, list[str]]:
    """weapon id -> living figure ids carrying it, in force order."""
    out: dict[str, list[str]] = {}
    for f in unit.alive_figures:
        for w in f.weapons:
            out.setdefault(w, []).append(f.id)
    return out


def profile_name(weapon_name: str, p: Profile, several: bool) -> str:
    rules = [r for r in ("strike", "short-range") if r in p.rules]
    extra = f", {', '.join(rules)}" if rules else ""
    base = f"{weapon_name} ({p.shots} {p.power}{extra})" if several else weapon_name
    return base


def shoot(ctx: Context, unit: UnitState, key: str = "shoot") -> Gen:
    """Declare every target and split, then resolve each attack (DZ3 §6)."""
    state: State = ctx.state
    side = unit.side
    name = uname(state, unit)
    weapons = state.weapons[side]
    carriers = {w: ids for w, ids in weapon_carriers(unit).items() if w in weapons}
    targets = enemies(state, unit)
    if not carriers:
        ctx.say(f"{name} has no weapons to shoot.")
        return
    if not targets:
        ctx.say(f"{name} has no enemy on the table to shoot at.")
        return
    slots = sum(len(v) for v in carriers.values())
    choices = [Choice(t.id, uname(state, t)) for t in targets]
    if slots > 1 and len(targets) > 1:
        choices.append(Choice("split", "Split fire between targets"))
    choices.append(Choice("hold", "Hold fire"))
    first = yield Question(f"{key}.target", f"{name} shoots: which target?", tuple(choices),
                           rule="DZ3 §6", side=side, default=targets[0].id)
    if first == "hold":
        ctx.say(f"{name} holds its fire.")
        return
    groups: list[Group] = []
    split = first == "split"
    if not split:
        groups = [Group(w, ids, first) for w, ids in carriers.items()]
    else:
        tchoices = tuple(Choice(t.id, uname(state, t)) for t in targets)
        for w, ids in carriers.items():
            wname = weapons[w].name
            opts = [*tchoices, Choice("hold", "Hold fire")]
            if len(ids) > 1:
                opts.append(Choice("divide", f"Divide the {len(ids)} between targets"))
            a = yield Question(f"{key}.split.{w}",
                               f"{wname} ({plural(len(ids), 'figure')}): which target?",
                               tuple(opts), rule="DZ3 §6", side=side, default=targets[0].id)
            if a == "hold":
                continue
            if a != "divide":
                groups.append(Group(w, ids, a))
                continue
            left = list(ids)
            for t in targets:
                if not left:
                    break
                n = yield Question(f"{key}.split.{w}.{t.id}",
                                   f"How many of the {len(left)} remaining {wname} shoot at "
                                   f"{uname(state, t)}?", minimum=0, maximum=len(left),
                                   rule="DZ3 §6", side=side, default=len(left))
                if n:
                    groups.append(Group(w, left[:n], t.id))
                    left = left[n:]
    # profiles (DZ3 §5: choose before rolling)
    for g in groups:
        profiles = weapons[g.weapon].profiles
        if len(profiles) > 1:
            a = yield Question(
                f"{key}.profile.{g.weapon}.{g.target}",
                f"{weapons[g.weapon].name} at {uname(state, state.unit(g.target))}: which "
                f"profile?", tuple(Choice(str(i), profile_name(weapons[g.weapon].name, p, True))
                                   for i, p in enumerate(profiles)),
                rule="DZ3 §5", side=side, default="0")
            g.profile = int(a)
    # Short Range (DZ3 §5): only at a target within 12"
    in_range: dict[str, bool] = {}
    kept = []
    for g in groups:
        p = weapons[g.weapon].profiles[g.profile]
        if p.short_range:
            if g.target not in in_range:
                in_range[g.target] = yield from ask_yes_no(
                    f"{key}.range.{g.target}", f"Is {uname(state, state.unit(g.target))} "
                    f"within {tables.SHORT_RANGE}\" of {name}?", "DZ3 §5", side)
            if not in_range[g.target]:
                wname = weapons[g.weapon].name
                tname = uname(state, state.unit(g.target))
                if split:
                    raise Refused(f"{wname} is Short Range: it can't target {tname} beyond "
                                  f"{tables.SHORT_RANGE}\" (DZ3 §5); go back and assign it "
                                  f"another target or hold it")
                ctx.say(f"{wname} is Short Range and {tname} is beyond "
                        f"{tables.SHORT_RANGE}\": it does not fire (DZ3 §5).")
                continue
        kept.append(g)
    groups = kept
    # merge identical weapon+profile+target groups (DZ3-R11 "one attack")
    merged: dict[tuple[str, int, str], Group] = {}
    for g in groups:
        k = (g.weapon, g.profile, g.target)
        if k in merged:
            merged[k].figures.extend(g.figures)
        else:
            merged[k] = g
    groups = list(merged.values())
    # cover, once per target (DZ3 §6, DZ3-R5)
    cover: dict[str, str] = {}
    for g in groups:
        if g.target not in cover:
            t = state.unit(g.target)
            cover[g.target] = yield Question(
                f"{key}.cover.{g.target}", COVER_PROMPT.format(target=uname(state, t)),
                (Choice("open", "Open"), Choice("soft", "Soft cover"),
                 Choice("hard", "Hard cover")), rule="DZ3 §6 / DZ3-R5",
                side=t.side, default="open")
        g.cover = cover[g.target]
    for g in groups:
        t = state.unit(g.target)
        p = weapons[g.weapon].profiles[g.profile]
        g.fact = new_fact("shooting", t, weapon=profile_name(
            weapons[g.weapon].name, p, len(weapons[g.weapon].profiles) > 1),
            vs_shields=tables.VS_SHIELDS[(p.power, t.shield_strength)], strike=p.strike,
            to_hit=tables.CRIPPLED_TO_HIT if unit.gun_crippled
            else tables.TO_HIT[(unit.skill, g.cover)],
            dice=len(g.figures) * p.shots)
        declare(ctx, g.fact)
    if not groups:
        ctx.say(f"{name} does not fire.")
        return
    ctx.say(f"{name} declares: " + "; ".join(
        f"{weapons[g.weapon].name} x{len(g.figures)} at "
        f"{uname(state, state.unit(g.target))} ({g.cover})" for g in groups) + " (DZ3 §6).")
    # resolve, the owner choosing the order among attacks on the same target
    pending = list(groups)
    n = 0
    while pending:
        g = pending[0]
        same = [h for h in pending if h.target == g.target]
        if len(same) > 1:
            a = yield Question(
                f"{key}.order.{n + 1}", f"Which attack on {uname(state, state.unit(g.target))} "
                "is resolved next?",
                tuple(Choice(str(pending.index(h)), f"{h.fact['weapon']} "
                             f"({plural(len(h.figures), 'figure')})") for h in same),
                rule="DZ3 §6", side=side, default=str(pending.index(same[0])))
            g = pending[int(a)]
        pending.remove(g)
        n += 1
        yield from fire(ctx, unit, g, f"{key}.{n}")
        settle_declared(ctx)


def fire(ctx: Context, unit: UnitState, g: Group, key: str) -> Gen:
    """One attack: to hit, against shields, damage, saves, casualties, morale."""
    state: State = ctx.state
    weapons = state.weapons[unit.side]
    p = weapons[g.weapon].profiles[g.profile]
    target = state.unit(g.target)
    fact = g.fact
    ctx.facts["attack"] = fact
    shooters = [f for f in g.figures if state.figure(f)[1].alive]
    wname = fact["weapon"]
    if not target.in_play:
        ctx.say(f"{wname}: {uname(state, target)} is already gone.")
        fact["stage"] = "done"
        return
    if not shooters or not unit.in_play:
        ctx.say(f"{wname}: no figure is left to fire it.")
        fact["stage"] = "done"
        return
    fact.update(shields=target.shields, figures=target.figures_left,
                own_leader=own_leader_alive(target), dice=len(shooters) * p.shots,
                stage="hit")
    to_hit = fact["to_hit"]
    why = (f"{uname(state, unit)}'s gun is crippled: hits only on 6 (DZ3 §9)"
           if unit.gun_crippled else f"{unit.skill.capitalize()} shooter, target in "
           f"{'the open' if g.cover == 'open' else g.cover + ' cover'}")
    d = yield DiceRequest(f"{key}.hit", fact["dice"], f"{wname} at {uname(state, target)}: "
                          "to hit", to_hit, why, "DZ3 §6 / DZ3-R5", unit.side)
    hits = d.count(to_hit)
    fact["hits"] = hits
    ctx.say(f"{uname(state, unit)} fires {wname} x{len(shooters)} "
            f"({plural(fact['dice'], 'shot')}) at {uname(state, target)}: "
            f"{dice_text(d, to_hit)}: {plural(hits, 'hit')}.")
    if not hits:
        fact["stage"] = "done"
        return
    vs = fact["vs_shields"]
    fact["stage"] = "shields"
    d = yield DiceRequest(f"{key}.shields", hits, f"{wname} hits against "
                          f"{uname(state, target)}'s shields", vs,
                          f"{p.power.capitalize()} weapon vs {target.shield_strength} shields",
                          "DZ3 §6", unit.side)
    damage = d.count(vs)
    fact["damage"] = damage
    ctx.say(f"Against {target.shield_strength} shields: {dice_text(d, vs)}: "
            f"{plural(damage, 'point')} of damage{' (Strike)' if p.strike else ''}.")
    cas = yield from take_damage(ctx, target, damage, p.strike, key, fact, wname, unit.id)
    yield from morale(ctx, target, cas, key, fact)
    fact["stage"] = "done"


# --- melee ----------------------------------------------------------------------


def melee(ctx: Context, unit: UnitState, key: str = "melee") -> Gen:
    """Charge / attack in contact (DZ3 §7): one target; figures x MA dice; each hit
    removes a shield, at 0 shields each hit forces a save. One-sided (DZ3-R8).

    A unit already in melee attacks only a unit it is in contact with: charging
    another enemy would be leaving melee, and a unit leaving melee may not move into
    contact that activation (DZ3 §3). The same holds for an immobilised vehicle,
    which cannot move at all (DZ3 §9; one not in contact may not Charge, see
    ``activation_refusal``). Only those units are offered, so any other answer is
    refused."""
    state: State = ctx.state
    name = uname(state, unit)
    engaged = [t for t in enemies(state, unit) if t.id in unit.engaged]
    if engaged:
        why = ("it is immobilised and can't move (DZ3 §9)" if unit.immobilised else
               "charging another enemy would mean leaving melee, and a unit leaving "
               "melee may not move into contact (DZ3 §3)")
        prompt = (f"{name} is in melee: which unit in contact does it attack? Only "
                  f"these: {why}.")
    else:
        prompt = f"{name} charges: which enemy unit does it attack (it must end in base contact)?"
    offered = engaged or enemies(state, unit)
    a = yield Question(f"{key}.target", prompt,
                       tuple(Choice(t.id, uname(state, t) + (" (in contact)" if engaged
                                                             else "")) for t in offered),
                       rule="DZ3 §7", side=unit.side, default=offered[0].id)
    target = state.unit(a)
    to_hit = (tables.CRIPPLED_TO_HIT if unit.weapon_crippled
              else tables.MELEE_TO_HIT[(unit.skill, target.skill)])
    fact = new_fact("melee", target, to_hit=to_hit,
                    dice=unit.figures_left * unit.melee_attacks)
    declare(ctx, fact)
    ctx.facts["attack"] = fact
    if target.id not in unit.engaged:
        unit.engaged.append(target.id)
    if unit.id not in target.engaged:
        target.engaged.append(unit.id)
    tname = uname(state, target)
    if not fact["dice"]:
        ctx.say(f"{name} is in contact with {tname} but has no melee attacks.")
        fact["stage"] = "done"
        return
    why = (f"{name}'s melee weapon is crippled: hits only on 6 (DZ3 §9)" if unit.weapon_crippled
           else f"{unit.skill.capitalize()} attacker vs {target.skill} defender")
    fact["stage"] = "hit"
    d = yield DiceRequest(f"{key}.hit", fact["dice"], f"{name} melee attacks on {tname}",
                          to_hit, why, "DZ3 §7", unit.side)
    hits = d.count(to_hit)
    fact["hits"] = hits
    ctx.say(f"{name} attacks {tname} in melee with {plural(fact['dice'], 'die', 'dice')}: "
            f"{dice_text(d, to_hit)}: {plural(hits, 'hit')}.")
    cas = yield from take_damage(ctx, target, hits, False, key, fact, "the melee", unit.id)
    yield from morale(ctx, target, cas, key, fact)
    fact["stage"] = "done"
