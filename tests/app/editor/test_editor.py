"""Issue 14: the force editor, driven by keys.

Forces are built from empty for each ruleset with points, the displayed total is
compared with the ruleset's points of the saved file and ``deathzap check`` must
accept it; typed text that is not a value is kept; leaving and saving ask when they
should; shipped forces round-trip byte for byte.
"""

from __future__ import annotations

import difflib
import shutil
from pathlib import Path
from typing import Any

import pytest
from app_helpers import aiotest
from editor_helpers import SIZE, demo, editing, keys
from textual.widgets import Input

from deathzap_tui import forceoutline as eo
from deathzap_tui.app.app import DeathzapApp, Launch
from deathzap_tui.app.common.dialogs import AskScreen, PickScreen, PromptScreen
from deathzap_tui.app.editor import editor as editor_module
from deathzap_tui.app.editor.app import EditorApp
from deathzap_tui.app.editor.editor import (
    NARROW,
    SLOW_CHECK,
    EditorScreen,
    FieldInput,
    template_of,
)
from deathzap_tui.app.start.start import StartScreen
from deathzap_tui.cli import main
from deathzap_tui.forcedoc import ForceDocument
from deathzap_tui.forcefile import load_force
from deathzap_tui.paths import PROJECT_ROOT
from deathzap_tui.rules import registry

SHIPPED = sorted((PROJECT_ROOT / "forces").glob("*.toml"))


def shown_total(screen: EditorScreen) -> int | None:
    """The total on the points panel, as the player reads it."""
    for line in str(screen.query_one("#points").render()).splitlines():
        if line.startswith("Total"):
            return int(line.split()[-1])
    return None


def checked(path: Path, capsys: Any) -> tuple[int, str]:
    status = main(["check", str(path)])
    return status, capsys.readouterr().out


# --- from empty, by keys: the rulesets with points ----------------------------------


async def build_deathzap3(pilot: Any, screen: EditorScreen) -> list[int | None]:
    """A weapon (the template's gun), a unit, a figure; the unit's move typed (DZ3's
    points grow with move, DZ3 §11)."""
    totals = []
    await keys(pilot, "down", "a")                   # weapons: add -> its id
    assert isinstance(pilot.app.screen, PromptScreen)
    await keys(pilot, "enter")                       # "gun"
    await keys(pilot, "down", "a")                   # units: add the template's unit
    totals.append(shown_total(screen))
    await keys(pilot, "enter", "tab", "tab", "8")    # name -> skill -> move: 8
    assert screen.doc.get("units[0].move") == 8
    totals.append(shown_total(screen))
    await keys(pilot, "escape", "down", "a")         # figures: add one
    totals.append(shown_total(screen))
    return totals


async def build_plasmashok(pilot: Any, screen: EditorScreen) -> list[int | None]:
    """A unit, its base cost typed (PS §9), then a figure of two carrying a heavy
    weapon (at most 2 models of infantry carry one, PS §9)."""
    totals = []
    await keys(pilot, "down", "a")
    totals.append(shown_total(screen))
    await keys(pilot, "enter", "tab", "tab", "tab", "7")  # name, type, training, base_cost
    assert screen.doc.get("units[0].base_cost") == 7
    totals.append(shown_total(screen))
    await keys(pilot, "escape", "down", "a", "enter", "tab", "2", "tab", *"heavy-weapon")
    assert screen.doc.get("units[0].figures[1]") == {
        "name": "Trooper 2", "count": 2, "weapons": ["heavy-weapon"]}
    totals.append(shown_total(screen))
    return totals


async def build_double_tap(pilot: Any, screen: EditorScreen) -> list[int | None]:
    """Two units (DT §2), the second's special rule typed (DT-R4: rules cost)."""
    totals = []
    await keys(pilot, "down", "a")
    totals.append(shown_total(screen))
    await keys(pilot, "a")                           # a second unit, named apart
    assert screen.doc.get("units[1].name") == "Typed unit 2"
    totals.append(shown_total(screen))
    await keys(pilot, "enter", "tab", "tab", *"tough")  # name, weapons, rules
    assert screen.doc.get("units[1].rules") == ["tough"]
    totals.append(shown_total(screen))
    return totals


BUILDERS = {"deathzap3": build_deathzap3, "plasmashok": build_plasmashok,
            "double-tap": build_double_tap}
"""A key script for every registered ruleset with points (the live total is what the
test watches); a ruleset registered with points and no script here fails."""
WITH_POINTS = [rid for rid in registry.ids()
               if "points" in getattr(registry.get(rid), "parts", ())]


