"""The base of every colorlab game widget: state out, intents in, errors shown.

The Python model is the truth. The browser receives ``view``, a JSON snapshot
of the game as the viewing player may see it, and sends back ``intent``: a
small JSON object saying what the learner asked for. Everything the browser
sends is untrusted: an intent is checked, applied through the model or refused,
and the refusal is shown inside the widget (``notice``) while the true state is
sent again. No learner action ends in a traceback.

The base also keeps the game record, so history (step back and forward), undo,
save, load and replay work the same way for every game. An undo or a load
changes what happened, so it marks the game as a practice game (in the view,
the record and the saved file); a class can switch undo and loading off
(``undo=False``, ``loading=False``), and then the page hides those buttons and
the kernel refuses them anyway. Save on the page is a download to the
learner's device (where Load reads from, in JupyterLab and Voila alike): the
kernel answers that one click with a one-off message holding the saved file's
text, never a synced trait, since the file holds the seed. The page never
names a path; the notebook's own :meth:`GameWidget.save` writes files.

An intent is handled and then cleared (``intent`` goes back to None, and the
page's copy is never echoed to other pages), so nothing a player chose stays in
a synced trait.

A game widget can also sit at a shared table as one seat (``seat=``, a
:class:`colorlab.tables.Seat`). Its moves then go through ``seat.play``, checked
against the step the page showed (``seen``). The page sends nothing while nothing
happens: the kernel follows the table (:mod:`colorlab.tables.changes`) and sends a
new view when the table has moved on, or when a real-time bot's call is due. A page
that lost touch with its kernel for a while asks once ("sync"). At a table there
is no undo, no loading, no new game, no rule change and no Save: the table's
record is the teacher's (it holds the seed), and the kernel refuses them all with
a reason. The seat's token stays in the kernel.

Where the record lives is the widget's source: a :class:`LocalGame` in this
kernel or a :class:`TableSeat` at a table. The widget asks its source for the
record, to play, to catch up and what may be done there, never which one it has.
"""

from __future__ import annotations

import datetime
import itertools
import logging
import math
import os
import random
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import anywidget
import traitlets

from colorlab.agents import ready, seat_bots
from colorlab.palette import COLOUR_BLIND_SAFE, DEFAULT, GLYPHS, PALETTES, Colour, glyph_inks
from colorlab.record import GameRecord, RecordError, game_spec
from colorlab.rules import ChangeRules, IllegalAction, RuleError, RulesBase, brief
from colorlab.widgets.words import YOU, with_names

if TYPE_CHECKING:
    from colorlab.tables import Seat
    from colorlab.tables.store import Look

STATIC = Path(__file__).parent / "static"
MAX_INTENT_CHARS = 200_000
INTENT_BURST = 100  # messages a page may send a widget at once ...
INTENT_RATE = 20.0  # ... and then each second (a learner clicks a few times)
MAX_INTENT_DEPTH = 8
LARGEST_PAGE_NUMBER = 2**53  # a browser's numbers are exact only up to here
log = logging.getLogger(__name__)
DOWNLOAD_NUMBERS = itertools.count(1)  # so that a page showing one table twice downloads each save once
NOT_AT_A_TABLE = {
    "undo": "There is no undo at a table: every move counts for everyone sitting at it.",
    "load": "A saved game cannot be loaded at a table: the table plays its own game.",
    "new_game": "A table plays one game: ask your teacher for a new table.",
    "save": "Save is off at a table: your teacher keeps the whole game of the table.",
    "rules": "The rules of a table are fixed when it is opened.",
    "bot": "The bots at a table move by themselves.",
}
NOT_IN_THIS_KERNEL = {"sync": "this game is not played at a table: there is nothing to keep in step with"}


class IntentError(ValueError):
    """A message from the browser that is not a well-formed intent."""


def plain_json_problem(value: Any) -> str | None:
    """What makes `value` unlike anything a browser's JSON could hold, if anything?

    Numbers must be finite and within a browser's exact range, keys text, nesting
    shallow and the whole small; the walk stops at the first problem.
    """
    budget = MAX_INTENT_CHARS
    pending = [(value, 0)]
    while pending:
        item, depth = pending.pop()
        if depth > MAX_INTENT_DEPTH:
            return "is nested too deeply"
        if isinstance(item, dict):
            if not all(isinstance(key, str) for key in item):
                return "has a field name that is not text"
            budget -= sum(len(key) + 4 for key in item)
            pending.extend((child, depth + 1) for child in item.values())
        elif isinstance(item, list):
            pending.extend((child, depth + 1) for child in item)
        elif isinstance(item, str):
            budget -= len(item)
        elif isinstance(item, int) and not isinstance(item, bool):
            if abs(item) > LARGEST_PAGE_NUMBER:
                return "holds a number too large"
        elif isinstance(item, float):
            if not math.isfinite(item):
                return "holds a number that is not finite"
        elif not (item is None or isinstance(item, bool)):
            return f"holds a {type(item).__name__}"
        budget -= 2
        if budget < 0:
            return "is far too large"
    return None


