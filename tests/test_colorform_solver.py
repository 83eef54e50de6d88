"""The Col-Or-Form solver: the rulebook's four examples, and a brute-force cross-check."""

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from colorlab.colorform import Rules, figure, solvable, solve, why_not
from colorlab.colorform.components import (
    FIGURES,
    generate_task_cards,
    task_cards,
    turned,
)
from tests.helpers.examples import examples

# Cell numbers, row by row: 0 1 2 / 3 4 5 / 6 7 8.
# One clockwise quarter turn moves (row, col) to (col, 2 - row): 0 -> 2, 3 -> 1, 4 -> 4.
# One counter-clockwise quarter turn (= 3 clockwise) moves (row, col) to (2 - col, row):
# 0 -> 6, 1 -> 3, 2 -> 0, 4 -> 4, 5 -> 1, 8 -> 2.


def grid(**cells):
    """Nine cells from keyword arguments like c0="red star"; the rest white."""
    return [cells.get(f"c{i}") for i in range(9)]


def layout_with(fixed, fillers):
    """A layout with the given cells fixed and the others taken in order from `fillers`."""
    rest = iter(fillers)
    return [fixed.get(cell) or next(rest) for cell in range(9)]


FILLERS = [
    "green heart",
    "yellow heart",
    "green triangle",
    "black square",
    "yellow circle",
    "green square",
    "purple heart",
    "black star",
    "yellow moon",
]


def test_example_1_layout_already_fits():
    task = grid(c0="red star", c3="black triangle", c4="purple moon")
    layout = layout_with({0: "blue star", 3: "black circle", 4: "purple moon"}, FILLERS)
    best = solve(layout, [], task)[0]
    assert (best.rotation, best.placements) == (0, {})
    assert [(m.cell, m.by, m.from_hand) for m in best.matches] == [
        (0, "shape", False),
        (3, "colour", False),
        (4, "both", False),
    ]


def test_example_2_turned_a_quarter_to_the_right():
    task = grid(c0="red star", c3="black triangle", c4="purple moon")
    layout = layout_with({2: "red triangle", 1: "yellow triangle", 4: "purple moon"}, FILLERS)
    no_cards = [s for s in solve(layout, [], task) if not s.placements]
    assert [s.rotation for s in no_cards] == [1]
    by_cell = {m.cell: (str(m.card), m.by) for m in no_cards[0].matches}
    assert by_cell == {2: ("red triangle", "colour"), 1: ("yellow triangle", "shape"), 4: ("purple moon", "both")}
    assert solve(layout, [], task, Rules(rotations=False)) == []


def test_example_3_one_figure_fits_neither_way():
    task = grid(c2="red moon", c5="blue circle", c8="green star")
    layout = layout_with({0: "blue moon", 1: "blue square", 2: "red triangle"}, FILLERS)
    assert why_not(layout, task, 3, {}) == [
        "cell 2: green star does not fit red triangle (matching is 'shape or colour')"
    ]
    assert not any(s.rotation == 3 for s in solve(layout, [], task))
    for helper in ("yellow star", "green heart"):
        fixes = [s for s in solve(layout, [helper], task) if s.rotation == 3]
        assert [s.placements for s in fixes] == [{2: figure(helper)}]
    assert not any(s.rotation == 3 for s in solve(layout, ["red heart"], task))


def test_example_4_three_hand_cards_and_a_left_turn():
    task = grid(c0="yellow square", c1="blue moon", c2="red heart", c4="green circle", c8="purple star")
    layout = layout_with(
        {6: "red circle", 3: "red triangle", 0: "blue square", 4: "green moon", 2: "blue star"}, FILLERS
    )
    hand = ["yellow star", "blue circle", "black heart"]
    left_turn = [s for s in solve(layout, hand, task) if s.rotation == 3]
    assert [s.placements for s in left_turn] == [
        {6: figure("yellow star"), 3: figure("blue circle"), 0: figure("black heart")}
    ]
    how = {m.cell: (m.by, m.from_hand) for m in left_turn[0].matches}
    assert how == {
        6: ("colour", True),
        3: ("colour", True),
        0: ("shape", True),
        4: ("colour", False),
        2: ("shape", False),
    }
    for missing in range(3):
        fewer = hand[:missing] + hand[missing + 1 :]
        assert not any(s.rotation == 3 for s in solve(layout, fewer, task))