@pytest.mark.parametrize("ruleset_id", WITH_POINTS)
@aiotest
async def test_a_force_built_from_empty_by_keys_passes_check(
        ruleset_id: str, workdir: Path, capsys: Any) -> None:
    assert ruleset_id in BUILDERS, f"write a key script building a {ruleset_id} force"
    path = workdir / "forces" / "built.toml"
    async with editing(path, ruleset_id) as (pilot, screen):
        app = pilot.app
        assert shown_total(screen) is None  # no units yet: errors, no points
        totals = await BUILDERS[ruleset_id](pilot, screen)
        assert None not in totals and len(set(totals)) == len(totals), totals  # live
        await keys(pilot, "ctrl+s")
        assert isinstance(app.screen, EditorScreen)  # valid: saved without asking
        assert not screen.doc.modified
        loaded = load_force(path)
        assert shown_total(screen) == totals[-1] == loaded.ruleset.points(loaded.force).total
    status, out = checked(path, capsys)
    assert status == 0, out
    assert f"OK: built ({ruleset_id})" in out


# --- typed text is never lost; leaving and saving ask --------------------------------


@aiotest
async def test_a_bad_value_keeps_the_typed_text_and_says_why(workdir: Path) -> None:
    path = demo(workdir)
    async with editing(path) as (pilot, screen):
        app = pilot.app
        before = screen.doc.text()
        await screen.go_to("units[0].move")
        await keys(pilot, "x")                         # replaces the selected "6"
        box, message = screen._rows["units[0].move"]
        assert box.value == "x" and screen.doc.text() == before
        assert "not read: a whole number" in str(message.render())
        assert "typed, not read" in str(screen.query_one("#problems").render_line(0).text)
        await keys(pilot, "escape", "up", "down")     # away from the unit and back
        assert screen._rows["units[0].move"][0].value == "x"
        await keys(pilot, "escape")                   # unread text: asks
        assert isinstance(app.screen, AskScreen)
        await keys(pilot, "escape")                   # keep editing
        assert app.screen is screen and screen.unparsed
        await screen.go_to("units[0].move")
        await keys(pilot, "7")                        # read: the document changes
        assert screen.doc.get("units[0].move") == 7 and not screen.unparsed
        await keys(pilot, "escape", "escape", "d")    # discard
        assert not app.is_running
    assert path.read_text() == before


@aiotest
async def test_quit_with_changes_asks_and_can_save(workdir: Path) -> None:
    path = demo(workdir)
    async with editing(path) as (pilot, _):
        app = pilot.app
        await keys(pilot, "enter", *"Vale")           # the force's name
        await keys(pilot, "ctrl+q")
        assert isinstance(app.screen, AskScreen)
        await keys(pilot, "s")
        assert not app.is_running
    assert 'name = "Vale"' in path.read_text()


@aiotest
async def test_a_second_ctrl_q_over_the_unsaved_changes_question_asks_no_more(
        workdir: Path) -> None:
    path = demo(workdir)
    before = path.read_text()
    async with editing(path) as (pilot, _):
        app = pilot.app
        await keys(pilot, "enter", *"Vale")           # the force's name
        await keys(pilot, "ctrl+q")
        question = app.screen
        assert isinstance(question, AskScreen)
        await keys(pilot, "ctrl+q")                   # the question is still the answer
        assert app.screen is question and len(app.screen_stack) == 3
        await keys(pilot, "escape")                   # keep editing: asked again next time
        assert isinstance(app.screen, EditorScreen)
        await keys(pilot, "ctrl+q")
        assert isinstance(app.screen, AskScreen) and app.screen is not question
        await keys(pilot, "d")                        # discard
        assert not app.is_running
    assert path.read_text() == before


@aiotest
async def test_an_unchanged_force_quits_at_once(workdir: Path) -> None:
    async with editing(demo(workdir)) as (pilot, _):
        app = pilot.app
        await keys(pilot, "ctrl+q")
        assert not app.is_running


@aiotest
async def test_save_with_errors_asks_first(workdir: Path, capsys: Any) -> None:
    path = demo(workdir)
    original = path.read_text()
    async with editing(path) as (pilot, screen):
        app = pilot.app
        await screen.go_to("units[0].figures[1].count")
        await keys(pilot, "0")                        # no figures: an error (DZ3 §2)
        message = str(screen._rows["units[0].figures[1].count"][1].render())
        assert "✗" in message and screen.result.at("units[0].figures[1].count")
        assert "not counted" in str(screen.query_one("#points").render())
        await keys(pilot, "ctrl+s")
        assert isinstance(app.screen, AskScreen)
        assert "deathzap check will refuse it" in str(
            app.screen.query_one("#ask-message").render())
        await keys(pilot, "escape")                   # cancel: nothing written
        assert path.read_text() == original and screen.doc.modified
        await keys(pilot, "ctrl+s", "y")              # save anyway
        assert not screen.doc.modified
    assert checked(path, capsys)[0] == 1


