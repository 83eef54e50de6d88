"""Tests for colorlab.colorium.shapes: the die's shapes, orientations, resting places, cuts."""

import dataclasses
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from colorlab.colorium import shapes
from colorlab.colorium.board import Board
from colorlab.colorium.rules import Rules
from colorlab.colorium.shapes import (
    SHAPES,
    is_connected,
    orientations,
    placements,
    placements_lazily,
    read_picture,
    resting_cells,
    scissors,
    shape_cells,
)
from colorlab.symmetry import normalise, render_shape, shape_images
from tests.helpers.colorium import reference_placements
from tests.helpers.examples import examples

SLIDE = Rules()
STRAIGHT = Rules(drop="straight")
DROPS = [SLIDE, STRAIGHT]

ORIENTATIONS = {"I": 2, "O": 1, "T": 4, "L": 8, "S": 4, "V": 4}
TURNS_ONLY = {"I": 2, "O": 1, "T": 4, "L": 4, "S": 2, "V": 4}


def summary(found):
    """Each placement as (orientation, cells), to compare with the reference."""
    return [(place.orientation, place.cells) for place in found]


def touches_bottom(place, board):
    """Does some cell lie on the bottom row?"""
    return any(r == board.height - 1 for r, _ in place.cells)


def is_supported(place, board):
    """Does some cell stand on the bottom row or directly on a filled space?"""
    return any(r == board.height - 1 or board.rows[r + 1][c] != "." for r, c in place.cells)


@st.composite
def boards(draw):
    """A board filled from the bottom to random column heights, then with a few spaces flipped."""
    width = draw(st.integers(4, 10))
    height = draw(st.integers(4, 10))
    heights = draw(st.lists(st.integers(0, height), min_size=width, max_size=width))
    grid = [["." if row < height - heights[col] else "R" for col in range(width)] for row in range(height)]
    flips = draw(st.lists(st.tuples(st.integers(0, height - 1), st.integers(0, width - 1)), max_size=8))
    for row, col in flips:
        grid[row][col] = "B" if grid[row][col] == "." else "."
    return Board(tuple("".join(row) for row in grid))


# Shapes and orientations


def test_the_die_has_the_six_faces_of_the_edition():
    assert list(SHAPES) == list("IOTLSV")
    assert set(Rules().shapes) <= set(SHAPES)
    assert {letter: len(cells) for letter, cells in SHAPES.items()} == {"I": 4, "O": 4, "T": 4, "L": 4, "S": 4, "V": 3}
    for cells in SHAPES.values():
        assert is_connected(cells)
        assert normalise(cells) == cells


def test_the_pictures_in_the_data_file():
    assert render_shape(SHAPES["T"]) == "###\n.#."
    assert render_shape(SHAPES["S"]) == ".##\n##."
    assert render_shape(SHAPES["L"]) == "#.\n#.\n##"


@pytest.mark.parametrize("letter, count", ORIENTATIONS.items())
def test_orientation_counts_with_mirror_images(letter, count):
    assert len(orientations(letter)) == count


@pytest.mark.parametrize("letter, count", TURNS_ONLY.items())
def test_orientation_counts_without_mirror_images(letter, count):
    assert len(orientations(letter, mirror_images=False)) == count


@pytest.mark.parametrize("letter", SHAPES)
def test_orientations_are_the_distinct_normalised_images_in_a_fixed_order(letter):
    images = orientations(letter)
    assert images == shape_images(SHAPES[letter], "dihedral")
    assert len(set(images)) == len(images)
    assert all(normalise(image) == image for image in images)
    assert set(orientations(letter, mirror_images=False)) <= set(images)
    assert orientations(letter) == images


def test_orientations_of_cells_anywhere_are_those_of_the_shape():
    assert orientations({(4, 7), (5, 7), (5, 8)}) == orientations("V")


def test_the_orientation_lists_are_fresh_copies():
    orientations("L").clear()
    assert len(orientations("L")) == 8


def test_a_picture_must_be_rectangular_and_of_cells_and_gaps():
    assert read_picture(["##", "#."]) == {(0, 0), (0, 1), (1, 0)}
    with pytest.raises(ValueError, match="one length"):
        read_picture(["##", "#"])
    with pytest.raises(ValueError, match="'#'"):
        read_picture(["#x"])


