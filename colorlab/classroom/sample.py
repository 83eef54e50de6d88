"""The sample class: tables played to the end by bots through a real TableStore, exported as a teacher would.

Lesson 50 reads the records a teacher downloaded from the class's tables. So that it
also runs before any class has played, colorlab ships a sample set, made here: every
table is opened in a fresh SQLite store, bots sit in every seat, and the records are
exported with ``store.export`` exactly as the teacher's page does. Like a real class,
the set has several ColorFox and Colourbrain tables, some Colorium and a few FIKOLO
JUNIOR (turn-based Col-Or-Form) tables, a table someone left after three moves and one
where a seat stayed free. The real-time Col-Or-Form game is left out on purpose: its
STOP calls are timed by the clock, so its records would differ from run to run.

Make the set again (it replaces the folder's records)::

    python -m colorlab.classroom.sample colorlab/data/class-sample

The join codes in the file names are new each time; the records inside are the same.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from colorlab.games import find_game
from colorlab.tables.store import TableStore, bot_seed

FOLDER = Path(__file__).parents[1] / "data" / "class-sample"


def rules(game: str, **changes):
    """The rules of `game`, the default edition with these changes."""
    return find_game(game).rules_type(**changes)


# (game, rules, bots by seat, seeds): the seeds are fixed so that the set comes out the same every time
TABLES = [
    ("colorfox", rules("colorfox"), {0: "GreedyBot", 1: "SetBuilder"}, range(101, 107)),
    ("colorfox", rules("colorfox"), {0: "SetBuilder", 1: "GreedyBot"}, range(107, 113)),
    ("colorfox", rules("colorfox", players=3), {0: "GreedyBot", 1: "SetBuilder", 2: "GreedyBot"}, range(201, 204)),
    ("colourbrain", rules("colourbrain"), {0: "QuizBot (hard)", 1: "QuizBot"}, range(301, 306)),
    ("colourbrain", rules("colourbrain"), {0: "QuizBot", 1: "QuizBot (hard)"}, range(306, 311)),
    ("colorium", rules("colorium"), {0: "MissionBot", 1: "GreedyBot"}, range(401, 404)),
    ("colorium", rules("colorium"), {0: "GreedyBot", 1: "MissionBot"}, range(404, 407)),
    ("colorform", find_game("colorform").rules_type.junior(), {0: "ReactionBot", 1: "ReactionBot (hard)"}, range(501, 505)),
]
LEFT_EARLY = ("colorfox", rules("colorfox"), {1: "GreedyBot"}, 601, 3)  # a learner left after three moves
SEAT_FREE = ("colorium", rules("colorium"), {0: "GreedyBot"}, 701)  # nobody ever sat in seat 1


def play_to_the_end(store: TableStore, game: str, rules, bots: dict, seed: int) -> str:
    """Open a table with a bot in every seat and let the bots play it to the end; return its code."""
    code = store.create(game, rules, seed=seed, bots=bots)
    while not store.catch_up(code).state.over:
        pass
    return code


def leave_early(store: TableStore, game: str, rules, bots: dict, seed: int, moves: int) -> str:
    """Open a table where a learner plays `moves` moves (chosen by a bot), then the teacher closes it."""
    code = store.create(game, rules, seed=seed, bots=bots)
    learner = store.join(code, name="Sam")
    while (replay := store.catch_up(code)).steps < moves:
        bot = find_game(game).make_bot("GreedyBot", bot_seed(seed, learner.seat, replay.steps))
        learner.play(bot.act(replay.state, learner.seat))
    store.close(code)
    return code


def make_sample(folder: str | Path) -> list[Path]:
    """Play the sample class's tables in a fresh SQLite store and export every record into `folder`."""
    folder = Path(folder)
    with tempfile.TemporaryDirectory() as scratch:
        store = TableStore(Path(scratch) / "class.db")
        try:
            for game, rules, bots, seeds in TABLES:
                for seed in seeds:
                    play_to_the_end(store, game, rules, bots, seed)
            leave_early(store, *LEFT_EARLY)
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
