"""The money-card deck (Koa and Kowah): 30 long narrow cards plus a back, as one SVG sprite.

Symbols are named by the Kowah id; Koa maps onto them with the table in RULES.md. Each card has
the same frame: an index band at the top and, turned round, at the bottom (cards are held in a
fan, so one of the two always shows), and a picture in between. The index gives the group at a
glance: a big digit for the rank, inverted (paper on ink) for the six hiu cards, and a suit mark
beside it. Black ink on paper, with the red stamp only on the three cards that carry it.
"""

from __future__ import annotations

from collections.abc import Sequence

from .glyphs import digit_defs
from .svg import INK, PAPER, RED, el, lattice, sprite, symbol, tr, use

W, H = 40, 104
VIEW_BOX = f"0 0 {W} {H}"
SUITS = ("coins", "strings", "myriads")
HONOURS = ("old-thousand", "red-flower", "white-flower")
# Top band 2.5..22.5, picture 22.5..81.5 (centre 52), bottom band 81.5..101.5.
MID = 52

BAND = "#e8dcc0"
FLOWER_PETAL = "M0 0C-3.2-2.6-3.6-8.4 0-11 3.6-8.4 3.2-2.6 0 0Z"


def card_ids() -> list[str]:
    return [f"{s}-{r}" for s in SUITS for r in range(1, 10)] + list(HONOURS)


