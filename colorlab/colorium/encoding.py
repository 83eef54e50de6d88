"""Colorium as numbers: action numbers and observation arrays for game-AI libraries.

Game-AI libraries (OpenSpiel, PettingZoo) want every action as a whole number from
0 to ``action_count(rules) - 1`` and every observation as a fixed-size array. This
module gives both, as pure functions over the model; it imports no such library.

Action numbers, in blocks, smallest first (``player`` is never part of a number: it
is the player who acts):

- picks: the die's kind and face, shape faces ``I O T L S V`` then colour faces
  ``R Y G B P O`` (12 numbers). Dice showing the same face are alike, so a pick
  names the face, not the die's place in the pool;
- wild spaces: (row, column, colour), rows from the top;
- drawings: (piece, colour, row, column). A piece is a die shape, the scissors
  used and the exact cells drawn up to a shift (an orientation of the shape or of
  one of its cut parts), from the list :data:`PIECES`; (row, column) is the top
  left corner of the smallest box around the cells.

Who acts: in the draft the next to pick; in the drawing phase every player still in
who has not drawn yet (the players draw at the same time). A wild space is filled
before one's own drawing in this encoding: the model also lets a player who has
drawn fill a wild space while others are still drawing, but numbering that moment
would make a player act after its drawing with nothing that says it is done.

An observation is a flat float32 array, made of the parts that
:func:`observation_layout` names, in that order, built from the model's
:func:`~colorlab.colorium.model.observation`. Every board is open in Colorium; the
only thing hidden is the future (the dice of later rounds), which no state holds.
Every number lies from 0 to 1: counts are shares of the most they can be (shapes drawn of
the board's spaces, dice of a face of the players, row points of the largest row reward,
the round of the most rounds a board allows) and scores of SCORE_SCALE points (more shows
as 1: a learner's own mission may score without bound).

Returns: at the end, the win is shared out. A sole winner gets 1, players who share
the win (same points, empty spaces and row points) 1/k each, everyone else 0.
"""

from __future__ import annotations

from collections import Counter
from functools import cache

import numpy

from colorlab.colorium import model
from colorlab.colorium.board import CODES
from colorlab.colorium.missions import TYPES
from colorlab.colorium.model import BONUSES, ROW_REWARDS, Draw, Pick, Wild
from colorlab.colorium.rules import Rules
from colorlab.colorium.shapes import SHAPES, orientations, scissors
from colorlab.encoding import flat_shape, number_blocks, scaled
from colorlab.rules import IllegalAction, NotYourTurn

LETTERS = tuple(SHAPES)
FACES = tuple(("shape", letter) for letter in LETTERS) + tuple(("colour", code) for code in CODES)
MOST_CUTS = BONUSES.count("scissors")
MARKS = ("none", "locked", "earned", "ready", "used")
PHASES = ("draft", "draw", "over")
EDITION_MISSIONS = tuple(f"{kind}-{card}" for kind in TYPES for card in range(1, 5))  # a learner's own shows as none
MOST_ROW_POINTS = max(max(points) for points in ROW_REWARDS.values())
SCORE_SCALE = 100  # an observation shows a score as a share of this many points (more shows as 1)


def _pieces() -> tuple[tuple[str, int, frozenset], ...]:
    """Every (die shape, cuts, cells up to a shift) a drawing can show, in a fixed order."""
    pieces = {}
    for letter in LETTERS:
        for cuts in range(MOST_CUTS + 1):
            for part in scissors(letter, cuts) if cuts else [letter]:
                for image in orientations(part, mirror_images=True):
                    pieces.setdefault((letter, cuts, image), None)
    return tuple(pieces)


PIECES = _pieces()
PIECE_NUMBER = {piece: number for number, piece in enumerate(PIECES)}


def _blocks(rules: Rules) -> dict[str, tuple[int, int]]:
    """Where does each kind of action start, and how many numbers does it take?"""
    return _blocks_for(rules.width * rules.height)


@cache
def _blocks_for(spaces: int) -> dict[str, tuple[int, int]]:
    sizes = {"pick": len(FACES), "wild": spaces * len(CODES), "draw": len(PIECES) * len(CODES) * spaces}
    return number_blocks(sizes)


def action_count(rules: Rules = Rules()) -> int:
    """How many action numbers are there (0 up to this count, less one)?"""
    start, size = _blocks(rules)["draw"]
    return start + size


