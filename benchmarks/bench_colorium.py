"""Time Colorium's placements: every resting place of the L, all 8 orientations, mid-game.

The board is made once from a seed: die shapes in random colours are drawn one after
another, each at a random one of its lowest resting places (within a row of the lowest),
mostly falling straight down and now and then sliding, which leaves overhangs, until
half of the 64 spaces are filled.
"""

from __future__ import annotations

import random
import statistics
import time
import timeit

from colorlab.colorium import Board, Rules
from colorlab.colorium.shapes import SHAPES, placements, resting_places

from table import Row, verdict

SEED = 2034
FILLED = 32
SLIDE_SHARE = 0.3
SHAPE = "L"
LOOPS = 5000
REPEATS = 7
TARGETS = {"slide": 40_000.0, "straight": 100_000.0}


def lowest_cell(place) -> int:
    """How far down does the placement reach (its largest row)?"""
    return max(r for r, _ in place.cells)


def midgame_board(seed: int = SEED) -> Board:
    """Fill an empty 8 x 8 board from the seed, low places first, until FILLED spaces are taken."""
    rng = random.Random(seed)
    board = Board.empty()
    letters = sorted(SHAPES)
    while board.width * board.height - board.empty_spaces < FILLED:
        letter = rng.choice(letters)
        drop = "slide" if rng.random() < SLIDE_SHARE else "straight"
        options = placements(board, letter, Rules(drop=drop))
        if not options:
            continue
        deepest = max(lowest_cell(place) for place in options)
        low = [place for place in options if lowest_cell(place) >= deepest - 1]
        board = board.filled(rng.choice(low).cells, rng.choice("RYGBPO"), letter)
    return board


def covered_spaces(board: Board) -> int:
    """How many empty spaces have a filled space somewhere above them?"""
    return sum(
        1
        for c in range(board.width)
        for r in range(1, board.height)
        if board.rows[r][c] == "." and any(board.rows[above][c] != "." for above in range(r))
    )


def calls_per_second(board: Board, rules: Rules) -> float:
    """Median calls per second of the search behind `placements(board, SHAPE, rules)`, LOOPS calls a repeat.

    `placements` keeps what it found for each board, so the search itself is timed, uncached:
    ``resting_places.__wrapped__`` (the positions where the shape can rest, as bits).
    """
    names = {
        "find": resting_places.__wrapped__,
        "size": (board.width, board.height, board.mask),
        "shape": SHAPE,
        "rules": rules,
    }
    statement = "find(*size, shape, rules.mirror_images, rules.drop)"
    timeit.timeit(statement, globals=names, number=1)
    seconds = [timeit.timeit(statement, globals=names, number=LOOPS) for _ in range(REPEATS)]
    return LOOPS / statistics.median(seconds)


def rows() -> list[Row]:
    """Time placements of the L under each drop rule on the seeded mid-game board."""
    board = midgame_board()
    counts = {drop: len(placements(board, SHAPE, Rules(drop=drop))) for drop in TARGETS}
    filled = board.width * board.height - board.empty_spaces
    note = (
        f"Colorium placements: the board of seed {SEED} has {filled} of 64 spaces filled, "
        f"{covered_spaces(board)} empty spaces under overhangs, and {counts['slide']} L placements "
        f"under slide, {counts['straight']} under straight; rows top first: {' / '.join(board.rows)}."
    )
    found = []
    for drop, target in TARGETS.items():
        rate = calls_per_second(board, Rules(drop=drop))
        found.append(
            Row(
                f"colorium.placements (uncached), L on a mid-game 8x8, {drop} ({LOOPS} loops x {REPEATS})",
                f"{rate:,.0f}",
                "calls/s",
                f">= {target:,.0f}",
                verdict(rate >= target),
                note if not found else "",
            )
        )
    return found


GAMES, GAME_REPEATS, PLAYERS, GAMES_TARGET = 100, 3, 4, 100.0


def play_random_games(seeds: range) -> float:
    """Play one random-bot 4-player game per seed: how many seconds did they take?"""
    from colorlab.colorium import RandomBot, play_game

    elapsed = 0.0
    for seed in seeds:
        start = time.perf_counter()
        play_game(Rules(players=PLAYERS), [RandomBot(seed=seed * PLAYERS + p) for p in range(PLAYERS)], seed=seed)
        elapsed += time.perf_counter() - start
    return elapsed


def game_rows() -> list[Row]:
    """Random 4-player games per second on one core (moves per second beside OpenSpiel's: playouts.py)."""
    runs = [play_random_games(range(GAMES)) for _ in range(GAME_REPEATS)]
    games = statistics.median(GAMES / seconds for seconds in runs)
    return [
        Row(
            f"colorium {PLAYERS}-player random-bot games, one core ({GAMES} seeds x {GAME_REPEATS})",
            f"{games:.0f}",
            "games/s",
            f">= {GAMES_TARGET:g}",
            verdict(games >= GAMES_TARGET),
        )
    ]


def run() -> list[Row]:
    """Every Colorium benchmark row."""
    return rows() + game_rows()
