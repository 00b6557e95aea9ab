"""Resolution as data: steps the engine yields and the answers it takes.

A *resolution* (a shot, a melee, a morale test, a card draw, the set-up roll-off...)
is a generator function ``make(ctx) -> Generator[Step, Answer, None]``. It yields
:class:`Question` and :class:`DiceRequest` steps, receives answers, mutates
``ctx.state`` (a private copy) and narrates what happened with ``ctx.say``.

The UI only renders steps and collects answers; tests feed answers directly; a saved
game stores the answers, so replaying a resolution reproduces it exactly. A dice
request may be answered with physical faces, a count of successes, or :data:`ROLL`
("roll for me"), which the driver fills from the game's seeded RNG — so the same
engine serves physical and generated dice, and the faces that were generated are
recorded like any others.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol


class Refused(ValueError):
    """An answer or intent the rules do not allow; the message says why."""


def refuse_if(why: str) -> None:
    """Raise :class:`Refused` with ``why`` unless it is empty: the answer of a
    ruleset's ``..._refusal`` helpers ("" when the thing is allowed)."""
    if why:
        raise Refused(why)


def intent_kind(intent: Mapping[str, Any], types: Sequence[str], over: bool) -> str:
    """The ``type`` of ``intent`` once it is one of the ruleset's ``types`` and the
    game is not ``over``; :class:`Refused` otherwise."""
    kind = intent.get("type")
    if kind not in types:
        raise Refused(f"unknown intent {kind!r}; one of {', '.join(types)}")
    if over:
        raise Refused("the game is over")
    return str(kind)


@dataclass(frozen=True)
class Choice:
    value: str
    label: str
    detail: str = ""


