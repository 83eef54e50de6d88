"""Shared tables: one game record in a database, played from several kernels at once.

A table is a game record (rules + seed + actions) kept in a database instead of
one kernel's memory. Every learner's kernel holds a :class:`Seat`; when it plays,
one transaction catches the table up, lets the model check the action against
the latest state, and appends it, so two devices sending at once can never both
win. Bots sit in seats too: whoever touches the table next lets the bots whose
move it is play, each seated by colorlab's one rule (:func:`colorlab.agents.seat_bot`):
its move at each step draws its chance from the table's seed, its seat and the step
alone, so two kernels racing to move a bot write the same one move, once, and the
bot is the one ``play_game`` or an experiment would seat there.

Examples
========
>>> import tempfile, pathlib
>>> from colorlab import colorfox
>>> from colorlab.tables import TableStore
>>> store = TableStore(pathlib.Path(tempfile.mkdtemp()) / "class.db")
>>> code = store.create("colorfox", colorfox.Rules(players=2), seed=1, bots={1: "GreedyBot"})
>>> ada = store.join(code, seat=0, name="Ada")
>>> ada.view()["seating"]["names"]
['Ada', 'GreedyBot']
>>> store.rejoin(code, ada.token).name
'Ada'
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
import re
import secrets
import threading
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import sqlalchemy
from sqlalchemy import bindparam, text
from sqlalchemy.engine import Connection, Row

from colorlab.agents import ready, seat_bot
from colorlab.archive import record_file_name
from colorlab.record import GameRecord, RecordError, game_spec
from colorlab.rules import ChangeRules, IllegalAction, RulesBase, brief
from colorlab.tables.changes import TableChanges
from colorlab.tables.database import (
    CHANGE_MARK,
    StoreError,
    changes_channel,
    file_identity,
    is_postgresql,
    open_engine,
    prepare,
    server_time,
)
from colorlab.tables.games import Call, TableGame, table_game

log = logging.getLogger(__name__)
CODE_LETTERS = "ACDEFGHJKMNPQRTUVWXY34679"  # no look-alikes: 0/O, 1/I/L, 2/Z, 5/S, 8/B
CODE_LENGTH = 5
CODE_LOOK_ALIKES = str.maketrans({"O": "D", "0": "D"})  # codes hold no O or 0: a round letter typed is a D
SEAT_KEY_LENGTH = 6  # a seat key a learner can copy to another device by hand
AWAY_SECONDS = 60.0  # a learner's page not seen for this long is away (its device shut, its tab closed)
WRONG_KEYS_ALLOWED = 20  # wrong seat keys per table within WRONG_KEYS_WINDOW seconds before keys wait
WRONG_KEYS_WINDOW = 600.0
NAME_LENGTH = 30
RECORDS_BATCH = 200  # tables read at a time when every record is read


def _of_codes(query: str) -> Any:
    """A query of some tables: its `:codes` stands for a list of codes."""
    return text(query).bindparams(bindparam("codes", expanding=True))


SOME_TABLES = _of_codes("SELECT * FROM colorlab_tables WHERE code IN :codes")
SOME_SEATS = _of_codes(
    "SELECT code, seat, name, bot, seen FROM colorlab_seats WHERE code IN :codes ORDER BY code, seat"
)
LESSON_ROWS = "FROM colorlab_tables WHERE closed IS NULL AND created >= :since"
RECENT_TABLES = text(f"SELECT * {LESSON_ROWS} ORDER BY created, code")
RECENT_SEATS = text(
    f"SELECT code, seat, name, bot, seen FROM colorlab_seats WHERE code IN (SELECT code {LESSON_ROWS}) "
    "ORDER BY code, seat"
)
SOME_BOTS = _of_codes("SELECT code, seat, bot FROM colorlab_seats WHERE code IN :codes AND bot IS NOT NULL")
SOME_ACTIONS = _of_codes("SELECT code, action FROM colorlab_actions WHERE code IN :codes ORDER BY code, step")


class TableError(Exception):
    """A table request that is refused, with the reason: the table is unchanged."""


class StoreGone(TableError):
    """The SQLite file of the class was deleted or replaced under the running class."""


class StoreUnreachable(TableError):
    """The database did not answer (a server down, a file locked too long): the details are in the log."""


def unreachable(error: sqlalchemy.exc.DBAPIError) -> StoreUnreachable:
    """A database error in words a learner can read; the driver's own words (paths, sockets) go to the log only."""
    log.warning("the table store did not answer: %s", error.orig)
    return StoreUnreachable("The class's tables cannot be reached just now. The page tries again by itself.")


class UnknownTable(TableError, LookupError):
    """No table has this code."""


class SeatTaken(TableError):
    """The seat asked for is taken by a learner or a bot, or does not exist."""


class NameTaken(TableError):
    """Someone of this name already sits at the table: two players of one name could not tell whose turn it is."""


class WrongToken(TableError, IllegalAction):
    """A seat's secret token that does not open it."""


class TableClosed(TableError, IllegalAction):
    """The teacher has closed the table: nothing more can be played at it."""


class TooManyWrongKeys(TableError):
    """Too many wrong seat keys at one table in a short time: short keys wait a few minutes."""


class NotYourSeat(IllegalAction):
    """An action sent for another seat than the sender's."""


class StaleMove(IllegalAction):
    """A move chosen for a table that has moved on since the player looked."""


class WaitingForPlayers(IllegalAction):
    """A move at a table that still has free seats: the game starts when everyone has sat down."""


class AlreadyCalled(IllegalAction):
    """A second real-time call from the same seat before the first one is settled."""


def _hash(token: Any) -> str:
    """The SHA-256 of a token as the store keeps it ('' for anything that is not a token: it opens nothing)."""
    if not isinstance(token, str):
        return ""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_seat_key() -> str:
    """A short seat key, six characters without look-alikes: typed by hand on another device."""
    return "".join(secrets.choice(CODE_LETTERS) for _ in range(SEAT_KEY_LENGTH))


