"""The lab widget: edit the rules of each variant, run the games, watch the plots fill in.

It is made of ordinary ipywidgets: one rule editor per variant, the line-up (which
bots play at every seat, and optionally another bot at the first seat, search bots
among them with small budgets so that a run in class stays short), a run and a
stop button, a progress bar, the plot of the chosen measure redrawn as games
finish, and a sentence saying whether the difference between the first two
variants is larger than the noise. Every error is shown inside the widget.

Games finish on the experiment's own thread, where printing into an Output
widget reaches no cell; so the plot is a picture (a PNG drawn off-screen, with
its title and the means as alternative text) put into an HTML widget, which any
thread can update. Stop freezes the count, the plot and the verdict together at
the games finished so far.
"""

from __future__ import annotations

import base64
import functools
import html
import inspect
import io
import pathlib
import threading

import ipywidgets

from colorlab.experiments import BotKind, Experiment, LineUp, bot_label, line_up
from colorlab.games import find_game
from colorlab.widgets.rule_editor import RuleEditor

MOST_GAMES = 100_000
STYLE = (pathlib.Path(__file__).parent / "static" / "lab.css").read_text(encoding="utf-8")
MESSAGE = "padding: 4px 8px; border-radius: 6px; border: {border}; background: {background};"
# Search bots on the menu: small budgets, so that twenty games a variant take a minute or two, not an hour
# (a Colorium game of two search bots takes a few seconds at 10 playouts a move; benchmarks/bench_experiments.py).
SEARCH_PLAYOUTS = (10, 50)
LABEL_FITS = {"description_width": "initial"}  # a label as wide as its words, never cut short
SAME_AS_OTHERS = "same as the others"  # not None: a drop-down whose value is None shows no choice at all
LINE_UP_HELP = (
    "A SearchBot imagines many quick games (playouts) before each move: more playouts, stronger play, and a slower run."
)
CHUNK = 25
SEARCH_CHUNK = 1  # a search bot's game takes long enough that each one finished should show in the progress bar


def searches(kind: BotKind) -> bool:
    """Is this bot kind a search bot, one with a budget of playouts?"""
    return "playouts" in inspect.signature(kind).parameters


def bot_choices(game: str) -> list[tuple[str, BotKind]]:
    """Which bots does the lab offer for a game, by label: every bot, and each search bot at small budgets?"""
    choices = []
    for name, kind in find_game(game).bots.items():
        if searches(kind):
            choices += [
                (f"{name}, {playouts} playouts a move", functools.partial(kind, playouts=playouts))
                for playouts in SEARCH_PLAYOUTS
            ]
        else:
            choices.append((name, name))
    return choices


