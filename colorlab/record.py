"""Game records: the rules, the seed and the actions, and nothing else.

A record is enough to rebuild every state of a game, because all chance in a
game flows from its seed. Saving writes plain JSON (never pickle); loading is
strict, since a saved file may have been edited or damaged: anything odd is
refused with one :class:`RecordError` that says what is wrong.

A record also keeps its *marks*: each undo (how many actions were taken back,
at which move) and each load from a file. A game with marks is a practice game:
what happened in it was changed after the fact, so a teacher can tell it from a
game played straight through. Marks travel in the saved file; a widget that
loads a file adds a mark of its own, so a hand-edited file without marks still
shows that it was loaded.

A record also says how the game's bots are seeded (`seeding`), so that a loaded game goes on
with the bots it had, and which bot sat at which seat, if any (`bots`: a table's record
keeps its bots' names, so a lesson can seat the same bots again). Today every bot colorlab
seats follows one rule (:mod:`colorlab.agents`); a file saved before records said so goes on
as the widgets of that time seeded their bots: once, with ``seed * 7 + seat``.

Each game declares itself once (:mod:`colorlab.games`), so this module never
needs to know any game.
"""

from __future__ import annotations

import dataclasses
import datetime
import functools
import json
import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from colorlab.games import Game, find_game
from colorlab.rules import ChangeRules, IllegalAction, RulesBase, brief

FORMAT = "colorlab-record"
VERSION = 3
# Older files load too: version 1 (before marks) without marks; 1 and 2 (before seeding) seeded as the widget
# that saved them seeded its bots, with no bots named.
READABLE_VERSIONS = (1, 2, 3)
SEEDING = "seed/seat/step"  # the rule: a bot's move at step k draws its chance afresh from (seed, seat, k)
OLD_WIDGET_SEEDING = "seed*7+seat"  # a widget's bots before version 3: seeded once, with seed * 7 + seat
SEEDINGS = (SEEDING, OLD_WIDGET_SEEDING)
MAX_BYTES = 2_000_000
MAX_DEPTH = 16
MAX_ACTIONS = 20_000
MAX_NEW_NAMES = 1_000


class RecordError(ValueError):
    """A saved game that cannot be loaded, with the reason."""


def game_spec(name: str) -> Game:
    """Which declared game has this name? A name no game has is a :class:`RecordError`."""
    try:
        return find_game(name)
    except (LookupError, TypeError):
        raise RecordError(f"unknown game {name!r}") from None


@dataclasses.dataclass(frozen=True)
class Mark:
    """Something that changed what happened in a game: an undo or a load from a file.

    `step` is the number of actions the game had when it happened; `count` is how
    many actions an undo took back (0 for a load).
    """

    kind: str
    step: int
    count: int = 0

    KINDS = ("undo", "loaded")

    def describe(self) -> str:
        """Say what happened, in plain words."""
        if self.kind == "undo":
            return f"{self.count} {'move' if self.count == 1 else 'moves'} taken back at move {self.step}"
        return f"loaded from a file at move {self.step}"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "step": self.step, "count": self.count}

    @classmethod
    def from_dict(cls, data: Any) -> Mark:
        """Read a mark written by :meth:`to_dict`, refusing anything malformed."""
        if not isinstance(data, dict) or set(data) != {"kind", "step", "count"}:
            raise RecordError("a mark has exactly the fields ['count', 'kind', 'step']")
        kind, step, count = data["kind"], data["step"], data["count"]
        if not isinstance(kind, str) or kind not in cls.KINDS:
            raise RecordError(f"a mark's kind is one of {', '.join(cls.KINDS)}")
        if not _whole(step, 0, MAX_ACTIONS) or not _whole(count, 0, step) or (kind == "undo") != (count > 0):
            raise RecordError("a mark's step is a move number and its count the moves an undo took back")
        return cls(kind, step, count)


def _whole(value: Any, low: int, high: int) -> bool:
    """Is `value` a whole number (not a bool) from `low` to `high`?"""
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


