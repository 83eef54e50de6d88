"""Time random playouts of every game beside OpenSpiel's tic-tac-toe, and 10,000 random games on every core.

A search bot plays thousands of games to the end for each move it makes, so the speed of a
random playout is its strength. A *random playout* of a game is one whole game, from
``new_game(Rules(), seed)`` to the end, between the players the experiments use by default
(each game's ``default_bot``, made by ``experiments.bots_for``), with the default rules (two players):

- ColorFox and Colorium: the game's ``RandomBot`` at every seat. It takes a uniformly random
  legal action (in ColorFox's exchanges it stops with one chance in two, then exchanges at random).
- Col-Or-Form: ``ReactionBot`` (medium) at every seat. The game has no turns to take at random:
  every player races to see a solution, and an action is a STOP call with claims. Its random
  legal actions would be wrong claims almost always, a game no one plays; the reaction bots
  play the race the game is (each looks at every revealed task in every turn, with the solver).
  ``play_game`` plays a table of reaction bots on plain numbers (``colorform/playout.py``), the
  model's game seed for seed; an info row gives the same games played through the model, STOP by
  STOP (``play`` and ``next_action``), for comparison.
- Colourbrain: ``QuizBot`` (medium) at every team: it knows an answer with a chance, else
  plays its copier or guesses colours at random. A uniformly random answer would be a quiz
  nobody wins for hundreds of questions.

A move is one action of the game's record. The yardstick is OpenSpiel's pure-Python
tic-tac-toe (``python_tic_tac_toe``: ``legal_actions``, ``random.choice``, ``apply_action``
until ``is_terminal``), timed in the same run, its repeats alternating with the games'.
OpenSpiel is optional: without it an info row says so.

The 10,000 games are one experiment per game, as a learner runs it:
``experiments.run(game, {"base": Rules()}, games=10_000, progress=False)`` on its default
executor (a process pool with one worker per core). Its time includes the runner's own work:
the game's ``outcome`` of each final state (which a record played out by bots keeps, so no game
is played twice), and sending the rows back.
"""

from __future__ import annotations

import importlib
import os
import random
import resource
import statistics
import time

from colorlab import experiments
from colorlab.games import find_game

from table import Row, run_alone, verdict

GAMES = ("colorfox", "colorium", "colorform", "colourbrain")
SEED = 2026
PLAYOUTS = 200  # games of each game per repeat
REPEATS = 5
MOVES_TARGET_RATIO = 1.0

THROUGH_THE_MODEL = "colorform through the model"

OPENSPIEL_GAME = "python_tic_tac_toe"
OPENSPIEL_GAMES = 2000
OPENSPIEL_MISSING = (
    "OpenSpiel not installed (pip install open_spiel, or the ai extra): no yardstick "
    "for random-playout moves per second"
)

EXPERIMENT_GAMES = 10_000
EXPERIMENT_TARGET_SECONDS = 10.0


def rules_of(game: str):
    """The default rules of a game."""
    return importlib.import_module(f"colorlab.{game}").Rules()


def play_playouts(game: str, seeds: range) -> tuple[float, int]:
    """Play one random playout per seed: seconds spent and moves (record actions) played."""
    module = importlib.import_module(f"colorlab.{game}")
    rules = module.Rules()
    elapsed, moves = 0.0, 0
    for seed in seeds:
        start = time.perf_counter()
        record = module.play_game(rules, experiments.bots_for(game, None, rules.players, seed), seed=seed)
        elapsed += time.perf_counter() - start
        moves += len(record.actions)
    return elapsed, moves


def model_playouts(seeds: range) -> tuple[float, int]:
    """Col-Or-Form's random playouts played through the model, STOP by STOP: seconds spent and moves played."""
    from colorlab.agents import play_out
    from colorlab.colorform import Rules, next_action

    elapsed, moves = 0.0, 0
    for seed in seeds:
        start = time.perf_counter()
        record = play_out(
            "colorform", Rules(), experiments.bots_for("colorform", None, 2, seed), seed, next_action, 10_000
        )
        elapsed += time.perf_counter() - start
        moves += len(record.actions)
    return elapsed, moves


def openspiel_game():
    """OpenSpiel's pure-Python tic-tac-toe, or None when open_spiel is not importable."""
    try:
        import open_spiel.python.games  # noqa: F401  (registers the python_* games)
        import pyspiel
    except ImportError:
        return None
    return pyspiel.load_game(OPENSPIEL_GAME)


def openspiel_playouts(game, count: int = OPENSPIEL_GAMES, seed: int = SEED) -> tuple[float, int]:
    """Play `count` random games of an OpenSpiel game: seconds spent and moves played."""
    rng = random.Random(seed)
    moves = 0
    start = time.perf_counter()
    for _ in range(count):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            moves += 1
    return time.perf_counter() - start, moves


