"""One key, one frame: where Textual (8.2) draws one key's changes in more than one
frame, and the overrides of its private methods that stop it.

**A layout and a full repaint.**
Textual (8.2) keeps two requests for its next frame on a screen: a layout (a widget
changed size, was shown or hidden) and a full repaint (``Screen.refresh()``, which
Textual itself calls whenever a screen is pushed or resumed). When both are pending
in the same tick, ``Screen._on_timer_update`` draws the layout as one frame and then
the whole screen again as a second: opening the wizard on ``a`` (the unit chooser)
wrote the screen twice, each time in full. Folding the repaint into the layout's frame
(the screen marked dirty before the layout, which then renders it in full) draws it
once. Guarded by ``tests/app/wizard/test_wizard_frames.py`` (``a`` opens the chooser in
one frame).

**Requests still on their way.** A widget's ``refresh`` only marks it; the widget
posts the request (a layout, a repaint) to its screen when it next goes idle. When the
screen's frame timer fires first, the screen draws what it has and the late requests
make a second frame a tick later: in a real terminal, opening the wizard on ``a`` drew
the whole screen twice (its step box's layout request arrived after the first frame;
headless tests, scheduled differently, saw one). :class:`OneFrameScreen` lets its frame
wait a tick (at most :attr:`~OneFrameScreen.MAX_WAITS`) while any of its widgets still
holds a request or the screen's queue or a widget's holds messages, so that one frame
draws them all; meanwhile it looks again after each turn of the event loop (at most
:attr:`~OneFrameScreen.MAX_POLLS`) and draws as soon as all have arrived: waiting for
the tick itself (17 ms, later on a busy machine) was most of the time from a key to
its frame (a message the key bubbled up, such as the outline's ``NodeHighlighted``,
was in the screen's queue at nearly every tick). A repaint counts only for a widget
already laid out: a new one (a notification, moved to a pushed screen) holds the
repaint it was styled with until its first layout wakes it, and held every frame for
the three ticks. Guarded by ``test_a_frame_waits_for_requests_still_on_their_way``
and, with the sections below, by ``test_a_game_s_keys_are_one_frame_each``.

**A change under the screen shown.** Textual repaints the whole current screen for
any change of the screen right under it, even when the current one's background
(opaque) hides it: a notification expiring on the battle screen under the wizard
(shown on both, it expires on both) repainted the whole wizard in a frame of its own,
besides the frame of the wizard's own toast going away; the blank screen under all
the others did the same at start-up. :func:`drop_hidden_changes` drops such a
screen's changes (:class:`OneFrameScreen`, :class:`Backdrop`): it is drawn in full
anyway when it is shown again (Textual repaints a screen on every resume). Guarded by
``test_a_notification_expiring_under_the_wizard_is_one_frame``.

**A layout that asks for another.** Laying a scroll view out at a new size may show or
hide its scrollbar (``show_vertical_scrollbar`` asks for a layout: the scrollbar must be
placed), and the new scrollbar's own size asks for one more; Textual draws a frame
after each of these layouts: a list growing past its box (a unit's sixteen actions,
eleven targets) took four frames. :class:`OneFrameScreen` does not draw a layout's
frame while a widget (or its scrollbar) asks for another layout (at most
:attr:`~OneFrameScreen.MAX_WAITS` ticks): the compositor keeps the regions to draw,
and the next layout draws them all in one frame. The same holds for the layouts
Textual does straight away when a screen is first shown and then gets its size (the
wizard's first ``a``, which mounts it, drew three frames); these are not ticks, so
they do not spend the ticks a frame may wait, but at most
:attr:`~OneFrameScreen.MAX_DEFERRALS` layouts in a row wait.

**A scroll view's scrollbars after every layout.** ``ScrollView._size_updated``
compares the virtual size the layout computes for it with the one the widget sets
itself (a Tree: its lines), which never agree, so every layout of the screen refreshes
its scrollbars; they ask to be drawn once the frame of that layout is out, and make a
second frame: in the force editor, every key that laid anything out (a field's text,
a message shown) drew the outline's scrollbar again. The scrollbars change only with
the widget's size, its container's, or its own virtual size (which its watcher
handles). Guarded by the editor cases of ``tests/app/wizard/test_wizard_frames.py``.

**A tree's focus.** Textual's ``Tree`` rebuilds its lines and lays the whole screen
out again on every style change, gaining or losing the focus among them (the outline,
Esc from a field): the layout costs a frame of its own besides the focus's repaint.
A focus change changes only the colours of its lines: drop their cached renderings
and repaint (:class:`SteadyTree`).

**A new size.** A layout that gives a widget a new size sets its virtual size, and
Textual lays the screen out again for that (``Widget._size_updated``): a second layout
and frame whenever a message or a hint appears, goes or changes its height, or a form
row is shown for the first time. For a widget that does not scroll (:class:`SteadySize`
mixed in, :class:`SteadyStatic`) the virtual size is only recorded: the layout that
sized it has placed everything already.

**An input thread that wakes ten times a second.** Textual's Linux driver reads the
terminal on a thread that waits for a key at most 0.1 s at a time (to tell a lone
Escape from the start of a sequence, and to notice the app ending): about 1 ms of CPU
a second in an app that nobody touches, which a club server pays for every session it
runs (issue 23). :class:`QuietLinuxDriver` waits until a key comes, or for just as long
as a lone Escape needs, and is woken when the app ends.

**Styles computed again on every push.** Pushing a screen styles it and all its
widgets again (``ScreenResume(refresh_styles=True)``), though each widget was styled when
mounted and again whenever a class or pseudo-class of it or an ancestor changed since:
the start screen's form was styled twice before its first frame, the wizard (kept
installed) restyled whole on every ``a``. Only a change outside the screen leaves its
styles behind (a theme, the app's classes or focus, reloaded CSS): :class:`SteadyStyles`
skips the restyle when none happened since the screen was last styled. (A style that
follows the focus must be a ``:focus-within`` rule of an ancestor of the focused widget:
Textual restyles only those on a focus change.)

**The first screen, drawn while frames are held back.** The app's first screen is
pushed while Textual starts the app, holding every frame back until it has
(``App.batch_update``): the screen's first layout was rendered in full and dropped,
the next refresh drew only the regions changed since (a frame of labels without
their fields), and only the terminal's first size report, the size the screen was
already laid out at, laid it out and drew it again whole. :class:`HeldFrameScreen`
renders nothing while frames are held back, draws the whole screen once they are let
through, and lays out again for a size report only when the size changed. Its first
frame drawn lets the garbage collector run again (:mod:`deathzap_tui.app.collector`).

**Style sheets parsed in every process.** Textual parses every sheet again in each
new process (the start screen's take about 118 M instructions, read kept about 25 M).
:class:`KeptStylesheet` takes a sheet's rules from those an earlier run kept
(:mod:`deathzap_tui.app.stylecache`) when nothing its parsing reads has changed, and
keeps those it parses. It overrides ``Stylesheet._parse_rules``, Textual's one way
from a sheet's text to its rules (which every parse, but a ``reparse`` after a theme
change, goes through), and reads ``_variables`` and ``_parse_cache``. Guarded by
``tests/app/test_stylecache.py``: the rules kept are the rules parsed, and the start
screen drawn from kept sheets is the screen drawn from parsed ones.

**An option list's lines counted as it is drawn.** An ``OptionList`` counts its
options' lines (``_update_lines``) only while it has a region: filled while hidden (the
wizard's list, hidden on Confirm, filled with the units on the next ``a``), it counts
them when it is first drawn, and the new virtual size, a reactive that asks for a
layout and a repaint, makes a second layout and frame though nothing moves. For a list
whose height does not follow its options (a fixed or fractional height, as the
wizard's), the virtual size moves only its scrollbars, which ask for a layout
themselves when one appears or goes (``show_vertical_scrollbar``): the virtual size of
:class:`SteadyOptionList` asks for neither. The same holds for a list drawn for the
first time (the start screen's saves): its lines are counted in its first frame,
not in a second.

**Every widget rendered for a few changed lines.** A frame that is not a full
repaint draws the screen's dirty regions; Textual renders for it every widget that
overlaps their union (``Compositor.render_partial_update``): a joined battle screen's
push changes its status line (the top row) and its log (the bottom right), so every
widget on the screen was rendered (14 of them, about a third of the frame) for a few
rows. :class:`ChangedRegions` (a screen's compositor, :class:`RegionsCompositor`)
renders only the widgets that overlap a dirty region itself. The bytes written are the
same: only the spans of the dirty regions are written, and every cut written there
belongs to a widget over one of them. Guarded by ``tests/app/test_changed_regions.py``.

Issue 20 gathers the project's overrides of private Textual methods in one place:
these rely on ``_layout_required``, ``_repaint_required``, ``_dirty_widgets`` (the
state ``Screen._on_timer_update`` reads), the message queues, the compositor (its
map and the regions it keeps to draw), a scroll view's ``_vertical_scrollbar`` and
``_horizontal_scrollbar``, and on ``_size_updated``'s and
``OptionList._update_lines``' contracts.
"""