@aiotest
async def test_delete_and_new_field(workdir: Path) -> None:
    path = demo(workdir)
    async with editing(path) as (pilot, screen):
        app = pilot.app
        units = len(screen.doc.get("units"))
        await screen.go_to("units[0]")
        await keys(pilot, "d", "y")
        assert len(screen.doc.get("units")) == units - 1
        assert screen._shown == ("units", 0)
        await keys(pilot, "n")
        assert isinstance(app.screen, PromptScreen)
        await keys(pilot, *"tag=1", "enter")
        assert screen.doc.get("units[0].tag") == 1
        assert "units[0].tag" in screen._rows  # shown, with its problem beside it
        assert "units[0].tag" in {p.path for p in screen.result.problems}


# --- round trips -----------------------------------------------------------------


@pytest.mark.parametrize("shipped", SHIPPED, ids=lambda p: p.name)
@aiotest
async def test_a_shipped_force_saves_byte_for_byte(shipped: Path, workdir: Path) -> None:
    path = workdir / shipped.name
    shutil.copy(shipped, path)
    async with editing(path) as (pilot, _):
        app = pilot.app
        await keys(pilot, "ctrl+s")
        assert path.read_bytes() == shipped.read_bytes()
        await keys(pilot, "enter", "Z", "ctrl+s")      # the name field, all replaced
        assert isinstance(app.screen, EditorScreen)
    changed = [line for line in difflib.ndiff(shipped.read_text().splitlines(),
                                              path.read_text().splitlines())
               if line[:1] in "+-"]
    assert len(changed) == 2 and changed[1] == '+ name = "Z"', changed


# --- the start screen's entry ------------------------------------------------------


@aiotest
async def test_the_start_screen_opens_the_editor_and_lists_a_new_file(workdir: Path) -> None:
    app = DeathzapApp(Launch("start", seed=7))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        start = app.screen
        assert isinstance(start, StartScreen)
        await keys(pilot, "ctrl+e", "down", "enter")   # the first file
        assert isinstance(app.screen, EditorScreen)
        assert app.screen.doc.path == workdir / "forces" / "demo-ashfall-legion.toml"
        await keys(pilot, "escape")                    # unchanged: straight back
        assert app.screen is start
        await keys(pilot, "ctrl+e")
        assert isinstance(app.screen, PickScreen)
        await keys(pilot, "enter", *"mine", "enter")   # new file "mine"
        await keys(pilot, "enter")                     # the first ruleset: deathzap3
        screen = app.screen
        assert isinstance(screen, EditorScreen) and screen.doc.get("name") == "mine"
        await keys(pilot, "ctrl+s", "y", "escape")      # errors (no units): save anyway
        assert app.screen is start
        new = workdir / "forces" / "mine.toml"
        assert new.exists()
        assert str(new) in [str(value) for _label, value in
                            start.query_one("#red-pick")._options]


@aiotest
async def test_a_dialog_from_the_start_screen_has_its_own_styles(workdir: Path) -> None:
    """The dialogs' hint and message classes are styled by dialogs.tcss, not by the
    editor's styles (not loaded before an editor opens)."""
    app = DeathzapApp(Launch("start", seed=7))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "ctrl+e")
        assert isinstance(app.screen, PickScreen)
        assert app.screen.query_one(".hint").styles.margin.top == 1
        await keys(pilot, "enter")                     # a new file: its name
        assert isinstance(app.screen, PromptScreen)
        assert app.screen.query_one(".hint").styles.margin.top == 1
        assert app.screen.query_one("#prompt-error").styles.height.is_auto


@aiotest
async def test_field_inputs_escape_untrusted_text(workdir: Path) -> None:
    path = workdir / "odd.toml"
    path.write_text('name = "[@click=app.quit]x[/] \\u001b]52;c;aGk=\\u0007"\n'
                    'ruleset = "deathzap3"\n')
    async with editing(path) as (_, screen):
        label = str(screen.query_one("#outline").root.label)
        assert "[@click=app.quit]x[/]" in label and "\x1b" not in label
        name = screen.query(FieldInput).first()
        assert name.value == "[@click=app.quit]x[/] ]52;c;aGk="  # shown without controls
        assert not screen.doc.modified  # and the file's value is left alone


# --- snapshot ----------------------------------------------------------------------


def test_editor_snapshot(snap_compare: Any, workdir: Path) -> None:
    async def settle(pilot: Any) -> None:
        await pilot.pause()
        await pilot.press(*["down"] * 11)  # the first unit's form
        await pilot.pause()

    app = EditorApp(ForceDocument.open(Path("forces") / "demo-ashfall-legion.toml"))
    assert snap_compare(app, terminal_size=SIZE, run_before=settle)


