"""Shooting (CL §5, CL-R2, CL-R3) and melee (CL §6, CL-R4) in Deathzap Classic.

Three resolution fragments the turn calls:

- :func:`shoot`: one unit's fire in the simultaneous shooting phase. Hits are saved
  at once, but the failed saves only go on the target's ``pending`` count (CL-R2).
- :func:`end_of_shooting`: once everyone has fired, the pending casualties come off,
  then each unit that lost figures tests for suppression (CL §5).
- :func:`fight`: a whole melee (every unit joined to the named one by contacts),
  both sides at once, then the end-of-melee roll (CL §6, CL-R4).

Every casualty goes through :func:`.victory.casualty`, which keeps the kill counts and
scores the objectives. Whether a unit may shoot or fight is :func:`shoot_refusal` and
:func:`fight_refusal` alone; the engine asks them (through :mod:`.turn`, which adds
the phase and the side) before it starts a fragment, and the fragments trust it.

Harm for the end-of-game report (``ctx.harm``): a shooting attack's failed saves are
its damage, credited to the shooter when rolled; the casualties come off later
(CL-R2), each a kill for the unit whose attack put it on the target's ``pending``
(``pending_by``). A side's melee dice are pooled per figure type (CL §6), so its
failed saves are credited to its units in proportion to their share of its hits
(:func:`_melee_shares`, :func:`_credits`). Panic and fall-backs are not harm.

Facts for the odds panel
------------------------
``ctx.facts["attacks"]`` lists every attack declared in the resolution, in order, and
``ctx.facts["attack"]`` is the one being resolved now (the same dict, updated in
place as dice come in). ``stage`` names the roll being asked for next. Shooting, one
weapon group at one target (CL §5)::

    {"kind": "shooting", "target": "black.2", "weapon": "Basic x4",
     "dice": 4,          # guns (x6 Auto-heavy; Radius: guns x figures in the blast)
     "to_hit": 4,        # N+ by cover; 6 for a panicked shooter
     "save": 4,          # N+ by save group (CL-R3); tables.SAFE / tables.DEAD
     "figures": 6,       # the target's living figures when declared
     "pending": 1,       # casualties already pending on the target (CL-R2)
     "target_type": "beasts", "target_panicked": False,  # ends panicked (CL §4, §5)
     "stage": "declared" | "hit" | "saves" | "done",
     "hits": 3, "failed_saves": 2}   # once known

Melee, one side's attack on the other side of one melee (two facts per melee, CL §6)::

    {"kind": "melee", "target": "black.1",   # the first defending unit
     "weapon": "melee",
     "groups": [[dice, power], ...],         # the attackers per figure type
     "defenders": [[figures, save], ...],    # the defenders per figure type
     "stage": "declared" | "saves" | "done",
     "hits": 3}                              # once known
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from deathzap_tui.rules.casualties import credit, credit_kills, owe, pick_casualty, settle
from deathzap_tui.rules.classic import tables
from deathzap_tui.rules.classic.common import disengage, melees, names, uname
from deathzap_tui.rules.classic.state import FigureState, State, UnitState
from deathzap_tui.rules.classic.victory import casualty
from deathzap_tui.rules.ids import side_of
from deathzap_tui.rules.narration import Gen, dice_text, plural, side_name
from deathzap_tui.rules.ruleset import SIDES, other_side
from deathzap_tui.rules.steps import TOTAL, Choice, Context, DiceRequest, Luck, Question

COVER_WORDS = {"open": "in the open", "soft": "in soft cover", "hard": "in hard cover"}
OUT_OF_RANGE = "out"
"""Cover answer: the target is beyond this weapon's range, the guns do not fire."""


def side_order(state: State) -> tuple[str, str]:
    """The impetus side first (CL §3), Red first before any impetus roll."""
    first = state.impetus or SIDES[0]
    return first, other_side(first)


# --- casualties (shared by shooting and melee) -------------------------------------


def _figure_kind(f: FigureState) -> tuple[Any, ...]:
    """Figures alike in these are interchangeable casualties; the general is not
    like the rest (CL §1, §8 Assassinate)."""
    return f.name, f.weapons, f.general


def figure_label(state: State, f: FigureState) -> str:
    weapons = state.weapons[side_of(f.id)]
    guns = [weapons[w].name for w in f.weapons if w in weapons]
    return (f.name + (f" ({', '.join(guns)})" if guns else "")
            + (", the general" if f.general else ""))