from __future__ import annotations

import asyncio
import os
import selectors
from codecs import getincrementaldecoder
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from textual import events
from textual._compositor import ChopsUpdate, Compositor
from textual._time import get_time
from textual._xterm_parser import XTermParser
from textual.css.model import RuleSet
from textual.css.stylesheet import Stylesheet
from textual.css.types import CSSLocation
from textual.drivers.linux_driver import LinuxDriver
from textual.geometry import Region, Size
from textual.reactive import Reactive
from textual.screen import Screen
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import OptionList, Static, Tree

from deathzap_tui.app import collector
from deathzap_tui.app.stylecache import KeptSheets, sheet_name, variables_digest

ResultT = TypeVar("ResultT")
NodeT = TypeVar("NodeT")


class OneFrameScreen(Screen[ResultT]):
    """A screen whose layout and full repaint, pending together, make one frame, and
    that waits (a tick or two) for its widgets' requests still on their way."""

    MAX_WAITS: ClassVar[int] = 3
    """Ticks (of ~17 ms) a frame may wait for its widgets' requests in flight."""
    MAX_POLLS: ClassVar[int] = 50
    """Turns of the event loop after each of which a waiting frame looks again whether
    its requests have all arrived (then it is drawn without waiting for the tick).
    Still in flight after them, a request waits for something else (a timer, or a
    message that comes only after a frame): the frame is drawn at the next tick."""
    MAX_DEFERRALS: ClassVar[int] = 4
    """Layouts in a row whose frame may wait for the layout they ask (see
    :meth:`_compositor_refresh`)."""
    _waits = 0
    _polls = 0
    _deferrals = 0
    _polling = False

    def _requests_in_flight(self) -> bool:
        # Private: a widget's refresh sets these and posts its request to the screen
        # when the widget next goes idle (Widget._check_refresh); posted, it waits in
        # the screen's queue. A widget's own queue holds what may ask for more (its
        # focus, a bubbling message). A repaint counts only for a widget already laid
        # out and shown: a hidden one's posts nothing, and a new one's (styled before
        # its messages run) is posted only when a message wakes it (its first
        # layout's Resize), and that layout draws it anyway.
        compositor = self._compositor
        return not self._message_queue.empty() or any(
            widget._layout_required or not widget._message_queue.empty()
            or (widget._repaint_required and widget.display and widget in compositor)
            for widget in self.walk_children(Widget))

    def _poll(self) -> None:
        """Look again once the event loop has run the tasks ready now (the screen's
        and its widgets' queues), at most :attr:`MAX_POLLS` times a frame."""
        if self._polling:
            return
        if self._polls >= self.MAX_POLLS:
            self._waits = self.MAX_WAITS  # waiting for something else: draw at the tick
            return
        self._polls += 1
        self._polling = True
        asyncio.get_running_loop().call_soon(self._polled)

    def _polled(self) -> None:
        self._polling = False
        if not self._waits or not self.is_current:
            return  # drawn meanwhile, or no longer shown
        if self._requests_in_flight():
            self._poll()
        else:
            self._on_timer_update()

    _deferred = False
    """The update's frame was not drawn: the next tick lays out again and draws."""

    def _laid_out(self) -> Iterator[Widget]:
        """The screen's widgets and their scrollbars (a scroll view's, when it has
        them, are laid out with it but are not its children)."""
        for widget in self.walk_children(Widget):
            yield widget
            # Private: made on first use by Widget.vertical_scrollbar and friends.
            yield from filter(None, (widget._vertical_scrollbar, widget._horizontal_scrollbar))

    def _on_timer_update(self) -> None:
        # Private: Textual's per-frame update (an interval timer, paused by it).
        if self._waits < self.MAX_WAITS and self._requests_in_flight():
            self._waits += 1  # the timer runs on: the next tick draws them together,
            self._poll()  # or sooner, once they have all arrived
            return
        # Its layout pass renders the dirty widgets; the screen among them is rendered
        # in full, so the separate full repaint that would follow it is not needed.
        if self._layout_required and self._repaint_required:
            self._repaint_required = False
            self._dirty_widgets.add(self)
        self._deferred = False
        super()._on_timer_update()
        if not self._deferred:
            self._waits = self._polls = self._deferrals = 0

    def _compositor_refresh(self) -> None:
        # Private: draws the frame; Screen._refresh_layout calls it once it has laid
        # the screen out (from the frame timer, and straight away when the screen is
        # first shown or resized). Not drawn, the compositor keeps the regions to draw
        # (its _dirty_regions) for the next frame, which the layouts asked now bring.
        if self is self.app.screen and self._waits < self.MAX_WAITS and \
                self._deferrals < self.MAX_DEFERRALS and any(
                    widget._layout_required for widget in self._laid_out()):
            self._deferrals += 1  # not a tick: the ticks it waits count in _waits
            self._deferred = True
            self._poll()
            return
        self._deferrals = 0
        if not drop_hidden_changes(self):
            super()._compositor_refresh()


