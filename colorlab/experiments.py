"""Rule-variant experiments: many seeded games per variant, a table of results, honest summaries.

An experiment plays ``games`` games of one game for every variant (a name and
a ``Rules`` value), each game reproducible from its seed, on any
``concurrent.futures.Executor`` (a process pool on this machine by default; a
Dask cluster's ``Client.get_executor()`` works the same way). Results arrive in
chunks: :attr:`Experiment.results` can be looked at while the run goes on, and
:meth:`Experiment.stop` ends it cleanly after the chunks already running.

Examples
========

>>> from colorlab import colorfox
>>> from colorlab.experiments import run
>>> lab = run("colorfox", {"triangular": colorfox.Rules(), "square": colorfox.Rules(set_score="square")},
...           games=4, executor="serial", progress=False)
>>> sorted(lab.results["variant"].unique()), len(lab.results)
(['square', 'triangular'], 8)
"""

from __future__ import annotations

import concurrent.futures
import importlib
import math
import statistics
import threading
from collections.abc import Callable
from typing import Any

from colorlab.record import game_spec

DEFAULT_BOTS = {"colorform": "ReactionBot", "colorfox": "RandomBot", "colorium": "RandomBot",
                "colourbrain": "QuizBot"}


def bots_for(game: str, kind: str | None, players: int, seed: int) -> list:
    """Make the bots of one game: `kind` names a bot class of the game (its random bot by default)."""
    module = importlib.import_module(f"colorlab.{game}")
    bot = getattr(module, kind or DEFAULT_BOTS[game])
    return [bot(seed=seed * 97 + seat) for seat in range(players)]


def play_chunk(game: str, rules_values: dict, seeds: list[int], bots: str | None) -> list[dict]:
    """Play the games of these seeds with these rules and return one row per game (runs in a worker)."""
    module = importlib.import_module(f"colorlab.{game}")
    model = importlib.import_module(f"colorlab.{game}.model")
    rules = game_spec(game).rules_type.from_dict(rules_values)
    rows = []
    for seed in seeds:
        record = module.play_game(rules, bots_for(game, bots, rules.players, seed), seed=seed)
        final = record.final_state()
        outcome = model.outcome(final, len(record.actions), record)
        scores = outcome.pop("scores")
        winners = outcome.pop("winners")
        row = {"seed": seed, "winners": winners, "first player wins": 0 in winners,
               "shared win": len(winners) > 1, "top score": max(scores), "margin": _margin(scores)}
        row.update({f"score {p}": s for p, s in enumerate(scores)})
        row.update(outcome)
        rows.append(row)
    return rows


def _margin(scores: list) -> float:
    ordered = sorted(scores, reverse=True)
    return ordered[0] - ordered[1] if len(ordered) > 1 else ordered[0]


class Experiment:
    """A running (or finished) experiment: its variants, its results so far, and ways to read them."""

    def __init__(self, game: str, variants: dict, games: int = 100, bots: str | None = None,
                 executor: concurrent.futures.Executor | str | None = None, chunk: int = 25,
                 progress: bool = True, on_rows: Callable[[list[dict]], None] | None = None):
        spec = game_spec(game)
        if not variants:
            raise ValueError("give at least one variant: {name: Rules(...)}")
        for name, rules in variants.items():
            if not isinstance(rules, spec.rules_type):
                raise ValueError(f"variant {name!r} is not a {game} Rules value")
        if not isinstance(games, int) or games < 1:
            raise ValueError(f"games must be a positive whole number, not {games!r}")
        self.game, self.variants, self.games, self.bots = game, dict(variants), games, bots
        self.on_rows = on_rows
        self._rows: list[dict] = []
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._own_executor = executor is None
        self.executor = _executor(executor)
        self._chunks = [(name, list(range(start, min(start + chunk, games))))
                        for name in self.variants for start in range(0, games, chunk)]
        self._bar = _progress(games * len(self.variants), progress, game)
        self._thread = threading.Thread(target=self._collect, daemon=True)
        self._thread.start()

    def _collect(self) -> None:
        futures = {}
        for name, seeds in self._chunks:
            future = self.executor.submit(play_chunk, self.game, self.variants[name].to_dict(), seeds, self.bots)
            futures[future] = name
        try:
            for future in concurrent.futures.as_completed(futures):
                if future.cancelled():
                    continue
                rows = [{"variant": futures[future], **row} for row in future.result()]
                with self._lock:
                    self._rows.extend(rows)
                if self._bar is not None:
                    self._bar.update(len(rows))
                if self.on_rows is not None:
                    self.on_rows(rows)
                if self._stopping.is_set():
                    for other in futures:
                        other.cancel()
        finally:
            if self._bar is not None:
                self._bar.close()
            if self._own_executor:
                self.executor.shutdown(wait=True, cancel_futures=True)

    def stop(self) -> None:
        """Stop after the chunks already running; the results so far stay."""
        self._stopping.set()

    def wait(self, timeout: float | None = None) -> Experiment:
        """Wait until every game has been played (or the run was stopped)."""
        self._thread.join(timeout)
        return self

    @property
    def done(self) -> bool:
        return not self._thread.is_alive()

    @property
    def results(self):
        """One row per finished game so far, as a pandas DataFrame."""
        import pandas as pd
        with self._lock:
            rows = list(self._rows)
        frame = pd.DataFrame(rows)
        return frame.sort_values(["variant", "seed"]).reset_index(drop=True) if len(frame) else frame

    def measures(self) -> list[str]:
        """Which numbers does each row hold (besides the variant and the seed)?"""
        frame = self.results
        return [c for c in frame.columns if c not in ("variant", "seed", "winners", "end")
                and frame[c].dtype.kind in "biuf"]

    def summary(self):
        """Per variant and measure: games, mean, and a 95% confidence interval (Wilson's for proportions)."""
        import pandas as pd
        frame = self.results
        rows = []
        for name in self.variants:
            part = frame[frame["variant"] == name] if len(frame) else frame
            for measure in self.measures():
                low, mean, high = interval(list(part[measure].dropna()))
                rows.append({"variant": name, "measure": measure, "games": int(part[measure].notna().sum()), "mean": mean,
                             "95% low": low, "95% high": high})
        return pd.DataFrame(rows)

    def difference(self, a: str, b: str, measure: str) -> str:
        """Say in words how a measure differs between two variants, and whether that beats the noise."""
        frame = self.results
        x = list(frame[frame["variant"] == a][measure].dropna().astype(float))
        y = list(frame[frame["variant"] == b][measure].dropna().astype(float))
        return describe_difference(a, x, b, y, measure)

    def plot(self, measure: str, ax=None):
        """Draw the distribution of one measure for every variant (matplotlib), titled and labelled."""
        import matplotlib.pyplot as plt
        frame = self.results
        ax = ax or plt.subplots(figsize=(7, 3.5))[1]
        values = [list(frame[frame["variant"] == name][measure].astype(float)) for name in self.variants]
        ax.boxplot(values, tick_labels=list(self.variants), showmeans=True)
        ax.set_title(f"{self.game}: {measure} by variant ({self.games} games each)")
        ax.set_ylabel(measure)
        ax.set_xlabel("variant")
        return ax