# --- rulesets without points; problems list; the outline alone ------------------------


@pytest.mark.parametrize("name", ["cl-black-maw-brood.toml", "ch-cinder-collective.toml"])
@aiotest
async def test_a_ruleset_without_points_shows_counts_live(name: str, workdir: Path) -> None:
    """CH-R4, CL-R6: no points system, so the panel counts units and models."""
    path = workdir / name
    shutil.copy(PROJECT_ROOT / "forces" / name, path)
    async with editing(path) as (pilot, screen):
        units = len(screen.doc.get("units"))
        await screen.go_to("units[1]")
        await keys(pilot, "d", "y")
        shown = str(screen.query_one("#points").render())
        assert "no points system" in shown
        assert any(line.split() == ["Units", str(units - 1)] for line in shown.splitlines())
        await keys(pilot, "a")  # one more (which one: see the sibling test below)
        assert len(screen.doc.get("units")) == units


@aiotest
async def test_a_problem_in_the_list_leads_to_its_field(workdir: Path) -> None:
    path = workdir / "broken.toml"
    text = demo(workdir).read_text().replace("skill = \"regular\"", "skill = \"ace\"", 1)
    path.write_text(text)
    async with editing(path) as (pilot, screen):
        app = pilot.app
        (problem,) = screen.result.problems
        assert problem.path == "units[0].skill"
        assert "✗" in str(screen._tree_nodes[("units", 0)].label)
        await keys(pilot, "e", "enter")
        assert isinstance(app.focused, FieldInput)
        assert app.focused.field.path == "units[0].skill"
        assert "ace" in str(screen._rows["units[0].skill"][1].render())
        await keys(pilot, *"basic")
        assert screen.result.ok and "✗" not in str(screen._tree_nodes[("units", 0)].label)


@aiotest
async def test_a_problem_path_that_does_not_parse_leads_to_the_force(workdir: Path) -> None:
    """Placed and followed alike: such a problem is at the force, not an error."""
    async with editing(demo(workdir)) as (pilot, screen):
        await screen.go_to("units[0].skill")
        assert screen._shown == ("units", 0)
        await screen.go_to("units[0")
        await pilot.pause()
        assert screen._shown == () and editor_module.parts_of("units[0") == ()


@pytest.mark.parametrize(("text", "kind", "value"), [
    ("12", eo.INT, 12), ('"radius"', eo.INT, "radius"), ("", eo.INT, None),
    ("yes", eo.BOOL, True), (" rifle, knife ,", eo.WORDS, ["rifle", "knife"]),
    ("Iron Choir ", eo.TEXT, "Iron Choir "), ("{ a = 1 }", eo.TOML, {"a": 1}),
    ("1.5", eo.FLOAT, 1.5),
])
def test_typed_text_reads_by_the_fields_kind(text: str, kind: str, value: Any) -> None:
    assert eo.same(eo.parse(text, kind), value) or eo.parse(text, kind) == value


@pytest.mark.parametrize(("text", "kind"), [("6x", eo.INT), ("maybe", eo.BOOL),
                                           ("one", eo.FLOAT), ("{", eo.TOML)])
def test_text_that_is_not_of_the_kind_is_refused(text: str, kind: str) -> None:
    with pytest.raises(eo.Unparsed):
        eo.parse(text, kind)


def test_typed_text_follows_its_entry_when_one_before_it_goes() -> None:
    typed = {"units[0].move": 1, "units[1].move": 2, "units[2].figures[0].count": 3,
             "name": 4}
    assert eo.shift_paths(typed, ("units", 1)) == {
        "units[0].move": 1, "units[1].figures[0].count": 3, "name": 4}


def test_the_outline_shows_a_templates_fields_a_table_lacks() -> None:
    template = {"name": "T", "units": [{"name": "U", "move": 6,
                                       "melee": {"attacks": 1},
                                       "figures": [{"name": "F", "count": 5}]}]}
    root = eo.outline({"name": "Mine", "units": [{"name": "A"}]}, template)
    (units,) = root.children
    (unit,) = units.children
    assert [(f.path, f.kind, f.present) for f in unit.fields] == [
        ("units[0].name", eo.TEXT, True), ("units[0].move", eo.INT, False),
        ("units[0].melee.attacks", eo.INT, False)]
    (figures,) = unit.children
    assert figures.kind == eo.GROUP and figures.skeleton == {"name": "F", "count": 5}
    assert eo.entry_choices(figures, [{"name": "F"}])[0]["name"] == "F 2"


# --- review fixes: emptied fields, quitting under a dialog, ids, ruleset, words -------