@pytest.mark.parametrize(
    "picture, message", [(["##", ".."], "no blank row or column"), (["#.", ".#"], "connected"), (["#x"], "'#'")]
)
def test_the_data_file_is_checked_when_it_is_loaded(tmp_path, monkeypatch, picture, message):
    path = tmp_path / "shapes.json"
    path.write_text(json.dumps({"shapes": {"X": picture}}), encoding="utf-8")
    monkeypatch.setattr(shapes, "SHAPES_FILE", path)
    with pytest.raises(ValueError, match=message):
        shapes._load_shapes()


def test_unknown_or_broken_shapes_are_refused():
    with pytest.raises(ValueError, match="unknown shape 'Z'"):
        shape_cells("Z")
    with pytest.raises(ValueError, match="connected"):
        shape_cells({(0, 0), (1, 1)})
    with pytest.raises(ValueError, match="connected"):
        orientations(set())
    with pytest.raises(ValueError, match="unknown shape"):
        placements(Board.empty(), "Q")


# Placements on hand-drawn boards


@pytest.mark.parametrize("rules", DROPS)
@pytest.mark.parametrize("letter", SHAPES)
def test_on_an_empty_board_every_placement_touches_the_bottom_row(letter, rules):
    board = Board.empty()
    found = placements(board, letter, rules)
    assert found
    assert all(touches_bottom(place, board) for place in found)
    assert summary(found) == summary(placements(board, letter, SLIDE))


@pytest.mark.parametrize("rules", DROPS)
def test_placement_counts_on_an_empty_board(rules):
    board = Board.empty()
    assert len(placements(board, "I", rules)) == 5 + 8
    assert len(placements(board, "O", rules)) == 7
    assert len(placements(board, "L", rules)) == 4 * 7 + 4 * 6
    assert len(placements(board, "L", dataclasses.replace(rules, mirror_images=False))) == 2 * 7 + 2 * 6


OVERHANG = Board.parse("""
    ......
    RRRR..
    ......
    ......
""")


def test_a_shape_slides_under_an_overhang():
    under = {frozenset({(2, c), (2, c + 1), (3, c), (3, c + 1)}) for c in range(3)}
    slide = {place.cells for place in placements(OVERHANG, "O")}
    straight = {place.cells for place in placements(OVERHANG, "O", STRAIGHT)}
    assert under <= slide
    assert not under & straight
    assert straight == {frozenset({(2, 4), (2, 5), (3, 4), (3, 5)})}


def test_the_long_bar_is_too_long_to_come_down_the_opening_beside_the_overhang():
    found = {place.cells for place in placements(OVERHANG, "I")}
    assert frozenset({(3, 0), (3, 1), (3, 2), (3, 3)}) not in found
    assert found == {
        frozenset({(0, 0), (0, 1), (0, 2), (0, 3)}),
        frozenset({(0, 1), (0, 2), (0, 3), (0, 4)}),
        frozenset({(0, 2), (0, 3), (0, 4), (0, 5)}),
        frozenset({(0, 4), (1, 4), (2, 4), (3, 4)}),
        frozenset({(0, 5), (1, 5), (2, 5), (3, 5)}),
    }


NARROW_GAP = Board.parse("""
    .....
    RR.RR
    .....
    .....
    .....
    .....
""")


@pytest.mark.parametrize("letter", "OTLSV")
def test_a_wide_shape_cannot_squeeze_through_a_narrow_gap(letter):
    """Below the ledge a shape may only reach into the gap's column, hanging from above."""
    for rules in DROPS:
        for place in placements(NARROW_GAP, letter, rules):
            assert all(c == 2 for r, c in place.cells if r >= 2)


def test_the_upright_bar_passes_the_gap_and_then_slides_sideways():
    column = {place.cells for place in placements(NARROW_GAP, "I")}
    assert frozenset({(2, 2), (3, 2), (4, 2), (5, 2)}) in column
    assert frozenset({(2, 0), (3, 0), (4, 0), (5, 0)}) in column
    straight = {place.cells for place in placements(NARROW_GAP, "I", STRAIGHT)}
    assert frozenset({(2, 0), (3, 0), (4, 0), (5, 0)}) not in straight
    assert placements(NARROW_GAP, "O") == []


def test_a_shape_that_would_stop_above_the_top_cannot_be_drawn():
    board = Board.parse("""
        .R..
        .R..
        RRRR
    """)
    for rules in DROPS:
        assert placements(board, "I", rules) == []
        assert [sorted(place.cells) for place in placements(board, "O", rules)] == [[(0, 2), (0, 3), (1, 2), (1, 3)]]


