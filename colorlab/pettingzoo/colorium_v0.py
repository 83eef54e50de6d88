"""Colorium for PettingZoo, by PettingZoo's conventions: ``from colorlab.pettingzoo import colorium_v0``.

Colorium's AEC environment asks the drawings of a round, which the players make at once, one
after another, each player seeing the boards as the round began: ``env()`` is that environment,
wrapped as PettingZoo's own are, and ``raw_env()`` the bare one. Options are those of
:func:`colorlab.pettingzoo.env` (``rules``, ``render_mode``, ``illegal``, ``max_actions``, ``max_cycles``,
``returns``).

>>> from colorlab.pettingzoo import colorium_v0
>>> board = colorium_v0.env(render_mode="ansi")
>>> board.reset(seed=2)
>>> board.agent_selection, board.metadata["name"]
('player_0', 'colorlab_colorium_v0')
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv

from colorlab import pettingzoo as environments

GAME = "colorium"


def env(**options: Any) -> AECEnv:
    """Colorium's AEC environment, wrapped as PettingZoo's own environments are."""
    return environments.env(GAME, **options)


def raw_env(**options: Any) -> environments.TurnEnv:
    """Colorium's AEC environment, unwrapped."""
    return environments.raw_env(GAME, **options)