@aiotest
async def test_an_emptied_field_keeps_its_key_and_retyping_it_is_read(workdir: Path) -> None:
    """Emptying a field never deletes its key (its place and comment would go); typing
    the very text it opened with is read like any other; ctrl+d deletes the field."""
    path = demo(workdir)
    async with editing(path) as (pilot, screen):
        before = screen.doc.text()
        await screen.go_to("units[0].move")
        await keys(pilot, "backspace")                 # the selected "6" goes
        assert screen.doc.text() == before and "units[0].move" in screen.unparsed
        assert "empty: type a value, or ctrl+d" in str(
            screen._rows["units[0].move"][1].render())
        await keys(pilot, "6")
        assert screen.doc.text() == before and not screen.unparsed
        await screen.go_to("name")
        await keys(pilot, "backspace", *"Ashfall Legion")
        assert screen.doc.get("name") == "Ashfall Legion" and screen.doc.text() == before
        await screen.go_to("units[0].move")
        await keys(pilot, "ctrl+d")
        assert screen.doc.get("units[0].move") is None and not screen.unparsed
        assert screen.doc.get("units[0].skill") == "regular"


@aiotest
async def test_ctrl_q_under_a_dialog_of_the_editor_asks_first(workdir: Path) -> None:
    async with editing(workdir / "forces" / "new.toml", "deathzap3") as (pilot, _):
        app = pilot.app
        await keys(pilot, "down", "a")                 # the new weapon's id prompt
        prompt = app.screen
        assert isinstance(prompt, PromptScreen)
        await keys(pilot, "ctrl+q")
        assert app.is_running and isinstance(app.screen, AskScreen)
        await keys(pilot, "escape")
        assert app.screen is prompt


@aiotest
async def test_a_new_id_or_field_is_checked_in_its_prompt(workdir: Path) -> None:
    async with editing(demo(workdir)) as (pilot, screen):
        app = pilot.app
        before = screen.doc.text()
        await screen.go_to("weapons")
        await keys(pilot, "a")
        prompt = app.screen
        assert isinstance(prompt, PromptScreen)
        for typed, why in [("bad id!", "letters, digits, - and _"),
                           ("sidearm", "already a sidearm")]:
            prompt.query_one("#prompt-input", Input).value = typed
            await keys(pilot, "enter")
            assert app.screen is prompt and screen.doc.text() == before
            assert why in str(prompt.query_one("#prompt-error").render())
        prompt.query_one("#prompt-input", Input).value = "new-gun"
        await keys(pilot, "enter")
        assert app.screen is screen and screen.doc.get("weapons.new-gun") is not None
        await screen.go_to("units[0]")
        await keys(pilot, "n", *"move = 3", "enter")
        assert isinstance(app.screen, PromptScreen)
        assert "already a field units[0].move" in str(
            app.screen.query_one("#prompt-error").render())
        assert screen.doc.get("units[0].move") == 6


@aiotest
async def test_changing_the_ruleset_rebuilds_the_outline(workdir: Path) -> None:
    """The outline's template fields are the new ruleset's (PS §9: a unit's base
    cost); the cursor stays in the ruleset field."""
    async with editing(demo(workdir)) as (pilot, screen):
        app = pilot.app
        await screen.go_to("ruleset")
        await keys(pilot, *"plasmashok")
        assert screen.doc.get("ruleset") == "plasmashok"
        unit = screen._node(("units", 0))
        assert unit is not None and "units[0].base_cost" in [f.path for f in unit.fields]
        assert isinstance(app.focused, FieldInput) and app.focused.field.path == "ruleset"
        await keys(pilot, "backspace")
        assert screen.doc.get("ruleset") == "plasmasho"
        assert app.focused.value == "plasmasho"


@pytest.mark.parametrize("words", [["a, b", "c"], ["[x]"], [" pad"], ["a", ""], ["a", "b"]])
def test_words_round_trip_through_their_field(words: list[str]) -> None:
    shown = eo.show(words, eo.WORDS)
    assert eo.parse(shown, eo.WORDS) == words
    assert ("[" in shown) == (words != ["a", "b"])


def test_words_take_a_toml_array_or_the_comma_shorthand() -> None:
    assert eo.parse('["a, b", "c"]', eo.WORDS) == ["a, b", "c"]
    assert eo.parse("a, b", eo.WORDS) == ["a", "b"]
    with pytest.raises(eo.Unparsed):
        eo.parse("[1, 2]", eo.WORDS)


