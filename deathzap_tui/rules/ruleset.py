"""The interface every ruleset plugin implements.

Shared code (the game, saves, the CLI, the app) talks to a ruleset only through this
interface; a new ruleset is a new module registered in :mod:`.registry`, never an
``if ruleset == ...`` branch elsewhere.
"""

from __future__ import annotations

import importlib
import importlib.util
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast

from deathzap_tui.rules.problems import InvalidInput, Problem
from deathzap_tui.rules.statebase import StateBase
from deathzap_tui.rules.steps import Maker, Refused, Resolution

if TYPE_CHECKING:
    import argparse
    from importlib.machinery import ModuleSpec

    from deathzap_tui.rules.odds import Odds  # the odds' modules load when asked

SIDES = ("red", "black")
WATCH = "watch"
"""The viewer that sees only what is public (spectators)."""


ForceT = TypeVar("ForceT")
"""A ruleset's force: what :meth:`Ruleset.parse_force` builds from a force file."""
StateT = TypeVar("StateT", bound=StateBase)
"""A ruleset's game state (a :class:`~.statebase.StateBase`: ``rng``, units, look-ups)."""


def other_side(side: str) -> str:
    return "black" if side == "red" else "red"


@dataclass(frozen=True)
class OptionSpec:
    """A per-game setting (house rule). ``choices`` empty means an integer."""

    key: str
    label: str
    default: Any
    choices: tuple[str, ...] = ()
    rule: str = ""
    help: str = ""
    minimum: int | None = None
    maximum: int | None = None


@dataclass(frozen=True)
class UnitPoints:
    name: str
    points: int
    breakdown: Mapping[str, Any] = field(default_factory=dict)
    """Ordered parts of the cost (figures, weapons, shields, vehicle surcharge...)."""


@dataclass(frozen=True)
class PointsReport:
    force: str
    ruleset: str
    units: tuple[UnitPoints, ...]
    command_points: int
    total: int
    warnings: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    has_command: bool = True
    """Whether the ruleset has command points: ``deathzap points`` shows a Command
    row (even of 0) only then."""


SETUP = "setup"
"""Intent group: a pre-game step (roll-off, objectives, naming a general...)."""
ADVANCE = "advance"
"""Intent group: moves the game on (draw a card, next phase, end a turn): the battle
screen's advance key, labelled by :attr:`BoardView.advance_label`."""
UNIT = "unit"
"""Intent group: something one unit does (activate, shoot, fight...)."""
END = "end"
"""Intent group: end the game (by agreement)."""
OTHER = "other"
"""Intent group: anything else the ruleset offers (interrupts, passing...)."""


@dataclass(frozen=True)
class IntentOption:
    """Something that can be done now, as shown in menus and the command palette.

    ``group`` (:data:`SETUP`, :data:`ADVANCE`, :data:`UNIT`, :data:`END` or
    :data:`OTHER`) is what the app keys on; the intent's ``type``
    stays the ruleset's own word."""

    intent: Mapping[str, Any]
    label: str
    side: str | None = None
    rule: str = ""
    group: str = OTHER
    unit: str | None = None
    """The unit the option is about (the app groups a unit's options under it): the
    intent's ``"unit"`` unless given; ``None`` for an option of no one unit."""

    def __post_init__(self) -> None:
        if self.unit is None and isinstance(self.intent.get("unit"), str):
            object.__setattr__(self, "unit", self.intent["unit"])


@dataclass(frozen=True)
class UnitRow:
    """One unit as the status tables show it. ``cells`` line up with
    :attr:`BoardView.columns`; plain text, never markup."""

    id: str
    side: str
    name: str
    cells: tuple[str, ...]
    gone: bool = False
    """Destroyed or fled: still listed, shown dimmed."""
    ready: bool = True
    """May activate now (no token, in play)."""
    card: tuple[CardSection, ...] = ()
    """The unit's card (issue 22): everything about it the table has no room for, in
    sections: its figures, weapons and profiles, shields or wounds, tokens, status and
    what it did this turn. Empty: the card shows the row's cells under their headers."""


CardSection = tuple[str, tuple[str, ...]]
"""One section of a unit's card: a heading and its lines (plain text, never markup)."""


