"""Rule-variant experiments: reproducible rows, any executor, stopping, honest intervals."""

import concurrent.futures
import functools
import math
import statistics
import threading

import pytest

from colorlab import colorform, colorfox, colorium, colourbrain, experiments
from colorlab.agents import seated_bots
from colorlab.experiments import (
    Experiment,
    describe_difference,
    interval,
    paired_interval,
    play_chunk,
    run,
    seed_differences,
    t_cdf,
    t_quantile,
    welch_interval,
)
from tests.helpers.page import Gated

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


@pytest.mark.processes
def test_a_process_pool_gives_the_same_rows_as_one_process():
    variants = {"t": colorfox.Rules(players=2), "s": colorfox.Rules(players=2, set_score="square")}
    serial = run("colorfox", variants, games=6, executor="serial", progress=False).results
    with concurrent.futures.ProcessPoolExecutor(max_workers=2) as pool:
        parallel = run("colorfox", variants, games=6, executor=pool, chunk=2, progress=False).results
    assert serial.drop(columns=["winners"]).equals(parallel.drop(columns=["winners"]))


def test_partial_results_can_be_read_and_a_run_stopped():
    lab = Experiment(
        "colorfox", {"t": colorfox.Rules(players=4)}, games=400, executor="serial", chunk=10, progress=False
    )
    lab.stop()
    lab.wait()
    assert lab.done and lab.stopped and len(lab.results) <= 400


def settled(lab: Experiment, count: int) -> None:
    """Wait until the experiment has recorded `count` games."""
    for _ in range(500):
        if len(lab.results) == count:
            return
        threading.Event().wait(0.01)
    raise AssertionError(f"{len(lab.results)} games recorded, expected {count}")


def test_games_finishing_after_stop_are_not_added_to_the_results():
    gate = Gated()
    arrived = []
    lab = Experiment(
        "colorfox", {"t": colorfox.Rules()}, games=30, executor=gate, chunk=10, progress=False, on_rows=arrived.append
    )
    for _ in range(5):
        if len(gate.waiting) == 3:
            break
        threading.Event().wait(0.05)
    gate.finish_next()
    settled(lab, 10)
    lab.stop()
    while gate.waiting:  # the chunk under way finishes; a pool then tells the cancelled ones
        gate.finish_next()
    lab.wait(timeout=10)
    assert lab.done and len(lab.results) == 10 and [len(rows) for rows in arrived] == [10]


def test_the_summary_gives_intervals_that_contain_the_mean():
    lab = run("colorfox", {"t": colorfox.Rules(players=2)}, games=20, executor="serial", progress=False)
    summary = lab.summary()
    assert set(summary["measure"]) >= {"first player wins", "top score", "margin"}
    assert all(low <= mean <= high for low, mean, high in zip(summary["95% low"], summary["mean"], summary["95% high"]))


def test_a_serial_run_reports_each_chunk_as_it_is_played_and_stops_playing_when_stopped(monkeypatch):
    from colorlab import experiments

    played = []
    monkeypatch.setattr(experiments, "play_chunk", lambda *task: played.append(task) or play_chunk(*task))
    runs, made = [], threading.Event()

    def stop_at_once(rows):
        made.wait(5)
        runs[0].stop()

    lab = Experiment(
        "colorfox", {"t": colorfox.Rules()}, games=30, executor="serial", chunk=10, progress=False, on_rows=stop_at_once
    )
    runs.append(lab)
    made.set()
    lab.wait(timeout=30)
    assert len(played) == 1 and len(lab.results) == 10