def test_a_full_board_has_no_placements():
    board = Board(("RRRR",) * 4)
    for letter in SHAPES:
        for rules in DROPS:
            assert placements(board, letter, rules) == []


def test_a_shape_larger_than_the_board_only_fits_the_way_it_can():
    board = Board.empty(width=5, height=3)
    assert {len({c for _, c in place.cells}) for place in placements(board, "I")} == {4}
    assert placements(Board.empty(width=3, height=3), "I") == []


def test_placements_of_a_shape_given_as_cells():
    domino = {(7, 1), (7, 2)}
    found = placements(Board.empty(width=4, height=4), domino)
    assert len(found) == 3 + 4
    assert {place.shape for place in found} == {frozenset({(0, 0), (0, 1)})}


def test_a_placement_names_its_shape_orientation_and_cells():
    place = placements(Board.empty(width=4, height=4), "T", STRAIGHT)[0]
    assert place.shape == "T"
    assert normalise(place.cells) == orientations("T")[place.orientation]
    assert place.mask == sum(1 << (r * 4 + c) for r, c in place.cells)
    with pytest.raises(dataclasses.FrozenInstanceError):
        place.orientation = 3


def test_placements_without_mirror_images_use_the_turns_only():
    rules = dataclasses.replace(STRAIGHT, mirror_images=False)
    found = placements(Board.empty(), "S", rules)
    images = orientations("S", mirror_images=False)
    assert {normalise(place.cells) for place in found} == set(images)
    assert all(normalise(place.cells) == images[place.orientation] for place in found)


# Invariants on random boards, and the slow reference


@settings(max_examples=examples(300), deadline=None)
@given(boards(), st.sampled_from(sorted(SHAPES)), st.sampled_from(DROPS), st.booleans())
def test_placements_match_the_slow_reference(board, letter, rules, mirror_images):
    rules = dataclasses.replace(rules, mirror_images=mirror_images)
    assert summary(placements(board, letter, rules)) == reference_placements(board, letter, rules)


@settings(max_examples=examples(200), deadline=None)
@given(boards(), st.sampled_from(sorted(SHAPES)), st.sampled_from(DROPS))
def test_every_placement_is_on_empty_spaces_supported_and_sorted(board, letter, rules):
    found = placements(board, letter, rules)
    images = orientations(letter)
    for place in found:
        assert place.shape == letter
        assert normalise(place.cells) == images[place.orientation]
        assert all(0 <= r < board.height and 0 <= c < board.width for r, c in place.cells)
        assert place.mask & board.mask == 0
        assert place.mask == sum(1 << (r * board.width + c) for r, c in place.cells)
        assert is_supported(place, board)
        board.filled(place.cells, "Y", letter)
    assert found == sorted(found, key=lambda place: (place.orientation, sorted(place.cells)))
    assert len(set(found)) == len(found)


@settings(max_examples=examples(200), deadline=None)
@given(boards(), st.sampled_from(sorted(SHAPES)))
def test_every_straight_landing_is_a_slide_resting_place(board, letter):
    straight = placements(board, letter, STRAIGHT)
    assert set(straight) <= set(placements(board, letter, SLIDE))
    columns = [(place.orientation, min(c for _, c in place.cells)) for place in straight]
    assert len(set(columns)) == len(columns)


def every_position(board, shape, mirror_images):
    """The cells of the shape at every position of every orientation, on and off the board and overlapping."""
    return {
        frozenset((row + dr, col + dc) for dr, dc in image)
        for image in orientations(shape, mirror_images)
        for row in range(-2, board.height + 1)
        for col in range(-2, board.width + 1)
    }


@settings(max_examples=examples(200), deadline=None)
@given(boards(), st.sampled_from(sorted(SHAPES)), st.sampled_from(DROPS), st.booleans(), st.integers(0, 2))
def test_lazy_placements_cover_exactly_the_resting_places_of_the_slow_reference(
    board, letter, rules, mirror_images, cuts
):
    rules = dataclasses.replace(rules, mirror_images=mirror_images)
    for piece in scissors(letter, cuts) if cuts else [letter]:
        reachable = {cells for _, cells in reference_placements(board, piece, rules)}
        assert resting_cells(board, piece, rules) == reachable
        for cells in every_position(board, piece, mirror_images) | {frozenset(), frozenset({(0, 0), (9, 9)})}:
            assert placements_lazily(board, piece, rules).covers(cells) == (cells in reachable)


