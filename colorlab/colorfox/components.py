"""ColorFox's cards: 54 cards, each edge carrying half a match of one of six colours.

A card is read clockwise from its top edge: top, right, bottom, left. Cards lie on
a square grid whose y grows downward, so the neighbour above a card at (x, y)
sits at (x, y - 1).

The deck is made by :func:`generate_cards`, a seeded generator whose output is
checked into ``data/cards.json``; a test makes it again and compares.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter
from functools import cache
from pathlib import Path

from colorlab.palette import Colour, colour

DATA = Path(__file__).parent / "data"
CARDS_FILE = DATA / "cards.json"


def _edition_colours() -> tuple[Colour, ...]:
    data = json.loads(CARDS_FILE.read_text(encoding="utf-8"))
    colours = tuple(colour(name) for name in data["colours"])
    if len(set(colours)) != 6:
        raise ValueError("cards.json must name 6 distinct colours")
    return colours


COLOURS: tuple[Colour, ...] = _edition_colours()

SIDES = ("top", "right", "bottom", "left")
OPPOSITE: dict[str, str] = {"top": "bottom", "right": "left", "bottom": "top", "left": "right"}
STEP: dict[str, tuple[int, int]] = {"top": (0, -1), "right": (1, 0), "bottom": (0, 1), "left": (-1, 0)}

Edges = tuple[Colour, Colour, Colour, Colour]  # top, right, bottom, left

DECK_SIZE = 54
CARDS_PER_KIND = {2: 18, 3: 18, 4: 18}  # distinct colours on a card: how many such cards
EDGES_PER_COLOUR = 36
CARDS_SEED = 20261129


def half_turn(edges: Edges) -> Edges:
    """Which edges face top, right, bottom, left after a half turn (180 degrees)?"""
    top, right, bottom, left = edges
    return (bottom, left, top, right)


@dataclasses.dataclass(frozen=True)
class Card:
    """A numbered card: one colour on each edge, top, right, bottom, left.

    Examples
    ========

    >>> from colorlab.colorfox.components import Card
    >>> from colorlab.palette import Colour
    >>> card = Card(12, (Colour.RED, Colour.ORANGE, Colour.YELLOW, Colour.RED))
    >>> str(card), card.kind, card.edge("left")
    ('#12 R/O/Y/R', 3, <Colour.RED: 'red'>)
    >>> str(card.half_turned())
    '#12 Y/R/R/O'
    """

    number: int
    edges: Edges

    def __post_init__(self) -> None:
        if not isinstance(self.edges, tuple) or len(self.edges) != 4 or any(edge not in COLOURS for edge in self.edges):
            raise ValueError(
                f"card {self.number} needs 4 edges, each one of {', '.join(map(str, COLOURS))}; got {self.edges!r}"
            )

    def edge(self, side: str) -> Colour:
        """Which colour does this card show on this side?"""
        if side not in SIDES:
            raise ValueError(f"{side!r} is not a side; choose one of {', '.join(SIDES)}")
        return self.edges[SIDES.index(side)]

    def half_turned(self) -> Card:
        """Which card does a player see after turning this one upside down?"""
        return Card(self.number, half_turn(self.edges))

    @property
    def colours(self) -> frozenset[Colour]:
        """Which distinct colours does the card show?"""
        return frozenset(self.edges)

    @property
    def kind(self) -> int:
        """How many distinct colours does the card show (2, 3 or 4)?"""
        return len(self.colours)

    def __str__(self) -> str:
        return f"#{self.number} " + "/".join(edge.code for edge in self.edges)


def _deal_edges(rng: random.Random, tries_per_card: int = 100) -> list[Edges] | None:
    """Draw edges for a whole deck card by card, or None if the draw runs into a dead end."""
    kinds = [kind for kind, count in CARDS_PER_KIND.items() for _ in range(count)]
    rng.shuffle(kinds)
    budget = Counter(dict.fromkeys(COLOURS, EDGES_PER_COLOUR))
    taken: set[Edges] = set()
    deck = []
    for kind in kinds:
        for _ in range(tries_per_card):
            hues = rng.sample(COLOURS, kind)
            edges = hues + rng.choices(hues, k=4 - kind)
            rng.shuffle(edges)
            candidate = tuple(edges)
            if candidate not in taken and Counter(candidate) <= budget:
                break
        else:
            return None
        budget -= Counter(candidate)
        taken |= {candidate, half_turn(candidate)}
        deck.append(candidate)
    return deck


def generate_cards(seed: int = CARDS_SEED) -> list[Card]:
    """Deal the 54-card deck: 18 cards each of 2, 3, 4 colours, each colour on 36 edges.

    Each card's edges are drawn at random: k distinct colours, then 4 - k repeats of
    them, shuffled around the card. A draw is kept if the colours' edge budgets allow
    it and neither it nor its half turn is already in the deck. When a card cannot be
    drawn, the deal restarts with a seed derived from `seed` and the attempt number,
    so the same seed always gives the same deck.
    """
    for attempt in range(1000):
        deck = _deal_edges(random.Random(f"colorfox-{seed}-{attempt}"))
        if deck is not None:
            cards = [Card(number, edges) for number, edges in enumerate(deck, start=1)]
            check_deck(cards)
            return cards
    raise RuntimeError(f"no ColorFox deck found from seed {seed}")


def check_deck(cards: list[Card] | tuple[Card, ...]) -> None:
    """Refuse, with a ValueError, a deck that breaks the edition's card counts or colour balance."""
    if len(cards) != DECK_SIZE:
        raise ValueError(f"the deck must hold {DECK_SIZE} cards, not {len(cards)}")
    kinds = Counter(card.kind for card in cards)
    if kinds != Counter(CARDS_PER_KIND):
        raise ValueError(
            f"the deck must hold {CARDS_PER_KIND} cards by number of colours, not {dict(sorted(kinds.items()))}"
        )
    edges = Counter(edge for card in cards for edge in card.edges)
    for hue in COLOURS:
        if edges[hue] != EDGES_PER_COLOUR:
            raise ValueError(f"{hue} must be on {EDGES_PER_COLOUR} edges, not {edges[hue]}")
    seen: dict[Edges, Card] = {}
    for card in cards:
        for edges_seen in {card.edges, half_turn(card.edges)}:
            if edges_seen in seen:
                raise ValueError(
                    f"card {card.number} equals card {seen[edges_seen].number}, as printed or after a half turn"
                )
        seen.update({card.edges: card, half_turn(card.edges): card})