@dataclass(frozen=True)
class Column:
    """How the status tables may show one of :attr:`BoardView.columns` when the
    terminal is narrow (issue 22): names are never cut, so the other columns give way,
    whole, as table-side trackers do."""

    short: str = ""
    """A shorter header for narrow tables ("Sh" for "Shields"), which the table's
    legend then explains with :attr:`meaning`."""
    meaning: str = ""
    """The legend's words for the short header ("shields")."""
    drop: int = 0
    """0: always shown; else the order in which the column gives way when there is no
    room (1 first). Its value stays on the unit's card (:attr:`UnitRow.card`)."""
    wrap: bool = False
    """Long text (a state, a list of weapons) that wraps onto more lines, never cut."""


@dataclass(frozen=True)
class DeckView:
    current: str = ""
    """The card up, e.g. "Q♦" ("" before the first draw)."""
    current_words: str = ""
    colour: str = ""
    """"red", "black" or "" (joker / none)."""
    grants: str = ""
    """What the card grants, e.g. "Black: 2 activations, 1 used"."""
    cards_left: int = 0
    jokers_left: int = 0
    left_by_colour: Mapping[str, int] = field(default_factory=dict)
    recent: tuple[str, ...] = ()
    """Last cards drawn, newest last."""


@dataclass(frozen=True)
class TurnClock:
    """Where a turn-based game stands, for the phase track (rulesets played in turns
    of phases or rounds; a card-driven one has none)."""

    number: int
    """The turn (or round) under way; 0 before the first."""
    limit: int = 0
    """The last turn, 0 when the game has no turn limit."""
    unit: str = "Turn"
    """What a turn is called ("Turn", "Round")."""
    phases: tuple[str, ...] = ()
    """The phase names in this turn's order."""
    current: str = ""
    """The phase under way (one of ``phases``), "" between turns."""
    active: str = ""
    """The side acting now ("red" / "black"), "" when both or neither."""
    detail: str = ""
    """One more line, e.g. "elite bracket" or "Red: 3 activation points left"."""


@dataclass(frozen=True)
class BoardView:
    """Everything the battle screen shows, built by the ruleset from its state."""

    columns: tuple[str, ...]
    units: Mapping[str, tuple[UnitRow, ...]]
    deck: DeckView | None
    """The activation deck; ``None`` for a ruleset without cards (no deck widget)."""
    score: Mapping[str, int]
    score_lines: tuple[str, ...]
    objectives: tuple[str, ...]
    prompt: str
    """Whose move it is and what comes next, in words."""
    over: bool = False
    result: str = ""
    private: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Secret lines per side (e.g. a hand of cards), present only for viewers who may
    see them."""
    secret_turn: str = ""
    """The side that must now decide something secret (e.g. whether to play a card
    from its hand), or "". A shared terminal shows a "pass the terminal to ..." cover
    before showing that side's ``private`` lines and its intents."""
    clock: TurnClock | None = None
    """The turn and phase for rulesets played in turns; ``None`` for card-driven ones."""
    score_label: str = "VP"
    """What :attr:`score` counts ("VP", "figures"), shown after each side's number."""
    advance_label: str = "Draw card"
    """The advance key's label ("Draw card", "Next phase", "End turn")."""
    column_hints: tuple[Column, ...] = ()
    """How each of :attr:`columns` gives way in a narrow table, in the same order (a
    column without one is always shown, on one line)."""


