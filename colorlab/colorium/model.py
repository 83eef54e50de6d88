"""Colorium as a state and pure transitions.

A round has two phases. In the **draft** the dice rolled for the round are
picked one at a time in snake order: from the active player clockwise to the
last player, who picks twice, then back; each player ends with one shape die
and one colour die. In the **drawing** phase every player still in the game
draws its shape in its colour (players draw at the same time, so the model
takes their :class:`Draw` actions in any order). Bonuses earned by filling a
column may be used from the next round on: change the die's colour or shape,
cut the shape (scissors), or fill one space anywhere (:class:`Wild`).

The rulebook lets a player use all its ready bonuses in one round, so one
drawing may change the colour, change the shape and cut it with every pair of
scissors ready (``Draw.cuts``): two scissors cut the shape, then cut the part
kept once more (see :func:`colorlab.colorium.shapes.scissors`); each wild
fills one space (one :class:`Wild` each), before or after the drawing. One
colour or shape change already reaches any colour or shape, so a second such
bonus is not spent. Which shape a cut part counts as, for the shape missions
and the all-shapes points, is the rule ``cut_counts_as``.

A player who cannot draw its shape, even with its bonuses, is out and waits:
no action of its changes the game any more (:class:`PlayerOut`), wild spaces
included. From the next round on one shape die and one colour die fewer are
rolled. The game ends when nobody can draw.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import random
from collections.abc import Callable, Sequence
from pathlib import Path

from colorlab.colorium.board import CODES, EMPTY, Board
from colorlab.colorium.missions import MISSIONS, draw_missions
from colorlab.colorium.rules import Rules
from colorlab.colorium.shapes import (
    SHAPES,
    Placement,
    RestingPlaces,
    Shape,
    known_placements,
    orientations,
    resting_places,
    scissors,
)
from colorlab.record import read_action
from colorlab.rules import ChangeRules, GameOver, IllegalAction, NotYourTurn, RuleError, check_seat
from colorlab.state import evolve, keep_last
from colorlab.symmetry import normalise

DATA = json.loads((Path(__file__).parent / "data" / "board.json").read_text(encoding="utf-8"))
BONUSES: tuple[str, ...] = tuple(DATA["bonuses"])
ROW_REWARDS: dict[int, tuple[int, ...]] = {int(row): tuple(points) for row, points in DATA["row_rewards"].items()}
ROW_REWARD_ORDER = tuple(sorted(ROW_REWARDS.items()))  # the races, lowest row first


COLOUR_NAMES = {"R": "red", "Y": "yellow", "G": "green", "B": "blue", "P": "purple", "O": "orange"}


def colour_name(code: str) -> str:
    """Which word names this colour code (R -> red)? Anything else is said as it is."""
    return COLOUR_NAMES.get(code, repr(code)) if isinstance(code, str) else repr(code)


def in_words(items: list[str]) -> str:
    """Say a list as a learner would: "red, blue and green"."""
    return " and ".join(filter(None, [", ".join(items[:-1]), items[-1]])) if items else ""


def bonus_row(width: int) -> tuple[str, ...]:
    """The bonus marks of a new board: the printed bonuses lie over the first columns; wider boards have none beyond."""
    return tuple("locked" if column < len(BONUSES) else "none" for column in range(width))


class UnknownPlayer(IllegalAction):
    """A seat number that is not in the game."""


class BadPick(IllegalAction):
    """A die that is not in the pool, or a second die of a kind the player already has."""


class BadDraw(IllegalAction):
    """A drawing that is not a legal resting place of the shape, or uses a bonus the player lacks."""


class WrongPhase(IllegalAction):
    """An action that belongs to the other phase of the round."""


class PlayerOut(IllegalAction):
    """An action of a player who is out: it waits for the others to finish."""


@dataclasses.dataclass(frozen=True)
class Pick:
    """Take die number `die` from the pool."""

    player: int
    die: int


@dataclasses.dataclass(frozen=True)
class Draw:
    """Draw `shape` in `colour` on these cells (row 0 at the top), cut with `cuts` scissors, with bonuses if used."""

    player: int
    shape: str
    colour: str
    cells: tuple[tuple[int, int], ...]
    cuts: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "cells", tuple(sorted(tuple(cell) for cell in self.cells)))


@dataclasses.dataclass(frozen=True)
class Wild:
    """Use a wild bonus: fill one empty space with any colour, no support needed."""

    player: int
    cell: tuple[int, int]
    colour: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "cell", tuple(self.cell))


Action = Pick | Draw | Wild | ChangeRules


@dataclasses.dataclass(frozen=True)
class State:
    """Every board, the dice, the bonuses and the races at one moment."""

    rules: Rules
    seed: int
    missions: tuple[str, ...]
    boards: tuple[Board, ...]
    out: tuple[bool, ...]
    round: int = 1
    active: int = 0
    pool: tuple[tuple[str, str], ...] = ()  # (kind, face): ("shape", "L") or ("colour", "R")
    order: tuple[int, ...] = ()  # the seats still to pick, in order
    picks: tuple[tuple[str | None, str | None], ...] = ()  # (shape, colour) per player
    drawn: tuple[bool, ...] = ()  # who has drawn this round
    bonuses: tuple[tuple[str, ...], ...] = ()  # per player, per column: "none", "locked", "earned", "ready", "used"
    used_shapes: tuple[frozenset, ...] = ()
    used_colours: tuple[frozenset, ...] = ()
    row_points: tuple[tuple[tuple[int, int], ...], ...] = ()  # per player: (row, points)
    rows_taken: tuple[tuple[int, int], ...] = ()  # (row, how many ranks are gone)
    over: bool = False
    events: tuple[str, ...] = ()

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def phase(self) -> str:
        return "over" if self.over else "draft" if self.order else "draw"


def new_game(rules: Rules = Rules(), seed: int = 0) -> State:
    """Set out the boards, draw the four missions and roll the first round's dice."""
    if rules.mission_ids:
        missions = tuple(name.strip() for name in rules.mission_ids.replace(";", ",").split(",") if name.strip())
        unknown = [name for name in missions if name not in MISSIONS]
        if unknown:
            raise RuleError(
                "mission_ids",
                rules.mission_ids,
                f"unknown mission(s) {', '.join(unknown)}; add your own with colorium.add_mission",
            )
    else:
        missions = tuple(m.id for m in draw_missions(random.Random(f"{seed}/missions"), rules.missions))
    n = rules.players
    state = State(
        rules=rules,
        seed=seed,
        missions=missions,
        boards=(Board.empty(rules.width, rules.height),) * n,
        out=(False,) * n,
        bonuses=(bonus_row(rules.width),) * n,
        used_shapes=(frozenset(),) * n,
        used_colours=(frozenset(),) * n,
        row_points=((),) * n,
    )
    return _start_round(state, 1, 0, state.bonuses, ())


