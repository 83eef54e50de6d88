"""The teacher's page: every table of the class live, any table watched as the room sees it, closing, records.

The page asks for the teacher key first (see :mod:`colorlab.classroom.gate`): until the
right key is typed, nothing of the tables reaches the browser.

Once open, the page sends nothing while nothing happens: the kernel follows every
table (:mod:`colorlab.tables.changes`) and, when one changes, reads the tables again
and sends the list only when it differs. A table can be watched: its room view (no hand, no seed, no
locked answer), in words and a still picture, and for a Colourbrain table the
projector (:class:`colorlab.colourbrain.projector.ColourbrainProjector`) below.
Closing a table takes two presses (Close, then "Close it"). Download sends every
record once, as a zip of one JSON file per table (``<game>-<code>.json``, as
``store.export`` names them), in a one-off message: a record holds its seed, so
it never sits in a synced trait.
"""

from __future__ import annotations

import datetime
import itertools
import os
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, ClassVar

import ipywidgets
import traitlets

from colorlab.archive import record_file_name, records_zip_parts
from colorlab.classroom.class_store import PROJECTOR_ADDRESS_VARIABLE, TEACHER_KEY_VARIABLE, class_store
from colorlab.classroom.gate import GATE_SCRIPT, KeyedBoard, gate_for
from colorlab.games import find_game
from colorlab.record import game_spec
from colorlab.rules import IllegalAction
from colorlab.tables.changes import EVERYTHING, Everything
from colorlab.tables.store import Seat, TableStore, UnknownTable, clean_code
from colorlab.widgets.base import IntentError, IntentFields, palette_assets, widget_css, widget_esm
from colorlab.widgets.words import with_names

STATIC = Path(__file__).parent / "static"
EVENTS_SHOWN = 4
PRESENCE_SECONDS = 15.0  # how often the page looks again at who is connected
RECORD_DOWNLOADS = itertools.count(1)


def table_state(closed: bool, over: bool, free: int) -> str:
    """In a few words: is the table closed, finished, waiting for `free` more players or being played?"""
    if closed:
        return "closed"
    if over:
        return "finished"
    return f"waiting for {free} player{'s' if free > 1 else ''}" if free else "playing"


def seat_line(seat: dict) -> dict:
    """One seat as the page lists it: its name, whether a learner, a bot or nobody sits there, and (a learner's)
    whether the page is connected."""
    if seat["free"]:
        return {"name": "free seat", "kind": "free", "connected": False}
    return {"name": seat["name"], "kind": "learner" if seat["human"] else "bot", "connected": seat["connected"]}


def stand_in(game: str) -> str:
    """The bot that takes a learner's seat when the teacher hands it on: a greedy one where the game has one."""
    names = game_spec(game).bot_names(at_table=True)
    return "GreedyBot" if "GreedyBot" in names else names[0]


def table_line(entry: dict) -> dict:
    """One table of `store.tables()` as the page lists it (names, whose turn, scores, its state)."""
    names = [seat["name"] or "free seat" for seat in entry["seats"]]
    waiting = entry["started"] and not entry["over"] and not entry["closed"]
    state = table_state(entry["closed"], entry["over"], sum(seat["free"] for seat in entry["seats"]))
    return {
        "code": entry["code"],
        "game": entry["game"],
        "title": title(entry["game"]),
        "seats": [seat_line(seat) for seat in entry["seats"]],
        "scores": entry["scores"],
        "turn": [names[seat] for seat in entry["waiting_for"]] if waiting else [],
        "moves": entry["actions"],
        "state": state,
        "open": not entry["over"] and not entry["closed"],
        "over": entry["over"],
        "closed": entry["closed"],
    }


def room_summary(view: dict) -> dict:
    """What the teacher sees of a watched table, from a watcher's view (no hand, no seed): words and a still picture."""
    seating = view["seating"]
    names = seating["names"]
    seat_word = find_game(seating["game"]).seat_word
    events = [with_names(text, names, you=None, seat_word=seat_word) for text in view.get("events", [])[-EVENTS_SHOWN:]]
    state = table_state(seating["closed"], view.get("over", False), seating["free_seats"])
    playing = state == "playing"
    return {
        "code": seating["code"],
        "game": seating["game"],
        "title": title(seating["game"]),
        "names": names,
        "scores": view.get("scores", []),
        "step": seating["step"],
        "state": state,
        "turn": [names[seat] for seat in seating["waiting_for"]] if playing else [],
        "events": events,
        "picture": room_picture(seating["game"], view, names),
    }


