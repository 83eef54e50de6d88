"""Colourbrain for PettingZoo, by PettingZoo's conventions: ``from colorlab.pettingzoo import colourbrain_v0``.

In Colourbrain the players answer a question at the same time, so, as with PettingZoo's own games whose players act
at once, the parallel environment comes first (``parallel_env()``), and ``env()`` is that environment
taken in turns (PettingZoo's ``parallel_to_aec``, wrapped as PettingZoo's own are): every player steps
once a cycle, a player with nothing to do by the only action its mask allows, "wait". ``raw_env()`` is it
unwrapped. (:func:`colorlab.pettingzoo.env` gives another AEC environment of Colourbrain, in which only the
players who have something to do step.) Options are those of :func:`colorlab.pettingzoo.parallel_env`.

>>> from colorlab.pettingzoo import colourbrain_v0
>>> game = colourbrain_v0.env(max_cycles=3)
>>> game.reset(seed=2)
>>> game.agent_selection, game.metadata["name"]
('player_0', 'colorlab_colourbrain_parallel_v0')
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv
from pettingzoo.utils.conversions import parallel_to_aec

from colorlab import pettingzoo as environments

GAME = "colourbrain"


def parallel_env(**options: Any) -> environments.TogetherEnv:
    """Colourbrain's parallel environment: every player acts at each step."""
    return environments.parallel_env(GAME, **options)


def raw_env(**options: Any) -> AECEnv:
    """Colourbrain's parallel environment taken in turns, unwrapped."""
    return parallel_to_aec(parallel_env(**options))


def env(**options: Any) -> AECEnv:
    """Colourbrain's parallel environment taken in turns, wrapped as PettingZoo's own environments are."""
    return environments.OrderEnforcing(raw_env(**options))
