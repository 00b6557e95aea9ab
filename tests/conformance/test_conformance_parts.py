"""The parts a plugin provides are declared and checked when it is registered
(issue 20): every registered ruleset's declaration matches its package, and a
misspelt, missing or undeclared part fails at start-up naming it."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from deathzap_tui.rules import registry
from deathzap_tui.rules.problems import Problem
from deathzap_tui.rules.ruleset import OPTIONAL_PARTS, PackageRuleset, PluginError


def test_every_declared_part_is_there_and_every_part_there_is_declared(
        ruleset_id: str) -> None:
    rules = registry.get(ruleset_id)
    assert rules.id == ruleset_id
    if isinstance(rules, PackageRuleset):
        rules.check_parts(deep=True)


def _plugin(parts: set[str], package: str = "deathzap_tui.rules.classic") -> PackageRuleset:
    class Plugin(PackageRuleset):
        id = "probe"
        title = "Probe"

    Plugin.package = package
    Plugin.parts = frozenset(parts)
    return Plugin()


def _classic_parts() -> set[str]:
    rules = registry.get("classic")
    assert isinstance(rules, PackageRuleset)
    return set(rules.parts)


def test_a_misspelt_part_fails_naming_it() -> None:
    with pytest.raises(PluginError, match="qiuck"):
        _plugin(_classic_parts() - {"quick"} | {"qiuck"}).check_parts()


def test_a_part_left_undeclared_fails_naming_its_module() -> None:
    with pytest.raises(PluginError, match=r"classic\.quick exists.*quick"):
        _plugin(_classic_parts() - {"quick"}).check_parts()


def test_an_undeclared_name_in_a_declared_module_fails_the_deep_check() -> None:
    plugin = _plugin(_classic_parts() - {"force_counts"})
    plugin.check_parts()  # start-up only looks for the modules
    with pytest.raises(PluginError, match="force_counts"):
        plugin.check_parts(deep=True)


def test_a_declared_part_without_its_module_fails_naming_both() -> None:
    parts = _classic_parts() | {"points"}
    with pytest.raises(PluginError, match=r"'points'.*classic\.points"):
        _plugin(parts).check_parts()


def test_a_required_part_is_needed_unless_the_class_writes_it_out(tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    pkg = tmp_path / "halfplugin"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    monkeypatch.syspath_prepend(str(tmp_path))
    plugin = _plugin(set(), package="halfplugin")
    plugin.check_parts()  # start-up looks only at the optional parts
    with pytest.raises(PluginError, match=r"'force' needs module halfplugin\.force"):
        plugin.check_parts(deep=True)

    class WritesOut(type(plugin)):  # type: ignore[misc]
        def parse_force(self, data: Mapping[str, Any]) -> Any:
            return data

        def force_warnings(self, force: Any) -> list[Problem]:
            return []

    with pytest.raises(PluginError, match=r"'options' needs module halfplugin\.options"):
        WritesOut().check_parts(deep=True)


def test_registering_checks_the_plugin(monkeypatch: pytest.MonkeyPatch) -> None:
    broken = _plugin(_classic_parts() | {"pionts"})
    broken.id = "classic"
    monkeypatch.setattr("deathzap_tui.rules.classic.RULESET", broken)
    monkeypatch.setattr(registry, "_checked", set())
    with pytest.raises(PluginError, match="pionts"):
        registry.get("classic")


def test_registering_refuses_a_module_of_another_id(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry._PLUGINS, "klassik", "deathzap_tui.rules.classic")
    with pytest.raises(TypeError, match="has id 'classic', registered as 'klassik'"):
        registry.get("klassik")


def test_an_undeclared_part_is_off_and_an_unknown_one_is_refused() -> None:
    plugin = _plugin(_classic_parts() - {"odds"} - {"odds_arguments", "odds_numbers"})
    assert plugin.optional_part("odds") is None
    assert plugin.attack_odds(None, {}) is None
    with pytest.raises(PluginError, match="oods"):
        plugin.optional_part("oods")
    assert set(OPTIONAL_PARTS) >= _classic_parts()
