"""A still picture of a ColorFox table, for pages shown without a running kernel."""

from __future__ import annotations

from html import escape

from colorlab.palette import GLYPHS, PALETTES, colour, glyph_inks

CELL = 40


def tile_svg(edges: list[str], x: float, y: float, size: float = CELL, palette: str = "default") -> str:
    """Draw one card as four coloured triangles meeting in the middle, each with its colour's glyph."""
    c = size / 2
    corners = [(x, y), (x + size, y), (x + size, y + size), (x, y + size)]
    marks = [
        (x + c, y + size * 0.25),
        (x + size * 0.78, y + c + 4),
        (x + c, y + size * 0.9),
        (x + size * 0.22, y + c + 4),
    ]
    parts, inks = [], glyph_inks()[palette]
    for side, name in enumerate(edges):
        (ax, ay), (bx, by) = corners[side], corners[(side + 1) % 4]
        hue = colour(name)
        parts.append(
            f'<path d="M{ax:g} {ay:g} L{bx:g} {by:g} L{x + c:g} {y + c:g} Z" '
            f'fill="{PALETTES[palette][hue]}" stroke="#333" stroke-width="0.8"/>'
        )
        parts.append(
            f'<text x="{marks[side][0]:g}" y="{marks[side][1]:g}" font-size="9" '
            f'text-anchor="middle" fill="{inks[hue.value]}">{GLYPHS[hue]}</text>'
        )
    return "".join(parts)


def table_svg(view: dict, palette: str = "default") -> str:
    """Draw the table, your hand and everyone's score, as an HTML block with an SVG."""
    xs = [t["x"] for t in view["table"]] or [0]
    ys = [t["y"] for t in view["table"]] or [0]
    left, top = min(xs), min(ys)
    width = max((max(xs) - left + 1) * CELL + 20, 60 * len(view["hand"]) + 20, 320)
    height = (max(ys) - top + 1) * CELL
    parts = [
        tile_svg(t["edges"], 10 + (t["x"] - left) * CELL, 30 + (t["y"] - top) * CELL, CELL, palette)
        for t in view["table"]
    ]
    parts.append('<text x="10" y="20" font-size="16">ColorFox table</text>')
    hand_y = 50 + height
    parts.append(f'<text x="10" y="{hand_y:g}" font-size="14">Your hand</text>')
    parts += [tile_svg(card["edges"], 10 + 50 * i, hand_y + 8, CELL, palette) for i, card in enumerate(view["hand"])]
    names = view.get("names") or [f"Player {p}" for p in range(len(view["scores"]))]
    scores = ", ".join(f"{escape(n)}: {s}" for n, s in zip(names, view["scores"]))
    parts.append(f'<text x="10" y="{hand_y + 70:g}" font-size="14">Scores: {scores}</text>')
    return (
        f'<div class="colorlab-still"><svg xmlns="http://www.w3.org/2000/svg" width="{width}" '
        f'height="{hand_y + 80:g}" role="img" aria-label="ColorFox table">{"".join(parts)}</svg></div>'
    )


ROOM_ZOOM = 1.6  # the cards are drawn for a page of cards; the teacher looks at a few of them from afar


def room_svg(view: dict, names: list[str]) -> str:
    """The cards on a table, as the teacher's page shows it (the hands stay hidden)."""
    xs, ys = [card["x"] for card in view["table"]], [card["y"] for card in view["table"]]
    left, top = min(xs), min(ys)
    width, height = (max(xs) - left + 1) * CELL + 20, (max(ys) - top + 1) * CELL + 20
    tiles = "".join(
        tile_svg(card["edges"], 10 + (card["x"] - left) * CELL, 10 + (card["y"] - top) * CELL) for card in view["table"]
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width * ROOM_ZOOM:g}" height="{height * ROOM_ZOOM:g}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-label="The cards on the table">{tiles}</svg>'
    )
