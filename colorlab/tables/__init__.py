"""Shared tables: learners at their own devices play one game through a database.

The contract (names and meanings) is in the edition notes; see :mod:`colorlab.tables.store`.
"""

from colorlab.agents import bot_seed  # the seed of a table's search bot at a step: the one rule, kept in the core
from colorlab.tables.games import Call, TableGame, table_game
from colorlab.tables.store import (
    AlreadyCalled,
    NameTaken,
    NotYourSeat,
    Seat,
    SeatTaken,
    StaleMove,
    TableClosed,
    TableError,
    TableStore,
    TooManyWrongKeys,
    UnknownTable,
    WaitingForPlayers,
    WrongToken,
)

__all__ = [
    "AlreadyCalled",
    "Call",
    "NameTaken",
    "NotYourSeat",
    "Seat",
    "SeatTaken",
    "StaleMove",
    "TableClosed",
    "TableError",
    "TableGame",
    "TableStore",
    "TooManyWrongKeys",
    "UnknownTable",
    "WaitingForPlayers",
    "WrongToken",
    "bot_seed",
    "table_game",
]