# What a widget accepts from the page: each intent's type, then each of its fields and the type (or types) it holds
IntentFields = dict[str, dict[str, type | tuple]]


def check_intent(raw: Any, fields: IntentFields) -> dict:
    """Refuse an intent that is not an object with a known type and exactly the right fields."""
    if not isinstance(raw, dict):
        raise IntentError("the browser sent something that is not an intent")
    problem = plain_json_problem(raw)
    if problem:
        raise IntentError(f"the browser sent an intent that {problem}")
    kind = raw.get("type")
    if not isinstance(kind, str) or kind not in fields:
        raise IntentError(f"unknown intent {brief(kind)}")
    # seq numbers the page's intents; seen (at a table) is the step of the table the page showed.
    expected = dict(fields[kind], type=str, seq=int, seen=int)
    extra = set(raw) - set(expected)
    if extra:
        raise IntentError(f"intent {kind!r} has unknown field(s) {brief(sorted(extra))}")
    for name, kinds in expected.items():
        if name in ("seq", "seen") and name not in raw:
            continue
        if name not in raw:
            raise IntentError(f"intent {kind!r} needs the field {name!r}")
        value = raw[name]
        allowed = kinds if isinstance(kinds, tuple) else (kinds,)
        if (isinstance(value, bool) and bool not in allowed) or not isinstance(value, allowed):
            raise IntentError(f"{name} must be {' or '.join(k.__name__ for k in allowed)}, not {brief(value)}")
    return raw


def table_trouble(error: Exception) -> str:
    """What does the learner read when the table's store cannot be read or written? Plain words: the details (a
    driver's message, a path) go to the kernel's log only."""
    log.warning("a table could not be read", exc_info=error)
    return "The table cannot be reached right now; the page keeps trying by itself."


def bot_label(seat: int, kind: str) -> str:
    """How the page names a bot of this kind at a seat, in one pair of brackets.

    Examples
    ========
    >>> from colorlab.widgets.base import bot_label
    >>> bot_label(1, "SetBuilder"), bot_label(2, "SearchBot (quick)")
    ('Bot 1 (SetBuilder)', 'Bot 2 (SearchBot, quick)')
    """
    kind, _, detail = kind.partition(" (")
    return f"Bot {seat} ({kind}, {detail.rstrip(')')})" if detail else f"Bot {seat} ({kind})"


def new_game_record(game: str, rules: RulesBase, seed: int | None = None) -> GameRecord:
    """The record of a new game with these rules and this seed (a random one if None)."""
    return GameRecord(game, rules, random.randrange(2**31) if seed is None else seed)


def download_name(game: str) -> str:
    """What should a game saved from the page be called on the learner's device?"""
    return f"{game}-{datetime.datetime.now():%Y%m%d-%H%M%S}.json"


def palette_assets() -> dict:
    """Which palettes, glyphs, glyph inks (per palette) and codes does the browser need to draw any colour?"""
    return {
        "palettes": list(PALETTES),
        "glyphs": {c.value: GLYPHS[c] for c in Colour},
        "inks": glyph_inks(),
        "codes": {c.value: c.code for c in Colour},
    }