def _start_round(
    state: State, round: int, active: int, bonuses: tuple[tuple[str, ...], ...], events: tuple[str, ...], **changes
) -> State:
    """Start round `round`: roll one shape die and one colour die per player still in, set the snake order.

    The bonuses earned last round become ready. `changes` are the other fields the end of the
    last round changed: the whole change is one copy of the state.
    """
    seats = [seat for seat in (*range(active, state.players), *range(active)) if not state.out[seat]]
    pool = roll(state.seed, round, len(seats), state.rules.shapes, state.rules.colours)
    bonuses = tuple(tuple("ready" if b == "earned" else b for b in row) if "earned" in row else row for row in bonuses)
    return evolve(
        state,
        round=round,
        active=active,
        pool=pool,
        order=(*seats, *reversed(seats)),
        picks=((None, None),) * state.players,
        drawn=state.out,
        bonuses=bonuses,
        events=events + (f"Round {round}: {dice_in_words(pool)}.",),
        **changes,
    )


@functools.lru_cache(maxsize=1024)
def dice_in_words(pool: tuple[tuple[str, str], ...]) -> str:
    """Say what a round's dice show (kept: the same pools come back round after round)."""
    return (
        f"the shape dice show {in_words([f for k, f in pool if k == 'shape'])}, "
        f"the colour dice {in_words([colour_name(f) for k, f in pool if k == 'colour'])}"
    )


