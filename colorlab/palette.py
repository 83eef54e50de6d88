"""The eleven colours every colorlab game draws from.

Each colour has a screen colour, a one-letter code and a glyph, so that no game
depends on colour vision alone. Two palettes exist: the default one, close to
the printed cards, and a colour-blind-safe one built on the Okabe-Ito colours
(safe for protanopia, deuteranopia and tritanopia), where the glyph carries
whatever the hue cannot.
"""

from __future__ import annotations

import enum


class Colour(enum.Enum):
    """One of the eleven colours of the colorlab palette."""

    BLUE = "blue"
    GREEN = "green"
    RED = "red"
    ORANGE = "orange"
    YELLOW = "yellow"
    BROWN = "brown"
    PINK = "pink"
    BLACK = "black"
    WHITE = "white"
    PURPLE = "purple"
    GREY = "grey"

    @property
    def code(self) -> str:
        """Which one-letter code stands for this colour?"""
        return CODES[self]

    @property
    def glyph(self) -> str:
        """Which glyph marks this colour for readers who cannot rely on hue?"""
        return GLYPHS[self]

    def __str__(self) -> str:
        return self.value


CODES: dict[Colour, str] = {
    Colour.BLUE: "B",
    Colour.GREEN: "G",
    Colour.RED: "R",
    Colour.ORANGE: "O",
    Colour.YELLOW: "Y",
    Colour.BROWN: "N",
    Colour.PINK: "K",
    Colour.BLACK: "L",
    Colour.WHITE: "W",
    Colour.PURPLE: "P",
    Colour.GREY: "E",
}

GLYPHS: dict[Colour, str] = {
    Colour.BLUE: "≈",
    Colour.GREEN: "♣",
    Colour.RED: "●",
    Colour.ORANGE: "▲",
    Colour.YELLOW: "☀",
    Colour.BROWN: "▦",
    Colour.PINK: "✿",
    Colour.BLACK: "■",
    Colour.WHITE: "□",
    Colour.PURPLE: "◆",
    Colour.GREY: "▒",
}

DEFAULT: dict[Colour, str] = {
    Colour.BLUE: "#1f5fbf",
    Colour.GREEN: "#2e9b3a",
    Colour.RED: "#d62828",
    Colour.ORANGE: "#f28c28",
    Colour.YELLOW: "#f7d21e",
    Colour.BROWN: "#7b4a21",
    Colour.PINK: "#f48fb1",
    Colour.BLACK: "#1a1a1a",
    Colour.WHITE: "#ffffff",
    Colour.PURPLE: "#7b3fa0",
    Colour.GREY: "#8c8c8c",
}

COLOUR_BLIND_SAFE: dict[Colour, str] = {
    Colour.BLUE: "#0072b2",
    Colour.GREEN: "#009e73",
    Colour.RED: "#d55e00",
    Colour.ORANGE: "#e69f00",
    Colour.YELLOW: "#f0e442",
    Colour.BROWN: "#8c5a2b",
    Colour.PINK: "#cc79a7",
    Colour.BLACK: "#000000",
    Colour.WHITE: "#ffffff",
    Colour.PURPLE: "#6a3d9a",
    Colour.GREY: "#999999",
}

PALETTES: dict[str, dict[Colour, str]] = {
    "default": DEFAULT,
    "colour-blind-safe": COLOUR_BLIND_SAFE,
}

# Black or white: one of them always stands out from any colour by at least 4.58:1, as WCAG asks of text.
INKS = ("#000000", "#ffffff")


def colour(name: str | Colour) -> Colour:
    """Which colour does this name, or one-letter code, stand for?

    Examples
    ========

    >>> from colorlab.palette import colour
    >>> colour("Purple"), colour("P"), colour("gray")
    (<Colour.PURPLE: 'purple'>, <Colour.PURPLE: 'purple'>, <Colour.GREY: 'grey'>)
    """
    if isinstance(name, Colour):
        return name
    if not isinstance(name, str):
        raise ValueError(f"{name!r} is not a colour name")
    text = name.strip()
    if len(text) == 1:
        for candidate, code in CODES.items():
            if code == text.upper():
                return candidate
    key = text.lower().replace("gray", "grey").replace("colour", "").strip()
    try:
        return Colour(key)
    except ValueError:
        allowed = ", ".join(c.value for c in Colour)
        raise ValueError(f"{name!r} is not a colour; choose one of {allowed}") from None


def screen_colour(which: Colour, palette: str = "default") -> str:
    """Which hex colour draws this colour on screen in the given palette?

    Examples
    ========

    >>> from colorlab.palette import Colour, screen_colour
    >>> screen_colour(Colour.RED), screen_colour(Colour.RED, "colour-blind-safe")
    ('#d62828', '#d55e00')
    """
    if palette not in PALETTES:
        raise ValueError(f"palette {palette!r} is unknown; choose one of {', '.join(PALETTES)}")
    return PALETTES[palette][which]


def css_variables(palette: str = "default") -> dict[str, str]:
    """Which CSS custom properties paint a widget in this palette?"""
    return {f"--colorlab-{c.value}": screen_colour(c, palette) for c in Colour}


def luminance(hex_colour: str) -> float:
    """How light is a #rrggbb colour, by WCAG's relative luminance (0 black, 1 white)?

    Examples
    ========

    >>> from colorlab.palette import luminance
    >>> luminance("#000000"), luminance("#ffffff"), round(luminance("#808080"), 3)
    (0.0, 1.0, 0.216)
    """
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    red, green, blue = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast(one: str, other: str) -> float:
    """What is WCAG's contrast ratio (1 to 21) between two #rrggbb colours?

    Examples
    ========

    >>> from colorlab.palette import contrast
    >>> contrast("#000000", "#ffffff"), round(contrast("#ffffff", "#767676"), 2)
    (21.0, 4.54)
    """
    light, dark = sorted((luminance(one), luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def glyph_inks() -> dict[str, dict[str, str]]:
    """Which ink, black or white, shows a glyph best on each colour of each palette?

    Examples
    ========

    >>> from colorlab.palette import glyph_inks
    >>> inks = glyph_inks()
    >>> inks["default"]["purple"], inks["default"]["yellow"], inks["default"]["red"]
    ('#ffffff', '#000000', '#ffffff')
    >>> inks["colour-blind-safe"]["purple"], inks["colour-blind-safe"]["yellow"], inks["colour-blind-safe"]["red"]
    ('#ffffff', '#000000', '#000000')
    """
    return {
        palette: {c.value: max(INKS, key=lambda ink: contrast(ink, screen)) for c, screen in colours.items()}
        for palette, colours in PALETTES.items()
    }