def test_intervals_and_differences_in_words():
    low, mean, high = interval([1, 0, 1, 1, 0, 1, 0, 1])
    assert 0 < low < mean == 5 / 8 < high < 1
    low, mean, high = interval([10.0, 12.0, 11.0, 13.0])
    # Student's t with 3 degrees of freedom (3.182 in every table), not 1.96: n = 4 is small.
    assert math.isclose(mean, 11.5) and math.isclose(high - mean, 3.182 * math.sqrt(5 / 3) / 2, rel_tol=1e-3)
    assert "larger than the noise" in describe_difference("a", [1.0, 1.1, 0.9] * 10, "b", [5.0, 5.1, 4.9] * 10, "x")
    assert "within the noise" in describe_difference("a", [1.0, 2.0, 3.0] * 4, "b", [1.5, 2.5, 2.0] * 4, "x")
    assert "too few games to tell" in describe_difference("a", [1.0], "b", [2.0], "x")
    assert "too few games to tell" in describe_difference("a", [], "b", [2.0] * 20, "x")


# Values from printed t tables (e.g. NIST/SEMATECH e-Handbook, table 1.3.6.7.2), 3 decimals.
T_TABLE = [
    (0.975, 1, 12.706),
    (0.975, 2, 4.303),
    (0.975, 3, 3.182),
    (0.975, 5, 2.571),
    (0.975, 10, 2.228),
    (0.975, 30, 2.042),
    (0.975, 100, 1.984),
    (0.95, 4, 2.132),
    (0.99, 9, 2.821),
    (0.995, 20, 2.845),
    (0.90, 15, 1.341),
    (0.999, 60, 3.232),
]


@pytest.mark.parametrize("p, freedom, table", T_TABLE)
def test_t_quantiles_match_the_printed_tables(p, freedom, table):
    assert round(t_quantile(p, freedom), 3) == table
    assert math.isclose(t_quantile(1 - p, freedom), -t_quantile(p, freedom))
    assert math.isclose(t_cdf(t_quantile(p, freedom), freedom), p, abs_tol=1e-10)


def test_t_quantiles_approach_the_normal_ones_and_agree_with_scipy():
    assert abs(t_quantile(0.975, 1e6) - 1.959964) < 1e-5
    assert t_quantile(0.5, 7) == pytest.approx(0, abs=1e-12)
    stats = pytest.importorskip("scipy.stats")
    for freedom in (0.7, 1, 2.5, 4, 9.3, 38, 397.6, 5000):
        for p in (0.6, 0.9, 0.975, 0.9995):
            assert t_quantile(p, freedom) == pytest.approx(stats.t.ppf(p, freedom), rel=1e-9)


def test_welch_interval_uses_the_welch_satterthwaite_freedom():
    x, y = [1.0, 2.0, 3.0, 4.0, 5.0], [2.0, 4.0, 6.0, 8.0, 10.0, 12.0, 14.0]
    vx, vy = 2.5 / 5, 4 * (28 / 6) / 7
    freedom = (vx + vy) ** 2 / (vx**2 / 4 + vy**2 / 6)
    half = t_quantile(0.975, freedom) * math.sqrt(vx + vy)
    assert welch_interval(x, y) == pytest.approx((5 - half, 5 + half))
    assert 8 < freedom < 10  # fewer than the pooled test's 5 + 7 - 2


@pytest.mark.parametrize("n", [2, 3])
def test_two_or_three_games_a_variant_never_claim_a_difference(n):
    far_apart = describe_difference("a", [1.0, 1.1, 0.9][:n], "b", [50.0, 50.1, 49.9][:n], "x")
    no_spread = describe_difference("a", [1.0] * n, "b", [2.0] * n, "x")
    for said in (far_apart, no_spread):
        assert "larger than the noise" not in said and "real difference" not in said
        assert "too few games to tell" in said


def test_large_samples_still_detect_a_real_difference_and_not_a_false_one():
    import random

    draw = random.Random(11)
    x = [draw.gauss(10, 3) for _ in range(200)]
    y = [draw.gauss(11.5, 3) for _ in range(200)]
    z = [draw.gauss(10, 3) for _ in range(200)]
    assert "larger than the noise" in describe_difference("a", x, "b", y, "x")
    assert "within the noise" in describe_difference("a", x, "b", z, "x")