class GuardedWidget(anywidget.AnyWidget):
    """An anywidget that trusts nothing from the page.

    The page may write only ``intent`` (what the learner asked for) and
    ``palette``. An intent is checked against ``INTENTS``, carried out by
    :meth:`dispatch`, or refused with the reason shown in ``notice``; any
    other write is refused and the true value sent back.
    """

    notice = traitlets.Dict().tag(sync=True)
    palette = traitlets.Unicode("default").tag(sync=True)
    # Never echoed to the other pages, and cleared once handled: an intent may hold a secret answer.
    intent = traitlets.Any(None).tag(sync=True, echo_update=False)
    assets = traitlets.Dict().tag(sync=True)

    WRITABLE = frozenset({"intent", "palette"})
    INTENTS: ClassVar[IntentFields] = {}
    REFUSALS: ClassVar[tuple[type[Exception], ...]] = (IllegalAction, IntentError, RuleError, RecordError)

    def __init__(self, **kwargs: Any):
        self._notice_count = 0
        self._allowance = (float(INTENT_BURST), time.monotonic())  # intents the page may still send now, and when
        # Only a page served to others (Voila) is held to it: there one page's flood would slow a whole class's laptop.
        self._limited = os.environ.get("SERVER_SOFTWARE", "").startswith("voila")
        super().__init__(**kwargs)

    def dispatch(self, intent: dict) -> None:
        """Carry out a checked intent, or raise an error that says why not."""
        raise NotImplementedError

    def after_intent(self) -> None:
        """Whatever must follow every intent, carried out or refused (such as re-sending the view)."""

    def say(self, text: str, kind: str = "info") -> None:
        """Show a message inside the widget (kind: info or error); an empty text clears it."""
        self._notice_count += 1
        self.notice = {"text": text, "kind": kind, "seq": self._notice_count}

    def set_state(self, sync_data: dict) -> None:
        """Accept from the browser only the traits it may write; re-send the others.

        A page served by Voila that sends more than a burst of INTENT_BURST, then INTENT_RATE a second, has the surplus
        dropped before anything is read of it (said once to the page), so a flooding page costs its kernel next to
        nothing.
        """
        if self._limited and not self._allowed():
            return
        refused = [name for name in sync_data if name not in self.WRITABLE]
        accepted = {name: value for name, value in sync_data.items() if name in self.WRITABLE}
        if "palette" in accepted and not (isinstance(accepted["palette"], str) and accepted["palette"] in PALETTES):
            refused.append("palette")
            del accepted["palette"]
        # Checked before it becomes a trait: ipywidgets itself fails on numbers JSON cannot write.
        problem = plain_json_problem(accepted.get("intent"))
        if problem:
            del accepted["intent"]
            self.say(f"The browser sent an intent that {problem}.", "error")
            self.send_state("intent")
        if accepted:
            super().set_state(accepted)
        if refused:
            self.say(f"Ignored a change the page may not make ({', '.join(sorted(refused))}).", "error")
            self.send_state([name for name in refused if name in self.keys])

    def _allowed(self) -> bool:
        """Is there room for one more message from the page (a token bucket: a burst, then a steady rate)?"""
        tokens, last = self._allowance
        now = time.monotonic()
        tokens = min(float(INTENT_BURST), tokens + (now - last) * INTENT_RATE)
        if tokens < 1.0:
            if tokens >= 0.0:  # said once, when the page first runs out
                self.say("Too many clicks at once: the last ones were ignored. Slow down a little.", "error")
            self._allowance = (-1.0, now)
            return False
        self._allowance = (tokens - 1.0, now)
        return True

    @traitlets.observe("intent")
    def _on_intent(self, change: dict) -> None:
        if change["new"] is not None:
            try:
                self.act(change["new"])
            finally:
                self.intent = None

    def act(self, raw: Any) -> None:
        """Check and carry out one intent; show a refusal inside the widget instead of raising."""
        try:
            self.dispatch(check_intent(raw, self.INTENTS))
        except self.REFUSALS as error:
            self.say(str(error), "error")
        except Exception as error:  # a bug must not reach the learner as a traceback
            log.exception("colorlab widget error")
            self.say(
                f"Something went wrong inside colorlab ({type(error).__name__}: {error}); nothing was changed.", "error"
            )
        finally:
            self.after_intent()


class RecordSource:
    """Where a game widget's record lives, and what can be done with it there.

    Each source has the record and its states, plays an action (`play`), brings its
    copy up to date (`catch_up`), takes a new record or refuses to (`replace`), says
    who sits where (`seating`, `seat_names`, `seats_here`) and which seat the widget
    views (`you`), and names what cannot be done there (`not_here`) with the reason.
    """

    seat: Seat | None = None  # the seat at a shared table, if the record lives there
    you: int | None = YOU  # the seat the widget is viewing (None: the room's view)
    record: GameRecord
    states: list
    not_here: Mapping[str, str] = {}  # what cannot be done here -> the reason a learner reads
    refusals: tuple[type[Exception], ...] = ()  # errors of this source that a learner reads as refusals

    @property
    def state(self) -> Any:
        """The latest state of the record."""
        return self.states[-1]

    def follow(self, changed: Callable[[], None]) -> None:
        """Call `changed` whenever the record changes elsewhere (a record kept in this kernel never does)."""

    def here(self) -> None:
        """The page showing this seat is open (at a table, the teacher sees who is connected; elsewhere, nothing)."""

    def wake(self) -> None:
        """Call `changed` again when the record may change by itself (a record kept in this kernel never does)."""

    def stop_following(self) -> None:
        """Stop calling `changed` (the widget is closed)."""

    def permits(self, what: str) -> bool:
        """May the widget do `what` (undo, load, save, sync, ...) here?"""
        return what not in self.not_here

    def check(self, what: str) -> None:
        """Refuse `what`, with the reason a learner reads, if it cannot be done here."""
        if what in self.not_here:
            raise IllegalAction(self.not_here[what])