def room_picture(game: str, view: dict, names: list[str]) -> str:
    """A still picture (SVG in HTML) of what lies open on the table, drawn by the game's own picture (if it has one)."""
    picture = find_game(game).part("room_picture")
    return picture(view, names) if picture else ""


def title(game: str) -> str:
    """The game's title, or its name as the record writes it when no game has that name (an old table)."""
    try:
        return find_game(game).title
    except LookupError:
        return game


def class_records_zip(store: TableStore) -> Iterator[bytes]:
    """Every table's record as a zip of JSON files, named as ``store.export`` names them, in parts (see
    :func:`colorlab.archive.records_zip_parts`)."""
    records = ((record_file_name(record.game, code), record) for code, record in store.each_record())
    return records_zip_parts(records)


class TablesBoard(KeyedBoard):
    """The list of every table, the watched table and the teacher's buttons: behind the key."""

    _esm = widget_esm(GATE_SCRIPT, STATIC / "teacher.js")
    _css = widget_css(STATIC / "teacher.css")

    tables = traitlets.List(traitlets.Dict()).tag(sync=True)
    watched = traitlets.Dict().tag(sync=True)
    confirming = traitlets.Unicode("").tag(sync=True)
    handing = traitlets.Dict().tag(sync=True)  # a seat the teacher is about to hand on: code, seat, to ("bot"/"free")
    projector = traitlets.Unicode("").tag(sync=True)  # the projector page's address, when the class server gives it

    INTENTS: ClassVar[IntentFields] = {
        "key": {"key": str},
        "watch": {"code": str},
        "stop_watching": {},
        "close": {"code": str},
        "confirm_close": {"code": str},
        "keep_open": {},
        "hand_seat": {"code": str, "seat": int, "to": str},
        "confirm_hand": {},
        "keep_seat": {},
        "seat_key": {"code": str, "seat": int},
        "open_quiz": {"teams": int},
        "download": {},
    }
    LOOK_AGAIN_SECONDS = PRESENCE_SECONDS

    def __init__(
        self, store: TableStore, key: str | None, gate: str, stage: ipywidgets.Box, projector: str = "", **kwargs: Any
    ):
        super().__init__(store, key, gate, **kwargs)
        self.stage = stage
        self.watcher: Seat | None = None
        self.assets = palette_assets()
        self.projector = projector
        if gate == "open":
            self.opened()

    def refresh(self, changed: frozenset[str] = EVERYTHING) -> None:
        """Read the tables that changed again (every table, at first), and the watched one; the page hears only of what
        changed. Called with nothing changed, it is time to see again who is connected at the tables in play."""
        if isinstance(changed, Everything) or not self.tables:
            tables = [table_line(entry) for entry in self.store.tables()]
        else:
            lines = {line["code"]: line for line in self.tables}
            again = changed or {line["code"] for line in self.tables if line["open"]}
            lines.update((entry["code"], table_line(entry)) for entry in self.store.tables(again))
            tables = list(lines.values())  # a new table's line comes last, as it was opened last
        self.look_again_later()
        self.forget_old_notice()
        if tables != self.tables:
            self.tables = tables
        if self.watcher is not None:
            watched = room_summary(self.watcher.view())
            if watched != self.watched:
                self.watched = watched

    def _watch(self, intent: dict) -> None:
        watcher = self.store.watch(intent["code"])
        self._stop_watching(intent)
        self.watcher = watcher
        self.watched = room_summary(watcher.view())
        projector = find_game(watcher.game).part("projector")
        if projector is not None:
            self.stage.children = (projector(watcher),)

    def _stop_watching(self, intent: dict) -> None:
        for shown in self.stage.children:
            shown.close()
        self.stage.children = ()
        self.watcher = None
        self.watched = {}

    def _close(self, intent: dict) -> None:
        code = clean_code(intent["code"])
        if self.store.table_row(code).closed is not None:
            raise IllegalAction(f"Table {code} is already closed.")
        self.confirming = code

    def _confirm_close(self, intent: dict) -> None:
        code = clean_code(intent["code"])
        if code != self.confirming:
            raise IllegalAction(f"Press Close beside table {code} first.")
        self.store.close(code)
        self.confirming = ""
        self.say(f"Table {code} is closed: nothing more can be played at it. Its record stays.")

    def _keep_open(self, intent: dict) -> None:
        self.confirming = ""

    def _hand_seat(self, intent: dict) -> None:
        """Ask before a seat is handed on: to a bot ("bot") or freed for another learner ("free")."""
        code, seat, to = clean_code(intent["code"]), intent["seat"], intent["to"]
        if to not in ("bot", "free"):
            raise IntentError(f"a seat goes to a bot or is freed, not {to!r}")
        line = self._line(code)
        if not line["open"]:
            raise IllegalAction(f"Table {code} is {line['state']}: its seats stay as they are.")
        if not 0 <= seat < len(line["seats"]):
            raise IntentError(f"table {code} has seats 1 to {len(line['seats'])}, not {seat + 1}")
        self.handing = {"code": code, "seat": seat, "to": to, "name": line["seats"][seat]["name"],
                        "bot": stand_in(line["game"])}  # fmt: skip

    def _confirm_hand(self, intent: dict) -> None:
        if not self.handing:
            raise IllegalAction("Choose a seat to hand on first.")
        code, seat, to, bot = (self.handing[key] for key in ("code", "seat", "to", "bot"))
        self.handing = {}
        self.store.hand_seat(code, seat, bot if to == "bot" else None)
        self.say(f"Seat {seat + 1} at table {code} " + (f"is {bot}'s now." if to == "bot" else "is free: a learner "
                 "can take it in the lobby with the table's code."))  # fmt: skip

    def _keep_seat(self, intent: dict) -> None:
        self.handing = {}

    def _seat_key(self, intent: dict) -> None:
        """Make a learner's seat a new seat key, shown to the teacher only: the learner comes back on another device."""
        code, seat = clean_code(intent["code"]), intent["seat"]
        key = self.store.seat_key_for_the_teacher(code, seat)
        name = self._line(code)["seats"][seat]["name"]
        self.say(
            f"New seat key for {name} at table {code}: {key}. On the new device, {name} opens the lobby, chooses "
            "'Come back to your seat' and types the code and this key. The old key opens the seat no more."
        )

    def _open_quiz(self, intent: dict) -> None:
        """Open a Colourbrain quiz that waits for the quiz master (this page) after each answer, and watch it: the
        projector shows below the list, with its Next question button."""
        teams = intent["teams"]
        quiz_rules: dict[str, Any] = {"teams": teams, "paced": True}  # the teacher page knows games by name only
        try:
            rules = find_game("colourbrain").rules_type(**quiz_rules)
        except ValueError as error:
            raise IntentError(str(error)) from None
        code = self.store.create("colourbrain", rules)
        self.refresh()
        self._watch({"code": code})
        self.say(
            f"Quiz {code} is open for {teams} teams: each team opens the lobby, types this code and sits at a free "
            "seat. You are the quiz master: after each answer, press Next question on the projector."
        )

    def _line(self, code: str) -> dict:
        """The table's line as the page lists it now (read afresh), or UnknownTable."""
        entries = self.store.tables([code])
        if not entries:
            raise UnknownTable(f"there is no table with the code {code}")
        return table_line(entries[0])

    def _download(self, intent: dict) -> None:
        name = f"class-records-{datetime.datetime.now():%Y%m%d-%H%M%S}.zip"
        number = next(RECORD_DOWNLOADS)
        count = len(self.store.tables())
        # One-off messages to this page, never a trait: every record holds its table's seed. The zip goes in parts as
        # it is made, the last one marked, so that neither the kernel nor one message ever holds a whole class.
        parts = class_records_zip(self.store)
        part: bytes | None = next(parts)
        for index, following in enumerate(itertools.chain(parts, [None])):
            last = following is None
            self.send({"type": "records", "name": name, "number": number, "part": index, "last": last}, [part])
            part = following
        self.say(f"Downloaded {count} record(s) as {name}.")


class TeacherPage(ipywidgets.VBox):
    """The teacher's page: the tables board, and below it the projector of a watched Colourbrain table."""

    def __init__(
        self, store: TableStore | None = None, key: str | None = None, environ: Mapping[str, str] | None = None
    ):
        environ = os.environ if environ is None else environ
        key = environ.get(TEACHER_KEY_VARIABLE) if key is None else key
        self.stage = ipywidgets.Box(layout=ipywidgets.Layout(flex_flow="column"))
        projector = environ.get(PROJECTOR_ADDRESS_VARIABLE, "")
        self.board = TablesBoard(store or class_store(), key or None, gate_for(key, environ), self.stage, projector)
        super().__init__([self.board, self.stage])