def test_no_spread_with_enough_games_is_a_difference_only_when_the_numbers_differ():
    assert "larger than the noise" in describe_difference("a", [3.0] * 10, "b", [4.0] * 10, "x")
    assert "no difference at all" in describe_difference("a", [3.0] * 10, "b", [3.0] * 10, "x")


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
    lab = run(
        "colorfox",
        {"t": colorfox.Rules(), "s": colorfox.Rules(set_score="square")},
        games=5,
        executor="serial",
        progress=False,
    )
    ax = lab.plot("top score")
    assert "top score" in ax.get_title() and ax.get_ylabel() == "top score"


@pytest.mark.processes
def test_the_same_call_runs_on_a_dask_cluster():
    distributed = pytest.importorskip("distributed")
    with (
        distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False) as cluster,
        distributed.Client(cluster) as client,
    ):
        lab = run("colorfox", {"t": colorfox.Rules()}, games=4, executor=client.get_executor(), progress=False)
    assert len(lab.results) == 4


def test_identical_samples_are_no_difference():
    assert "no difference" in describe_difference("a", [2.0, 2.0, 2.0], "b", [2.0, 2.0, 2.0], "x")


def test_a_line_up_seats_each_bot_kind_seeded_from_the_game_and_the_seat():
    slide = colorium.Rules(players=2)
    lab = run("colorium", {"slide": slide}, games=4, bots=["GreedyBot", "RandomBot"], executor="serial", progress=False)
    assert lab.lineups == {"slide": ("GreedyBot", "RandomBot")}
    assert set(lab.results["line-up"]) == {"GreedyBot, RandomBot"}
    for seed in range(4):
        by_hand = colorium.play_game(slide, seated_bots([colorium.GreedyBot, colorium.RandomBot], seed), seed=seed)
        assert lab.results.loc[seed, "actions"] == len(by_hand.actions)
    swapped = run(
        "colorium", {"slide": slide}, games=4, bots=("RandomBot", "GreedyBot"), executor="serial", progress=False
    )
    assert list(swapped.results["actions"]) != list(lab.results["actions"])


def test_no_line_up_plays_the_default_bots_as_before():
    rules = {"t": colorfox.Rules(players=3)}
    default = run("colorfox", rules, games=5, executor="serial", progress=False)
    named = run("colorfox", rules, games=5, bots="RandomBot", executor="serial", progress=False)
    assert default.lineups == {"t": ("RandomBot",) * 3}
    assert default.results.drop(columns=["winners"]).equals(named.results.drop(columns=["winners"]))


@pytest.mark.processes
def test_a_bot_with_its_settings_fixed_by_a_partial_travels_to_a_process_pool():
    knowing = functools.partial(colourbrain.QuizBot, level="hard")
    variants = {"pot taken": colourbrain.Rules()}
    serial = run("colourbrain", variants, games=12, bots=knowing, executor="serial", progress=False).results
    with concurrent.futures.ProcessPoolExecutor(max_workers=2) as pool:
        parallel = run("colourbrain", variants, games=12, bots=knowing, executor=pool, chunk=3, progress=False)
    assert parallel.lineups == {"pot taken": ("QuizBot(level='hard')",) * 2}
    assert serial.drop(columns=["winners"]).equals(parallel.results.drop(columns=["winners"]))
    medium = run("colourbrain", variants, games=12, executor="serial", progress=False).results
    assert serial["rounds"].mean() < medium["rounds"].mean()  # teams that know more answers finish sooner


def module_level_bot(seed):
    """A bot maker that is a plain function: picklable, and no colorlab game's own."""
    return colorfox.RandomBot(seed=seed)


