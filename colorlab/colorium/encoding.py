"""Colorium as numbers: action numbers and observation arrays for game-AI libraries.

Game-AI libraries (OpenSpiel, PettingZoo) want every action as a whole number from
0 to ``action_count(rules) - 1`` and every observation as a fixed-size array. This
module gives both, as pure functions over the model; it imports no such library.

A drawing and a wild space are two decisions each, so that the numbers stay few (436 on
the 8 x 8 board, 516 on the largest): a drawing is first the piece in its colour, then the
space where it goes; a wild space is first the space, then its colour. Between the two
decisions the move is part chosen: the functions below take the numbers chosen so far as
`chosen` (empty at the start of a move), and the player who made the first choice makes
the second. A pick is one number.

Action numbers, in blocks, smallest first (``player`` is never part of a number: it
is the player who acts):

- picks: the die's kind and face, shape faces ``I O T L S V`` then colour faces
  ``R Y G B P O`` (12 numbers). Dice showing the same face are alike, so a pick
  names the face, not the die's place in the pool;
- drawings: (piece, colour). A piece is a die shape, the scissors used and the exact
  cells drawn up to a shift (an orientation of the shape or of one of its cut parts),
  from the list :data:`PIECES`;
- spaces: (row, column), rows from the top. After a drawing, the space is the top left
  corner of the smallest box around the cells drawn; at the start of a move, it is the
  space a wild bonus fills;
- colours, ``R Y G B P O``: the colour of the wild space just chosen.

Who acts: in the draft the next to pick; in the drawing phase every player still in
who has not drawn yet (the players draw at the same time). A wild space is filled
before one's own drawing in this encoding: the model also lets a player who has
drawn fill a wild space while others are still drawing, but numbering that moment
would make a player act after its drawing with nothing that says it is done.

An observation is a flat float32 array, made of the parts that
:func:`observation_layout` names, in that order: what the model's
:func:`~colorlab.colorium.model.observation` shows, read straight from the state. Every
board is open in Colorium; the only thing hidden is the future (the dice of later rounds), which no state holds.
Every number lies from 0 to 1: counts are shares of the most they can be (shapes drawn of
the board's spaces, dice of a face of the players, row points of the largest row reward,
the round of the most rounds a board allows) and scores of SCORE_SCALE points (more shows
as 1: a learner's own mission may score without bound).

Returns: at the end, the win is shared out. A sole winner gets 1, players who share
the win (same points, empty spaces and row points) 1/k each, everyone else 0.
"""

from __future__ import annotations

from collections import Counter
from functools import cache, lru_cache

import numpy

from colorlab.colorium import model
from colorlab.colorium.board import CODES
from colorlab.colorium.missions import TYPES
from colorlab.colorium.model import BONUSES, ROW_REWARDS, Draw, Pick, Wild
from colorlab.colorium.rules import Rules
from colorlab.colorium.shapes import SHAPES, orientations, resting_places, scissors
from colorlab.encoding import (
    block_of,
    flat_shape,
    number_blocks,
    number_table,
    part_slices,
    scaled,
)
from colorlab.rules import IllegalAction, NotYourTurn
from colorlab.state import keep_last

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
    sizes = {"pick": len(FACES), "drawing": len(PIECES) * len(CODES), "space": spaces, "colour": len(CODES)}
    return number_blocks(sizes)


@cache
def _table_for(spaces: int) -> tuple[tuple[str, int], ...]:
    return number_table(_blocks_for(spaces))


def action_count(rules: Rules = Rules()) -> int:
    """How many action numbers are there (0 up to this count, less one)?"""
    return len(_table_for(rules.width * rules.height))


def _space(row: int, column: int, rules: Rules) -> int:
    if not (0 <= row < rules.height and 0 <= column < rules.width):
        raise ValueError(f"space ({row}, {column}) is not on a {rules.width} by {rules.height} board")
    return _blocks(rules)["space"][0] + row * rules.width + column


def numbers_of(action, state) -> tuple[int, ...]:
    """Which numbers, in order, make up this action in this state? A pick is one (for the die of the state's pool it
    names); a drawing two (the piece in its colour, then its top left space); a wild space two (the space, then its
    colour)."""
    rules = state.rules
    blocks = _blocks(rules)
    if isinstance(action, Pick):
        if not 0 <= action.die < len(state.pool):
            raise ValueError(f"a pick names a die by its place in the pool, which has {len(state.pool)} dice")
        return (blocks["pick"][0] + FACES.index(state.pool[action.die]),)
    if isinstance(action, Wild):
        return _space(*action.cell, rules), blocks["colour"][0] + CODES.index(action.colour)
    if isinstance(action, Draw):
        return _draw_numbers(action, rules)
    raise ValueError(f"{type(action).__name__} has no action number")


