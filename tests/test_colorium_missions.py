"""Colorium missions: every card on hand-drawn boards, the shared measures against brute force."""

import copy
import itertools
import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from colorlab.colorium import missions
from colorlab.colorium.board import Board
from colorlab.colorium.missions import (
    MISSIONS,
    TYPES,
    Mission,
    area_sizes,
    areas,
    diagonal_runs,
    draw_missions,
    each,
    largest_rectangle,
    largest_square,
    lines,
    long_diagonal_runs,
    missions_from,
    ranked,
)
from tests.helpers.examples import examples


def scores(mission_id, *boards):
    """What does this edition mission give each of these boards?"""
    return MISSIONS[mission_id].score(list(boards))


def entries():
    """A fresh copy of the JSON entries of the edition's missions."""
    return copy.deepcopy(json.loads(missions.MISSIONS_FILE.read_text(encoding="utf-8"))["missions"])


# The rulebook's own examples.


def test_rulebook_four_red_five_yellow_six_blue_score_four():
    board = Board.parse("""
        RRRR....
        YYYYY...
        BBBBBB..
        GGGGGGGG
    """)
    # red 4 // 3 = 1, yellow 5 // 3 = 1, blue 6 // 3 = 2; green is not on the card
    assert scores("colours-1", board) == [4]


def test_rulebook_purple_area_of_thirteen_scores_six():
    board = Board.parse("""
        ........
        ...PP...
        ...PPP..
        .PPPY...
        PPPPPR..
    """)
    # purple: 2 + 3 + 3 + 5 = 13 spaces joined side to side; 13 // 2 = 6
    assert max(len(area) for area in areas(board)) == 13
    assert scores("areas-2", board) == [6]


def test_rulebook_two_green_diagonals_in_the_top_right_score_ten():
    board = Board.parse("""
        ....G...
        ....GG..
        .....GG.
        ......GG
        .......G
        ........
        ........
        ........
    """)
    # (0,4) (1,5) (2,6) (3,7) and (1,4) (2,5) (3,6) (4,7): two runs of 4 going down-right
    assert scores("lines-4", board) == [10]


# Lines: full rows and columns by their number of colours, and diagonals.

LINES_BOARD = Board.parse("""
    RRRR
    RYRY
    RYGB
    R.GB
""")
# full rows: RRRR (1 colour), RYRY (2), RYGB (4); the bottom row has a gap
# full columns: RRRR (1), RRGG (2), RYBB (3); the second column has a gap


@pytest.mark.parametrize(
    "mission_id, expected",
    [
        ("lines-1", [8]),  # 2 single-colour lines x 4
        ("lines-2", [4]),  # 2 two-colour lines x 2
        ("lines-3", [2]),  # RYGB and RYBB x 1
    ],
)
def test_full_lines_by_number_of_colours(mission_id, expected):
    assert scores(mission_id, LINES_BOARD) == expected


def test_lines_with_a_gap_never_score():
    board = Board.parse("""
        RR.
        RR.
        ...
    """)
    assert [scores(f"lines-{n}", board) for n in (1, 2, 3)] == [[0], [0], [0]]


def test_lines_are_rows_then_columns():
    assert lines(LINES_BOARD) == ["RRRR", "RYRY", "RYGB", "R.GB", "RRRR", "RYY.", "RRGG", "RYBB"]


@pytest.mark.parametrize(
    "text, expected",
    [
        # one run of 4 going down-right: 5
        ("G... .G.. ..G. ...G", 5),
        # the same diagonal broken by a red space: no run of 4
        ("G... .G.. ..R. ...G", 0),
        # a run of 3 is too short
        ("G... .G.. ..G. ....", 0),
        # one run of 4 going down-left: 5
        ("...B ..B. .B.. B...", 5),
        # a run of 5 is one maximal run, not two runs of 4: 5
        ("G.... .G... ..G.. ...G. ....G", 5),
        # an X: a run of 5 each way, sharing the centre space: 10
        ("G...G .G.G. ..G.. .G.G. G...G", 10),
        # two colours side by side along one diagonal, 4 of each: 10
        ("Y....... .Y...... ..Y..... ...Y.... ....R... .....R.. ......R. .......R", 10),
    ],
)
def test_diagonal_runs_of_four_or_more(text, expected):
    board = Board.parse(text.replace(" ", "\n"))
    assert scores("lines-4", board) == [expected]


# Colours: sets of three, and most / next.


