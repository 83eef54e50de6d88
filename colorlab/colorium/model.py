"""Colorium as a state and pure transitions.

A round has two phases. In the **draft** the dice rolled for the round are
picked one at a time in snake order: from the active player clockwise to the
last player, who picks twice, then back; each player ends with one shape die
and one colour die. In the **drawing** phase every player still in the game
draws its shape in its colour (players draw at the same time, so the model
takes their :class:`Draw` actions in any order). Bonuses earned by filling a
column may be used from the next round on: change the die's colour or shape,
cut the shape once (scissors), or fill one space anywhere (:class:`Wild`).

A player who cannot draw its shape, even with its bonuses, is out; from the
next round on one shape die and one colour die fewer are rolled. The game ends
when nobody can draw.
"""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

from colorlab.colorium.board import CODES, Board
from colorlab.colorium.missions import MISSIONS, draw_missions
from colorlab.colorium.rules import Rules
from colorlab.colorium.shapes import SHAPES, placements, scissors
from colorlab.record import GameSpec, read_action, register
from colorlab.rules import ChangeRules, GameOver, IllegalAction, NotYourTurn, RuleError, check_seat

DATA = json.loads((Path(__file__).parent / "data" / "board.json").read_text(encoding="utf-8"))
BONUSES: tuple[str, ...] = tuple(DATA["bonuses"])
ROW_REWARDS: dict[int, tuple[int, ...]] = {int(row): tuple(points) for row, points in DATA["row_rewards"].items()}


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


@dataclasses.dataclass(frozen=True)
class Pick:
    """Take die number `die` from the pool."""

    player: int
    die: int


@dataclasses.dataclass(frozen=True)
class Draw:
    """Draw `shape` in `colour` on these cells (row 0 at the top), with bonuses if used."""

    player: int
    shape: str
    colour: str
    cells: tuple[tuple[int, int], ...]
    cut: bool = False

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
        missions = tuple(name.strip() for name in rules.mission_ids.split(",") if name.strip())
        unknown = [name for name in missions if name not in MISSIONS]
        if unknown:
            raise RuleError("mission_ids", rules.mission_ids,
                            f"unknown mission(s) {', '.join(unknown)}; add your own with colorium.add_mission")
    else:
        missions = tuple(m.id for m in draw_missions(random.Random(f"{seed}/missions"), rules.missions))
    n = rules.players
    state = State(rules=rules, seed=seed, missions=missions,
                  boards=tuple(Board.empty(rules.width, rules.height) for _ in range(n)),
                  out=(False,) * n, bonuses=tuple(bonus_row(rules.width) for _ in range(n)),
                  used_shapes=(frozenset(),) * n, used_colours=(frozenset(),) * n,
                  row_points=((),) * n)
    return _start_round(state, 0, ())


def _start_round(state: State, active: int, events: tuple[str, ...]) -> State:
    """Roll one shape die and one colour die per player still in, and set the snake order."""
    seats = [(active + k) % state.players for k in range(state.players)]
    seats = [s for s in seats if not state.out[s]]
    rng = random.Random(f"{state.seed}/round/{state.round}")
    pool = tuple(sorted([("shape", rng.choice(state.rules.shapes)) for _ in seats] +
                        [("colour", rng.choice(state.rules.colours)) for _ in seats]))
    bonuses = tuple(tuple("ready" if b == "earned" else b for b in row) for row in state.bonuses)
    state = dataclasses.replace(
        state, active=active, pool=pool, order=tuple(seats + seats[::-1]),
        picks=((None, None),) * state.players, drawn=tuple(state.out), bonuses=bonuses,
        events=events + (f"Round {state.round}: the dice show {' '.join(face for _, face in pool)}.",))
    return state