def motif_defs() -> list[str]:
    """Shared motifs, all ``m-`` prefixed so they never collide with card ids."""
    coin = el(
        "g",
        el("circle", r=6, fill=PAPER, stroke=INK, stroke_width=1.3),
        el("circle", r=4.2, fill="none", stroke=INK, stroke_width=0.5),
        # Four tiny marks stand for the characters cast on a real cash coin.
        el(
            "path",
            d="M-.6-3.4h1.2M-.6 3.4h1.2M-3.4-.6v1.2M3.4-.6v1.2",
            stroke=INK,
            stroke_width=0.7,
        ),
        el("rect", x=-1.8, y=-1.8, width=3.6, height=3.6, fill=INK),
        id="m-coin",
    )
    # A chain link seen flat and one seen edge-on: alternating, they read as a cord of cash.
    ring = el("ellipse", id="m-ring", rx=2.4, ry=2.6, fill=PAPER, stroke=INK, stroke_width=1.3)
    bar = el("ellipse", id="m-bar", rx=1.1, ry=2.5, fill=INK)
    knot = el(
        "path",
        id="m-knot",
        d="M0 0C-3-2.4-4 .6-1.4.9M0 0C3-2.4 4 .6 1.4.9",
        fill="none",
        stroke=INK,
        stroke_width=1,
        stroke_linecap="round",
    )
    tassel = el(
        "path",
        id="m-tassel",
        d="M0 0-1.8 3.6M0 0V4M0 0 1.8 3.6",
        fill="none",
        stroke=INK,
        stroke_width=0.8,
        stroke_linecap="round",
    )
    wan = el(
        "path",
        id="m-wan",
        # A simplified 万 (wan, ten thousand): the word that names the myriads suit.
        d="M.4 1.6H9.6M4.2 1.6C4.1 6.6 3.2 9.6.6 11.8M4.1 5.4H8.6C8.6 9 8 11.2 5.8 11.6",
        fill="none",
        stroke_width=1.7,
        stroke_linecap="round",
        stroke_linejoin="round",
    )
    qian = el(
        "path",
        id="m-qian",
        # A simplified 千 (thousand) for the old thousand's index.
        d="M7 .6C5 1.6 3 2.2 1.2 2.4M.4 6H7.6M4 2.2V11.8",
        fill="none",
        stroke_width=1.7,
        stroke_linecap="round",
        stroke_linejoin="round",
    )
    petal = el("path", id="m-petal", d=FLOWER_PETAL)
    flower = el(
        "g",
        *[use("m-petal", transform=f"rotate({a})" if a else None) for a in range(0, 360, 72)],
        id="m-flower",
    )
    seal = el(
        "g",
        el("rect", x=-6, y=-6, width=12, height=12, rx=1, fill=RED),
        el(
            "path",
            # Seal-script-like strokes; abstract on purpose so no real inscription is implied.
            d="M-4.2-4.2h8.4v8.4h-8.4zM-2.2-2.8V2.8M2.2-2.8V2.8"
            "M-2.9-.9C-1.5-1.9-.7.1.1-.9S1.6-1.9 2.9-.9M-2.9 1.5C-1.5.5-.7 2.5.1 1.5S1.6.5 2.9 1.5",
            fill="none",
            stroke=PAPER,
            stroke_width=0.9,
        ),
        id="m-seal",
    )
    robe = el(
        "g",
        el(
            "path",
            d="M-4.5 12 -11.5 35H11.5L4.5 12Z",
            fill=PAPER,
            stroke=INK,
            stroke_width=1.1,
            stroke_linejoin="round",
        ),
        el("path", d="M-4.5 12 0 18.5 4.5 12M-9 27H9", fill="none", stroke=INK, stroke_width=0.8),
        el("rect", x=-8, y=21.5, width=16, height=2.6, fill=INK),
        el("circle", cy=8, r=4.2, fill=PAPER, stroke=INK, stroke_width=1.1),
        el("path", d="M-1.8 8h.1M1.7 8h.1", stroke=INK, stroke_width=1.1, stroke_linecap="round"),
        id="m-robe",
    )
    # Nine figures from three hats x three robe patterns x three things held, so no two
    # myriads cards share a picture (the way each card of a real pack shows its own hero).
    hats = [
        el(
            "g",
            el("path", d="M-4.6 5.2C-4.6-.6 4.6-.6 4.6 5.2Z"),
            el("rect", x=-9.5, y=3.4, width=19, height=1.8, rx=0.9),
            id="m-hat0",
            fill=INK,
        ),
        el(
            "path",
            id="m-hat1",
            d="M-4.5 7.2C-4.8 4.4-3 3.2 0 3.2S4.8 4.4 4.5 7.2C3 5.6-3 5.6-4.5 7.2Z"
            "M0 3.6A2 2 0 1 1 0-.4 2 2 0 1 1 0 3.6ZM-3.6 1.6H3.6",
            fill=INK,
            stroke=INK,
            stroke_width=0.6,
        ),
        el("path", id="m-hat2", d="M-9 5.6 0-1.4 9 5.6C5 4.6-5 4.6-9 5.6Z", fill=INK),
    ]
    patterns = [
        el(
            "path",
            id="m-pat1",
            d="M-6 28.4V34.4M-3 28.4V34.4M0 28.4V34.4M3 28.4V34.4M6 28.4V34.4",
            stroke=INK,
            stroke_width=0.7,
        ),
        el(
            "path",
            id="m-pat2",
            d="M-7 31h.1M-3.5 31h.1M0 31h.1M3.5 31h.1M7 31h.1M-5.2 33.4h.1M-1.8 33.4h.1M1.8 33.4h.1"
            "M5.2 33.4h.1M-5.2 28.8h.1M-1.8 28.8h.1M1.8 28.8h.1M5.2 28.8h.1",
            stroke=INK,
            stroke_width=1.3,
            stroke_linecap="round",
        ),
    ]
    props = [
        el(
            "path",
            id="m-prop0",
            d="M-1.4 13.5h2.8v9.5h-2.8z",
            fill=PAPER,
            stroke=INK,
            stroke_width=0.8,
        ),
        el(
            "path",
            id="m-prop1",
            d="M0 20-5 14.4A7.4 7.4 0 0 1 5 14.4ZM0 20-2.4 13.3M0 20V13M0 20 2.4 13.3",
            fill=PAPER,
            stroke=INK,
            stroke_width=0.8,
            stroke_linejoin="round",
        ),
        el(
            "g",
            el("path", d="M9.5 2V35", stroke=INK, stroke_width=1.2),
            el("circle", cx=9.5, cy=2, r=1.6, fill=INK),
            el("circle", cx=9.2, cy=18.6, r=1.8, fill=PAPER, stroke=INK, stroke_width=0.8),
            id="m-prop2",
        ),
    ]
    return [
        coin,
        ring,
        bar,
        knot,
        tassel,
        wan,
        qian,
        petal,
        flower,
        seal,
        robe,
        *hats,
        *patterns,
        *props,
        *digit_defs("m-d", 1.8),
    ]


def cash_string(x: float, top: float, links: int) -> str:
    """A cord of ``links`` links hanging from a knot at (x, top), ending in a tassel."""
    parts = [use("m-knot", x, top)]
    y = top + 3.4
    for i in range(links):
        parts.append(use("m-bar" if i % 2 else "m-ring", x, y))
        y += 3.6
    parts.append(use("m-tassel", x, y - 1.4))
    return "".join(parts)


def string_length(links: int) -> float:
    return 3.4 + 3.6 * links + 2.2