class LocalGame(RecordSource):
    """A record kept in this kernel: its player and bots play here, and it may be undone, loaded or begun anew."""

    not_here = NOT_IN_THIS_KERNEL

    def __init__(self, record: GameRecord, you: int | None = YOU):
        self.record, self.states, self.you = record, list(record.states()), you

    def play(self, action: Any, seen: int | None = None) -> None:
        """Check an action with the game's model and add it to the record (`seen` matters only at a table)."""
        state = self.record.spec.play(self.state, action)
        self.record = self.record.then(action)
        self.states.append(state)

    def catch_up(self) -> bool:
        """Has the record moved on since the widget last looked? Never: only this kernel plays it."""
        return False

    def replace(self, record: GameRecord) -> None:
        """Play this record from now on (replayed): a loaded game, an undo, a new game."""
        self.states = list(record.states())
        self.record = record

    def seating(self) -> dict:
        """Who sits where at a table: nothing, as there is none."""
        return {}

    def seat_names(self, here: Sequence[str] = (), you: str = "You") -> list[str]:
        """What is each seat called? The names this kernel gives its players (`here`)."""
        return list(here)

    def seats_here(self, seats: Iterable[int]) -> list[int]:
        """Which of `seats` play at this screen? All of them: this kernel plays every seat."""
        return list(seats)


class TableSeat(RecordSource):
    """A record kept at a shared table, seen from one seat (or the room's): others move too, so it catches up."""

    def __init__(self, seat: Seat, not_here: Mapping[str, str] = NOT_AT_A_TABLE):
        from colorlab.tables import TableError  # on demand: a kernel never at a table needs no database

        self.seat, self.you, self.not_here, self.refusals = seat, seat.seat, not_here, (TableError,)
        self.record, self.states = None, []
        self.seated: dict = {}  # the seating as last read
        self.looked: Look | None = None  # the table as last read
        self.stop_following: Callable[[], None] = lambda: None

    def play(self, action: Any, seen: int | None = None) -> None:
        """Send an action to the table, which refuses it if the decision has changed since step `seen`."""
        self.seat.play(action, seen=seen)

    def here(self) -> None:
        """Note at the table that this seat's page is open; a store that does not answer now hears it next time."""
        if self.you is None:
            return
        try:
            self.seat.store.here(self.seat)
        except Exception:  # not the learner's business: the page says so again in a while
            log.debug("could not note that the page of seat %s at %s is open", self.you, self.seat.code, exc_info=True)

    def catch_up(self) -> bool:
        """Bring this copy up to the table's latest step (one read): has the table moved on since the last look?"""
        self.looked = look = self.seat.look()
        replay = look.replay
        if replay.steps == len(self.states) - 1:
            return False
        self.record, self.states = replay.record, list(replay.states)
        return True

    def follow(self, changed: Callable[[], None]) -> None:
        """Call `changed` whenever the table changes, or may move by itself (this kernel looks, the page waits)."""
        self.stop_following()
        self.stop_following = self.seat.store.changes.follow(self.seat.code, changed)

    def wake(self) -> None:
        """Look again when the table may move by itself (a bot's timed call), as the last look said."""
        if self.looked is not None and self.looked.wake is not None:
            self.seat.store.changes.wake(self.seat.code, self.looked.wake)

    def replace(self, record: GameRecord) -> None:
        """Refuse: a table plays its own game."""
        self.check("load")

    def seating(self) -> dict:
        """Who sits where, the step, whose move it is and who has called, as the table said at the last look."""
        self.seated = self.seat.seating(self.looked)
        return self.seated

    def seat_names(self, here: Sequence[str] = (), you: str = "You") -> list[str]:
        """What is each seat called at the table (`you` for the widget's own; `here` does not count)?"""
        names = list(self.seated["names"]) if self.seated else self.seat.names()
        if self.you is not None:
            names[self.you] = you
        return names

    def seats_here(self, seats: Iterable[int]) -> list[int]:
        """Which of `seats` play at this screen? Only the widget's own: the others play at their own screens."""
        return [seat for seat in seats if seat == self.you]


