"""Helpers for the frozen ``Rules`` dataclasses of every game.

A game's rules are a frozen dataclass whose fields are made with :func:`rule`.
Each field carries what a rule editor needs to draw it: a label, a help text and
either a range of numbers or a list of choices. ``RulesBase.__post_init__``
checks every value, so a bad rule is refused with a :class:`RuleError` that
names the field, the value and what is allowed. A rule changes with
``dataclasses.replace(rules, field=value)``.

Examples
========

>>> import dataclasses
>>> from colorlab.rules import RulesBase, RuleError, rule
>>> @dataclasses.dataclass(frozen=True)
... class Toy(RulesBase):
...     players: int = rule(2, "Players", "How many play.", low=2, high=4)
>>> dataclasses.replace(Toy(), players=3)
Toy(players=3)
>>> try:
...     Toy(players=7)
... except RuleError as error:
...     print(error)
players = 7 is not allowed: choose a whole number from 2 to 4
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Callable
from typing import Any

BRIEF_CHARS = 60


def brief(value: Any) -> str:
    """Show a value in a message: its repr, cut short, and never failing (huge numbers included).

    >>> brief(10**5000)
    'a very large whole number'
    >>> len(brief("x" * 100)), brief("x" * 100)[-3:]
    (60, 'xx…')
    """
    if isinstance(value, int) and abs(value) >= 10**BRIEF_CHARS:
        return "a very large whole number"
    try:
        text = repr(value)
    except (ValueError, RecursionError):
        text = f"a {type(value).__name__}"
    return text if len(text) <= BRIEF_CHARS else text[: BRIEF_CHARS - 1] + "…"


class RuleError(ValueError):
    """A rule value that the game cannot use."""

    def __init__(self, field: str, value: Any, allowed: str):
        self.field, self.value, self.allowed = field, value, allowed
        super().__init__(f"{field} = {brief(value)} is not allowed: {allowed}")


class IllegalAction(ValueError):
    """An action that the rules refuse; the state it was tried on is unchanged."""


class GameOver(IllegalAction):
    """An action tried after the game has ended."""


class NotYourTurn(IllegalAction):
    """An action by a player who may not act now."""


class RuleNotLive(IllegalAction):
    """A rule change that only a new game can make, or a value the rule does not allow."""


def _said(value: Any) -> str:
    """A rule's value in words: on or off, a number without trailing zeros, or its text."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, str) and len(value) <= 40:
        return value
    return brief(value)


@dataclasses.dataclass(frozen=True)
class ChangeRules:
    """An action of any game: change rules that may change mid-game, from now on."""

    changes: tuple[tuple[str, Any], ...]

    def __post_init__(self) -> None:
        pairs = self.changes.items() if isinstance(self.changes, dict) else self.changes
        object.__setattr__(self, "changes", tuple(pairs))

    def applied_to(self, rules: RulesBase) -> RulesBase:
        """The rules after this change; refuse rules that need a new game, and bad values."""
        live = type(rules).live_fields()
        changes = dict(self.changes)
        for name in changes:
            if name not in live:
                raise RuleNotLive(
                    f"{name} cannot change during a game (start a new game); rules that can: {', '.join(sorted(live))}"
                )
        try:
            return type(rules).from_dict({**rules.to_dict(), **changes})
        except RuleError as error:
            raise RuleNotLive(str(error)) from None

    def apply(self, state: Any) -> Any:
        """The game state with these rules from now on (any game's state has `rules` and `events`)."""
        return dataclasses.replace(
            state, rules=self.applied_to(state.rules), events=(self.describe(type(state.rules)),)
        )

    def describe(self, rules_type: type[RulesBase] | None = None) -> str:
        """Say the change in words a learner reads, with the rule editor's labels when the rules' type is known."""
        labels = {spec["name"]: spec["label"] for spec in rules_type.describe()} if rules_type else {}
        changes = "; ".join(f'"{labels.get(name, name)}" is now {_said(value)}' for name, value in self.changes)
        return f"Rules changed: {changes}."

    def to_dict(self) -> dict:
        return {"type": "rules", "changes": dict(self.changes)}

    @classmethod
    def from_dict(cls, data: dict) -> ChangeRules:
        """Read a rule change written by :meth:`to_dict`."""
        if set(data) != {"type", "changes"} or not isinstance(data["changes"], dict):
            raise ValueError("a rules action has exactly the fields ['changes', 'type'], changes an object")
        return cls(tuple(data["changes"].items()))


def check_seat(value: Any, seats: int, error: type[IllegalAction], word: str = "player") -> int:
    """Refuse a seat number that is not a whole number from 0 to seats - 1."""
    if type(value) is int and 0 <= value < seats:  # the usual case, answered at once: every move asks
        return value
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < seats:
        raise error(f"there is no {word} {brief(value)}; {word}s are numbered 0 to {seats - 1}")
    return value


