"""Rule-variant experiments: many seeded games per variant, a table of results, honest summaries.

An experiment plays ``games`` games of one game for every variant (a name and
a ``Rules`` value), each game reproducible from its seed, on any
``concurrent.futures.Executor`` (a process pool on this machine by default; a
Dask cluster's ``Client.get_executor()`` works the same way). Results arrive in
chunks: :attr:`Experiment.results` can be looked at while the run goes on, and
:meth:`Experiment.stop` ends it at once: the results stay those finished
before it, and no chunk is started or added after it.

The bots are a line-up (``bots=``): one bot kind for every seat, or a list with
one per seat. A bot kind is a bot's name in the game's declaration (``"GreedyBot"``),
a bot class, or a class with its settings fixed by ``functools.partial``, such
as ``functools.partial(colorium.SearchBot, playouts=50)``: classes and partials
of module-level classes can be sent to worker processes, lambdas cannot. Each
bot is seated by colorlab's one rule (:func:`colorlab.agents.seat_bot`): its move
at each step draws its chance from the game's seed, its seat and the step, so a
game of search bots is as reproducible as a game of random bots, and the same as
the game those bots would play at a shared table. ``bots=None`` plays
the game's default bot (its declaration's ``default_bot``). The results say which line-up
played (the column ``line-up``, and :attr:`Experiment.lineups`).

Every variant plays the same seeds 0, 1, 2, ..., so two variants meet the same
luck wherever the rules let them. A verdict on a difference
(:func:`describe_difference`) therefore looks at the difference of each seed's
two games (a paired interval) besides the difference of the two averages
(Welch's unpaired interval), uses whichever is tighter and says which; it needs
at least ``MIN_GAMES`` games of each variant.

Examples
========

>>> from colorlab import colorfox
>>> from colorlab.experiments import run
>>> lab = run(
...     "colorfox",
...     {"triangular": colorfox.Rules(), "square": colorfox.Rules(set_score="square")},
...     games=4,
...     executor="serial",
...     progress=False,
... )
>>> sorted(lab.results["variant"].unique()), len(lab.results)
(['square', 'triangular'], 8)
"""

from __future__ import annotations

import concurrent.futures
import functools
import math
import os
import pickle
import statistics
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from colorlab.agents import seated_bots
from colorlab.games import all_games, find_game, game_names

MIN_GAMES = 10  # fewer games than this per variant give no verdict: a t test on 2 or 3 games is luck

# A bot kind: a bot's name in the game's declaration, a bot class, or a partial of one (any callable taking seed=).
BotKind = str | type | functools.partial
# A line-up: one bot kind for every seat, or one per seat; None is the game's default bots.
LineUp = BotKind | Sequence[BotKind] | None


def bot_names(game: str) -> list[str]:
    """Which bots does a game offer, by name?"""
    return find_game(game).bot_names()


def home_game(kind: Callable) -> str | None:
    """Which colorlab game does this bot class (or partial of one) belong to, if any?"""
    while isinstance(kind, functools.partial):
        kind = kind.func
    parts = getattr(kind, "__module__", "").split(".")
    return parts[1] if len(parts) > 1 and parts[0] == "colorlab" and parts[1] in game_names() else None


def bot_maker(game: str, kind: BotKind | None) -> Callable:
    """What makes bots of this kind for this game? Refuse an unknown name and a bot of another game."""
    declared = find_game(game)
    if kind is None:
        kind = declared.default_bot
    if isinstance(kind, str):
        if kind not in declared.bots:
            owners = [other.name for other in all_games() if other.name != game and kind in other.bots]
            elsewhere = f"it is a bot of {' and '.join(owners)}; " if owners else ""
            raise ValueError(f"{game} has no bot called {kind!r}: {elsewhere}choose one of {', '.join(declared.bots)}")
        return declared.bots[kind]
    if not callable(kind):
        raise ValueError(
            f"a bot is a name such as 'GreedyBot', a bot class, or a class with its settings "
            f"such as functools.partial(SearchBot, playouts=50); not {kind!r}"
        )
    owner = home_game(kind)
    if owner not in (None, game):
        raise ValueError(f"{bot_label(kind)} is a bot of {owner}; a {game} game needs {game} bots")
    return kind


