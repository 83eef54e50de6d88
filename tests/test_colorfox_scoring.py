"""ColorFox scoring: the best split of a hand of sticks, checked against every split there is."""

import dataclasses
import functools
import itertools
import math
import random
import re
import timeit
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from colorlab.colorfox import Rules, scoring
from colorlab.colorfox.rules import SET_SCORES as SCORE_NAMES
from colorlab.colorfox.scoring import COLOURS, SET_SCORES, best_sets, score_sticks, worth_of
from colorlab.palette import Colour
from tests.helpers.examples import examples

EMA = {"red": 3, "orange": 1, "yellow": 1, "green": 2, "blue": 1, "purple": 1}

CONVEX = {
    **SET_SCORES,
    "cube": lambda n: n**3,
    "dips first": lambda n: n * n - 3 * n,
}
NOT_CONVEX = {
    "square root": math.sqrt,
    "at most 3": lambda n: min(n, 3),
    "triangular up to 3": lambda n: min(n, 3) * (min(n, 3) + 1) // 2,
    "zigzag": lambda n: [0, 5, 1, 7, 2, 9, 3][n],
}
WORTHS = {**CONVEX, **NOT_CONVEX}


def rules_with(**changes):
    """Which rules differ from the edition's in just these fields?"""
    return dataclasses.replace(Rules(), **changes)


@functools.cache
def size_lists(counts):
    """Which lists of set sizes can these counts (a tuple, one per colour) be split into?

    Every split has a set holding a stick of the first colour present; try each such set.
    """
    present = [colour for colour, number in enumerate(counts) if number]
    if not present:
        return frozenset({()})
    first, others = present[0], present[1:]
    found = set()
    for k in range(len(others) + 1):
        for more in itertools.combinations(others, k):
            chosen = {first, *more}
            rest = tuple(number - (colour in chosen) for colour, number in enumerate(counts))
            found |= {tuple(sorted((*sizes, len(chosen)), reverse=True)) for sizes in size_lists(rest)}
    return frozenset(found)


def brute_force(counts, worth, largest):
    """What is the best total over every split, found by listing them all?"""
    vector = tuple(counts.get(colour, 0) for colour in COLOURS)
    return max(sum(map(worth, sizes)) for sizes in size_lists(vector) if not sizes or sizes[0] <= largest)


def small_hands():
    """Every hand with 0..2 sticks of each of the 6 colours, or 0..3 of each of the first 4."""
    six = (dict(zip(COLOURS, numbers)) for numbers in itertools.product(range(3), repeat=6))
    four = (dict(zip(COLOURS, numbers)) for numbers in itertools.product(range(4), repeat=4))
    return itertools.chain(six, four)


def assert_valid_split(sets, counts, largest):
    """Check that `sets` uses every stick once, in sets of distinct colours, in the documented order."""
    assert all(len(chosen) == len(set(chosen)) and 1 <= len(chosen) <= largest for chosen in sets)
    assert Counter(itertools.chain.from_iterable(sets)) == Counter({c: n for c, n in counts.items() if n})
    assert all(chosen == [colour for colour in COLOURS if colour in chosen] for chosen in sets)
    assert [len(chosen) for chosen in sets] == sorted(map(len, sets), reverse=True)


def test_emas_hand_scores_25_as_in_the_rulebook():
    one_of_each = Counter(COLOURS)
    ema = one_of_each + Counter({"green": 1, "red": 2})
    assert dict(ema) == EMA
    assert score_sticks(ema) == 21 + 3 + 1 == 25
    assert best_sets(ema) == [list(COLOURS), ["red", "green"], ["red"]]


def test_a_set_of_n_scores_the_nth_triangular_number():
    triangular = SET_SCORES["triangular"]
    assert [triangular(n) for n in range(7)] == [0, 1, 3, 6, 10, 15, 21]
    assert all(triangular(n) == sum(range(1, n + 1)) for n in range(50))
    for n in range(1, 7):
        assert score_sticks(dict.fromkeys(COLOURS[:n], 1)) == triangular(n)