def _draw_numbers(action: Draw, rules: Rules) -> tuple[int, int]:
    """The numbers of a drawing: its piece in its colour, and its top left space."""
    top = action.cells[0][0]  # a drawing's cells are sorted
    left = min(c for _, c in action.cells)
    piece = PIECE_NUMBER.get((action.shape, action.cuts, frozenset((r - top, c - left) for r, c in action.cells)))
    if piece is None or action.colour not in CODES:
        raise ValueError(
            f"no drawing of {action.shape} with {action.cuts} cut(s) in {action.colour!r} covers {action.cells}"
        )
    return _blocks(rules)["drawing"][0] + piece * len(CODES) + CODES.index(action.colour), _space(top, left, rules)


def _block_of(number: int, rules: Rules) -> tuple[str, int]:
    """Which kind of action is this number, and where in its block does it lie?"""
    return block_of(number, _table_for(rules.width * rules.height))


def _piece_of(offset: int) -> tuple[str, str, frozenset, int]:
    """The die shape, the colour, the cells (up to a shift) and the cuts of a place in the drawing block."""
    piece, colour = divmod(offset, len(CODES))
    letter, cuts, cells = PIECES[piece]
    return letter, CODES[colour], cells, cuts


def _drawing(offset: int, space: int, rules: Rules, player: int) -> Draw:
    """The drawing of a piece (a place in the drawing block) with its top left corner on a space (its place)."""
    piece, colour = divmod(offset, len(CODES))
    letter, cuts, _ = PIECES[piece]
    top, left = divmod(space, rules.width)
    cells = tuple([(top + r, left + c) for r, c in _cells_in_order(piece)])  # still in order, once moved
    return model.draw_in_order(player, letter, CODES[colour], cells, cuts)


@cache
def _cells_in_order(piece: int) -> tuple[tuple[int, int], ...]:
    """A piece's cells (up to a shift), in order."""
    return tuple(sorted(PIECES[piece][2]))


def action_name(number: int, rules: Rules = Rules()) -> str:
    """Say in a few words what this action number does."""
    kind, offset = _block_of(number, rules)
    if kind == "pick":
        return "take the {} die {}".format(*FACES[offset])
    if kind == "drawing":
        letter, colour, cells, cuts = _piece_of(offset)
        cut = f" cut {'x' * cuts}" if cuts else ""
        return f"draw {letter}{cut} in {model.colour_name(colour)}, this way round: {_picture(cells)}"
    if kind == "space":
        row, column = divmod(offset, rules.width)
        return f"space in row {rules.height - row}, column {column + 1}"
    return f"colour it {model.colour_name(CODES[offset])}"


def _picture(cells: frozenset) -> str:
    """A piece's cells as rows of # and . (rows from the top, separated by /)."""
    rows, columns = max(r for r, _ in cells) + 1, max(c for _, c in cells) + 1
    return "/".join("".join("#" if (r, c) in cells else "." for c in range(columns)) for r in range(rows))


def action_words(action, rules: Rules = Rules()) -> str:
    """Say in a few words what this action does (a pick by the die's place in the pool)."""
    if isinstance(action, Pick):
        return f"take die {action.die} of the pool"
    if isinstance(action, Wild):
        row, column = action.cell
        return f"wild: {model.colour_name(action.colour)} in row {rules.height - row}, column {column + 1}"
    spaces = " ".join(f"{rules.height - r}/{c + 1}" for r, c in action.cells)
    cut = f" cut {'x' * action.cuts}" if action.cuts else ""
    return f"draw {action.shape}{cut} in {model.colour_name(action.colour)} on {spaces}"


acting = model.acting  # who may act now: the next to pick, or everyone still in who has not drawn this round


def legal_numbers(state, player: int, chosen: tuple[int, ...] = ()) -> list[int]:
    """Which action numbers may `player` choose now, smallest first? After the first of a move's two numbers
    (`chosen`), the second numbers that finish it."""
    begun = _chosen_kind(chosen, state.rules)
    if state.order and not state.over:  # the draft: the faces of the dice the player may take (a pick is one number)
        if begun or player != state.order[0]:
            return []
        shape, colour = state.picks[player]
        return list(_pick_numbers(state.pool, shape is not None, colour is not None, _blocks(state.rules)["pick"][0]))
    choices = _choices(state, player)
    return list(choices.get(chosen[0], ())) if begun else sorted(choices)


