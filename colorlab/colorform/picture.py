"""A still picture of a Col-Or-Form table, for pages shown without a running kernel.

The widget needs a kernel; an exported or printed lesson does not have one. This
module draws the same table as plain SVG (inside a small HTML block), with the
figures' glyphs so that the picture works in black and white too.
"""

from __future__ import annotations

from html import escape

from colorlab.colorform.components import SHAPE_PATHS
from colorlab.palette import GLYPHS, PALETTES, colour, glyph_inks


def figure_svg(name: str, x: float, y: float, size: float, palette: str = "default") -> str:
    """Draw one figure (like "red star") in a square at (x, y), with its colour's glyph on a badge."""
    hue_name, shape = name.split()
    hue = colour(hue_name)
    fill = PALETTES[palette][hue]
    scale = size / 100
    return (
        f'<g transform="translate({x:g},{y:g}) scale({scale:g})">'
        f"<title>{escape(name)}</title>"
        f'<path d="{SHAPE_PATHS[shape]}" fill="{fill}" stroke="#222" stroke-width="3"/>'
        f'<circle cx="82" cy="82" r="17" fill="{fill}" stroke="#222" stroke-width="2"/>'
        f'<text x="82" y="91" font-size="24" text-anchor="middle" fill="{glyph_inks()[palette][hue.value]}">'
        f"{GLYPHS[hue]}</text></g>"
    )


def grid_svg(cells: list, x: float, y: float, cell: float, palette: str, under: list | None = None) -> str:
    """Draw nine cells (figure names or None) as a 3x3 grid at (x, y)."""
    parts = []
    for index, name in enumerate(cells):
        cx, cy = x + (index % 3) * cell, y + (index // 3) * cell
        parts.append(f'<rect x="{cx:g}" y="{cy:g}" width="{cell:g}" height="{cell:g}" fill="#fff" stroke="#888"/>')
        if name:
            parts.append(figure_svg(name, cx + cell * 0.1, cy + cell * 0.1, cell * 0.8, palette))
        if under and under[index]:
            parts.append(f'<text x="{cx + 4:g}" y="{cy + 14:g}" font-size="12">+{under[index]}</text>')
    return "".join(parts)


def table_svg(view: dict, palette: str = "default") -> str:
    """Draw the layout, the revealed task cards and your hand, as an HTML block with an SVG."""
    layout = [spot["top"] for spot in view["layout"]]
    under = [spot["under"] for spot in view["layout"]]
    tasks = view["tasks"]
    hand = view["hands"][view["you"]]
    width = max(330 + 110 * len(tasks), 60 * len(hand) + 20, 330)
    parts = [
        grid_svg(layout, 10, 30, 100, palette, under),
        '<text x="10" y="20" font-size="16">Layout</text>',
        '<text x="330" y="20" font-size="16">Task cards</text>',
    ]
    for index, task in enumerate(tasks):
        x = 330 + 110 * index
        parts.append(grid_svg(task["cells"], x, 30, 33, palette))
        parts.append(f'<text x="{x:g}" y="148" font-size="12">task {task["number"]} ({task["size"]})</text>')
    parts.append('<text x="10" y="355" font-size="16">Your hand</text>')
    parts += [figure_svg(name, 10 + 60 * i, 365, 50, palette) for i, name in enumerate(hand)]
    scores = ", ".join(f"{escape(n)}: {s}" for n, s in zip(view.get("names", []), view["scores"]))
    parts.append(f'<text x="10" y="440" font-size="14">Round {view["round"]}. Scores: {scores}</text>')
    return (
        f'<div class="colorlab-still"><svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="450" '
        f'role="img" aria-label="Col-Or-Form table">{"".join(parts)}</svg></div>'
    )


def room_svg(view: dict, names: list[str]) -> str:
    """The layout, the task cards turned up and every hand (they all lie face up), as the teacher's page shows them."""
    parts = [
        grid_svg(
            [spot["top"] for spot in view["layout"]], 10, 10, 60, "default", [spot["under"] for spot in view["layout"]]
        )
    ]
    for index, task in enumerate(view["tasks"]):
        x = 210 + 110 * index
        parts.append(grid_svg(task["cells"], x, 10, 33, "default"))
        parts.append(f'<text x="{x}" y="130" font-size="12">task {task["number"]} ({task["size"]})</text>')
    for seat, hand in enumerate(view["hands"]):
        y = 200 + 50 * seat
        parts.append(f'<text x="10" y="{y + 26}" font-size="14">{escape(names[seat])}</text>')
        parts += [figure_svg(card, 120 + 46 * i, y, 40) for i, card in enumerate(hand)]
    width, height = max(420, 210 + 110 * len(view["tasks"])), 210 + 50 * len(view["hands"])
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img" '
        f'aria-label="The layout and the hands">{"".join(parts)}</svg>'
    )
