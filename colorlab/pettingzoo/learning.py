"""An agent that learns a colorlab game: sb3-contrib's MaskablePPO, one seat against bots (the ``rl`` extra).

The recipe of docs/learning.md, as functions. :func:`train` makes the game's
:func:`~colorlab.pettingzoo.versus.versus` environment (the learner at a seat drawn afresh each
game, the other seats played by the opponent) and trains ``MaskablePPO`` in it, a policy of one
hidden layer of 64 units that only ever picks legal numbers (the environment's action mask):

- **Colorium**, two players: after 30,000 to 100,000 steps (one to two minutes on two cores) the
  learner wins 60 to 75% of its games against a random player, on seeds it never trained on, both
  seats.
- It learns from each game's score (``returns="score"``, the score from 0 to 1 at the end): a
  win alone says less, and the score rewards every better drawing on the way to it.

:func:`policy_of` turns a trained model into a policy that
:func:`~colorlab.pettingzoo.versus.share_won` plays.
"""

from __future__ import annotations

from typing import Any

import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from tqdm.auto import tqdm

from colorlab.pettingzoo.versus import RANDOM, Policy, versus

RECIPE: dict[str, Any] = {
    "policy_kwargs": {"net_arch": [64]},  # one hidden layer of 64 units (for the policy and for the value)
    "n_steps": 2048,  # steps gathered between two updates
    "batch_size": 256,
    "learning_rate": 3e-4,
    "gamma": 1.0,  # the reward comes at the end only: no discount
    "ent_coef": 0.01,  # keep trying other moves for a while
}


class Progress(BaseCallback):
    """A progress bar of the steps trained (tqdm's, which shows in a notebook too)."""

    def __init__(self, steps: int):
        super().__init__()
        self.steps = steps

    def _on_training_start(self) -> None:
        self.bar = tqdm(total=self.steps, desc="training", unit="step")

    def _on_step(self) -> bool:
        self.bar.update(self.training_env.num_envs)
        return True

    def _on_training_end(self) -> None:
        self.bar.close()


def train(
    game: str = "colorium",
    steps: int = 100_000,
    opponent: str = RANDOM,
    returns: str = "score",
    rules: Any = None,
    seed: int = 0,
    progress: bool = True,
) -> MaskablePPO:
    """Train MaskablePPO (:data:`RECIPE`) for `steps` steps at one seat of `game` against `opponent`.

    PyTorch works on one thread meanwhile (as it was afterwards): a network this small learns about as fast on one,
    and the other cores stay free for the games, the class, or other tests.
    """
    board = versus(game, opponent, rules, returns=returns)
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        model = MaskablePPO("MlpPolicy", board, seed=seed, verbose=0, **RECIPE)
        model.learn(steps, callback=Progress(steps) if progress else None)
    finally:
        torch.set_num_threads(threads)
    return model


def policy_of(model: MaskablePPO) -> Policy:
    """The trained model as a policy: its likeliest legal number for an observation and a mask."""
    return lambda observation, mask: int(model.predict(observation, action_masks=mask, deterministic=True)[0])


def parameters(model: MaskablePPO) -> int:
    """How many numbers the model's networks hold (its trainable parameters)."""
    return sum(parameter.numel() for parameter in model.policy.parameters())