@lru_cache(maxsize=1 << 12)
def _pick_numbers(pool: tuple[tuple[str, str], ...], has_shape: bool, has_colour: bool, first: int) -> tuple[int, ...]:
    """The numbers of the faces in the pool a player may take, smallest first: the dice of a kind the player does not
    have yet (kept: the same pools and picks come back all game). `first`: the pick block's start."""
    return tuple(
        sorted({first + FACE_PLACE[face] for face in pool if not (has_shape if face[0] == "shape" else has_colour)})
    )


@keep_last
def _choices(state, player: int) -> dict[int, tuple[int, ...]]:
    """Each number `player` may begin a drawing or a wild space with now, with the second numbers that may finish it,
    smallest first (the draw phase's: :func:`legal_numbers` answers the draft's picks itself). Worked out from the
    numbers alone, without making the actions: a piece's turns and their spaces on a board are kept
    (:func:`_piece_spaces`), and the last state asked is kept, since a move's two decisions both ask."""
    if player not in acting(state):
        return {}
    rules, blocks = state.rules, _blocks(state.rules)
    board, start = state.boards[player], blocks["drawing"][0]
    if model.ready_bonuses(state, player):  # a wild space may begin a move, and a colour bonus add colours
        colours = _colour_numbers(rules.colours, blocks["colour"][0])
        choices = {_space(r, c, rules): colours for r, c in model.wild_spaces(state, player)}
        hues = [CODE_PLACE[colour] for colour in model.drawing_colours(state, player)]
    else:  # most drawings: no bonus ready, so only the die's colour
        choices, hues = {}, [CODE_PLACE[state.picks[player][1]]]
    for letter, cuts, piece in model.pieces(state, player):
        found = _piece_spaces(
            board.width, board.height, board.mask, piece, rules.mirror_images, rules.drop, letter, cuts
        )
        for index, spaces in found.items():
            for hue in hues:
                number = start + index * len(CODES) + hue
                choices[number] = tuple(sorted({*choices[number], *spaces})) if number in choices else spaces
    return choices


CODE_PLACE = {code: place for place, code in enumerate(CODES)}


@cache
def _colour_numbers(colours: str, first: int) -> tuple[int, ...]:
    """The numbers that colour a wild space, in these rules' colours (`first`: the colour block's start)."""
    return tuple(first + CODE_PLACE[colour] for colour in colours)


def _piece_spaces(
    width: int, height: int, mask: int, piece, mirror_images: bool, drop: str, letter: str, cuts: int
) -> dict[int, tuple[int, ...]]:
    """Where a piece (a die's shape, or one of its cut parts) rests on a board: each of its turns that rests
    somewhere, as its place in :data:`PIECES`, with the space numbers of its top left corners there, smallest first
    (read off the resting places, which are kept per board: not kept again here, as looking the arguments up cost
    more than reading them off)."""
    first_space, turns = _blocks_for(width * height)["space"][0], _turns(letter, cuts, piece, mirror_images)
    resting = resting_places(width, height, mask, piece, mirror_images, drop)
    return {turns[orientation]: spaces for orientation, spaces in resting.corners(first_space).items()}


@cache
def _turns(letter: str, cuts: int, piece, mirror_images: bool) -> tuple[int, ...]:
    """For each turn of a piece (as a placement counts them), its place in :data:`PIECES`."""
    return tuple(PIECE_NUMBER[letter, cuts, image] for image in orientations(piece, mirror_images))


def _chosen_kind(chosen: tuple[int, ...], rules: Rules) -> str:
    """What the part of a move chosen so far begins (a drawing, a wild space), or "" at a move's start."""
    if not chosen:
        return ""
    kind = _block_of(chosen[0], rules)[0] if len(chosen) == 1 else ""
    if kind not in ("drawing", "space"):
        raise ValueError(f"{chosen!r} is not part of a move: only a drawing or a wild space waits for a second number")
    return kind


