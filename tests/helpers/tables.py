"""Shared tables for the tables tests: one table per game with a bot in its last seat, learners in the others."""

from __future__ import annotations

import time

from colorlab import colorform, colorfox, colorium, colourbrain

TABLES = {
    "colorfox": (colorfox.Rules(players=3), {2: "GreedyBot"}),
    "colorium": (colorium.Rules(players=3), {2: "GreedyBot"}),
    "colourbrain": (colourbrain.Rules(teams=3), {2: "QuizBot"}),
    "colorform": (colorform.Rules(variant="junior", players=3, tasks_per_player=4), {2: "ReactionBot"}),
}


def seated(store, game, seed=7, names=("Ada", "Bo", "Cy", "Di")):
    """A table of `game` from TABLES with every learner's seat taken: (code, seats)."""
    rules, bots = TABLES[game]
    code = store.create(game, rules, seed=seed, bots=bots)
    return code, [
        store.join(code, seat=number, name=names[number]) for number in range(rules.players) if number not in bots
    ]


def news(changes, seconds: float = 5.0) -> frozenset:
    """Look at the store until a change is news (a PostgreSQL notice takes a moment to cross the socket): the tables
    that changed, or nothing after `seconds`."""
    deadline = time.monotonic() + seconds
    while True:
        changed = changes.look()
        if changed or time.monotonic() > deadline:
            return changed
        time.sleep(0.01)