def line_up(game: str, bots: LineUp, players: int) -> tuple[Callable, ...]:
    """Which bot maker sits at each seat: one kind for every seat, or a list with one kind per seat."""
    if isinstance(bots, (list, tuple)):
        if len(bots) != players:
            many = f"{len(bots)} bot{'s' * (len(bots) != 1)}"
            raise ValueError(
                f"a line-up of {many} does not fit {players} players: give one bot kind "
                f"for every seat, or a list of {players}, one per seat"
            )
        return tuple(bot_maker(game, kind) for kind in bots)
    return (bot_maker(game, bots),) * players


def bot_label(kind: BotKind | None) -> str:
    """How is this bot kind written in a results table, e.g. 'SearchBot(playouts=50)'?"""
    if isinstance(kind, str):
        return kind
    if isinstance(kind, functools.partial):
        settings = [repr(value) for value in kind.args] + [f"{key}={value!r}" for key, value in kind.keywords.items()]
        return f"{bot_label(kind.func)}({', '.join(settings)})"
    return getattr(kind, "__name__", repr(kind))


def bots_for(game: str, bots: LineUp, players: int, seed: int) -> list:
    """Make the bots of one game from a line-up (the game's default bots for None)."""
    return seated_bots(line_up(game, bots, players), seed)


def play_chunk(game: str, rules_values: dict, seeds: list[int], bots: LineUp) -> list[dict]:
    """Play the games of these seeds with these rules and return one row per game (runs in a worker)."""
    declared = find_game(game)
    rules = declared.rules_type.from_dict(rules_values)
    makers = line_up(game, bots, rules.players)
    rows = []
    for seed in seeds:
        record = declared.play_game(rules, seated_bots(makers, seed), seed=seed)
        final = record.final_state()
        outcome = declared.outcome(final, len(record.actions), record)
        scores = outcome.pop("scores")
        winners = outcome.pop("winners")
        row = {
            "seed": seed,
            "winners": winners,
            "first player wins": 0 in winners,
            "shared win": len(winners) > 1,
            "top score": max(scores),
            "margin": winning_margin(scores),
        }
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

    def __init__(
        self,
        game: str,
        variants: dict,
        games: int = 100,
        bots: LineUp = None,
        executor: concurrent.futures.Executor | str | None = None,
        chunk: int = 25,
        progress: bool = True,
        on_rows: Callable[[list[dict]], None] | None = None,
    ):
        spec = find_game(game)
        if not variants:
            raise ValueError("give at least one variant: {name: Rules(...)}")
        for name, rules in variants.items():
            if not isinstance(rules, spec.rules_type):
                raise ValueError(f"variant {name!r} is not a {game} Rules value")
        if not isinstance(games, int) or games < 1:
            raise ValueError(f"games must be a positive whole number, not {games!r}")
        self.bots = tuple(bots) if isinstance(bots, list) else bots
        #: Who played each variant: one label per seat, such as ('SearchBot(playouts=50)', 'RandomBot').
        self.lineups = {
            name: tuple(map(bot_label, line_up(game, self.bots, rules.players))) for name, rules in variants.items()
        }
        _check_picklable(self.bots)
        self.game, self.variants, self.games = game, dict(variants), games
        self.on_rows = on_rows
        self._rows: list[dict] = []
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._own_executor = executor is None
        self.executor = _executor(executor)
        self._chunks = [
            (name, list(range(start, min(start + chunk, games))))
            for name in self.variants
            for start in range(0, games, chunk)
        ]
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
        name = futures[future]
        rows = [{"variant": name, "line-up": ", ".join(self.lineups[name]), **row} for row in future.result()]
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
        return [
            c for c in frame.columns if c not in ("variant", "seed", "winners", "end") and frame[c].dtype.kind in "biuf"
        ]

    def summary(self):
        """Per variant and measure: games, mean, and a 95% confidence interval (Wilson's for proportions)."""
        import pandas as pd

        frame = self.results
        rows = []
        for name in self.variants:
            part = frame[frame["variant"] == name] if len(frame) else frame
            for measure in self.measures():
                low, mean, high = interval(list(part[measure].dropna()))
                rows.append(
                    {
                        "variant": name,
                        "measure": measure,
                        "games": int(part[measure].notna().sum()),
                        "mean": mean,
                        "95% low": low,
                        "95% high": high,
                    }
                )
        return pd.DataFrame(rows)

    def difference(self, a: str, b: str, measure: str) -> str:
        """Say in words how a measure differs between two variants, and whether that beats the noise."""
        x, y, differences = self._paired_samples(a, b, measure)
        return describe_difference(a, x, b, y, measure, differences)

    def difference_interval(self, a: str, b: str, measure: str) -> tuple[float, float, float, str]:
        """How does a measure differ from variant a to b: (low, mean difference, high, "paired" or "unpaired")?

        The interval is the one :meth:`difference` uses; with fewer than MIN_GAMES games of
        either variant its ends are NaN and it says "too few games".
        """
        x, y, differences = self._paired_samples(a, b, measure)
        mean = statistics.fmean(y) - statistics.fmean(x) if x and y else math.nan
        if len(x) < MIN_GAMES or len(y) < MIN_GAMES:
            return (math.nan, mean, math.nan, "too few games")
        low, high, how = difference_interval(x, y, differences)
        return (low, mean, high, how)

    def _paired_samples(self, a: str, b: str, measure: str) -> tuple[list[float], list[float], list[float]]:
        """A measure's values under variant a and under b, and b minus a for each seed both played."""
        frame = self.results
        x = list(frame[frame["variant"] == a][measure].dropna().astype(float))
        y = list(frame[frame["variant"] == b][measure].dropna().astype(float))
        return x, y, seed_differences(frame, a, b, measure)

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