def play(state: State, action: Action) -> State:
    """Apply one action and return the new state; refuse an illegal one with a reason."""
    if state.over:
        raise GameOver("the game is over")
    if isinstance(action, ChangeRules):
        return action.apply(state)
    check_seat(getattr(action, "player", None), state.players, UnknownPlayer)
    if isinstance(action, Pick):
        return _pick(state, action)
    if isinstance(action, Draw):
        return _draw(state, action)
    if isinstance(action, Wild):
        return _wild(state, action)
    raise IllegalAction(f"{type(action).__name__} is not a Colorium action")


def _pick(state: State, action: Pick) -> State:
    if state.phase != "draft":
        raise WrongPhase("the dice have all been picked: it is time to draw")
    if action.player != state.order[0]:
        raise NotYourTurn(f"it is player {state.order[0]}'s pick, not player {action.player}'s")
    if isinstance(action.die, bool) or not isinstance(action.die, int) or not 0 <= action.die < len(state.pool):
        raise BadPick(f"there is no die {action.die!r}; the pool has {len(state.pool)}")
    kind, face = state.pool[action.die]
    shape, colour = state.picks[action.player]
    if (kind == "shape" and shape) or (kind == "colour" and colour):
        raise BadPick(f"player {action.player} already has a {kind} die: take the other kind")
    mine = (face, colour) if kind == "shape" else (shape, face)
    pool = state.pool[:action.die] + state.pool[action.die + 1:]
    state = dataclasses.replace(state, pool=pool, order=state.order[1:],
                                picks=_with(state.picks, action.player, mine),
                                events=(f"Player {action.player}: takes the {kind} die {face}.",))
    return _settle(state) if not state.order else state


def ready_bonuses(state: State, player: int) -> set[str]:
    """Which bonuses may this player use this round?"""
    if not state.rules.bonuses:
        return set()
    return {BONUSES[c] for c, mark in enumerate(state.bonuses[player]) if mark == "ready"}


def _choices(state: State, player: int) -> tuple[list[str], list[str], bool]:
    """Which shapes and colours may the player draw now, and may it cut the shape?"""
    shape, colour = state.picks[player]
    ready = ready_bonuses(state, player)
    shapes = [shape] + ([s for s in state.rules.shapes if s != shape] if "shape" in ready else [])
    colours = [colour] + ([c for c in state.rules.colours if c != colour] if "colour" in ready else [])
    return shapes, colours, "scissors" in ready


def legal_draws(state: State, player: int) -> list[Draw]:
    """Which drawings may this player make now (with its ready bonuses)?"""
    if state.phase != "draw" or state.drawn[player]:
        return []
    board, rules = state.boards[player], state.rules
    shapes, colours, cut = _choices(state, player)
    found = []
    for letter in shapes:
        for place in placements(board, letter, rules):
            found += [Draw(player, letter, c, tuple(place.cells)) for c in colours]
        if cut:
            for part in scissors(letter):
                for place in placements(board, part, rules):
                    found += [Draw(player, letter, c, tuple(place.cells), cut=True) for c in colours]
    return found


def can_draw(state: State, player: int) -> bool:
    """Can this player draw anything at all this round (using its bonuses if it must)?"""
    board, rules = state.boards[player], state.rules
    shapes, _, cut = _choices(state, player)
    return any(placements(board, letter, rules) or
               (cut and any(placements(board, part, rules) for part in scissors(letter)))
               for letter in shapes)


def _is_legal(state: State, action: Draw) -> bool:
    """Is this drawing one of the player's legal drawings (checked without listing them all)?"""
    shapes, colours, cut = _choices(state, action.player)
    if action.shape not in shapes or action.colour not in colours or (action.cut and not cut):
        return False
    cells = frozenset(action.cells)
    board, rules = state.boards[action.player], state.rules
    pieces = scissors(action.shape) if action.cut else [action.shape]
    return any(place.cells == cells for piece in pieces for place in placements(board, piece, rules))


