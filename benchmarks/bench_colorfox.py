"""Time ColorFox: 4-player random bot games, and stick scoring.

Random-playout moves per second beside OpenSpiel's tic-tac-toe, for every game, are in
`playouts.py`.
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


def random_bots(seed: int) -> list:
    """Four random bots for the game of this seed, each with its own seed."""
    return [colorfox.RandomBot(seed=seed * PLAYERS + seat) for seat in range(PLAYERS)]


def play_games(rules: colorfox.Rules, seeds: range) -> tuple[float, list[int]]:
    """Play one random-bot game per seed: seconds spent, and the seeds that never end."""
    elapsed, stuck = 0.0, []
    for seed in seeds:
        start = time.perf_counter()
        try:
            colorfox.play_game(rules, random_bots(seed), seed=seed)
        except RuntimeError:
            stuck.append(seed)
            continue
        elapsed += time.perf_counter() - start
    return elapsed, stuck


def bench_games() -> Row:
    """Random 4-player games per second on one core."""
    rules = colorfox.Rules(players=PLAYERS)
    colorfox.play_game(rules, random_bots(0), seed=0)
    runs = [play_games(rules, range(GAMES)) for _ in range(REPEATS)]
    stuck = runs[0][1]
    games = statistics.median((GAMES - len(seeds_stuck)) / seconds for seconds, seeds_stuck in runs)
    note = (
        (
            f"ColorFox random games: {len(stuck)} of {GAMES} seeds hit play_game's action cap and are "
            f"left out (seeds {', '.join(map(str, stuck))})."
        )
        if stuck
        else ""
    )
    return Row(
        f"colorfox {PLAYERS}-player random-bot games, one core ({GAMES} seeds x {REPEATS})",
        f"{games:.0f}",
        "games/s",
        f">= {GAMES_TARGET:g}",
        verdict(games >= GAMES_TARGET),
        note,
    )


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
    return Row(
        f"colorfox.score_sticks, 6 colours 0..{MAX_STICKS} ({CASES} cases x {LOOPS} loops x {REPEATS})",
        f"{micro:.2f}",
        "µs/call",
        f"< {SCORE_TARGET_US:g}",
        verdict(micro < SCORE_TARGET_US),
    )


def run() -> list[Row]:
    """Run the ColorFox benchmarks: games/s, then score_sticks."""
    return [bench_games(), bench_score()]
