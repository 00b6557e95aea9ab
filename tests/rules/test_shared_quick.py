"""Quick resolution for every ruleset (issue 26): the plugin part (``quick.py``),
every kind reaching a result from the shipped forces, and the shared helpers that
keep it to a few keys (rules/quick.py)."""

from __future__ import annotations

import re

import pytest
from fixtures_common import answer_all
from shipped import shipped_forces

from deathzap_tui.forcefile import load_force
from deathzap_tui.rules import quick, registry
from deathzap_tui.rules.steps import ROLL, Choice, Context, Question, Refused, Resolution

PAIRS = {rid: shipped_forces(rid) for rid in registry.ids()}
"""Two shipped forces of each registered ruleset."""
CASES = [(rid, kind) for rid in registry.ids() for kind, _ in registry.get(rid).quick_kinds()]


def _forces(rid: str):
    attacker, target = (load_force(path) for path in PAIRS[rid])
    assert attacker.ruleset.id == target.ruleset.id == rid
    return attacker, target


def _first_able(rid: str, kind: str) -> Resolution:
    """The kind's resolution for the first unit of either force that may do it, at the
    first unit of the other force it may be done to."""
    one, two = _forces(rid)
    reasons = []
    for attacker, target in ((one, two), (two, one)):
        for j in range(len(target.force.units)):
            for i in range(len(attacker.force.units)):
                try:
                    return attacker.ruleset.quick_resolution(kind, (attacker.force, i),
                                                             (target.force, j), seed=5)
                except Refused as exc:
                    reasons.append(str(exc))
    raise AssertionError(f"no unit of {PAIRS[rid]} may do {kind}: {reasons}")


def test_every_ruleset_offers_quick_resolution() -> None:
    for rid in registry.ids():
        kinds = registry.get(rid).quick_kinds()
        assert kinds and all(kind and label for kind, label in kinds), rid


@pytest.mark.parametrize(("rid", "kind"), CASES)
def test_every_kind_reaches_a_result_without_asking_the_target(rid, kind) -> None:
    """Defaults and generated dice take each kind to its end; the target picked is
    never asked again, and the unit ids of the quick state are the contract's."""
    res = _first_able(rid, kind)
    state = res.ctx.state
    assert state.unit(quick.ACTING).side == "red" and state.unit(quick.OTHER).side == "black"
    seen = answer_all(res, {}, dice=ROLL)
    assert res.done and res.ctx.notes
    asked_target = [s.key for s in seen if isinstance(s, Question)
                    and quick.OTHER in {c.value for c in s.choices}
                    and "target" in s.key]
    assert asked_target == []
    shown = [n.text for n in res.ctx.notes]
    for step in seen:  # what the wizard shows of each step names no unit by its id
        shown += [getattr(step, a, "") or "" for a in ("prompt", "purpose", "why")]
        shown += [c.label + c.detail for c in getattr(step, "choices", ())]
    assert not [t for t in shown if re.search(r"\b(red|black)\.\d", t)]


@pytest.mark.parametrize("rid", sorted(PAIRS))
def test_unknown_kinds_and_missing_units_are_refused_by_name(rid) -> None:
    attacker, target = _forces(rid)
    ruleset = attacker.ruleset
    with pytest.raises(Refused, match="unknown kind 'dance'"):
        ruleset.quick_resolution("dance", (attacker.force, 0), (target.force, 0), seed=1)
    with pytest.raises(Refused, match="no unit 99"):
        ruleset.quick_resolution(ruleset.quick_kinds()[0][0], (attacker.force, 0),
                                 (target.force, 99), seed=1)
    with pytest.raises(Refused, match="pick the target"):
        ruleset.quick_resolution(ruleset.quick_kinds()[0][0], (attacker.force, 0), None,
                                 seed=1)


def _asking(*keys: str):
    def make(ctx: Context):
        for key in keys:
            ctx.facts[key] = yield Question(key, key, (Choice(quick.OTHER, "them"),
                                                       Choice("hold", "hold")),
                                            default="hold")
    return make