def cards_to_json(cards: list[Card] | tuple[Card, ...]) -> str:
    """Write cards as readable JSON, one card a line with its edges named by side."""
    about = (
        "The 54 ColorFox cards of the colorlab edition, made by "
        "colorlab.colorfox.components.generate_cards(). Each card shows one colour on "
        "each side; 18 cards show 2 distinct colours, 18 show 3 and 18 show 4, and each "
        "colour is on 36 edges."
    )
    rows = [json.dumps({"number": card.number, **{side: str(card.edge(side)) for side in SIDES}}) for card in cards]
    return (
        "{\n"
        f' "about": {json.dumps(about)},\n'
        f' "colours": {json.dumps([str(hue) for hue in COLOURS])},\n'
        ' "cards": [\n  ' + ",\n  ".join(rows) + "\n ]\n}\n"
    )


def parse_cards(text: str) -> list[Card]:
    """Read and check cards written by :func:`cards_to_json`."""
    data = json.loads(text)
    if not isinstance(data, dict) or not isinstance(data.get("cards"), list):
        raise ValueError('the cards file must hold a "cards" list')
    cards = []
    for position, entry in enumerate(data["cards"], start=1):
        if not isinstance(entry, dict) or set(entry) != {"number", *SIDES}:
            raise ValueError(
                f"card entry {position} must give a number and the colours on {', '.join(SIDES)}; got {entry!r}"
            )
        if entry["number"] != position:
            raise ValueError(
                f"cards must be numbered 1, 2, 3, ... in order; entry {position} is numbered {entry['number']!r}"
            )
        try:
            edges = tuple(colour(entry[side]) for side in SIDES)
        except ValueError as error:
            raise ValueError(f"card {position}: {error}") from None
        cards.append(Card(position, edges))
    return cards


@cache
def cards() -> tuple[Card, ...]:
    """The 54 cards of the colorlab edition, from the data file, checked against the edition."""
    deck = tuple(parse_cards(CARDS_FILE.read_text(encoding="utf-8")))
    try:
        check_deck(deck)
    except ValueError as error:
        raise ValueError(f"{CARDS_FILE.name} breaks the ColorFox edition: {error}") from None
    return deck


def card(number: int) -> Card:
    """Which card has this number?"""
    deck = cards()
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= len(deck):
        raise ValueError(f"there is no card {number!r}; cards are numbered 1 to {len(deck)}")
    return deck[number - 1]