def _draw(state: State, action: Draw) -> State:
    if state.phase != "draw":
        raise WrongPhase("the dice are still being picked")
    if state.drawn[action.player]:
        raise BadDraw(f"player {action.player} has already drawn this round (or is out)")
    if not _is_legal(state, action):
        raise BadDraw(_why_not(state, action))
    shape, colour = state.picks[action.player]
    spent = []
    if action.shape != shape:
        spent.append("shape")
    if action.colour != colour:
        spent.append("colour")
    if action.cut:
        spent.append("scissors")
    bonuses = state.bonuses[action.player]
    for name in spent:
        column = next(c for c, mark in enumerate(bonuses) if mark == "ready" and BONUSES[c] == name)
        bonuses = _with(bonuses, column, "used")
    board = state.boards[action.player].filled(action.cells, action.colour, action.shape)
    p = action.player
    state = dataclasses.replace(
        state, boards=_with(state.boards, p, board), drawn=_with(state.drawn, p, True),
        bonuses=_with(state.bonuses, p, bonuses),
        used_shapes=_with(state.used_shapes, p, state.used_shapes[p] | {action.shape}),
        used_colours=_with(state.used_colours, p, state.used_colours[p] | {action.colour}),
        events=(f"Player {p}: draws {'part of ' if action.cut else ''}{action.shape} in {action.colour}"
                f"{' (bonus: ' + ', '.join(spent) + ')' if spent else ''}.",))
    return _settle(state)


def _why_not(state: State, action: Draw) -> str:
    shape, colour = state.picks[action.player]
    if action.shape not in SHAPES or action.colour not in CODES:
        return f"{action.shape!r} in {action.colour!r} is not a shape in a colour"
    if action.shape != shape:
        return f"player {action.player} drafted {shape}, and has no ready shape bonus for {action.shape}"
    if action.colour != colour:
        return f"player {action.player} drafted {colour}, and has no ready colour bonus for {action.colour}"
    return (f"those cells are not a resting place of {action.shape} under the {state.rules.drop} drop rule"
            + (" (or the cut part is not one the scissors allow)" if action.cut else ""))


def _wild(state: State, action: Wild) -> State:
    if state.phase != "draw":
        raise WrongPhase("a wild space is filled in the drawing phase")
    p = action.player
    column = next((c for c, mark in enumerate(state.bonuses[p]) if mark == "ready" and BONUSES[c] == "wild"), None)
    if column is None or not state.rules.bonuses:
        raise BadDraw(f"player {p} has no ready wild bonus")
    board = state.boards[p]
    r, c = action.cell
    if not (isinstance(r, int) and isinstance(c, int) and 0 <= r < board.height and 0 <= c < board.width):
        raise BadDraw(f"space {action.cell!r} is not on the board")
    if board.colour(r, c) is not None:
        raise BadDraw(f"space {action.cell} is already filled")
    if action.colour not in state.rules.colours:
        raise BadDraw(f"{action.colour!r} is not a colour of this game")
    state = dataclasses.replace(
        state, boards=_with(state.boards, p, board.filled([(r, c)], action.colour)),
        bonuses=_with(state.bonuses, p, _with(state.bonuses[p], column, "used")),
        used_colours=_with(state.used_colours, p, state.used_colours[p] | {action.colour}),
        events=(f"Player {p}: fills space {action.cell} with {action.colour} (wild).",))
    return _settle(state)


def _settle(state: State) -> State:
    """Put out the players who cannot draw; end the round when everyone has drawn."""
    if state.phase != "draw":
        return state
    events = state.events
    for p in range(state.players):
        if not state.drawn[p] and not can_draw(state, p):
            state = dataclasses.replace(state, out=_with(state.out, p, True), drawn=_with(state.drawn, p, True))
            events += (f"Player {p}: cannot draw and is out.",)
    if not all(state.drawn):
        return dataclasses.replace(state, events=events)
    return _end_round(dataclasses.replace(state, events=events))