@pytest.mark.parametrize(
    "bots, reason",
    [
        ("SearchBotty", "colorfox has no bot called 'SearchBotty': choose one of .*GreedyBot"),
        ("QuizBot", "no bot called 'QuizBot': it is a bot of colourbrain"),
        (("RandomBot",) * 3, "a line-up of 3 bots does not fit 2 players"),
        (["RandomBot"], "a line-up of 1 bot does not fit 2 players"),
        (colorium.GreedyBot, "GreedyBot is a bot of colorium; a colorfox game needs colorfox bots"),
        (
            ("RandomBot", functools.partial(colourbrain.QuizBot, level="hard")),
            "QuizBot\\(level='hard'\\) is a bot of colourbrain",
        ),
        (lambda seed: colorfox.RandomBot(seed=seed), "cannot be sent to worker processes"),
        (42, "a bot is a name such as 'GreedyBot'"),
    ],
)
def test_a_line_up_that_cannot_play_is_refused_before_any_game(bots, reason):
    with pytest.raises(ValueError, match=reason):
        Experiment("colorfox", {"t": colorfox.Rules(players=2)}, games=2, bots=bots, executor="serial", progress=False)


def test_a_bot_of_ones_own_making_may_play():
    lab = run(
        "colorfox",
        {"t": colorfox.Rules(players=2)},
        games=2,
        bots=("RandomBot", module_level_bot),
        executor="serial",
        progress=False,
    )
    assert lab.lineups == {"t": ("RandomBot", "module_level_bot")} and len(lab.results) == 2


def test_a_line_up_per_seat_must_fit_every_variant():
    with pytest.raises(ValueError, match="3 players"):
        run(
            "colorfox",
            {"two": colorfox.Rules(players=2), "three": colorfox.Rules(players=3)},
            games=2,
            bots=("GreedyBot", "RandomBot"),
            executor="serial",
            progress=False,
        )


# Student's t, 97.5% point, from printed tables (NIST/SEMATECH e-Handbook, table 1.3.6.7.2).
T_19, T_29 = 2.093, 2.045


def by_hand(differences: list[float], t: float) -> tuple[float, float]:
    """A paired t interval from its definition: mean difference, plus or minus t times its standard error."""
    mean = statistics.fmean(differences)
    error = statistics.stdev(differences) / math.sqrt(len(differences))
    return (mean - t * error, mean + t * error)


def spoken(bounds: tuple[float, float]) -> str:
    return f"{bounds[0]:.3g} to {bounds[1]:.3g}"


def test_the_paired_interval_is_used_when_the_seeds_share_their_luck():
    # Scores swing from game to game, but b beats a by about 2 on every seed.
    x = [float(10 + (7 * seed) % 23) for seed in range(20)]
    nudge = [0.3, -0.2, 0.1, -0.4, 0.2] * 4
    y = [a + 2 + n for a, n in zip(x, nudge)]
    differences = [b - a for a, b in zip(x, y)]
    expected = by_hand(differences, T_19)
    assert paired_interval(differences) == pytest.approx(expected, rel=1e-3)
    said = describe_difference("a", x, "b", y, "score", differences)
    assert f"95% interval of the difference {spoken(paired_interval(differences))})" in said
    assert "larger than the noise" in said and "(paired)" in said
    assert f"(unpaired, Welch's t) gives a wider {spoken(welch_interval(x, y))}" in said
    assert "within the noise" in describe_difference("a", x, "b", y, "score")  # unpaired, the swings hide it


def test_a_paired_interval_of_yes_no_measures_is_a_mean_difference_interval():
    x = [1, 0, 1, 1, 0, 1, 0, 0, 1, 1] * 3
    y = [1, 1, 1, 1, 0, 1, 1, 0, 1, 1] * 3
    differences = [float(b - a) for a, b in zip(x, y)]
    assert set(differences) == {0.0, 1.0}
    assert paired_interval(differences) == pytest.approx(by_hand(differences, T_29), rel=1e-3)
    said = describe_difference("a", list(map(float, x)), "b", list(map(float, y)), "wins", differences)
    assert f"95% interval of the difference {spoken(paired_interval(differences))})" in said
    assert "(paired)" in said and "larger than the noise" in said