@functools.lru_cache(maxsize=1024)
def roll(seed: int, round: int, dice: int, shapes: str, colours: str) -> tuple[tuple[str, str], ...]:
    """Which dice does a round roll: `dice` shape dice and `dice` colour dice, drawn from the seed, sorted?

    Kept for a while: seeding a random generator from text is slow, and replaying a record (an
    undo, a saved game or a table's game loaded again) rolls the same dice again.
    """
    rng = random.Random(f"{seed}/round/{round}")
    return tuple(
        sorted(
            [("shape", rng.choice(shapes)) for _ in range(dice)]
            + [("colour", rng.choice(colours)) for _ in range(dice)]
        )
    )


@functools.lru_cache(maxsize=256)
def pick_of(player: int, die: int) -> Pick:
    """The pick of this die by this player, made once (picks are immutable, and most moves of a game are picks)."""
    return Pick(player, die)


def play(state: State, action: Action) -> State:
    """Apply one action and return the new state; refuse an illegal one with a reason."""
    if state.over:
        raise GameOver("the game is over")
    if isinstance(action, ChangeRules):
        return action.apply(state)
    player = check_seat(getattr(action, "player", None), state.players, UnknownPlayer)
    if state.out[player]:
        raise PlayerOut(f"player {player} is out of the game and waits for the others to finish")
    if isinstance(action, Pick):
        return _pick(state, action)
    if isinstance(action, Draw):
        return _draw(state, action)
    if isinstance(action, Wild):
        return _wild(state, action)
    raise IllegalAction(f"{type(action).__name__} is not a Colorium action")


def _pick(state: State, action: Pick) -> State:
    player, die, pool = action.player, action.die, state.pool
    if state.phase != "draft":
        raise WrongPhase("the dice have all been picked: it is time to draw")
    if player != state.order[0]:
        raise NotYourTurn(f"it is player {state.order[0]}'s pick, not player {player}'s")
    if isinstance(die, bool) or not isinstance(die, int) or not 0 <= die < len(pool):
        raise BadPick(f"there is no die {die!r}; the pool has {len(pool)}")
    kind, face = pool[die]
    shape, colour = state.picks[player]
    if (kind == "shape" and shape) or (kind == "colour" and colour):
        raise BadPick(f"player {player} already has a {kind} die: take the other kind")
    mine = (face, colour) if kind == "shape" else (shape, face)
    state = evolve(
        state,
        pool=pool[:die] + pool[die + 1 :],
        order=state.order[1:],
        picks=_with(state.picks, player, mine),
        events=(_pick_in_words(player, kind, face),),
    )
    return state if state.order else _settle(state)


@functools.lru_cache(maxsize=256)
def _pick_in_words(player: int, kind: str, face: str) -> str:
    """Say which die a player takes (kept: a game says the same few sentences again and again)."""
    return f"Player {player}: takes the {kind} die {colour_name(face) if kind == 'colour' else face}."


def ready_bonuses(state: State, player: int) -> list[str]:
    """Which bonuses may this player use this round (one entry per ready column)?"""
    marks = state.bonuses[player]
    if not state.rules.bonuses or "ready" not in marks:  # most turns: asked often, so answered quickly
        return []
    return [BONUSES[c] for c, mark in enumerate(marks) if mark == "ready"]


def drawing_colours(state: State, player: int) -> list[str]:
    """In which colours may the player draw now: its die's, then the others with a colour bonus?"""
    colour = state.picks[player][1]
    changes = "colour" in ready_bonuses(state, player)
    return [colour] + ([c for c in state.rules.colours if c != colour] if changes else [])


def pieces(state: State, player: int) -> list[tuple[str, int, str | Shape]]:
    """Which pieces may the player draw now: (die shape, scissors used, the shape or a cut part)?"""
    shape = state.picks[player][0]
    ready = ready_bonuses(state, player)
    if not ready:
        return [(shape, 0, shape)]
    shapes = [shape] + ([s for s in state.rules.shapes if s != shape] if "shape" in ready else [])
    return [
        (letter, cuts, part)
        for letter in shapes
        for cuts in range(ready.count("scissors") + 1)
        for part in (scissors(letter, cuts) if cuts else [letter])
    ]


