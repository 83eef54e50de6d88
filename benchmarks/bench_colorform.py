"""Time Col-Or-Form's solver on single tasks, and whole games played by bots."""

from __future__ import annotations

import random
import statistics
import time
import timeit

from colorlab import colorform
from colorlab.colorform.components import FIGURES

from table import Row, verdict

SEED = 2026
CASES = 300
LOOPS = 100
REPEATS = 5
SOLVE_TARGET_US = 25.0

GAMES = 200
GAME_REPEATS = 5
GAMES_TARGET = 200.0


def solve_cases(count: int = CASES, seed: int = SEED) -> list[tuple]:
    """Deal a fixed set of (layout of 9, hand of 4, task card) cases, all figures distinct."""
    rng = random.Random(seed)
    tasks = colorform.task_cards()
    cases = []
    for _ in range(count):
        figures = rng.sample(FIGURES, 13)
        cases.append((tuple(figures[:9]), tuple(figures[9:]), rng.choice(tasks)))
    return cases


def seconds_per_solve(case: tuple, loops: int = LOOPS) -> float:
    """How many seconds does one call of `solve` take on this case, with the default rules?"""
    layout, hand, task = case
    names = {"solve": colorform.solve, "layout": layout, "hand": hand, "task": task}
    return timeit.timeit("solve(layout, hand, task)", globals=names, number=loops) / loops


def as_names(case: tuple) -> tuple:
    """The same case with every figure given as a string such as "red star", the task as a list of nine."""
    layout, hand, task = case
    return (
        [str(card) for card in layout],
        [str(card) for card in hand],
        [None if cell is None else str(cell) for cell in task.cells],
    )


def bench_solve(names: bool = False) -> Row:
    """Time `solve` on every case; report the median over cases, then over repeats."""
    cases = [as_names(case) for case in solve_cases()] if names else solve_cases()
    repeats = [statistics.median(seconds_per_solve(case) for case in cases) for _ in range(REPEATS)]
    micro = statistics.median(repeats) * 1e6
    solvable = sum(bool(colorform.solve(*case)) for case in cases)
    given = "figures as strings" if names else "figure objects"
    return Row(
        f"colorform.solve, {given}, hand of 4, 4 turns ({CASES} cases x {LOOPS} loops x {REPEATS})",
        f"{micro:.1f}",
        "µs/call",
        f"< {SOLVE_TARGET_US:g}",
        verdict(micro < SOLVE_TARGET_US),
        "" if names else f"solve: {solvable} of {CASES} cases have a solution.",
    )


def games_per_second(rules: colorform.Rules, seeds: range) -> tuple[float, list[int]]:
    """Play one bot game per seed: how many games end per second, and which seeds never end?"""
    elapsed, stuck = 0.0, []
    for seed in seeds:
        start = time.perf_counter()
        try:
            colorform.play_game(rules, seed=seed)
        except RuntimeError:
            stuck.append(seed)
            continue
        elapsed += time.perf_counter() - start
    return (len(seeds) - len(stuck)) / elapsed, stuck


def bench_games(name: str, rules: colorform.Rules, target: float | None) -> Row:
    """Play seeds 0..GAMES-1 several times; report the median games per second."""
    colorform.play_game(rules, seed=0)
    runs = [games_per_second(rules, range(GAMES)) for _ in range(GAME_REPEATS)]
    rate, stuck = statistics.median(rate for rate, _ in runs), runs[0][1]
    note = (
        (
            f"{name}: {len(stuck)} of {GAMES} seeds hit play_game's action cap and are left out "
            f"(seeds {', '.join(map(str, stuck))})."
        )
        if stuck
        else ""
    )
    label = f"{name} 4-player bot games, one core ({GAMES} seeds x {GAME_REPEATS})"
    if target is None:
        return Row(label, f"{rate:.0f}", "games/s", "(info)", "info", note)
    return Row(label, f"{rate:.0f}", "games/s", f">= {target:g}", verdict(rate >= target), note)


def run() -> list[Row]:
    """Run the solver and game benchmarks."""
    return [
        bench_solve(),
        bench_solve(names=True),
        bench_games("base", colorform.Rules(players=4), GAMES_TARGET),
        bench_games("junior", colorform.Rules.junior(players=4), None),
    ]
