"""Tiny SVG writer: compact number formatting, elements and the sprite wrapper.

Everything the decks emit goes through here so that the output is short (integer or one-decimal
coordinates, no redundant zeros) and identical on every run.
"""

from __future__ import annotations

from collections.abc import Iterable

# One palette for both decks: contrast was chosen against PAPER (ink ~15:1, red ~6:1).
PAPER = "#f4ecd8"
INK = "#1a1a1a"
RED = "#b3261e"


def num(value: float) -> str:
    """Format a coordinate with at most one decimal and no leading zero (``0.5`` -> ``.5``)."""
    # Rounding to 6 places first absorbs last-bit differences between platforms' sin/cos, so
    # the committed sprites come out byte for byte the same on any machine.
    rounded = round(round(value, 6), 1)
    if rounded == int(rounded):
        return str(int(rounded))
    text = f"{rounded:.1f}"
    if text.startswith("0."):
        return text[1:]
    if text.startswith("-0."):
        return "-" + text[2:]
    return text


def attr_value(value: object) -> str:
    if isinstance(value, bool):
        raise TypeError("boolean SVG attribute")
    if isinstance(value, int | float):
        return num(value)
    return str(value)


def el(tag: str, *children: str, **attrs: object) -> str:
    """One element; ``stroke_width=1`` becomes ``stroke-width="1"``, ``None`` values are dropped."""
    parts = [tag]
    for key, value in attrs.items():
        if value is None:
            continue
        name = key.rstrip("_").replace("_", "-")
        parts.append(f'{name}="{attr_value(value)}"')
    head = " ".join(parts)
    body = "".join(children)
    if not body:
        return f"<{head}/>"
    return f"<{head}>{body}</{tag}>"


def use(ref: str, x: float = 0, y: float = 0, **attrs: object) -> str:
    """A ``<use>`` of an internal motif; x and y are only written when not zero."""
    return el("use", href=f"#{ref}", x=x or None, y=y or None, **attrs)


def tr(x: float, y: float, scale: float = 1, rotate: float = 0) -> str:
    """A transform attribute value: translate, then rotate and scale around that point."""
    out = f"translate({num(x)} {num(y)})"
    if rotate:
        out += f" rotate({num(rotate)})"
    if scale != 1:
        text = f"{round(scale, 2):g}"
        out += f" scale({text[1:] if text.startswith('0.') else text})"
    return out


def sprite(defs: Iterable[str], symbols: Iterable[str]) -> str:
    """The whole file: hidden root, shared motifs in ``<defs>``, then one symbol per card."""
    body = "<defs>" + "".join(defs) + "</defs>\n" + "\n".join(symbols)
    return '<svg xmlns="http://www.w3.org/2000/svg" style="display:none">\n' + body + "\n</svg>\n"


# Inherited paint properties, pinned on every card's root group. A card is used from pages with
# an external <use>, and inherited properties (unlike selectors) reach into it from the <use>:
# without this, a page rule such as `svg { stroke-dasharray: 2 }` would redraw every card.
PAINT_RESET = {
    "fill": "none",
    "stroke": "none",
    "stroke_width": 1,
    "stroke_linecap": "butt",
    "stroke_linejoin": "miter",
    "stroke_miterlimit": 4,
    "stroke_dasharray": "none",
    "stroke_dashoffset": 0,
    "stroke_opacity": 1,
    "fill_opacity": 1,
    "fill_rule": "nonzero",
    "paint_order": "normal",
    "marker": "none",
    "visibility": "visible",
}


def symbol(card_id: str, view_box: str, *children: str) -> str:
    """A card: its own viewBox and a root group that pins every inherited paint property."""
    return el("symbol", el("g", *children, **PAINT_RESET), id=card_id, viewBox=view_box)


def lattice(x0: float, y0: float, x1: float, y1: float, step: float) -> str:
    """Path data of a diamond lattice filling a box: diagonals both ways, clipped by hand.

    Clipping by arithmetic instead of a clipPath keeps each card free of ``url(#...)`` paint
    and clip references, which some browsers do not resolve inside an external ``<use>``.
    """
    out = []
    k = x0 - y1
    while k <= x1 + y1:
        for slope in (1, -1):
            ends = set()
            for x in (x0, x1):
                y = x - k if slope == 1 else k - x
                if y0 <= y <= y1:
                    ends.add((x, y))
            for y in (y0, y1):
                x = y + k if slope == 1 else k - y
                if x0 <= x <= x1:
                    ends.add((x, y))
            if len(ends) >= 2:
                (ax, ay), (bx, by) = min(ends), max(ends)
                if (ax, ay) != (bx, by):
                    out.append(f"M{num(ax)} {num(ay)}L{num(bx)} {num(by)}")
        k += step
    return "".join(out)
