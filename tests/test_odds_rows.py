"""A ruleset's own odds rows reach every renderer with no change of theirs (issue 20,
part 2): a made-up edition subclasses the ``Odds`` core in its own package, adding
an expected value, a chance with an aside, a chart and JSON fields, or an outcomes
table instead of the casualties; ``deathzap odds`` (text and JSON) and the odds
panel (every layout) show them from the rows alone."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from deathzap_tui.app.wizard.odds import panel_text
from deathzap_tui.commands.odds import as_text
from deathzap_tui.headless.oddsview import OddsEntry
from deathzap_tui.rules.odds import Chance, Chart, Mean, Odds, Table


@dataclass(frozen=True, kw_only=True)
class PinnedOdds(Odds):
    """A made-up edition: a unit may end the attack pinned, more often in the open."""

    p_pinned: float
    p_pinned_open: float
    pins: tuple[float, ...]

    def means(self) -> tuple[Mean, ...]:
        return (*super().means(), Mean("pins", 1.25, of=3, dist=self.pins))

    def chances(self) -> tuple[Chance, ...]:
        return (*super().chances(),
                Chance("P(pinned down)", "pinned", self.p_pinned),
                Chance("P(pinned, in the open)", "in the open:", self.p_pinned_open,
                       tight="open", aside=True))

    def charts(self) -> tuple[Chart, ...]:
        return (*super().charts(), Chart("Pins", self.pins, spark=True))

    def json_extra(self) -> dict[str, Any]:
        return {"p_pinned": self.p_pinned}


@dataclass(frozen=True, kw_only=True)
class WalkerOdds(Odds):
    """A made-up edition's walker: outcomes instead of casualties."""

    def chances(self) -> tuple[Chance, ...]:
        return self.table.rows if self.table else ()

    @property
    def table(self) -> Table | None:
        return Table("Walker table:", "Walker, at least once:",
                     (Chance("  legs shot away", "legs", 0.25),
                      Chance("  toppled", "toppled", 0.125, tight="")))


PINNED = PinnedOdds(kind="shooting", figures=2, casualties=(0.5, 0.25, 0.25),
                    hits_mean=1.5, hits=(0.25, 0.5, 0.25), damage_step=False,
                    p_break=None, break_text="", p_pinned=0.375, p_pinned_open=0.625,
                    pins=(0.25, 0.375, 0.25, 0.125))
WALKER = WalkerOdds(kind="shooting", figures=1, casualties=(0.75, 0.25), shields=2,
                    hits_mean=2.0, damage_mean=1.0, shields_left=(0.5, 0.25, 0.25))


def panels(odds: Odds) -> dict[str, str]:
    entry = OddsEntry(target="red.1", label="Red Scouts", what="Carbine (shooting)",
                      odds=odds, current=True, stage="declared")
    return {"strip": panel_text([entry], full=False).plain,
            "side": panel_text([entry], full=True).plain,
            "columns": panel_text([entry], full=True, side=False, height=12,
                                  width=78).plain}


def test_a_rulesets_rows_in_the_text_and_json() -> None:
    text = as_text(PINNED, ["Red Scouts <- Carbine"])
    assert "Expected hits 1.50, pins 1.25" in text
    assert "P(pinned down)                       37.5%" in text
    assert "P(pinned, in the open)               62.5%" in text
    assert "\nPins\n" in text and "\nCasualties\n" in text
    assert "P(unit gone" in text  # the core's own rows stay
    assert PINNED.to_json()["p_pinned"] == 0.375
    assert list(PINNED.to_json())[-1] == "p_pinned"  # after the core's fields


def test_a_rulesets_rows_on_the_panel() -> None:
    shown = panels(PINNED)
    assert "pins 1.25 of 3 (0 " in shown["strip"]
    assert "pinned 38% (open 62%)" in shown["strip"]
    assert "pinned 37.5% (in the open: 62.5%)" in shown["side"]
    assert "pins 0 " in shown["side"]  # its chart drawn as a sparkline
    assert "pinned 38% (open 62%)" in shown["columns"]


def test_an_outcomes_table_takes_the_casualties_place() -> None:
    text = as_text(WALKER, ["Walker"])
    assert "Walker table:\n    legs shot away" in text and "Casualties" not in text
    assert "Expected casualties" not in text
    shown = panels(WALKER)
    assert "legs 25%" in shown["strip"] and "toppled" not in shown["strip"]
    assert "Walker, at least once:" in shown["side"] and " toppled " in shown["side"]
    assert "Walker, at least once:" in shown["columns"]
    assert all("casualties" not in s for s in shown.values())
