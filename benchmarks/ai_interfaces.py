"""Time the games through the game-AI libraries' own interfaces, beside those libraries' own games, and pit the
search bots against OpenSpiel's own search at equal time per move.

- **OpenSpiel, random play**: whole games through the OpenSpiel API (``legal_actions``, a random choice,
  ``apply_action``; chance outcomes drawn with their probabilities) for ``SECONDS`` at a time, actions a
  second (chance outcomes included), beside OpenSpiel's pure-python tic-tac-toe timed the same way in the
  same run, the repeats alternating. Target: at least as many actions a second as tic-tac-toe.
- **PettingZoo**: the loop of PettingZoo's ``performance_benchmark`` (each agent in turn, a random legal
  action from the mask, a reset when the game ends), turns a second, for the versioned modules, beside
  PettingZoo's ``connect_four_v3`` timed the same way. Target: at least as fast.
- **Search against OpenSpiel's search**: each game's ``SearchBot`` (as a ``pyspiel.Bot``,
  ``colorlab.openspiel.search_bot``) against OpenSpiel's MCTS (Colorium, perfect information) and
  information-set MCTS (ColorFox, hidden hands), two players, half the games in each seat order, with the
  same time a move: OpenSpiel's bots take a number of simulations, so theirs is set to what takes
  ``MOVE_SECONDS`` on this machine, measured first. A shared win counts half; the rows give the search
  bot's share with its 95% Wilson interval.

- **Compact actions**: the distinct action numbers under the largest rules (at most 1,000), the
  median time of ``legal_actions_mask`` the first time a state is asked (under 0.1 ms), and the
  size of a MaskablePPO policy of one 64-unit hidden layer (under 200,000 parameters).
- **Learning**: docs/learning.md's recipe, timed (MaskablePPO, 100,000 steps of Colorium against a
  random player: at most 5 minutes), then 200 games on fresh seeds, half from each seat: the lower
  end of the 95% interval of the share won above one half.

Each speed figure is the median of ``REPEATS`` runs. Without OpenSpiel, PettingZoo or pygame (which
PettingZoo's connect four needs; the ``bench`` extra installs it) a row says so.

Run alone: ``.venv/bin/python benchmarks/ai_interfaces.py`` (about 10 minutes).
"""

from __future__ import annotations

import random
import statistics
import time

import numpy

from strength import wilson
from table import Row, run_alone, verdict

SECONDS = 2.0  # one timed run of random play
REPEATS = 3
MOVE_SECONDS = 0.1  # each bot's time a move in the matches
MATCH_GAMES = 30  # per game, half in each seat order (12 left the interval too wide to say anything)
SEED = 2026


def medians(subjects: dict, speed) -> dict[str, float]:
    """Each subject's median speed over REPEATS runs of SECONDS, the subjects' runs alternating."""
    speeds: dict[str, list[float]] = {name: [] for name in subjects}
    rng = random.Random(SEED)
    for _ in range(REPEATS):
        for name, subject in subjects.items():
            speeds[name].append(speed(subject, SECONDS, rng))
    return {name: statistics.median(values) for name, values in speeds.items()}


def spiel_actions_per_second(game, seconds: float, rng: random.Random) -> float:
    """Random play of whole games through the OpenSpiel API for `seconds`: actions a second, chance included."""
    actions, deadline = 0, time.perf_counter() + seconds
    start = time.perf_counter()
    while time.perf_counter() < deadline:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, chances = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, chances)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            actions += 1
    return actions / (time.perf_counter() - start)


def openspiel_rows() -> list[Row]:
    try:
        import open_spiel.python.games  # noqa: F401  (registers the python_* games, tic-tac-toe among them)
        import pyspiel

        import colorlab.openspiel  # noqa: F401  (registers the games)
    except ImportError:
        return [Row("OpenSpiel, random play", "-", "", "", "info", "OpenSpiel is not installed (the ai extra).")]
    games = {
        "python_tic_tac_toe": pyspiel.load_game("python_tic_tac_toe"),
        "python_colorlab_colorfox": pyspiel.load_game("python_colorlab_colorfox"),
        "python_colorlab_colorium": pyspiel.load_game("python_colorlab_colorium"),
    }
    speeds = medians(games, spiel_actions_per_second)
    yardstick = speeds["python_tic_tac_toe"]
    rows = []
    for name in ("python_colorlab_colorfox", "python_colorlab_colorium"):
        ours = speeds[name]
        rows.append(
            Row(f"OpenSpiel, random play: {name} actions/s / python_tic_tac_toe's", f"{ours / yardstick:.2f}", "x",
                ">= 1.0", verdict(ours >= yardstick),
                f"{name}: {ours:,.0f} actions/s; python_tic_tac_toe {yardstick:,.0f} (medians of {REPEATS} runs "
                f"of {SECONDS:g} s, chance outcomes counted).")
        )  # fmt: skip
    return rows


