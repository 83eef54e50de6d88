"""A still picture of Colorium boards, for pages shown without a running kernel."""

from __future__ import annotations

from html import escape

from colorlab.palette import GLYPHS, PALETTES, colour, glyph_inks

CELL = 22


def board_svg(rows: list[str], x: float, y: float, cell: float = CELL, palette: str = "default") -> str:
    """Draw one board (rows top first, colour codes or '.') with a glyph in every filled space."""
    parts, inks = [], glyph_inks()[palette]
    for r, row in enumerate(rows):
        for c, code in enumerate(row):
            left, top = x + c * cell, y + r * cell
            fill = "#fff" if code == "." else PALETTES[palette][colour(code)]
            parts.append(
                f'<rect x="{left:g}" y="{top:g}" width="{cell:g}" height="{cell:g}" fill="{fill}" stroke="#999"/>'
            )
            if code != ".":
                parts.append(
                    f'<text x="{left + cell / 2:g}" y="{top + cell * 0.7:g}" font-size="{cell * 0.5:g}" '
                    f'text-anchor="middle" fill="{inks[colour(code).value]}">{GLYPHS[colour(code)]}</text>'
                )
    return "".join(parts)


def table_svg(view: dict, palette: str = "default") -> str:
    """Draw every player's board with its score, and the missions in play, as an HTML block."""
    boards = view["boards"]
    width = len(boards[0][0]) * CELL
    height = len(boards[0]) * CELL
    parts = []
    for p, rows in enumerate(boards):
        x = 10 + p * (width + 30)
        parts.append(
            f'<text x="{x:g}" y="20" font-size="14">{escape(view["names"][p])}: {view["scores"][p]} pts</text>'
        )
        parts.append(board_svg(rows, x, 30, CELL, palette))
    missions = "; ".join(escape(m["title"]) for m in view["missions"])
    parts.append(f'<text x="10" y="{height + 55:g}" font-size="13">Missions: {missions}</text>')
    total = 20 + len(boards) * (width + 30)
    return (
        f'<div class="colorlab-still"><svg xmlns="http://www.w3.org/2000/svg" width="{total:g}" '
        f'height="{height + 70:g}" role="img" aria-label="Colorium boards">{"".join(parts)}</svg></div>'
    )


def room_svg(view: dict, names: list[str]) -> str:
    """Every board with its player's name, as the teacher's page shows a table."""
    return table_svg({**view, "names": names})