def _seat_key_hash(typed: Any) -> str:
    """The hash of a seat key as typed (any case, spaces and dashes ignored); '' if it cannot be one."""
    if not isinstance(typed, str):
        return ""
    key = re.sub(r"[\s-]", "", typed).upper()
    return _hash(key) if len(key) == SEAT_KEY_LENGTH else ""


def clean_name(name: Any) -> str:
    """A player's name, checked: 1 to 30 printable characters."""
    if not isinstance(name, str) or not name.strip():
        raise TableError("type a name to sit at a table")
    name = " ".join(name.split())
    if len(name) > NAME_LENGTH or not name.isprintable():
        raise TableError(f"a name is at most {NAME_LENGTH} printable characters")
    return name


def clean_code(code: Any) -> str:
    """A join code as typed, or UnknownTable: any case, spaces and dashes anywhere ("3t pkx", "3T-PKX"), and the
    look-alike O or 0 for a D (codes never hold O or 0) forgiven."""
    typed = re.sub(r"[\s\-.]", "", code).upper().translate(CODE_LOOK_ALIKES) if isinstance(code, str) else ""
    if not re.fullmatch(f"[{CODE_LETTERS}]{{{CODE_LENGTH}}}", typed):
        raise UnknownTable(f"there is no table with the code {str(code)[:20]!r}")
    return typed


@dataclasses.dataclass(frozen=True)
class Look:
    """One read of a table, all in one go: this process's copy caught up, the table's row, who sits in each seat
    (a name, or None for a free seat), the calls waiting, and in how many seconds the table may move by itself
    (a real-time bot's call, a call window closing; None: only a move will change it)."""

    replay: Replay
    row: Any
    seated: list[str | None]
    calls: list[Call]
    wake: float | None


@dataclasses.dataclass
class Replay:
    """This process's copy of one table: its record as last caught up, with every state."""

    record: GameRecord
    states: list

    @property
    def steps(self) -> int:
        return len(self.record.actions)

    @property
    def state(self) -> Any:
        return self.states[-1]