def test_preset_answers_the_known_questions_and_asks_the_rest() -> None:
    known = quick.at_target("shoot.target", "target.")
    res = Resolution(_State(), lambda ctx: quick.preset(_asking(
        "shoot.target", "target.gun", "cover", "targets")(ctx), known))
    assert res.step.key == "cover"  # the two target questions were answered
    res.answer("hold")
    assert res.step.key == "targets"  # a key that only begins like one is asked
    res.answer("hold")
    assert res.ctx.facts == {"shoot.target": quick.OTHER, "target.gun": quick.OTHER,
                             "cover": "hold", "targets": "hold"}


def test_preset_asks_when_the_known_answer_is_not_allowed() -> None:
    def make(ctx: Context):
        ctx.facts["a"] = yield Question("shoot.target", "?", (Choice("x", "x"),), default="x")

    res = Resolution(_State(), lambda ctx: quick.preset(make(ctx),
                                                        quick.at_target("shoot.target")))
    assert res.step.key == "shoot.target"


def test_as_they_stand_takes_one_key_for_full_strength() -> None:
    set_to: list[int] = []
    ask = Question("n", "how many?", minimum=0, maximum=5, default=5)

    def make(ctx: Context):
        ctx.facts["set"] = yield from quick.as_they_stand([(ask, set_to.append), (None, print)])

    res = Resolution(_State(), make)
    assert res.step.key == "quick.standing" and res.step.default == quick.FULL
    res.answer(quick.FULL)
    assert res.done and res.ctx.facts["set"] is False and set_to == []
    res = Resolution(_State(), make)
    res.answer(quick.SET)
    res.answer(3)
    assert res.done and set_to == [3]


def test_nothing_to_ask_asks_nothing() -> None:
    res = Resolution(_State(), lambda ctx: quick.as_they_stand([(None, print)]))
    assert res.done


class _State:
    rng = None


def test_a_quick_resolution_has_no_game_to_end() -> None:
    """A side wiped out in a quick resolution is said to be, but no game is over
    (the shared declaration, and Command Hand's own elimination, CH-R5)."""
    from deathzap_tui.rules.victory import declare

    ctx = Context(_State())
    ctx.facts[quick.OUTSIDE] = True
    declare(ctx, "red", "Black has no unit left", "CL §8")
    assert ctx.notes == [] and not hasattr(ctx.state, "over")
    attacker, target = _forces("command-hand")
    res = attacker.ruleset.quick_resolution("shoot", (attacker.force, 0), (target.force, 0),
                                            seed=1)
    answer_all(res, {"quick.standing": "set", "quick.target.shields": 0,
                     "quick.target.figures": 1, "shoot.1.damage": "3s"}, dice=ROLL)
    assert any(n.text.endswith("is wiped out.") for n in res.ctx.notes)
    assert not any("Game over" in n.text for n in res.ctx.notes)
    assert not res.ctx.state.over


@pytest.mark.parametrize("rid", sorted(PAIRS))
def test_a_unit_typed_in_is_attacked_and_attacks(rid) -> None:
    """A unit typed in (the ruleset's template, read as a file would be) resolves the
    first kind with a unit of a force file, either way round."""
    from deathzap_tui.forcefile import force_from_text

    typed = force_from_text(registry.get(rid).force_template(), "<typed>")
    shipped, _ = _forces(rid)
    kind = typed.ruleset.quick_kinds()[0][0]
    for attacker, target in ((shipped, typed), (typed, shipped)):
        for i in range(len(attacker.force.units)):
            try:
                res = typed.ruleset.quick_resolution(kind, (attacker.force, i),
                                                     (target.force, 0), seed=3)
            except Refused:
                continue
            answer_all(res, {}, dice=ROLL)
            assert res.done and res.ctx.notes
            break
        else:
            raise AssertionError(f"no unit of {attacker.force.name} may do {kind}")