@dataclass(frozen=True)
class Question:
    """Ask the players something the app cannot know (cover, distance, a choice).

    With ``choices`` the answer is one of their values; without, it is an integer in
    ``[minimum, maximum]``.

    ``private``: the choices and the answer are for ``side``'s eyes only (a card
    picked from a secret hand), as a note said ``to`` a side; everyone else is told
    only that it was answered. Any other answer is seen at the table as it is given.
    """

    key: str
    prompt: str
    choices: tuple[Choice, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    rule: str = ""
    side: str | None = None
    default: str | int | None = None
    private: bool = False


SUCCESSES = "successes"
"""A :class:`Luck` measure: how many dice reached the request's target."""
TOTAL = "total"
"""A :class:`Luck` measure: the sum of the faces."""
DISTINCT = "distinct"
"""A :class:`Luck` measure: how many different faces the dice show."""
MATCHES = "matches"
"""A :class:`Luck` measure: how many of the ``against`` dice show a face this roll
also shows (dice that block or match other dice)."""
DAMAGE = "damage"
"""A :class:`Luck` measure counted as :data:`MATCHES`, each matched ``against`` die a
point of damage let through (a die doing more damage listed that many times)."""
D3_VALUE = "d3"
"""A :class:`Luck` measure: the sum of the faces each read as a D3 (1-2 is 1, 3-4 is
2, 5-6 is 3: :data:`~deathzap_tui.rules.dice.D3`), so faces giving the same D3 are
judged alike."""
UNJUDGED = "unjudged"
"""A :class:`Luck` measure: no face is better than another for the roller (a table
of effects, a distance of no consequence); the report leaves the roll out."""


@dataclass(frozen=True)
class Luck:
    """How the end-of-game report judges a roll for the side that rolled it (the
    request's ``side``): the ``measure`` of the faces, and whether ``more`` of it is
    better for that side. The report computes the exact chance of doing at least as
    well from the measure's distribution under fair dice."""

    measure: str
    more: bool = True
    against: tuple[int, ...] = ()
    """For :data:`MATCHES` and :data:`DAMAGE`: the faces of the dice this roll is
    matched against."""
    target: int | None = None
    """For :data:`SUCCESSES` on a roll of faces: the N+ a die must reach to count
    (e.g. a morale die that recovers on 4+ and otherwise sets a distance)."""


@dataclass(frozen=True)
class DiceRequest:
    """Ask for ``count`` six-sided dice.

    ``target`` is the number each die must reach ("N+"); with no target the faces
    themselves matter (a table roll, a distance) and a count of successes is not
    accepted. ``why`` explains the target ("Basic shooter, soft cover").

    ``luck`` says how the roll is judged for ``side`` (the end-of-game report's dice
    luck); ``None`` is the usual reading: more successes are better for a roll with
    a target, and a roll of faces is not judged (see :func:`luck_of`).
    """

    key: str
    count: int
    purpose: str
    target: int | None = None
    why: str = ""
    rule: str = ""
    side: str | None = None
    luck: Luck | None = None

    @property
    def successes_only(self) -> bool:
        return self.target is not None


Step = Question | DiceRequest


def luck_of(request: DiceRequest) -> Luck:
    """How ``request`` is judged: its own :attr:`DiceRequest.luck`, else more
    successes for a roll with a target, else not at all."""
    if request.luck is not None:
        return request.luck
    return Luck(SUCCESSES) if request.target is not None else Luck(UNJUDGED)


@dataclass(frozen=True)
class Dice:
    """Dice rolled for a request: the faces, or only how many succeeded."""

    faces: tuple[int, ...] = ()
    successes: int | None = None
    generated: bool = False

    def count(self, target: int) -> int:
        """Successes against ``target`` ("N+"; DZ3-R7: 7+ never succeeds)."""
        if self.successes is not None:
            return self.successes
        return sum(1 for f in self.faces if f >= target)


ROLL = Dice(generated=True)
"""Answer a dice request with this to have the driver roll the game's RNG."""

Answer = str | int | Dice


def parse_dice(text: str, request: DiceRequest) -> Dice:
    """Read dice typed at the table.

    Faces may be separated (``3 5 6 1 2``, ``3,5,6``) or run together (``35612``).
    Where only successes matter a count may be typed instead: ``3s``, ``=3``,
    ``3 hits`` or ``3 successes``. Partial input raises :class:`Refused` saying how
    many dice are still expected.
    """
    t = text.strip().lower()
    m = re.fullmatch(r"=\s*(\d+)|(\d+)\s*(?:s|hits?|successes|success)", t)
    if m:
        if not request.successes_only:
            raise Refused("this roll needs the faces of the dice, not a count of successes")
        return check_dice(Dice(successes=int(m.group(1) or m.group(2))), request)
    if not t:
        raise Refused(f"enter {request.count} dice")
    if not re.fullmatch(r"[\d\s,;]+", t):
        raise Refused("type the faces as digits 1-6 (e.g. 3 5 6 or 356)"
                      + (", or a count of successes like 3s" if request.successes_only else ""))
    tokens = re.split(r"[\s,;]+", t.strip(" ,;"))
    digits = tokens[0] if len(tokens) == 1 else None
    faces = tuple(int(c) for c in digits) if digits else tuple(int(x) for x in tokens)
    return check_dice(Dice(faces=faces), request)


def check_dice(dice: Dice, request: DiceRequest) -> Dice:
    if dice.generated and not dice.faces:
        return dice
    if dice.successes is not None:
        if not request.successes_only:
            raise Refused("this roll needs the faces of the dice, not a count of successes")
        if not 0 <= dice.successes <= request.count:
            raise Refused(f"{dice.successes} successes from {request.count} dice is impossible")
        if request.target is not None and request.target > 6 and dice.successes:
            raise Refused(f"nothing succeeds on {request.target}+ (DZ3-R7)")
        return dice
    bad = [f for f in dice.faces if not 1 <= f <= 6]
    if bad:
        raise Refused(f"a die shows 1 to 6, not {bad[0]}")
    n = len(dice.faces)
    if n < request.count:
        more = request.count - n
        raise Refused(f"{n} of {request.count} dice entered; {more} more expected")
    if n > request.count:
        raise Refused(f"{n} dice entered but only {request.count} were rolled")
    return dice


def check_answer(step: Step, answer: Answer) -> Answer:
    """Return the answer in normal form, or raise :class:`Refused` with the reason."""
    if isinstance(step, DiceRequest):
        if isinstance(answer, str):
            return parse_dice(answer, step)
        if not isinstance(answer, Dice):
            raise Refused(f"{step.purpose}: expected dice")
        return check_dice(answer, step)
    if isinstance(answer, Dice):
        raise Refused(f"{step.prompt}: expected an answer, not dice")
    if step.choices:
        values = [c.value for c in step.choices]
        if str(answer) not in values:
            raise Refused(f"{answer!r} is not one of: {', '.join(values)}")
        return str(answer)
    try:
        value = int(answer)
    except (TypeError, ValueError):
        raise Refused(f"{step.prompt}: expected a whole number, not {answer!r}") from None
    if step.minimum is not None and value < step.minimum:
        raise Refused(f"{step.prompt}: at least {step.minimum}")
    if step.maximum is not None and value > step.maximum:
        raise Refused(f"{step.prompt}: at most {step.maximum}")
    return value


class HasRng(Protocol):
    rng: Any


@dataclass
class Note:
    """A line of narrative, said after the ``after``-th answer (0 = before any).

    ``to`` names the only side allowed to read it (a card drawn into a secret hand);
    ``None`` is public.
    """

    after: int
    text: str
    to: str | None = None

    def __reduce__(self) -> tuple[type[Note], tuple[int, str, str | None]]:
        """Pickled as its fields: a save's cache holds the notes of hundreds of events,
        read back at every resume in a third of the time a default pickle takes
        (issue 21)."""
        return Note, (self.after, self.text, self.to)


@dataclass(frozen=True)
class Harm:
    """Harm done to a unit in a resolution, as the end-of-game report counts it.

    ``damage`` is what the ruleset's rules call damage (:attr:`Ruleset.damage_counts`:
    points of damage, those the shields absorb included; failed saves or blocks where
    the rules have no damage points); ``kills`` the figures (models) it removed as
    casualties. ``by`` is the unit that did it (the poisoner of a poisoned unit, the
    shooter of a casualty removed later), ``None`` when no unit did (a vehicle's own
    explosion, a fall)."""

    to: str
    by: str | None
    damage: int = 0
    kills: int = 0


@dataclass
class Context:
    """What a resolution works on: a private copy of the state, its notes, and the
    harm it did (derived again on every replay, never saved)."""

    state: Any
    notes: list[Note] = field(default_factory=list)
    facts: dict[str, Any] = field(default_factory=dict)
    answered: int = 0
    harms: list[Harm] = field(default_factory=list)
    turned: bool = False
    """The resolution turned a hidden card (off a deck): as at a table it stays
    turned, so the action can no longer be cancelled, only confirmed
    (:meth:`~deathzap_tui.rules.game.Action.spent`). A resolution turns a card as its
    last change (a draw is resolved at once)."""

    def say(self, text: str, to: str | None = None) -> None:
        self.notes.append(Note(self.answered, text, to))

    def harm(self, to: str, by: str | None, damage: int = 0, kills: int = 0) -> None:
        """Record that unit ``to`` suffered ``damage`` and lost ``kills`` figures to
        unit ``by`` (see :class:`Harm`); nothing is recorded when both are 0."""
        if damage or kills:
            self.harms.append(Harm(to, by, damage, kills))


Maker = Callable[[Context], Generator[Step, Answer, None]]


def at_once(change: Callable[[Context], object]) -> Maker:
    """A resolution that asks nothing: ``change`` changes the state and narrates, and
    the resolution is done (a card flipped, a pass, a phase ended with nothing to
    roll)."""

    def make(ctx: Context) -> Generator[Step, Answer, None]:
        change(ctx)
        yield from ()

    return make


class Resolution:
    """A resolution in progress, driven one answer at a time.

    It works on a private deep copy of ``start``, so ``back()`` and a refused answer
    can re-drive from the start with the answers kept: cheap and always correct.
    With ``borrow=True`` it works on ``start`` itself instead (replaying a log from a
    state nobody else holds): no copy, but also no going back, and a refused answer
    leaves ``start`` half-changed, which replay treats as a corrupt log.
    """

    def __init__(self, start: HasRng, make: Maker, *, borrow: bool = False) -> None:
        self.start = start
        self.make = make
        self.borrow = borrow
        self._begun = False
        self._begin()

    def _begin(self) -> None:
        if self.borrow and self._begun:
            raise RuntimeError("a resolution on a borrowed state cannot start again")
        self._begun = True
        self.ctx = Context(self.start if self.borrow else copy.deepcopy(self.start))
        self._gen = self.make(self.ctx)
        self.answers: list[Answer] = []
        self.asked: list[Step] = []
        """The steps answered so far, in order (each with its answer in ``answers``)."""
        self._pristine = True
        self.step: Step | None = self._advance(lambda: next(self._gen))

    def _advance(self, step_fn: Callable[[], Step]) -> Step | None:
        try:
            return step_fn()
        except StopIteration:
            return None

    @property
    def done(self) -> bool:
        return self.step is None

    def answer(self, answer: Answer) -> Step | None:
        """Feed one answer; return the next step (``None`` when finished).

        A refused answer raises :class:`Refused` and leaves the resolution where it
        was.
        """
        step = self.step
        if step is None:
            raise Refused("this resolution is already complete")
        answer = check_answer(step, answer)
        if isinstance(step, DiceRequest) and isinstance(answer, Dice) and answer.generated:
            rng = self.ctx.state.rng
            before = rng.state
            rolled = rng.roll(step.count)
            if answer.faces and answer.faces != rolled:
                rng.state = before  # a refused answer changes nothing
                raise Refused("recorded generated dice do not match the game's RNG")
            answer = Dice(faces=rolled, generated=True)
        kept = list(self.answers)
        self._pristine = False
        try:
            self.ctx.answered += 1
            self.step = self._advance(lambda: self._gen.send(answer))
        except Refused:
            if not self.borrow:
                self.replay(kept)
            raise
        self.answers.append(answer)
        self.asked.append(step)
        return self.step

    @property
    def shown(self) -> bool:
        """Whether the resolution has shown chance that a table cannot take back: it
        moved the game's dice RNG (generated dice) or turned a card."""
        return self.ctx.turned or self.ctx.state.rng != self.start.rng

    def back(self) -> Step | None:
        """Undo the last answer (nothing has been committed yet). Generated dice
        cannot be taken back: they were shown, and answering again would only let the
        earlier answers be changed knowing them."""
        last = self.answers[-1] if self.answers else None
        if isinstance(last, Dice) and last.generated:
            raise Refused("the dice are rolled and cannot be taken back "
                          "(cancelling the action leaves them rolled)")
        self.replay(self.answers[:-1])
        return self.step

    def replay(self, answers: Sequence[Answer]) -> None:
        """Start again (unless nothing was answered yet) and feed ``answers``."""
        if not self._pristine:
            self._begin()
        for a in answers:
            self.answer(a)


def answer_to_data(answer: Answer) -> Any:
    """Plain TOML/JSON-able form of an answer."""
    if isinstance(answer, Dice):
        if answer.successes is not None:
            return {"successes": answer.successes}
        return {"faces": list(answer.faces), "generated": answer.generated}
    return answer


def answer_from_data(data: Any) -> Answer:
    if isinstance(data, dict):
        if "successes" in data:
            return Dice(successes=int(data["successes"]))
        return Dice(faces=tuple(int(f) for f in data.get("faces", ())),
                    generated=bool(data.get("generated", False)))
    if isinstance(data, bool) or not isinstance(data, str | int):
        raise ValueError(f"not an answer: {data!r}")
    return data