class TableStore:
    """Every table of a class, in a SQLite file (a path) or a PostgreSQL database (a URL)."""

    def __init__(self, where: str | Path, class_name: str | None = None):
        self.where, self.class_name = where, class_name
        try:
            self.engine = open_engine(where, class_name)
            self.channel = changes_channel(class_name)  # where this class's changes are announced (PostgreSQL)
        except (StoreError, sqlalchemy.exc.ArgumentError) as error:
            raise TableError(str(error)) from None
        self.postgresql = is_postgresql(self.engine)
        self._copies: dict[str, Replay] = {}
        self._changes: TableChanges | None = None
        self._bot_seats: dict[str, tuple[int, dict[int, str]]] = {}  # code -> (its change mark, the bots' seats)
        self._lock = threading.RLock()
        try:
            prepare(self.engine)
        except StoreError as error:
            self.engine.dispose()
            raise TableError(str(error)) from None
        self._file = None if self.postgresql else Path(str(self.engine.url.database))
        self._identity = self._file_identity()  # the SQLite file as opened: the same file must answer every time

    def __repr__(self) -> str:
        where = self.engine.url.render_as_string(hide_password=True)
        return f"TableStore({where!r}{'' if self.class_name is None else f', class_name={self.class_name!r}'})"

    @property
    def changes(self) -> TableChanges:
        """This process's look-out for changes to the store's tables, which calls back their followers."""
        if self._changes is None:
            self._changes = TableChanges(self)
        return self._changes

    # --- the teacher's side ---------------------------------------------------------------

    def create(
        self, game: str, rules: RulesBase | None = None, seed: int | None = None, bots: Mapping[int, str] | None = None
    ) -> str:
        """Open a new table and return its join code; `bots` puts a bot (its name or class) in seats."""
        try:
            spec, table = game_spec(game), table_game(game)
        except (RecordError, LookupError) as error:
            raise TableError(str(error)) from None
        rules = spec.rules_type() if rules is None else rules
        if type(rules) is not spec.rules_type:
            raise TableError(f"a {game} table needs {game}.Rules, not {type(rules).__name__}")
        seed = secrets.randbelow(2**63) if seed is None else seed
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
            raise TableError("a seed is a whole number from 0 to 2**63 - 1")
        # A bot may be named, or given as its class (colorfox.GreedyBot): the store keeps its name.
        bots = {seat: name.__name__ if isinstance(name, type) else name for seat, name in (bots or {}).items()}
        for seat, name in bots.items():
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < rules.players:
                raise TableError(f"there is no seat {seat!r}; seats are numbered 0 to {rules.players - 1}")
            if name not in spec.bot_names(at_table=True):
                raise TableError(
                    f"{name!r} is not a {game} bot; choose one of {', '.join(spec.bot_names(at_table=True))}"
                )
        try:
            table.table_rules(rules)
            first = spec.new_game(rules, seed)
        except (ValueError, LookupError) as error:
            raise TableError(f"these rules cannot start a {game} game: {error}") from None
        with self._writing(None) as (connection, _):
            now = server_time(connection)
            code = self._free_code(connection)
            everyone_seated = len(bots) == rules.players
            connection.execute(
                text(
                    "INSERT INTO colorlab_tables "
                    "(code, game, rules, seed, created, started, closed, since, steps, calls, over, scores, waiting) "
                    "VALUES (:code, :game, :rules, :seed, :now, :started, NULL, :now, 0, 0, 0, :scores, :waiting)"
                ),
                {
                    "code": code,
                    "game": game,
                    "rules": json.dumps(rules.to_dict()),
                    "seed": seed,
                    "now": now,
                    "started": now if everyone_seated else None,
                    "scores": json.dumps(table.scores(first)),
                    "waiting": json.dumps(table.waiting_for(first)),
                },
            )
            connection.execute(
                text("INSERT INTO colorlab_seats (code, seat, name, bot) VALUES (:code, :seat, :name, :bot)"),
                [
                    {"code": code, "seat": seat, "name": bots.get(seat), "bot": bots.get(seat)}
                    for seat in range(rules.players)
                ],
            )
            self._mark_changed(connection, code)
        return code

    def close(self, code: str) -> None:
        """Close a table: nothing more can be played at it (its record stays)."""
        with self._writing(clean_code(code)) as (connection, row):
            if row.closed is None:
                connection.execute(
                    text("UPDATE colorlab_tables SET closed = :now WHERE code = :code"),
                    {"now": server_time(connection), "code": row.code},
                )
                self._mark_changed(connection, row.code)

    def record(self, code: str) -> GameRecord:
        """The whole record of a table (seed included), as the store holds it now: it replays to the table's state."""
        return self._catch_up_reading(clean_code(code)).record

    def records(self) -> list[GameRecord]:
        """The records of every table, oldest first, for the rule-variant lab."""
        return [record for _, record in self.each_record()]

    def each_record(self, batch: int = RECORDS_BATCH) -> Iterator[tuple[str, GameRecord]]:
        """Every table's code and record, oldest first, read `batch` tables at a time (never a whole class's in memory).

        Read as stored, not replayed: a record replays (``GameRecord.final_state``) when someone needs its states.
        """
        with self._reading() as connection:
            codes = connection.execute(text("SELECT code FROM colorlab_tables ORDER BY created, code")).scalars().all()
        for start in range(0, len(codes), batch):
            chunk = list(codes[start : start + batch])
            with self._reading() as connection:
                rows = connection.execute(SOME_TABLES, {"codes": chunk}).all()
                bots = connection.execute(SOME_BOTS, {"codes": chunk}).all()
                actions = connection.execute(SOME_ACTIONS, {"codes": chunk}).all()
            bots_of: dict[str, dict[int, str]] = {}
            for code, seat, bot in bots:
                bots_of.setdefault(code, {})[seat] = bot
            actions_of: dict[str, list[str]] = {}
            for code, action in actions:
                actions_of.setdefault(code, []).append(action)
            for row in sorted(rows, key=lambda row: (row.created, row.code)):
                yield row.code, self._stored_record(row, bots_of.get(row.code, {}), actions_of.get(row.code, []))

    def _stored_record(self, row: Any, bots: Mapping[int, str], actions: Sequence[str]) -> GameRecord:
        """A table's record from its stored row, bots and actions (JSON texts), checked as a saved file is."""
        spec = game_spec(row.game)
        try:
            rules = spec.rules_type.from_dict(json.loads(row.rules))
            return GameRecord(
                row.game,
                rules,
                row.seed,
                tuple(spec.action_from_dict(json.loads(raw)) for raw in actions),
                bots=tuple(map(bots.get, range(rules.players))),
            )
        except (ValueError, TypeError, LookupError) as error:
            raise TableError(f"table {row.code} cannot be read by this colorlab: {error}") from None

    def export(self, folder: str | Path) -> list[Path]:
        """Save every table's record as a JSON file in `folder` (named by game and code)."""
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        paths = []
        for code, record in self.each_record():
            path = folder / record_file_name(record.game, code)
            record.save(path, overwrite=True)
            paths.append(path)
        return paths

    def tables(self, codes: Iterable[str] | None = None, lesson: float | None = None) -> list[dict]:
        """Every table (or only those of `codes`, or a lesson's: not closed and opened less than `lesson` seconds
        ago), oldest first: code, game, rules (as saved), seats (name, human or bot, connected), actions so far,
        whose move (seats), over, scores. Asking for some tables, or a lesson's,
        reads only theirs, through the indexes."""
        with self._reading() as connection:
            if codes is None and lesson is not None:
                since = {"since": server_time(connection) - lesson}
                rows = connection.execute(RECENT_TABLES, since).all()
                seats = connection.execute(RECENT_SEATS, since).all()
            elif codes is None:
                rows = connection.execute(text("SELECT * FROM colorlab_tables ORDER BY created, code")).all()
                seats = connection.execute(
                    text("SELECT code, seat, name, bot, seen FROM colorlab_seats ORDER BY code, seat")
                ).all()
            else:
                chunk = sorted(set(codes))
                rows = sorted(
                    connection.execute(SOME_TABLES, {"codes": chunk}).all(), key=lambda r: (r.created, r.code)
                )
                seats = connection.execute(SOME_SEATS, {"codes": chunk}).all()
            now = server_time(connection)
        by_code: dict[str, list] = {}
        for seat in seats:
            by_code.setdefault(seat.code, []).append(
                {
                    "seat": seat.seat,
                    "name": seat.name,
                    "bot": seat.bot,
                    "human": seat.bot is None,
                    "free": seat.name is None,
                    # a learner's page that said it is open less than AWAY_SECONDS ago (a bot is always there)
                    "connected": seat.bot is not None or (seat.seen is not None and now - seat.seen < AWAY_SECONDS),
                }
            )
        return [
            {
                "code": row.code,
                "game": row.game,
                "rules": json.loads(row.rules),
                "seats": by_code.get(row.code, []),
                "actions": row.steps,
                "started": row.started is not None,
                "closed": row.closed is not None,
                "over": bool(row.over),
                "scores": json.loads(row.scores),
                "waiting_for": json.loads(row.waiting),
            }
            for row in rows
        ]

    def games_of(self, name: str, most: int = 10) -> list[dict]:
        """The newest `most` tables where someone of this name sat (as :meth:`tables` gives them), newest first: on a
        school's hub a name is an account, so these are the learner's own games, from any day."""
        with self._reading() as connection:
            codes = list(
                connection.execute(
                    text(
                        "SELECT t.code FROM colorlab_tables t JOIN colorlab_seats s ON s.code = t.code "
                        "WHERE s.name = :name ORDER BY t.created DESC, t.code LIMIT :most"
                    ),
                    {"name": name, "most": most},
                ).scalars()
            )
        return sorted(self.tables(codes), key=lambda entry: codes.index(entry["code"])) if codes else []

    def watch(self, code: str) -> Seat:
        """A seat-less view of a table, for the teacher or a projector: the room's view, no hand."""
        code = clean_code(code)
        self._copy_of(code)
        return Seat(self, code, None, "the room", "")

    # --- the learners' side ---------------------------------------------------------------

    def join(self, code: str, seat: int | None = None, name: str = "") -> Seat:
        """Sit at a free seat (the first free one if `seat` is None) and get its secret token."""
        code, name = clean_code(code), clean_name(name)
        token = secrets.token_urlsafe(32)
        key = new_seat_key()
        with self._writing(code) as (connection, row):
            if row.closed is not None:
                raise TableClosed(f"table {code} is closed")
            seats = self._seats(connection, code)
            if seat is None:
                free = [number for number, entry in enumerate(seats) if entry.name is None]
                if not free:
                    raise SeatTaken(f"table {code} is full")
                seat = free[0]
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(seats):
                raise SeatTaken(f"table {code} has seats 0 to {len(seats) - 1}, not {seat!r}")
            if seats[seat].bot is not None:
                raise SeatTaken(f"seat {seat} at table {code} is a bot's ({seats[seat].bot})")
            if seats[seat].name is not None:
                raise SeatTaken(f"seat {seat} at table {code} is taken by {seats[seat].name}")
            if any(entry.name is not None and entry.name.casefold() == name.casefold() for entry in seats):
                raise NameTaken(
                    f"someone called {name} already sits at table {code}: add a letter to your name "
                    "(the first of your family name, say) and sit down again"
                )
            while any(entry.key_hash == _hash(key) for entry in seats):
                key = new_seat_key()
            now = server_time(connection)
            connection.execute(
                text(
                    "UPDATE colorlab_seats SET name = :name, token_hash = :hash, key_hash = :key, "
                    "joined = :now, seen = :now WHERE code = :code AND seat = :seat"
                ),
                {"name": name, "hash": _hash(token), "key": _hash(key), "now": now, "code": code, "seat": seat},
            )
            if row.started is None and sum(entry.name is None for entry in seats) == 1:
                connection.execute(
                    text("UPDATE colorlab_tables SET started = :now, since = :now WHERE code = :code"),
                    {"now": now, "code": code},
                )
            self._mark_changed(connection, code)
        return Seat(self, code, seat, name, token, key)

    def rejoin(self, code: str, token: str) -> Seat:
        """The seat this secret token (or the seat's short key) opens: after a reload, a restart, on a new device.

        Short keys can be guessed in time, so a table takes at most WRONG_KEYS_ALLOWED wrong
        keys in WRONG_KEYS_WINDOW seconds; after that only the long token opens a seat until
        the window has passed.
        """
        code = clean_code(code)
        with self._reading() as connection:
            self._table_row(connection, code)  # UnknownTable before anything else
            seats = self._seats(connection, code)
        tried = _hash(token)
        for entry in seats:
            if entry.token_hash is not None and secrets.compare_digest(entry.token_hash, tried):
                return Seat(self, code, entry.seat, entry.name, token)
        # A short key is checked and, if wrong, counted in one write transaction: kernels trying keys at the same
        # moment are counted one after another, so together they never try more than the limit.
        typed, limited, opened = _seat_key_hash(token), False, None
        with self._writing(code) as (connection, row):
            now = server_time(connection)
            fresh = row.wrong_since is None or now - row.wrong_since > WRONG_KEYS_WINDOW
            limited = not fresh and row.wrong_keys >= WRONG_KEYS_ALLOWED
            if not limited:
                opened = next(
                    (
                        entry
                        for entry in self._seats(connection, code)
                        if typed and entry.key_hash is not None and secrets.compare_digest(entry.key_hash, typed)
                    ),
                    None,
                )
            if not limited and opened is None:
                connection.execute(
                    text("UPDATE colorlab_tables SET wrong_keys = :count, wrong_since = :since WHERE code = :code"),
                    {
                        "count": 1 if fresh else row.wrong_keys + 1,
                        "since": now if fresh else row.wrong_since,
                        "code": code,
                    },
                )
        if limited:
            raise TooManyWrongKeys(
                f"too many wrong seat keys were tried at table {code}: wait a few minutes, or ask your teacher"
            )
        if opened is None:
            raise WrongToken(f"that key opens no seat at table {code}")
        key = re.sub(r"[\s-]", "", token).upper()
        return Seat(self, code, opened.seat, opened.name, key, key)

    def seat_of(self, code: str, name: str) -> Seat:
        """The seat where `name` sits at a table, with a fresh token (the one it had opens it no more).

        Only for a class whose learners are known by their accounts (a school's hub, where the class's server vouches
        for the name): anywhere else a name is only what someone typed, and a seat opens with its token or key.
        """
        code = clean_code(code)
        token = secrets.token_urlsafe(32)
        with self._writing(code) as (connection, row):
            if row.closed is not None:
                raise TableClosed(f"table {code} is closed")
            mine = [entry for entry in self._seats(connection, code) if entry.name == name and entry.bot is None]
            if not mine:
                raise WrongToken(f"{name} has no seat at table {code}")
            connection.execute(
                text("UPDATE colorlab_seats SET token_hash = :hash WHERE code = :code AND seat = :seat"),
                {"hash": _hash(token), "code": code, "seat": mine[0].seat},
            )
        return Seat(self, code, mine[0].seat, name, token)

    def renew_key(self, seat: Seat) -> str:
        """A fresh short key for a seat (the seat's token proves it is theirs); the old key opens it no more."""
        with self._writing(seat.code) as (connection, _):
            self._check_token(connection, seat)
            assert seat.seat is not None, "a watcher's seat has no token to check"
            key = self._give_new_key(connection, seat.code, seat.seat, self._seats(connection, seat.code))
        seat.key = key
        return key

    def here(self, seat: Seat) -> None:
        """Note that the seat's page is open (it says so every little while), for the teacher's list of who is
        connected. Not a change of the table: nobody else is called back for it."""
        with self._writing(seat.code) as (connection, _):
            self._check_token(connection, seat)
            connection.execute(
                text("UPDATE colorlab_seats SET seen = :now WHERE code = :code AND seat = :seat"),
                {"now": server_time(connection), "code": seat.code, "seat": seat.seat},
            )

    # --- the teacher's side ---------------------------------------------------------------

    def hand_seat(self, code: str, seat: int, bot: str | None = None) -> None:
        """Give a seat to `bot` (a bot's name), or free it for another learner (`bot` None), even in the middle of a
        game: the learner who sat there (a device that died, a learner who left) holds it no more."""
        code = clean_code(code)
        with self._writing(code) as (connection, row):
            if row.closed is not None:
                raise TableClosed(f"table {code} is closed")
            seats = self._seats(connection, code)
            _check_seat_number(code, seat, seats)
            if bot is not None and bot not in game_spec(row.game).bot_names(at_table=True):
                names = ", ".join(game_spec(row.game).bot_names(at_table=True))
                raise TableError(f"{brief(bot)} is not a {row.game} bot; choose one of {names}")
            connection.execute(
                text(
                    "UPDATE colorlab_seats SET name = :bot, bot = :bot, token_hash = NULL, key_hash = NULL, "
                    "seen = NULL WHERE code = :code AND seat = :seat"
                ),
                {"bot": bot, "code": code, "seat": seat},
            )
            if (
                row.started is None
                and bot is not None
                and all(entry.name is not None for number, entry in enumerate(seats) if number != seat)
            ):
                now = server_time(connection)
                connection.execute(
                    text("UPDATE colorlab_tables SET started = :now, since = :now WHERE code = :code"),
                    {"now": now, "code": code},
                )
            self._mark_changed(connection, code)

    def seat_key_for_the_teacher(self, code: str, seat: int) -> str:
        """A fresh short key for a learner's seat, for the teacher to give a learner on another device (the old key
        opens it no more; the page still open there keeps its seat)."""
        code = clean_code(code)
        with self._writing(code) as (connection, _):
            seats = self._seats(connection, code)
            _check_seat_number(code, seat, seats)
            if seats[seat].bot is not None or seats[seat].name is None:
                raise SeatTaken(f"seat {seat} at table {code} has no learner: only a learner's seat has a key")
            return self._give_new_key(connection, code, seat, seats)

    @staticmethod
    def _give_new_key(connection: Connection, code: str, seat: int, seats: Sequence[Row]) -> str:
        """Give a seat a short key no other seat at its table has (its old key opens it no more); return it."""
        taken = {entry.key_hash for entry in seats}
        key = new_seat_key()
        while _hash(key) in taken:
            key = new_seat_key()
        connection.execute(
            text("UPDATE colorlab_seats SET key_hash = :key WHERE code = :code AND seat = :seat"),
            {"key": _hash(key), "code": code, "seat": seat},
        )
        return key

    # --- playing --------------------------------------------------------------------------

    def play(self, seat: Seat, action: Any, seen: int | None = None) -> None:
        """Append a seat's action in one transaction, or refuse it and change nothing."""
        code = seat.code
        with self._writing(code) as (connection, row):
            table = table_game(row.game)
            self._check_token(connection, seat)
            if row.closed is not None:
                raise TableClosed(f"table {code} is closed: nothing more can be played at it")
            if row.started is None:
                raise WaitingForPlayers("the game starts when every seat is taken; some seats are still free")
            now = server_time(connection)  # one reading per transaction: what is settled and what is stamped agree
            replay = self._catch_up_within(connection, row)
            self._settle(connection, row, replay, table, now)
            state = replay.state
            _refuse_stale(replay, table, seat.seat, seen)
            if isinstance(action, ChangeRules):
                raise IllegalAction("the rules of a table are fixed when it is opened")
            owner = table.seat_of(action)
            if owner is None:
                raise NotYourSeat(
                    f"no seat plays a {type(action).__name__}: it is the table's own move "
                    "(a quiz master's Next comes from the teacher's projector)"
                )
            if owner != seat.seat:
                raise NotYourSeat(f"you sit in seat {seat.seat}; that action is for seat {owner}")
            if table.is_call(state, action):
                self._call(connection, row, replay, table, seat.seat, action, now)
            else:
                self._append(connection, row, replay, action, seat.seat, now)
            self._settle(connection, row, replay, table, now)

    def advance(self, code: str, action: Any, seen: int | None = None) -> None:
        """Append an action of the room (no seat's: the quiz master's Next) in one transaction, or refuse it.

        Only the kinds the game lists as `room_actions` are taken; whoever holds the room's screen
        (the teacher's projector) sends them. `seen` refuses a press made on an older screen, so two
        screens pressing at once move the table on once.
        """
        code = clean_code(code)
        with self._writing(code) as (connection, row):
            table = table_game(row.game)
            if not isinstance(action, table.room_actions):
                raise IllegalAction(f"{type(action).__name__} is played from a seat, not for the whole room")
            if row.closed is not None:
                raise TableClosed(f"table {code} is closed: nothing more can be played at it")
            if row.started is None:
                raise WaitingForPlayers("the game starts when every seat is taken; some seats are still free")
            now = server_time(connection)
            replay = self._catch_up_within(connection, row)
            self._settle(connection, row, replay, table, now)
            _refuse_stale(replay, table, None, seen)
            self._append(connection, row, replay, action, None, now)
            self._settle(connection, row, replay, table, now)

    def catch_up(self, code: str) -> Replay:
        """Catch this process's copy of a table up with the store (letting any bot whose move it is play first).

        The Replay returned is this process's live copy: it grows as the table does.
        """
        return self.look(code).replay

    def look(self, code: str) -> Look:
        """Read a table in one go (see :class:`Look`), after letting any bot whose move it is play."""
        with self._lock:
            replay = self._copy_of(code)
            with self._reading() as connection:
                row = self._table_row(connection, code)
                if row.steps != replay.steps:
                    replay = self._catch_up_within(connection, row)
                table = table_game(row.game)
                now = server_time(connection) if self._moves_by_itself(connection, row, table) else None
                due = now is not None and self._next_auto(connection, row, replay, table, now) is not None
                if not due:
                    return self._look_within(connection, row, replay, table, now)
            with self._writing(code) as (connection, row):
                replay = self._catch_up_within(connection, row)
                now = server_time(connection)
                self._settle(connection, row, replay, table, now)
                return self._look_within(connection, self._table_row(connection, code), replay, table, now)

    def _look_within(
        self, connection: Connection, row: Any, replay: Replay, table: TableGame, now: float | None
    ) -> Look:
        """The rest of a look at a table whose copy is caught up with `row`: seats, calls, and when it wakes."""
        calls = self._pending_calls(connection, row, table)
        wake = None
        if now is not None and table.due is not None and row.started is not None and row.closed is None:
            bots = self._bots(connection, row, table, replay.steps)
            due = None if replay.state.over else table.due(replay.state, bots, calls)
            wake = None if due is None else max(0.0, due - (now - row.since))
        seated = [entry.name for entry in self._seats(connection, row.code)]
        return Look(replay, row, seated, calls, wake)

    def calls(self, code: str) -> list[Call]:
        """The real-time calls waiting at a table now (their content stays in the kernel)."""
        with self._reading() as connection:
            row = self._table_row(connection, code)
            return self._pending_calls(connection, row, table_game(row.game))

    def table_row(self, code: str) -> Any:
        """The table's row: game, closed, started, steps, seats are read from it."""
        with self._reading() as connection:
            return self._table_row(connection, code)

    def seat_names(self, code: str) -> list[str | None]:
        """Who sits in each seat: a learner's name, a bot's name, or None for a free seat."""
        with self._reading() as connection:
            return [entry.name for entry in self._seats(connection, code)]

    # --- inside a transaction -------------------------------------------------------------

    def _file_identity(self) -> tuple[int, int] | None:
        """Which SQLite file is at the store's path now (None for PostgreSQL or no file)?"""
        return None if self._file is None else file_identity(self._file)

    def check_file(self) -> None:
        """Refuse to go on if the SQLite file was deleted or replaced since this kernel opened it.

        Kernels still holding the old file would go on playing in it unseen while new pages start an empty one:
        the class would split in two without a word. So every kernel says so instead, and stops.
        """
        if self._file is not None and self._file_identity() != self._identity:
            gone = "deleted" if self._file_identity() is None else "replaced by another file"
            raise StoreGone(
                f"The class's tables file ({self._file.name}) was {gone} while the class was running. "
                "Ask your teacher to restore it and restart the class server; until then nothing can be played."
            )

    @contextmanager
    def _reading(self) -> Iterator[Connection]:
        """One read-only look at the store, or a TableError if it does not answer."""
        with self._lock:
            self.check_file()
            try:
                with self.engine.connect() as connection:
                    yield connection
            except sqlalchemy.exc.DBAPIError as error:
                raise unreachable(error) from None

    @contextmanager
    def _writing(self, code: str | None) -> Iterator[tuple[Connection, Any]]:
        """One write transaction that has the table (its row locked), or UnknownTable."""
        with self._lock:
            self.check_file()
            replay = self._copies.get(code) if code else None
            kept = (len(replay.states), replay.record) if replay else None
            try:
                with self.engine.connect().execution_options(write=True) as connection, connection.begin():
                    row = self._table_row(connection, code, lock=True) if code else None
                    yield connection, row
            except sqlalchemy.exc.IntegrityError:
                self._forget(code, replay, kept)
                raise StaleMove("another device moved at the same moment: look again") from None
            except sqlalchemy.exc.DBAPIError as error:
                self._forget(code, replay, kept)
                raise unreachable(error) from None
            except BaseException:
                self._forget(code, replay, kept)
                raise

    def _forget(self, code: str | None, replay: Replay | None, kept: tuple[int, GameRecord] | None) -> None:
        """Undo this process's copy of a table after a transaction that did not commit."""
        if replay is not None and kept is not None:
            del replay.states[kept[0] :]
            replay.record = kept[1]
        elif code is not None:
            self._copies.pop(code, None)

    def _table_row(self, connection: Connection, code: str, lock: bool = False) -> Any:
        query = "SELECT * FROM colorlab_tables WHERE code = :code" + (" FOR UPDATE" if lock and self.postgresql else "")
        row = connection.execute(text(query), {"code": code}).one_or_none()
        if row is None:
            raise UnknownTable(f"there is no table with the code {code!r}")
        return row

    def _seats(self, connection: Connection, code: str) -> Sequence[Row]:
        return connection.execute(
            text("SELECT seat, name, bot, token_hash, key_hash FROM colorlab_seats WHERE code = :code ORDER BY seat"),
            {"code": code},
        ).all()

    def _check_token(self, connection: Connection, seat: Seat) -> None:
        number = seat.seat
        if number is None or isinstance(number, bool) or not isinstance(number, int) or not 0 <= number < 2**31:
            raise WrongToken(f"there is no seat {brief(number)} at table {seat.code}")
        stored = connection.execute(
            text("SELECT token_hash, key_hash FROM colorlab_seats WHERE code = :code AND seat = :seat"),
            {"code": seat.code, "seat": seat.seat},
        ).one_or_none()
        typed_key = _seat_key_hash(seat.token)
        opens = (
            stored is not None
            and stored.token_hash is not None
            and (
                secrets.compare_digest(stored.token_hash, _hash(seat.token))
                or bool(typed_key and stored.key_hash and secrets.compare_digest(stored.key_hash, typed_key))
            )
        )
        if seat.seat is None or not opens:
            raise WrongToken(f"this key does not open seat {seat.seat} at table {seat.code}")

    def _free_code(self, connection: Connection) -> str:
        while True:
            code = "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))
            taken = connection.execute(text("SELECT 1 FROM colorlab_tables WHERE code = :code"), {"code": code}).first()
            if taken is None:
                return code

    def _copy_of(self, code: str) -> Replay:
        """This process's copy of a table as it last caught up (catching up now if it has none yet)."""
        with self._lock:
            return self._copies.get(code) or self._catch_up_reading(code)

    def _catch_up_reading(self, code: str) -> Replay:
        """Catch this process's copy of a table up with the store in one read, writing nothing (no bot moves)."""
        with self._reading() as connection:
            return self._catch_up_within(connection, self._table_row(connection, code))

    def _catch_up_within(self, connection: Connection, row: Any) -> Replay:
        """Catch this process's copy of a table up with `row`, reading the actions it lacks through `connection`."""
        replay = self._copies.get(row.code)
        spec = game_spec(row.game)
        bots = self._bot_names(connection, row)  # the record says which bot sits where (the teacher may change it)
        if replay is None:
            try:
                rules = spec.rules_type.from_dict(json.loads(row.rules))
                record = GameRecord(row.game, rules, row.seed, bots=tuple(map(bots.get, range(rules.players))))
                replay = Replay(record, [spec.new_game(rules, row.seed)])
            except (ValueError, TypeError, LookupError) as error:
                raise TableError(f"table {row.code} cannot be read by this colorlab: {error}") from None
            self._copies[row.code] = replay
        elif replay.record.bots != (seated := tuple(map(bots.get, range(len(replay.record.bots))))):
            replay.record = dataclasses.replace(replay.record, bots=seated)
        if row.steps > replay.steps:
            found = connection.execute(
                text("SELECT step, action FROM colorlab_actions WHERE code = :code AND step >= :step ORDER BY step"),
                {"code": row.code, "step": replay.steps},
            )
            for step, raw in found:
                try:
                    action = spec.action_from_dict(json.loads(raw))
                    state = spec.play(replay.state, action)
                except (ValueError, TypeError, LookupError) as error:
                    raise TableError(f"action {step} of table {row.code} cannot be replayed: {error}") from None
                replay.record = replay.record.then(action)
                replay.states.append(state)
        return replay

    def _append(
        self, connection: Connection, row: Any, replay: Replay, action: Any, seat: int | None, now: float
    ) -> None:
        """Check an action with the model and write it as the table's next step."""
        spec = game_spec(row.game)
        state = spec.play(replay.state, action)
        connection.execute(
            text(
                "INSERT INTO colorlab_actions (code, step, seat, action, at) "
                "VALUES (:code, :step, :seat, :action, :now)"
            ),
            {
                "code": row.code,
                "step": replay.steps,
                "seat": seat,
                "action": json.dumps(spec.action_to_dict(action)),
                "now": now,
            },
        )
        table = table_game(row.game)
        connection.execute(
            text(
                "UPDATE colorlab_tables SET steps = :steps, since = :now, over = :over, "
                "scores = :scores, waiting = :waiting WHERE code = :code"
            ),
            {
                "steps": replay.steps + 1,
                "now": now,
                "over": int(state.over),
                "code": row.code,
                "scores": json.dumps(table.scores(state)),
                "waiting": json.dumps(table.waiting_for(state)),
            },
        )
        self._mark_changed(connection, row.code)
        replay.record = replay.record.then(action)
        replay.states.append(state)

    def _call(
        self, connection: Connection, row: Any, replay: Replay, table: TableGame, seat: int, action: Any, now: float
    ) -> None:
        """Note a real-time call, stamped by the table's clock, after checking it could be played."""
        row = self._table_row(connection, row.code)  # as it is now: settling may have moved the table on
        calls = self._pending_calls(connection, row, table)
        if any(call.seat == seat for call in calls):
            raise AlreadyCalled("you have already called: wait for the others' calls to be settled")
        seconds = now - row.since
        call = Call(seat, action, round(seconds, 3))
        assert table.call_action is not None, f"{row.game} takes no calls"  # is_call said this action is one
        game_spec(row.game).play(replay.state, table.call_action(replay.state, [call]))
        connection.execute(
            text(
                "INSERT INTO colorlab_calls (code, step, seat, action, seconds) "
                "VALUES (:code, :step, :seat, :action, :seconds)"
            ),
            {
                "code": row.code,
                "step": replay.steps,
                "seat": seat,
                "seconds": call.seconds,
                "action": json.dumps(game_spec(row.game).action_to_dict(action)),
            },
        )
        connection.execute(text("UPDATE colorlab_tables SET calls = calls + 1 WHERE code = :code"), {"code": row.code})
        self._mark_changed(connection, row.code)

    def _mark_changed(self, connection: Connection, code: str) -> None:
        """Give a table a new change mark and, on PostgreSQL, announce the change to every listening process.

        The announcement is sent when the transaction commits, and not at all if it does not.
        """
        mark = CHANGE_MARK[connection.dialect.name]
        connection.execute(text(f"UPDATE colorlab_tables SET changed = {mark} WHERE code = :code"), {"code": code})
        if self.postgresql:
            connection.execute(text("SELECT pg_notify(:channel, :code)"), {"channel": self.channel, "code": code})

    def _pending_calls(self, connection: Connection, row: Any, table: TableGame) -> list[Call]:
        if table.call_action is None or not row.calls:
            return []
        spec = game_spec(row.game)
        found = connection.execute(
            text(
                "SELECT seat, action, seconds FROM colorlab_calls WHERE code = :code AND "
                "step = :step ORDER BY seconds, seat"
            ),
            {"code": row.code, "step": row.steps},
        )
        return [Call(seat, spec.action_from_dict(json.loads(raw)), seconds) for seat, raw, seconds in found]

    def _bot_names(self, connection: Connection, row: Any) -> dict[int, str]:
        """Which seats are bots', and which bots? (Read again only when the table has changed: the teacher may give
        a seat to a bot, or free a bot's seat.)"""
        kept = self._bot_seats.get(row.code)
        if kept is None or kept[0] != row.changed:
            found = connection.execute(
                text("SELECT seat, bot FROM colorlab_seats WHERE code = :code AND bot IS NOT NULL"), {"code": row.code}
            ).all()
            kept = self._bot_seats[row.code] = (row.changed, dict(found))
        return kept[1]

    def _bots(self, connection: Connection, row: Any, table: TableGame, step: int) -> dict:
        makers = game_spec(row.game).bots
        return {
            seat: ready(seat_bot(makers[bot], row.seed, seat), step)
            for seat, bot in self._bot_names(connection, row).items()
        }

    def _moves_by_itself(self, connection: Connection, row: Any, table: TableGame) -> bool:
        """Can anything happen at this table without a learner (bots, or calls settled by the clock)?"""
        return table.next_auto is not None or bool(self._bot_names(connection, row))

    def _next_auto(self, connection: Connection, row: Any, replay: Replay, table: TableGame, now: float) -> Any | None:
        """What would happen now without any learner (a bot's move, a call window that has closed)?"""
        if row.started is None or row.closed is not None or replay.state.over:
            return None
        calls = self._pending_calls(connection, row, table)
        seconds = now - row.since
        return table.auto_action(replay.state, self._bots(connection, row, table, replay.steps), calls, seconds)

    def _settle(self, connection: Connection, row: Any, replay: Replay, table: TableGame, now: float) -> None:
        """Play, one after another, every action that needs no learner now."""
        if not self._moves_by_itself(connection, row, table):
            return
        while True:
            row = self._table_row(connection, row.code)
            action = self._next_auto(connection, row, replay, table, now)
            if action is None:
                return
            self._append(connection, row, replay, action, table.seat_of(action), now)
            connection.execute(text("UPDATE colorlab_tables SET calls = 0 WHERE code = :code"), {"code": row.code})