def run(
    game: str,
    variants: dict,
    games: int = 100,
    bots: LineUp = None,
    executor: concurrent.futures.Executor | str | None = None,
    chunk: int = 25,
    progress: bool = True,
    wait: bool = True,
) -> Experiment:
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


def seed_differences(frame, a: str, b: str, measure: str) -> list[float]:
    """What is b's measure minus a's, seed by seed, for every seed both variants have played?"""

    def by_seed(name):
        return frame[frame["variant"] == name].set_index("seed")[measure].dropna().astype(float)

    x, y = by_seed(a), by_seed(b)
    both = x.index.intersection(y.index)
    return list(y[both] - x[both])


def describe_difference(
    a: str, x: list[float], b: str, y: list[float], measure: str, differences: list[float] | None = None
) -> str:
    """Compare two samples in words: the means, the difference with its 95% interval, a verdict, and which interval.

    `differences` are y - x seed by seed, where both variants played the same seeds. With at
    least MIN_GAMES of them, the paired interval (:func:`paired_interval`) is used when it is
    tighter than the unpaired one (:func:`welch_interval`), and the words say which was used.
    """
    if x and y and len(set(x)) == len(set(y)) == 1 and x[0] == y[0]:
        return f"{measure}: {x[0]:.3g} in every game with {a} and with {b} — no difference at all in these games."
    if len(x) < MIN_GAMES or len(y) < MIN_GAMES:
        return (
            f"{measure}: too few games to tell yet ({len(x)} with {a}, {len(y)} with {b}); "
            f"a comparison needs at least {MIN_GAMES} games of each."
        )
    if differences is not None and len(differences) >= MIN_GAMES and not any(differences):
        return (
            f"{measure}: the same with {a} and with {b} in each of the {len(differences)} seeds both played "
            f"— no difference at all in these games."
        )
    mx, my = statistics.fmean(x), statistics.fmean(y)
    diff = my - mx
    low, high, how = difference_interval(x, y, differences)
    if low > 0 or high < 0:
        verdict = "larger than the noise: the rule change makes a real difference"
    else:
        verdict = "within the noise: more games would be needed to tell"
    direction = "higher" if diff > 0 else "lower" if diff < 0 else "the same"
    return (
        f"{measure}: {mx:.3g} with {a}, {my:.3g} with {b} ({direction} by {abs(diff):.3g}; "
        f"95% interval of the difference {in_words((low, high))}) — {verdict}. "
        f"{how_measured(how, x, y, differences)}"
    )


