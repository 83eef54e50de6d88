"""One seat of a game as a Gymnasium environment (colorlab.pettingzoo.versus) and an agent that learns in it
(colorlab.pettingzoo.learning: sb3-contrib's MaskablePPO, the rl extra)."""

import numpy
import pytest

pytest.importorskip("gymnasium")

from colorlab.pettingzoo.versus import random_policy, share_won, versus
from colorlab.rules import IllegalAction


def play_out(board, seed: int, rng) -> tuple[float, dict]:
    """Play one whole game with random legal numbers from the learner's seat: its last reward and info."""
    observation, info = board.reset(seed=seed)
    done, reward = False, 0.0
    while not done:
        assert board.observation_space.contains(observation)
        mask = board.action_masks()
        assert mask.dtype == bool and mask.any()
        observation, reward, terminated, truncated, info = board.step(int(rng.choice(numpy.flatnonzero(mask))))
        done = terminated or truncated
        assert done or reward == 0.0
    return reward, info


@pytest.mark.parametrize("game", ["colorfox", "colorium"])
@pytest.mark.parametrize("opponent", ["random", "GreedyBot"])
def test_the_learner_plays_whole_games_from_either_seat_and_gets_its_seats_reward(game, opponent):
    board = versus(game, opponent)
    rng = numpy.random.default_rng(0)
    seats = set()
    for seed in range(6):
        reward, info = play_out(board, seed, rng)
        seats.add(info["seat"])
        assert board.table.match.over
        assert reward == board.table.match.returns()[info["seat"]]
        assert not board.action_masks().any()
        with pytest.raises(RuntimeError, match="reset"):
            board.step(0)
    assert seats == {0, 1}


def test_a_fixed_seat_is_kept_and_the_others_move_first_when_they_must():
    board = versus("colorfox", seat=1)
    _, info = board.reset(seed=3)
    assert info["seat"] == 1 and board.table.agent_selection == "player_1"
    assert len(board.table.match.played) >= 1  # player 0 laid its card first


def test_an_illegal_number_is_refused_with_the_rule_and_changes_nothing():
    board = versus("colorium")
    board.reset(seed=1)
    before = (board.table.match.state, board.table.match.chosen, tuple(board.table.match.played))
    illegal = int(numpy.flatnonzero(~board.action_masks())[0])
    with pytest.raises(IllegalAction):
        board.step(illegal)
    assert before == (board.table.match.state, board.table.match.chosen, tuple(board.table.match.played))


def test_a_step_before_reset_is_refused_saying_to_reset():
    with pytest.raises(RuntimeError, match="call reset"):
        versus("colorfox").step(0)


@pytest.mark.parametrize(
    ("options", "message"),
    [({"opponent": "Nobody"}, "not one of colorium's players"), ({"seat": 2}, "seats are 0 to 1")],
)
def test_an_unknown_opponent_or_seat_is_refused_saying_what_is_allowed(options, message):
    with pytest.raises(ValueError, match=message):
        versus("colorium", **options)


def test_a_random_policy_loses_to_the_greedy_bot_and_the_games_alternate_seats():
    won = share_won(random_policy(), "colorium", games=20, opponent="GreedyBot", seed=7)
    assert won.games == 20 and len(set(won.seeds)) == 20
    assert 0 <= won.low <= won.share <= won.high < 0.5


def test_the_environment_passes_stable_baselines3s_own_check():
    env_checker = pytest.importorskip("stable_baselines3.common.env_checker")
    env_checker.check_env(versus("colorium"), warn=True)


@pytest.mark.parametrize(
    ("game", "rules"),
    [("colorfox", None), ("colorfox", {"players": 4}), ("colorium", None), ("colorium", {"width": 4, "height": 12})],
    ids=["colorfox", "colorfox-4", "colorium", "colorium-4x12"],
)
def test_a_maskable_ppo_policy_of_one_64_unit_layer_has_under_200000_parameters(game, rules):
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO

    from colorlab.pettingzoo.learning import RECIPE, parameters

    model = MaskablePPO("MlpPolicy", versus(game, rules=rules), **RECIPE)
    assert parameters(model) < 200_000


@pytest.mark.slow
def test_maskable_ppo_learns_to_beat_a_random_colorium_player_in_both_seats():
    """The recipe of docs/learning.md with a smaller budget (60,000 steps; the docs train 100,000): the lower end of
    the 95% interval of its share of the wins, over 200 games on seeds it never trained on, half in each seat,
    is above one half."""
    pytest.importorskip("sb3_contrib")
    from colorlab.pettingzoo.learning import policy_of, train

    model = train("colorium", steps=60_000, progress=False)
    won = share_won(policy_of(model), "colorium", games=200)
    assert not set(won.seeds) & set(model.get_env().envs[0].unwrapped.seeds)
    assert won.low > 0.5, str(won)


def test_openspiels_own_pytorch_dqn_learns_in_the_openspiel_game():
    """The rl extra holds what OpenSpiel's PyTorch agents need: its DQN takes steps in a whole Colorium game."""
    pytest.importorskip("torch")
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python import rl_environment
    from open_spiel.python.algorithms import random_agent
    from open_spiel.python.pytorch import dqn

    import colorlab.openspiel  # noqa: F401  (registers the games)

    board = rl_environment.Environment(pyspiel.load_game("python_colorlab_colorium"), seed=0)
    size, count = board.observation_spec()["info_state"][0], board.action_spec()["num_actions"]
    learner = dqn.DQN(0, size, count, hidden_layers_sizes=[64], replay_buffer_capacity=1_000, batch_size=16)
    agents = [learner, random_agent.RandomAgent(1, count)]
    step = board.reset()
    while not step.last():
        step = board.step([agents[step.observations["current_player"]].step(step).action])
    for agent in agents:
        agent.step(step)
    assert sorted(step.rewards) == [0.0, 1.0] and len(learner._replay_buffer) > 20


def test_the_recipe_in_the_docs_runs_as_written_with_a_small_budget():
    """docs/learning.md's code, with 512 steps and 4 games instead of 100,000 and 200."""
    pytest.importorskip("sb3_contrib")
    import re
    from pathlib import Path

    text = (Path(__file__).parents[1] / "docs" / "learning.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) == 2
    for block in blocks:
        small = block.replace("100_000", "512").replace("games=200", "games=4")
        assert small != block
        exec(compile(small, "docs/learning.md", "exec"), {})