def test_per_three_counts_each_colour_on_its_own():
    board = Board.parse("""
        OO.PPP..
        GGGGGGG.
        RRRRRRRR
    """)
    # orange 2 // 3 = 0, purple 3 // 3 = 1, green 7 // 3 = 2; red is not on the card
    assert scores("colours-2", board) == [3]
    # red 8 // 3 = 2
    assert scores("colours-1", board) == [2]


COLOUR_BOARDS = [
    Board.parse("BBBBB YY...".replace(" ", "\n")),  # blue 5, yellow 2, green 0
    Board.parse("BBBBB Y....".replace(" ", "\n")),  # blue 5, yellow 1, green 0
    Board.parse("BBB.. YYG..".replace(" ", "\n")),  # blue 3, yellow 2, green 1
]


def test_most_blue_yellow_green_with_ties_and_zeros():
    # blue [5, 5, 3]: 4, 4, 1 (both fives tie for most; three is next)
    # yellow [2, 1, 2]: 4, 1, 4
    # green [0, 0, 1]: 0, 0, 4 (a count of 0 scores nothing, even as "next")
    assert scores("colours-3", *COLOUR_BOARDS) == [8, 5, 9]


def test_most_red_orange_purple_when_nobody_has_any():
    assert scores("colours-4", *COLOUR_BOARDS) == [0, 0, 0]


def test_most_red_orange_purple():
    boards = [Board.parse("RRRO"), Board.parse("RPPO"), Board.parse("RR..")]
    # red [3, 1, 2]: 4, 0, 1; orange [1, 1, 0]: 4, 4, 0; purple [0, 2, 0]: 0, 4, 0
    assert scores("colours-4", *boards) == [8, 8, 1]


# Shapes: what each board has drawn.

SHAPE_BOARDS = [
    Board.parse("....", drawn="IIOTT"),  # I 2, O 1, T 2, S 0, L 0, V 0
    Board.parse("....", drawn="IOOSS"),  # I 1, O 2, T 0, S 2, L 0, V 0
    Board.parse("....", drawn="IILVV"),  # I 2, O 0, T 0, S 0, L 1, V 2
]


@pytest.mark.parametrize(
    "mission_id, expected",
    [
        # I [2, 1, 2]: 4, 1, 4; O [1, 2, 0]: 1, 4, 0
        ("shapes-1", [5, 5, 4]),
        # T [2, 0, 0]: 4, 0, 0; S [0, 2, 0]: 0, 4, 0
        ("shapes-2", [4, 4, 0]),
        # T, L or S drawn: TT, SS, L
        ("shapes-3", [2, 2, 1]),
        # I, O or V drawn: IIO, IOO, IIVV
        ("shapes-4", [3, 3, 4]),
    ],
)
def test_shape_missions(mission_id, expected):
    assert scores(mission_id, *SHAPE_BOARDS) == expected


def test_a_lone_player_is_the_most():
    assert scores("shapes-1", Board.parse(".", drawn="O")) == [4]


# Areas: rectangles, squares and connected areas of one colour.

AREAS_BOARD = Board.parse("""
    RRRY.
    RRRYY
    BRRRY
    BBBBY
""")
# largest rectangle: red, the top two rows x the left three columns = 6 (blue 1 x 4 = 4)
# largest square: red 2 x 2 = 4 (no 3 x 3: the blue space at the left of the third row)
# areas: red 9; yellow 5 (down the right from the top row's Y); blue 5 (an L at the bottom left)


@pytest.mark.parametrize(
    "mission_id, expected",
    [
        ("areas-1", [6]),  # 6 spaces x 1
        ("areas-2", [4]),  # 9 // 2
        ("areas-3", [6]),  # red, yellow and blue areas are 5 or more: 3 x 2
        ("areas-4", [8]),  # 4 spaces x 2
    ],
)
def test_area_missions(mission_id, expected):
    assert scores(mission_id, AREAS_BOARD) == expected


def test_spaces_touching_only_at_corners_are_separate_areas():
    board = Board.parse("""
        R.R
        .R.
        R.R
    """)
    # five red areas of 1 space: largest 1 // 2 = 0, none of 5 or more
    assert sorted(len(area) for area in areas(board)) == [1, 1, 1, 1, 1]
    assert scores("areas-2", board) == scores("areas-3", board) == [0]


def test_a_square_is_the_largest_square_inside_a_rectangle():
    board = Board.parse("""
        GGG.
        GGG.
        GG..
    """)
    # rectangle: 2 x 3 = 6 (or 3 x 2); square: 2 x 2 = 4
    assert largest_rectangle(board) == 6
    assert largest_square(board) == 4