def acting(state: State) -> list[int]:
    """Who may act now: the next to pick, or everyone still in who has not drawn this round (they draw at once)?"""
    if state.over:
        return []
    if state.phase == "draft":
        return [state.order[0]]
    return [p for p in range(state.players) if not state.drawn[p] and not state.out[p]]


def legal_draws(state: State, player: int) -> list[Draw]:
    """Which drawings may this player make now (with its ready bonuses)?"""
    board, rules = state.boards[player], state.rules
    return [
        _draw_at(place, key)
        for piece, keys in _drawing_pieces(state, player)
        for place in known_placements(board.width, board.height, board.mask, piece, rules.mirror_images, rules.drop)
        for key in keys
    ]


def _drawing_pieces(state: State, player: int) -> list[tuple[str | Shape, list[tuple[int, str, str, int]]]]:
    """The pieces the player may draw now, each with the keys of its drawings: (player, die shape, colour, cuts)."""
    if state.phase != "draw" or state.drawn[player]:
        return []
    colours = drawing_colours(state, player)
    return [
        (piece, [(player, letter, colour, cuts) for colour in colours]) for letter, cuts, piece in pieces(state, player)
    ]


def _draw_at(place: Placement, key: tuple[int, str, str, int]) -> Draw:
    """The Draw of this place for (player, shape, colour, cuts), made the first time and kept with the place.

    A random playout lists every drawing a player may make, at every turn: the same drawings
    come back game after game. The cells are already in order, so they are not sorted again.
    """
    draw = place.drawings.get(key)
    if draw is None:
        player, shape, colour, cuts = key
        draw = place.drawings[key] = draw_in_order(player, shape, colour, place.sorted_cells, cuts)
    return draw


def draw_in_order(player: int, shape: str, colour: str, cells: tuple[tuple[int, int], ...], cuts: int) -> Draw:
    """The Draw of these cells, already in order (as ``Draw`` would sort them): made without sorting them again."""
    draw = object.__new__(Draw)
    draw.__dict__.update(player=player, shape=shape, colour=colour, cells=cells, cuts=cuts)
    return draw


def can_draw(state: State, player: int) -> bool:
    """Can this player draw anything at all this round (using its bonuses if it must)?"""
    board, rules = state.boards[player], state.rules
    if not ready_bonuses(state, player):  # most turns: the die's shape is the only piece
        return len(_resting(board, state.picks[player][0], rules)) > 0
    return any(_resting(board, piece, rules) for _, _, piece in pieces(state, player))


def _resting(board: Board, piece: str | Shape, rules: Rules) -> RestingPlaces:
    """Where can this piece rest on the board (a die letter, or a part as `scissors` makes it: normalised)?"""
    return resting_places(board.width, board.height, board.mask, piece, rules.mirror_images, rules.drop)


def legal_wilds(state: State, player: int) -> list[Wild]:
    """Which wild spaces may this player fill now (none once it is out)?"""
    return [Wild(player, cell, colour) for cell in wild_spaces(state, player) for colour in state.rules.colours]


def wild_spaces(state: State, player: int) -> list[tuple[int, int]]:
    """Which spaces may this player fill with a wild bonus now, row by row (none once it is out)?"""
    if state.phase != "draw" or state.out[player] or "wild" not in ready_bonuses(state, player):
        return []
    return [(r, c) for r, row in enumerate(state.boards[player].rows) for c, char in enumerate(row) if char == EMPTY]


class Choices(Sequence):
    """A list of legal actions, in order, whose actions are made only when looked at.

    A random bot looks at one action of the hundreds a player may have (with a wild bonus,
    every empty space in every colour); ``random.choice`` asks only for the length and the
    one item chosen, so the choice is the same as from the full list, made much faster.
    """

    def __init__(self, blocks: list[tuple[int, Callable[[int], Action]]]):
        self.blocks = blocks  # (how many actions, a function making the k-th of them)
        self.length = sum(size for size, _ in blocks)

    def __len__(self) -> int:
        return self.length

    def __getitem__(self, index: int) -> Action:
        if not 0 <= index < self.length:
            raise IndexError(f"there are {self.length} choices, not {index + 1}")
        for size, make in self.blocks:
            if index < size:
                return make(index)
            index -= size