def action_of(number: int, state, player: int, chosen: tuple[int, ...] = (), legal: list[int] | None = None):
    """Which legal action of `player` do these numbers complete? None when `number` begins a move that waits for its
    second number. Refuse a number that is not legal now, with the rule it breaks. (`legal`: the legal numbers now,
    when the caller has them already.)"""
    rules = state.rules
    kind, offset = _block_of(number, rules)
    begun = _chosen_kind(chosen, rules)
    legal_now = legal is not None and number in legal  # legal numbers are a player's who acts now
    if not legal_now and player not in acting(state):
        raise NotYourTurn(f"player {player} may not act now")
    legal_now = legal_now or number in legal_numbers(state, player, chosen)
    if begun == "drawing":
        if kind != "space":
            raise IllegalAction(f"player {player} chose a piece to draw: the next number is the space where it goes")
        action = _drawing(_block_of(chosen[0], rules)[1], offset, rules, player)
    elif begun == "space":
        if kind != "colour":
            raise IllegalAction(f"player {player} chose a wild space: the next number is its colour")
        action = Wild(player, divmod(_block_of(chosen[0], rules)[1], rules.width), CODES[offset])
    elif kind == "pick":
        face = FACES[offset]
        if face not in state.pool:
            raise model.BadPick(f"no die in the pool shows the {face[0]} {face[1]}")
        action = model.pick_of(player, state.pool.index(face))
    elif kind == "colour":
        raise IllegalAction("a colour number colours the wild space chosen just before it: choose the space first")
    elif legal_now:
        return None
    else:
        _refuse_start(state, player, kind, offset)
    if not legal_now:
        model.play(state, action)  # the model's refusal says which rule the action breaks
        raise IllegalAction(f"action number {number} is not one of player {player}'s choices now")
    return action


def _refuse_start(state, player: int, kind: str, offset: int) -> None:
    """Say why a drawing or a wild space may not begin now: the model's reason, or that the piece fits nowhere."""
    if state.phase != "draw":
        raise model.WrongPhase("the dice are still being picked: drawings and wild spaces come after")
    if kind == "space":
        if "wild" not in model.ready_bonuses(state, player):
            raise model.BadDraw(f"player {player} has no ready wild bonus")
        row, column = divmod(offset, state.rules.width)
        raise model.BadDraw(f"the space in row {state.rules.height - row}, column {column + 1} is already filled")
    letter, colour, cells, cuts = _piece_of(offset)
    dice_allow = colour in model.drawing_colours(state, player) and (letter, cuts) in {
        (shape, cut) for shape, cut, _ in model.pieces(state, player)
    }
    if not dice_allow:
        model.play(state, Draw(player, letter, colour, tuple(cells), cuts))  # the model names the die or bonus wanting
    raise model.BadDraw(
        f"{letter}{' cut' * bool(cuts)} in {model.colour_name(colour)}, turned this way, rests nowhere on the board"
    )


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
        "chosen piece": (len(PIECES),),
        "chosen colour": (len(CODES),),
        "chosen space": (height, width),
    }


def observation_bounds(rules: Rules = Rules()) -> tuple[float, float]:
    """The smallest and largest number an observation holds."""
    return 0.0, 1.0


@cache
def observation_shape(rules: Rules = Rules()) -> tuple[int, ...]:
    """How long is the flat observation array?"""
    return flat_shape(observation_layout(rules))


def observation(state, player: int, chosen: tuple[int, ...] = ()) -> numpy.ndarray:
    """What `player` may see (every board, the dice, the bonuses), as a flat float32 array, with the first half of
    a move `player` has begun, if any (`chosen`: a piece in its colour, or a wild space).

    It reads only what the model's :func:`~colorlab.colorium.model.observation` shows (everything but the seed),
    straight from the state: a learner looks at every step, and the model's view builds much more (mission texts,
    the events). Each board's part is drawn once for its rows (:func:`_colours_of`), and the last state's
    observation is kept for the second decision of a move (only `chosen` differs)."""
    rules = state.rules
    flat = _seen(state, player).copy()
    at = _slices(rules)
    if _chosen_kind(chosen, rules) == "drawing":
        piece, colour = divmod(_block_of(chosen[0], rules)[1], len(CODES))
        flat[at["chosen piece"].start + piece] = flat[at["chosen colour"].start + colour] = 1
    elif chosen:
        flat[at["chosen space"].start + _block_of(chosen[0], rules)[1]] = 1
    return flat


@keep_last
def _seen(state, player: int) -> numpy.ndarray:
    """What `player` sees of this state, with no move begun (read only: the last one is kept).

    A move changes either the boards' side of the table (a drawing) or the dice's (a pick): the boards' side is
    drawn once for its fields (:func:`_table_seen`), and the few numbers of the dice's written on a copy of it."""
    rules, players = state.rules, state.rules.players
    at = _slices(rules)
    flat = _table_seen(
        rules, state.boards, state.drawn, state.out, state.bonuses, state.row_points, state.round, state.missions,
        state.used_shapes, state.used_colours,
    ).copy()  # fmt: skip
    flat[at["you"].start + player] = flat[at["active"].start + state.active] = 1
    flat[at["phase"].start + PHASES.index(state.phase)] = 1
    picked = at["picked"].start
    for p, (shape, colour) in enumerate(state.picks):
        if shape:
            flat[picked + p * len(FACES) + FACE_PLACE["shape", shape]] = 1
        if colour:
            flat[picked + p * len(FACES) + FACE_PLACE["colour", colour]] = 1
    order_at = at["order"].start
    for turn, seat in enumerate(state.order):
        flat[order_at + turn * players + seat] = 1
    pool_at = at["pool"].start
    for face in state.pool:
        flat[pool_at + FACE_PLACE[face]] += 1 / players
    flat.flags.writeable = False
    return flat