def test_an_empty_board_scores_nothing_anywhere():
    board = Board.empty(4, 4)
    assert all(mission.score([board, board]) == [0, 0] for mission in MISSIONS.values())


# Dense ranks.


@pytest.mark.parametrize(
    "counts, expected",
    [
        ([3, 3, 3], [4, 4, 4]),  # all tied at the top
        ([0, 0, 0], [0, 0, 0]),  # all zero
        ([5, 2, 2, 0], [4, 1, 1, 0]),  # two tied for second; zero scores nothing
        ([5, 5, 2], [4, 4, 1]),  # dense: the count after a tie at the top is still "next"
        ([6, 4, 2], [4, 1, 0]),  # a third count scores nothing
        ([1, 0], [4, 0]),  # zero is never "next"
        ([], []),
    ],
)
def test_ranked_is_dense(counts, expected):
    assert ranked(counts, 4, 1) == expected


@given(st.lists(st.integers(0, 6), max_size=5), st.randoms(use_true_random=False))
def test_ranked_follows_the_counts_not_the_seats(counts, rng):
    order = list(range(len(counts)))
    rng.shuffle(order)
    points = ranked(counts, 4, 1)
    assert ranked([counts[i] for i in order], 4, 1) == [points[i] for i in order]
    assert all((count > 0 and count == max(counts)) == (point == 4) for count, point in zip(counts, points))


# A learner's own mission.


def test_a_learner_written_mission_plays_like_the_edition_ones():
    def corners(board):
        return sum(board.colour(r, c) is not None for r in (0, board.height - 1) for c in (0, board.width - 1))

    mine = Mission(
        id="corners-1", type="areas", title="Corners", text="A point per filled corner.", score=each(corners)
    )
    assert mine.score([LINES_BOARD, AREAS_BOARD]) == [4, 3]  # R R R B; R . B Y
    pool = {mission.id: mission for mission in MISSIONS.values() if mission.type != "areas"}
    assert draw_missions(1, pool={**pool, mine.id: mine})[-1] is mine


def test_a_mission_refuses_an_unknown_type():
    with pytest.raises(ValueError, match="type 'rows'"):
        Mission(id="x", type="rows", title="X", text="X.", score=each(len))


# The edition's data file.


def test_sixteen_missions_four_of_each_type():
    assert len(MISSIONS) == 16
    assert Counter(mission.type for mission in MISSIONS.values()) == dict.fromkeys(TYPES, 4)
    assert all(key == mission.id and mission.id.startswith(mission.type + "-") for key, mission in MISSIONS.items())
    assert all(mission.title and mission.text.endswith(".") for mission in MISSIONS.values())


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda cards: cards[0].update(rule="rainbow"), "unknown rule 'rainbow'"),
        (lambda cards: cards[0].update(type="rows"), "type 'rows'"),
        (lambda cards: cards[1].update(id=cards[0]["id"]), "used twice"),
        (lambda cards: cards[0].pop("title"), "missing title"),
        (lambda cards: cards[0].pop("points"), "points"),
        (lambda cards: cards[0].update(colour="R"), "colour"),
        (lambda cards: cards[4].update(colours="RX"), "colours must be letters"),
        (lambda cards: cards[8].update(shapes="IZ"), "shapes must be letters"),
        (lambda cards: cards[0].update(points=2.5), "whole numbers"),
        (lambda cards: cards[0].update(points=True), "whole numbers"),
        (lambda cards: cards[12].update(per=0), "per must be at least 1"),
    ],
)
def test_a_broken_entry_is_refused(change, message):
    cards = entries()
    change(cards)
    with pytest.raises(ValueError, match=message):
        missions_from(cards)


def test_the_data_file_makes_the_edition():
    assert list(missions_from(entries())) == list(MISSIONS)


# Drawing the four missions of a game.


def test_draw_one_mission_of_each_type():
    assert [mission.id for mission in draw_missions(3, "first")] == ["lines-1", "colours-1", "shapes-1", "areas-1"]
    for seed in range(20):
        drawn = draw_missions(seed)
        assert [mission.type for mission in drawn] == list(TYPES)
        assert drawn == draw_missions(seed) == draw_missions(random.Random(seed))
    assert {mission.id for seed in range(200) for mission in draw_missions(seed)} == set(MISSIONS)


def test_draw_refuses_an_unknown_way():
    with pytest.raises(ValueError, match="how = 'best'"):
        draw_missions(0, "best")


# The shared measures against brute force, on random small boards.