def _space(row: int, column: int, rules: Rules) -> int:
    if not (0 <= row < rules.height and 0 <= column < rules.width):
        raise ValueError(f"space ({row}, {column}) is not on a {rules.width} by {rules.height} board")
    return row * rules.width + column


def action_number(action, rules: Rules = Rules(), pool: tuple = ()) -> int:
    """Which number stands for this action? (A pick names a die of `pool`, the state's dice.)"""
    blocks = _blocks(rules)
    if isinstance(action, Pick):
        if not 0 <= action.die < len(pool):
            raise ValueError(f"a pick names a die by its place in the pool; give the pool ({len(pool)} dice)")
        return blocks["pick"][0] + FACES.index(pool[action.die])
    if isinstance(action, Wild):
        return blocks["wild"][0] + _space(*action.cell, rules) * len(CODES) + CODES.index(action.colour)
    if isinstance(action, Draw):
        top = action.cells[0][0]  # a drawing's cells are sorted
        left = min(c for _, c in action.cells)
        piece = PIECE_NUMBER.get((action.shape, action.cuts, frozenset((r - top, c - left) for r, c in action.cells)))
        if piece is None:
            raise ValueError(f"no drawing of {action.shape} with {action.cuts} cut(s) covers {action.cells}")
        return (
            blocks["draw"][0]
            + (piece * len(CODES) + CODES.index(action.colour)) * rules.width * rules.height
            + _space(top, left, rules)
        )
    raise ValueError(f"{type(action).__name__} has no action number")


def number_of(action, state) -> int:
    """Which number stands for this action in this state (a pick, for the die of the state's pool it names)?"""
    return action_number(action, state.rules, state.pool)


def _block_of(number: int, rules: Rules) -> tuple[str, int]:
    """Which kind of action is this number, and where in its block does it lie?"""
    if (
        isinstance(number, bool)
        or not isinstance(number, (int, numpy.integer))
        or not 0 <= number < action_count(rules)
    ):
        raise ValueError(f"{number!r} is not an action number: they run from 0 to {action_count(rules) - 1}")
    return next(
        (kind, int(number) - start) for kind, (start, size) in _blocks(rules).items() if start <= number < start + size
    )


def _wild_parts(offset: int, rules: Rules) -> tuple[tuple[int, int], str]:
    """The space (row, column) and the colour of a wild action."""
    space, colour = divmod(offset, len(CODES))
    return divmod(space, rules.width), CODES[colour]


def _draw_parts(offset: int, rules: Rules) -> tuple[str, str, tuple[tuple[int, int], ...], int]:
    """The die shape, the colour, the cells and the cuts of a drawing."""
    piece_and_colour, space = divmod(offset, rules.width * rules.height)
    piece, colour = divmod(piece_and_colour, len(CODES))
    letter, cuts, cells = PIECES[piece]
    top, left = divmod(space, rules.width)
    return letter, CODES[colour], tuple(sorted((top + r, left + c) for r, c in cells)), cuts


def decode(number: int, state, player: int):
    """Which action of `player` does this number stand for, legal now or not?"""
    kind, offset = _block_of(number, state.rules)
    if kind == "pick":
        face = FACES[offset]
        if face not in state.pool:
            raise model.BadPick(f"no die in the pool shows the {face[0]} {face[1]}")
        return Pick(player, state.pool.index(face))
    if kind == "wild":
        return Wild(player, *_wild_parts(offset, state.rules))
    return Draw(player, *_draw_parts(offset, state.rules))


def action_name(number: int, rules: Rules = Rules()) -> str:
    """Say in a few words what this action number does."""
    kind, offset = _block_of(number, rules)
    if kind == "pick":
        return "take the {} die {}".format(*FACES[offset])
    if kind == "wild":
        (row, column), colour = _wild_parts(offset, rules)
        return f"wild: {model.colour_name(colour)} in row {rules.height - row}, column {column + 1}"
    letter, colour, cells, cuts = _draw_parts(offset, rules)
    spaces = " ".join(f"{rules.height - r}/{c + 1}" for r, c in cells)
    return f"draw {letter}{' cut ' * bool(cuts)}{'x' * cuts} in {model.colour_name(colour)} on {spaces}"


acting = model.acting  # who may act now: the next to pick, or everyone still in who has not drawn this round


def legal(state, player: int) -> list:
    """Which actions may `player` take now (one pick per face; none when the player may not act)?"""
    if player not in acting(state):
        return []
    if state.phase == "draft":
        held = dict(zip(("shape", "colour"), state.picks[player]))
        return [Pick(player, state.pool.index(face)) for face in sorted(set(state.pool)) if not held[face[0]]]
    return model.legal_wilds(state, player) + model.legal_draws(state, player)


