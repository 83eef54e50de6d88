"""Each game declares itself once, and every shared layer reads only that declaration.

A game's folder holds one :class:`Game`, in its ``game.py``, registered with :func:`declare`.
Records, experiments, shared tables, the widget base, the classroom and the game-AI bridges
find a game through :func:`find_game` (by name) or :func:`all_games`, never by importing it
themselves, so a fifth game is one new folder.

Parts that are slow to import or belong to a higher floor (the widget, the pictures, the
table rules, the encodings, the OpenSpiel classes) are named as ``"module:attribute"`` and
imported the first time they are asked for, with :meth:`Game.part`; a game made elsewhere (a
test's toy game) may give the objects themselves.

>>> from colorlab.games import find_game
>>> fox = find_game("colorfox")
>>> fox.title, fox.default_bot, sorted(fox.bots)[:2]
('ColorFox', 'RandomBot', ['GreedyBot', 'RandomBot'])
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Callable, Mapping
from typing import Any

from colorlab.rules import RulesBase

BUILT_IN = ("colorfox", "colorium", "colorform", "colourbrain")  # the order in which the lobby offers them


@dataclasses.dataclass(frozen=True)
class Game:
    """What the shared layers know of one game.

    - the game itself: `name` (as records and tables write it), `title`, `about` (one line for
      the lobby), `rules_type`, `new_game(rules, seed)`, `play(state, action)`, the actions'
      JSON form (`action_from_dict`, `action_to_dict`), `play_game(rules, agents, seed)` (a whole
      game between bots) and `outcome(final, actions, record)` (the numbers an experiment keeps);
    - its bots by one set of names: `bots` maps a name to a maker taking ``seed=``; `default_bot`
      plays where nobody chose, `table_bots` may sit at a shared table (all of them when None);
    - its parts, each an object or ``"module:attribute"``: `table` (a
      :class:`colorlab.tables.TableGame`), `widget` (the game's widget class), `room_picture`
      (``picture(view, names) -> svg`` of a table as the teacher sees it), `projector` (a widget
      class showing a table to the room), `encoding` (a module numbering actions and observations
      for OpenSpiel and PettingZoo), `spiel` (the game's OpenSpiel class, a
      :class:`colorlab.spiel.SpielGame`, which :mod:`colorlab.openspiel` registers);
    - `why_no_encoding`: why a game without an `encoding` has none (the AI bridges say it);
    - `simultaneous`: every player decides at once (PettingZoo's parallel API suits it);
    - `seat_word`: how the game's own texts name a seat ("player 2", "team 2").
    """

    name: str
    title: str
    about: str
    rules_type: type[RulesBase]
    new_game: Callable[[Any, int], Any]
    play: Callable[[Any, Any], Any]
    action_from_dict: Callable[[dict], Any]
    action_to_dict: Callable[[Any], dict]
    play_game: Callable[..., Any]
    outcome: Callable[..., dict]
    bots: Mapping[str, Callable[..., Any]]
    default_bot: str
    table_bots: tuple[str, ...] | None = None
    table: Any = None
    widget: Any = None
    room_picture: Any = None
    projector: Any = None
    encoding: Any = None
    spiel: Any = None
    why_no_encoding: str = ""
    simultaneous: bool = False
    seat_word: str = "player"

    def __post_init__(self) -> None:
        if self.default_bot not in self.bots:
            raise ValueError(f"{self.name}: the default bot {self.default_bot!r} is not one of its bots")
        unknown = set(self.table_bots or ()) - set(self.bots)
        if unknown:
            raise ValueError(f"{self.name}: table bots {sorted(unknown)} are not among its bots")

    def part(self, name: str) -> Any:
        """The game's part called `name` (``"table"``, ``"widget"``, ...), imported if it was named; None if none."""
        value = getattr(self, name)
        if isinstance(value, str):
            module, _, attribute = value.partition(":")
            loaded = importlib.import_module(module)
            return getattr(loaded, attribute) if attribute else loaded
        return value

    def has(self, name: str) -> bool:
        """Does the game have the part called `name`?"""
        return getattr(self, name) is not None

    def bot_names(self, at_table: bool = False) -> list[str]:
        """The names of the game's bots (only those that may sit at a shared table, if `at_table`)."""
        return list(self.table_bots or self.bots) if at_table else list(self.bots)

    def make_bot(self, name: str, seed: int) -> Any:
        """A bot of this game, by name, with its own seed."""
        if name not in self.bots:
            raise ValueError(f"{self.title} has no bot called {name!r}; choose one of {', '.join(self.bots)}")
        return self.bots[name](seed=seed)


_DECLARED: dict[str, Game] = {}


def declare(game: Game) -> Game:
    """Make a game known to every shared layer (a second declaration of a name replaces the first)."""
    _DECLARED[game.name] = game
    return game


def find_game(name: str) -> Game:
    """Which declared game has this name? A built-in game is imported on first use; LookupError if none has it."""
    if name in BUILT_IN and name not in _DECLARED:
        importlib.import_module(f"colorlab.{name}.game")
    if name not in _DECLARED:
        raise LookupError(f"there is no game called {name!r}; the games are {', '.join(game_names())}")
    return _DECLARED[name]


def all_games() -> list[Game]:
    """Every game: the built-in ones in the lobby's order, then any declared elsewhere, in the order declared."""
    for name in BUILT_IN:
        find_game(name)
    return [_DECLARED[name] for name in BUILT_IN] + [game for name, game in _DECLARED.items() if name not in BUILT_IN]


def game_names() -> list[str]:
    """The names of every game (see :func:`all_games`)."""
    return list(BUILT_IN) + [name for name in _DECLARED if name not in BUILT_IN]


def forget(name: str) -> None:
    """Take a game declared outside colorlab away again (a test's toy game, once its test is over)."""
    if name in BUILT_IN:
        raise ValueError(f"{name} is one of colorlab's own games")
    _DECLARED.pop(name, None)