class GameWidget(GuardedWidget):
    """A game table in the notebook: a thin view over a game record.

    `undo` and `loading` switch the Undo button and loading a saved game on or
    off (a class may want both off: then every game is played straight through).
    They govern what the page may ask; the notebook's own code may still call
    :meth:`undo` and :meth:`load`, and those mark the game too. `folder` is where
    the notebook's :meth:`save` writes when given no path (by default the folder the
    notebook runs in); Save on the page is a download to the learner's device.

    `new_record` makes the record of a game of the widget's own, played in this
    kernel. With `seat` instead the widget sits at a shared table: the record is
    the table's, `you` is the seat's number, and the page keeps in step with the
    other seats (see the module's notes).
    """

    title = "Game"
    game = ""  # the game's name, as records and tables write it
    WATCHABLE = False  # can it draw a table for a watcher, who has no seat (the room's view)?
    YOUR_SEAT: int | None = YOU  # the learner's seat in a game of its own (None: a screen passed round the room)
    REFUSED_AT_A_TABLE: ClassVar[Mapping[str, str]] = NOT_AT_A_TABLE

    view = traitlets.Dict().tag(sync=True)

    INTENTS: ClassVar[IntentFields] = {
        "history": {"step": int},
        "live": {},
        "undo": {},
        "save": {},
        "load": {"text": str},
        "new_game": {},
        "sync": {},
    }

    def __init__(
        self,
        new_record: Callable[[], GameRecord] | None = None,
        *,
        seat: Seat | None = None,
        undo: bool = True,
        loading: bool = True,
        folder: str | Path | None = None,
        **kwargs: Any,
    ):
        source = self._record_source(new_record, seat)
        if source.you is None and not self.WATCHABLE:
            raise ValueError(f"{self.title} draws a seat's own view: join the table to sit at it")
        super().__init__(**kwargs)
        self.source = source
        self.REFUSALS = self.REFUSALS + source.refusals
        self.allows_undo = bool(undo) and source.permits("undo")
        self.allows_loading = bool(loading) and source.permits("load")
        self.folder = Path.cwd() if folder is None else Path(folder)
        self.cursor: int | None = None
        self.seen: int | None = None
        self.assets = self.static_assets()
        self._editors: list = []
        self._seating: dict = {}  # the seating the page shows (none away from a table)
        self._trouble: str | None = None
        self.catch_up()
        self.source.follow(self.table_changed)
        self.source.wake()

    def _record_source(self, new_record: Callable[[], GameRecord] | None, seat: Seat | None) -> RecordSource:
        """Where does this widget's record live: at `seat` of a shared table, or in this kernel (a new game)?"""
        if seat is None:
            return LocalGame(new_record(), self.YOUR_SEAT)
        check_table_game(seat, self.game)
        return TableSeat(seat, self.REFUSED_AT_A_TABLE)

    # --- what the game supplies ------------------------------------------------------------

    def snapshot(self, state: Any) -> dict:
        """What may the viewing player see of `state`? (Each game says.)"""
        raise NotImplementedError

    def handle(self, intent: dict) -> None:
        """Carry out a game intent, or raise an error that says why not. (Each game says.)"""
        raise NotImplementedError

    def static_assets(self) -> dict:
        """What fixed drawing data does the browser need?"""
        return palette_assets()

    def undo_steps(self) -> int:
        """How many actions does one undo take back?"""
        return 1

    def fresh_record(self, rules: RulesBase | None = None) -> GameRecord:
        """The record of a new game with these rules (by default the same) and a new seed."""
        return new_game_record(self.record.game, rules or self.state.rules)

    def bots_at(self, name: str, seats: Iterable[int]) -> dict[int, Any]:
        """The game's bots called `name` at these seats, seeded as the record says (none at a table: its bots are
        the table's)."""
        if self.seat is not None:
            return {}
        record = self.record
        return seat_bots(game_spec(self.game).bots[name], record.seed, seats, record.seeding)

    def still_picture(self) -> str:
        """An HTML picture of the table for pages shown without a kernel (each game draws its own)."""
        return ""

    def _repr_mimebundle_(self, **kwargs):
        bundle = super()._repr_mimebundle_(**kwargs)
        data = bundle[0] if isinstance(bundle, tuple) else bundle
        picture = self.still_picture()
        if picture:
            data["text/html"] = picture
        return bundle

    def rules_changed(self) -> None:
        """React to a rule change in the running game (each game may)."""

    # --- rules -----------------------------------------------------------------------------

    def apply_rules(self, rules: RulesBase, changed: set[str]) -> str:
        """Use new rules: live ones in the running game, the others in a new game."""
        self.source.check("rules")
        live = type(rules).live_fields()
        if changed <= live and not self.state.over:
            self.play(ChangeRules({name: getattr(rules, name) for name in sorted(changed)}))
            self.rules_changed()
            self._show_rules_in_editors()
            self.refresh()
            return "Applied to the running game."
        self.set_record(self.fresh_record(rules))
        self.refresh()
        return f"Started a new game with these rules ({', '.join(sorted(changed - live))} cannot change during a game)."

    def rule_editor(self):
        """A rule editor wired to this game."""
        from colorlab.widgets.rule_editor import RuleEditor

        editor = RuleEditor(self.state.rules, on_apply=self.apply_rules, title=f"{self.title} rules")
        self._editors.append(editor)
        return editor

    def _show_rules_in_editors(self) -> None:
        """Let every rule editor of this game show the rules in force (after a load, an undo, a change in code)."""
        for editor in self._editors:
            if editor.rules != self.state.rules:
                editor.set_rules(self.state.rules)

    # --- the state and its history ---------------------------------------------------------

    @property
    def record(self) -> GameRecord:
        """The game record (at a table: as this widget last caught up with it)."""
        return self.source.record

    @property
    def states(self) -> list:
        """Every state of the record, from the first."""
        return self.source.states

    @property
    def state(self) -> Any:
        """The live state (the last state of the record)."""
        return self.source.state

    @property
    def seat(self) -> Seat | None:
        """The seat at a shared table this widget sits at (None: the game is this kernel's own)."""
        return self.source.seat

    @property
    def you(self) -> int | None:
        """Which seat does this widget show the game to (None: the room)?"""
        return self.source.you

    def play(self, action: Any) -> Any:
        """Apply an action through the game's model and keep it in the record (at a table: the table's)."""
        self.source.play(action, self.seen)
        if self.source.catch_up():  # the move went to a table: this copy learns of it, and of any reply, from there
            if self.notice.get("kind") == "error":  # an earlier refusal no longer holds once a move went through
                self.say("")
            self.table_moved()
        return self.state

    def set_record(self, record: GameRecord) -> None:
        """Replace the game by this record (replayed), and show its latest state."""
        self.source.replace(record)
        self.cursor = None
        self._show_rules_in_editors()

    def refresh(self) -> None:
        """Send the browser the state it should show now."""
        self._seating = self.source.seating()
        shown = self.states[self.cursor] if self.cursor is not None else self.state
        view = self.snapshot(shown)
        view["history"] = {
            "step": len(self.states) - 1 if self.cursor is None else self.cursor,
            "length": len(self.states) - 1,
            "live": self.cursor is None,
        }
        view["practice"] = {"undo": self.allows_undo, "loading": self.allows_loading, "note": self.practice_note()}
        if self._seating:
            view["seating"] = self._seating
        self.view = view

    def practice_note(self) -> str:
        """What tells learner and teacher that undo or loading changed this game ('' if nothing did)?"""
        if not self.record.marks:
            return ""
        return "Practice game: " + "; ".join(mark.describe() for mark in self.record.marks) + "."

    # --- the browser's side ----------------------------------------------------------------

    def dispatch(self, intent: dict) -> None:
        kind = intent["type"]
        if kind in GameWidget.INTENTS:
            getattr(self, f"_{kind}")(intent)
        elif self.cursor is not None:
            raise IllegalAction("you are looking at an earlier move: go to the latest move to play")
        else:
            self.seen = intent.get("seen", self.view.get("seating", {}).get("step"))
            try:
                self.handle(intent)
            finally:
                self.seen = None

    def act(self, raw: Any) -> None:
        """Check and carry out one intent; a table's sync refreshes the page only when the table changed, and a page
        saying it is open ("here") is only noted."""
        if isinstance(raw, dict) and raw.get("type") == "sync" and self.source.permits("sync"):
            self.sync(raw)
        elif isinstance(raw, dict) and raw.get("type") == "here":
            try:
                check_intent(raw, {"here": {}})
            except IntentError as error:
                self.say(str(error), "error")
                return
            self.source.here()
        else:
            super().act(raw)

    def after_intent(self) -> None:
        self.refresh()

    def _history(self, intent: dict) -> None:
        step = intent["step"]
        if not 0 <= step < len(self.states):
            raise IntentError(f"there is no move {step}; moves go from 0 to {len(self.states) - 1}")
        self.cursor = None if step == len(self.states) - 1 else step

    def _live(self, intent: dict) -> None:
        self.cursor = None

    def _sync(self, intent: dict) -> None:
        self.source.check("sync")

    def _undo(self, intent: dict) -> None:
        self.source.check("undo")
        if not self.allows_undo:
            raise IllegalAction("undo is switched off for this game")
        self.undo()

    def _save(self, intent: dict) -> None:
        self.source.check("save")
        # A one-off message to the page that asked, not a trait: the file holds the seed and so the deck order.
        name = download_name(self.record.game)
        self.send({"type": "download", "name": name, "number": next(DOWNLOAD_NUMBERS), "text": self.record.to_json()})
        self.say(f"Saved the game as {name} in your downloads.")

    def _load(self, intent: dict) -> None:
        self.source.check("load")
        if not self.allows_loading:
            raise IllegalAction("loading a saved game is switched off for this game")
        self.load_text(intent["text"])
        self.say("Loaded the saved game: step through it with the history buttons. It counts as a practice game.")

    def _new_game(self, intent: dict) -> None:
        self.source.check("new_game")
        self.set_record(self.fresh_record())
        self.say("A new game has started.")

    # --- the notebook's side ---------------------------------------------------------------

    def undo(self) -> None:
        """Take back your last move (and the bots' replies after it); the game becomes a practice game."""
        self.source.check("undo")
        steps = self.undo_steps()
        if steps <= 0:
            raise IllegalAction("there is nothing of yours to undo")
        self.set_record(self.record.undo(steps))
        self.say(f"Took back {steps} action(s). This is now a practice game.")

    def save(self, path: str | Path | None = None, overwrite: bool = False) -> Path:
        """Save the game record as JSON and return where; by default under a new name in `folder`.

        An existing file is replaced only with ``overwrite=True``.
        """
        self.source.check("save")
        if path is None:
            return self.record.save_new(self.folder)
        self.record.save(path, overwrite)
        return Path(path)

    def load(self, path: str | Path) -> None:
        """Load a saved game from a JSON file (it is marked as loaded)."""
        self.set_record(self._checked(GameRecord.load(path)).loaded())
        self.refresh()

    def load_text(self, text: str) -> None:
        """Load a saved game from the text of its JSON file (it is marked as loaded)."""
        self.set_record(self._checked(GameRecord.from_json(text)).loaded())

    # --- catching up (at a shared table, the others move too) ------------------------------

    def catch_up(self) -> bool:
        """Bring this widget's copy of the record up to date: has it moved on (at a table, by others' moves)?"""
        if not self.source.catch_up():
            return False
        self.table_moved()
        return True

    def table_moved(self) -> None:
        """React to new actions at the table (each game may)."""

    def sync(self, raw: dict) -> None:
        """The page asks to be brought up to date (once, after it lost touch with the kernel for a while)."""
        try:
            check_intent(raw, {"sync": {}})
        except IntentError as error:
            self.say(str(error), "error")
            return
        self.table_changed()

    def table_changed(self) -> None:
        """The table changed, or may have moved by itself: catch up, and send a new view only when something the
        page shows changed. A store that does not answer is said once; the next change or look tries again."""
        try:
            moved = self.catch_up()
            seating = self.source.seating()
        except Exception as error:  # the store may be unreachable for a while: say so once, and try again later
            trouble = str(error) if isinstance(error, self.REFUSALS) else table_trouble(error)
            if self.notice.get("text") != trouble:
                self.say(trouble, "error")
            self._trouble = trouble
            return
        if self._trouble is not None and self.notice.get("text") == self._trouble:
            self.say("")
        self._trouble = None
        if moved or seating != self._seating:
            self.refresh()
        self.source.wake()

    def close(self) -> None:
        """Close the widget, and stop following its table."""
        source = getattr(self, "source", None)  # a widget refused while being made has none
        if source is not None:
            source.stop_following()
        super().close()

    def _checked(self, record: GameRecord) -> GameRecord:
        if record.game != self.record.game:
            raise RecordError(f"that file holds a {record.game} game, not {self.record.game}")
        return record