def test_a_new_entry_naming_an_id_the_force_lacks_copies_a_sibling() -> None:
    template = {"weapons": {"gun": {"shots": 1}},
                "units": [{"name": "U", "weapons": ["gun"]}]}
    data = {"weapons": {"bow": {"shots": 1}}, "units": [{"name": "Archers",
                                                         "weapons": ["bow"]}]}
    units = eo.outline(data, template).children[1]
    assert eo.entry_choices(units, data["units"], template, data)[0] == {
        "name": "Archers 2", "weapons": ["bow"]}
    with_gun = {**data, "weapons": {"gun": {"shots": 1}}}
    assert eo.entry_choices(units, data["units"], template, with_gun)[0]["weapons"] == ["gun"]
    assert eo.entry_choices(units, [], template, data)[0]["weapons"] == ["gun"]  # no sibling


# --- an added entry is one the force's checks accept (CL §1: one general) ------------


def errors(doc: ForceDocument) -> set[tuple[str, str]]:
    """The document's errors by path and message (none when it is valid)."""
    result = doc.check()
    return set() if result.ok else {(p.path, p.message) for p in result.problems}


def add_unit(doc: ForceDocument) -> tuple[Any, ...]:
    """"add" on the units group, as the editor does it, without the screen."""
    template = template_of(doc.get("ruleset", registry.DEFAULT))
    units = next(n for n in eo.outline(doc.data(), template).walk() if n.path == "units")
    return eo.add_entry(doc, units, template)


@pytest.mark.parametrize("shipped", SHIPPED, ids=lambda p: p.name)
def test_adding_a_unit_to_a_shipped_force_adds_no_error(shipped: Path) -> None:
    """Every ruleset: the new unit is the template's, a copy of the last unit, or the
    template's without a flag another unit has (a second general, CL §1), whichever
    first passes the checks; its name is its own."""
    doc = ForceDocument.load(shipped)
    count = len(doc.get("units"))
    assert errors(doc) == set()
    assert add_unit(doc) == ("units", count)
    assert errors(doc) == set(), errors(doc)
    names = [unit.get("name") for unit in doc.get("units")]
    assert len(names) == count + 1 and len(set(names)) == len(names)


@pytest.mark.parametrize("ruleset_id", registry.ids())
def test_adding_a_unit_to_a_new_template_force_adds_no_error(ruleset_id: str) -> None:
    """The template force's one unit holds the Classic general (CL §1): the next unit
    is the template's without ``general``, not a copy of either."""
    doc = ForceDocument.new(ruleset_id, template=True)
    before = errors(doc)
    added = doc.get(eo.join_path(*add_unit(doc)))
    assert errors(doc) <= before
    assert added["name"] != doc.get("units[0].name")


def test_a_flag_another_entry_has_true_is_left_out_of_the_last_choice() -> None:
    template = {"units": [{"name": "U", "figures": [{"name": "S", "general": True},
                                                     {"name": "T", "count": 4}]}]}
    data = {"units": [{"name": "Boss", "figures": [{"name": "B", "general": True}]}]}
    units = eo.outline(data, template).children[0]
    first, sibling, plain = eo.entry_choices(units, data["units"])
    assert first == template["units"][0] and sibling == {**data["units"][0], "name": "Boss 2"}
    assert plain["figures"] == [{"name": "S"}, {"name": "T", "count": 4}]
    assert eo.entry_choices(units, [])[1:] == []  # nothing true elsewhere: one choice


@pytest.mark.parametrize("name", ["ch-cinder-collective.toml", "cl-black-maw-brood.toml"])
@aiotest
async def test_a_unit_added_by_key_keeps_the_force_valid(workdir: Path, name: str) -> None:
    """"a" on the units of a shipped force adds a unit the force's checks accept: the
    Command Hand template's unit names a weapon this force lacks, and the Classic
    template's unit is a general (CL §1: one general), so both add a copy of the
    force's last unit, under a name of its own and never as a second general."""
    path = workdir / name
    shutil.copy(PROJECT_ROOT / "forces" / path.name, path)
    async with editing(path) as (pilot, screen):
        units = screen.doc.get("units")
        await screen.go_to("units[0]")
        await keys(pilot, "a")
        added = screen.doc.get(f"units[{len(units)}]")
        assert screen.result.ok, screen.result.problems
        assert screen._shown == ("units", len(units))
        assert {**added, "name": units[-1]["name"]} == units[-1]
        assert added["name"] not in {u["name"] for u in units}
        assert not any(f.get("general") for f in added.get("figures", ()))


# --- 80x24 (over SSH): the narrow layout ---------------------------------------------

NARROW_SIZE = (80, 24)


def rendered(screen: EditorScreen, selector: str) -> str:
    return str(screen.query_one(selector).render())


