"""The sample class: tables played to the end by bots through a real TableStore, exported as a teacher would.

Lesson 50 reads the records a teacher downloaded from the class's tables. So that it
also runs before any class has played, colorlab ships a sample set, made here: every
table is opened in a fresh SQLite store, with the table's bots in some seats and
"learners" in the others (each learner's moves are chosen by a careful bot, and sent
from its seat as a learner's device sends them), and the records are exported with
``store.export`` exactly as the teacher's page does. Like a real class, the set has
several ColorFox and Colourbrain tables, some Colorium and a few FIKOLO JUNIOR
(turn-based Col-Or-Form) tables, tables of learners only and tables with a bot, a table
someone left after three moves and one where a seat stayed free. The real-time
Col-Or-Form game is left out on purpose: its STOP calls are timed by the clock, so its
records would differ from run to run.

Make the set again (it replaces the folder's records)::

    python -m colorlab.classroom.sample colorlab/data/class-sample

The join codes in the file names are new each time; the records inside are the same.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Any

from colorlab.agents import ready, seat_bot
from colorlab.games import find_game
from colorlab.rules import RulesBase
from colorlab.tables import TableStore, table_game

FOLDER = Path(__file__).parents[1] / "data" / "class-sample"


def rules(game: str, **changes: Any) -> RulesBase:
    """The rules of `game`, the default edition with these changes."""
    return find_game(game).rules_type(**changes)


def junior_rules(game: str) -> RulesBase:
    """The junior edition of `game` (Col-Or-Form's is FIKOLO JUNIOR, played in turns)."""
    rules_type = find_game(game).rules_type
    if not hasattr(rules_type, "junior"):
        raise LookupError(f"{game} has no junior edition")
    return rules_type.junior()


# (game, rules, the table's bots by seat, the learners by seat with the bot that chooses their moves, seeds):
# the seeds are fixed so that the set comes out the same every time
TABLES = [
    ("colorfox", rules("colorfox"), {1: "GreedyBot"}, {0: "SetBuilder"}, range(101, 107)),
    ("colorfox", rules("colorfox"), {}, {0: "SetBuilder", 1: "GreedyBot"}, range(107, 113)),
    ("colorfox", rules("colorfox", players=3), {2: "GreedyBot"}, {0: "GreedyBot", 1: "SetBuilder"}, range(201, 204)),
    ("colourbrain", rules("colourbrain"), {1: "QuizBot"}, {0: "QuizBot (hard)"}, range(301, 306)),
    ("colourbrain", rules("colourbrain"), {}, {0: "QuizBot", 1: "QuizBot (hard)"}, range(306, 311)),
    ("colorium", rules("colorium"), {1: "GreedyBot"}, {0: "MissionBot"}, range(401, 404)),
    ("colorium", rules("colorium"), {}, {0: "GreedyBot", 1: "MissionBot"}, range(404, 407)),
    ("colorform", junior_rules("colorform"), {0: "ReactionBot"}, {1: "ReactionBot (hard)"}, range(501, 505)),
]
LEFT_EARLY = ("colorfox", rules("colorfox"), {1: "GreedyBot"}, {0: "GreedyBot"}, 601, 3)  # a learner left after 3 moves
SEAT_FREE = ("colorium", rules("colorium"), {0: "GreedyBot"}, 701)  # nobody ever sat in seat 1
NAMES = ("Ada", "Bo", "Cy")  # the learners', by seat


def play(
    store: TableStore,
    game: str,
    rules: RulesBase,
    bots: dict[int, str],
    learners: dict[int, str],
    seed: int,
    moves: int | None = None,
) -> str:
    """Open a table and play it, to the end or for `moves` actions, and return its code.

    The table's bots move by themselves; each learner sits down and sends the moves its bot
    chooses (a bot seated by the rule, as the table seats its own).
    """
    code = store.create(game, rules, seed=seed, bots=bots)
    seats = {seat: store.join(code, seat=seat, name=NAMES[seat]) for seat in learners}
    minds = {seat: seat_bot(find_game(game).bots[name], seed, seat) for seat, name in learners.items()}
    waiting_for = table_game(game).waiting_for
    while not (replay := store.catch_up(code)).state.over and (moves is None or replay.steps < moves):
        seat = next(seat for seat in waiting_for(replay.state) if seat in seats)
        seats[seat].play(ready(minds[seat], replay.steps).act(replay.state, seat))
    return code


def make_sample(folder: str | Path) -> list[Path]:
    """Play the sample class's tables in a fresh SQLite store and export every record into `folder`."""
    folder = Path(folder)
    with tempfile.TemporaryDirectory() as scratch:
        store = TableStore(Path(scratch) / "class.db")
        try:
            for game, rules, bots, learners, seeds in TABLES:
                for seed in seeds:
                    play(store, game, rules, bots, learners, seed)
            game, rules, bots, learners, seed, moves = LEFT_EARLY
            store.close(play(store, game, rules, bots, learners, seed, moves=moves))
            game, rules, bots, seed = SEAT_FREE
            store.create(game, rules, seed=seed, bots=bots)
            for old in folder.glob("*.json"):
                old.unlink()
            return store.export(folder)
        finally:
            store.engine.dispose()


if __name__ == "__main__":
    made = make_sample(sys.argv[1] if len(sys.argv) > 1 else FOLDER)
    print(f"{len(made)} records written to {made[0].parent}")
