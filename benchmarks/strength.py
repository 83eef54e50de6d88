"""How strong is each bot? A round robin of every bot of each game, two players, both seat orders.

Each pairing plays the same seeds twice, once in each seat order, and each row
gives the first bot's win rate with its 95% Wilson interval. A shared win (a
tie for the most points, or ColorFox's tie that calls for a rematch) counts as
half a win. The search bots play at a smaller budget here than their default
(``BENCH_PLAYOUTS``) so that the table fits in ``make bench``; their rows'
target is the issue's: at least 60% against every other bot of the game (the
interval's lower bound is printed beside it, and in a note). The search bots' playouts per
second and their median move time at the default budget close the table.

Run alone: ``.venv/bin/python benchmarks/strength.py``; with ``--ladder`` it plays
instead each search bot at its default budget against itself at the bench budget
(under a second a move: several minutes), to show that the default is at least as strong.
"""

from __future__ import annotations

import concurrent.futures
import importlib
import math
import statistics
import sys
import time
from collections.abc import Callable

from table import Row, run_alone, verdict

WORKERS = 2
TARGET = 0.6
BENCH_PLAYOUTS = {"colorfox": 100, "colorium": 40}
SEARCH_GAMES = 100  # per pairing with a search bot, half in each seat order
GAMES = 100  # per other pairing, half in each seat order
LADDER_GAMES = 10
TIMED_MOVES = 7
MOVE_SECONDS = 1.0  # the default budget: a move within about a second


def lineup(game: str) -> dict[str, Callable]:
    """Every bot of a game, by name, as a factory of `seed`."""
    module = importlib.import_module(f"colorlab.{game}")
    if game == "colorform":
        return {f"ReactionBot ({level})": _level(module.ReactionBot, level) for level in ("easy", "medium", "hard")}
    if game == "colourbrain":
        return {f"QuizBot ({level})": _level(module.QuizBot, level) for level in ("easy", "medium", "hard")}
    heuristic = {
        "colorfox": ("RandomBot", "GreedyBot", "SetBuilder"),
        "colorium": ("RandomBot", "GreedyBot", "MissionBot"),
    }[game]
    bots = {name: getattr(module, name) for name in heuristic}
    return {**bots, f"SearchBot ({BENCH_PLAYOUTS[game]} playouts)": _search(game, BENCH_PLAYOUTS[game])}


class _level:
    """A factory of bots of one level (a class, not a closure, so that worker processes can receive it)."""

    def __init__(self, bot: type, level: str):
        self.bot, self.level = bot, level

    def __call__(self, seed: int):
        return self.bot(self.level, seed=seed)


class _search:
    """A factory of search bots with a budget in playouts (None: the default)."""

    def __init__(self, game: str, playouts: int | None):
        self.game, self.playouts = game, playouts

    def __call__(self, seed: int):
        return importlib.import_module(f"colorlab.{self.game}").SearchBot(seed=seed, playouts=self.playouts)


def first_share(game: str, first: Callable, second: Callable, seed: int) -> float:
    """Play one 2-player game, the first bot in seat seed % 2: its share of the win (a shared win is half)."""
    module = importlib.import_module(f"colorlab.{game}")
    seat = seed % 2
    bots = [second(seed=seed * 2 + 1), second(seed=seed * 2 + 1)]
    bots[seat] = first(seed=seed * 2)
    rules = module.Rules(teams=2) if game == "colourbrain" else module.Rules(players=2)
    final = module.play_game(rules, bots, seed=seed).final_state()
    best = module.winners(final) or _leaders(module, final)
    return (seat in best) / len(best)


def _leaders(module, final) -> list[int]:
    """Who has the most points (ColorFox's tie that calls for a rematch)?"""
    points = module.scores(final)
    return [p for p, score in enumerate(points) if score == max(points)]