def drop_hidden_changes(screen: Screen[Any]) -> bool:
    """Drop the changes of ``screen`` and return True when it is under the current
    screen and hidden by it (an opaque background); else False (see the module's
    docstring). Called where its frame would be drawn (``_compositor_refresh``)."""
    # Private: a screen under the current one (App._background_screens, which always
    # holds the one right under it) asks the current one to repaint the regions it
    # changed; its compositor's dirty regions and _dirty_widgets are what it drew.
    current = screen.app.screen
    if screen is current or current.styles.background.a != 1:
        return False
    screen._compositor._dirty_regions.clear()
    screen._dirty_widgets.clear()
    return True


if TYPE_CHECKING:
    from textual.scroll_view import ScrollView as _ScrollView
    from textual.widget import Widget as _Widget

    _Screen = Screen[object]
else:
    _ScrollView = _Widget = _Screen = object


class SteadyStyles(_Screen):
    """Mixed into a screen (first among its bases): pushing it restyles it only when
    something outside it that styles read changed since it was last styled (see the
    module's docstring)."""

    _styled_for: tuple[object, ...] | None = None
    """What the screen's styles were last computed under (:meth:`_style_stamp`)."""

    def _style_stamp(self) -> tuple[object, ...]:
        # Private: the app's CSS generation (themes, CSS reloads bump it).
        app = self.app
        return app._css_update_count, frozenset(app.classes), frozenset(app.pseudo_classes)

    def _on_mount(self) -> None:
        # Every widget was styled as it was mounted, this screen last.
        self._styled_for = self._style_stamp()

    def _on_screen_resume(self, event: events.ScreenResume) -> None:
        # Runs before Screen's own handler (Textual dispatches each class's in turn,
        # most derived first), which restyles the screen if ``refresh_styles``.
        stamp = self._style_stamp()
        if stamp == self._styled_for:
            event.refresh_styles = False
        self._styled_for = stamp


