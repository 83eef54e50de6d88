"""Noticing that tables changed, in one process, with one cheap look, and telling whoever follows them.

A learner's page at a shared table must show a classmate's move soon after it is made, and
must cost nothing while nothing happens. So no page asks the kernel "anything new?"; the
kernel looks at the store itself, about twenty times a second, in one cheap way:

- a SQLite file: ``PRAGMA data_version`` on a connection kept open for it. The number moves
  only when another connection has committed; then one indexed query reads which tables
  carry a change mark (``changed``) above the last one seen.
- PostgreSQL: a connection kept open ``LISTEN``\\ s on ``colorlab_changes``; every writing
  transaction announces the codes of the tables it changed, delivered when it commits. A
  look reads what has arrived on the socket, without a round trip to the server.

:class:`TableChanges` (one per store in a process, :meth:`TableStore.changes`) calls back the
followers of each table that changed: a seat's widget, the lobby, the teacher's page. It
also wakes a table's followers at a moment they asked for: a real-time game's bot calls STOP
when its clock says so, with no move to announce it. In a Jupyter kernel the looks run on the
kernel's own event loop, between the messages it handles; elsewhere (a script, a test)
:meth:`TableChanges.look` looks once.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import sqlite3
import time
from collections.abc import Callable, Iterable
from typing import Any, Protocol

from sqlalchemy.engine import Engine

from colorlab.tables.database import file_identity

LOOK_SECONDS = float(os.environ.get("COLORLAB_LOOK_SECONDS", "0.05"))  # between two looks at the store
TROUBLE_SECONDS = 1.0  # between two looks while the store does not answer
EVERY_TABLE = None  # follow every table (the lobby's and the teacher's lists), not one code
log = logging.getLogger(__name__)


class Store(Protocol):
    """What a look needs of a store (a :class:`~colorlab.tables.store.TableStore`): its engine, and which kind."""

    engine: Engine
    postgresql: bool
    channel: str


class Everything(frozenset):
    """The changes of a look that could not tell which tables changed (the first look, a lost connection)."""


EVERYTHING = Everything()


class SQLiteListener:
    """Which tables of a SQLite file changed since the last look? ``PRAGMA data_version`` says whether any did."""

    def __init__(self, store: Store):
        self.path = str(store.engine.url.database)
        self.connection: sqlite3.Connection | None = None
        self.version: int | None = None
        self.mark = 0
        self.identity: tuple[int, int] | None = None

    def changed(self) -> frozenset[str]:
        if self.connection is None:
            self.identity = file_identity(self.path)
            # mode=rw: a missing file is an error here, never a new empty file made where the class's file was
            self.connection = sqlite3.connect(
                f"file:{self.path}?mode=rw", uri=True, check_same_thread=False, isolation_level=None, timeout=5
            )
            self.mark = self._largest_mark()
            self.version = self._data_version()
            return EVERYTHING
        if file_identity(self.path) != self.identity:  # deleted or replaced: the store says so to whoever reads it next
            self.close()
            raise FileNotFoundError(f"the tables file {self.path} was deleted or replaced")
        version = self._data_version()
        if version == self.version:
            return frozenset()
        self.version = version
        found = self.connection.execute(
            "SELECT code, changed FROM colorlab_tables WHERE changed > ?", (self.mark,)
        ).fetchall()
        self.mark = max([self.mark, *(mark for _, mark in found)])
        return frozenset(code for code, _ in found)

    def _data_version(self) -> int:
        assert self.connection is not None
        return self.connection.execute("PRAGMA data_version").fetchone()[0]

    def _largest_mark(self) -> int:
        assert self.connection is not None
        return self.connection.execute("SELECT COALESCE(MAX(changed), 0) FROM colorlab_tables").fetchone()[0]

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None


class PostgreSQLListener:
    """Which tables of a PostgreSQL database changed since the last look? Their codes arrive as notifications."""

    def __init__(self, store: Store):
        self.engine, self.channel = store.engine, store.channel
        self.raw: Any = None

    def changed(self) -> frozenset[str]:
        if self.raw is None:
            self.raw = self.engine.raw_connection()  # kept out of the pool for as long as this listener lives
            connection = self.raw.driver_connection
            connection.autocommit = True
            connection.execute(f'LISTEN "{self.channel}"')
            return EVERYTHING
        try:
            return frozenset(note.payload for note in self.raw.driver_connection.notifies(timeout=0))
        except Exception:  # the server went away: listen afresh next time, and say that anything may have changed
            self.close()
            raise

    def close(self) -> None:
        if self.raw is not None:
            try:
                self.raw.invalidate()  # never handed back to the pool: it is in LISTEN mode
            except Exception:
                log.debug("closing a lost listening connection", exc_info=True)
            self.raw = None


Callback = Callable[..., None]


class TableChanges:
    """The followers of a store's tables in this process, called back when their table changes.

    `follow(code, callback)` returns what stops following. The followers of ``EVERY_TABLE`` (the
    teacher's list) are called with the codes of the tables that changed (``EVERYTHING``: any may have).
    A callback runs in the thread that looks (a kernel's main thread); an error in one is
    logged and never stops the others or the looking.
    """

    def __init__(self, store: Store, every: float = LOOK_SECONDS):
        self.store = store
        self.every = every
        self.listener: SQLiteListener | PostgreSQLListener | None = None
        self.followers: dict[str | None, list[Callback]] = {}
        self.wakes: dict[str | None, float] = {}  # code -> time.monotonic() at which its followers want a look
        self.handle: asyncio.TimerHandle | None = None
        self.looks = 0  # how many looks were taken (the benchmarks and tests count them)
        self.troubled = False  # did the last look fail?

    def follow(self, code: str | None, callback: Callback) -> Callback:
        """Call `callback` whenever table `code` (any table, for EVERY_TABLE) changes; return what stops it."""
        self.followers.setdefault(code, []).append(callback)
        self._keep_looking()

        def stop() -> None:
            callbacks = self.followers.get(code, [])
            if callback in callbacks:
                callbacks.remove(callback)
            if not callbacks:
                self.followers.pop(code, None)
                self.wakes.pop(code, None)
            if not self.followers:
                self._stop_looking()

        return stop

    def wake(self, code: str | None, seconds: float) -> None:
        """Call table `code`'s followers in `seconds` even if nothing is written (the earliest wish counts); the
        followers of EVERY_TABLE are then called with the tables that changed, maybe none."""
        at = time.monotonic() + max(0.0, seconds)
        self.wakes[code] = min(at, self.wakes.get(code, at))

    def look(self) -> frozenset[str]:
        """Look once: call back the followers of every table that changed or is due to wake; return those tables."""
        self.looks += 1
        try:
            if self.listener is None:
                self.listener = (PostgreSQLListener if self.store.postgresql else SQLiteListener)(self.store)
            changed = self.listener.changed()
        except Exception:
            if not self.troubled:  # once an outage, not at every look
                log.warning("the table store does not answer; trying again every %s s", TROUBLE_SECONDS, exc_info=True)
            self.troubled = True
            changed = EVERYTHING  # the followers read the store and say what they find (an error, in plain words)
        else:
            if self.troubled:
                log.warning("the table store answers again")
            self.troubled = False
        now = time.monotonic()
        woken = {code for code, at in self.wakes.items() if at <= now}
        for code in woken:
            del self.wakes[code]
        due = {code for code in woken if code is not None}
        everything = isinstance(changed, Everything)
        followed = {code for code in self.followers if code is not None}
        codes = followed if everything else (changed | due) & followed
        callbacks = [callback for code in codes for callback in self.followers.get(code, [])]
        if (everything or changed or EVERY_TABLE in woken) and EVERY_TABLE in self.followers:
            callbacks += [functools.partial(callback, changed) for callback in self.followers[EVERY_TABLE]]
        self._call(callbacks)
        return frozenset(codes) if everything else frozenset(changed | due)

    def close(self) -> None:
        """Stop looking and let go of the listening connection."""
        self._stop_looking()
        self.followers.clear()
        if self.listener is not None:
            self.listener.close()
            self.listener = None

    # --- looking on the kernel's event loop ------------------------------------------------

    def _keep_looking(self) -> None:
        """Look every `every` seconds on this thread's running event loop (a kernel's), if there is one."""
        if self.handle is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop runs here (a script, a test): whoever wants a look calls look()
            return
        self.handle = loop.call_later(self.every, self._tick, loop)

    def _tick(self, loop: asyncio.AbstractEventLoop) -> None:
        self.handle = None
        if not self.followers:
            return
        try:
            self.look()
        finally:
            if self.followers and self.handle is None:
                wait = max(self.every, TROUBLE_SECONDS) if self.troubled else self.every
                self.handle = loop.call_later(wait, self._tick, loop)

    def _stop_looking(self) -> None:
        if self.handle is not None:
            self.handle.cancel()
            self.handle = None

    @staticmethod
    def _call(callbacks: Iterable[Callback]) -> None:
        for callback in list(callbacks):
            try:
                callback()
            except Exception:
                log.exception("a follower of a table failed to take its change")