class Ruleset(ABC, Generic[ForceT, StateT]):
    """A ruleset, generic over its force (``ForceT``) and state (``StateT``) types:
    ``Classic`` is a ``Ruleset[classic.model.Force, classic.state.State]``; shared
    code that holds any ruleset says ``Ruleset[Any, Any]``."""

    id: str
    title: str
    damage_counts: str = "damage that took effect"
    """What the end-of-game report's damage columns count in this ruleset, in the
    rules' own words with their sections ("points of damage, each stripping a shield
    or forcing a save (DZ3 §6)"): each ruleset's ``ctx.harm`` calls record exactly
    that, and the report says it under its units table."""

    # --- forces -------------------------------------------------------------
    @abstractmethod
    def parse_force(self, data: Mapping[str, Any]) -> ForceT:
        """Build a force from a parsed TOML table; raise ``InvalidInput`` with
        every problem (paths like ``units[2].figures[0].weapons[1]``)."""

    @abstractmethod
    def force_warnings(self, force: ForceT) -> list[Problem]:
        """Loose limits and other things worth a warning, never an error."""

    @abstractmethod
    def points(self, force: ForceT) -> PointsReport | None:
        """Points by the ruleset's formula, or ``None`` if it has none."""

    def force_counts(self, force: ForceT) -> tuple[tuple[str, int], ...]:
        """Labelled counts that describe a force's size, for a ruleset without points
        (``deathzap points`` shows them instead), e.g. ``(("Infantry", 12), ...)``.
        Empty if the ruleset offers none."""
        return ()

    def force_template(self) -> str:
        """A whole force file of one weapon and one unit, to start typing a unit in by
        hand (quick resolve); "" if the ruleset offers none."""
        return ""

    # --- games --------------------------------------------------------------
    @abstractmethod
    def option_specs(self) -> tuple[OptionSpec, ...]: ...

    def options(self, raw: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Defaults overlaid with ``raw``; raise ``InvalidInput`` on bad values."""
        specs = {s.key: s for s in self.option_specs()}
        out = {k: s.default for k, s in specs.items()}
        problems: list[Problem] = []
        for key, value in (raw or {}).items():
            spec = specs.get(key)
            if spec is None:
                problems.append(Problem(f"unknown option; known: {', '.join(specs)}", key))
            elif spec.choices and value not in spec.choices:
                problems.append(Problem(f"{value!r} is not one of {', '.join(spec.choices)}", key))
            elif not spec.choices and (isinstance(value, bool) or not isinstance(value, int)):
                problems.append(Problem(f"expected a whole number, not {value!r}", key))
            elif not spec.choices and (
                (spec.minimum is not None and value < spec.minimum)
                or (spec.maximum is not None and value > spec.maximum)
            ):
                problems.append(Problem(f"{value} is out of range "
                                        f"{spec.minimum}..{spec.maximum}", key))
            else:
                out[key] = value
        if problems:
            raise InvalidInput(problems)
        return out

    @abstractmethod
    def new_state(self, red: ForceT, black: ForceT, options: Mapping[str, Any], seed: int,
                  deal_seed: int | None) -> StateT:
        """The state before any event. It must have an ``rng`` attribute: the dice,
        from the public ``seed``, so a game's generated dice replay from its log.

        ``deal_seed`` is the game's SECRET seed (never shown to a player or sent to a
        client): every shuffle of hidden cards (hands, the order of a deck), at the
        start and later, uses a generator of its own made from it, kept in the state
        (e.g. ``deal_rng``), so that the public seed and the log are not enough to
        know the cards to come. ``None`` is a game saved before games had a secret
        seed: its cards are shuffled with ``rng``, as they were, so it replays
        unchanged. A ruleset without hidden cards ignores it."""

    @abstractmethod
    def resolution(self, state: StateT, intent: Mapping[str, Any], by: str = "") -> Maker:
        """The resolution for an intent, or raise ``Refused`` saying why not."""

    @abstractmethod
    def intents(self, state: StateT, viewer: str | None = None) -> list[IntentOption]:
        """What may be done now; with a ``viewer`` side, only what that player may do
        or know of (see :meth:`view`)."""

    @abstractmethod
    def is_over(self, state: StateT) -> bool: ...

    @abstractmethod
    def view(self, state: StateT, viewer: str | None = None) -> BoardView:
        """The state as the battle screen shows it to ``viewer``.

        ``None`` is the whole table (one shared terminal: everything, the app hides
        secrets behind a cover screen); ``"red"`` / ``"black"`` is that player's view,
        which must hold nothing the other player may not see; :data:`WATCH` is public
        information only. Anything secret (a hand of cards) goes in
        :attr:`BoardView.private` and only for its owner.
        """

    def tally(self, state: StateT) -> tuple[dict[str, int], int]:
        """The score and the turn (or round) under way, 0 for a game without turns:
        :attr:`BoardView.score` and ``clock.number`` of :meth:`view`, which the
        end-of-game report reads after every event (issue 21). By default from the
        view; a plugin whose view is costly gives them directly."""
        view = self.view(state)
        return dict(view.score), view.clock.number if view.clock is not None else 0

    @abstractmethod
    def help_sections(self) -> list[tuple[str, str]]:
        """The rules in the app's own words: (title, text) pairs."""

    # --- optional extras (a ruleset without them keeps these defaults) --------
    def quick_kinds(self) -> tuple[tuple[str, str], ...]:
        """What quick resolve offers outside a game: ``(kind, label)`` pairs, e.g.
        ``("shoot", "Shooting attack")``. Empty if the ruleset offers none."""
        return ()

    def quick_resolution(self, kind: str, attacker: tuple[ForceT, int],
                         target: tuple[ForceT, int] | None, seed: int) -> Resolution:
        """One attack or test outside a game: ``attacker``/``target`` are
        ``(force, unit index)``; the target is ``None`` for a test the unit takes on its
        own. The resolution's state holds the two units alone, the attacker as
        ``red.0`` and the target as ``black.0`` (:mod:`.quick`). Raises ``Refused``
        saying why not."""
        raise Refused(f"{self.title} offers no quick resolution")

    def attack_odds(self, state: StateT, facts: Mapping[str, Any]) -> Odds | None:
        """Exact odds of the attack being resolved, for the odds panel: ``facts`` is
        the resolution's ``ctx.facts["attack"]``. An
        :class:`~deathzap_tui.rules.odds.Odds`, or ``None`` if the ruleset offers none."""
        return None

    def odds_cli(self, attacker: tuple[ForceT, Any], target: tuple[ForceT, Any],
                 settings: Mapping[str, Any]) -> tuple[Odds, list[str]] | None:
        """``deathzap odds`` from force files: ``attacker`` and ``target`` are
        ``(force, unit)`` pairs; ``settings`` the command's options by name
        (``melee``, ``weapons`` and the ruleset's own, see :meth:`odds_arguments`).
        Returns ``(odds, title lines)``; raises ``ValueError`` saying what is
        wrong; ``None`` if the ruleset offers no odds."""
        return None

    def odds_arguments(self, parser: argparse.ArgumentParser) -> Sequence[argparse.Action]:
        """Add this ruleset's own ``deathzap odds`` flags to ``parser`` (the command
        adds ``--ruleset``, ``--attacker``, ``--target``, ``--weapons``, ``--melee`` and
        ``--json``): those :meth:`odds_numbers` reads, and the extra settings
        :meth:`odds_cli` reads from the command's options. Returns the flags that only
        describe an attack in bare numbers (refused with force files).

        The command treats every integer flag as a count and refuses it below 0,
        except the flags named (by their ``dest``) in the parser default
        ``odds_signed``: a ruleset with modifiers that may be negative says so with
        ``parser.set_defaults(odds_signed=("hit", "block"))``."""
        return ()

    def odds_numbers(self, args: argparse.Namespace) -> tuple[Odds, list[str]] | None:
        """``deathzap odds --ruleset ID`` with bare numbers: ``args`` holds the flags of
        :meth:`odds_arguments`. Returns ``(odds, title lines)``; raises ``ValueError``
        saying what is wrong; ``None`` if the ruleset offers no such odds."""
        return None