def test_editor_snapshot_narrow(snap_compare: Any, workdir: Path) -> None:
    """80x24: a narrower outline, the form with room for its values, the total and
    the state on the status line; the points and problems are behind p."""
    async def settle(pilot: Any) -> None:
        await pilot.pause()
        await pilot.press(*["down"] * 11, "enter")  # the first unit's name field
        await pilot.pause()

    app = EditorApp(ForceDocument.open(Path("forces") / "demo-ashfall-legion.toml"))
    assert snap_compare(app, terminal_size=NARROW_SIZE, run_before=settle)


@aiotest
async def test_at_80x24_the_typed_value_the_total_and_the_problems_stay_in_view(
        workdir: Path) -> None:
    async with editing(demo(workdir), size=NARROW_SIZE) as (pilot, screen):
        app = pilot.app
        assert NARROW_SIZE[0] < NARROW and screen.has_class("narrow")
        assert not screen.query_one("#side").display
        status = rendered(screen, "#editor-status")
        assert f"{screen.result.points.total} points · valid" in status
        await screen.go_to("units[0].move")
        await keys(pilot, "x")
        box, message = screen._rows["units[0].move"]
        label = box.parent.query_one(".field-label")
        assert box.content_region.width >= 30 and box.region.right <= NARROW_SIZE[0]
        assert label.content_region.width >= len("shield_strength")  # the longest here
        assert "not read" in str(message.render())
        assert "1 field not read" in rendered(screen, "#editor-status")
        await keys(pilot, "escape", "p")              # the points and problems page
        assert screen.query_one("#side").display and not screen.query_one("#form").display
        assert app.focused is screen.query_one("#problems")
        await keys(pilot, "enter")                    # the typed value: back at its field
        assert not screen.query_one("#side").display
        assert isinstance(app.focused, FieldInput)
        assert app.focused.field.path == "units[0].move"
        await pilot.resize_terminal(*SIZE)
        await pilot.pause()
        assert not screen.has_class("narrow") and screen.query_one("#side").display
        assert not screen.query_one("#editor-status").display
        assert "1 field not read" in rendered(screen, "#editor-title")


# --- a problem on an item of a list is at the list's field ----------------------------


@aiotest
async def test_a_problem_on_a_list_item_is_shown_at_the_list_field(workdir: Path) -> None:
    """PS §9: a figure's weapons must be the force's; ``weapons[0]`` is typed in the
    ``weapons`` field, so its problem is there, and e then enter goes to it."""
    path = workdir / "items.toml"
    path.write_text('name = "E"\nruleset = "plasmashok"\n\n[[units]]\nname = "A"\n'
                    'type = "infantry"\ntraining = "regular"\nbase_cost = 5\n'
                    'figures = [{name="x", count=2, weapons=["nope"]}]\n')
    async with editing(path) as (pilot, screen):
        app = pilot.app
        (problem,) = screen.result.problems
        assert problem.path == "units[0].figures[0].weapons[0]"
        await keys(pilot, "e", "enter")
        assert isinstance(app.focused, FieldInput)
        assert app.focused.field.path == "units[0].figures[0].weapons"
        assert "nope" in str(screen._rows["units[0].figures[0].weapons"][1].render())
        assert not screen.query_one("#node-problems").display  # not again at the figure


def test_owner_places_a_list_item_at_its_field() -> None:
    data = {"units": [{"name": "A", "weapons": ["x", "y"], "melee": {"attacks": 1}}]}
    root = eo.outline(data, {})
    for path, field in [("units[0].weapons[1]", "units[0].weapons"),
                        ("units[0].weapons", "units[0].weapons"),
                        ("units[0].melee.attacks", "units[0].melee.attacks")]:
        node, found = eo.owner(root, eo.parse_path(path))
        assert node.parts == ("units", 0) and found is not None and found.path == field


# --- the title counts typed values not read ------------------------------------------


@aiotest
async def test_the_title_says_a_typed_value_is_not_read_rather_than_valid(
        workdir: Path) -> None:
    async with editing(demo(workdir)) as (pilot, screen):
        assert rendered(screen, "#editor-title").endswith("  valid")
        await screen.go_to("units[0].move")
        await keys(pilot, "x")
        title = rendered(screen, "#editor-title")
        assert "1 field not read" in title and "valid" not in title
        await keys(pilot, "backspace", "7")           # read: nothing waits
        assert rendered(screen, "#editor-title").endswith("(unsaved)  valid")


# --- a huge force is checked after a pause in the typing ------------------------------


def huge_force(units: int = 99, figures: int = 20) -> str:
    """The demo force's weapons and ``units`` units of ``figures`` figures each (as
    many units as a force may have, 100 KB: a check of ~0.1 s here)."""
    text = (PROJECT_ROOT / "forces" / "demo-ashfall-legion.toml").read_text()
    figure_lines = "".join(f'  {{ name = "Trooper {f}", weapons = ["service-rifle"] }},\n'
                           for f in range(figures))
    return text.partition("[[units]]")[0] + "".join(
        f'[[units]]\nname = "Squad {u}"\nskill = "regular"\nmove = 6\nmelee_attacks = 1\n'
        f'shield_strength = "medium"\nshields = 4\nfigures = [\n{figure_lines}]\n\n'
        for u in range(units))