def coin_positions(rank: int) -> Sequence[tuple[float, float, float]]:
    """(x, y, scale) of each coin; coins are 12 units wide at scale 1."""
    if rank == 1:
        return [(20, MID, 2.2)]
    if rank == 2:
        return [(20, 39, 1.45), (20, 65, 1.45)]
    if rank == 3:
        return [(20, 34, 1.25), (20, MID, 1.25), (20, 70, 1.25)]
    if rank == 4:
        return [(x, y, 1.2) for y in (40, 64) for x in (12, 28)]
    if rank == 5:
        return [(x, y, 1.1) for y in (35, 69) for x in (11.5, 28.5)] + [(20, MID, 1.1)]
    if rank == 6:
        return [(x, y, 1.15) for y in (34, MID, 70) for x in (12, 28)]
    if rank == 7:
        return [(20, 31, 1.05)] + [(x, y, 1.05) for y in (45, 59, 73) for x in (12, 28)]
    if rank == 8:
        return [(x, y, 1.05) for y in (30.5, 44.3, 58.1, 72) for x in (12, 28)]
    return [(x, y, 0.85) for y in (33, MID, 71) for x in (9.6, 20, 30.4)]


def string_rows(rank: int) -> Sequence[Sequence[float]]:
    """Column x positions of each row of strings, top row first."""
    if rank <= 3:
        return [[20], [14, 26], [10, 20, 30]][rank - 1 : rank]
    rows = {
        4: [[14, 26], [14, 26]],
        5: [[10, 20, 30], [14, 26]],
        6: [[10, 20, 30], [10, 20, 30]],
        7: [[10, 20, 30], [20], [10, 20, 30]],
        8: [[10, 20, 30], [14, 26], [10, 20, 30]],
        9: [[10, 20, 30], [10, 20, 30], [10, 20, 30]],
    }
    return rows[rank]


def strings_picture(rank: int) -> str:
    rows = string_rows(rank)
    top, bottom = 25.6, 80
    slot = (bottom - top) / len(rows)
    links = {1: 13, 2: 6, 3: 3}[len(rows)]
    parts = []
    for i, row in enumerate(rows):
        y0 = top + i * slot + (slot - string_length(links)) / 2
        parts += [cash_string(x, y0, links) for x in row]
    if rank == 9:
        parts.append(use("m-seal", transform=tr(20, MID, 1.2, -8)))
    return "".join(parts)


def coins_picture(rank: int) -> str:
    parts = [use("m-coin", transform=tr(x, y, s)) for x, y, s in coin_positions(rank)]
    return "".join(parts)


def figure(hat: int, pattern: int, prop: int, x: float = 20, y: float = 25.8) -> str:
    parts = [use("m-robe")]
    if pattern:
        parts.append(use(f"m-pat{pattern}"))
    parts += [use(f"m-hat{hat}"), use(f"m-prop{prop}")]
    return el("g", *parts, transform=tr(x, y))


def myriads_picture(rank: int) -> str:
    i = rank - 1
    hat, pattern = i % 3, i // 3
    # A Latin square: every hat meets every pattern once and every prop once.
    prop = (hat + pattern) % 3
    return figure(hat, pattern, prop) + use("m-wan", stroke=INK, transform=tr(13, 61.6, 1.4))


def index_band(card_id: str) -> str:
    """The top index; the bottom one is the same group turned round the card's centre."""
    suit, _, rank = card_id.partition("-")
    hiu = card_id in HONOURS or rank == "1"
    parts = []
    glyph_colour = PAPER if hiu else INK
    if hiu:
        parts.append(el("rect", x=4, y=4, width=14, height=17, rx=1.5, fill=INK))
    if card_id == "old-thousand":
        parts.append(use("m-qian", stroke=glyph_colour, transform=tr(6.2, 5.3, 1.2)))
        parts.append(use("m-seal", transform=tr(28.5, 12.5, 0.9, -8)))
    elif card_id in ("red-flower", "white-flower"):
        filled = card_id == "red-flower"
        parts.append(
            use(
                "m-flower",
                fill=PAPER if filled else INK,
                stroke=PAPER,
                stroke_width=1.6,
                transform=tr(11, 13, 0.55),
            )
        )
        if filled:
            parts.append(use("m-seal", transform=tr(28.5, 12.5, 0.9, -8)))
        else:
            parts.append(
                use(
                    "m-flower",
                    fill=PAPER,
                    stroke=INK,
                    stroke_width=1.6,
                    transform=tr(28.5, 13, 0.5),
                )
            )
    else:
        parts.append(use(f"m-d{rank}", stroke=glyph_colour, transform=tr(6.2, 5.3, 1.2)))
        if suit == "coins":
            parts.append(use("m-coin", transform=tr(28.5, 12.5, 1.1)))
        elif suit == "strings":
            parts.append(cash_string(28.5, 5.6, 3))
        else:
            parts.append(use("m-wan", stroke=INK, transform=tr(23.5, 6.5, 1)))
    return "".join(parts)


