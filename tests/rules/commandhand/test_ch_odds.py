"""Exact odds for Command Hand shooting and melee (CH §3.5, §4, §5), checked against
an independent enumeration in exact fractions."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from ch_fixtures import activate, cinders, draw, pass_window, rangers, ready_game

from deathzap_tui.rules.commandhand import odds
from deathzap_tui.rules.commandhand.odds import Attack, Target, attack_odds

SIXTH = Fraction(1, 6)


def one_die(target: int, aimed: bool, explosive: bool) -> dict[int, Fraction]:
    """Damage of one die by enumerating faces (re-roll a 1 once when aimed)."""
    out: dict[int, Fraction] = {}

    def success(p: Fraction) -> None:
        if explosive:
            for e in range(1, 7):
                out[e] = out.get(e, 0) + p * SIXTH
        else:
            out[1] = out.get(1, 0) + p

    for f in range(1, 7):
        if f >= target:
            success(SIXTH)
        elif aimed and f == 1:
            for g in range(1, 7):
                if g >= target:
                    success(SIXTH * SIXTH)
                else:
                    out[0] = out.get(0, 0) + SIXTH * SIXTH
        else:
            out[0] = out.get(0, 0) + SIXTH
    return out


def exact(attacks: list[Attack], shields: int, figures: int):
    total = {0: Fraction(1)}
    for a in attacks:
        die = one_die(a.to_damage, a.aimed, a.explosive)
        for _ in range(a.dice):
            new: dict[int, Fraction] = {}
            for (x, p), (y, q) in itertools.product(total.items(), die.items()):
                new[x + y] = new.get(x + y, 0) + p * q
            total = new
    sl = [Fraction(0)] * (shields + 1)
    cas = [Fraction(0)] * (figures + 1)
    for d, p in total.items():
        sl[max(shields - d, 0)] += p
        cas[min(figures, max(d - shields, 0))] += p
    mean = sum(d * p for d, p in total.items())
    return sl, cas, mean


CASES = [
    ([Attack(3, 4)], 2, 3),
    ([Attack(4, 5, aimed=True)], 1, 4),
    ([Attack(2, 4, explosive=True)], 3, 5),
    ([Attack(3, 6, aimed=True, explosive=True)], 2, 2),
    ([Attack(2, 3), Attack(2, 5, aimed=True, explosive=True)], 4, 3),
    ([Attack(6, 3, kind="melee")], 0, 4),
    ([Attack(0, 4)], 2, 2),
]


@pytest.mark.parametrize(("attacks", "shields", "figures"), CASES)
def test_matches_exact_enumeration_ch_s4(attacks, shields, figures) -> None:
    o = attack_odds(attacks, Target(shields, figures))
    sl, cas, mean = exact(attacks, shields, figures)
    assert o.shields_left == pytest.approx([float(x) for x in sl], abs=1e-12)
    assert o.casualties == pytest.approx([float(x) for x in cas], abs=1e-12)
    assert o.damage_mean == pytest.approx(float(mean), abs=1e-12)
    assert sum(o.casualties) == pytest.approx(1.0, abs=1e-12)
    assert o.p_break is None  # no morale in this edition


def test_aimed_rerolls_ones_once_ch_s3_5() -> None:
    assert Attack(1, 4, aimed=True).p_success == pytest.approx(0.5 + 0.5 / 6)
    assert Attack(1, 6, aimed=True).p_success == pytest.approx(1 / 6 + 1 / 36)
    assert Attack(1, 4).p_success == pytest.approx(0.5)


def test_known_successes_and_damage() -> None:
    a = Attack(4, 4, explosive=True)
    o = attack_odds(a, Target(2, 3), successes=1)
    _sl, cas, _ = exact([Attack(1, 1, explosive=True)], 2, 3)  # one certain success
    assert o.casualties == pytest.approx([float(x) for x in cas], abs=1e-12)
    o = attack_odds(a, Target(2, 3), damage=4)
    assert o.casualties == (0.0, 0.0, 1.0, 0.0) and o.shields_left == (1.0, 0.0, 0.0)
    with pytest.raises(ValueError):
        attack_odds(a, Target(2, 3), successes=5)


def test_force_helpers_ch_s4_s5() -> None:
    red, black = rangers(), cinders()
    mortar = red.units[2]
    near = odds.shooting_attacks(red, mortar, "open", "near")
    far = odds.shooting_attacks(red, mortar, "soft", "far", aimed=True)
    assert [(a.label, a.dice, a.to_damage) for a in near] == [("Mortar", 0, 4),
                                                               ("Carbine", 4, 4)]
    assert [(a.dice, a.explosive, a.aimed) for a in far] == [(1, True, True),
                                                             (2, False, True)]
    m = odds.melee_attack(black.units[1])
    assert (m.dice, m.to_damage, m.kind) == (12, 3, "melee")
    t = odds.target_from_unit(red.units[0])
    assert (t.shields, t.figures) == (3, 5)
    with pytest.raises(ValueError, match="range band"):
        odds.shooting_attacks(red, mortar, "open", "long")


def test_odds_from_the_engines_facts() -> None:
    g = ready_game()
    deck = g.state.deck
    low_red = next(c for c in deck if c[-1] in "HD" and c[:-1] in "2345678")
    low_black = [c for c in deck if c[-1] in "CS" and c[:-1] in "2345678"]
    draw(g, low_red)
    pass_window(g)
    activate(g, "red.0", "run")
    draw(g, low_black[0])
    pass_window(g)
    activate(g, "black.0", "run")
    draw(g, "JOKER1")
    draw(g, low_black[1])
    pass_window(g)
    res = g.begin({"type": "activate", "unit": "black.0", "action": "walk-shoot"}).resolution
    for a in ("red.0", "near", "soft"):
        res.answer(a)
    fact = res.ctx.facts["attack"]
    assert fact["kind"] == "shooting" and fact["stage"] == "declared"
    o = odds.odds_from_facts(fact)
    assert (o.figures, o.shields) == (5, 3)
    assert o.hits_mean == pytest.approx(fact["dice"] * (3 / 6))  # scattergun, soft 4+
    res.answer("4 4 4 1 1 1 1 1 1 1 1 1")
    fact = res.ctx.facts["attack"]
    assert fact["stage"] == "done" and fact["damage"] == 3
    assert odds.odds_from_facts(fact).shields_left == (1.0, 0.0, 0.0, 0.0)


def test_ruleset_odds_hooks_for_the_panel_and_the_cli() -> None:
    from deathzap_tui.rules.commandhand import RULESET

    red, black = rangers(), cinders()
    o, title = RULESET.odds_cli((red, red.units[2]), (black, black.units[2]),
                                {"cover": "soft", "range": "far", "aimed": True})
    expected = attack_odds([Attack(1, 4, aimed=True, explosive=True),
                            Attack(2, 5, aimed=True)], Target(3, 3))
    assert o == expected and "beyond 12\"" in title[0]
    o, title = RULESET.odds_cli((black, black.units[1]), (red, red.units[0]),
                                {"melee": True, "shields": 0, "figures": 2})
    assert o == attack_odds(Attack(12, 3, kind="melee"), Target(0, 2))
    with pytest.raises(ValueError, match="cover"):
        RULESET.odds_cli((red, red.units[0]), (black, black.units[0]), {})
    fact = {"kind": "melee", "dice": 4, "to_damage": 4, "shields": 1, "figures": 2,
            "stage": "declared"}
    assert RULESET.attack_odds(None, fact) == attack_odds(Attack(4, 4, kind="melee"),
                                                          Target(1, 2))


def test_deathzap_odds_command_for_command_hand_forces(capsys) -> None:
    import json
    from pathlib import Path

    from deathzap_tui.cli import main

    forces = Path(__file__).resolve().parents[3] / "forces"
    red, black = forces / "ch-ironbark-rangers.toml", forces / "ch-cinder-collective.toml"
    args = ["odds", "--attacker", f"{red}:Mortar Team", "--target", f"{black}:Grenadiers",
            "--cover", "soft", "--range", "far", "--aimed"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "Explosive" in out and "Expected casualties" in out
    assert main([*args, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    expected = attack_odds([Attack(1, 4, aimed=True, explosive=True),
                            Attack(2, 5, aimed=True)], Target(3, 3))
    assert data["casualties"] == pytest.approx(list(expected.casualties))
    assert main(["odds", "--attacker", f"{black}:2", "--target", f"{red}:1", "--melee"]) == 0
    assert "12 dice at 3+" in capsys.readouterr().out
    assert main(["odds", "--attacker", f"{black}:2", "--target",
                 f"{forces / 'mortans-men.toml'}:1", "--melee"]) == 2
    assert "command-hand force" in capsys.readouterr().err