class QuietLinuxDriver(LinuxDriver):
    """Textual's Linux driver whose input thread sleeps until a key comes (see the
    module's docstring)."""

    _wake: tuple[int, int] | None = None
    """A pipe that wakes the input thread when the app stops reading the terminal."""
    _closing = False

    def start_application_mode(self) -> None:
        self._closing = False
        self._wake = os.pipe()
        super().start_application_mode()  # starts the input thread

    def disable_input(self) -> None:
        wake = self._wake
        if wake is not None:
            self._closing = True
            os.write(wake[1], b"!")
        super().disable_input()  # waits for the input thread to end
        if wake is not None:
            self._wake = None
            os.close(wake[0])
            os.close(wake[1])

    def run_input_thread(self) -> None:
        # Textual's (LinuxDriver.run_input_thread) waits 0.1 s at a time. Private: the
        # parser's _timeout_time, when it holds an Escape that may begin a sequence.
        assert self._wake is not None
        parser = XTermParser(self._debug)
        decode = getincrementaldecoder("utf-8")().decode
        with selectors.DefaultSelector() as selector:
            selector.register(self.fileno, selectors.EVENT_READ)
            selector.register(self._wake[0], selectors.EVENT_READ)
            while not self._closing:
                due = parser._timeout_time
                for key, _mask in selector.select(
                        None if due is None else max(0.0, due - get_time())):
                    if key.fd != self.fileno:
                        continue
                    data = decode(os.read(self.fileno, 4096))
                    if not data:  # the terminal is gone: only the wake-up is left
                        selector.unregister(self.fileno)
                        continue
                    for event in parser.feed(data):
                        self.process_message(event)
                for event in parser.tick():
                    self.process_message(event)