def honour_picture(card_id: str) -> str:
    if card_id == "old-thousand":
        return (
            figure(0, 0, 2)
            + el(
                "path",
                # A long beard marks the old man.
                d="M-2.5 11C-3 16 -1 19 0 20 1 19 3 16 2.5 11Z",
                transform=tr(20, 25.8),
                fill=INK,
            )
            + use("m-seal", transform=tr(20, 70.2, 1.3, -8))
        )
    filled = card_id == "red-flower"
    # The red flower is the same plant drawn shorter, leaving room for its stamp below.
    cy, stem = (
        (
            37,
            "M20 47C19 52 21 57 20 61M20 57C15 54 11 55 9 58 13 60 17 59 20 57Z"
            "M20 52C25 49 29 50 31 53 27 55 23 54 20 52Z",
        )
        if filled
        else (
            42,
            "M20 52C19 60 21 68 20 78M20 66C15 63 11 64 9 67 13 69 17 68 20 66Z"
            "M20 60C25 57 29 58 31 61 27 63 23 62 20 60Z",
        )
    )
    out = el("path", d=stem, fill=INK, stroke=INK, stroke_width=1, stroke_linejoin="round")
    out += use(
        "m-flower",
        fill=INK if filled else PAPER,
        stroke=INK,
        stroke_width=1.2,
        transform=tr(20, cy, 1.2),
    )
    out += el("circle", cx=20, cy=cy, r=3, fill=PAPER if filled else INK)
    if filled:
        out += use("m-seal", transform=tr(20, 70.5, 1.3, -8))
    return out


def card(card_id: str) -> str:
    suit, _, rank = card_id.partition("-")
    if card_id in HONOURS:
        picture = honour_picture(card_id)
    elif suit == "coins":
        picture = coins_picture(int(rank))
    elif suit == "strings":
        picture = strings_picture(int(rank))
    else:
        picture = myriads_picture(int(rank))
    band_id = f"m-i-{card_id}"
    hiu = card_id in HONOURS or rank == "1"
    return symbol(
        card_id,
        VIEW_BOX,
        frame(),
        # The six hiu cards also get a dotted border round the picture, echoing their inverted
        # index, so the group still shows when only the middle of the card is visible.
        use("m-hiu") if hiu else "",
        use(band_id),
        use(band_id, transform=f"rotate(180 {W // 2} {H // 2})"),
        picture,
    )


def frame() -> str:
    return use("m-frame")


def hiu_def() -> str:
    return el(
        "rect",
        id="m-hiu",
        x=4.5,
        y=24.5,
        width=31,
        height=55,
        rx=2,
        fill="none",
        stroke=INK,
        stroke_width=0.8,
        stroke_dasharray="1 1.6",
    )


def frame_def() -> str:
    return el(
        "g",
        el("rect", x=0.5, y=0.5, width=39, height=103, rx=3, fill=PAPER, stroke=INK),
        # The index bands sit on a slightly darker paper so the eye finds them first.
        el("path", d="M2.5 2.5h35v20h-35zM2.5 81.5h35v20h-35z", fill=BAND),
        el(
            "path",
            d="M2.5 2.5h35v99h-35zM2.5 22.5h35M2.5 81.5h35",
            fill="none",
            stroke=INK,
            stroke_width=0.6,
        ),
        id="m-frame",
    )


def back() -> str:
    """Ink field with a paper lattice and one coin: plain geometry, the same on every card."""
    x0, y0, x1, y1 = 4, 4, 36, 100
    return symbol(
        "back",
        VIEW_BOX,
        el("rect", x=0.5, y=0.5, width=39, height=103, rx=3, fill=PAPER, stroke=INK),
        el("rect", x=x0, y=y0, width=x1 - x0, height=y1 - y0, rx=1, fill=INK),
        el("path", d=lattice(x0, y0, x1, y1, 8), stroke=PAPER, stroke_width=0.5, opacity=0.55),
        el(
            "rect",
            x=x0 + 2,
            y=y0 + 2,
            width=x1 - x0 - 4,
            height=y1 - y0 - 4,
            stroke=PAPER,
            stroke_width=0.6,
        ),
        el("circle", cx=20, cy=MID, r=10, fill=INK, stroke=PAPER, stroke_width=1),
        use("m-coin", transform=tr(20, MID, 1.2)),
    )


def build() -> str:
    return sprite(
        # Each card's index band is a motif too: drawn once, used upright and turned round.
        [
            frame_def(),
            hiu_def(),
            *motif_defs(),
            *(el("g", index_band(c), id=f"m-i-{c}") for c in card_ids()),
        ],
        [card(cid) for cid in card_ids()] + [back()],
    )
