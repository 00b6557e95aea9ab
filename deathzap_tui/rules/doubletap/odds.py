"""Exact odds of a Double Tap attack on one unit: shooting, melee and grenades.
Pure stdlib, no I/O.

**Hits** (DT §1, §4, §6): the attacker takes one quality test per attack at its
to-hit modifier ``hit``, so its successes are ``S ~ Binomial(attacks, p(hit))``, where
``p`` is :func:`tables.p_quality` (a 6 then a 4+ at 7+ or higher, DT-R1: 1 in 12). A
target that reacts by dodging takes 2 tests, by shooting or melee 1 test, at its
modifier ``cancel_modifier``: ``C ~ Binomial(cancel_dice, p(cancel_modifier))``, each
success cancelling one of the attacker's (app reading 7), so the hits are ``H =
max(0, S - C)``. A frag grenade's ``attacks`` are the throw's 2 tests: with no
success it lands short, otherwise the unit it was thrown at (taken to be under the
blast: the players judge) takes one automatic hit, whatever the number of successes
(they only carry it, app reading 12), never cancelled (DT §6): ``H = min(S, 1)``.

**Blocks** (DT §4, app reading 8): one quality test per hit at the block modifier,
so the failed blocks are ``F | H ~ Binomial(H, 1 - p(block))``. The target is
killed if any block fails; a Tough target (DT §7) carrying ``tough`` wound markers
already is killed when ``tough + F`` reaches :data:`tables.TOUGH_WOUNDS` (one that
survived that by Regeneration keeps its markers: its next failed block kills it); with
Regeneration a kill is undone on one die's 5+ (chance 1/3).

**Morale** (DT §5): a unit hit and not killed (a regenerated one included: it is
still there) takes a quality test at ``morale``; failing, it is stunned after melee
hits, or falls back 2" after shooting or grenade hits. ``p_break`` is the chance of
that: hit, alive, test failed.

The :class:`~deathzap_tui.rules.odds.WoundsOdds` of one attack: ``figures`` 1 (a unit is
one model, DT §2), ``casualties`` ``[P(survives), P(killed)]``, ``hits`` the
distribution of ``H``, ``wounds`` the distribution of the failed blocks ``F`` (a
Tough unit's new wound markers; for any other unit one is a kill), no damage step.

Method: exact distributions in floats, no sampling; the tests check them against
enumeration of every die in exact fractions and a seeded Monte Carlo of the engine.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import InitVar, dataclass
from typing import Any

from deathzap_tui.rules.distributions import binomial_pmf, mean
from deathzap_tui.rules.doubletap import tables
from deathzap_tui.rules.doubletap.tables import NOT_TOUGH
from deathzap_tui.rules.narration import plural
from deathzap_tui.rules.odds import WoundsOdds

KINDS = ("shooting", "melee", "grenade")
STAGES = ("hit", "cancel", "block", "regeneration", "done")
"""``facts["stage"]`` of an attack: the roll asked for next (the facts format, "Facts
for the odds panel" in :mod:`.attacks`). Successes are known from "cancel" on, hits
from "block", the failed blocks from "regeneration", whether it was killed at "done"."""
CANCEL_KINDS = ("dodge", "shoot", "melee")
"""The reactions that cancel successes (DT §6, app reading 7) and their dice."""
CANCEL_DICE = {"dodge": tables.DODGE_TESTS, "shoot": tables.REACTION_ATTACKS,
               "melee": tables.REACTION_ATTACKS}
REACTION_WORDS = {"dodge": "dodging", "shoot": "shooting", "melee": "melee"}
"""How the title line names a cancelling reaction ("reacts by dodging")."""
REGENERATES = (7 - tables.REGENERATION) / 6
"""DT §7 Regeneration: a killed unit survives on one die's 5+."""
MAX_DICE = 200
"""The largest attack (or cancel) ``deathzap odds`` works out: far beyond any real
Double Tap unit (a Sword and a Knife are 6 attacks), about 10 ms on this machine; it
keeps a mistyped number from hanging the command."""
PANEL_DICE = 60
"""The largest attack the odds panel works out, its dice and the target's cancelling
tests together: the panel computes in the key handler (``headless/oddsview.py``) and one
refresh may hold several attacks (a split fire, a frag blast, reaction strikes), so
each stays well under a millisecond idle, a few loaded (``benchmarks/odds.py``);
larger: no odds shown."""

HEADS = {"shooting": "Shooting (DT §4)", "melee": "Melee (DT §4)",
         "grenade": "Frag grenade (DT §7, app reading 12)"}
"""The first line of ``deathzap odds`` by kind of attack."""

BREAKS: dict[str, dict[str, Any]] = {
    "melee": {"break_label": "stunned", "break_text": "stunned on morale",
              "break_removes": False},
    "shooting": {"break_label": "falls back", "break_text": "falls back 2\" on morale",
                 "break_removes": False},
}
"""DT §5: what a failed morale test does after melee hits, and after shooting (or
grenade) hits; the unit stays on the table either way."""

FACT_NAMES = {"attacks": "attacks", "cancel_dice": "cancel dice", "tough": "tough"}
"""How :class:`Attack` names its numbers when it refuses them: the facts' words."""
FLAGS = {"attacks": "--attacks", "cancel_dice": "--cancel-dice", "tough": "--tough"}
"""The same numbers named by ``deathzap odds``'s flags."""


@dataclass(frozen=True)
class Attack:
    """One attack on one unit, in the facts format's numbers (the modifiers are
    added to the 4+ of a quality test, DT §1). Raises ``ValueError`` for numbers it
    cannot work out, naming them by ``names`` (:data:`FACT_NAMES` by default, the
    command passes :data:`FLAGS`)."""

    kind: str = "shooting"
    attacks: int = 0
    """The attacker's dice (quality tests); a grenade's, its throw's."""
    hit: int = 0
    """The to-hit modifier (DT §4, app reading 10)."""
    block: int = 0
    """The target's block modifier (app reading 8)."""
    cancel_dice: int = 0
    """The target's cancelling tests: 2 dodging, 1 reacting by shooting or melee
    (DT §6), 0 with no such reaction."""
    cancel_modifier: int = 0
    tough: int = NOT_TOUGH
    """Wound markers already on a Tough target (0..2); :data:`NOT_TOUGH` otherwise."""
    regeneration: bool = False
    morale: int = 0
    """The target's modifier on its morale test (DT §5), -2 when flashed (DT §7)."""
    names: InitVar[Mapping[str, str] | None] = None

    def __post_init__(self, names: Mapping[str, str] | None) -> None:
        say = names or FACT_NAMES
        if self.kind not in KINDS:
            raise ValueError(f"unknown attack kind {self.kind!r}; expected one of "
                             f"{', '.join(KINDS)}")
        for key in ("attacks", "cancel_dice"):
            dice = getattr(self, key)
            if not 0 <= dice <= MAX_DICE:
                raise ValueError(f"{say[key]} {dice}: 0 to {MAX_DICE} dice (more is too "
                                 "large to work out)")
        if not NOT_TOUGH <= self.tough < tables.TOUGH_WOUNDS:
            raise ValueError(f"{say['tough']} {self.tough}: a Tough unit has 0 to "
                             f"{tables.TOUGH_WOUNDS - 1} wound markers, dead at the "
                             f"{tables.TOUGH_WOUNDS}rd (DT §7)")


# --------------------------------------------------------------------------- sums
def _point(k: int, top: int) -> list[float]:
    """``k`` for certain, as a distribution over ``0..top``."""
    return [0.0] * k + [1.0] + [0.0] * (top - k)


def successes_dist(dice: int, modifier: int) -> list[float]:
    """``Binomial(dice, p(modifier))``: the successes of ``dice`` quality tests."""
    return binomial_pmf(dice, tables.p_quality(modifier))


def hits_dist(successes: Sequence[float], cancel_dice: int = 0,
              cancel_modifier: int = 0) -> list[float]:
    """``H = max(0, S - C)`` for ``S ~ successes`` and ``C`` the successes of
    ``cancel_dice`` tests at ``cancel_modifier`` (app reading 7)."""
    out = [0.0] * len(successes)
    cancel = successes_dist(cancel_dice, cancel_modifier)
    for s, ps in enumerate(successes):
        if ps:
            for c, pc in enumerate(cancel):
                out[max(0, s - c)] += ps * pc
    return out


def failed_rows(top: int, block: int) -> list[list[float]]:
    """Row ``h`` (0..``top``, ``h + 1`` entries): the failed blocks of ``h`` hits,
    ``Binomial(h, 1 - p(block))`` (DT §4). Pascal's rule row after row: only sums of
    non-negative terms, and no binomial coefficients to work out."""
    fail = 1.0 - tables.p_quality(block)
    row = [1.0]
    rows = [row]
    for _ in range(top):
        row = [kept * (1.0 - fail) + one_more * fail
               for kept, one_more in zip([*row, 0.0], [0.0, *row], strict=True)]
        rows.append(row)
    return rows


def killed_by(failed: int, tough: int) -> bool:
    """Before Regeneration: any failed block kills (DT §4); a Tough unit dies when its
    wound markers reach :data:`tables.TOUGH_WOUNDS` (DT §7). One that survived that
    by Regeneration keeps its markers, so its next failed block kills it too."""
    return failed >= 1 and (tough == NOT_TOUGH or tough + failed >= tables.TOUGH_WOUNDS)


def kill_chance(failed: int, tough: int, regeneration: bool) -> float:
    """``P(killed | failed blocks)``: :func:`killed_by`, undone on a 5+ with
    Regeneration (DT §7)."""
    if not killed_by(failed, tough):
        return 0.0
    return 1.0 - REGENERATES if regeneration else 1.0


def _hits_of(attack: Attack, successes: list[float]) -> list[float]:
    """The hits given the distribution of the attacker's successes: cancelled by the
    target's tests (app reading 7); a grenade's 1 automatic hit if it does not land
    short, never cancelled (DT §6, app reading 12); same length as ``successes``."""
    if attack.kind != "grenade":
        return hits_dist(successes, attack.cancel_dice, attack.cancel_modifier)
    out = [0.0] * len(successes)
    out[0] = successes[0]
    if len(out) > 1:  # a throw of no dice only lands short
        out[1] = 1.0 - successes[0]
    return out


def attack_odds(attack: Attack, *, successes: int | None = None, hits: int | None = None,
                failed_blocks: int | None = None, killed: bool | None = None) -> WoundsOdds:
    """Exact odds of ``attack`` on its target, given the rolls already made: the
    attacker's ``successes`` (after its to-hit tests), the ``hits`` (after the
    cancelling tests), the ``failed_blocks`` (after the blocks) and whether it was
    ``killed`` (after Regeneration). Raises ``ValueError`` for numbers the dice
    cannot give. The blocks cost ``hits^2`` with the hits unknown, one binomial row
    with them known, nothing with the failed blocks known."""
    a = attack
    if successes is not None and not 0 <= successes <= a.attacks:
        raise ValueError(f"{successes} successes from {a.attacks} dice is impossible")
    top = a.attacks
    if hits is not None:
        most = a.attacks if successes is None else successes
        if not 0 <= hits <= most:
            raise ValueError(f"{hits} hits is impossible: at most {most}")
        hit_dist = _point(hits, top)
    elif successes is not None:
        hit_dist = _hits_of(a, _point(successes, top))
    else:
        hit_dist = _hits_of(a, successes_dist(a.attacks, a.hit))
    rows: Mapping[int, Sequence[float]]
    if failed_blocks is not None:
        if hits is None or not 0 <= failed_blocks <= hits:
            raise ValueError(f"{failed_blocks} failed blocks need at least as many hits "
                             f"known (hits: {hits})")
        rows = {hits: _point(failed_blocks, hits)}
    elif hits is not None:
        rows = {hits: binomial_pmf(hits, 1.0 - tables.p_quality(a.block))}
    else:  # up to the most hits the dice can still give
        most = max((h for h, ph in enumerate(hit_dist) if ph), default=0)
        rows = dict(enumerate(failed_rows(most, a.block)))
    kill = [kill_chance(f, a.tough, a.regeneration) for f in range(top + 1)]
    if killed is not None:
        kill = [float(killed)] * (top + 1)
    wounds = [0.0] * (top + 1)
    killed_p = []
    standing_hit = []  # P(H = h and not killed), h >= 1: the morale tests
    for h, row in rows.items():  # row: the failed blocks of h hits, 0..h
        ph = hit_dist[h]
        for f, pf in enumerate(row):
            wounds[f] += ph * pf
        killed_p.append(ph * math.fsum(pf * kill[f] for f, pf in enumerate(row)))
        if h:
            standing_hit.append(ph - killed_p[-1])
    p_kill = min(1.0, math.fsum(killed_p))
    p_break = math.fsum(standing_hit) * (1.0 - tables.p_quality(a.morale))
    return WoundsOdds(kind=a.kind, figures=1, casualties=(1.0 - p_kill, p_kill),
                hits_mean=mean(hit_dist), hits=tuple(hit_dist), damage_step=False,
                p_break=p_break, wounds=tuple(wounds),
                **BREAKS["melee" if a.kind == "melee" else "shooting"])


# --------------------------------------------------------------------------- facts
def _int(facts: Mapping[str, Any], key: str, default: int) -> int:
    value = facts.get(key)
    if value is None or isinstance(value, bool):
        return default
    return int(value)


def _cancel_of(facts: Mapping[str, Any]) -> tuple[int, int]:
    """The target's cancelling dice and their modifier; a ``"cancel"`` of kind ""
    (no reaction) cancels nothing."""
    cancel = facts.get("cancel") or {}
    if not cancel.get("kind"):
        return 0, 0
    return _int(cancel, "dice", 0), _int(cancel, "modifier", 0)


def attack_of(facts: Mapping[str, Any]) -> Attack:
    """The :class:`Attack` of an engine's ``ctx.facts["attack"]`` (the facts format,
    "Facts for the odds panel" in :mod:`.attacks`). An optional ``"morale"`` key gives
    the target's morale modifier (default 0). A Tough unit that survived its 3rd wound
    marker by Regeneration keeps its markers (DT §7): from 2 markers on any failed
    block kills, so more count as 2, which is exact."""
    cancel_dice, cancel_modifier = _cancel_of(facts)
    return Attack(kind=str(facts.get("kind") or "shooting"),
                  attacks=_int(facts, "attacks", 0), hit=_int(facts, "hit", 0),
                  block=_int(facts, "block", 0), cancel_dice=cancel_dice,
                  cancel_modifier=cancel_modifier,
                  tough=min(_int(facts, "tough", NOT_TOUGH), tables.TOUGH_WOUNDS - 1),
                  regeneration=bool(facts.get("regeneration")),
                  morale=_int(facts, "morale", 0))


def odds_from_facts(facts: Mapping[str, Any]) -> WoundsOdds | None:
    """Odds from the engine's ``ctx.facts["attack"]``, conditioned on the rolls before
    its ``stage`` (:data:`STAGES`): ``successes`` from "cancel" on, ``hits`` from
    "block", ``failed_blocks`` from "regeneration", ``killed`` at "done". ``None``
    beyond :data:`PANEL_DICE` dice (the panel computes in the key handler)."""
    if _int(facts, "attacks", 0) + _cancel_of(facts)[0] > PANEL_DICE:
        return None
    stage = facts.get("stage") or STAGES[0]
    if stage not in STAGES:
        raise ValueError(f"unknown stage {stage!r}; expected one of {STAGES}")
    at = STAGES.index(stage)

    def known(key: str, from_stage: str) -> int | None:
        value = facts.get(key)
        return int(value) if at >= STAGES.index(from_stage) and value is not None else None

    killed = facts.get("killed") if stage == "done" else None
    return attack_odds(attack_of(facts), successes=known("successes", "cancel"),
                       hits=known("hits", "block"),
                       failed_blocks=known("failed_blocks", "regeneration"),
                       killed=None if killed is None else bool(killed))


# --------------------------------------------------------------------------- words
def modifier_words(modifier: int) -> str:
    """``+1: needs 3+``, ``-3: needs 7+ (a 6, then 4+)``, ``-4: needs 8+ (a 6, then
    4+)`` (DT-R1): the modifier, then what a test at it needs
    (:func:`tables.need_text`)."""
    return f"{modifier:+d}: needs {tables.need_text(modifier)}"


def _why(parts: Sequence[str]) -> str:
    """The modifier's parts after the number needed: " — Rifle at 20\" +1, cover -1"."""
    return f" — {', '.join(parts)}" if parts else ""


def attack_lines(attack: Attack, head: str, *, reaction: str = "",
                 why: Mapping[str, Sequence[str]] | None = None) -> list[str]:
    """The title lines of ``deathzap odds``: what attacks, how the target cancels and
    blocks, and what the wounds are; ``why`` gives the parts of the "hit", "cancel"
    and "block" modifiers in words."""
    a = attack
    why = why or {}
    lines = [head, f"  {plural(a.attacks, 'attack')} at {modifier_words(a.hit)}"
             f"{_why(why.get('hit', ()))}"]
    if a.kind == "grenade":
        lines.append("  No success: it lands short; else one automatic hit on the target "
                     "under the blast, never cancelled (DT §6, app reading 12)")
    elif a.cancel_dice:
        what = f"reacts by {reaction}, " if reaction else ""
        lines.append(f"  Target {what}{plural(a.cancel_dice, 'test')} at "
                     f"{modifier_words(a.cancel_modifier)}{_why(why.get('cancel', ()))}; "
                     "each success cancels one (DT §6, app reading 7)")
    lines.append(f"  Blocks at {modifier_words(a.block)}{_why(why.get('block', ()))}; "
                 "any failure kills (DT §4)")
    if a.tough != NOT_TOUGH:
        lines.append(f"  Tough with {plural(a.tough, 'wound marker')}: killed at the "
                     f"{tables.TOUGH_WOUNDS}rd (DT §7)")
    if a.regeneration:
        lines.append(f"  Regeneration: a kill is undone on {tables.REGENERATION}+ (DT §7)")
    lines.append(f"  Morale at {modifier_words(a.morale)}, if hit and not killed (DT §5)")
    lines.append("  Wounds are failed blocks; a casualty is the model killed")
    return lines


def attack_case(attack: Attack, head: str, *, reaction: str = "",
                why: Mapping[str, Sequence[str]] | None = None) -> tuple[WoundsOdds, list[str]]:
    """``deathzap odds``: the odds of ``attack`` and their title lines."""
    return attack_odds(attack), attack_lines(attack, head, reaction=reaction, why=why)


# --------------------------------------------------------------------------- force files
SHOOTING_ONLY = ("distance", "cover", "down", "engineer", "spotted")
"""Settings of a shot's to-hit roll (DT §4, app reading 10): refused in melee and with
a grenade."""
WHO = ("attacker", "target", "both")
"""Choices of ``--hacked`` and ``--flashed``: the units it applies to."""


def kind_of(settings: Mapping[str, Any]) -> str:
    """The attack ``deathzap odds`` works out: ``--melee``, ``--grenade`` or else
    shooting (DT §4, §7); refuses both flags at once."""
    if settings.get("melee") and settings.get("grenade"):
        raise ValueError("--melee or --grenade: one attack at a time")
    return "melee" if settings.get("melee") else (
        "grenade" if settings.get("grenade") else "shooting")


def _on(settings: Mapping[str, Any], key: str, who: str) -> bool:
    """Whether ``--hacked`` / ``--flashed`` (``key``) names ``who``."""
    return settings.get(key) in (who, "both")


def _ranged(unit: Any) -> list[str]:
    return [w for w in dict.fromkeys(unit.weapons) if not tables.WEAPONS[w].melee]


def _shooting_weapon(unit: Any, chosen: Sequence[str]) -> tables.Weapon:
    """The one weapon of a shooting action (DT §4): ``--weapons ID``, else the unit's
    only ranged weapon."""
    ranged = _ranged(unit)
    if len(chosen) > 1:
        raise ValueError("--weapons: one weapon per shooting action (DT §4); give one id")
    if chosen:
        wid = chosen[0]
        if wid not in unit.weapons:
            raise ValueError(f"unit {unit.name!r} carries no weapon {wid!r}; it carries: "
                             f"{', '.join(unit.weapons)}")
        if tables.WEAPONS[wid].melee:
            raise ValueError(f"--weapons {wid}: a melee weapon; add --melee (DT §4)")
        return tables.WEAPONS[wid]
    if not ranged:
        raise ValueError(f"{unit.name} carries no ranged weapon: add --melee or "
                         "--grenade (DT §4)")
    if len(ranged) > 1:
        raise ValueError(f"{unit.name} carries {', '.join(ranged)}: pick one with "
                         "--weapons ID (DT §4: one weapon per shooting action)")
    return tables.WEAPONS[ranged[0]]


def _hit(aunit: Any, settings: Mapping[str, Any], kind: str
         ) -> tuple[int, int, list[str]]:
    """The attacks, the to-hit modifier and its parts in words (DT §4, §7, app
    readings 10-12)."""
    parts: list[str] = []
    band = 0
    if kind == "grenade":  # the throw (app reading 12)
        if not aunit.has("grenade"):
            raise ValueError(f"{aunit.name} has no Grenade (DT §7)")
        attacks = tables.GRENADE_ATTACKS
    elif kind == "melee":
        melee = [w for w in aunit.weapons if tables.WEAPONS[w].melee]
        attacks = sum(tables.WEAPONS[w].attacks for w in melee)  # app reading 11
        parts.append(" + ".join(tables.WEAPONS[w].name for w in melee)
                     + " (all melee weapons, app reading 11)")
    else:
        weapon = _shooting_weapon(aunit, settings.get("weapons") or ())
        if settings.get("distance") is None:
            raise ValueError("missing --distance: inches to the target, for the weapon's "
                             "range bands (DT-R2)")
        distance = int(settings["distance"])
        found = weapon.modifier(distance)
        if found is None:
            raise ValueError(f"{weapon.name} reaches {weapon.max_range}\", not {distance}\" "
                             "(DT-R2)")
        band, attacks = found, weapon.attacks
        parts.append(f"{weapon.name} at {distance}\" {band:+d} (DT-R2)")
    mods = [(settings.get("cover"), tables.COVER, "cover"),
            (settings.get("down"), tables.ELEVATION, "shooting down"),
            (settings.get("engineer"), tables.ENGINEER, "Engineer"),
            (settings.get("spotted"), tables.SPOTTED, "spotted"),
            (_on(settings, "hacked", "attacker"), tables.HACKED, "hacked"),
            (_on(settings, "flashed", "attacker"), tables.FLASH_MODIFIER, "flashed")]
    hit = band + sum(m for on, m, _ in mods if on)
    parts += [f"{name} {m:+d}" for on, m, name in mods if on]
    return attacks, hit, parts


def _cancel(aunit: Any, tunit: Any, settings: Mapping[str, Any], kind: str
            ) -> tuple[str, int, list[str]]:
    """The target's cancelling reaction (DT §6, §7, app reading 7): its kind, its
    modifier and the modifier's parts."""
    react = settings.get("react") or ("dodge" if settings.get("dodge") else "")
    if settings.get("dodge") and react != "dodge":
        raise ValueError(f"--dodge and --react {react}: one reaction per enemy action "
                         "(DT-R3)")
    if not react:
        for key in ("camo", "react_cover"):
            if settings.get(key):
                raise ValueError(f"--{key.replace('_', '-')} is about the target's "
                                 "reaction: add --react (or --dodge)")
        return "", 0, []
    if kind == "grenade":
        raise ValueError("grenade successes are never cancelled (DT §6): leave out "
                         "--react/--dodge")
    answers = "shooting" if react == "shoot" else "melee"
    if react != "dodge" and kind != answers:
        raise ValueError(f"--react {react}: cancels a {answers} attack only (DT §6)")
    if settings.get("react_cover") and react != "shoot":
        raise ValueError("--react-cover is for --react shoot")
    parts, modifier = [], 0
    if react == "shoot":  # its best ranged weapon that reaches (DT-R2)
        distance = int(settings["distance"])
        bands = [(band, w.name) for w in map(tables.WEAPONS.get, _ranged(tunit))
                 if w is not None and (band := w.modifier(distance)) is not None]
        if not bands:
            raise ValueError(f"{tunit.name} has no ranged weapon reaching {distance}\": "
                             "it cannot react by shooting (DT §6, DT-R2)")
        band, name = max(bands)
        modifier += band
        parts.append(f"{name} {band:+d}")
    if settings.get("camo"):
        if not aunit.has("camouflage"):
            raise ValueError(f"--camo: {aunit.name} has no Camouflage (DT §7)")
        modifier += tables.CAMO_REACTION
        parts.append(f"camouflaged attacker {tables.CAMO_REACTION:+d}")
    extra = [(settings.get("react_cover"), tables.COVER, "attacker in cover"),
             (react != "dodge" and _on(settings, "hacked", "target"), tables.HACKED,
              "hacked"),
             (_on(settings, "flashed", "target"), tables.FLASH_MODIFIER, "flashed")]
    modifier += sum(m for on, m, _ in extra if on)
    parts += [f"{name} {m:+d}" for on, m, name in extra if on]
    return react, modifier, parts


def _block(aunit: Any, tunit: Any, settings: Mapping[str, Any], kind: str, react: str
           ) -> tuple[int, list[str]]:
    """The target's block modifier and its parts (app reading 8). A hack is used up by
    the target's own reaction attack, if it makes one (DT §7: its next attack or
    block)."""
    shot = kind == "shooting"
    mods = [(tunit.has("armored"), tables.ARMORED, "Armored"),
            (settings.get("doctor"), tables.DOCTOR, "Doctor"),
            (shot and aunit.has("fire-ammo"), tables.FIRE_AMMO, "Fire Ammo"),
            (shot and aunit.has("piercing-ammo"), tables.PIERCING_AMMO, "Piercing Ammo"),
            (react in ("", "dodge") and _on(settings, "hacked", "target"), tables.HACKED,
             "hacked"),
            (_on(settings, "flashed", "target"), tables.FLASH_MODIFIER, "flashed")]
    return (sum(m for on, m, _ in mods if on),
            [f"{name} {m:+d}" for on, m, name in mods if on])


def _has_other(force: Any, unit: Any, rule: str) -> bool:
    return any(u.has(rule) and u is not unit for u in force.units)


def _check_helpers(attacker: tuple[Any, Any], target: tuple[Any, Any],
                   settings: Mapping[str, Any]) -> None:
    """Refuse a helper the forces do not have (app readings 8, 10): an Engineer or a
    Spotter on the attacker's side, a Doctor on the target's, a Hacker on the side
    of the unit it hacked."""
    (aforce, aunit), (tforce, tunit) = attacker, target
    wants = [("engineer", aforce, aunit, "engineer", "the attacker's"),
             ("spotted", aforce, None, "spotter", "the attacker's"),
             ("doctor", tforce, tunit, "doctor", "the target's")]
    for key, force, unit, rule, side in wants:
        if settings.get(key) and not _has_other(force, unit, rule):
            raise ValueError(f"--{key}: {side} force has no other unit with "
                             f"{tables.SPECIAL_RULES[rule].name} (DT §7)")
    for who, force in (("attacker", tforce), ("target", aforce)):
        if _on(settings, "hacked", who) and not _has_other(force, None, "hacker"):
            raise ValueError(f"--hacked {settings['hacked']}: no Hacker on the other side "
                             f"of the {who} (DT §7)")


def odds_cli(attacker: tuple[Any, Any], target: tuple[Any, Any],
             settings: Mapping[str, Any]) -> tuple[WoundsOdds, list[str]]:
    """``deathzap odds --attacker FILE:UNIT --target FILE:UNIT`` for Double Tap forces
    (see ``Ruleset.odds_cli`` and ``oddscli`` for the flags): shooting with one weapon
    (DT §4, app reading 10), ``melee`` with all melee weapons (app reading 11) or
    ``grenade`` (DT §7: frag, the target under the blast); the target's reaction
    (``react``/``dodge``), its Armored, Tough and Regeneration from its file. Raises
    ``ValueError`` saying what is wrong."""
    _aforce, aunit = attacker
    _tforce, tunit = target
    kind = kind_of(settings)
    if kind != "shooting":
        given = [f"--{k}" for k in (*SHOOTING_ONLY, "weapons") if settings.get(k)]
        if given:
            raise ValueError(f"{', '.join(given)} {'is' if len(given) == 1 else 'are'} for "
                             f"shooting, not {kind} (DT §4); leave "
                             f"{'it' if len(given) == 1 else 'them'} out")
    tough = settings.get("tough")
    if tough is not None and not tunit.has("tough"):
        raise ValueError(f"--tough: {tunit.name} is not Tough (DT §7)")
    _check_helpers(attacker, target, settings)
    attacks, hit, hit_parts = _hit(aunit, settings, kind)
    react, cancel_modifier, cancel_parts = _cancel(aunit, tunit, settings, kind)
    block, block_parts = _block(aunit, tunit, settings, kind, react)
    flashed = _on(settings, "flashed", "target")
    attack = Attack(kind=kind, attacks=attacks, hit=hit, block=block,
                    cancel_dice=CANCEL_DICE[react] if react else 0,
                    cancel_modifier=cancel_modifier,
                    tough=(int(tough or 0) if tunit.has("tough") else NOT_TOUGH),
                    regeneration=tunit.has("regeneration"),
                    morale=tables.FLASH_MODIFIER if flashed else 0, names=FLAGS)
    return attack_case(attack, f"{HEADS[kind]}: {aunit.name} at {tunit.name}",
                       reaction=REACTION_WORDS.get(react, ""),
                       why={"hit": hit_parts, "cancel": cancel_parts, "block": block_parts})