def turns_per_second(make, seconds: float, rng: random.Random) -> float:
    """PettingZoo's performance_benchmark loop for `seconds`: each agent in turn, a random legal action."""
    environment = make()
    environment.reset(seed=rng.randrange(2**31))
    turns, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _agent in environment.agent_iter(environment.num_agents):
            observation, _, terminated, truncated, _ = environment.last()
            if terminated or truncated:
                action = None
            else:
                action = rng.choice(numpy.flatnonzero(observation["action_mask"]).tolist())
            environment.step(action)
            turns += 1
            if all(environment.terminations.values()) or all(environment.truncations.values()):
                environment.reset(seed=rng.randrange(2**31))
    return turns / (time.perf_counter() - start)


def pettingzoo_rows() -> list[Row]:
    try:
        from pettingzoo.classic import connect_four_v3

        from colorlab.pettingzoo import colorfox_v0, colorium_v0, colourbrain_v0
    except ImportError as missing:
        return [Row("PettingZoo, performance_benchmark", "-", "", "", "info", f"Not measured: {missing}.")]
    makers = {
        "connect_four_v3": connect_four_v3.env,
        "colorfox_v0": colorfox_v0.env,
        "colorium_v0": colorium_v0.env,
        "colourbrain_v0": colourbrain_v0.env,
    }
    speeds = medians(makers, turns_per_second)
    yardstick = speeds["connect_four_v3"]
    rows = []
    for name in ("colorfox_v0", "colorium_v0", "colourbrain_v0"):
        ours = speeds[name]
        rows.append(
            Row(f"PettingZoo, performance_benchmark loop: {name} turns/s / connect_four_v3's",
                f"{ours / yardstick:.2f}", "x", ">= 1.0", verdict(ours >= yardstick),
                f"{name}: {ours:,.0f} turns/s; connect_four_v3 {yardstick:,.0f} (medians of {REPEATS} runs of "
                f"{SECONDS:g} s).")
        )  # fmt: skip
    return rows


def simulations_for(make_bot, game, seconds: float) -> int:
    """How many simulations OpenSpiel's bot runs in about `seconds` a move here (measured on opening moves)."""
    simulations = 16
    while True:
        bot, state = make_bot(simulations), game.new_initial_state()
        rng = numpy.random.RandomState(SEED)
        while state.is_chance_node():
            outcomes, chances = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=chances)))
        start = time.perf_counter()
        bot.step(state)
        took = time.perf_counter() - start
        if took >= seconds / 2 or simulations >= 1 << 16:
            return max(1, int(simulations * seconds / took))
        simulations *= 2


def play_match(game, bots: list, rng: numpy.random.RandomState) -> list[float]:
    """One whole game between these bots (chance outcomes drawn with their probabilities): the returns.
    (OpenSpiel's evaluate_bots asks every bot to restart first, which its IS-MCTS bot does not offer.)"""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, chances = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=chances)))
        else:
            state.apply_action(bots[state.current_player()].step(state))
    return state.returns()


def match_rows() -> list[Row]:
    try:
        import pyspiel
        from open_spiel.python.algorithms import ismcts, mcts

        from colorlab.openspiel import search_bot
    except ImportError:
        return [Row("Search against OpenSpiel's search", "-", "", "", "info", "OpenSpiel is not installed.")]
    rows = []
    for name, kind in (("colorfox", "IS-MCTS"), ("colorium", "MCTS")):
        game = pyspiel.load_game(f"python_colorlab_{name}", {"players": 2})
        rollouts = mcts.RandomRolloutEvaluator(1, numpy.random.RandomState(SEED))
        if kind == "MCTS":

            def theirs(simulations, game=game, rollouts=rollouts):
                return mcts.MCTSBot(game, 2.0, simulations, rollouts, random_state=numpy.random.RandomState(SEED))
        else:

            def theirs(simulations, game=game, rollouts=rollouts):
                return ismcts.ISMCTSBot(game, rollouts, 2.0, simulations, random_state=numpy.random.RandomState(SEED))

        simulations = simulations_for(theirs, game, MOVE_SECONDS)
        won = 0.0
        start = time.perf_counter()
        for index in range(MATCH_GAMES):
            ours_first = index % 2 == 0
            ours = search_bot(game, 0 if ours_first else 1, seed=index, seconds=MOVE_SECONDS)
            other = theirs(simulations)
            bots = [ours, other] if ours_first else [other, ours]
            returns = play_match(game, bots, numpy.random.RandomState(SEED + index))
            won += returns[0 if ours_first else 1]
        low, high = wilson(won, MATCH_GAMES)
        rows.append(
            Row(f"{name}: SearchBot against OpenSpiel's {kind}, {MOVE_SECONDS:g} s a move, share won",
                f"{won / MATCH_GAMES:.2f}", "", "> 0.5", verdict(low > 0.5),
                f"{name}: {won:g} of {MATCH_GAMES} games (both seat orders), 95% interval {low:.2f}-{high:.2f}; "
                f"OpenSpiel's {kind} ran {simulations} simulations a move (about {MOVE_SECONDS:g} s here); "
                f"{time.perf_counter() - start:.0f} s.")
        )  # fmt: skip
    return rows


