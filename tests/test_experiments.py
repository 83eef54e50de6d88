"""Rule-variant experiments: reproducible rows, any executor, stopping, honest intervals."""

import concurrent.futures
import math

import pytest

from colorlab import colorfox, colorform, colorium, colourbrain
from colorlab.experiments import Experiment, describe_difference, interval, play_chunk, run

GAMES = {
    "colorform": (colorform.Rules(players=3), colorform.Rules(players=3, rotations=False)),
    "colorfox": (colorfox.Rules(players=3), colorfox.Rules(players=3, exchange_pick="opponent")),
    "colorium": (colorium.Rules(players=2), colorium.Rules(players=2, drop="straight")),
    "colourbrain": (colourbrain.Rules(teams=3), colourbrain.Rules(teams=3, pot_reading="lost when anyone is wrong")),
}


@pytest.mark.parametrize("game", GAMES)
def test_every_game_runs_and_each_row_is_reproducible_from_its_seed(game):
    a, b = GAMES[game]
    lab = run(game, {"a": a, "b": b}, games=3, executor="serial", progress=False)
    frame = lab.results
    assert len(frame) == 6 and set(frame["variant"]) == {"a", "b"}
    again = play_chunk(game, a.to_dict(), [1], None)[0]
    row = frame[(frame["variant"] == "a") & (frame["seed"] == 1)].iloc[0]
    assert row["top score"] == again["top score"] and row["actions"] == again["actions"]


def test_a_process_pool_gives_the_same_rows_as_one_process():
    variants = {"t": colorfox.Rules(players=2), "s": colorfox.Rules(players=2, set_score="square")}
    serial = run("colorfox", variants, games=6, executor="serial", progress=False).results
    with concurrent.futures.ProcessPoolExecutor(max_workers=2) as pool:
        parallel = run("colorfox", variants, games=6, executor=pool, chunk=2, progress=False).results
    assert serial.drop(columns=["winners"]).equals(parallel.drop(columns=["winners"]))


def test_partial_results_can_be_read_and_a_run_stopped():
    lab = Experiment("colorfox", {"t": colorfox.Rules(players=4)}, games=400, executor="serial", chunk=10,
                     progress=False)
    lab.stop()
    lab.wait()
    assert lab.done and len(lab.results) <= 400


def test_the_summary_gives_intervals_that_contain_the_mean():
    lab = run("colorfox", {"t": colorfox.Rules(players=2)}, games=20, executor="serial", progress=False)
    summary = lab.summary()
    assert set(summary["measure"]) >= {"first player wins", "top score", "margin"}
    assert all(low <= mean <= high for low, mean, high in zip(summary["95% low"], summary["mean"], summary["95% high"]))


def test_intervals_and_differences_in_words():
    low, mean, high = interval([1, 0, 1, 1, 0, 1, 0, 1])
    assert 0 < low < mean == 5 / 8 < high < 1
    low, mean, high = interval([10.0, 12.0, 11.0, 13.0])
    assert math.isclose(mean, 11.5) and low < 11.5 < high
    assert "larger than the noise" in describe_difference("a", [1.0, 1.1, 0.9] * 10, "b", [5.0, 5.1, 4.9] * 10, "x")
    assert "within the noise" in describe_difference("a", [1.0, 2.0, 3.0], "b", [1.5, 2.5, 2.0], "x")
    assert "Not enough" in describe_difference("a", [1.0], "b", [2.0], "x")


def test_bad_experiments_are_refused_with_the_reason():
    with pytest.raises(ValueError, match="Rules"):
        run("colorfox", {"x": colorform.Rules()}, games=2, executor="serial", progress=False)
    with pytest.raises(ValueError, match="games"):
        run("colorfox", {"x": colorfox.Rules()}, games=0, executor="serial", progress=False)
    with pytest.raises(ValueError, match="executor"):
        run("colorfox", {"x": colorfox.Rules()}, games=2, executor="fast", progress=False)


def test_plots_are_titled_and_labelled():
    import matplotlib
    matplotlib.use("Agg")
    lab = run("colorfox", {"t": colorfox.Rules(), "s": colorfox.Rules(set_score="square")}, games=5,
              executor="serial", progress=False)
    ax = lab.plot("top score")
    assert "top score" in ax.get_title() and ax.get_ylabel() == "top score"


def test_the_same_call_runs_on_a_dask_cluster():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False) as cluster, \
            distributed.Client(cluster) as client:
        lab = run("colorfox", {"t": colorfox.Rules()}, games=4, executor=client.get_executor(), progress=False)
    assert len(lab.results) == 4


def test_identical_samples_are_no_difference():
    assert "no difference" in describe_difference("a", [2.0, 2.0, 2.0], "b", [2.0, 2.0, 2.0], "x")