def _check_seat_number(code: str, seat: Any, seats: Sequence[Row]) -> None:
    """Refuse a seat number the table does not have."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(seats):
        raise SeatTaken(f"table {code} has seats 0 to {len(seats) - 1}, not {brief(seat)}")


def _refuse_stale(replay: Replay, table: TableGame, seat: int | None, seen: int | None) -> None:
    """Refuse a move chosen at step `seen` if the decision `seat` (None: the room) faced has changed since."""
    if seen is None:
        return
    if isinstance(seen, bool) or not isinstance(seen, int) or not 0 <= seen <= replay.steps:
        raise StaleMove(f"move {seen!r} was never seen at this table")
    if table.moment_of(replay.states[seen], seat, seen) != table.moment_of(replay.state, seat, replay.steps):
        raise StaleMove("the table has moved on since you looked: look again and choose anew")


class Seat:
    """One seat at a table, held by a learner's kernel: what it may see, and its moves.

    The token is the seat's secret: whoever holds it plays for the seat, so keep it
    out of anything shared (the widget keeps it in the kernel).
    """

    def __init__(self, store: TableStore, code: str, seat: int | None, name: str, token: str, key: str | None = None):
        self.store, self.code, self.seat, self.name, self.token = store, code, seat, name, token
        self.key = key  # the short seat key, known to the kernel that sat down (only its hash is stored)
        self.game = store.table_row(code).game
        self.table = table_game(self.game)

    def __repr__(self) -> str:
        return f"Seat(code={self.code!r}, seat={self.seat!r}, name={self.name!r})"

    def catch_up(self) -> Replay:
        """Catch this kernel's copy of the table up with what happened since it last looked."""
        return self.store.catch_up(self.code)

    @property
    def step(self) -> int:
        """How many actions has the table had (as this kernel last read it)?"""
        return self.store._copy_of(self.code).steps

    def state(self) -> Any:
        """The table's latest state, for this kernel's own use (a widget draws only its view)."""
        return self.catch_up().state

    def states(self) -> list:
        """Every state of the table so far, for this kernel's own use (a widget's history)."""
        return list(self.catch_up().states)

    def play(self, action: Any, seen: int | None = None) -> None:
        """Play an action for this seat; `seen` (the step the player looked at) refuses a stale move."""
        if self.seat is None:
            raise NotYourSeat("a watcher of the table has no seat to play for")
        self.store.play(self, action, seen)

    def names(self) -> list[str]:
        """What is each seat called (a learner's name, a bot's name, or "free seat")?"""
        return [name or "free seat" for name in self.store.seat_names(self.code)]

    def look(self) -> Look:
        """Read the table in one go: this kernel's copy caught up, the seats, the calls, when it may next move."""
        return self.store.look(self.code)

    def view(self) -> dict:
        """What may this seat see, as plain JSON values: who sits where (`seating`) and the game's own view."""
        look = self.look()
        return {"seating": self.seating(look), **self.table.view(look.replay.state, self.seat)}

    def seating(self, look: Look | None = None) -> dict:
        """Who sits where, the step, whose move it is and who has called: the table part of the view (of `look`,
        else of a look now)."""
        look = look or self.look()
        replay, row, seated, calls = look.replay, look.row, look.seated, look.calls
        names, free = [name or "free seat" for name in seated], seated.count(None)
        return {
            "code": self.code,
            "game": self.game,
            "seat": self.seat,
            "name": self.name,
            "names": names,
            "step": replay.steps,
            "free_seats": free,
            "started": row.started is not None,
            "closed": row.closed is not None,
            "waiting_for": self.table.waiting_for(replay.state),
            "called": [call.seat for call in calls],
        }