def default_palette_css() -> str:
    """Which CSS custom properties give every colorlab widget its default palette?"""
    lines = [f"  --colorlab-{c.value}: {DEFAULT[c]};" for c in Colour]
    safe = [f"  --colorlab-{c.value}: {COLOUR_BLIND_SAFE[c]};" for c in Colour]
    return (
        ".colorlab {\n" + "\n".join(lines) + "\n}\n"
        ".colorlab[data-palette='colour-blind-safe'] {\n" + "\n".join(safe) + "\n}\n"
    )


def widget_css(*paths: Path) -> str:
    """The shared stylesheet, the palette and a game's own stylesheet, as one text."""
    parts = [default_palette_css(), (STATIC / "base.css").read_text(encoding="utf-8")]
    parts += [path.read_text(encoding="utf-8") for path in paths]
    return "\n".join(parts)


def check_table_game(seat: Seat, game: str) -> None:
    """Refuse a seat at another game's table."""
    if seat.game != game:
        raise ValueError(f"seat {seat.seat} of table {seat.code} plays {seat.game}, not {game}")


def widget_esm(*paths: Path) -> str:
    """The shared JS helpers followed by a widget's own scripts (the ES module last), as one text."""
    return "\n".join(path.read_text(encoding="utf-8") for path in (STATIC / "base.js", *paths))


