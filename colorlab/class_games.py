"""A class's own games: the records a teacher downloaded, read as the rule-variant lab reads bot games.

The teacher's page saves one record file per table (``<game>-<code>.json``), the same
format as a saved game. :func:`class_results` turns them into a table with one row per
table and the lab's columns (``winners``, ``first player wins``, ``rounds``, ``actions``,
``top score``, ...), so the lab's tools (:func:`colorlab.experiments.interval`,
:func:`colorlab.experiments.describe_difference`) read them unchanged.
:func:`bots_on_the_same_deals` plays each finished table again with bots, from the
table's own seed: the same cards, dice or questions, other players.

A record keeps seats, not names: it says that seat 0 won, never who sat there.

Examples
========

>>> from colorlab.class_games import SAMPLE, class_results, load_records
>>> results = class_results(load_records(SAMPLE))
>>> sorted(results["game"].unique())
['colorform', 'colorfox', 'colorium', 'colourbrain']
"""

from __future__ import annotations

import importlib
from pathlib import Path

from colorlab.experiments import _margin, play_chunk
from colorlab.record import GameRecord, RecordError
from colorlab.rules import RulesBase

SAMPLE = Path(__file__).parent / "data" / "class-sample"


def record_files(folder: str | Path | None) -> list[Path]:
    """Which record files (``*.json``) lie in this folder, in name order? None, or a missing folder, has none."""
    if folder is None or not Path(folder).is_dir():
        return []
    return sorted(Path(folder).glob("*.json"))


def class_folder(folder: str | Path | None) -> Path:
    """The folder to read: the teacher's if it holds any records, else the sample class shipped with colorlab."""
    return Path(folder) if record_files(folder) else SAMPLE


def load_records(folder: str | Path) -> dict[str, GameRecord]:
    """Load every record in a folder, by file name; a file that is no colorlab record is refused by name."""
    records = {}
    for path in record_files(folder):
        try:
            records[path.name] = GameRecord.load(path)
        except RecordError as error:
            raise RecordError(f"{path.name}: {error}") from None
    return records


def rules_in_words(rules: RulesBase) -> str:
    """How do these rules differ from the rulebook's? ("the rulebook" when they do not.)

    Examples
    ========

    >>> from colorlab import colorfox
    >>> from colorlab.class_games import rules_in_words
    >>> rules_in_words(colorfox.Rules()), rules_in_words(colorfox.Rules(players=3, set_score="square"))
    ('the rulebook', 'players=3, set_score=square')
    """
    changed = rules.differences()
    return ", ".join(f"{name}={now}" for name, (_, now) in changed.items()) or "the rulebook"


def game_row(record: GameRecord) -> dict:
    """The lab's numbers about one table's game; an unfinished game has only its length."""
    final = record.final_state()
    row = {"game": record.game, "rules": rules_in_words(record.rules), "players": record.rules.players,
           "seed": record.seed, "finished": bool(final.over), "actions": len(record.actions)}
    if not final.over:
        return row
    model = importlib.import_module(f"colorlab.{record.game}.model")
    outcome = model.outcome(final, len(record.actions), record)
    scores, winners = outcome.pop("scores"), outcome.pop("winners")
    row.update({"winners": winners, "first player wins": 0 in winners, "shared win": len(winners) > 1,
                "top score": max(scores), "margin": _margin(scores)})
    row.update({f"score {seat}": score for seat, score in enumerate(scores)})
    row.update(outcome)
    return row


def class_results(records: dict[str, GameRecord]):
    """One row per table (pandas): its file, game, rules, whether it was finished, and the lab's measures."""
    import pandas as pd
    frame = pd.DataFrame([{"file": name, **game_row(record)} for name, record in records.items()])
    return frame.assign(variant="our class")


def bots_on_the_same_deals(records: list[GameRecord], bots: str | None = None):
    """Play every finished game again with bots, from its own seed and rules: one row per game (pandas).

    `bots` names a bot class of the game, as in :func:`colorlab.experiments.run`
    (by default the lab's: its random bot, or a medium ReactionBot or QuizBot).
    """
    import pandas as pd
    rows = []
    for record in records:
        if record.final_state().over:
            played = play_chunk(record.game, record.rules.to_dict(), [record.seed], bots)[0]
            rows.append({"game": record.game, "rules": rules_in_words(record.rules),
                         "players": record.rules.players, **played})
    return pd.DataFrame(rows).assign(variant="bots")