def playout_rates() -> tuple[dict[str, list[float]], list[float]]:
    """Moves per second of each game's repeats, and of OpenSpiel's, the repeats alternating."""
    reference = openspiel_game()
    for game in GAMES:
        play_playouts(game, range(2))  # warm up: imports, and what each game works out once
    rates: dict[str, list[float]] = {game: [] for game in GAMES + (THROUGH_THE_MODEL,)}
    openspiel: list[float] = []
    for repeat in range(REPEATS):
        seeds = range(repeat * PLAYOUTS, (repeat + 1) * PLAYOUTS)
        if reference is not None:
            seconds, moves = openspiel_playouts(reference)
            openspiel.append(moves / seconds)
        for game in GAMES:
            seconds, moves = play_playouts(game, seeds)
            rates[game].append(moves / seconds)
        seconds, moves = model_playouts(seeds)
        rates[THROUGH_THE_MODEL].append(moves / seconds)
    return rates, openspiel


def experiment_seconds(game: str, games: int = EXPERIMENT_GAMES) -> tuple[float, float]:
    """How long does one experiment of `games` random games take on the default executor?

    Returns the wall time and the processor time its worker processes used (they have ended by then).
    """
    before = _children_cpu()
    start = time.perf_counter()
    experiments.run(game, {"base": rules_of(game)}, games=games, progress=False)
    return time.perf_counter() - start, _children_cpu() - before


def _children_cpu() -> float:
    """How many processor seconds have this process's ended child processes used?"""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def playout_rows(rates: dict[str, list[float]], openspiel: list[float]) -> list[Row]:
    """One row of moves per second per game, and its ratio to OpenSpiel's when OpenSpiel ran."""
    label = f"OpenSpiel {OPENSPIEL_GAME} random playouts ({OPENSPIEL_GAMES} games x {REPEATS})"
    if not openspiel:
        rows = [Row(label, "-", "moves/s", "(info)", "info", OPENSPIEL_MISSING)]
    else:
        rows = [
            Row(
                label,
                f"{statistics.median(openspiel):,.0f}",
                "moves/s",
                "(info)",
                "info",
                f"OpenSpiel {_openspiel_version()}: pure-Python {OPENSPIEL_GAME}, legal_actions + "
                "random.choice + apply_action until is_terminal, timed in the same run, alternating.",
            )
        ]
    for game in GAMES:
        bots = find_game(game).default_bot
        moves = statistics.median(rates[game])
        rows.append(
            Row(
                f"{game} random playouts, {bots} x2, Rules() ({PLAYOUTS} games x {REPEATS})",
                f"{moves:,.0f}",
                "moves/s",
                "(info)",
                "info",
            )
        )
        if openspiel:
            ratio = moves / statistics.median(openspiel)
            rows.append(
                Row(
                    f"{game} / OpenSpiel random-playout moves per second",
                    f"{ratio:.2f}",
                    "x",
                    f">= {MOVES_TARGET_RATIO:g}",
                    verdict(ratio >= MOVES_TARGET_RATIO),
                )
            )
    through_the_model = statistics.median(rates[THROUGH_THE_MODEL])
    slower = statistics.median(rates["colorform"]) / through_the_model
    rows.append(
        Row(
            f"colorform random playouts through the model, STOP by STOP ({PLAYOUTS} games x {REPEATS})",
            f"{through_the_model:,.0f}",
            "moves/s",
            "(info)",
            "info",
            "The same games as the colorform row (play_out with next_action and play, instead of "
            f"play_game's table on plain numbers): {slower:.1f} times slower.",
        )
    )
    return rows


def experiment_rows() -> list[Row]:
    """One row per game: the wall time of 10,000 random games, one experiment on every core."""
    rows = []
    for game in GAMES:
        seconds, processor = experiment_seconds(game)
        note = (
            f"{game}: the {os.cpu_count()} worker processes used {processor:.1f} processor seconds, "
            f"{processor / os.cpu_count():.1f} s each: about the wall time when no other work shares the CPUs."
        )
        rows.append(
            Row(
                f"experiments.run: {EXPERIMENT_GAMES:,} {game} games, {find_game(game).default_bot}, "
                f"{os.cpu_count()} processes",
                f"{seconds:.1f}",
                "s",
                f"< {EXPERIMENT_TARGET_SECONDS:g}",
                verdict(seconds < EXPERIMENT_TARGET_SECONDS),
                note,
            )
        )
    return rows


def _openspiel_version() -> str:
    """Which open_spiel distribution is installed?"""
    from importlib import metadata

    try:
        return metadata.version("open_spiel")
    except metadata.PackageNotFoundError:
        return "(version unknown)"


def _load_note() -> str:
    """Say how busy the machine was: its load averages over 1, 5 and 15 minutes."""
    try:
        one, five, fifteen = os.getloadavg()
    except OSError:
        return "Random playouts: load average unknown on this system."
    return (
        f"Random playouts: load average {one:.2f}, {five:.2f}, {fifteen:.2f} (1, 5, 15 min) on "
        f"{os.cpu_count()} CPUs when the experiments ended; figures move with it."
    )


def run() -> list[Row]:
    """Random-playout moves per second beside OpenSpiel's, then 10,000 random games per game."""
    rows = playout_rows(*playout_rates()) + experiment_rows()
    last = rows[-1]
    return rows[:-1] + [Row(*last.cells, note=f"{last.note} {_load_note()}")]


if __name__ == "__main__":
    raise SystemExit(run_alone(run))