class BotTable(GameWidget):
    """A game widget where the learner sits at seat 0 and bots of one kind fill the other seats.

    Each game says which bot may move now (:meth:`bot_seat`); the page asks for
    one bot move at a time, so that every move can be seen. At a shared table
    (``seat=``) the rules, the seed and the bots are the table's: its bots move by
    themselves, and the learner sits in the seat given.
    """

    def __init__(
        self,
        rules: RulesBase | None,
        bots: int,
        bot: str,
        seed: int | None = None,
        *,
        seat: Seat | None = None,
        **kwargs: Any,
    ):
        names = game_spec(self.game).bot_names()
        if bot not in names:
            raise ValueError(f"bot {bot!r} is unknown; choose one of {', '.join(names)}")
        self.bot_kind = bot
        super().__init__(lambda: self._first_record(rules, bots, seed), seat=seat, **kwargs)
        self._make_bots()
        self.refresh()

    def _first_record(self, rules: RulesBase | None, bots: int, seed: int | None) -> GameRecord:
        """The record of a game in this kernel: these rules (by default a seat for you and one per bot), this seed."""
        return new_game_record(self.game, rules or game_spec(self.game).rules_type(players=bots + 1), seed)

    def speakers(self, state: Any) -> list[str]:
        """How do messages name the players ("You", "Bot 1", ... or, at a table, the names of its seats)?"""
        return self.source.seat_names(["You"] + [f"Bot {seat}" for seat in range(1, state.players)])

    def player_names(self, state: Any) -> list[str]:
        """How does the page name the players ("You", "Bot 1 (SetBuilder)", ... or, at a table, its seats' names)?"""
        return self.source.seat_names(["You"] + [bot_label(seat, self.bot_kind) for seat in range(1, state.players)])

    def said(self, text: str, state: Any) -> str:
        """A model's text with the players' names instead of their seats."""
        return with_names(text, self.speakers(state), self.you)

    def bot_seat(self, state: Any) -> int | None:
        """Which bot should move now, if any? (Each game says.)"""
        raise NotImplementedError

    def bot_action(self, state: Any, seat: int) -> Any:
        """Which action does the bot at `seat` take now (its chance drawn for this step, as its seeding says)?"""
        return ready(self.bots[seat], len(self.record.actions)).act(state, seat)

    def bot_move(self) -> None:
        """Let one bot make its next move."""
        self.source.check("bot")
        seat = self.bot_seat(self.state)
        if seat is not None:
            self.play(self.bot_action(self.state, seat))

    def finish_bots(self) -> None:
        """Let the bots move until the learner must act (or the game is over)."""
        while self.bot_seat(self.state) is not None:
            self.bot_move()
        self.refresh()

    def _make_bots(self) -> None:
        self.bots = self.bots_at(self.bot_kind, range(1, self.record.rules.players))

    def set_record(self, record: GameRecord) -> None:
        super().set_record(record)
        self._make_bots()