@dataclasses.dataclass(frozen=True)
class GameRecord:
    """One game as rules + seed + actions (and marks): replaying it rebuilds every state.

    Two records are equal when they hold the same game (rules, seed, actions); the
    marks say how the game got there, `seeding` how its bots draw their chance (one of
    `SEEDINGS`) and `bots` who sat where (a bot's name per seat, None for a learner's;
    empty when nobody said), so they are kept and saved but not compared.
    `final` may hold the state after the last action, as the code that played the
    game knew it, so that reading the end of a game does not replay it; it is
    neither saved nor compared, and a record with other actions drops it.
    """

    game: str
    rules: RulesBase
    seed: int
    actions: tuple = ()
    marks: tuple[Mark, ...] = dataclasses.field(default=(), compare=False)
    seeding: str = dataclasses.field(default=SEEDING, compare=False)
    bots: tuple[str | None, ...] = dataclasses.field(default=(), compare=False)
    final: Any = dataclasses.field(default=None, compare=False, repr=False)

    @property
    def spec(self) -> Game:
        return game_spec(self.game)

    def states(self) -> Iterator[Any]:
        """Yield the start state and the state after each action."""
        state = self.spec.new_game(self.rules, self.seed)
        yield state
        for action in self.actions:
            state = self.spec.play(state, action)
            yield state

    def final_state(self) -> Any:
        """What is the state after the last action?"""
        if self.final is not None:
            return self.final
        return functools.reduce(self.spec.play, self.actions, self.spec.new_game(self.rules, self.seed))

    def then(self, action: Any) -> GameRecord:
        """The record with one more action appended (not checked here)."""
        return dataclasses.replace(self, actions=self.actions + (action,), final=None)

    def undo(self, steps: int = 1) -> GameRecord:
        """The record without its last `steps` actions, marked with the undo."""
        if not 0 <= steps <= len(self.actions):
            raise ValueError(f"cannot undo {steps} of {len(self.actions)} actions")
        if steps == 0:
            return self
        return dataclasses.replace(
            self,
            actions=self.actions[: len(self.actions) - steps],
            final=None,
            marks=self.marks + (Mark("undo", len(self.actions), steps),),
        )

    def loaded(self) -> GameRecord:
        """The record marked as loaded from a file now."""
        return dataclasses.replace(self, marks=self.marks + (Mark("loaded", len(self.actions)),))

    @property
    def practice(self) -> bool:
        """Was what happened in this game changed by an undo or a load?"""
        return bool(self.marks)

    def to_dict(self) -> dict[str, Any]:
        """Which plain JSON values describe this record?"""
        return {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "actions": [self.spec.action_to_dict(action) for action in self.actions],
            "marks": [mark.to_dict() for mark in self.marks],
            "seeding": self.seeding,
            "bots": list(self.bots),
        }

    def to_json(self) -> str:
        """Write the record as JSON text."""
        return json.dumps(self.to_dict(), indent=1, sort_keys=True, allow_nan=False)

    def save(self, path: str | Path, overwrite: bool = False) -> None:
        """Save the record as a JSON file; replace an existing file only when `overwrite` is true."""
        text = self.to_json()
        try:
            with open(path, "w" if overwrite else "x", encoding="utf-8") as file:
                file.write(text)
        except FileExistsError:
            raise FileExistsError(f"{path} already exists; save(path, overwrite=True) replaces it") from None

    def save_new(self, folder: str | Path) -> Path:
        """Save the record under a new name in `folder`, never replacing a file, and return the path."""
        stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S-%f")[:-3]
        for number in range(1, MAX_NEW_NAMES + 1):
            path = Path(folder) / f"{self.game}-{stamp}{'' if number == 1 else f'-{number}'}.json"
            try:
                self.save(path)
                return path
            except FileExistsError:
                continue
        raise FileExistsError(f"no free file name for {self.game}-{stamp} in {folder}")

    @classmethod
    def from_json(cls, text: str | bytes) -> GameRecord:
        """Read a record from JSON text, checking everything and replaying it."""
        return cls.from_dict(strict_json(text))

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        """Load a record saved by :meth:`save`."""
        try:
            data = Path(path).read_bytes()
        except (OSError, ValueError, TypeError) as error:
            raise RecordError(f"cannot read {path}: {getattr(error, 'strerror', None) or error}") from None
        return cls.from_json(data)

    @classmethod
    def from_dict(cls, data: Any) -> GameRecord:
        """Build a record from plain values, checking everything and replaying it."""
        if not isinstance(data, dict):
            raise RecordError("a saved game must be a JSON object")
        version = data.get("version")
        if data.get("format") != FORMAT or type(version) is not int or version not in READABLE_VERSIONS:
            raise RecordError(
                f"not a colorlab record: format must be {FORMAT!r} and version "
                f"{' or '.join(map(str, READABLE_VERSIONS))}"
            )
        expected = (
            {"format", "version", "game", "rules", "seed", "actions"}
            | ({"marks"} if version >= 2 else set())
            | ({"seeding", "bots"} if version >= 3 else set())
        )
        if set(data) != expected:
            extra, missing = set(data) - expected, expected - set(data)
            parts = [
                f"unknown field(s) {sorted(extra)}" if extra else "",
                f"missing field(s) {sorted(missing)}" if missing else "",
            ]
            raise RecordError("not a colorlab record: " + "; ".join(p for p in parts if p))
        if not isinstance(data["game"], str):
            raise RecordError("field 'game' must be a string")
        spec = game_spec(data["game"])
        seed = data["seed"]
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
            raise RecordError(f"seed must be a whole number from 0 to 2**63 - 1, not {brief(seed)}")
        try:
            rules = spec.rules_type.from_dict(data["rules"])
        except (ValueError, TypeError, LookupError, OverflowError) as error:
            raise RecordError(f"bad rules: {error}") from None
        if not isinstance(data["actions"], list) or len(data["actions"]) > MAX_ACTIONS:
            raise RecordError(f"actions must be a list of at most {MAX_ACTIONS}")
        actions = []
        for index, raw in enumerate(data["actions"]):
            try:
                actions.append(spec.action_from_dict(raw))
            except (ValueError, TypeError, LookupError, OverflowError) as error:
                raise RecordError(f"action {index} is malformed: {error}") from None
        marks = data.get("marks", [])
        if not isinstance(marks, list) or len(marks) > MAX_ACTIONS:
            raise RecordError(f"marks must be a list of at most {MAX_ACTIONS}")
        seeding = data.get("seeding", OLD_WIDGET_SEEDING)
        if seeding not in SEEDINGS:
            raise RecordError(f"seeding is one of {', '.join(map(repr, SEEDINGS))}, not {brief(seeding)}")
        bots = read_bots(data.get("bots", []), spec, rules.players)
        record = cls(
            spec.name, rules, seed, tuple(actions), tuple(Mark.from_dict(mark) for mark in marks), seeding, bots
        )
        record.check()
        return record

    def check(self) -> None:
        """Replay the record, refusing it if the rules cannot start a game or any action is illegal."""
        states = self.states()
        try:
            next(states)
        except (ValueError, TypeError, LookupError, OverflowError) as error:
            raise RecordError(f"bad rules: {error}") from error
        for index in range(len(self.actions)):
            try:
                next(states)
            except IllegalAction as error:
                raise RecordError(f"action {index} is illegal: {error}") from None
            except (ValueError, TypeError, LookupError, OverflowError) as error:
                raise RecordError(f"action {index} cannot be replayed: {error}") from error