async def until_checked(pilot: Any, screen: EditorScreen) -> None:
    """Wait (5 s at most) for a deferred check to have run."""
    for _ in range(50):
        if "checking…" not in rendered(screen, "#editor-title"):
            return
        await pilot.pause(0.1)


@pytest.mark.slow
@aiotest
async def test_a_huge_force_is_checked_once_the_typing_pauses(
        workdir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every key goes into the document at once; after two slow checks the next waits
    for a pause, "checking…" meanwhile, then shows; saving checks first, whatever
    waits. (DZ3 §2: a figure entry of no models is an error.)"""
    monkeypatch.setattr(editor_module, "CHECK_IDLE", 1.0)  # a pause no key press takes
    path = workdir / "huge.toml"
    path.write_text(huge_force())
    async with editing(path) as (pilot, screen):
        app = pilot.app
        field = "units[0].figures[1].count"
        await screen.go_to(field)
        await keys(pilot, "0")                        # the second check: still at once
        assert screen.result.at(field)
        assert min(screen.check_seconds) > SLOW_CHECK, "checks too fast: make it bigger"
        await keys(pilot, "backspace", "3")           # in the document, not checked yet
        assert screen.doc.get(field) == 3 and screen.result.at(field)
        assert "checking…" in rendered(screen, "#editor-title")
        assert screen._rows[field][0].value == "3"
        await until_checked(pilot, screen)
        assert not screen.result.at(field)
        assert "✗" not in str(screen._rows[field][1].render())
        await keys(pilot, "backspace", "0", "ctrl+s")  # the check runs before the save:
        assert isinstance(app.screen, AskScreen)      # an error, so it asks
        assert screen.result.at(field) and "checking…" not in rendered(screen, "#editor-title")


# --- issue 26: where a force is saved; the points page's notes ----------------------


@aiotest
async def test_the_points_page_shows_the_expected_points_mismatch_dz3_r17(
        workdir: Path) -> None:
    """`deathzap points` explains the file's expected_points against the formula; the
    editor's points page said nothing (issue 26)."""
    path = workdir / "mortans-men.toml"
    shutil.copy(PROJECT_ROOT / "forces" / "mortans-men.toml", path)
    async with editing(path) as (_pilot, screen):
        shown = " ".join(str(screen.query_one("#points").render()).split())
        assert "The force file expects 249 points; the formula gives 327" in shown
        assert "(DZ3-R17)" in shown


@pytest.mark.slow
@aiotest
async def test_a_new_force_goes_where_its_path_says(workdir: Path) -> None:
    """A name goes in the forces folder (DEATHZAP_FORCES_DIR here), a path where it
    says; a folder that does not exist is refused with its name (issue 26)."""
    elsewhere = workdir / "elsewhere"
    elsewhere.mkdir()
    app = DeathzapApp(Launch("start", seed=7))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        start = app.screen
        await keys(pilot, "ctrl+e", "enter", *"nowhere/mine", "enter")
        assert app.screen is start
        assert "no folder nowhere" in str(start.query_one("#problems").render())
        await keys(pilot, "ctrl+e", "enter", *"elsewhere/mine", "enter", "enter")
        screen = app.screen
        assert isinstance(screen, EditorScreen)
        assert screen.doc.path == Path("elsewhere/mine.toml")
        await keys(pilot, "ctrl+s", "y", "escape")
        assert (elsewhere / "mine.toml").exists()
        assert not (workdir / "forces" / "mine.toml").exists()


@pytest.mark.slow
@aiotest
async def test_save_as_writes_where_the_user_says_and_goes_on_there(workdir: Path) -> None:
    path = workdir / "forces" / "demo-ashfall-legion.toml"
    target = workdir / "copy.toml"
    async with editing(path) as (pilot, screen):
        await keys(pilot, "w")
        assert isinstance(pilot.app.screen, PromptScreen)
        await keys(pilot, *["backspace"] * 80, *str(target), "enter")
        assert screen.doc.path == target and target.exists()
        assert target.read_bytes() == path.read_bytes()  # nothing else changed
        await keys(pilot, "w", *["backspace"] * 80, *"no-such-dir/x", "enter")
        assert isinstance(pilot.app.screen, PromptScreen)  # refused, says why
        assert "no folder no-such-dir" in str(
            pilot.app.screen.query_one("#prompt-error").render())
