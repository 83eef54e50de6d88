"""The class's projector page: the room's big screen, opened with the teacher key, with none of the teacher's controls.

The teacher puts this page on the projector (``classroom/projector.ipynb``, full
screen) and keeps the teacher's page on the laptop. What it shows:

- **How to join**: the short address learners type and a QR code of it for a
  tablet's camera (the class server names the address in ``COLORLAB_CLASS_ADDRESS``).
- **Between rounds**: the lesson's tables (not closed, opened in the last
  LESSON_SECONDS), each with its code, its game, who plays, the scores and whose
  turn it is; a quiz that is waiting for its teams says its code in large letters.
  Once the teacher's quiz has ended, its winner heads the list.
- **While the teacher's quiz runs** (the newest Colourbrain table that the quiz
  master moves on, once every team sits; an older one left unfinished gives way to it): that quiz fills the screen
  (the game's projector, :class:`colorlab.colourbrain.projector.ColourbrainProjector`, with ``fill``),
  with its Next question button. The teams' screens wait for that Next, and the
  winner is named on every screen at the same moment (the rule ``winner_after_next``).

Every word the class reads is at least 32 px on a 1920×1080 screen. Nothing of a
table's hidden side reaches this page: the board sends names, scores and states,
and the quiz is the room's view (no locked answer before the reveal, no seed).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

import ipywidgets
import segno
import traitlets

from colorlab.classroom.class_store import CLASS_ADDRESS_VARIABLE, TEACHER_KEY_VARIABLE, class_store
from colorlab.classroom.gate import GATE_SCRIPT, KeyedBoard, gate_for
from colorlab.classroom.teacher import table_line
from colorlab.games import find_game
from colorlab.tables.changes import EVERYTHING
from colorlab.tables.store import TableStore
from colorlab.widgets.base import IntentFields, widget_css, widget_esm

STATIC = Path(__file__).parent / "static"
LESSON_SECONDS = 4 * 3600.0  # tables opened longer ago than this belong to another lesson
MOST_TABLES_SHOWN = 9  # three rows of three cards fill a 1920×1080 screen at 32 px


def qr_picture(address: str) -> str:
    """The address as a QR code, an SVG element drawn large enough to be read from the back of a room."""
    return segno.make(address, error="m").svg_inline(border=2, dark="#000", light="#fff", omitsize=True)


def is_quiz_masters(entry: dict) -> bool:
    """Is this table a quiz that the quiz master moves on (the teacher's, opened from the teacher's page)?"""
    return entry["game"] == "colourbrain" and bool(entry["rules"].get("paced"))


def room_table(entry: dict) -> dict:
    """One table as the room sees it: the teacher's line for it (code, game, state, whose turn) with its players'
    scores beside their names, and whether it is the teacher's quiz."""
    line = table_line(entry)
    scores = line["scores"] or [0] * len(line["seats"])
    return {
        **{key: line[key] for key in ("code", "title", "state", "turn")},
        "players": [{"name": seat["name"], "score": score} for seat, score in zip(line["seats"], scores)],
        "quiz": is_quiz_masters(entry),
    }


def quiz_winner(entry: dict) -> str:
    """Who won a finished quiz, in the words the quiz's own screens use ("Colour-Brain: Reds!")."""
    rules: Any = find_game("colourbrain").rules_type.from_dict(entry["rules"])  # known here by name only
    goal = rules.goal
    names = [seat["name"] or f"Team {number + 1}" for number, seat in enumerate(entry["seats"])]
    won = [name for name, score in zip(names, entry["scores"]) if score >= goal]
    return f"Colour-Brain{'s' if len(won) > 1 else ''}: {', '.join(won)}!"


class RoomBoard(KeyedBoard):
    """The projector page's own part: the teacher key, then how to join and the lesson's tables (or, while the
    teacher's quiz runs, only how to join: the quiz fills the screen below)."""

    _esm = widget_esm(GATE_SCRIPT, STATIC / "room.js")
    _css = widget_css(STATIC / "teacher.css", STATIC / "room.css")

    join = traitlets.Dict().tag(sync=True)  # address: the short address to type; qr: an SVG of it
    tables = traitlets.List(traitlets.Dict()).tag(sync=True)
    more = traitlets.Int(0).tag(sync=True)  # tables of the lesson not shown (the screen holds MOST_TABLES_SHOWN)
    quiz = traitlets.Unicode("").tag(sync=True)  # the code of the quiz filling the screen ("" between rounds)
    winner = traitlets.Unicode("").tag(sync=True)  # the last finished quiz's winner, above the tables

    INTENTS: ClassVar[IntentFields] = {"key": {"key": str}}

    def __init__(self, store: TableStore, key: str | None, gate: str, stage: ipywidgets.Box, address: str, **kw: Any):
        super().__init__(store, key, gate, **kw)
        self.stage = stage
        self.address = address
        if gate == "open":
            self.opened()

    def opened(self) -> None:
        self.join = (
            {"address": self.address, "qr": qr_picture(self.address), "signed_in": self.on_hub} if self.address else {}
        )
        super().opened()

    def refresh(self, changed: frozenset[str] = EVERYTHING) -> None:
        lesson = self.store.tables(lesson=LESSON_SECONDS)  # oldest first
        # the teacher's newest quiz is the one the room follows: an older one left unfinished gives way to it
        quiz = next((entry for entry in reversed(lesson) if is_quiz_masters(entry)), None)
        running = quiz if quiz and quiz["started"] and not quiz["over"] else None
        ended = quiz if quiz and quiz["over"] else None
        newest_first = lesson[::-1]
        shown = [entry for entry in newest_first if not entry["over"]] + [e for e in newest_first if e["over"]]
        tables = [room_table(entry) for entry in shown]
        self.show_quiz(running["code"] if running else "")
        winner = quiz_winner(ended) if ended and not running else ""
        for name, value in (
            ("tables", tables[:MOST_TABLES_SHOWN]),
            ("more", max(0, len(tables) - MOST_TABLES_SHOWN)),
            ("winner", winner),
        ):
            if getattr(self, name) != value:
                setattr(self, name, value)
        self.forget_old_notice()

    def show_quiz(self, code: str) -> None:
        """Fill the screen with the quiz `code` (nothing: "")."""
        if code == self.quiz:
            return
        for shown in self.stage.children:
            shown.close()
        projector = find_game("colourbrain").part("projector")
        self.stage.children = (projector(self.store.watch(code), fill=True),) if code else ()
        self.quiz = code

    def close(self) -> None:
        """Close the board and the quiz it shows."""
        for shown in getattr(self, "stage", ipywidgets.Box()).children:
            shown.close()
        super().close()


class ProjectorPage(ipywidgets.VBox):
    """The class's projector page: the room board, and below it the teacher's quiz while it runs."""

    def __init__(
        self, store: TableStore | None = None, key: str | None = None, environ: Mapping[str, str] | None = None
    ):
        environ = os.environ if environ is None else environ
        key = environ.get(TEACHER_KEY_VARIABLE) if key is None else key
        self.stage = ipywidgets.Box(layout=ipywidgets.Layout(flex_flow="column", width="100%"))
        address = environ.get(CLASS_ADDRESS_VARIABLE, "")
        self.board = RoomBoard(store or class_store(), key or None, gate_for(key, environ), self.stage, address)
        super().__init__([self.board, self.stage], layout=ipywidgets.Layout(width="100%"))
