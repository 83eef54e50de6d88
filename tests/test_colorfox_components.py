"""ColorFox's cards: the checked-in deck, its balance, sides and half turns, and the file checks."""

import dataclasses
import json
from collections import Counter

import pytest

from colorlab.colorfox.components import (
    CARDS_FILE,
    COLOURS,
    OPPOSITE,
    SIDES,
    STEP,
    Card,
    card,
    cards,
    cards_to_json,
    check_deck,
    generate_cards,
    parse_cards,
)
from colorlab.palette import Colour


def test_colours_are_the_edition_six():
    assert COLOURS == (Colour.RED, Colour.ORANGE, Colour.YELLOW, Colour.GREEN, Colour.BLUE, Colour.PURPLE)


def test_checked_in_deck_is_the_generator_output():
    assert tuple(generate_cards()) == cards()
    assert CARDS_FILE.read_text(encoding="utf-8") == cards_to_json(generate_cards())


def test_generator_is_deterministic_and_seeded():
    assert generate_cards(7) == generate_cards(7)
    assert generate_cards(7) != generate_cards(8)


@pytest.mark.parametrize("seed", range(20))
def test_every_seed_deals_a_balanced_deck(seed):
    check_deck(generate_cards(seed))


def test_deck_balance():
    deck = cards()
    assert len(deck) == 54
    assert [card.number for card in deck] == list(range(1, 55))
    assert Counter(card.kind for card in deck) == {2: 18, 3: 18, 4: 18}
    assert Counter(edge for card in deck for edge in card.edges) == dict.fromkeys(COLOURS, 36)


def test_no_card_repeats_even_after_a_half_turn():
    printed = [card.edges for card in cards()]
    assert len(set(printed)) == 54
    for card_a in cards():
        for card_b in cards():
            if card_a.number != card_b.number:
                assert card_a.half_turned().edges != card_b.edges


def test_half_turn_twice_is_the_identity():
    for each in cards():
        assert each.half_turned().half_turned() == each
        for side in SIDES:
            assert each.half_turned().edge(side) == each.edge(OPPOSITE[side])


def test_opposite_and_step_agree():
    assert set(OPPOSITE) == set(STEP) == set(SIDES)
    assert STEP["top"] == (0, -1)
    for side in SIDES:
        assert OPPOSITE[OPPOSITE[side]] == side != OPPOSITE[side]
        dx, dy = STEP[side]
        back_x, back_y = STEP[OPPOSITE[side]]
        assert (dx + back_x, dy + back_y) == (0, 0)
        assert abs(dx) + abs(dy) == 1


def test_card_reads_its_edges():
    first = card(1)
    assert first.edges == tuple(first.edge(side) for side in SIDES)
    assert first.colours == frozenset(first.edges)
    assert str(first) == "#1 " + "/".join(edge.code for edge in first.edges)
    with pytest.raises(ValueError, match="not a side"):
        first.edge("up")


@pytest.mark.parametrize("number", [0, 55, "1", True, 1.0])
def test_unknown_card_number_is_refused(number):
    with pytest.raises(ValueError, match="no card"):
        card(number)


def test_card_refuses_a_colour_outside_the_game():
    with pytest.raises(ValueError, match="needs 4 edges"):
        Card(1, (Colour.RED, Colour.PINK, Colour.RED, Colour.BLUE))
    with pytest.raises(ValueError, match="needs 4 edges"):
        Card(1, (Colour.RED, Colour.BLUE, Colour.RED))


def broken_file(change) -> str:
    """Write the checked-in deck as JSON after `change` edits its first card entry."""
    data = json.loads(cards_to_json(cards()))
    change(data["cards"][0])
    return json.dumps(data)


def test_parse_cards_reads_back_what_cards_to_json_wrote():
    assert tuple(parse_cards(cards_to_json(cards()))) == cards()


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda entry: entry.update(top="mauve"), "card 1: 'mauve' is not a colour"),
        (lambda entry: entry.update(top="pink"), "card 1 needs 4 edges"),
        (lambda entry: entry.pop("left"), "entry 1 must give a number"),
        (lambda entry: entry.update(number=2), "numbered 1, 2, 3"),
    ],
)
def test_parse_cards_refuses_a_broken_file(change, message):
    with pytest.raises(ValueError, match=message):
        parse_cards(broken_file(change))


def test_parse_cards_refuses_a_file_without_cards():
    with pytest.raises(ValueError, match='"cards" list'):
        parse_cards('{"colours": []}')


def recoloured(deck, number, side, hue):
    """Which deck is this one with one edge of one card recoloured?"""
    index = number - 1
    edges = list(deck[index].edges)
    edges[SIDES.index(side)] = hue
    return deck[:index] + (dataclasses.replace(deck[index], edges=tuple(edges)),) + deck[index + 1 :]


def test_checker_refuses_an_unbalanced_deck():
    deck = cards()
    with pytest.raises(ValueError, match="54 cards"):
        check_deck(deck[:-1])
    four = next(each for each in deck if each.kind == 4)
    with pytest.raises(ValueError, match="by number of colours"):
        check_deck(recoloured(deck, four.number, "top", four.edge("bottom")))
    missing = next(hue for hue in COLOURS if hue not in four.colours)
    with pytest.raises(ValueError, match="must be on 36 edges"):
        check_deck(recoloured(deck, four.number, "top", missing))


def test_checker_refuses_a_card_equal_to_another_half_turned():
    deck = cards()
    # 18 four-colour cards share 15 sets of four colours, so two of them show the same set.
    first, second = next(
        (a, b) for a in deck for b in deck if a.kind == 4 and a.number < b.number and a.colours == b.colours
    )
    twin = Card(second.number, first.half_turned().edges)
    with pytest.raises(ValueError, match=f"card {second.number} equals card {first.number}"):
        check_deck(deck[: second.number - 1] + (twin,) + deck[second.number :])