@st.composite
def small_boards(draw, colours="RY."):
    height, width = draw(st.integers(1, 5)), draw(st.integers(1, 5))
    row = st.text(alphabet=colours, min_size=width, max_size=width)
    drawn = draw(st.text(alphabet="IOTLSV", max_size=8))
    return Board(tuple(draw(st.lists(row, min_size=height, max_size=height))), tuple(drawn))


def rectangles(board):
    """Every single-colour rectangle of the board, as (height, width)."""
    for top, bottom in itertools.combinations_with_replacement(range(board.height), 2):
        for left, right in itertools.combinations_with_replacement(range(board.width), 2):
            spaces = {board.rows[r][c] for r in range(top, bottom + 1) for c in range(left, right + 1)}
            if len(spaces) == 1 and "." not in spaces:
                yield bottom - top + 1, right - left + 1


@settings(max_examples=examples(200))
@given(small_boards())
def test_largest_rectangle_and_square_match_brute_force(board):
    found = list(rectangles(board))
    assert largest_rectangle(board) == max((h * w for h, w in found), default=0)
    assert largest_square(board) == max((h * h for h, w in found if h == w), default=0)


@settings(max_examples=examples(300))
@given(small_boards(colours="RYB."))
def test_area_sizes_are_the_sizes_of_the_connected_single_colour_pieces(board):
    assert sorted(area_sizes(board)) == sorted(len(area) for area in areas(board))


@settings(max_examples=examples(200))
@given(small_boards())
def test_areas_are_the_connected_single_colour_pieces(board):
    found = areas(board)
    cells = [cell for area in found for cell in area]
    filled = {(r, c) for r in range(board.height) for c in range(board.width) if board.colour(r, c)}
    assert len(cells) == len(set(cells)) and set(cells) == filled
    where = {cell: i for i, area in enumerate(found) for cell in area}
    for (r, c), i in where.items():
        for neighbour in ((r + 1, c), (r, c + 1)):
            if neighbour in where and board.colour(*neighbour) == board.colour(r, c):
                assert where[neighbour] == i
    for area in found:
        assert len({board.colour(*cell) for cell in area}) == 1
        start = min(area)
        reached, frontier = {start}, [start]
        while frontier:
            r, c = frontier.pop()
            for step in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if step in area and step not in reached:
                    reached.add(step)
                    frontier.append(step)
        assert reached == area


def long_diagonals(board, length=4):
    """How many maximal single-colour diagonal runs of `length` or more start somewhere on the board?"""

    def colour(r, c):
        return board.colour(r, c) if 0 <= r < board.height and 0 <= c < board.width else None

    total = 0
    for r, c, step in itertools.product(range(board.height), range(board.width), (1, -1)):
        hue = colour(r, c)
        starts_here = hue and colour(r - 1, c - step) != hue
        if starts_here and all(colour(r + k, c + k * step) == hue for k in range(length)):
            total += 1
    return total


@settings(max_examples=examples(200))
@given(small_boards(colours="GGB."))
def test_diagonal_runs_match_brute_force(board):
    runs = diagonal_runs(board)
    assert all(len({board.colour(*cell) for cell in run}) == 1 for run in runs)
    assert scores("lines-4", board) == [5 * long_diagonals(board)]


@settings(max_examples=examples(200))
@given(small_boards(colours="GGB."), st.integers(1, 5))
def test_long_diagonal_runs_are_counted_as_the_runs_and_the_brute_force_say(board, length):
    assert long_diagonal_runs(board, length) == sum(len(run) >= length for run in diagonal_runs(board))
    assert long_diagonal_runs(board, length) == long_diagonals(board, length)


@given(small_boards(colours="RYB"))
def test_every_full_line_scores_on_exactly_one_of_the_three_line_missions(board):
    by_colours = [scores("lines-1", board)[0] // 4, scores("lines-2", board)[0] // 2, scores("lines-3", board)[0]]
    assert sum(by_colours) == board.height + board.width


@settings(max_examples=examples(50))
@given(st.lists(small_boards(colours="RYGBPO."), min_size=1, max_size=4), st.randoms(use_true_random=False))
def test_every_mission_scores_each_seat_by_its_own_board(boards, rng):
    order = list(range(len(boards)))
    rng.shuffle(order)
    for mission in MISSIONS.values():
        points = mission.score(boards)
        assert len(points) == len(boards) and all(isinstance(p, int) and p >= 0 for p in points)
        assert mission.score([boards[i] for i in order]) == [points[i] for i in order]