class KeptStylesheet(Stylesheet):
    """Textual's stylesheet taking each sheet's rules from those kept by an earlier run
    (:mod:`~deathzap_tui.app.stylecache`) instead of parsing the sheet again, and
    keeping those it parses (see the module's docstring)."""

    def __init__(self, *, variables: dict[str, str] | None = None) -> None:
        super().__init__(variables=variables)
        self.sheets = KeptSheets.read()
        self._variables_digest: bytes | None = None

    @classmethod
    def replacing(cls, stylesheet: Stylesheet) -> KeptStylesheet:
        """A kept stylesheet with the CSS variables ``stylesheet`` (a new app's, with
        no sheet yet) was made with."""
        return cls(variables=stylesheet._variables)

    def set_variables(self, variables: dict[str, str]) -> None:
        super().set_variables(variables)
        self._variables_digest = None

    def keep(self) -> None:
        """Keep the sheets parsed in this run for the next (see ``KeptSheets.write``)."""
        self.sheets.write()

    def _parse_rules(self, css: str, read_from: CSSLocation, is_default_rules: bool = False,
                     tie_breaker: int = 0, scope: str = "") -> list[RuleSet]:
        sheet = (css, read_from, is_default_rules, tie_breaker, scope)
        if sheet in self._parse_cache:  # this run's, under Textual's own key
            return self._parse_cache[sheet]
        if self._variables_digest is None:
            self._variables_digest = variables_digest(self._variables)
        name = sheet_name(sheet, self._variables_digest)
        rules = self.sheets.rules(name)
        if rules is not None:
            self._parse_cache[sheet] = rules
            return rules
        rules = super()._parse_rules(css, read_from, is_default_rules, tie_breaker, scope)
        if not any(rule.errors for rule in rules):
            self.sheets.add(name, rules)
        return rules


class SteadyScrollbars(_ScrollView):
    """Mixed into a scroll view (first among its bases): its scrollbars are refreshed
    by a layout only when its size or its container's changed (see the module's
    docstring). A mixin, so that the widget's own component classes stay its own."""

    def _size_updated(self, size: Size, virtual_size: Size, container_size: Size,
                      layout: bool = True) -> bool:
        # Private: called by every layout of the screen with the layout's sizes.
        if size == self._size and container_size == self.container_size:
            return False
        return super()._size_updated(size, virtual_size, container_size, layout)


class SteadyTree(SteadyScrollbars, Tree[NodeT]):
    """A tree whose style changes (its focus) repaint it without a layout, and whose
    scrollbar a layout leaves alone (see the module's docstring)."""

    def notify_style_update(self) -> None:
        # Private: Tree's own calls Tree._invalidate (lines rebuilt, a layout of the
        # screen); Widget's, then the line cache (the colours) dropped and a repaint.
        super(Tree, self).notify_style_update()
        self._clear_line_cache()
        self.refresh()


class SteadySize(_Widget):
    """Mixed into a widget that never scrolls (first among its bases): its new size,
    from a layout, asks for no second layout (see the module's docstring)."""

    def _size_updated(self, size: Size, virtual_size: Size, container_size: Size,
                      layout: bool = True) -> bool:
        # Private: called by every layout of the screen; ``layout=False`` records the
        # virtual size without the refresh(layout=True) its reactive would ask for.
        return super()._size_updated(size, virtual_size, container_size, layout=False)