def kill_one(ctx: Context, unit: UnitState, number: int, of: int, by: str, key: str,
             rule: str) -> Gen:
    """Casualty ``number`` of ``of`` on ``unit``: its owner picks the figure when they
    differ (CL §5), then it dies through :func:`.victory.casualty`. Returns whether a
    figure was left to remove."""
    state: State = ctx.state
    victim = yield from pick_casualty(state, unit, key, number, of, uname(state, unit), rule,
                                      _figure_kind, lambda f: figure_label(state, f),
                                      lambda f: (f.general, len(f.weapons)))
    if victim is None:
        return False
    casualty(ctx, victim.id, by)
    return True


# --- shooting (CL §5) --------------------------------------------------------------


def guns(state: State, unit: UnitState) -> dict[str, int]:
    """Weapon id -> guns carried by the unit's living figures, in force order. A
    figure listing a weapon twice carries two (CL §5: one die per gun)."""
    weapons = state.weapons[unit.side]
    return dict(Counter(w for f in unit.alive_figures for w in f.weapons if w in weapons))


def targets(state: State, unit: UnitState) -> list[UnitState]:
    """Enemy units that may be shot at: in play and not in melee (CL §5)."""
    return [u for u in state.units[other_side(unit.side)] if u.in_play and not u.engaged]


def shoot_refusal(state: State, unit_id: str) -> str:
    """Why ``unit_id`` may not shoot now ("" if it may), CL §5."""
    try:
        unit = state.unit(unit_id)
    except KeyError:
        return f"there is no unit {unit_id!r}"
    name = uname(state, unit)
    if not unit.in_play:
        return f"{name} is no longer in play"
    if unit.engaged:
        return f"{name} is in melee: units in melee cannot shoot (CL §5)"
    if not guns(state, unit):
        return f"{name} has no guns"
    if unit.shot:
        return f"{name} has already shot this turn (CL §5)"
    if not targets(state, unit):
        return "no enemy unit can be shot at: units in melee cannot be shot (CL §5)"
    return ""


@dataclass
class Attack:
    """Guns of one weapon id firing at one target (CL §5)."""

    weapon: str
    target: str
    cover: str
    fact: dict[str, Any] = field(default_factory=dict)


def shoot(ctx: Context, unit_id: str) -> Gen:
    """One unit's shooting (CL §5): every weapon group is assigned a target (or split
    between several, or held), the cover of each target is asked, then each attack
    is rolled to hit and saved by the target's owner. Failed saves wait on the
    target's ``pending`` count until :func:`end_of_shooting` (CL-R2)."""
    state: State = ctx.state
    unit = state.unit(unit_id)
    name = uname(state, unit)
    enemies = targets(state, unit)
    attacks: list[Attack] = []
    covers: dict[str, str] = {}
    for wid, count in guns(state, unit).items():
        assigned = yield from _assign(ctx, unit, wid, count, enemies)
        for tid, n in assigned:
            attack = yield from _declare(ctx, unit, wid, n, state.unit(tid), covers)
            if attack is not None:
                attacks.append(attack)
    unit.shot = True
    if not attacks:
        ctx.say(f"{name} holds its fire (CL §5).")
        return
    ctx.say(f"{name} shoots: " + "; ".join(
        f"{a.fact['weapon']} at {uname(state, state.unit(a.target))} {COVER_WORDS[a.cover]}"
        for a in attacks) + " (CL §5).")
    for n, attack in enumerate(attacks, 1):
        yield from _fire(ctx, unit, attack, f"fire.{n}")