def compact_rows() -> list[Row]:
    """How many action numbers, how quick a legal mask, how big a MaskablePPO policy of one 64-unit layer."""
    try:
        import open_spiel.python.games  # noqa: F401  (registers the python_* games)
        import pyspiel

        import colorlab.openspiel  # noqa: F401  (registers the games)
    except ImportError:
        return [Row("Compact actions", "-", "", "", "info", "OpenSpiel is not installed (the ai extra).")]
    rows = []
    for name, players in (("colorfox", 4), ("colorium", 4)):
        largest = {"players": players, **({"width": 12, "height": 12} if name == "colorium" else {})}
        count = pyspiel.load_game(f"python_colorlab_{name}", largest).num_distinct_actions()
        rows.append(
            Row(f"{name}: distinct actions, largest rules", f"{count:,}", "", "<= 1,000", verdict(count <= 1000),
                f"{name}: {count} action numbers with {largest}.")
        )  # fmt: skip
    for name in ("colorfox", "colorium", "tic_tac_toe"):
        first, slow, again = mask_times(pyspiel.load_game(name if name == "tic_tac_toe" else f"python_colorlab_{name}"))
        if name == "tic_tac_toe":
            note = f"tic_tac_toe: median {first:.4f} ms (OpenSpiel's C++ game, for scale)."
            rows.append(Row("tic_tac_toe (C++): legal_actions_mask, first ask", f"{first:.3f}", "ms", "", "info", note))
            continue
        rows.append(
            Row(f"{name}: legal_actions_mask, first ask in a state", f"{first:.3f}", "ms", "< 0.1",
                verdict(first < 0.1),
                f"{name}: median over every decision of {MASK_GAMES} random games, the first ask after the action "
                f"that made the state; 95th percentile {slow:.3f} ms; asked again {again:.3f} ms (the numbers kept).")
        )  # fmt: skip
    rows.extend(learning_rows())
    return rows


MASK_GAMES = 30


def mask_times(game) -> tuple[float, float, float]:
    """Milliseconds of legal_actions_mask at every decision of random games: the first ask's median and 95th
    percentile, and the median asked again."""
    rng = random.Random(SEED)
    first, again = [], []
    for _ in range(MASK_GAMES):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, chances = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, chances)[0])
                continue
            for times in (first, again):  # nothing has asked this state yet: the first ask finds the numbers
                start = time.perf_counter()
                state.legal_actions_mask()
                times.append((time.perf_counter() - start) * 1000)
            state.apply_action(rng.choice(state.legal_actions()))
    return statistics.median(first), statistics.quantiles(first, n=20)[-1], statistics.median(again)


LEARNING_STEPS = 100_000  # docs/learning.md's recipe
LEARNING_GAMES = 200


def learning_rows() -> list[Row]:
    """The recipe of docs/learning.md: MaskablePPO on Colorium against a random player, timed, then measured."""
    try:
        from colorlab.pettingzoo.learning import parameters, policy_of, train
        from colorlab.pettingzoo.versus import share_won
    except ImportError as missing:
        return [Row("Learning (MaskablePPO)", "-", "", "", "info", f"Not measured: {missing} (the rl extra).")]
    rows = []
    for name in ("colorfox", "colorium"):
        count = parameters(train(name, steps=0, progress=False))
        rows.append(
            Row(f"{name}: MaskablePPO parameters, one 64-unit layer, two players", f"{count:,}", "", "< 200,000",
                verdict(count < 200_000), f"{name}: {count:,} parameters (policy and value networks).")
        )  # fmt: skip
    start = time.perf_counter()
    model = train("colorium", steps=LEARNING_STEPS, progress=False)
    took = time.perf_counter() - start
    won = share_won(policy_of(model), "colorium", games=LEARNING_GAMES)
    rows.append(
        Row(f"colorium: MaskablePPO, {LEARNING_STEPS:,} steps, training time", f"{took:.0f}", "s", "<= 300",
            verdict(took <= 300), f"Training alone on this machine: {took:.0f} s.")
    )  # fmt: skip
    rows.append(
        Row("colorium: the trained agent against a random player, share won", f"{won.share:.2f}", "", "low > 0.5",
            verdict(won.low > 0.5),
            f"{won}: {LEARNING_GAMES} games on seeds the training never drew, half from each seat.")
    )  # fmt: skip
    return rows


def run() -> list[Row]:
    return [*compact_rows(), *openspiel_rows(), *pettingzoo_rows(), *match_rows()]


if __name__ == "__main__":
    raise SystemExit(run_alone(run))
