"""The teacher key in front of the teacher's own pages: the teacher's page and the projector page.

A page asks for the teacher key first whenever ``COLORLAB_TEACHER_KEY`` is set
(the classroom server sets it); until the right key is typed, nothing of the
class reaches the browser. Without that variable the page opens only on the
teacher's own machine: a kernel of a server (the classroom server names its
store in ``COLORLAB_TABLES``; Voila names itself in ``SERVER_SOFTWARE``) keeps
the page locked, since a learner could open it there. Wrong keys in a row make
the page wait longer and longer before the next try.

Once open, a board follows every table of the class (:mod:`colorlab.tables.changes`)
and draws again when one changes: the page sends nothing while nothing happens.
"""

from __future__ import annotations

import math
import secrets
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

import traitlets

from colorlab.classroom.class_store import STORE_VARIABLE, TEACHER_KEY_VARIABLE
from colorlab.classroom.signed_in import NotSignedIn, on_a_hub, sender, teachers
from colorlab.rules import IllegalAction
from colorlab.tables.changes import EVERY_TABLE, EVERYTHING
from colorlab.tables.store import TableError, TableStore
from colorlab.widgets.base import GuardedWidget

GATE_SCRIPT = Path(__file__).parent / "static" / "keygate.js"  # the page's side of the gate: the key form
NOTICE_SECONDS = 60.0  # a notice (a table closed, a seat key) goes after about this long: it no longer holds
LONGEST_KEY_WAIT = 30.0  # seconds a page waits at most between two tries of the teacher key
KEY_FIRST = "Type the teacher key first."
SEALED = (
    "This page stays locked: the class's server was started without a teacher key "
    f"(set {TEACHER_KEY_VARIABLE} where the server starts)."
)


def served_to_others(environ: Mapping[str, str]) -> bool:
    """Does this kernel serve a page that others could open (the classroom server, or any Voila app)?"""
    return STORE_VARIABLE in environ or environ.get("SERVER_SOFTWARE", "").startswith("voila")


def gate_for(key: str | None, environ: Mapping[str, str]) -> str:
    """How does the page open: "key" (ask for it), "hub" (for the class's teachers, as the hub knows them), "open"
    (the teacher's own machine) or "sealed" (never)?"""
    if on_a_hub(environ):
        return "hub"
    if key:
        return "key"
    return "sealed" if served_to_others(environ) else "open"


def is_the_key(typed: str, key: str) -> bool:
    """Is `typed` the teacher key? (Compared in constant time, so timing tells nothing of it.)"""
    return secrets.compare_digest(typed.encode("utf-8", "surrogatepass"), key.encode("utf-8", "surrogatepass"))


def key_wait(wrong: int) -> float:
    """How long a page waits before it may try the teacher key again, after `wrong` wrong keys in a row.

    Examples
    ========
    >>> from colorlab.classroom.gate import key_wait
    >>> [key_wait(wrong) for wrong in range(1, 9)]
    [0.0, 1.0, 2.0, 4.0, 8.0, 16.0, 30.0, 30.0]
    """
    return 0.0 if wrong < 2 else min(LONGEST_KEY_WAIT, 2.0 ** (wrong - 2))


class KeyedBoard(GuardedWidget):
    """A board of the teacher's behind the teacher key: each intent but the key is a method ``_<intent>``, and the
    board is drawn again (``refresh``) after it and whenever a table changes, once the page is open."""

    gate = traitlets.Unicode("key").tag(sync=True)

    REFUSALS: ClassVar[tuple[type[Exception], ...]] = GuardedWidget.REFUSALS + (TableError,)
    LOOK_AGAIN_SECONDS: ClassVar[float | None] = None  # look again this often though nothing changed (None: never)

    def __init__(self, store: TableStore, key: str | None, gate: str, **kwargs: Any):
        super().__init__(**kwargs)
        self.store, self._key = store, key
        self.gate = gate
        self.stop_following: Any = None
        self._wrong_keys, self._next_try = 0, 0.0  # wrong teacher keys typed on this page, and when it may try again
        self._said_at = 0.0  # when the notice was said
        self.on_hub = gate == "hub"  # on a school's hub: every message must come from one of the class's teachers

    def say(self, text: str, kind: str = "info") -> None:
        super().say(text, kind)
        self._said_at = time.monotonic()

    def forget_old_notice(self) -> None:
        """Clear a notice said more than NOTICE_SECONDS ago: it no longer holds."""
        if self.notice.get("text") and time.monotonic() - self._said_at > NOTICE_SECONDS:
            self.say("")

    def dispatch(self, intent: dict) -> None:
        kind = intent["type"]
        if self.on_hub:
            self.check_teacher()
        if kind == "key":
            self.unlock(intent["key"])
        elif self.gate != "open":
            raise IllegalAction(SEALED if self.gate == "sealed" else KEY_FIRST)
        else:
            getattr(self, f"_{kind}")(intent)
            self.refresh()

    def check_teacher(self) -> None:
        """On a hub: refuse a message from anyone but the class's teachers (the page opens at the first one's)."""
        try:
            who = sender()
        except NotSignedIn as error:
            raise IllegalAction(str(error)) from None
        if who not in teachers():
            raise IllegalAction(f"This page is for the class's teachers, and you are signed in as {who}.")
        if self.gate == "hub":
            self.gate = "open"
            self.say("")
            self.opened()

    def unlock(self, typed: str) -> None:
        """Open the page if `typed` is the teacher key; say so if it is not."""
        if self.gate == "open":
            return
        if self.gate == "sealed" or self._key is None:
            raise IllegalAction(SEALED)
        wait = self._next_try - time.monotonic()
        if wait > 0:
            raise IllegalAction(f"Wait {math.ceil(wait)} s before you try the teacher key again.")
        if not is_the_key(typed, self._key):
            self._wrong_keys += 1
            self._next_try = time.monotonic() + key_wait(self._wrong_keys)
            raise IllegalAction("That is not the teacher key. Try again.")
        self._wrong_keys, self._next_try = 0, 0.0
        self.gate = "open"
        self.say("")
        self.opened()

    def opened(self) -> None:
        """The page is open: draw it now, again whenever a table changes, and every LOOK_AGAIN_SECONDS (a device that
        dies writes nothing)."""
        self.refresh()
        if self.stop_following is None:
            self.stop_following = self.store.changes.follow(EVERY_TABLE, self.refresh)
            self.look_again_later()  # the first refresh was before following

    def look_again_later(self) -> None:
        """Ask to be woken in a while though nothing changes (the earliest wish counts)."""
        if self.stop_following is not None and self.LOOK_AGAIN_SECONDS is not None:
            self.store.changes.wake(EVERY_TABLE, self.LOOK_AGAIN_SECONDS)

    def refresh(self, changed: frozenset[str] = EVERYTHING) -> None:
        """Draw the board again from the tables that changed (every table, when `changed` is EVERYTHING)."""
        raise NotImplementedError

    def close(self) -> None:
        """Close the board, and stop following the tables."""
        if getattr(self, "stop_following", None) is not None:
            self.stop_following()
            self.stop_following = None
        super().close()
