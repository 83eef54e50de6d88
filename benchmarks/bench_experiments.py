"""Time one experiment of 10,000 random-bot games per game (default executor against one process), and a class-sized
lab run with search bots at the lab's smallest budget."""

from __future__ import annotations

import concurrent.futures
import dataclasses
import functools
import os
import time

from colorlab import colorform, colorfox, colorium, colourbrain
from colorlab.experiments import run
from colorlab.widgets.lab import SEARCH_PLAYOUTS

from table import Row, verdict

GAMES = int(os.environ.get("COLORLAB_BENCH_GAMES", "10000"))
TARGET_SECONDS = 60.0
CLASS_GAMES = 20  # games of each of two variants: a run a class waits for
CLASS_TARGET_SECONDS = 90.0
# Per game with a search bot: the bot, and a rule changed to make the second variant.
SEARCH_VARIANTS = {
    "colorfox": (colorfox.SearchBot, "exchange_pick", "opponent"),
    "colorium": (colorium.SearchBot, "drop", "straight"),
}
VARIANTS = {
    "colorform": colorform.Rules(),
    "colorfox": colorfox.Rules(),
    "colorium": colorium.Rules(),
    "colourbrain": colourbrain.Rules(),
}


def seconds(game: str, executor) -> float:
    """How long does one experiment of GAMES games take on this executor?"""
    start = time.perf_counter()
    run(game, {"default": VARIANTS[game]}, games=GAMES, executor=executor, chunk=250, progress=False)
    return time.perf_counter() - start


def run_rows() -> list[Row]:
    """One row per game: the default executor's time and its speed-up over one process; then the search-bot rows."""
    rows = []
    for game in VARIANTS:
        with concurrent.futures.ProcessPoolExecutor(max_workers=1) as single:
            alone = seconds(game, single)
        pooled = seconds(game, None)
        rows.append(
            Row(
                f"experiment: {GAMES:,} {game} games, default executor ({os.cpu_count()} processes)",
                f"{pooled:.1f}",
                "s",
                f"< {TARGET_SECONDS:g}",
                verdict(pooled < TARGET_SECONDS),
                f"{game}: one process took {alone:.1f} s, so the pool ran {alone / pooled:.2f}x faster.",
            )
        )
    return rows + search_rows()


def search_rows() -> list[Row]:
    """One row per game with a search bot: a lab run of two variants with SearchBot at every seat, default executor."""
    rows = []
    playouts = min(SEARCH_PLAYOUTS)
    for game, (bot, rule, value) in SEARCH_VARIANTS.items():
        rules = VARIANTS[game]
        variants = {"rulebook": rules, value: dataclasses.replace(rules, **{rule: value})}
        searcher = functools.partial(bot, playouts=playouts)
        start = time.perf_counter()
        run(game, variants, games=CLASS_GAMES, bots=searcher, chunk=1, progress=False)
        took = time.perf_counter() - start
        rows.append(
            Row(
                f"lab run: {CLASS_GAMES} {game} games x 2 variants, SearchBot ({playouts} playouts a move)",
                f"{took:.1f}",
                "s",
                f"< {CLASS_TARGET_SECONDS:g}",
                verdict(took < CLASS_TARGET_SECONDS),
                f"{game}: {took / (2 * CLASS_GAMES):.2f} s of waiting a game with {os.cpu_count()} worker "
                f"processes, at the lab widget's smallest search budget.",
            )
        )
    return rows