def play_chunk(game: str, first: Callable, second: Callable, seeds: list[int]) -> float:
    """The first bot's total share of the wins over these seeds."""
    return sum(first_share(game, first, second, seed) for seed in seeds)


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate.

    Examples
    ========
    >>> [round(x, 3) for x in wilson(60, 100)]
    [0.502, 0.691]
    """
    rate = wins / games
    centre = (rate + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


def pairings(game: str) -> list[tuple[str, str]]:
    """Every pair of bots of a game once, the search bot (if any) first."""
    names = list(lineup(game))[::-1]
    return [(a, b) for i, a in enumerate(names) for b in names[i + 1 :]]


def chunks(count: int, size: int) -> list[list[int]]:
    """Seeds 0..count-1 in chunks of `size`."""
    return [list(range(start, min(start + size, count))) for start in range(0, count, size)]


def round_robin(executor) -> list[Row]:
    """Play every pairing of every game in the pool, search bots first (the longest); one row per pairing."""
    futures, counts = {}, {}
    for game in ("colorfox", "colorium", "colorform", "colourbrain"):
        bots = lineup(game)
        for a, b in pairings(game):
            count = SEARCH_GAMES if a.startswith("SearchBot") else GAMES
            counts[game, a, b] = count
            for seeds in chunks(count, 5 if a.startswith("SearchBot") else 50):
                futures[executor.submit(play_chunk, game, bots[a], bots[b], seeds)] = (game, a, b)
    wins = dict.fromkeys(counts, 0.0)
    for future, key in futures.items():
        wins[key] += future.result()
    return [pairing_row(*key, wins[key], counts[key]) for key in counts]


def pairing_row(game: str, first: str, second: str, won: float, count: int) -> Row:
    """One pairing's row: the first bot's win rate, with its interval; judged for a search bot."""
    low, high = wilson(won, count)
    judged = first.startswith("SearchBot")
    return Row(
        f"{game}: {first} vs {second} ({count} games, both seat orders)",
        f"{won / count:.0%}",
        f"wins [{low:.0%}-{high:.0%}]",
        f">= {TARGET:.0%}" if judged else "(info)",
        verdict(won / count >= TARGET) if judged else "info",
        f"{game}: {first} wins {won:g} of {count} against {second}; 95% Wilson interval {low:.1%}-{high:.1%}."
        if judged
        else "",
    )


def speed_rows() -> list[Row]:
    """Each search bot's playouts per second and its median move time at the default budget."""
    rows = []
    for game in BENCH_PLAYOUTS:
        module = importlib.import_module(f"colorlab.{game}")
        positions = sample_positions(module)
        bot = module.SearchBot(seed=1)
        seconds = []
        for state, seat in positions:
            start = time.perf_counter()
            bot.act(state, seat)
            seconds.append(time.perf_counter() - start)
        rate, median = bot.playouts * len(seconds) / sum(seconds), statistics.median(seconds)
        rows += [
            Row(
                f"{game}: SearchBot playouts per second ({len(seconds)} moves)",
                f"{rate:,.0f}",
                "playouts/s",
                "(info)",
                "info",
            ),
            Row(
                f"{game}: SearchBot default move ({bot.playouts} playouts, median of {len(seconds)})",
                f"{median:.2f}",
                "s",
                f"<= {MOVE_SECONDS:g}",
                verdict(median <= MOVE_SECONDS),
            ),
        ]
    return rows


def sample_positions(module) -> list:
    """Positions of one seeded game between greedy bots where a choice is to be made, spread over the game."""
    agents = importlib.import_module(f"{module.__name__}.agents")
    bots = [module.GreedyBot(seed=seat) for seat in range(2)]
    state, found = module.new_game(module.Rules(players=2), 7), []
    while not state.over:
        seat = agents.SEARCH_GAME.to_move(state)
        if len(agents.SEARCH_GAME.actions(state)) > 1:
            found.append((state, seat))
        state = module.play(state, bots[seat].act(state, seat))
    step = max(1, len(found) // TIMED_MOVES)
    return found[::step][:TIMED_MOVES]


def ladder(executor) -> list[Row]:
    """The default budget against the bench budget, for each search bot."""
    rows = []
    for game, playouts in BENCH_PLAYOUTS.items():
        strong, weak = _search(game, None), _search(game, playouts)
        futures = [executor.submit(play_chunk, game, strong, weak, seeds) for seeds in chunks(LADDER_GAMES, 1)]
        won = sum(future.result() for future in futures)
        low, high = wilson(won, LADDER_GAMES)
        rows.append(
            Row(
                f"{game}: SearchBot (default) vs SearchBot ({playouts} playouts) ({LADDER_GAMES} games)",
                f"{won / LADDER_GAMES:.0%}",
                f"wins [{low:.0%}-{high:.0%}]",
                ">= 50%",
                verdict(won / LADDER_GAMES >= 0.5),
            )
        )
    return rows


def run() -> list[Row]:
    """The round robin of every game, then the search bots' speed."""
    with concurrent.futures.ProcessPoolExecutor(WORKERS) as executor:
        rows = round_robin(executor)
    return rows + speed_rows()


def run_ladder() -> list[Row]:
    """The default budget of each search bot against the bench budget (not part of `make bench`: it is long)."""
    with concurrent.futures.ProcessPoolExecutor(WORKERS) as executor:
        return ladder(executor)


if __name__ == "__main__":
    sys.exit(run_alone(run_ladder if "--ladder" in sys.argv[1:] else run))