class PluginError(TypeError):
    """A plugin that does not provide what it declares (or provides what it does not
    declare): a programming error, raised when the ruleset is registered or a part is
    first used, naming the plugin and the part."""


@dataclass(frozen=True)
class Part:
    """A part of a Deathzap-family plugin: names its ``module`` must define."""

    module: str
    names: tuple[str, ...]
    methods: tuple[str, ...] = ()
    """The :class:`PackageRuleset` methods that read it: a plugin class that writes
    them all out itself needs no such module."""


REQUIRED_PARTS: Mapping[str, Part] = {
    "force": Part("force", ("parse_force", "force_warnings"),
                  ("parse_force", "force_warnings")),
    "options": Part("options", ("OPTION_SPECS",), ("option_specs",)),
    "state": Part("state", ("new_state",), ("new_state",)),
    "engine": Part("engine", ("resolution", "intents"), ("resolution", "intents")),
    "view": Part("view", ("board_view",), ("view",)),
    "help": Part("help", ("HELP_SECTIONS",), ("help_sections",)),
}
"""What every :class:`PackageRuleset` provides (unless its class writes out the
methods that read a part)."""

OPTIONAL_PARTS: Mapping[str, Part] = {
    "force_counts": Part("force", ("force_counts",)),
    "force_template": Part("force", ("TEMPLATE",)),
    "points": Part("points", ("points_report",)),
    "quick": Part("quick", ("KINDS", "quick_resolution")),
    "odds": Part("odds", ("odds_from_facts", "odds_cli")),
    "odds_arguments": Part("oddscli", ("odds_arguments",)),
    "odds_numbers": Part("oddscli", ("odds_numbers",)),
}
"""The extras a :class:`PackageRuleset` may provide, by the name it declares them
with in :attr:`PackageRuleset.parts`; one it does not declare keeps the
:class:`Ruleset` default (no points, no quick resolve, no odds...)."""