class SteadyStatic(SteadySize, Static):
    """Text that never scrolls, laid out once per change (:class:`SteadySize`)."""


class HeldFrameScreen(_Screen):
    """Mixed into a screen (first among its bases) that may be pushed while the app
    starts: nothing is rendered while the app holds its frames back, the whole screen
    once they are let through, and a size report of the size laid out lays out
    nothing (see the module's docstring)."""

    _held_back = False
    """A refresh came while frames were held back: the next one draws everything."""

    def _compositor_refresh(self) -> None:
        # Private: renders the screen's changes for App._display, which drops them
        # while App._batch_count is set (Screen._refresh_layout calls this later then).
        app = self.app
        if app._batch_count and self is app.screen and not app.is_inline:
            if not self._held_back:
                self._held_back = True
                app.call_later(self._draw_held_back)
            return
        if self._held_back:
            self._held_back = False
            self._compositor._dirty_regions.add(self._compositor.size.region)
        super()._compositor_refresh()
        collector.resume()  # the app's first frame is drawn (if the collector was paused)

    def _draw_held_back(self) -> None:
        if self.app._batch_count:  # still held back: try again after the next message
            self.app.call_later(self._draw_held_back)
        elif self._held_back and not self._layout_required:  # (else its layout's frame)
            self.refresh()

    def _screen_resized(self, size: Size) -> None:
        # Private: called on every Resize the app passes on, the terminal's first size
        # report too; Textual lays the screen out again whatever the size (a layout
        # asked for meanwhile is the frame timer's, as any other).
        if size == self._compositor.size:
            return
        super()._screen_resized(size)


class Backdrop(HeldFrameScreen, Screen[None]):
    """The blank screen under all the others (``App.get_default_screen``): laid out
    again only for a new size, and its changes not passed up to the current screen
    when that one's background hides it (:func:`drop_hidden_changes`: a second frame
    at start-up)."""

    def _compositor_refresh(self) -> None:
        if not drop_hidden_changes(self):
            super()._compositor_refresh()

class SteadyOptionList(SteadyScrollbars, OptionList):
    """An option list whose lines, counted as it is drawn (shown again after being
    hidden), ask for no second layout or repaint (see the module's docstring). Only
    for a list whose height is not ``auto``: an ``auto`` one is laid out again by
    that virtual size when its options change."""

    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False, repaint=False)
    """As Widget's, without its refresh: set only by the private ``_update_lines``,
    which repaints (a change of options) or is called by a repaint (the first draw),
    and updates the scrollbars itself (``_scroll_update``)."""


class RegionsCompositor(Compositor):
    """A compositor that renders for a partial frame only the widgets overlapping a
    region to draw, not all those overlapping their union (see the module's
    docstring)."""

    _drawing: tuple[Region, ...] = ()
    """The regions the partial frame being rendered draws."""

    def render_partial_update(self) -> ChopsUpdate | None:
        # Private: renders the dirty regions (_dirty_regions) of a frame that is not a
        # full repaint, through _render_chops and _get_renders(crop: their union).
        self._drawing = tuple(self._dirty_regions)
        try:
            return super().render_partial_update()
        finally:
            self._drawing = ()

    def _get_renders(self, crop: Region | None = None
                     ) -> Iterator[tuple[Region, Region, list[Strip]]]:
        # Private: each visible widget over ``crop`` (in the order they are drawn),
        # its region, its clip and its lines rendered within the clip.
        drawing = self._drawing
        if not drawing:
            yield from super()._get_renders(crop)
            return
        for widget, (region, clip) in self.visible_widgets.items():
            shown = region.intersection(clip)  # clip: its container's
            if not any(shown.overlaps(dirty) for dirty in drawing):
                continue
            x, y, width, height = shown
            yield region, clip, widget.render_lines(
                Region(x - region.x, y - region.y, width, height))


class ChangedRegions(_Screen):
    """Mixed into a screen: its partial frames render only the widgets over a region
    that changed (:class:`RegionsCompositor`, see the module's docstring)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Private: the screen's compositor, made by Screen.__init__ and kept for life.
        self._compositor = RegionsCompositor()
