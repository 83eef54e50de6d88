"""The lab widget: variants edited, games run, plots and the verdict filled in, errors shown."""

import dataclasses

from colorlab import colorfox
from colorlab.widgets import VariantLab


def lab():
    return VariantLab("colorfox", {"triangular": colorfox.Rules(), "square": colorfox.Rules(set_score="square")},
                      games=6, executor="serial")


def test_a_run_fills_the_progress_the_measures_and_the_verdict():
    widget = lab()
    widget.run_button.click()
    widget.experiment.wait()
    assert widget.progress.value == 12 and widget.run_button.disabled is False
    assert "top score" in widget.measure.options and "noise" in widget.verdict.value
    widget.measure.value = "margin"
    assert "margin" in widget.verdict.value


def test_editing_a_variant_changes_the_next_run():
    widget = lab()
    editor = widget.editors["square"]
    editor.controls["players"].value = 3
    assert widget.variants["square"].players == 3
    widget.run_button.click()
    widget.experiment.wait()
    frame = widget.experiment.results
    assert "score 2" in frame.columns


def test_errors_show_in_the_widget():
    widget = VariantLab("colorfox", {"only": colorfox.Rules()}, games=2, executor="bogus")
    widget.run_button.click()
    assert "executor" in widget.message.value and "⚠" in widget.message.value
    assert dataclasses.is_dataclass(widget.variants["only"])