class Drawings(Sequence):
    """The drawings of one piece in one colour at its resting places, in order, each made when looked at.

    Most drawings use no bonus: then these are all the player's choices, and they are
    looked up more quickly than through the blocks of :class:`Choices`.
    """

    def __init__(self, places: RestingPlaces, key: tuple[int, str, str, int]):
        self.places, self.key = places, key  # key: (player, die shape, colour, cuts)

    def __len__(self) -> int:
        return len(self.places)

    def __getitem__(self, index: int) -> Draw:
        place = self.places[index]
        return _draw_at(place, self.key)


def legal_choices(state: State, player: int) -> Choices | Drawings:
    """The player's drawings, then its wild spaces: ``legal_draws + legal_wilds``, each made when looked at."""
    board, rules = state.boards[player], state.rules
    if state.phase == "draw" and not state.drawn[player] and not ready_bonuses(state, player):
        # Most drawings: no bonus ready, so one piece (the die's shape) in one colour and no wild space.
        shape, colour = state.picks[player]
        return Drawings(_resting(board, shape, rules), (player, shape, colour, 0))
    blocks = [_drawings_at(_resting(board, piece, rules), keys) for piece, keys in _drawing_pieces(state, player)]
    spaces = wild_spaces(state, player)
    if spaces:
        colours = state.rules.colours
        blocks.append(
            (len(spaces) * len(colours), lambda k: Wild(player, spaces[k // len(colours)], colours[k % len(colours)]))
        )
    return Choices(blocks)


def _drawings_at(places: RestingPlaces, keys: list[tuple[int, str, str, int]]) -> tuple[int, Callable[[int], Draw]]:
    """The drawings at these places in these keys, place by place as `legal_draws` lists them: how many, the k-th."""

    def drawing(k: int) -> Draw:
        place, key = places[k // len(keys)], keys[k % len(keys)]
        return _draw_at(place, key)

    return len(places) * len(keys), drawing


def _is_legal(state: State, action: Draw) -> bool:
    """Is this drawing one of the player's legal drawings (checked without listing them all)?"""
    shape, colour = state.picks[action.player]
    if action.shape == shape and action.colour == colour and type(action.cuts) is int and action.cuts == 0:
        # Most drawings spend no bonus: the die's shape in the die's colour, uncut, is legal where it rests.
        return _resting(state.boards[action.player], shape, state.rules).covers(frozenset(action.cells))
    if type(action.cuts) is not int or action.colour not in drawing_colours(state, action.player):
        return False
    cells = frozenset(action.cells)
    board, rules = state.boards[action.player], state.rules
    for letter, cuts, piece in pieces(state, action.player):
        if (letter, cuts) == (action.shape, action.cuts) and _resting(board, piece, rules).covers(cells):
            return True
    return False


def counted_shape(rules: Rules, action: Draw) -> str | None:
    """Which die shape does this drawing add to the player's shapes (a cut part: by the rule cut_counts_as)?"""
    if not action.cuts or rules.cut_counts_as == "die":
        return action.shape
    if rules.cut_counts_as == "none":
        return None
    part = normalise(action.cells)
    return next((letter for letter in rules.shapes if part in orientations(letter)), None)


def _draw(state: State, action: Draw) -> State:
    if state.phase != "draw":
        raise WrongPhase("the dice are still being picked")
    if state.drawn[action.player]:
        raise BadDraw(f"player {action.player} has already drawn this round")
    if not _is_legal(state, action):
        raise BadDraw(_why_not(state, action))
    p = action.player
    shape, colour = state.picks[p]
    spent = ("shape",) * (action.shape != shape) + ("colour",) * (action.colour != colour) + ("scissors",) * action.cuts
    bonuses = state.bonuses[p]
    for name in spent:
        column = next(c for c, mark in enumerate(bonuses) if mark == "ready" and BONUSES[c] == name)
        bonuses = _with(bonuses, column, "used")
    counted = counted_shape(state.rules, action)
    state = evolve(
        state,
        boards=_with(state.boards, p, state.boards[p].filled(action.cells, action.colour, counted)),
        drawn=_with(state.drawn, p, True),
        bonuses=_with(state.bonuses, p, bonuses) if spent else state.bonuses,
        used_shapes=_with(state.used_shapes, p, state.used_shapes[p] | ({counted} if counted else set())),
        used_colours=_with(state.used_colours, p, state.used_colours[p] | {action.colour}),
        events=(_draw_in_words(p, action.shape, action.colour, action.cuts, spent),),
    )
    return _settle(state)


@functools.lru_cache(maxsize=1024)
def _draw_in_words(player: int, shape: str, colour: str, cuts: int, spent: tuple[str, ...]) -> str:
    """Say what a player draws (kept: a game says the same few sentences again and again)."""
    cut = "part of " + "a part of " * (cuts - 1) if cuts else ""
    bonus = f" (bonus: {', '.join(spent)})" if spent else ""
    return f"Player {player}: draws {cut}{shape} in {colour_name(colour)}{bonus}."


def _why_not(state: State, action: Draw) -> str:
    shape, colour = state.picks[action.player]
    if action.shape not in SHAPES or action.colour not in CODES:
        return f"{action.shape!r} in {action.colour!r} is not a shape in a colour"
    if action.shape != shape:
        return f"player {action.player} drafted {shape}, and has no ready shape bonus for {action.shape}"
    if action.colour != colour:
        return (
            f"player {action.player} drafted {colour_name(colour)}, and has no ready colour bonus for "
            f"{colour_name(action.colour)}"
        )
    scissors_ready = ready_bonuses(state, action.player).count("scissors")
    if type(action.cuts) is not int or not 0 <= action.cuts <= scissors_ready:
        return (
            f"player {action.player} has {scissors_ready} scissors bonus(es) ready, "
            f"so it cannot cut {action.cuts!r} times"
        )
    if action.cuts and not scissors(action.shape, action.cuts):
        return f"{action.shape} has no part that needs {action.cuts} cuts: fewer cuts make every part"
    return f"those cells are not a resting place of {action.shape} under the {state.rules.drop} drop rule" + (
        f" (or not a part that {action.cuts} cut(s) make)" if action.cuts else ""
    )


def _wild(state: State, action: Wild) -> State:
    if state.phase != "draw":
        raise WrongPhase("a wild space is filled in the drawing phase")
    p = action.player
    if "wild" not in ready_bonuses(state, p):
        raise BadDraw(f"player {p} has no ready wild bonus")
    column = next(c for c, mark in enumerate(state.bonuses[p]) if mark == "ready" and BONUSES[c] == "wild")
    board = state.boards[p]
    r, c = action.cell
    if not (isinstance(r, int) and isinstance(c, int) and 0 <= r < board.height and 0 <= c < board.width):
        raise BadDraw(f"space {action.cell!r} is not on the board")
    if board.colour(r, c) is not None:
        raise BadDraw(f"the space in row {board.height - r}, column {c + 1} is already filled")
    if not (isinstance(action.colour, str) and len(action.colour) == 1 and action.colour in state.rules.colours):
        raise BadDraw(f"{action.colour!r} is not a colour of this game")
    state = evolve(
        state,
        boards=_with(state.boards, p, board.filled([(r, c)], action.colour)),
        bonuses=_with(state.bonuses, p, _with(state.bonuses[p], column, "used")),
        used_colours=_with(state.used_colours, p, state.used_colours[p] | {action.colour}),
        events=(
            f"Player {p}: fills the space in row {board.height - r}, column {c + 1} with "
            f"{colour_name(action.colour)} (wild bonus).",
        ),
    )
    return _settle(state)


def _settle(state: State) -> State:
    """Put out the players who cannot draw; end the round when everyone has drawn."""
    if state.phase != "draw":
        return state
    for p in range(state.players):
        if not state.drawn[p] and not can_draw(state, p):
            state = evolve(
                state,
                out=_with(state.out, p, True),
                drawn=_with(state.drawn, p, True),
                events=state.events + (f"Player {p}: cannot draw and is out.",),
            )
    return _end_round(state) if all(state.drawn) else state


def _end_round(state: State) -> State:
    """Score the row races, earn the column bonuses, and roll for the next round (or end)."""
    row_points, rows_taken, events = (
        _row_races(state) if state.rules.row_rewards else (state.row_points, state.rows_taken, state.events)
    )
    bonuses = tuple(map(_earned, state.bonuses, state.boards)) if state.rules.bonuses else state.bonuses
    if all(state.out):
        return evolve(
            state,
            rows_taken=rows_taken,
            row_points=row_points,
            bonuses=bonuses,
            over=True,
            order=(),
            pool=(),
            events=events + ("The game is over: no one can draw.",),
        )
    return _start_round(
        state,
        state.round + 1,
        (state.active + 1) % state.players,
        bonuses,
        events,
        rows_taken=rows_taken,
        row_points=row_points,
    )


def _row_races(state: State) -> tuple[tuple, tuple[tuple[int, int], ...], tuple[str, ...]]:
    """Score the rows completed this round: each player's row points, the rows taken, and the events."""
    height = state.rules.height
    newly_full = []
    for board, entries in zip(state.boards, state.row_points):
        rows = board.rows
        full = {row for row, _ in ROW_REWARD_ORDER if row <= height and EMPTY not in rows[height - row]}
        newly_full.append(full - {row for row, _ in entries} if full and entries else full)
    racing = set().union(*newly_full)
    if not racing:  # most rounds: no race row is newly full anywhere
        return state.row_points, state.rows_taken, state.events
    rows_taken = dict(state.rows_taken)
    row_points = list(state.row_points)
    events = state.events
    for row, points in ROW_REWARD_ORDER:
        if row not in racing:
            continue
        rank = rows_taken.get(row, 0)
        finishers = [p for p in range(state.players) if row in newly_full[p]]
        if finishers and rank < len(points):
            for p in finishers:
                row_points[p] = row_points[p] + ((row, points[rank]),)
            each = " each" if len(finishers) > 1 else ""
            events += (
                f"Row {row} is full: {points[rank]} points{each} for {in_words([f'player {p}' for p in finishers])}.",
            )
            rows_taken[row] = rank + 1
    return tuple(row_points), tuple(sorted(rows_taken.items())), events


def _earned(marks: tuple[str, ...], board: Board) -> tuple[str, ...]:
    """A player's bonus marks after the round: the locked bonuses above its full columns are earned."""
    full = board.full_columns()
    if not full:
        return marks
    return tuple("earned" if c in full and mark == "locked" else mark for c, mark in enumerate(marks))


def _with(items: tuple, index: int, value) -> tuple:
    return items[:index] + (value,) + items[index + 1 :]


def score_parts(state: State) -> list[dict[str, int]]:
    """What does each player score, part by part (shapes, colours, rows, each mission)?"""
    return [dict(parts) for parts in _score_parts(*_scored(state))]


def scores(state: State) -> list[int]:
    """How many points has each player, all parts added up?"""
    return list(totals(*_scored(state)))


@keep_last
def totals(rules: Rules, boards, missions, used_shapes, used_colours, row_points) -> tuple[int, ...]:
    """Each player's points, all parts added up, from the fields of a state that decide them (the last asked are
    kept: an observation asks for them at every step, and only drawings change them)."""
    points = [
        _variety(rules, used_shapes[p]) + _variety(rules, used_colours[p]) + sum(points for _, points in row_points[p])
        for p in range(rules.players)
    ]
    for mid in missions:
        for p, mission_points in enumerate(MISSIONS[mid].score(list(boards))):
            points[p] += mission_points
    return tuple(points)


def _variety(rules: Rules, used: frozenset) -> int:
    """The points for shapes (or colours) of many kinds: all six, or five."""
    return rules.all_six_points if len(used) >= 6 else rules.five_points if len(used) == 5 else 0


def _scored(state: State) -> tuple:
    """The fields of a state that its scores depend on (a pick changes none of them)."""
    return state.rules, state.boards, state.missions, state.used_shapes, state.used_colours, state.row_points


@keep_last
def _score_parts(rules: Rules, boards, missions, used_shapes, used_colours, row_points) -> tuple[dict[str, int], ...]:
    """Each player's points, part by part, from the fields that decide them (the last asked are kept: a state is
    scored again and again, and only drawings change them). Not to be changed: :func:`score_parts` copies them."""
    mission_scores = {mid: MISSIONS[mid].score(list(boards)) for mid in missions}
    return tuple(
        {
            "shapes": _variety(rules, used_shapes[p]),
            "colours": _variety(rules, used_colours[p]),
            "rows": sum(points for _, points in row_points[p]),
            **{mid: mission_scores[mid][p] for mid in missions},
        }
        for p in range(rules.players)
    )


def winners(state: State, parts: list[dict[str, int]] | None = None) -> list[int]:
    """Who wins: most points, then fewer empty spaces, then more row points; else shared.

    `parts` are the state's :func:`score_parts`, when already worked out.
    """
    if not state.over:
        return []
    parts = parts or score_parts(state)
    keys = [(sum(part.values()), -state.boards[p].empty_spaces, part["rows"]) for p, part in enumerate(parts)]
    return [p for p, key in enumerate(keys) if key == max(keys)]


def observation(state: State, player: int | None = None) -> dict:
    """What may `player` (None: the room) see, as plain JSON values? Everything on the boards, not the seed."""
    parts = score_parts(state)
    return {
        "game": "colorium",
        "you": player,
        "round": state.round,
        "phase": state.phase,
        "active": state.active,
        "over": state.over,
        "boards": [list(board.rows) for board in state.boards],
        "drawn_shapes": [list(board.drawn) for board in state.boards],
        "pool": [[kind, face] for kind, face in state.pool],
        "order": list(state.order),
        "picks": [list(pick) for pick in state.picks],
        "drawn": list(state.drawn),
        "out": list(state.out),
        "bonuses": [list(marks) for marks in state.bonuses],
        "row_points": [[list(entry) for entry in entries] for entries in state.row_points],
        "missions": [{"id": m, "title": MISSIONS[m].title, "text": MISSIONS[m].text} for m in state.missions],
        "parts": parts,
        "scores": [sum(part.values()) for part in parts],
        "winners": winners(state, parts),
        "events": list(state.events),
    }


def action_to_dict(action: Action) -> dict:
    """Which plain JSON values describe this action?"""
    if isinstance(action, ChangeRules):
        return action.to_dict()
    kind = {Pick: "pick", Draw: "draw", Wild: "wild"}[type(action)]
    fields = dataclasses.asdict(action)
    if "cells" in fields:
        fields["cells"] = [list(cell) for cell in action.cells]
    if "cell" in fields:
        fields["cell"] = list(action.cell)
    return {"type": kind, **fields}


_FIELDS = {
    "pick": (Pick, {"player": int, "die": int}),
    "draw": (Draw, {"player": int, "shape": str, "colour": str, "cells": list, "cuts": int}),
    "wild": (Wild, {"player": int, "cell": list, "colour": str}),
}


def action_from_dict(data: dict) -> Action:
    """Read an action written by :func:`action_to_dict`, refusing anything malformed."""
    kind, values = read_action(_with_cuts(data), _FIELDS)
    pairs = values.get("cells", []) + ([values["cell"]] if "cell" in values else [])
    if not all(isinstance(p, list) and len(p) == 2 and all(type(v) is int for v in p) for p in pairs):
        raise ValueError("cells must be [row, column] pairs of whole numbers")
    if "cells" in values:
        values["cells"] = tuple(tuple(cell) for cell in values["cells"])
    if "cell" in values:
        values["cell"] = tuple(values["cell"])
    return kind(**values)


def _with_cuts(data):
    """A drawing saved before two cuts existed says "cut": true or false; read it as 1 or 0 cuts."""
    if isinstance(data, dict) and data.get("type") == "draw" and "cut" in data and "cuts" not in data:
        cut = data["cut"]
        if type(cut) is not bool:
            raise ValueError(f"cut must be true or false, not {cut!r}")
        return {**{k: v for k, v in data.items() if k != "cut"}, "cuts": int(cut)}
    return data


def outcome(final: State, actions: int, record=None) -> dict:
    """The numbers an experiment keeps about one finished game."""
    empty = [board.empty_spaces for board in final.boards]
    parts = score_parts(final)
    named = {f"score {p} {name}": points for p, part in enumerate(parts) for name, points in part.items()}
    return {
        "scores": [sum(part.values()) for part in parts],
        "winners": winners(final, parts),
        "rounds": final.round,
        "actions": actions,
        "end": "no one can draw",
        "empty spaces": sum(empty) / len(empty),
        **named,
    }