def test_the_unpaired_interval_is_kept_when_pairing_does_not_help():
    # A seed that is good for a is bad for b: the differences swing twice as much as the scores.
    x = [float(10 + (7 * seed) % 23) for seed in range(20)]
    y = [40 - a for a in x]
    differences = [b - a for a, b in zip(x, y)]
    said = describe_difference("a", x, "b", y, "score", differences)
    assert f"95% interval of the difference {spoken(welch_interval(x, y))})" in said
    assert "(unpaired, Welch's t)" in said and f"(paired: {spoken(paired_interval(differences))})" in said


@pytest.mark.parametrize("n", [2, 5, 9])
def test_pairing_gives_no_verdict_from_too_few_games(n):
    x = [float(seed * 10) for seed in range(n)]
    y = [a + 1 for a in x]
    said = describe_difference("a", x, "b", y, "x", [1.0] * n)
    assert "too few games to tell" in said and "larger than the noise" not in said


def test_too_few_seeds_played_by_both_are_not_paired():
    x, y = [1.0, 2.0, 3.0] * 4, [2.0, 3.0, 4.0] * 4
    said = describe_difference("a", x, "b", y, "x", [1.0] * 5)
    assert "(unpaired, Welch's t)" in said and "only 5 seeds" in said


def test_an_experiment_pairs_each_seed_with_itself():
    # Random ColorFox bots play the same moves under both scorings; only the count at the end differs.
    lab = run(
        "colorfox",
        {"triangular": colorfox.Rules(players=2), "square": colorfox.Rules(players=2, set_score="square")},
        games=30,
        executor="serial",
        progress=False,
    )
    frame = lab.results
    tri = frame[frame["variant"] == "triangular"].set_index("seed")["top score"]
    sq = frame[frame["variant"] == "square"].set_index("seed")["top score"]
    differences = seed_differences(frame, "triangular", "square", "top score")
    assert differences == [float(sq[seed] - tri[seed]) for seed in range(30)]
    said = lab.difference("triangular", "square", "top score")
    assert f"difference {spoken(paired_interval(differences))}) — larger than the noise" in said
    assert "no difference at all" in lab.difference("triangular", "square", "actions")


def test_the_interval_of_a_difference_is_the_one_the_words_use():
    lab = run(
        "colorfox",
        {"triangular": colorfox.Rules(players=2), "square": colorfox.Rules(players=2, set_score="square")},
        games=20,
        executor="serial",
        progress=False,
    )
    low, mean, high, how = lab.difference_interval("triangular", "square", "top score")
    frame = lab.results
    by_variant = frame.groupby("variant")["top score"].mean()
    assert how == "paired" and mean == pytest.approx(by_variant["square"] - by_variant["triangular"])
    assert (low, high) == pytest.approx(paired_interval(seed_differences(frame, "triangular", "square", "top score")))
    assert f"difference {spoken((low, high))})" in lab.difference("triangular", "square", "top score")
    few = run(
        "colorfox",
        {"t": colorfox.Rules(players=2), "s": colorfox.Rules(players=2, set_score="square")},
        games=5,
        executor="serial",
        progress=False,
    )
    low, _, high, how = few.difference_interval("t", "s", "top score")
    assert how == "too few games" and math.isnan(low) and math.isnan(high)


@pytest.mark.parametrize(
    "environ, workers",
    [
        ({}, None),  # a learner's own JupyterLab: one worker per core
        ({"SERVER_SOFTWARE": "voila/0.5.13"}, 1),  # a page served to a class: one worker
        ({"SERVER_SOFTWARE": "voila/0.5.13", "COLORLAB_CLASS_WORKERS": "2"}, 2),  # as many as the teacher allows
        ({"SERVER_SOFTWARE": "voila/0.5.13", "COLORLAB_CLASS_WORKERS": "many"}, 1),
    ],
)
def test_a_page_served_to_a_class_starts_one_worker_unless_the_teacher_allows_more(environ, workers):
    assert experiments.pool_workers(environ) == workers