def legal_numbers(state, player: int) -> list[int]:
    """Which action numbers may `player` choose now, smallest first?"""
    return sorted({action_number(action, state.rules, state.pool) for action in legal(state, player)})


def action_of(number: int, state, player: int):
    """Which legal action of `player` does this number stand for? Refuse a number that is not legal now."""
    if player not in acting(state):
        raise NotYourTurn(f"player {player} may not act now")
    action = decode(number, state, player)
    if action not in legal(state, player):
        model.play(state, action)  # the model's refusal says which rule the action breaks
        raise IllegalAction(f"action number {number} is not one of player {player}'s choices now")
    return action


def returns(state) -> list[float]:
    """Each player's share of the win at the end: 1 for a sole winner, 1/k for k sharing it, else 0."""
    top = model.winners(state)
    return [1 / len(top) if player in top else 0.0 for player in range(state.players)]


def scores(state) -> list[float]:
    """Each player's score from 0 to 1: a share of SCORE_SCALE points (more counts as 1)."""
    return [scaled(points, SCORE_SCALE) for points in model.scores(state)]


@cache
def observation_layout(rules: Rules = Rules()) -> dict[str, tuple[int, ...]]:
    """Which parts make up an observation, in order, with their shapes?"""
    players, height, width = rules.players, rules.height, rules.width
    return {
        "boards": (players, height, width, len(CODES)),
        "shapes drawn": (players, len(LETTERS)),
        "picked": (players, len(FACES)),
        "drawn": (players,),
        "out": (players,),
        "bonuses": (players, width, len(MARKS)),
        "row points": (players, len(ROW_REWARDS)),
        "scores": (players,),
        "pool": (len(FACES),),
        "order": (2 * players, players),
        "you": (players,),
        "active": (players,),
        "phase": (len(PHASES),),
        "round": (1,),
        "missions": (len(EDITION_MISSIONS),),
    }


def observation_bounds(rules: Rules = Rules()) -> tuple[float, float]:
    """The smallest and largest number an observation holds."""
    return 0.0, 1.0


def observation_shape(rules: Rules = Rules()) -> tuple[int, ...]:
    """How long is the flat observation array?"""
    return flat_shape(observation_layout(rules))


def observation(state, player: int) -> numpy.ndarray:
    """What `player` may see (every board, the dice, the bonuses), as a flat float32 array."""
    seen = model.observation(state, player)
    arrays = {name: numpy.zeros(shape, numpy.float32) for name, shape in observation_layout(state.rules).items()}
    rows = sorted(ROW_REWARDS)
    spaces = state.rules.width * state.rules.height
    for p in range(state.players):
        for r, line in enumerate(seen["boards"][p]):
            for c, code in enumerate(line):
                if code in CODES:
                    arrays["boards"][p, r, c, CODES.index(code)] = 1
        for letter, count in Counter(seen["drawn_shapes"][p]).items():
            arrays["shapes drawn"][p, LETTERS.index(letter)] = scaled(count, spaces)
        for kind, face in zip(("shape", "colour"), seen["picks"][p]):
            if face:
                arrays["picked"][p, FACES.index((kind, face))] = 1
        for c, mark in enumerate(seen["bonuses"][p]):
            arrays["bonuses"][p, c, MARKS.index(mark)] = 1
        for row, points in seen["row_points"][p]:
            arrays["row points"][p, rows.index(row)] = scaled(points, MOST_ROW_POINTS)
    arrays["drawn"][:], arrays["out"][:] = seen["drawn"], seen["out"]
    arrays["scores"][:] = [scaled(score, SCORE_SCALE) for score in seen["scores"]]
    for kind, face in seen["pool"]:
        arrays["pool"][FACES.index((kind, face))] += 1 / state.players
    for turn, seat in enumerate(seen["order"]):
        arrays["order"][turn, seat] = 1
    arrays["you"][player] = arrays["active"][seen["active"]] = arrays["phase"][PHASES.index(seen["phase"])] = 1
    arrays["round"][0] = scaled(seen["round"], spaces + 1)
    for mission in seen["missions"]:
        if mission["id"] in EDITION_MISSIONS:
            arrays["missions"][EDITION_MISSIONS.index(mission["id"])] = 1
    return numpy.concatenate([array.ravel() for array in arrays.values()])
