"""Tests for colorlab.colorform.probability: exact chances against listing and sampling."""

import math
import random
from fractions import Fraction
from itertools import permutations

import pytest

from colorlab.colorform import Rules, figure, solvable, task_card, task_cards
from colorlab.colorform.components import FIGURES, TRANSFORMS
from colorlab.colorform.probability import (
    chance_layout_fits,
    chance_random_task_fits,
    count_fillings,
)
from colorlab.colorform.solver import ACCEPTS

OPPOSITE_CORNERS = ("red star", None, None, None, None, None, None, None, "blue moon")


def listed_chance(task, cells, rules):
    """What share of all ordered deals onto `cells` fits `task` with no hand cards, by listing them?"""
    accepts = ACCEPTS[rules.matching]
    wanted = [(cell, accepts[figure(name)]) for cell, name in enumerate(task) if name is not None]
    placements = [
        [(cells.index(destination[cell]), accepted) for cell, accepted in wanted]
        for _, _, destination in TRANSFORMS[rules.rotations, rules.mirror_images]
    ]
    deals = list(permutations(FIGURES, len(cells)))
    fits = sum(
        any(all(accepted >> cards[spot] & 1 for spot, accepted in placed) for placed in placements) for cards in deals
    )
    return Fraction(fits, len(deals))


def test_count_fillings_agrees_with_listing():
    allowed = [0b0111, 0b0110, 0b1101]
    listed = sum(
        all(allowed[cell] >> card & 1 for cell, card in enumerate(cards)) for cards in permutations(range(4), 3)
    )
    assert count_fillings(allowed) == listed


@pytest.mark.parametrize("matching", ["shape or colour", "shape and colour", "colour"])
def test_unturned_cards_fit_as_listed(matching):
    task = ("red star", "blue moon", None, None, "green heart", None, None, None, None)
    rules = Rules(rotations=False, matching=matching)
    assert chance_layout_fits(task, rules) == listed_chance(task, (0, 1, 4), rules)


@pytest.mark.slow
def test_turned_cards_fit_as_listed():
    corners = (0, 2, 6, 8)
    assert chance_layout_fits(OPPOSITE_CORNERS) == listed_chance(OPPOSITE_CORNERS, corners, Rules())


def test_sampled_layouts_agree_within_four_standard_errors():
    rng, card, trials = random.Random(2024), task_card(1), 20_000
    hits = sum(solvable(rng.sample(FIGURES, 9), (), card, Rules()) for _ in range(trials))
    exact = chance_layout_fits(card)
    standard_error = math.sqrt(exact * (1 - exact) / trials)
    assert abs(hits / trials - exact) < 4 * standard_error


@pytest.mark.parametrize("card", task_cards(), ids=lambda card: f"card{card.number}")
def test_turning_helps_but_at_most_fourfold(card):
    still = chance_layout_fits(card, Rules(rotations=False))
    turning = chance_layout_fits(card)
    assert still <= turning <= 4 * still


@pytest.mark.parametrize("number", [1, 7, 17, 25])
def test_mirroring_helps_but_at_most_eightfold(number):
    card = task_card(number)
    still = chance_layout_fits(card, Rules(rotations=False))
    assert chance_layout_fits(card) <= chance_layout_fits(card, Rules(mirror_images=True)) <= 8 * still


def test_deck_average_is_the_mean_over_cards():
    cards = [card for card in task_cards() if card.size <= 3]
    rules = Rules(largest_task=3)
    assert chance_random_task_fits(rules) == sum(chance_layout_fits(c, rules) for c in cards) / len(cards)