@keep_last
def _table_seen(
    rules: Rules, boards, drawn, out, bonuses, row_points, round_: int, missions, used_shapes, used_colours
) -> numpy.ndarray:
    """The observation's parts that only drawings (and the round's end) change: the boards, the shapes drawn, who
    has drawn and who is out, the bonuses, the row points, the scores, the round and the missions."""
    at, spaces = _slices(rules), rules.width * rules.height
    flat = numpy.zeros(observation_shape(rules), numpy.float32)
    board_at, shapes_at, board_size = at["boards"].start, at["shapes drawn"].start, spaces * len(CODES)
    for p, board in enumerate(boards):  # each board's parts are kept with its rows and its shapes drawn
        flat[board_at + p * board_size : board_at + (p + 1) * board_size] = _colours_of(board.rows)
        flat[shapes_at + p * len(LETTERS) : shapes_at + (p + 1) * len(LETTERS)] = _shapes_drawn(board.drawn, spaces)
    bonus_at, bonus_size = at["bonuses"].start, rules.width * len(MARKS)
    ones = [bonus_at + p * bonus_size + place for p, marks in enumerate(bonuses) for place in _bonus_places(marks)]
    rows_at = at["row points"].start
    for p, entries in enumerate(row_points):
        for row, points in entries:
            flat[rows_at + p * len(ROW_REWARDS) + ROW_PLACE[row]] = min(points / MOST_ROW_POINTS, 1.0)
    flat[at["drawn"]], flat[at["out"]] = drawn, out
    score = model.totals(rules, boards, missions, used_shapes, used_colours, row_points)
    flat[at["scores"]] = [min(points / SCORE_SCALE, 1.0) for points in score]
    flat[at["round"].start] = min(round_ / (rules.width * rules.height + 1), 1.0)
    ones += [at["missions"].start + MISSION_PLACE[mission] for mission in missions if mission in MISSION_PLACE]
    flat[ones] = 1
    flat.flags.writeable = False
    return flat


FACE_PLACE = {face: place for place, face in enumerate(FACES)}
MARK_PLACE = {mark: place for place, mark in enumerate(MARKS)}
ROW_PLACE = {row: place for place, row in enumerate(sorted(ROW_REWARDS))}
MISSION_PLACE = {mission: place for place, mission in enumerate(EDITION_MISSIONS)}


@lru_cache(maxsize=1 << 12)
def _shapes_drawn(drawn: tuple[str, ...], spaces: int) -> numpy.ndarray:
    """A board's part of "shapes drawn": each shape's count as a share of the board's spaces (kept: it changes only
    with a drawing on the board)."""
    counts = Counter(drawn)
    part = numpy.array([min(counts[letter] / spaces, 1.0) for letter in LETTERS], numpy.float32)
    part.flags.writeable = False
    return part


@lru_cache(maxsize=1 << 10)
def _bonus_places(marks: tuple[str, ...]) -> tuple[int, ...]:
    """Where one player's bonus marks lie in its share of the observation's "bonuses" part, column by column (kept:
    a few rows of marks come back all game)."""
    return tuple(c * len(MARKS) + MARK_PLACE[mark] for c, mark in enumerate(marks))


@cache
def _slices(rules: Rules) -> dict[str, slice]:
    """Where each part of the observation lies in the flat array (kept per rules: asked at every step)."""
    return part_slices(observation_layout(rules))


_CODE_BYTES = numpy.frombuffer("".join(CODES).encode(), numpy.uint8)


@lru_cache(maxsize=1 << 12)
def _colours_of(rows: tuple[str, ...]) -> numpy.ndarray:
    """A board's spaces as one-hot colours (row, column, colour), flat, kept: boards change only when someone draws."""
    grid = numpy.frombuffer("".join(rows).encode(), numpy.uint8)
    colours = (grid[:, None] == _CODE_BYTES).astype(numpy.float32).ravel()
    colours.flags.writeable = False
    return colours