def read_bots(bots: Any, spec: Game, players: int) -> tuple[str | None, ...]:
    """Check a saved list of who sat where: empty, or a bot's name (None for a learner) for each of `players` seats."""
    if (
        not isinstance(bots, list)
        or len(bots) not in (0, players)
        or not all(bot is None or (isinstance(bot, str) and bot in spec.bots) for bot in bots)
    ):
        raise RecordError(
            f"bots is an empty list, or one {spec.title} bot's name (or null: a learner) for each of "
            f"the {players} seats"
        )
    return tuple(bots)


def strict_json(text: str | bytes) -> Any:
    """Parse JSON, refusing oversize input, NaN, duplicate keys and deep nesting."""
    if not isinstance(text, (str, bytes)):
        raise RecordError(f"a saved game is JSON text, not {type(text).__name__}")
    size = len(text)
    if isinstance(text, str) and size <= MAX_BYTES:
        size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_BYTES:
        raise RecordError(f"file too large ({size} bytes; the limit is {MAX_BYTES})")
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise RecordError("file is not UTF-8 text") from None
    if _nesting(text) > MAX_DEPTH:
        raise RecordError(f"JSON nested deeper than {MAX_DEPTH} levels")
    try:
        return json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constants)
    except RecordError:
        raise
    except json.JSONDecodeError as error:
        raise RecordError(f"not valid JSON: {error.msg} at line {error.lineno}, column {error.colno}") from None
    except ValueError as error:  # a number too long for Python to convert
        raise RecordError(f"not valid JSON: {error}") from None


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [key for key, _ in pairs]
    if len(keys) != len(set(keys)):
        duplicated = sorted({key for key in keys if keys.count(key) > 1})
        raise RecordError(f"duplicate key(s) {duplicated}")
    for key, value in pairs:
        if isinstance(value, float) and not math.isfinite(value):
            raise RecordError(f"{key} is not a finite number")
    return dict(pairs)


def _no_constants(name: str) -> Any:
    raise RecordError(f"{name} is not allowed in a saved game")


def _nesting(text: str) -> int:
    """How deeply do brackets nest in this JSON text (outside strings)?"""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def read_action(data: Any, kinds: dict[str, tuple[type, dict[str, type]]]) -> tuple[type, dict[str, Any]]:
    """Check a saved action against {type name: (class, {field: type})}: its class and field values.

    A rule change ({"type": "rules", ...}) is every game's action, so it is read here too and
    returned as (ChangeRules, {"changes": ...}).
    """
    if isinstance(data, dict) and data.get("type") == "rules":
        return ChangeRules, {"changes": ChangeRules.from_dict(data).changes}
    if not isinstance(data, dict) or data.get("type") not in kinds:
        raise ValueError(f"an action must be an object with a type among {sorted(kinds) + ['rules']}")
    kind, fields = kinds[data["type"]]
    if set(data) != {"type", *fields}:
        raise ValueError(f"a {data['type']} action has exactly the fields {sorted(fields)}")
    for name, expected in fields.items():
        value = data[name]
        if not isinstance(value, expected) or (expected is int and isinstance(value, bool)):
            raise ValueError(f"{name} must be {expected.__name__}, not {brief(value)}")
    return kind, {name: data[name] for name in fields}
