"""A class's own games: the records a teacher downloaded, read as the rule-variant lab reads bot games.

The teacher's page downloads one record file per table (``<game>-<code>.json``, the
same format as a saved game), in a zip; :func:`colorlab.archive.load_records` reads the zip or a folder
of such files. :func:`class_results` turns them into a table with one row per
table and the lab's columns (``winners``, ``first player wins``, ``rounds``, ``actions``,
``top score``, ...), so the lab's tools (:func:`colorlab.experiments.interval`,
:func:`colorlab.experiments.describe_difference`) read them unchanged.
:func:`bots_on_the_same_deals` plays each finished table again from the table's own
seed: the same cards, dice or questions, the table's own bots in their seats, and bots
where learners sat; :func:`deal_by_deal` compares the two sides game by game.

A record keeps seats, not names: it says that seat 0 won, never who sat there. It does say
which seats were a table's bots, and which bots (``record.bots``).

Examples
========

>>> from colorlab.class_games import SAMPLE, class_results, load_records
>>> results = class_results(load_records(SAMPLE))
>>> sorted(results["game"].unique())
['colorform', 'colorfox', 'colorium', 'colourbrain']
"""

from __future__ import annotations

import math
import statistics
from pathlib import Path

from colorlab.archive import is_zip, record_files
from colorlab.archive import load_records as load_records  # offered here too: the lesson reads its records with it
from colorlab.experiments import play_chunk, t_quantile, winning_margin
from colorlab.games import find_game
from colorlab.record import GameRecord
from colorlab.rules import rules_in_words

SAMPLE = Path(__file__).parent / "data" / "class-sample"


DOWNLOADS = "class-records*.zip"  # the names the teacher's page gives its downloads (class-records-<when>.zip)


def class_source(where: str | Path | None = None, folder: str | Path = ".") -> Path:
    """What to read: `where` (the teacher's zip or folder of records) if it holds records, else the newest download of
    the teacher's page in `folder` (as the page named it), else the sample class colorlab ships. (On a school's hub,
    lesson 50 passes the records it fetched from the class's service: see
    :func:`colorlab.classroom.school.records_from_the_hub`.)"""
    if where is not None and (is_zip(where) or record_files(where)):
        return Path(where)
    downloads = sorted(Path(folder).glob(DOWNLOADS), key=lambda path: (path.stat().st_mtime, path.name))
    return downloads[-1] if downloads else SAMPLE


def kind_of_table(record: GameRecord) -> str:
    """Which tables are compared with each other: one game (Col-Or-Form's variant too) with one number of players; other
    rules are pooled, so that a class's few tables make groups large enough to say something."""
    game = find_game(record.game)
    variant = getattr(record.rules, "variant", None)  # Col-Or-Form's two games are two games, not one
    return f"{game.title}{f' ({variant})' if variant else ''}, {record.rules.players} {game.seat_word}s"


def seat_scores(scores: list, seats: list[int]) -> float:
    """The best score among these seats (NaN if there are none)."""
    return max((scores[seat] for seat in seats), default=math.nan)


def game_row(record: GameRecord) -> dict:
    """The lab's numbers about one table's game; an unfinished game has only its length."""
    final = record.final_state()
    bots = list(record.bots) or [None] * record.rules.players
    row = {
        "game": record.game,
        "kind": kind_of_table(record),
        "rules": rules_in_words(record.rules),
        "players": record.rules.players,
        "learners": sum(bot is None for bot in bots),
        "seed": record.seed,
        "finished": bool(final.over),
        "state": "finished" if final.over else "unfinished" if record.actions else "never played",
        "actions": len(record.actions),
    }
    if not final.over:
        return row
    outcome = find_game(record.game).outcome(final, len(record.actions), record)
    scores, winners = outcome.pop("scores"), outcome.pop("winners")
    row.update(
        {
            "winners": winners,
            "first player wins": 0 in winners,
            "shared win": len(winners) > 1,
            "top score": max(scores),
            "margin": winning_margin(scores),
            # a table's bots are yardsticks, not the class: the class's results are its learners' seats
            "learners' top score": seat_scores(scores, [seat for seat, bot in enumerate(bots) if bot is None]),
            "bots' top score": seat_scores(scores, [seat for seat, bot in enumerate(bots) if bot is not None]),
            "a learner won": any(bots[seat] is None for seat in winners),
        }
    )
    row.update({f"score {seat}": score for seat, score in enumerate(scores)})
    row.update(outcome)
    return row


def class_results(records: dict[str, GameRecord]):
    """One row per table (pandas): its file, game, rules, whether it was finished, and the lab's measures."""
    import pandas as pd

    frame = pd.DataFrame([{"file": name, **game_row(record)} for name, record in records.items()])
    return frame.assign(variant="our class")


def bots_on_the_same_deals(records: list[GameRecord], bots: str | None = None):
    """Play every finished game again from its own seed and rules, bots where learners sat: one row a game (pandas).

    A seat where the table had a bot gets that bot again: seeded by colorlab's one rule, it is
    the bot the table had, so only the learners are replaced. `bots` names the bot that takes a
    learner's seat, as in :func:`colorlab.experiments.run` (by default the lab's: its random
    bot, or a medium ReactionBot or QuizBot).
    """
    import pandas as pd

    rows = []
    for record in records:
        if record.final_state().over:
            line_up = [bot or bots for bot in record.bots] or bots
            played = play_chunk(record.game, record.rules.to_dict(), [record.seed], line_up)[0]
            scores = [played[f"score {seat}"] for seat in range(record.rules.players)]
            learners = [seat for seat, bot in enumerate(record.bots or [None] * len(scores)) if bot is None]
            rows.append(
                {
                    "game": record.game,
                    "kind": kind_of_table(record),
                    "rules": rules_in_words(record.rules),
                    "players": record.rules.players,
                    **played,
                    # the lab's bots in the learners' seats: the same seats as the class's "learners' top score"
                    "learners' top score": seat_scores(scores, learners),
                }
            )
    return pd.DataFrame(rows).assign(variant="bots")


def deal_by_deal(ours: list[float], theirs: list[float]) -> tuple[float, float, float]:
    """A 95% interval for the mean of theirs - ours over the same deals: (low, mean, high), Student's t.

    The lab's :func:`colorlab.experiments.interval` would read differences that
    happen to be all 0s and 1s as a share; these are differences, which may be negative.

    Examples
    ========

    >>> from colorlab.class_games import deal_by_deal
    >>> low, mean, high = deal_by_deal([1, 2, 3], [2, 4, 6])
    >>> round(low, 3), mean, round(high, 3)
    (-0.484, 2.0, 4.484)
    >>> deal_by_deal([5, 7], [5, 7])
    (0.0, 0.0, 0.0)
    """
    if len(ours) != len(theirs):
        raise ValueError(f"deal by deal needs the same deals on both sides, not {len(ours)} and {len(theirs)}")
    differences = [float(b) - float(a) for a, b in zip(ours, theirs)]
    if not differences:
        return (math.nan, math.nan, math.nan)
    mean = statistics.fmean(differences)
    if len(differences) < 2:
        return (math.nan, mean, math.nan)
    half = t_quantile(0.975, len(differences) - 1) * statistics.stdev(differences) / math.sqrt(len(differences))
    return (mean - half, mean, mean + half)
