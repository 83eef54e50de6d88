"""Colorium's rules: one frozen dataclass, one field per rule or edition decision."""

from __future__ import annotations

import dataclasses

from colorlab.rules import RulesBase, rule

DROP_RULES = ("slide", "straight")


@dataclasses.dataclass(frozen=True)
class Rules(RulesBase):
    """The rules of one game of Colorium (the colorlab edition by default)."""

    players: int = rule(2, "Players", "How many people (or bots) play.", low=1, high=4)
    width: int = rule(8, "Board width", "Columns on each board.", low=4, high=12)
    height: int = rule(8, "Board height", "Rows on each board (row 1 is the bottom).", low=4, high=12)
    shapes: str = rule(
        "IOTLSV",
        "Shapes on the dice",
        "The faces of the shape die, as letters: I (four in a "
        "line), O (2x2), T, L, S (skew) and V (three cells in an L).",
        choices=("IOTLSV", "IOTLS", "OTLSV", "ITLV"),
    )
    colours: str = rule(
        "RYGBPO",
        "Colours on the dice",
        "The faces of the colour die, as codes: red, yellow, green, blue, purple, orange.",
        choices=("RYGBPO", "RYGB"),
    )
    drop: str = rule(
        "slide",
        "Drop rule",
        "The rulebook says shapes drop from the top and cannot squeeze "
        "through gaps smaller than themselves. slide: the shape may move down, left and right "
        "through empty cells to rest anywhere it is supported. straight: it only falls straight "
        "down in one column position.",
        choices=DROP_RULES,
        live=True,
    )
    mirror_images: bool = rule(True, "Mirror images", "May a shape be mirrored as well as turned?", live=True)
    bonuses: bool = rule(
        True,
        "Column bonuses",
        "Do full columns give the bonus printed above them "
        "(colour, shape, scissors, wild, wild, scissors, shape, colour)? Each is used once, from "
        "the next round on, and you may use all your ready bonuses in the same round: a new "
        "colour, a new shape, one cut per pair of scissors and one space per wild. Two scissors "
        "cut the shape, then cut the part you kept once more; each part must hold together. "
        "A second colour or shape bonus changes nothing more, so it stays for later. "
        "A player who is out uses no bonus any more.",
    )
    cut_counts_as: str = rule(
        "die",
        "A cut part counts as",
        "The rulebook does not say which shape a cut part is for "
        "the shape missions and the all-shapes bonus. die: the shape on your die (after a "
        "shape bonus, the new one), even when you drew only part of it. part: the die shape "
        "the part looks like (an L cut down to three spaces counts as V); a part like no die "
        "shape counts as none. none: a cut part never counts as a shape.",
        choices=("die", "part", "none"),
    )
    row_rewards: bool = rule(
        True, "Row races", "Do the first and second players to complete rows 1, 3, 5 and 7 score 3, 5/2, 7/3 and 10/5?"
    )
    missions: str = rule(
        "random",
        "Missions",
        "random: one mission card of each type is drawn from the seed; or the first card of each type.",
        choices=("random", "first"),
    )
    mission_ids: str = rule(
        "",
        "Play these missions",
        "Mission ids separated by commas or semicolons (for example a learner's own "
        "mission added with colorium.add_mission); empty: draw them by the rule above.",
    )
    all_six_points: int = rule(
        10,
        "All six shapes or colours",
        "Points for drawing all six shapes (and again for all six colours).",
        low=0,
        high=30,
        live=True,
    )
    five_points: int = rule(
        5, "Five of six", "Points for five of the six shapes (or colours).", low=0, high=30, live=True
    )
