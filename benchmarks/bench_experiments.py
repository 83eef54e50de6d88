"""Time one experiment of 10,000 random-bot games per game: default executor against one process."""

from __future__ import annotations

import concurrent.futures
import os
import time

from colorlab import colorfox, colorform, colorium, colourbrain
from colorlab.experiments import run

from table import Row, verdict

GAMES = int(os.environ.get("COLORLAB_BENCH_GAMES", "10000"))
TARGET_SECONDS = 60.0
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
    """One row per game: the default executor's time, and its speed-up over one process."""
    rows = []
    for game in VARIANTS:
        with concurrent.futures.ProcessPoolExecutor(max_workers=1) as single:
            alone = seconds(game, single)
        pooled = seconds(game, None)
        rows.append(Row(f"experiment: {GAMES:,} {game} games, default executor ({os.cpu_count()} processes)",
                        f"{pooled:.1f}", "s", f"< {TARGET_SECONDS:g}", verdict(pooled < TARGET_SECONDS),
                        f"{game}: one process took {alone:.1f} s, so the pool ran {alone / pooled:.2f}x faster."))
    return rows