def test_the_score_names_match_the_rules_and_worth_of_follows_the_rule():
    assert set(SET_SCORES) == set(SCORE_NAMES)
    for name, worth in SET_SCORES.items():
        assert worth_of(rules_with(set_score=name)) is worth
    assert score_sticks(EMA, rules_with(set_score="linear")) == 9
    assert score_sticks(EMA, rules_with(set_score="square")) == 36 + 4 + 1


def test_the_triangular_score_is_a_weighted_sum_of_the_sorted_counts():
    for counts in small_hands():
        ranked = sorted(counts.values(), reverse=True)
        assert score_sticks(counts) == sum(place * number for place, number in enumerate(ranked, 1))


@pytest.mark.parametrize("largest", [1, 2, 3, 4, 6])
@pytest.mark.parametrize("name", list(WORTHS))
def test_score_sticks_is_the_best_over_every_split_and_best_sets_reaches_it(name, largest):
    worth, rules = WORTHS[name], rules_with(max_set_size=largest)
    for counts in small_hands():
        best = score_sticks(counts, rules, worth)
        assert best == pytest.approx(brute_force(counts, worth, largest)), counts
        sets = best_sets(counts, largest, worth)
        assert_valid_split(sets, counts, largest)
        assert sum(worth(len(chosen)) for chosen in sets) == pytest.approx(best), counts


@pytest.mark.parametrize("name", list(SET_SCORES))
@pytest.mark.parametrize("largest", [2, 3, 6])
def test_the_rule_scores_are_the_best_over_every_split(name, largest):
    rules = rules_with(set_score=name, max_set_size=largest)
    for counts in small_hands():
        assert score_sticks(counts, rules) == brute_force(counts, SET_SCORES[name], largest), counts


@pytest.mark.parametrize("largest", [2, 3, 4, 5])
def test_cut_layers_match_the_search_over_every_split_for_every_hand_of_the_game(largest):
    """Every hand of up to 8 sticks a colour, up to the order of colours: greedy cutting equals the search."""
    for counts in itertools.combinations_with_replacement(range(9), len(COLOURS)):
        hand = dict(zip(COLOURS, counts))
        for name in ("triangular", "square"):
            table = scoring._worth_table(SET_SCORES[name], largest)
            searched = scoring._best_total(scoring._state(scoring._ordered(hand)), table, largest)
            assert score_sticks(hand, rules_with(set_score=name, max_set_size=largest)) == searched, hand


def test_with_room_for_every_colour_best_sets_is_the_layered_split():
    for counts in small_hands():
        layers = [
            [colour for colour in COLOURS if counts.get(colour, 0) >= k] for k in range(1, max(counts.values()) + 1)
        ]
        assert best_sets(counts) == layers
        assert best_sets(counts, 6, SET_SCORES["square"]) == layers


def test_a_linear_worth_scores_every_stick_once():
    for counts in small_hands():
        assert score_sticks(counts, rules_with(set_score="linear")) == sum(counts.values())


def test_a_layer_wider_than_the_largest_set_is_cut():
    assert best_sets(EMA, 4) == [["red", "orange", "yellow", "green"], ["red", "green", "blue", "purple"], ["red"]]
    assert score_sticks(EMA, rules_with(max_set_size=4)) == 10 + 10 + 1


def test_zero_counts_missing_colours_and_colour_members_are_fine():
    assert score_sticks({}) == 0 and best_sets({}) == []
    assert score_sticks({"red": 0, "blue": 0}) == 0
    assert best_sets({"red": 0, "blue": 2}) == [["blue"], ["blue"]]
    assert score_sticks({Colour.RED: 2, Colour.BLUE: 1}) == score_sticks({"red": 2, "blue": 1}) == 4
    assert best_sets({Colour.RED: 1, "blue": 1}) == [["red", "blue"]]


