"""ColorFox for PettingZoo, by PettingZoo's conventions: ``from colorlab.pettingzoo import colorfox_v0``.

ColorFox is played in turns: ``env()`` is its AEC environment, wrapped as PettingZoo's own are, and
``raw_env()`` the bare one. Options are those of :func:`colorlab.pettingzoo.env` (``rules``,
``render_mode``, ``illegal``, ``max_actions``, ``max_cycles``, ``returns``).

>>> from colorlab.pettingzoo import colorfox_v0
>>> fox = colorfox_v0.env(render_mode="ansi")
>>> fox.reset(seed=2)
>>> fox.agent_selection, fox.metadata["name"]
('player_0', 'colorlab_colorfox_v0')
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv

from colorlab import pettingzoo as environments

GAME = "colorfox"


def env(**options: Any) -> AECEnv:
    """ColorFox's AEC environment, wrapped as PettingZoo's own environments are."""
    return environments.env(GAME, **options)


def raw_env(**options: Any) -> environments.TurnEnv:
    """ColorFox's AEC environment, unwrapped."""
    return environments.raw_env(GAME, **options)