def rule(
    default: Any,
    label: str,
    help: str,
    *,
    low: float | None = None,
    high: float | None = None,
    choices: tuple | None = None,
    live: bool = False,
    editable: bool = True,
) -> Any:
    """Make a rule field with its editor metadata and allowed values.

    `live` says that the rule may change in the middle of a game; other rules
    need a new game. ``editable=False`` keeps a rule out of the page's hands: the
    rule editor shows it but only code sets it (a file path, say, must never come
    from a browser).
    """
    metadata = {
        "label": label,
        "help": help,
        "low": low,
        "high": high,
        "choices": choices,
        "live": live,
        "editable": editable,
    }
    return dataclasses.field(default=default, metadata=metadata)


@dataclasses.dataclass(frozen=True)
class RulesBase:
    """The base of every game's Rules: validates each field on creation."""

    def __post_init__(self) -> None:
        for spec in dataclasses.fields(self):
            check_rule(type(self), spec.name, getattr(self, spec.name))

    @property
    def players(self) -> int:
        """How many seats has a table of this game? Each game's Rules says, as a field or as a property."""
        raise NotImplementedError(f"{type(self).__name__} does not say how many play")

    @classmethod
    def describe(cls) -> list[dict[str, Any]]:
        """Which fields exist, with their type, default and editor metadata?"""
        hints = _type_hints(cls)
        return [
            {"name": spec.name, "type": hints[spec.name].__name__, "default": spec.default, **spec.metadata}
            for spec in dataclasses.fields(cls)
        ]

    def to_dict(self) -> dict[str, Any]:
        """Which plain JSON values describe these rules?"""
        return {spec.name: _plain(getattr(self, spec.name)) for spec in dataclasses.fields(self)}

    @classmethod
    def from_dict(cls, values: Any) -> RulesBase:
        """Build rules from plain values, refusing unknown fields and bad values."""
        if not isinstance(values, dict):
            raise RuleError("rules", values, "give a mapping of rule names to values")
        known = {spec.name for spec in dataclasses.fields(cls)}
        for name in values:
            if name not in known:
                raise RuleError(str(name), values[name], f"no such rule; known rules: {', '.join(sorted(known))}")
        hints = _type_hints(cls)
        return cls(**{name: _from_plain(name, hints[name], value) for name, value in values.items()})

    @classmethod
    def live_fields(cls) -> set[str]:
        """Which rules may change while a game is running?"""
        return {spec.name for spec in dataclasses.fields(cls) if spec.metadata.get("live")}

    def differences(self) -> dict[str, tuple[Any, Any]]:
        """Which rules differ from the default edition, as {name: (default, now)}?"""
        default = type(self)()
        return {
            spec.name: (getattr(default, spec.name), getattr(self, spec.name))
            for spec in dataclasses.fields(self)
            if getattr(default, spec.name) != getattr(self, spec.name)
        }


def rules_in_words(rules: RulesBase) -> str:
    """How do these rules differ from the default edition, with the rule editor's labels?

    >>> from colorlab import colorfox
    >>> from colorlab.rules import rules_in_words
    >>> rules_in_words(colorfox.Rules()), rules_in_words(colorfox.Rules(players=3, set_score="square"))
    ('the default edition', 'Players = 3; Set score = square')
    """
    labels = {spec["name"]: spec["label"] for spec in type(rules).describe()}
    changed = [f"{labels.get(name, name)} = {_said(now)}" for name, (_, now) in rules.differences().items()]
    return "; ".join(changed) or "the default edition"


def check_rule(cls: type, name: str, value: Any) -> None:
    """Refuse a value that does not fit the type, range or choices of field `name`."""
    spec = next(spec for spec in dataclasses.fields(cls) if spec.name == name)
    kind = _type_hints(cls)[name]
    meta = spec.metadata
    choices, low, high = meta.get("choices"), meta.get("low"), meta.get("high")
    if choices is not None:
        if value not in choices or type(value) is not kind:
            raise RuleError(name, value, f"choose one of {', '.join(map(repr, choices))}")
        return
    if kind is bool:
        if not isinstance(value, bool):
            raise RuleError(name, value, "choose True or False")
        return
    if kind is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise RuleError(name, value, f"choose a whole number{span(low, high)}")
    elif kind is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
            raise RuleError(name, value, f"choose a number{span(low, high)}")
    elif not isinstance(value, kind):
        raise RuleError(name, value, f"give a {kind.__name__}")
    if (low is not None and value < low) or (high is not None and value > high):
        word = "a whole number" if kind is int else "a number"
        raise RuleError(name, value, f"choose {word}{span(low, high)}")


def span(low: float | None, high: float | None, shown: Callable[[float], str] = str) -> str:
    """Say a range of numbers in words (" from 1 to 6", " of at least 2", or "" for no bounds)."""
    if low is not None and high is not None:
        return f" from {shown(low)} to {shown(high)}"
    if low is not None:
        return f" of at least {shown(low)}"
    if high is not None:
        return f" of at most {shown(high)}"
    return ""


_HINTS: dict[type, dict[str, Any]] = {}


def _type_hints(cls: type) -> dict[str, Any]:
    if cls not in _HINTS:
        _HINTS[cls] = typing.get_type_hints(cls)
    return _HINTS[cls]


def _plain(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def _from_plain(name: str, kind: Any, value: Any) -> Any:
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        try:
            return float(value)
        except OverflowError:
            raise RuleError(name, value, "choose a number small enough to be a float") from None
    return value