def difference_interval(
    x: list[float], y: list[float], differences: list[float] | None = None
) -> tuple[float, float, str]:
    """Which 95% interval of mean(y) - mean(x) does a verdict use: (low, high, "paired" or "unpaired")?

    The paired one (:func:`paired_interval` of the per-seed `differences`, when there are at
    least MIN_GAMES of them) when it is tighter than the unpaired one (:func:`welch_interval`).
    """
    unpaired = welch_interval(x, y)
    if differences is not None and len(differences) >= MIN_GAMES:
        paired = paired_interval(differences)
        if width(paired) < width(unpaired):
            return (*paired, "paired")
    return (*unpaired, "unpaired")


def how_measured(how: str, x: list[float], y: list[float], differences: list[float] | None) -> str:
    """Say which interval a verdict used, and why: paired seed by seed, or unpaired from the two averages."""
    if how == "paired":
        unpaired, paired = welch_interval(x, y), paired_interval(differences)
        wider = "a wider" if in_words(unpaired) != in_words(paired) else "a very little wider"
        return (
            f"The interval compares the two games of each seed (paired), so the luck both variants share "
            f"cancels out; comparing only the averages (unpaired, Welch's t) gives {wider} "
            f"{in_words(unpaired)}."
        )
    if differences is not None and len(differences) >= MIN_GAMES:
        return (
            f"The interval compares the averages (unpaired, Welch's t): the two games of a seed are not "
            f"alike enough here for pairing them to help (paired: {in_words(paired_interval(differences))})."
        )
    if differences is not None:
        return (
            f"The interval compares the averages (unpaired, Welch's t): only {len(differences)} seeds were "
            f"played by both, too few to pair them."
        )
    return "The interval compares the averages (unpaired, Welch's t)."


def in_words(bounds: tuple[float, float]) -> str:
    """Write an interval as a verdict does, to 3 significant figures: '1.2 to 3.4'."""
    return f"{bounds[0]:.3g} to {bounds[1]:.3g}"


def width(bounds: tuple[float, float]) -> float:
    """How wide is an interval?"""
    return bounds[1] - bounds[0]


def paired_interval(differences: list[float], level: float = 0.95) -> tuple[float, float]:
    """A `level` interval for the mean of per-seed differences by Student's t (a paired t interval).

    Examples
    ========

    >>> from colorlab.experiments import paired_interval
    >>> [round(end, 3) for end in paired_interval([1.0, 2.0, 3.0])]
    [-0.484, 4.484]
    """
    mean = statistics.fmean(differences)
    spread = statistics.stdev(differences)
    if spread == 0:
        return (mean, mean)  # every seed moved by exactly the same amount
    half = t_quantile(0.5 + level / 2, len(differences) - 1) * spread / math.sqrt(len(differences))
    return (mean - half, mean + half)


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
        for numerator in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1 + numerator * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + numerator / c
            c = c if abs(c) > tiny else tiny
            fraction *= c * d
        if abs(c * d - 1) < 1e-15:
            break
    return math.exp(log_front) * fraction / a


def _check_picklable(bots: LineUp) -> None:
    """Refuse a line-up that cannot travel to worker processes (a lambda, a class made inside a function)."""
    try:
        pickle.dumps(bots)
    except (pickle.PicklingError, AttributeError, TypeError) as error:
        raise ValueError(
            f"the bots {bots!r} cannot be sent to worker processes ({error}); give a bot's name, "
            f"a bot class, or functools.partial(BotClass, setting=value)"
        ) from None


CLASS_WORKERS_VARIABLE = "COLORLAB_CLASS_WORKERS"


def pool_workers(environ: Mapping[str, str] = os.environ) -> int | None:
    """How many worker processes a run starts by default: one per core (None), but in a kernel that serves a page to a
    class (Voila names itself in SERVER_SOFTWARE) only one, or as many as the teacher allows with
    COLORLAB_CLASS_WORKERS: thirty learners each starting a pool would stall the class's laptop."""
    if not environ.get("SERVER_SOFTWARE", "").startswith("voila"):
        return None
    allowed = environ.get(CLASS_WORKERS_VARIABLE, "1")
    return int(allowed) if allowed.isdigit() and int(allowed) > 0 else 1


def _executor(executor: concurrent.futures.Executor | str | None) -> concurrent.futures.Executor:
    """Which executor runs the games: a given one, "serial" (this thread), or a process pool (see pool_workers)."""
    if executor is None:
        return concurrent.futures.ProcessPoolExecutor(max_workers=pool_workers())
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