def _end_round(state: State) -> State:
    """Score the row races, earn the column bonuses, and roll for the next round (or end)."""
    rows_taken = dict(state.rows_taken)
    row_points = list(state.row_points)
    events = state.events
    if state.rules.row_rewards:
        for row, points in sorted(ROW_REWARDS.items()):
            if row > state.rules.height:
                continue
            rank = rows_taken.get(row, 0)
            finishers = [p for p in range(state.players)
                         if row in state.boards[p].full_rows() and all(r != row for r, _ in row_points[p])]
            if finishers and rank < len(points):
                for p in finishers:
                    row_points[p] = row_points[p] + ((row, points[rank]),)
                events += (f"Row {row}: player(s) {', '.join(map(str, finishers))} score {points[rank]}.",)
                rows_taken[row] = rank + 1
    bonuses = list(state.bonuses)
    if state.rules.bonuses:
        for p in range(state.players):
            full = set(state.boards[p].full_columns())
            bonuses[p] = tuple("earned" if c in full and mark == "locked" else mark
                               for c, mark in enumerate(bonuses[p]))
    state = dataclasses.replace(state, rows_taken=tuple(sorted(rows_taken.items())), row_points=tuple(row_points),
                                bonuses=tuple(bonuses), events=events)
    if all(state.out):
        return dataclasses.replace(state, over=True, order=(), pool=(),
                                   events=events + ("The game is over: no one can draw.",))
    state = dataclasses.replace(state, round=state.round + 1)
    return _settle(_start_round(state, (state.active + 1) % state.players, events))


def _with(items: tuple, index: int, value) -> tuple:
    return items[:index] + (value,) + items[index + 1:]


def score_parts(state: State) -> list[dict[str, int]]:
    """What does each player score, part by part (shapes, colours, rows, each mission)?"""
    rules = state.rules

    def variety(used: frozenset) -> int:
        return rules.all_six_points if len(used) >= 6 else rules.five_points if len(used) == 5 else 0

    mission_scores = {mid: MISSIONS[mid].score(list(state.boards)) for mid in state.missions}
    return [{"shapes": variety(state.used_shapes[p]), "colours": variety(state.used_colours[p]),
             "rows": sum(points for _, points in state.row_points[p]),
             **{mid: mission_scores[mid][p] for mid in state.missions}}
            for p in range(state.players)]


def scores(state: State) -> list[int]:
    """How many points has each player, all parts added up?"""
    return [sum(parts.values()) for parts in score_parts(state)]


def winners(state: State) -> list[int]:
    """Who wins: most points, then fewer empty spaces, then more row points; else shared."""
    if not state.over:
        return []
    parts = score_parts(state)
    keys = [(sum(part.values()), -state.boards[p].empty_spaces, part["rows"]) for p, part in enumerate(parts)]
    return [p for p, key in enumerate(keys) if key == max(keys)]


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


_FIELDS = {"pick": (Pick, {"player": int, "die": int}),
           "draw": (Draw, {"player": int, "shape": str, "colour": str, "cells": list, "cut": bool}),
           "wild": (Wild, {"player": int, "cell": list, "colour": str})}


def action_from_dict(data: dict) -> Action:
    """Read an action written by :func:`action_to_dict`, refusing anything malformed."""
    kind, values = read_action(data, _FIELDS)
    pairs = values.get("cells", []) + ([values["cell"]] if "cell" in values else [])
    if not all(isinstance(p, list) and len(p) == 2 and all(type(v) is int for v in p) for p in pairs):
        raise ValueError("cells must be [row, column] pairs of whole numbers")
    if "cells" in values:
        values["cells"] = tuple(tuple(cell) for cell in values["cells"])
    if "cell" in values:
        values["cell"] = tuple(values["cell"])
    return kind(**values)


GAME = register(GameSpec("colorium", Rules, new_game, play, action_from_dict, action_to_dict))


def outcome(final: State, actions: int, record=None) -> dict:
    """The numbers an experiment keeps about one finished game."""
    empty = [board.empty_spaces for board in final.boards]
    parts = {f"score {p} {name}": points for p, part in enumerate(score_parts(final)) for name, points in part.items()}
    return {"scores": scores(final), "winners": winners(final), "rounds": final.round, "actions": actions,
            "end": "no one can draw", "empty spaces": sum(empty) / len(empty), **parts}
