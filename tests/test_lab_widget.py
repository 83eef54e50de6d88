"""The lab widget: variants edited, games run, plots and the verdict filled in, errors shown."""

import base64
import dataclasses
import functools
import re
import threading

from matplotlib.figure import Figure

from colorlab import colorfox, colorium
from colorlab.widgets import VariantLab
from tests.helpers.page import Gated

PNG = b"\x89PNG"


def lab():
    return VariantLab(
        "colorfox",
        {"triangular": colorfox.Rules(), "square": colorfox.Rules(set_score="square")},
        games=6,
        executor="serial",
    )


def picture(widget: VariantLab) -> bytes:
    """The picture the lab shows as its plot (nothing if it shows none)."""
    shown = re.search(r'src="data:image/png;base64,([^"]+)"', widget.plot.value)
    return base64.b64decode(shown.group(1)) if shown else b""


def test_a_run_fills_the_progress_the_measures_and_the_verdict():
    widget = lab()
    widget.run_button.click()
    widget.experiment.wait()
    assert widget.progress.value == 12 and widget.run_button.disabled is False
    assert "top score" in widget.measure.options and "too few games to tell" in widget.verdict.value
    widget.measure.value = "margin"
    assert "margin" in widget.verdict.value


def test_the_plot_appears_after_run_without_changing_the_measure():
    widget = lab()
    widget.run_button.click()
    widget.experiment.wait()
    first = picture(widget)
    assert first.startswith(PNG) and widget.measure.value == "top score"
    frame = widget.experiment.results
    triangular = frame[frame["variant"] == "triangular"]["top score"].mean()
    assert (
        f'alt="Box plot, colorfox: top score by variant (6 games each). Means: triangular {triangular:.3g}, '
        in widget.plot.value
    )
    widget.measure.value = "margin"
    assert picture(widget).startswith(PNG) and picture(widget) != first


def until(condition) -> None:
    """Wait (at most 5 s) for something the run's thread does."""
    for _ in range(500):
        if condition():
            return
        threading.Event().wait(0.01)
    raise AssertionError("waited 5 s in vain")


def test_after_stop_the_count_and_the_plot_stay_with_the_games_so_far():
    gate = Gated()
    widget = VariantLab(
        "colorfox",
        {"triangular": colorfox.Rules(), "square": colorfox.Rules(set_score="square")},
        games=50,
        executor=gate,
    )
    widget.run_button.click()
    until(lambda: len(gate.waiting) == 4)
    gate.finish_next()
    until(lambda: widget.progress.value == 25)
    widget.stop_button.click()
    shown = (widget.progress.value, picture(widget), widget.verdict.value)
    while gate.waiting:
        gate.finish_next()
    widget.experiment.wait(timeout=10)
    assert widget.experiment.done
    assert (widget.progress.value, picture(widget), widget.verdict.value) == shown
    assert "Stopped after 25 games" in widget.message.value
    assert "so far 25 / 0 played" in widget.experiment.plot("top score", ax=Figure().subplots()).get_title()
    assert widget.run_button.disabled is False and widget.stop_button.disabled is True


def test_editing_a_variant_changes_the_next_run():
    widget = lab()
    editor = widget.editors["square"]
    editor.controls["players"].value = 3
    assert widget.variants["square"].players == 3
    widget.run_button.click()
    widget.experiment.wait()
    frame = widget.experiment.results
    assert "score 2" in frame.columns


def test_a_number_of_games_out_of_range_is_refused_with_the_number_typed():
    widget = lab()
    for typed, shown in [(0, "0"), (2.5, "2.5"), (1e6, "1e+06")]:
        widget.games.value = typed
        assert widget.games.value == 6
        assert f"Games each {shown} is not allowed" in widget.message.value and "⚠" in widget.message.value
    widget.games.value = 12
    widget.run_button.click()
    widget.experiment.wait()
    assert widget.progress.value == 24 and len(widget.experiment.results) == 24


def test_errors_show_in_the_widget():
    widget = VariantLab("colorfox", {"only": colorfox.Rules()}, games=2, executor="bogus")
    widget.run_button.click()
    assert "executor" in widget.message.value and "⚠" in widget.message.value
    assert dataclasses.is_dataclass(widget.variants["only"])


def labels(dropdown) -> list[str]:
    return [label for label, _ in dropdown.options]


def test_the_line_up_offers_every_bot_of_the_game_and_plays_the_default_ones_unless_told():
    widget = VariantLab(
        "colorium", {"slide": colorium.Rules(), "straight": colorium.Rules(drop="straight")}, games=3, executor="serial"
    )
    assert {"RandomBot", "GreedyBot", "MissionBot"} <= set(labels(widget.every_seat))
    assert widget.every_seat.value == "RandomBot" and widget.first_seat.label == "same as the others"
    widget.run_button.click()
    widget.experiment.wait()
    assert widget.experiment.lineups == {"slide": ("RandomBot", "RandomBot"), "straight": ("RandomBot", "RandomBot")}


def test_another_bot_at_the_first_seat_plays_first():
    three = colorium.Rules(players=3)
    widget = VariantLab(
        "colorium",
        {"slide": three, "straight": dataclasses.replace(three, drop="straight")},
        games=3,
        executor="serial",
    )
    widget.every_seat.value = "GreedyBot"
    widget.first_seat.value = "MissionBot"
    widget.run_button.click()
    widget.experiment.wait()
    assert widget.experiment.lineups["straight"] == ("MissionBot", "GreedyBot", "GreedyBot")
    assert set(widget.experiment.results["line-up"]) == {"MissionBot, GreedyBot, GreedyBot"}
    assert "Done: 6 games of MissionBot against GreedyBot against GreedyBot." in widget.message.value


def test_a_first_seat_needs_as_many_players_in_every_variant_and_says_so_in_the_widget():
    widget = VariantLab(
        "colorium", {"two": colorium.Rules(players=2), "three": colorium.Rules(players=3)}, games=3, executor="serial"
    )
    widget.first_seat.value = "GreedyBot"
    widget.run_button.click()
    assert widget.experiment is None
    assert "same number of players in every variant, not 2 and 3" in widget.message.value
    assert "⚠" in widget.message.value and widget.run_button.disabled is False
    widget.first_seat.value = "same as the others"
    widget.run_button.click()
    widget.experiment.wait()
    assert widget.progress.value == 6


class PatientBot(colorfox.RandomBot):
    """A random bot with a budget of playouts, as search bots have (it plays at random all the same)."""

    def __init__(self, seed: int = 0, playouts: int = 10):
        super().__init__(seed=seed)


def test_a_line_up_with_a_search_budget_reports_every_game_as_it_finishes():
    gate = Gated()
    widget = VariantLab(
        "colorfox",
        {"triangular": colorfox.Rules(), "square": colorfox.Rules(set_score="square")},
        games=6,
        executor=gate,
        bots=functools.partial(PatientBot, playouts=3),
    )
    assert widget.every_seat.label == "PatientBot(playouts=3)"
    widget.run_button.click()
    until(lambda: len(gate.waiting) == 12)  # one game a task, so the progress bar moves game by game
    gate.finish_next()
    until(lambda: widget.progress.value == 1)
    assert "Running: PatientBot(playouts=3) against PatientBot(playouts=3)…" in widget.message.value
    while gate.waiting:
        gate.finish_next()
    widget.experiment.wait(timeout=10)
    assert widget.progress.value == 12 and "Done: 12 games" in widget.message.value