class PackageRuleset(Ruleset[ForceT, StateT]):
    """A ruleset whose package has the Deathzap-family layout (see
    ``docs/writing-a-ruleset.md``): the modules of :data:`REQUIRED_PARTS` and of the
    :data:`OPTIONAL_PARTS` it declares in :attr:`parts`. ``engine`` (``intents``) and
    ``view`` (``board_view``) serve a game without hidden information: every viewer is
    offered and shown the same.

    Each method below delegates to its module, imported on first use (so listing the
    rulesets stays cheap). A subclass sets :attr:`package` and :attr:`parts` and writes
    out what is its own: a viewer-dependent intents or view (hidden hands), odds of an
    attack. :meth:`check_parts` runs when the ruleset is registered
    (:func:`~deathzap_tui.rules.registry.get`).
    """

    package: str
    """The plugin's package, e.g. ``"deathzap_tui.rules.deathzap3"``."""
    parts: frozenset[str] = frozenset()
    """The optional parts (keys of :data:`OPTIONAL_PARTS`) this plugin provides."""

    def check_parts(self, deep: bool = False) -> None:
        """Raise :class:`PluginError` naming what is wrong: a declared part that is
        not an optional part (a misspelling), a declared part whose module is missing,
        or an optional module that is there but not declared (a feature silently off).
        ``deep`` also looks for the required parts' modules and imports every module
        to check the names each part needs (the conformance kit does; start-up only
        looks for the optional modules, without importing them)."""
        unknown = sorted(self.parts - set(OPTIONAL_PARTS))
        if unknown:
            raise PluginError(f"{self.package}: unknown part(s) {', '.join(unknown)}; "
                              f"known: {', '.join(OPTIONAL_PARTS)}")
        required = [(k, p) for k, p in REQUIRED_PARTS.items() if self._reads(p)]
        wanted = [*required, *((k, OPTIONAL_PARTS[k]) for k in sorted(self.parts))]
        declared = {part.module for _, part in wanted}
        for key, part in wanted if deep else wanted[len(required):]:
            if self._find(part.module) is None:
                raise PluginError(f"{self.package}: part {key!r} needs module "
                                  f"{self.package}.{part.module}, which is missing")
        undeclared = sorted({part.module for part in OPTIONAL_PARTS.values()} - declared)
        for module in undeclared:
            if self._find(module) is not None:
                keys = [k for k, p in OPTIONAL_PARTS.items() if p.module == module]
                raise PluginError(f"{self.package}.{module} exists but {self.id} declares "
                                  f"none of its parts ({', '.join(keys)}) in `parts`")
        if deep:
            for key, part in wanted:
                for name in part.names:
                    self.part(part.module, name, key)
            for key, part in OPTIONAL_PARTS.items():
                if key not in self.parts and part.module in declared and all(
                        hasattr(importlib.import_module(f"{self.package}.{part.module}"), n)
                        for n in part.names):
                    raise PluginError(f"{self.package}.{part.module} defines part {key!r} "
                                      f"but {self.id} does not declare it in `parts`")

    def _reads(self, part: Part) -> bool:
        """Whether a method of this class still reads ``part`` from its module."""
        return any(getattr(type(self), m) is getattr(PackageRuleset, m)
                   for m in part.methods)

    def _find(self, module: str) -> ModuleSpec | None:
        return importlib.util.find_spec(f"{self.package}.{module}")

    def part(self, module: str, name: str, key: str = "") -> Any:
        """``name`` from the plugin's ``module``, imported on first use; ``key`` names
        the part in the error when it is missing."""
        found = importlib.import_module(f"{self.package}.{module}")
        try:
            return getattr(found, name)
        except AttributeError:
            raise PluginError(f"{self.package}.{module} has no {name!r}"
                              + (f" (part {key!r})" if key else "")) from None

    def optional_part(self, key: str, name: str = "") -> Any | None:
        """``name`` (default: the part's last) of optional part ``key``, or ``None`` if
        the plugin does not declare the part (:attr:`parts`)."""
        if key not in OPTIONAL_PARTS:
            raise PluginError(f"unknown part {key!r}; known: {', '.join(OPTIONAL_PARTS)}")
        if key not in self.parts:
            return None
        part = OPTIONAL_PARTS[key]
        return self.part(part.module, name or part.names[-1], key)

    def parse_force(self, data: Mapping[str, Any]) -> ForceT:
        force: ForceT = self.part("force", "parse_force")(data)
        return force

    def force_warnings(self, force: ForceT) -> list[Problem]:
        problems: list[Problem] = self.part("force", "force_warnings")(force)
        return problems

    def force_counts(self, force: ForceT) -> tuple[tuple[str, int], ...]:
        counts = self.optional_part("force_counts")
        return () if counts is None else tuple(counts(force))

    def force_template(self) -> str:
        return str(self.optional_part("force_template") or "")

    def points(self, force: ForceT) -> PointsReport | None:
        points_report = self.optional_part("points")
        return None if points_report is None else cast(PointsReport, points_report(force))

    def option_specs(self) -> tuple[OptionSpec, ...]:
        return tuple(self.part("options", "OPTION_SPECS"))

    def new_state(self, red: ForceT, black: ForceT, options: Mapping[str, Any], seed: int,
                  deal_seed: int | None) -> StateT:
        state: StateT = self.part("state", "new_state")(red, black, options, seed, deal_seed)
        return state

    def resolution(self, state: StateT, intent: Mapping[str, Any], by: str = "") -> Maker:
        return cast(Maker, self.part("engine", "resolution")(state, intent, by))

    def intents(self, state: StateT, viewer: str | None = None) -> list[IntentOption]:
        # No hidden information: every viewer is offered the same.
        return list(self.part("engine", "intents")(state))

    def view(self, state: StateT, viewer: str | None = None) -> BoardView:
        return cast(BoardView, self.part("view", "board_view")(state, viewer))

    def tally(self, state: StateT) -> tuple[dict[str, int], int]:
        # The view module's score(state) and clock(state), where it has them, are what
        # board_view shows: the report gets them without building whole views.
        view = importlib.import_module(f"{self.package}.view")
        score, clock = getattr(view, "score", None), getattr(view, "clock", None)
        if score is None:
            return super().tally(state)
        return dict(score(state)), clock(state).number if clock is not None else 0

    def is_over(self, state: StateT) -> bool:
        return state.over

    def help_sections(self) -> list[tuple[str, str]]:
        return list(self.part("help", "HELP_SECTIONS"))

    def quick_kinds(self) -> tuple[tuple[str, str], ...]:
        return tuple(self.optional_part("quick", "KINDS") or ())

    def quick_resolution(self, kind: str, attacker: tuple[ForceT, int],
                         target: tuple[ForceT, int] | None, seed: int) -> Resolution:
        make = self.optional_part("quick")
        if make is None:
            return super().quick_resolution(kind, attacker, target, seed)
        return cast(Resolution, make(kind, attacker, target, seed))

    def attack_odds(self, state: StateT, facts: Mapping[str, Any]) -> Odds | None:
        odds_from_facts = self.optional_part("odds", "odds_from_facts")
        return None if odds_from_facts is None else odds_from_facts(facts)

    def odds_cli(self, attacker: tuple[ForceT, Any], target: tuple[ForceT, Any],
                 settings: Mapping[str, Any]) -> tuple[Odds, list[str]] | None:
        odds_cli = self.optional_part("odds")
        return None if odds_cli is None else cast("tuple[Odds, list[str]]",
                                                  odds_cli(attacker, target, settings))

    def odds_arguments(self, parser: argparse.ArgumentParser) -> Sequence[argparse.Action]:
        odds_arguments = self.optional_part("odds_arguments")
        return () if odds_arguments is None else tuple(odds_arguments(parser))

    def odds_numbers(self, args: argparse.Namespace) -> tuple[Odds, list[str]] | None:
        odds_numbers = self.optional_part("odds_numbers")
        return None if odds_numbers is None else cast("tuple[Odds, list[str]]",
                                                      odds_numbers(args))