@settings(max_examples=examples(200), deadline=None)
@given(boards(), st.sampled_from(sorted(SHAPES)), st.sampled_from(DROPS), st.booleans())
def test_lazy_placements_are_the_placements_one_by_one(board, letter, rules, mirror_images):
    rules = dataclasses.replace(rules, mirror_images=mirror_images)
    found, lazy = placements(board, letter, rules), placements_lazily(board, letter, rules)
    assert len(lazy) == len(found) and bool(lazy) == bool(found)
    assert [lazy[n] for n in range(len(lazy))] == list(lazy) == found
    with pytest.raises(IndexError):
        lazy[len(found)]


@settings(max_examples=examples(200), deadline=None)
@given(boards(), st.lists(st.tuples(st.integers(0, 9), st.integers(0, 9)), max_size=12))
def test_a_boards_full_rows_and_columns_are_those_without_an_empty_space(board, fills):
    cells = {(r, c) for r, c in fills if r < board.height and c < board.width and board.colour(r, c) is None}
    for grid in (board, board.filled(cells, "G"), Board(board.filled(cells, "G").rows)):
        columns = ["".join(row[c] for row in grid.rows) for c in range(grid.width)]
        assert grid.full_columns() == [c for c, column in enumerate(columns) if "." not in column]
        assert grid.full_rows() == [grid.height - r for r, row in enumerate(grid.rows) if "." not in row]


# Scissors


def test_scissors_cut_the_square_into_two_equal_dominoes_listed_once():
    assert scissors("O") == [frozenset({(0, 0), (0, 1)})]


def test_scissors_cut_the_bar_into_bars_of_one_to_three():
    assert scissors("I") == [frozenset((0, c) for c in range(n)) for n in (1, 2, 3)]


def test_scissors_cut_the_other_shapes():
    def drawn(letter, cuts=1):
        return [render_shape(part).split() for part in scissors(letter, cuts)]

    assert drawn("T") == [["#"], ["###"], ["##", "#."]]
    assert drawn("L") == [["#"], ["##"], ["###"], ["##", "#."]]
    assert drawn("S") == [["#"], ["##"], ["##", "#."]]
    assert drawn("V") == [["#"], ["##"]]
    assert drawn("O", 2) == [["#"]] and drawn("T", 2) == [["##"]]
    assert all(drawn(letter, 2) == [] for letter in "ILSV") and all(drawn(letter, 3) == [] for letter in SHAPES)


def brute_force_parts(cells, cuts: int) -> set:
    """Every part that `cuts` straight cuts in a row can leave, each cut keeping one connected side, up to turning."""
    if cuts == 0:
        return {frozenset(cells)}
    found = set()
    for piece in brute_force_parts(cells, cuts - 1):
        for axis in (0, 1):
            for line in range(min(c[axis] for c in piece) + 1, max(c[axis] for c in piece) + 1):
                for side in ({c for c in piece if c[axis] < line}, {c for c in piece if c[axis] >= line}):
                    if is_connected(side):
                        found.add(frozenset(side))
    return found


def up_to_turning(parts) -> set:
    return {min(orientations(part, mirror_images=False), key=sorted) for part in parts}


@pytest.mark.parametrize("letter", SHAPES)
def test_two_cuts_give_what_a_second_cut_of_a_first_part_gives_and_one_cut_cannot(letter):
    once = up_to_turning(brute_force_parts(SHAPES[letter], 1))
    twice = up_to_turning(brute_force_parts(SHAPES[letter], 2)) - once
    assert set(scissors(letter)) == once
    assert set(scissors(letter, 2)) == twice


def test_scissors_never_give_a_part_in_two_pieces():
    u_shape = read_picture(["#.#", "###"])
    assert frozenset({(0, 0), (0, 2)}) not in scissors(u_shape)


@pytest.mark.parametrize("letter", SHAPES)
def test_scissors_parts_are_smaller_connected_pieces_of_the_shape(letter):
    cells = SHAPES[letter]
    for part in scissors(letter):
        assert is_connected(part)
        assert normalise(part) == part
        assert 0 < len(part) < len(cells)
        assert any(
            all((r + dr, c + dc) in cells for r, c in image)
            for image in orientations(part, mirror_images=False)
            for dr in range(4)
            for dc in range(4)
        )