def _assign(ctx: Context, unit: UnitState, wid: str, count: int,
            enemies: list[UnitState]) -> Gen:
    """The targets of ``count`` guns of weapon ``wid``: ``[(target id, guns), ...]``
    (CL §5: fire may be split between targets)."""
    state: State = ctx.state
    wname = state.weapons[unit.side][wid].name
    choices = [Choice(t.id, uname(state, t)) for t in enemies]
    if count > 1 and len(enemies) > 1:
        choices.append(Choice("split", f"Split the {count} guns between targets"))
    choices.append(Choice("hold", "Hold fire"))
    answer = yield Question(f"target.{wid}", f"{uname(state, unit)} fires {wname} x{count}: "
                            "at which target?", tuple(choices), rule="CL §5", side=unit.side,
                            default=enemies[0].id)
    if answer == "hold":
        return []
    if answer != "split":
        return [(answer, count)]
    out: list[tuple[str, int]] = []
    left = count
    for i, target in enumerate(enemies):
        if not left:
            break
        n = yield Question(f"split.{wid}.{target.id}", f"How many of the {left} remaining "
                           f"{wname} guns fire at {uname(state, target)}? (the rest hold or "
                           "fire at the next targets)", minimum=0, maximum=left, rule="CL §5",
                           side=unit.side, default=-(-left // (len(enemies) - i)))
        if n:
            out.append((target.id, n))
            left -= n
    return out


def _declare(ctx: Context, unit: UnitState, wid: str, n: int, target: UnitState,
             covers: dict[str, str]) -> Gen:
    """Ask the range and cover of one attack (and a Radius weapon's blast), publish
    its fact; ``None`` when the target is out of range."""
    state: State = ctx.state
    weapon = state.weapons[unit.side][wid]
    wclass = weapon.table
    tname = uname(state, target)
    label = f"{weapon.name} x{n}"
    wtext = weapon.name if weapon.name == wclass.name else f"{weapon.name} ({wclass.name})"
    cover = yield Question(
        f"cover.{wid}.{target.id}", f"{label} at {tname}: {wtext} reaches {wclass.range}\". "
        f"What cover is {tname} in? If the unit is split between covers, use the one most "
        "of its figures are in.",
        (Choice("open", "Open"), Choice("soft", "Soft cover"), Choice("hard", "Hard cover"),
         Choice(OUT_OF_RANGE, f"Out of range (beyond {wclass.range}\"): don't fire")),
        rule="CL §5", side=unit.side, default=covers.get(target.id, "open"))
    if cover == OUT_OF_RANGE:
        ctx.say(f"{label}: {tname} is beyond {wclass.range}\", the guns do not fire (CL §5).")
        return None
    covers[target.id] = cover
    dice = n * wclass.dice_per_gun
    if wclass.radius:
        living = target.figures_left
        blast = yield Question(
            f"radius.{wid}.{target.id}", f"{label} at {tname}: how many of its "
            f"{plural(living, 'figure')} are within {tables.RADIUS_INCHES}\" of the aiming "
            "point (a figure or a point on the ground)?", minimum=1, maximum=living,
            rule="CL §5", side=unit.side, default=1)
        dice *= blast
    to_hit = tables.PANICKED_TO_HIT if unit.is_panicked else wclass.to_hit[cover]
    fact = {"kind": "shooting", "target": target.id, "weapon": label, "dice": dice,
            "to_hit": to_hit, "save": wclass.save[tables.SAVE_GROUP[target.type]],
            "figures": target.figures_left, "pending": target.pending, "stage": "declared",
            "target_type": target.type, "target_panicked": target.is_panicked}
    ctx.facts.setdefault("attacks", []).append(fact)
    return Attack(wid, target.id, cover, fact)


def _fire(ctx: Context, unit: UnitState, attack: Attack, key: str) -> Gen:
    """One attack: to hit (CL §5), the target's saves (CL-R3), pending casualties
    capped at the figures not already pending (CL-R2)."""
    state: State = ctx.state
    target = state.unit(attack.target)
    wclass = state.weapons[unit.side][attack.weapon].table
    fact = attack.fact
    ctx.facts["attack"] = fact
    name, tname, label = uname(state, unit), uname(state, target), fact["weapon"]
    fact["pending"] = target.pending
    if target.pending >= target.figures_left:
        ctx.say(f"{label}: every figure of {tname} is already a casualty (CL-R2); the shots "
                "are wasted.")
        fact.update(hits=0, failed_saves=0, stage="done")
        return
    to_hit = fact["to_hit"]
    if unit.is_panicked:
        why = f"{name} is panicked: hits only on {to_hit} whatever the cover"
    else:
        why = f"{wclass.name}, target {COVER_WORDS[attack.cover]}"
    if wclass.dice_per_gun > 1:
        why += f"; {wclass.dice_per_gun} dice per gun"
    if wclass.radius:
        why += f"; one die per gun for each figure within {tables.RADIUS_INCHES}\""
    fact["stage"] = "hit"
    d = yield DiceRequest(f"{key}.hit", fact["dice"], f"{label} at {tname}: to hit", to_hit,
                          why, "CL §5", unit.side)
    hits = d.count(to_hit)
    fact.update(hits=hits, stage="saves")
    ctx.say(f"{name} fires {label} ({plural(fact['dice'], 'die', 'dice')}) at {tname}: "
            f"{dice_text(d, to_hit)}: {plural(hits, 'hit')}.")
    failed = yield from _saves(ctx, target, wclass, label, fact["save"], hits, key)
    fact.update(failed_saves=failed, stage="done")
    ctx.harm(target.id, unit.id, damage=failed)
    if not failed:
        return
    added = min(failed, target.figures_left - target.pending)
    owe(target, unit.id, added)
    extra = f" ({failed - added} more than it has figures)" if added < failed else ""
    ctx.say(f"{tname}: {plural(target.pending, 'casualty', 'casualties')} pending{extra}, "
            "removed once everyone has fired (CL-R2).")


def _saves(ctx: Context, target: UnitState, wclass: tables.WeaponClass, label: str,
           save: int, hits: int, key: str) -> Gen:
    """The target's saves against ``hits`` hits (CL §5, CL-R3): no roll without hits,
    when it is safe or when there is no save. Returns the failed saves."""
    if not hits:
        return 0
    tname = uname(ctx.state, target)
    group = tables.SAVE_GROUP_NAMES[tables.SAVE_GROUP[target.type]]
    if save == tables.SAFE:
        ctx.say(f"{tname} ({group}) is safe from {wclass.name} weapons: the hits have no "
                "effect (CL §5, CL-R3).")
        return 0
    if save == tables.DEAD:
        ctx.say(f"{tname} ({group}) has no save against {wclass.name} weapons: every hit is "
                "a casualty (CL §5, CL-R3).")
        return hits
    s = yield DiceRequest(f"{key}.save", hits, f"{tname}: saves against {label}", save,
                          f"{wclass.name} weapon against {group}: {save}+",
                          "CL §5 / CL-R3", target.side)
    failed = hits - s.count(save)
    ctx.say(f"{tname} saves: {dice_text(s, save)}: {plural(failed, 'failed save')}.")
    return failed


def end_of_shooting(ctx: Context) -> Gen:
    """CL-R2: the pending casualties come off now, the impetus side's units first, each
    side in force order, the owner picking figures that differ, each a kill for the
    unit that shot it (``pending_by``; a casualty with no recorded shooter, as when a
    state is built with ``pending`` alone, is nobody's). Each unit left with figures
    then tests for suppression (CL §5)."""
    state: State = ctx.state
    hit = [u for side in side_order(state) for u in state.units[side] if u.pending]
    if not hit:
        ctx.say("No casualties from shooting this turn.")
    for unit in hit:
        shooters = settle(unit)
        count, killed = len(shooters), 0
        for i in range(count):
            if (yield from kill_one(ctx, unit, i + 1, count, other_side(unit.side),
                                    f"casualty.{unit.id}.{i + 1}", "CL §5 / CL-R2")):
                killed += 1
        credit_kills(ctx, unit.id, shooters[:killed])
        if unit.figures_left:
            yield from suppression(ctx, unit, killed)


def suppression(ctx: Context, unit: UnitState, killed: int) -> Gen:
    """CL §5: D6 x figures left against D6 x figures killed; the unit is panicked when
    the killed product is strictly higher (equal products: not panicked). The unit
    rolls both dice: a high "left" die and a low "killed" die are good for it."""
    state: State = ctx.state
    name = uname(state, unit)
    left = unit.figures_left
    why = "the unit is panicked if the killed product is higher"
    a = yield DiceRequest(f"suppression.{unit.id}.left", 1,
                          f"{name} suppression: D6 x {plural(left, 'figure')} left", None,
                          why, "CL §5", unit.side, luck=Luck(TOTAL))
    b = yield DiceRequest(f"suppression.{unit.id}.killed", 1,
                          f"{name} suppression: D6 x {plural(killed, 'figure')} killed", None,
                          why, "CL §5", unit.side, luck=Luck(TOTAL, more=False))
    kept, lost = a.faces[0] * left, b.faces[0] * killed
    text = (f"{name} suppression: {a.faces[0]} x {left} left = {kept} against "
            f"{b.faces[0]} x {killed} killed = {lost}")
    if lost > kept:
        unit.panic(state.turn)
        ctx.say(f"{text}: the unit is panicked (CL §5).")
    else:
        ctx.say(f"{text}: it holds (CL §5).")


# --- melee (CL §6) -----------------------------------------------------------------


@dataclass(frozen=True)
class MeleeGroup:
    """Figures of one side whose pips are totalled together (CL §6): one figure type,
    or all the side's panicked figures at 1 attack, power 6 (CL §2)."""

    label: str
    members: tuple[tuple[str, int], ...]
    """(unit id, its figures) for each unit whose figures are in the group."""
    attacks: int
    power: int

    @property
    def figures(self) -> int:
        return sum(n for _, n in self.members)

    @property
    def dice(self) -> int:
        return self.figures * self.attacks


def _members(units: list[UnitState]) -> tuple[tuple[str, int], ...]:
    return tuple((u.id, u.figures_left) for u in units)


def _by_type(units: list[UnitState]) -> dict[str, list[UnitState]]:
    """Figure type -> the units of that type with figures left, in order."""
    out: dict[str, list[UnitState]] = {}
    for u in units:
        if u.figures_left:
            out.setdefault(u.type, []).append(u)
    return out


def attack_groups(state: State, units: list[UnitState]) -> list[MeleeGroup]:
    """The side's melee dice per figure type (CL §6). Panicked figures fight as the
    CL §2 "Panicked figures" row, so a side's panicked units make one group of their
    own (app ruling: pooled like any other type)."""
    steady = _by_type([u for u in units if not u.is_panicked])
    groups = [MeleeGroup(f"{tables.TYPES[t].name} ({names(state, us)})",
                         _members(us), tables.TYPES[t].melee_attacks,
                         tables.TYPES[t].melee_power) for t, us in steady.items()]
    panicked = [u for u in units if u.is_panicked and u.figures_left]
    if panicked:
        groups.append(MeleeGroup(f"Panicked figures ({names(state, panicked)})",
                                 _members(panicked),
                                 tables.PANICKED_MELEE_ATTACKS, tables.PANICKED_MELEE_POWER))
    return groups


def fight_refusal(state: State, unit_id: str) -> str:
    """Why the melee of ``unit_id`` cannot be fought now ("" if it can), CL §6."""
    try:
        unit = state.unit(unit_id)
    except KeyError:
        return f"there is no unit {unit_id!r}"
    if not unit.in_play:
        return f"{uname(state, unit)} is no longer in play"
    if not unit.engaged:
        return f"{uname(state, unit)} is not in melee (CL §6)"
    return ""


def fight(ctx: Context, unit_id: str) -> Gen:
    """The whole melee containing ``unit_id`` (CL §6): both sides roll, then both
    save, then the casualties of both come off; if both sides still stand, the
    end-of-melee roll sends the lower back, panicked (CL-R4: ties re-roll). The melee
    is over either way: every contact in it ends."""
    state: State = ctx.state
    group = next(g for g in melees(state) if any(u.id == unit_id for u in g))
    sides = {s: [u for u in group if u.side == s and u.in_play] for s in SIDES}
    order = side_order(state)
    ctx.say(f"Melee: {names(state, group)} (CL §6).")
    if all(sides.values()):
        kills = yield from _blows(ctx, sides, order)
        standing = [s for s in order if any(u.figures_left for u in sides[s])]
        if len(standing) == 2:
            yield from _end_roll(ctx, sides, kills, order)
        else:
            ctx.say("A side is wiped out: no end-of-melee roll (CL §6).")
    for unit in group:
        disengage(state, unit)
    ctx.say(f"The melee of {names(state, group)} is over.")


def _blows(ctx: Context, sides: dict[str, list[UnitState]], order: tuple[str, str]) -> Gen:
    """Both sides' dice, then both sides' saves, then all the casualties (CL §6),
    credited as harm by :func:`_melee_harm`. Returns the enemy figures each side
    killed."""
    state: State = ctx.state
    facts: dict[str, dict[str, Any]] = {}
    groups: dict[str, list[MeleeGroup]] = {}
    for s in order:
        defenders = _by_type(sides[other_side(s)])
        groups[s] = attack_groups(state, sides[s])
        facts[s] = {"kind": "melee", "target": sides[other_side(s)][0].id, "weapon": "melee",
                    "groups": [[g.dice, g.power] for g in groups[s]],
                    "defenders": [[sum(u.figures_left for u in us), tables.TYPES[t].save]
                                  for t, us in defenders.items()],
                    "stage": "declared"}
        ctx.facts.setdefault("attacks", []).append(facts[s])
    hits: dict[str, list[int]] = {}
    for s in order:
        ctx.facts["attack"] = facts[s]
        hits[s] = yield from _melee_dice(ctx, s, groups[s])
    for s in order:
        facts[s].update(hits=sum(hits[s]), stage="saves")
    failed: dict[str, dict[str, int]] = {}
    for s in order:
        ctx.facts["attack"] = facts[s]
        failed[other_side(s)] = yield from _melee_saves(ctx, other_side(s),
                                                         sides[other_side(s)], sum(hits[s]))
        facts[s]["stage"] = "done"
    kills = {s: 0 for s in SIDES}
    for s in order:
        by = other_side(s)
        dealer = _credits(_melee_shares(groups[by], hits[by]))
        for t, units in _by_type(sides[s]).items():
            lost = failed[s].get(t, 0)
            removed = yield from _melee_casualties(ctx, t, units, lost, by)
            kills[by] += len(removed)
            _melee_harm(ctx, dealer, units[0].id, lost, removed)
    return kills


def _melee_shares(groups: list[MeleeGroup], hits: list[int]) -> dict[str, Fraction]:
    """Each unit's share of its side's melee hits: ``hits[i]`` are group ``i``'s.
    CL §6 totals a group's pips before dividing by its power, so no hit is one unit's
    own: a group's hits are shared by its units in proportion to their figures (each
    figure of a group rolls the same dice)."""
    shares: dict[str, Fraction] = {}
    for group, n in zip(groups, hits, strict=True):
        for uid, figures in group.members:
            shares[uid] = shares.get(uid, Fraction(0)) + Fraction(n * figures, group.figures)
    return shares


def _credits(shares: Mapping[str, Fraction]) -> Iterator[str]:
    """Unit ids without end, dealt in proportion to ``shares`` (the Sainte-Laguë
    sequence: each next one goes to the unit with the highest share / (2 x dealt + 1),
    the first in order on a tie), so the first n of them split n as closely to the
    shares as whole numbers can. Only drawn from while the side has scored hits."""
    dealt = dict.fromkeys(shares, 0)
    while True:
        uid = max(dealt, key=lambda u: shares[u] / (2 * dealt[u] + 1))
        dealt[uid] += 1
        yield uid


def _melee_harm(ctx: Context, dealer: Iterator[str], first: str, failed: int,
                removed: list[str]) -> None:
    """Harm from one figure type's ``failed`` melee saves (CL §6): the side's hits
    were pooled and then spread over the types, so each failed save goes to the next
    attacking unit ``dealer`` names (:func:`_credits`). The ``removed`` casualties
    (their unit ids, in order) are kills as well as damage; failed saves beyond the
    type's figures are damage to its first unit (``first``)."""
    credit(ctx, ((removed[i] if i < len(removed) else first, next(dealer), 1,
                  int(i < len(removed))) for i in range(failed)))


def _melee_dice(ctx: Context, side: str, groups: list[MeleeGroup]) -> Gen:
    """CL §6: per group, total the pips and divide by its power, rounding down; the
    sum is the side's hits. Returns each group's hits."""
    scored: list[int] = []
    for n, g in enumerate(groups, 1):
        d = yield DiceRequest(
            f"melee.{side}.{n}", g.dice, f"{side_name(side)} {g.label}: melee dice", None,
            f"{plural(g.figures, 'figure')} x {plural(g.attacks, 'attack')}; the pips are "
            f"totalled and divided by power {g.power}, rounding down", "CL §6", side,
            luck=Luck(TOTAL))
        pips = sum(d.faces)
        hits = pips // g.power
        scored.append(hits)
        ctx.say(f"{side_name(side)} {g.label}: {dice_text(d)} = {pips} pips / {g.power} = "
                f"{plural(hits, 'hit')} (CL §6).")
    ctx.say(f"{side_name(side)} scores {plural(sum(scored), 'hit')} in the melee.")
    return scored


def _melee_saves(ctx: Context, side: str, units: list[UnitState], hits: int) -> Gen:
    """``side`` saves ``hits``: spread as evenly as possible over its figure types,
    the owner placing the odd hits, each saved at the type's melee save (CL §6, §2).
    Returns figure type -> failed saves (more than the type's figures, perhaps)."""
    types = _by_type(units)
    if not hits:
        return {}
    base, odd = divmod(hits, len(types))
    spread = dict.fromkeys(types, base)
    for i in range(odd):
        free = [t for t in types if spread[t] == base]
        answer = yield Question(
            f"odd.{side}.{i + 1}", f"{side_name(side)} places odd hit {i + 1} of {odd} "
            f"({plural(hits, 'hit')} over {plural(len(types), 'figure type')}): which type "
            "takes it?", tuple(Choice(t, tables.TYPES[t].name) for t in free), rule="CL §6",
            side=side, default=free[0])
        spread[answer] += 1
    if len(types) > 1:
        ctx.say(f"The {plural(hits, 'hit')} on {side_name(side)} are spread: " + ", ".join(
            f"{tables.TYPES[t].name} {n}" for t, n in spread.items()) + " (CL §6).")
    failed: dict[str, int] = {}
    for t, n in spread.items():
        if not n:
            continue
        stats = tables.TYPES[t]
        d = yield DiceRequest(f"save.{side}.{t}", n, f"{side_name(side)} {stats.name}: melee "
                              "saves", stats.save, f"{stats.name} save {stats.save}+",
                              "CL §6 / CL §2", side)
        lost = n - d.count(stats.save)
        failed[t] = lost
        ctx.say(f"{side_name(side)} {stats.name} saves {plural(n, 'hit')}: "
                f"{dice_text(d, stats.save)}: {plural(lost, 'failed save')}.")
    return failed


def _melee_casualties(ctx: Context, type_id: str, units: list[UnitState], failed: int,
                      by: str) -> Gen:
    """Remove a figure of one type per failed save, as far as it has figures; the
    owner picks the unit when the type is spread over several (CL §6), and the figure
    when they differ. Returns the unit id of each figure removed, in order."""
    state: State = ctx.state
    count = min(failed, sum(u.figures_left for u in units))
    removed: list[str] = []
    for i in range(count):
        left = [u for u in units if u.figures_left]
        unit = left[0]
        if len(left) > 1:
            answer = yield Question(
                f"casualty.{unit.side}.{type_id}.{i + 1}.unit", f"{side_name(unit.side)} "
                f"{tables.TYPES[type_id].name} casualty {i + 1} of {count}: from which unit?",
                tuple(Choice(u.id, f"{uname(state, u)} ({plural(u.figures_left, 'figure')})")
                      for u in left), rule="CL §6", side=unit.side, default=unit.id)
            unit = state.unit(answer)
        if (yield from kill_one(ctx, unit, i + 1, count, by,
                                f"casualty.{unit.side}.{type_id}.{i + 1}", "CL §6")):
            removed.append(unit.id)
    return removed


def _end_roll(ctx: Context, sides: dict[str, list[UnitState]], kills: dict[str, int],
              order: tuple[str, str]) -> Gen:
    """CL §6: each side rolls D6 x (its figures left in the melee + enemy figures it
    killed in it); the lower retreats a full move towards its base line and is
    panicked. CL-R4: equal products roll again."""
    state: State = ctx.state
    attempt = 1
    while True:
        score: dict[str, int] = {}
        for s in order:
            left = sum(u.figures_left for u in sides[s])
            factor = left + kills[s]
            d = yield DiceRequest(
                f"end.{attempt}.{s}", 1, f"End of melee: {side_name(s)}'s die", None,
                f"D6 x ({plural(left, 'figure')} left + {kills[s]} enemy killed = {factor}); "
                "the lower retreats and is panicked", "CL §6 / CL-R4", s, luck=Luck(TOTAL))
            score[s] = d.faces[0] * factor
            ctx.say(f"End of melee: {side_name(s)} rolls {d.faces[0]} x {factor} = "
                    f"{score[s]}.")
        if score[order[0]] != score[order[1]]:
            break
        ctx.say("Equal: both roll again (CL-R4).")
        attempt += 1
    loser = min(order, key=score.__getitem__)
    edge = state.edges[loser]
    for unit in sides[loser]:
        if not unit.figures_left:
            continue
        unit.panic(state.turn)
        ctx.say(f"{uname(state, unit)} loses the melee: it retreats a full move "
                f"({unit.stats.move}\") towards its base line"
                + (f" (the {edge} edge)" if edge else "") + " and is panicked (CL §6).")