def run(game: str, variants: dict, games: int = 100, bots: str | None = None,
        executor: concurrent.futures.Executor | str | None = None, chunk: int = 25,
        progress: bool = True, wait: bool = True) -> Experiment:
    """Play `games` seeded games of `game` for every variant; wait for them unless `wait=False`."""
    experiment = Experiment(game, variants, games, bots, executor, chunk, progress)
    return experiment.wait() if wait else experiment


def interval(values: list) -> tuple[float, float, float]:
    """A 95% interval for the mean of these values: (low, mean, high); Wilson's when they are 0/1."""
    n = len(values)
    if not n:
        return (math.nan, math.nan, math.nan)
    mean = sum(float(v) for v in values) / n
    if all(v in (0, 1, True, False) for v in values):
        z = 1.96
        centre = (mean + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(mean * (1 - mean) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return (centre - half, mean, centre + half)
    if n < 2:
        return (math.nan, mean, math.nan)
    half = 1.96 * statistics.stdev(values) / math.sqrt(n)
    return (mean - half, mean, mean + half)


def describe_difference(a: str, x: list[float], b: str, y: list[float], measure: str) -> str:
    """Compare two samples in words: the means, the difference with its 95% interval, and a verdict."""
    if len(x) < 2 or len(y) < 2:
        return f"Not enough games yet to compare {measure} between {a} and {b}."
    mx, my = statistics.fmean(x), statistics.fmean(y)
    se = math.sqrt(statistics.variance(x) / len(x) + statistics.variance(y) / len(y))
    diff = my - mx
    low, high = diff - 1.96 * se, diff + 1.96 * se
    if se == 0 and diff == 0:
        verdict = "no difference at all in these games"
    elif low > 0 or high < 0:
        verdict = "larger than the noise: the rule change makes a real difference"
    else:
        verdict = "within the noise: more games would be needed to tell"
    direction = "higher" if diff > 0 else "lower" if diff < 0 else "the same"
    return (f"{measure}: {mx:.3g} with {a}, {my:.3g} with {b} ({direction} by {abs(diff):.3g}; "
            f"95% interval of the difference {low:.3g} to {high:.3g}) — {verdict}.")


def _executor(executor: concurrent.futures.Executor | str | None) -> concurrent.futures.Executor:
    """Which executor runs the games: a given one, "serial" (this thread), or a process pool."""
    if executor is None:
        return concurrent.futures.ProcessPoolExecutor()
    if executor == "serial":
        return _Serial()
    if isinstance(executor, concurrent.futures.Executor):
        return executor
    raise ValueError(f"executor must be an Executor, 'serial' or None, not {executor!r}")


class _Serial(concurrent.futures.Executor):
    """Run each task at once in the calling thread (for tests, doctests and small runs)."""

    def submit(self, fn, /, *args, **kwargs):
        future = concurrent.futures.Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except Exception as error:  # the error is kept in the future, as any executor does
            future.set_exception(error)
        return future


def _progress(total: int, show: bool, game: str) -> Any:
    if not show:
        return None
    from tqdm.auto import tqdm
    return tqdm(total=total, desc=f"{game} games", unit="game")
