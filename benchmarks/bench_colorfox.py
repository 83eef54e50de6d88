"""Time ColorFox: random bot games, stick scoring, and random-playout moves beside OpenSpiel's.

OpenSpiel is optional: when `open_spiel` is importable, its pure-Python tic-tac-toe
(`python_tic_tac_toe`) plays random games in the same run, alternating with ColorFox's
repeats, as a yardstick for moves per second. When it is not, an info row says so.
"""

from __future__ import annotations

import random
import statistics
import time
import timeit

from colorlab import colorfox

from table import Row, verdict

SEED = 2026
REPEATS = 5

GAMES = 200
PLAYERS = 4
GAMES_TARGET = 500.0

CASES = 1000
LOOPS = 100
MAX_STICKS = 8
COLOURS = ("red", "orange", "yellow", "green", "blue", "purple")
SCORE_TARGET_US = 10.0

OPENSPIEL_GAME = "python_tic_tac_toe"
OPENSPIEL_GAMES = 2000
MOVES_TARGET_RATIO = 1.0
OPENSPIEL_MISSING = ("OpenSpiel not installed (pip install open_spiel) — "
                     "reference figure about 60,000 moves/s")


def random_bots(seed: int) -> list:
    """Four random bots for the game of this seed, each with its own seed."""
    return [colorfox.RandomBot(seed=seed * PLAYERS + seat) for seat in range(PLAYERS)]


def play_games(rules: colorfox.Rules, seeds: range) -> tuple[float, int, list[int]]:
    """Play one random-bot game per seed: seconds spent, actions played, seeds that never end."""
    elapsed, moves, stuck = 0.0, 0, []
    for seed in seeds:
        start = time.perf_counter()
        try:
            record = colorfox.play_game(rules, random_bots(seed), seed=seed)
        except RuntimeError:
            stuck.append(seed)
            continue
        elapsed += time.perf_counter() - start
        moves += len(record.actions)
    return elapsed, moves, stuck


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


def bench_games() -> list[Row]:
    """Random 4-player games and their moves per second, beside OpenSpiel's, alternating repeats."""
    rules = colorfox.Rules(players=PLAYERS)
    game = openspiel_game()
    colorfox.play_game(rules, random_bots(0), seed=0)
    if game is not None:
        openspiel_playouts(game, count=100)
    runs, openspiel_rates = [], []
    for _ in range(REPEATS):
        runs.append(play_games(rules, range(GAMES)))
        if game is not None:
            seconds, moves = openspiel_playouts(game)
            openspiel_rates.append(moves / seconds)
    stuck = runs[0][2]
    games = statistics.median((GAMES - len(run[2])) / run[0] for run in runs)
    moves = statistics.median(run[1] / run[0] for run in runs)
    per_game = runs[0][1] / (GAMES - len(stuck))
    note = (f"ColorFox random games: {len(stuck)} of {GAMES} seeds hit play_game's action cap and are "
            f"left out (seeds {', '.join(map(str, stuck))}).") if stuck else ""
    rows = [
        Row(f"colorfox {PLAYERS}-player random-bot games, one core ({GAMES} seeds x {REPEATS})",
            f"{games:.0f}", "games/s", f">= {GAMES_TARGET:g}", verdict(games >= GAMES_TARGET), note),
        Row(f"colorfox random playouts, moves ({GAMES} games x {REPEATS})", f"{moves:,.0f}", "moves/s",
            "(info)", "info", f"colorfox random playouts: {per_game:.1f} actions per game "
            "(len(record.actions): places, passes, exchanges and dones)."),
    ]
    label = f"OpenSpiel {OPENSPIEL_GAME} random playouts ({OPENSPIEL_GAMES} games x {REPEATS})"
    if game is None:
        return rows + [Row(label, "-", "moves/s", "(info)", "info", OPENSPIEL_MISSING)]
    reference = statistics.median(openspiel_rates)
    ratio = moves / reference
    return rows + [
        Row(label, f"{reference:,.0f}", "moves/s", "(info)", "info",
            f"OpenSpiel {_openspiel_version()}: pure-Python {OPENSPIEL_GAME}, legal_actions + "
            "random.choice + apply_action until is_terminal, timed in the same run."),
        Row("colorfox / OpenSpiel random-playout moves per second", f"{ratio:.2f}", "x",
            f">= {MOVES_TARGET_RATIO:g}", verdict(ratio >= MOVES_TARGET_RATIO)),
    ]


def _openspiel_version() -> str:
    """Which open_spiel distribution is installed?"""
    from importlib import metadata
    try:
        return metadata.version("open_spiel")
    except metadata.PackageNotFoundError:
        return "(version unknown)"


def stick_cases(count: int = CASES, seed: int = SEED) -> list[dict[str, int]]:
    """A fixed set of stick counts: each colour 0..MAX_STICKS, as colour name -> int."""
    rng = random.Random(seed)
    return [{colour: rng.randint(0, MAX_STICKS) for colour in COLOURS} for _ in range(count)]


def seconds_per_score(counts: dict[str, int], loops: int = LOOPS) -> float:
    """How many seconds does one call of `score_sticks` take on these counts, default rules?"""
    names = {"score_sticks": colorfox.score_sticks, "counts": counts}
    return timeit.timeit("score_sticks(counts)", globals=names, number=loops) / loops


def bench_score() -> Row:
    """Time `score_sticks` on every case; report the median over cases, then over repeats."""
    cases = stick_cases()
    repeats = [statistics.median(seconds_per_score(case) for case in cases) for _ in range(REPEATS)]
    micro = statistics.median(repeats) * 1e6
    return Row(f"colorfox.score_sticks, 6 colours 0..{MAX_STICKS} ({CASES} cases x {LOOPS} loops x "
               f"{REPEATS})", f"{micro:.2f}", "µs/call", f"< {SCORE_TARGET_US:g}",
               verdict(micro < SCORE_TARGET_US))


def run() -> list[Row]:
    """Run the ColorFox benchmarks: games/s, score_sticks, then moves/s beside OpenSpiel's."""
    games, *moves = bench_games()
    return [games, bench_score(), *moves]
