"""Hand-drawn index glyphs: the digits 0-9 as centre-line stroke paths in an 8 x 12 box.

Drawing the digits as paths keeps the index identical on every phone (no font lookup) and lets
one definition serve any size. The paths carry no stroke colour, so each ``<use>`` picks its ink.
"""

from __future__ import annotations

from .svg import el

DIGITS = {
    "0": "M4 .2C1.7.2.6 2.7.6 6S1.7 11.8 4 11.8 7.4 9.3 7.4 6 6.3.2 4 .2Z",
    "1": "M1.6 2.8 4.6.2V11.8M1.8 11.8H7.4",
    "2": "M.9 3C1.2 1.2 2.5.2 4.1.2 6 .2 7.2 1.4 7.2 3.2 7.2 5.8 3.6 8 .7 11.8H7.5",
    "3": "M1 1.9C1.7.8 2.8.2 4.1.2 5.9.2 7 1.3 7 2.9S5.8 5.7 3.6 5.7C6 5.7 7.4 6.9 7.4 8.7S6 11.8"
    " 3.9 11.8C2.4 11.8 1.2 11.2.6 10",
    "4": "M5.6 11.8V.2L.5 8.4H7.6",
    "5": "M6.9.2H1.7L1.1 5.4C1.9 4.8 2.9 4.5 4 4.5 6 4.5 7.5 6 7.5 8.1S6 11.8 3.9 11.8C2.4 11.8"
    " 1.2 11.3.6 10.3",
    "6": "M6.7 1C6 .5 5.1.2 4.2.2 1.9.2.6 2.6.6 6.3V7.6C.6 10.2 2 11.8 4.1 11.8S7.5 10.3 7.5 8.2"
    " 6.1 4.7 4.1 4.7.6 6.2.6 8",
    "7": "M.5.2H7.5C5.3 3.4 3.8 7.4 3.3 11.8",
    "8": "M4 5.7C2 5.7.9 4.6.9 3S2.2.2 4 .2 7.1 1.3 7.1 3 6 5.7 4 5.7C1.8 5.7.5 7 .5 8.7S2"
    " 11.8 4 11.8 7.5 10.4 7.5 8.7 6.2 5.7 4 5.7Z",
    "9": "M1.3 11C2 11.5 2.9 11.8 3.8 11.8 6.1 11.8 7.4 9.4 7.4 5.7V4.4C7.4 1.8 6 .2 3.9.2S.5"
    " 1.7.5 3.8 1.9 7.3 3.9 7.3 7.4 5.8 7.4 4",
}


def digit_defs(prefix: str, stroke_width: float) -> list[str]:
    """``{prefix}0`` .. ``{prefix}9``: stroke-only paths, the colour comes from the ``<use>``.

    Each deck has its own prefix, so a page that inlines both sprites gets no clashing ids.
    """
    return [
        el(
            "path",
            id=f"{prefix}{d}",
            d=path,
            fill="none",
            stroke_width=stroke_width,
            stroke_linecap="round",
            stroke_linejoin="round",
        )
        for d, path in DIGITS.items()
    ]