def brute_force(layout, hand, task, rules):
    """Every minimal solution, found by trying every turn and every way to lay hand cards."""
    found = set()
    turns = [
        (k, m)
        for m in ((False, True) if rules.mirror_images else (False,))
        for k in (range(4) if rules.rotations else (0,))
    ]
    for k, mirrored in turns:
        shown = turned(task, k, mirrored)
        cells = [c for c in range(9) if shown[c] is not None]
        for size in range(len(hand) + 1):
            for chosen_cells in itertools.combinations(cells, size):
                for cards in itertools.permutations(hand, size):
                    placed = dict(zip(chosen_cells, cards))
                    on_top = [placed.get(c, layout[c]) for c in range(9)]
                    if all(fits(shown[c], on_top[c], rules.matching) for c in cells) and all(
                        not fits(shown[c], layout[c], rules.matching) for c in chosen_cells
                    ):
                        found.add((k, mirrored, tuple(sorted(placed.items()))))
    return found


def fits(wanted, card, matching):
    shape, colour = wanted.shape == card.shape, wanted.colour == card.colour
    return {"shape or colour": shape or colour, "shape and colour": shape and colour, "shape": shape, "colour": colour}[
        matching
    ]


@settings(max_examples=examples(150), deadline=None)
@given(
    cards=st.permutations(FIGURES),
    hand_size=st.integers(0, 4),
    task=st.sampled_from(task_cards()),
    matching=st.sampled_from(["shape or colour", "shape and colour", "shape", "colour"]),
    rotations=st.booleans(),
    mirrors=st.booleans(),
)
def test_solve_finds_exactly_the_minimal_solutions(cards, hand_size, task, matching, rotations, mirrors):
    rules = Rules(matching=matching, rotations=rotations, mirror_images=mirrors)
    layout, hand = tuple(cards[:9]), tuple(cards[9 : 9 + hand_size])
    solutions = solve(layout, hand, task, rules)
    got = {(s.rotation, s.mirrored, tuple(sorted(s.placements.items()))) for s in solutions}
    assert got == brute_force(layout, hand, task.cells, rules)
    assert [len(s.placements) for s in solutions] == sorted(len(s.placements) for s in solutions)
    assert solvable(layout, hand, task, rules) == bool(solutions)
    names = [None if cell is None else str(cell) for cell in task.cells]
    assert solve(list(map(str, layout)), list(map(str, hand)), names, rules) == solutions
    for s in solutions:
        assert why_not(layout, task, s.rotation, s.placements, s.mirrored, rules) == []


def test_solve_reads_names_and_refuses_nonsense():
    assert solve(["red star"] * 9, [], grid(c4="blue star"))[0].placements == {}
    assert solve([" Red  STAR"] * 9, ["blue heart"], [None] * 4 + ["Blue Star"] + [None] * 4) == solve(
        [figure("red star")] * 9, [figure("blue heart")], grid(c4="blue star")
    )
    with pytest.raises(ValueError, match="pink"):
        solve(["pink star"] * 9, [], grid(c4="blue star"))
    with pytest.raises(ValueError, match="9 cards"):
        solve(["red star"] * 8, [], grid(c4="blue star"))


def test_task_deck_is_the_checked_in_one_and_follows_the_edition():
    assert tuple(generate_task_cards()) == task_cards()
    sizes = [card.size for card in task_cards()]
    assert {n: sizes.count(n) for n in set(sizes)} == {2: 6, 3: 10, 4: 8, 5: 6}
    seen = set()
    for card in task_cards():
        images = {turned(card.cells, k) for k in range(4)}
        assert not images & seen, f"task card {card.number} repeats another after a turn"
        seen |= images
        figures = [fig for fig in card.cells if fig is not None]
        assert len(set(figures)) == len(figures)
    assert len(FIGURES) == 36 and len({(f.shape, f.colour) for f in FIGURES}) == 36


def test_the_game_turns_cards_the_way_the_symmetry_module_does():
    from colorlab.colorform.components import mirror, quarter_turn
    from colorlab.symmetry import mirror as mirror_permutation
    from colorlab.symmetry import quarter_turn as turn_permutation

    assert [quarter_turn(cell) for cell in range(9)] == turn_permutation(3).array_form
    assert [mirror(cell) for cell in range(9)] == mirror_permutation(3).array_form


def test_cover_finds_the_first_assignment_of_a_full_search():
    from colorlab.colorform.solver import ACCEPTS, _first_assignment, cover

    rng = random.Random(5)
    for _ in range(3000):
        rules = Rules(matching=rng.choice(["shape or colour", "shape and colour", "shape", "colour"]))
        layout = rng.sample(FIGURES, 9)
        hand = rng.sample([card for card in FIGURES if card not in layout], rng.randint(0, 6))
        cells = rng.sample(range(9), rng.randint(1, 5))
        placed = tuple((cell, rng.choice(FIGURES)) for cell in cells)
        accepts = ACCEPTS[rules.matching]
        needs = [(cell, want) for cell, want in placed if not accepts[want] >> layout[cell] & 1]
        expected = _first_assignment(needs, tuple(hand), accepts, 0) if needs else {}
        found = cover(layout, hand, placed, rules)
        assert found == expected and (found is None or list(found.items()) == list(expected.items()))
