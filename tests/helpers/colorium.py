"""Colorium as several tests check it: its invariants after every action, and resting places found the slow way.

The invariants are checked by its model tests and by the tables' workers. The resting places are found
the slow, plain way, to check the fast search (and the model's draws) against.
"""

from __future__ import annotations

from collections import deque

from colorlab.colorium.board import EMPTY, Board
from colorlab.colorium.model import BONUSES, Draw, Pick, Wild, legal_draws, legal_wilds, score_parts, scores, winners
from colorlab.colorium.shapes import orientations, scissors
from colorlab.symmetry import normalise


def fits(board, image, row, col):
    """Do the image's cells at this position lie between the walls, above the floor, on empty spaces?"""
    return all(
        0 <= col + dc < board.width
        and row + dr < board.height
        and (row + dr < 0 or board.rows[row + dr][col + dc] == ".")
        for dr, dc in image
    )


def reference_placements(board, shape, rules):
    """Find the resting places the slow, plain way: walk positions, test each cell on the board."""
    found = []
    for k, image in enumerate(orientations(shape, rules.mirror_images)):
        tall = 1 + max(r for r, _ in image)
        wide = 1 + max(c for _, c in image)
        if rules.drop == "straight":
            ends = []
            for col in range(board.width - wide + 1):
                row = -tall
                while fits(board, image, row + 1, col):
                    row += 1
                ends.append((row, col))
        else:
            ends = {(-tall, col) for col in range(board.width - wide + 1)}
            queue = deque(ends)
            while queue:
                row, col = queue.popleft()
                for step in [(row + 1, col), (row, col - 1), (row, col + 1)]:
                    if step not in ends and fits(board, image, *step):
                        ends.add(step)
                        queue.append(step)
        for row, col in ends:
            if row >= 0 and not fits(board, image, row + 1, col):
                found.append((k, frozenset((row + dr, col + dc) for dr, dc in image)))
    return sorted(found, key=lambda found: (found[0], sorted(found[1])))


ORDER = {"none": 0, "locked": 0, "earned": 1, "ready": 2, "used": 3}


def supported(board: Board, cells) -> bool:
    """Does at least one cell stand on the bottom row or on a filled space?"""
    return any(r == board.height - 1 or board.colour(r + 1, c) is not None for r, c in cells)


def check_invariants(state):
    for p, board in enumerate(state.boards):
        filled = sum(char != EMPTY for row in board.rows for char in row)
        assert state.used_shapes[p] == set(board.drawn)
        assert state.used_colours[p] >= {char for row in board.rows for char in row if char != EMPTY}
        assert filled >= len(board.drawn), "a drawing left no mark"
        assert all(mark in ORDER for mark in state.bonuses[p])
        afresh = Board(board.rows)  # what a board made by filling another keeps equals what its rows say
        assert (board.mask, board.hues) == (afresh.mask, afresh.hues), "a board's kept spaces differ from its rows"
    if state.phase == "draft":
        dice = len(state.pool) + sum((s is not None) + (c is not None) for s, c in state.picks)
        assert dice == 2 * sum(not out for out in state.out), "dice lost or doubled"
    for shape, colour in state.picks:
        assert shape is None or shape in state.rules.shapes
        assert colour is None or colour in state.rules.colours
    if state.over:
        assert all(state.out) and winners(state)
    for p in range(state.players):
        if state.out[p]:
            assert legal_draws(state, p) == [] and legal_wilds(state, p) == [], "an out player is offered an action"
    assert scores(state) == [sum(parts.values()) for parts in score_parts(state)]


def check_counted_shape(rules, draw, before, after):
    """Did the drawing add the shape the rule cut_counts_as names (a cut part: die, part or none)?"""
    added = after.drawn[len(before.drawn) :]
    if not draw.cuts or rules.cut_counts_as == "die":
        assert added == (draw.shape,)
    elif rules.cut_counts_as == "none":
        assert added == ()
    else:
        alike = [letter for letter in rules.shapes if normalise(draw.cells) in orientations(letter)]
        assert added == tuple(alike)


def check_step(before, action, after):
    for p in range(before.players):
        for column, (old, new) in enumerate(zip(before.bonuses[p], after.bonuses[p])):
            assert ORDER[new] >= ORDER[old], f"the bonus of column {column} of player {p} went back"
            assert (old == "none") == (new == "none") == (column >= len(BONUSES)), "a bonus beyond the printed row"
    if isinstance(action, Draw):
        board = before.boards[action.player]
        assert all(board.colour(r, c) is None for r, c in action.cells), "a drawing overlaps"
        assert supported(board, action.cells), "a drawing floats"
        pieces = scissors(action.shape, action.cuts) if action.cuts else [action.shape]
        reachable = {cells for piece in pieces for _, cells in reference_placements(board, piece, before.rules)}
        assert frozenset(action.cells) in reachable, "a drawing is not a resting place under the drop rule"
        used = sum(
            old != new and new == "used"
            for old, new in zip(before.bonuses[action.player], after.bonuses[action.player])
        )
        shape, colour = before.picks[action.player]
        assert used == (action.shape != shape) + (action.colour != colour) + action.cuts
        assert not before.out[action.player]
        check_counted_shape(before.rules, action, board, after.boards[action.player])
    if isinstance(action, Wild):
        p = action.player
        assert not before.out[p] and before.boards[p].colour(*action.cell) is None
        assert after.boards[p].empty_spaces == before.boards[p].empty_spaces - 1
        spent = [BONUSES[c] for c, (old, new) in enumerate(zip(before.bonuses[p], after.bonuses[p])) if old != new]
        assert spent == ["wild"]
    if isinstance(action, Pick):
        assert len(after.pool) in (len(before.pool) - 1, len(after.pool))
