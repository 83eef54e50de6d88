"""Rule-variant experiments: many seeded games per variant, a table of results, honest summaries.

An experiment plays ``games`` games of one game for every variant (a name and
a ``Rules`` value), each game reproducible from its seed, on any
``concurrent.futures.Executor`` (a process pool on this machine by default; a
Dask cluster's ``Client.get_executor()`` works the same way). Results arrive in
chunks: :attr:`Experiment.results` can be looked at while the run goes on, and
:meth:`Experiment.stop` ends it at once: the results stay those finished
before it, and no chunk is started or added after it. A verdict on a difference
(:func:`describe_difference`) uses Welch's t and needs at least ``MIN_GAMES``
games of each variant.

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

MIN_GAMES = 10  # fewer games than this per variant give no verdict: a t test on 2 or 3 games is luck

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
               "shared win": len(winners) > 1, "top score": max(scores), "margin": winning_margin(scores)}
        row.update({f"score {p}": s for p, s in enumerate(scores)})
        row.update(outcome)
        rows.append(row)
    return rows


def winning_margin(scores: list) -> float:
    """By how many points did the top score beat the next one (the score itself in a one-player game)?"""
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
        futures: dict[concurrent.futures.Future, str] = {}
        taken = set()
        try:
            for name, seeds in self._chunks:
                if self._stopping.is_set():
                    break
                future = self.executor.submit(play_chunk, self.game, self.variants[name].to_dict(), seeds, self.bots)
                futures[future] = name
                if future.done():  # a serial executor has played the chunk already: report it now
                    self._take(future, futures)
                    taken.add(future)
            waiting = [future for future in futures if future not in taken]
            for future in concurrent.futures.as_completed(waiting):
                self._take(future, futures)
        finally:
            if self._bar is not None:
                self._bar.close()
            if self._own_executor:
                self.executor.shutdown(wait=True, cancel_futures=True)

    def _take(self, future: concurrent.futures.Future, futures: dict[concurrent.futures.Future, str]) -> None:
        """Record a finished chunk's games and report them, unless the run was stopped meanwhile."""
        if future.cancelled():
            return
        rows = [{"variant": futures[future], **row} for row in future.result()]
        with self._lock:
            stopped = self._stopping.is_set()
            if not stopped:
                self._rows.extend(rows)
        if stopped:
            for other in futures:
                other.cancel()
            return
        if self._bar is not None:
            self._bar.update(len(rows))
        if self.on_rows is not None:
            self.on_rows(rows)

    def stop(self) -> None:
        """Stop now: the results so far stay, and games still finishing are not added to them."""
        with self._lock:
            self._stopping.set()

    @property
    def stopped(self) -> bool:
        """Was the run stopped before every game was played?"""
        return self._stopping.is_set()

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
        played = [len(part) for part in values]
        so_far = "" if set(played) == {self.games} else f", so far {' / '.join(map(str, played))} played"
        ax.set_title(f"{self.game}: {measure} by variant ({self.games} games each{so_far})")
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
    """A 95% interval for the mean of these values: (low, mean, high); Wilson's when they are 0/1, else Student's t."""
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
    half = t_quantile(0.975, n - 1) * statistics.stdev(values) / math.sqrt(n)
    return (mean - half, mean, mean + half)


def describe_difference(a: str, x: list[float], b: str, y: list[float], measure: str) -> str:
    """Compare two samples in words: the means, the difference with its 95% interval (Welch's t), and a verdict."""
    if x and y and len(set(x)) == len(set(y)) == 1 and x[0] == y[0]:
        return f"{measure}: {x[0]:.3g} in every game with {a} and with {b} — no difference at all in these games."
    if len(x) < MIN_GAMES or len(y) < MIN_GAMES:
        return (f"{measure}: too few games to tell yet ({len(x)} with {a}, {len(y)} with {b}); "
                f"a comparison needs at least {MIN_GAMES} games of each.")
    mx, my = statistics.fmean(x), statistics.fmean(y)
    diff = my - mx
    low, high = welch_interval(x, y)
    if low > 0 or high < 0:
        verdict = "larger than the noise: the rule change makes a real difference"
    else:
        verdict = "within the noise: more games would be needed to tell"
    direction = "higher" if diff > 0 else "lower" if diff < 0 else "the same"
    return (f"{measure}: {mx:.3g} with {a}, {my:.3g} with {b} ({direction} by {abs(diff):.3g}; "
            f"95% interval of the difference {low:.3g} to {high:.3g}) — {verdict}.")


def welch_interval(x: list[float], y: list[float], level: float = 0.95) -> tuple[float, float]:
    """A `level` interval for mean(y) - mean(x) by Welch's t, which does not assume equal spreads."""
    diff = statistics.fmean(y) - statistics.fmean(x)
    vx, vy = statistics.variance(x) / len(x), statistics.variance(y) / len(y)
    if vx + vy == 0:
        return (diff, diff)  # no spread at all: every game of each variant gave the same number
    freedom = (vx + vy) ** 2 / (vx**2 / (len(x) - 1) + vy**2 / (len(y) - 1))
    half = t_quantile(0.5 + level / 2, freedom) * math.sqrt(vx + vy)
    return (diff - half, diff + half)


def t_quantile(p: float, freedom: float) -> float:
    """Which t has P(T <= t) = p for Student's t with `freedom` degrees of freedom (any positive real)?

    Found by bisection on :func:`t_cdf`, to about 1e-12.

    Examples
    ========

    >>> from colorlab.experiments import t_quantile
    >>> round(t_quantile(0.975, 1), 3), round(t_quantile(0.975, 4), 3), round(t_quantile(0.975, 30), 3)
    (12.706, 2.776, 2.042)
    """
    if not 0 < p < 1 or freedom <= 0:
        raise ValueError(f"need 0 < p < 1 and freedom > 0, not p={p!r}, freedom={freedom!r}")
    if p < 0.5:
        return -t_quantile(1 - p, freedom)
    low, high = 0.0, 1.0
    while t_cdf(high, freedom) < p:
        low, high = high, high * 2
    for _ in range(200):
        middle = (low + high) / 2
        if middle in (low, high):
            break
        low, high = (middle, high) if t_cdf(middle, freedom) < p else (low, middle)
    return (low + high) / 2


def t_cdf(t: float, freedom: float) -> float:
    """What is P(T <= t) for Student's t with `freedom` degrees of freedom?

    P(|T| > t) is the regularized incomplete beta function I_x(freedom/2, 1/2) at
    x = freedom / (freedom + t²).
    """
    tail = _incomplete_beta(freedom / (freedom + t * t), freedom / 2, 0.5) / 2
    return 1 - tail if t > 0 else tail


def _incomplete_beta(x: float, a: float, b: float) -> float:
    """The regularized incomplete beta function I_x(a, b), by its continued fraction (Lentz's method)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    if x > (a + 1) / (a + b + 2):  # the fraction converges fast only on this side; use the symmetry
        return 1 - _incomplete_beta(1 - x, b, a)
    log_front = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    tiny = 1e-300
    c, d = 1.0, 1 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    fraction = d
    for m in range(1, 1000):
        for numerator in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                          -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1 + numerator * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + numerator / c
            c = c if abs(c) > tiny else tiny
            fraction *= c * d
        if abs(c * d - 1) < 1e-15:
            break
    return math.exp(log_front) * fraction / a


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