@pytest.mark.parametrize(
    "counts, words",
    [
        ({"pink": 1}, "'pink' is not a ColorFox colour"),
        ({Colour.BLACK: 1}, "is not a ColorFox colour"),
        ({"Red": 1}, "'Red' is not a ColorFox colour"),
        ({"red": -1}, "red: -1 sticks"),
        ({"red": 1.5}, "red: 1.5 sticks"),
        ({"red": 2.0}, "red: 2.0 sticks"),
        ({"red": "2"}, "red: '2' sticks"),
        ({"red": True}, "red: True sticks"),
        ({"red": None}, "red: None sticks"),
        (["red", "blue"], "give a mapping"),
    ],
)
def test_bad_counts_are_refused_with_a_reason(counts, words):
    for worth in (None, SET_SCORES["square"], math.sqrt):
        with pytest.raises(ValueError, match=re.escape(words)):
            score_sticks(counts, worth=worth)
        with pytest.raises(ValueError, match=re.escape(words)):
            best_sets(counts, worth=worth)


@pytest.mark.parametrize("largest", [0, -1, 2.5, True, "6"])
def test_a_bad_largest_set_is_refused(largest):
    with pytest.raises(ValueError, match="max_set_size"):
        best_sets(EMA, largest)


hands = st.dictionaries(st.sampled_from(COLOURS), st.integers(0, 8))


def random_split(counts, largest, rng):
    """Split the sticks at random: each stick joins a random set that lacks its colour and has room."""
    sets = []
    sticks = [colour for colour, number in counts.items() for _ in range(number)]
    rng.shuffle(sticks)
    for stick in sticks:
        open_sets = [chosen for chosen in sets if stick not in chosen and len(chosen) < largest]
        if open_sets and rng.random() < 0.8:
            rng.choice(open_sets).add(stick)
        else:
            sets.append({stick})
    return sets


@settings(max_examples=examples(300), deadline=None)
@given(hands, st.integers(1, 6), st.randoms(use_true_random=False))
def test_no_random_split_beats_the_best(counts, largest, rng):
    rules = rules_with(max_set_size=largest)
    sets = random_split(counts, largest, rng)
    for worth in WORTHS.values():
        assert score_sticks(counts, rules, worth) >= sum(worth(len(chosen)) for chosen in sets) - 1e-9
    assert score_sticks(counts, rules_with(set_score="linear", max_set_size=largest)) == sum(counts.values())


@settings(max_examples=examples(300), deadline=None)
@given(hands, st.integers(1, 6), st.sampled_from(list(WORTHS)))
def test_best_sets_of_random_hands_are_valid_and_score_the_best(counts, largest, name):
    worth = WORTHS[name]
    sets = best_sets(counts, largest, worth)
    assert_valid_split(sets, counts, largest)
    assert sum(worth(len(chosen)) for chosen in sets) == pytest.approx(
        score_sticks(counts, rules_with(max_set_size=largest), worth)
    )


@settings(max_examples=examples(300), deadline=None)
@given(hands)
def test_the_fast_triangular_score_agrees_with_the_layered_split(counts):
    triangular = SET_SCORES["triangular"]
    assert score_sticks(counts) == sum(triangular(len(chosen)) for chosen in best_sets(counts))
    assert score_sticks(counts) == score_sticks(counts, worth=lambda n: n * (n + 1) // 2)


def test_scoring_a_hand_is_fast():
    rng = random.Random(7)
    hands = [{colour: rng.randint(0, 8) for colour in COLOURS} for _ in range(2000)]
    seconds = min(timeit.repeat(lambda: [score_sticks(counts) for counts in hands], number=1, repeat=5))
    assert seconds / len(hands) < 10e-6


@settings(max_examples=examples(300), deadline=None)
@given(st.tuples(*[st.integers(0, 12)] * len(COLOURS)), st.sampled_from(SCORE_NAMES), st.integers(1, 6))
def test_counts_in_colour_order_score_as_the_same_hand_by_name(counts, name, largest):
    rules = rules_with(set_score=name, max_set_size=largest)
    assert scoring.score_counts(counts, rules) == score_sticks(dict(zip(COLOURS, counts)), rules)