class VariantLab(ipywidgets.VBox):
    """Compare rule variants of one game by playing many seeded games of each."""

    def __init__(
        self,
        game: str,
        variants: dict,
        games: int = 100,
        measure: str = "top score",
        executor=None,
        bots: BotKind | None = None,
    ):
        self.game, self.variants, self.executor = game, dict(variants), executor
        self.experiment: Experiment | None = None
        self.players = ""  # the line-up of the last run, in words
        self._redraw_lock = threading.RLock()
        self.editors = {
            name: RuleEditor(rules, on_apply=self._updater(name), title=f"Variant {name!r}")
            for name, rules in self.variants.items()
        }
        # Unbounded, like the rule editor's boxes: a bounded box would change a typed 0 or 2.5 unseen.
        self.games = ipywidgets.FloatText(
            value=games,
            step=1,
            description="Games each",
            style=LABEL_FITS,
            layout=ipywidgets.Layout(width="170px"),
            tooltip=f"A whole number from 1 to {MOST_GAMES}",
        )
        self.measure = ipywidgets.Dropdown(
            options=[measure],
            value=measure,
            description="Measure",
            style=LABEL_FITS,
            layout=ipywidgets.Layout(width="250px"),
        )
        choices = bot_choices(game)
        chosen = bots if bots is not None else find_game(game).default_bot
        if chosen not in [kind for _, kind in choices]:
            choices.append((bot_label(chosen), chosen))
        self.every_seat = ipywidgets.Dropdown(
            options=choices,
            value=chosen,
            description="Bots",
            style=LABEL_FITS,
            layout=ipywidgets.Layout(width="300px"),
            tooltip="The bots at every seat",
        )
        self.first_seat = ipywidgets.Dropdown(
            options=[(SAME_AS_OTHERS, SAME_AS_OTHERS), *choices],
            value=SAME_AS_OTHERS,
            description="First seat",
            style=LABEL_FITS,
            layout=ipywidgets.Layout(width="320px"),
            tooltip="The bot of the player who starts",
        )
        self.run_button = ipywidgets.Button(description="Run", button_style="primary", icon="play")
        self.stop_button = ipywidgets.Button(description="Stop", icon="stop", disabled=True)
        self.progress = ipywidgets.IntProgress(value=0, min=0, max=1, description="Games")
        self.plot = ipywidgets.HTML()
        self.plot.add_class("colorlab-lab-plot")
        self.verdict = ipywidgets.HTML()
        self.message = ipywidgets.HTML()
        self.run_button.on_click(lambda _: self._guard(self.start))
        self.stop_button.on_click(lambda _: self._guard(self.stop))
        self.measure.observe(lambda _: self._guard(self.redraw), names="value")
        self.games.observe(self._check_games, names="value")
        tabs = ipywidgets.Tab(children=list(self.editors.values()))
        for index, name in enumerate(self.editors):
            tabs.set_title(index, name)
        lineup = ipywidgets.HBox([self.every_seat, self.first_seat])
        controls = ipywidgets.HBox([self.games, self.measure, self.run_button, self.stop_button])
        for row in (lineup, controls):
            row.add_class("colorlab-lab-row")
        title = f"<style>{STYLE}</style><b>Rule-variant lab: {html.escape(game)}</b>"
        super().__init__(
            [
                ipywidgets.HTML(title),
                tabs,
                lineup,
                ipywidgets.HTML(f"<small>{html.escape(LINE_UP_HELP)}</small>"),
                controls,
                self.progress,
                self.plot,
                self.verdict,
                self.message,
            ]
        )
        self.add_class("colorlab-lab")

    def _updater(self, name: str):
        def apply(rules, changed):
            self.variants[name] = rules
            return f"Variant {name!r} will use these rules at the next run."

        return apply

    def _guard(self, action) -> None:
        """Run a button's action; show any error in the widget instead of a log console."""
        try:
            action()
        except Exception as error:  # a learner's click must never end in a hidden traceback
            self.say(f"{type(error).__name__}: {error}", error=True)

    def _check_games(self, change: dict) -> None:
        """Refuse a number of games that is not a whole number from 1 to MOST_GAMES, keeping the last one."""
        typed = change["new"]
        if float(typed).is_integer() and 1 <= typed <= MOST_GAMES:
            return
        self.games.value = change["old"]
        self.say(
            f"Games each {typed:g} is not allowed: choose a whole number from 1 to {MOST_GAMES}. "
            f"It stays {change['old']:g}.",
            error=True,
        )

    def say(self, text: str, error: bool = False) -> None:
        """Show a message under the lab."""
        style = MESSAGE.format(
            border="2px solid #b3261e" if error else "1px solid #4a6fb5", background="#fdecea" if error else "#e8f0fe"
        )
        self.message.value = f'<div style="{style}">{"⚠ " if error else ""}{html.escape(text)}</div>'

    def lineup(self) -> LineUp:
        """Which bots play: the chosen bot at every seat, or another one at the first seat?"""
        others, first = self.every_seat.value, self.first_seat.value
        if first == SAME_AS_OTHERS:
            return others
        players = sorted({rules.players for rules in self.variants.values()})
        if len(players) > 1:
            raise ValueError(
                f"a different first seat needs the same number of players in every variant, "
                f"not {' and '.join(map(str, players))}: choose '{SAME_AS_OTHERS}' or make them equal"
            )
        return (first,) + (others,) * (players[0] - 1)

    def start(self) -> None:
        """Play the games of every variant with the chosen line-up, updating the plot as they finish."""
        if self.experiment is not None and not (self.experiment.done or self.experiment.stopped):
            raise RuntimeError("a run is already going on: stop it first")
        games, lineup = int(self.games.value), self.lineup()
        makers = line_up(self.game, lineup, next(iter(self.variants.values())).players)
        chunk = SEARCH_CHUNK if any(map(searches, makers)) else CHUNK
        self.progress.max = games * len(self.variants)
        self.progress.value = 0
        self.run_button.disabled, self.stop_button.disabled = True, False
        self.players = " against ".join(map(bot_label, makers))
        self.say(f"Running: {self.players}…")
        try:
            # Held while the run starts: its first games may arrive (on the run's thread) before it is assigned.
            with self._redraw_lock:
                self.experiment = Experiment(
                    self.game,
                    self.variants,
                    games,
                    bots=lineup,
                    executor=self.executor,
                    chunk=chunk,
                    progress=False,
                    on_rows=self._arrived,
                )
        except Exception:
            self.run_button.disabled, self.stop_button.disabled = False, True
            raise

    def stop(self) -> None:
        """Stop now: the count, the plot and the verdict stay at the games finished so far."""
        if self.experiment is None or self.experiment.done:
            return
        with self._redraw_lock:
            self.experiment.stop()
            played = len(self.experiment.results)
            self.progress.value = played
            self.redraw()
            self.run_button.disabled, self.stop_button.disabled = False, True
            self.say(f"Stopped after {played} games of {self.players}.")

    def _arrived(self, rows: list[dict]) -> None:
        with self._redraw_lock:
            if self.experiment is None or self.experiment.stopped:
                return  # Stop has already shown the last count and plot
            try:
                played = len(self.experiment.results)
                self.progress.value = played
                self._offer_measures()
                self.redraw()
                if played >= self.progress.max:
                    self.run_button.disabled, self.stop_button.disabled = False, True
                    self.say(f"Done: {played} games of {self.players}.")
            except Exception as error:  # shown in the widget, never lost in a log
                self.say(f"{type(error).__name__}: {error}", error=True)

    def _offer_measures(self) -> None:
        """List the measures the results hold, keeping the chosen one if it is among them."""
        measures = self.experiment.measures()
        if list(self.measure.options) != measures:
            chosen = self.measure.value
            self.measure.options = measures
            self.measure.value = chosen if chosen in measures else measures[0]

    def redraw(self) -> None:
        """Draw the chosen measure for every variant, and say how the first two differ."""
        if self.experiment is None or not len(self.experiment.results):
            return
        with self._redraw_lock:
            measure = self.measure.value
            self.plot.value = self._picture(measure)
            names = list(self.variants)
            if len(names) >= 2:
                self.verdict.value = html.escape(self.experiment.difference(names[0], names[1], measure))

    def _picture(self, measure: str) -> str:
        """Draw the measure's plot off-screen (no pyplot, so any thread may draw) as an image with alternative text."""
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure

        figure = Figure(figsize=(7, 3.2))
        FigureCanvasAgg(figure)
        title = self.experiment.plot(measure, ax=figure.subplots()).get_title()
        figure.tight_layout()
        buffer = io.BytesIO()
        figure.savefig(buffer, format="png", dpi=100)
        picture = base64.b64encode(buffer.getvalue()).decode("ascii")
        return f'<img src="data:image/png;base64,{picture}" alt="{html.escape(self._words(title, measure))}">'

    def _words(self, title: str, measure: str) -> str:
        """Say in words what the plot shows: its title and each variant's mean."""
        frame = self.experiment.results
        means = [
            f"{name} {frame[frame['variant'] == name][measure].astype(float).mean():.3g}" for name in self.variants
        ]
        return f"Box plot, {title}. Means: {', '.join(means)}."
