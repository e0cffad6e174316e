"""The hanafuda deck (Koi-Koi): 48 cards plus a back, as one SVG sprite.

A card is three layers: the month's plant (one shared motif per month, mirrored on the second
plain so the pair is not a clone), the subject that gives the card its kind (light, animal,
ribbon) and the month number in the top-left corner. Lights also carry a red sun disc with a gold
rim in the top-right corner, so the five lights are found at a glance.
"""

from __future__ import annotations

import math

from .glyphs import digit_defs
from .svg import INK, PAPER, RED, el, lattice, num, sprite, symbol, tr, use

W, H = 40, 60
VIEW_BOX = f"0 0 {W} {H}"
MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")

GOLD = "#d49b12"
GREEN = "#2f6b35"
LEAF = "#5d9a3c"
DARK_GREEN = "#173d1d"
BROWN = "#5a3320"
PINK = "#eea2b6"
PLUM = "#c42d45"
PURPLE = "#6b4c9e"
BLUE = "#24529e"
WHITE = "#fffaf0"

# The deck as RULES.md §3 lists it: (id, kind); kind is light, animal, poem, red, blue or plain.
CARDS: list[tuple[str, str]] = [
    ("jan-crane", "light"),
    ("jan-poetry", "poem"),
    ("jan-plain-1", "plain"),
    ("jan-plain-2", "plain"),
    ("feb-warbler", "animal"),
    ("feb-poetry", "poem"),
    ("feb-plain-1", "plain"),
    ("feb-plain-2", "plain"),
    ("mar-curtain", "light"),
    ("mar-poetry", "poem"),
    ("mar-plain-1", "plain"),
    ("mar-plain-2", "plain"),
    ("apr-cuckoo", "animal"),
    ("apr-ribbon", "red"),
    ("apr-plain-1", "plain"),
    ("apr-plain-2", "plain"),
    ("may-bridge", "animal"),
    ("may-ribbon", "red"),
    ("may-plain-1", "plain"),
    ("may-plain-2", "plain"),
    ("jun-butterflies", "animal"),
    ("jun-blue", "blue"),
    ("jun-plain-1", "plain"),
    ("jun-plain-2", "plain"),
    ("jul-boar", "animal"),
    ("jul-ribbon", "red"),
    ("jul-plain-1", "plain"),
    ("jul-plain-2", "plain"),
    ("aug-moon", "light"),
    ("aug-geese", "animal"),
    ("aug-plain-1", "plain"),
    ("aug-plain-2", "plain"),
    ("sep-sake-cup", "animal"),
    ("sep-blue", "blue"),
    ("sep-plain-1", "plain"),
    ("sep-plain-2", "plain"),
    ("oct-deer", "animal"),
    ("oct-blue", "blue"),
    ("oct-plain-1", "plain"),
    ("oct-plain-2", "plain"),
    ("nov-rain-man", "light"),
    ("nov-swallow", "animal"),
    ("nov-ribbon", "red"),
    ("nov-lightning", "plain"),
    ("dec-phoenix", "light"),
    ("dec-plain-1", "plain"),
    ("dec-plain-2", "plain"),
    ("dec-plain-3", "plain"),
]


def star(points: int, outer: float, inner: float, turn: float = -90) -> str:
    """A closed star polygon centred on 0,0 (chrysanthemum, maple)."""
    out = []
    for i in range(points * 2):
        r = outer if i % 2 == 0 else inner
        a = math.radians(turn + i * 180 / points)
        out.append(f"{num(r * math.cos(a))} {num(r * math.sin(a))}")
    return "M" + "L".join(out) + "Z"


# Seven lobes of a Japanese maple: (angle in degrees, length), fanned over the top and sides.
MAPLE_LOBES = ((-90, 7), (-130, 6.6), (-50, 6.6), (-170, 5.6), (-10, 5.6), (150, 4), (30, 4))


def maple_leaf() -> str:
    """A palmate leaf: sharp lobe tips, notches between them, open at the stalk."""
    lobes = sorted(MAPLE_LOBES, key=lambda lobe: (lobe[0] + 270) % 360)
    pts = []
    for i, (angle, length) in enumerate(lobes):
        a = math.radians(angle)
        pts.append((length * math.cos(a), length * math.sin(a)))
        if i + 1 < len(lobes):
            mid = math.radians(
                (angle + lobes[i + 1][0]) / 2 if lobes[i + 1][0] > angle else angle + 20
            )
            pts.append((2.9 * math.cos(mid), 2.9 * math.sin(mid)))
    pts.append((0, 0.8))
    return "M" + "L".join(f"{num(x)} {num(y)}" for x, y in pts) + "Z"


def maple_veins() -> str:
    out = []
    for angle, length in MAPLE_LOBES:
        a = math.radians(angle)
        out.append(f"M0 .4L{num(0.8 * length * math.cos(a))} {num(0.8 * length * math.sin(a))}")
    return "".join(out)


def ring_of(ref: str, count: int, radius: float) -> str:
    """``count`` copies of motif ``ref`` rotated evenly around 0,0 at ``radius``."""
    return "".join(
        use(ref, transform=f"rotate({num(i * 360 / count)}) translate(0 {num(-radius)})")
        for i in range(count)
    )


# ---------------------------------------------------------------- shared small motifs


def small_defs() -> list[str]:
    pine_tuft = el(
        "g",
        el("path", d="M-9 0C-9-5-4-7.5 0-7.5S9-5 9 0Z", fill=GREEN),
        el(
            "path",
            # Needles fan out from the twig, which is what tells a pine tuft from a bush.
            d="M0 0-6.5-3.4M0 0-3.8-6M0 0V-7M0 0 3.8-6M0 0 6.5-3.4",
            stroke=LEAF,
            stroke_width=0.7,
            fill="none",
        ),
        el("path", d="M-9.5 0H9.5", stroke=DARK_GREEN, stroke_width=1.2),
        id="m-pine",
    )
    plum_petal = el("circle", id="m-plp", r=2.1, fill=PLUM)
    plum = el(
        "g",
        ring_of("m-plp", 5, 2.1),
        el("circle", r=1.1, fill=GOLD),
        id="m-plum",
    )
    sakura_petal = el(
        "path",
        id="m-skp",
        # A cherry petal is notched at the tip: the detail that separates it from plum.
        d="M0 0C-2.6-1.4-2.8-4.4-1.4-5.2L0-4.4 1.4-5.2C2.8-4.4 2.6-1.4 0 0Z",
        fill=PINK,
        stroke="#c65a78",
        stroke_width=0.3,
    )
    sakura = el(
        "g",
        ring_of("m-skp", 5, 0),
        el("circle", r=0.9, fill=RED),
        id="m-sakura",
    )
    wisteria = el(
        "g",
        *[
            el(
                "ellipse",
                cx=(1 if i % 2 else -1) * (1.4 - i * 0.12),
                cy=i * 2.6,
                rx=2.2 - i * 0.17,
                ry=1.6 - i * 0.08,
                fill=PURPLE if i % 3 else "#8f73c0",
            )
            for i in range(9)
        ],
        id="m-wisteria",
    )
    iris = el(
        "g",
        el("path", d="M0 6V18", stroke=GREEN, stroke_width=1),
        el(
            "path",
            d="M0 4C-3 4-6 6-6.5 9-4 9-1.5 7 0 4ZM0 4C3 4 6 6 6.5 9 4 9 1.5 7 0 4Z",
            fill=PURPLE,
        ),
        el("path", d="M0 5C-2 2-2-2 0-4 2-2 2 2 0 5Z", fill="#4a3380"),
        # The drooping front petal with its yellow signal patch is what says iris.
        el("path", d="M0 4.4C-2 6.4-2 9.6 0 11 2 9.6 2 6.4 0 4.4Z", fill="#8a6cc4"),
        el("path", d="M0 5.4V8.4", stroke=GOLD, stroke_width=1, stroke_linecap="round"),
        id="m-iris",
    )
    peony = el(
        "g",
        el(
            "path",
            d=star(9, 9, 7.4),
            fill=PLUM,
            stroke=PLUM,
            stroke_width=2,
            stroke_linejoin="round",
        ),
        el(
            "path",
            d=star(7, 6, 4.8, -70),
            fill="#e0566b",
            stroke="#e0566b",
            stroke_width=1.6,
            stroke_linejoin="round",
        ),
        el("circle", r=2.6, fill="#9c1d31"),
        el("circle", r=1, fill=GOLD),
        id="m-peony",
    )
    # Chrysanthemum: rings of long rounded petals, the way the flower is drawn as a crest.
    kiku_petal = el("ellipse", id="m-kkp", cy=-4.4, rx=1.5, ry=3.4)
    kiku = el(
        "g",
        el("g", ring_of("m-kkp", 16, 0), fill=GOLD, stroke="#9a6b08", stroke_width=0.4),
        el("g", ring_of("m-kkp", 10, 0), fill="#f2c94c", transform="scale(.55)"),
        el("circle", r=1.5, fill=RED),
        id="m-kiku",
    )
    hagi = el(
        "g",
        el("path", d="M0 0C-2.4-.4-4.4-1.6-5-3.2-3-3.4-1.2-2 0 0Z", fill=LEAF),
        el("ellipse", cx=1.4, cy=1.6, rx=1.3, ry=0.8, fill=PLUM),
        el("ellipse", cx=2.8, cy=0.2, rx=1.1, ry=0.7, fill="#d9456a"),
        el("ellipse", cx=0.4, cy=3, rx=1, ry=0.7, fill="#d9456a"),
        id="m-hagi",
    )
    maple = el(
        "g",
        el("path", d=maple_leaf()),
        el("path", d=maple_veins(), stroke="#000", stroke_opacity=0.3, stroke_width=0.4),
        el("path", d="M0 .6V5.6", stroke=BROWN, stroke_width=0.6),
        id="m-maple",
    )
    leaf = el(
        "path",
        id="m-leaf",
        d="M0 0C2-2 6-2 8 0 6 2 2 2 0 0Z",
        stroke="none",
    )
    ribbon = el(
        "g",
        el("path", d="M-4.2-14H4.2V14H-4.2Z", stroke=INK, stroke_width=0.5),
        el("path", d="M0-14V-16", stroke=INK, stroke_width=0.6),
        id="m-ribbon",
    )
    writing = el(
        "path",
        id="m-writing",
        # Brush marks, not characters: the poem ribbons only need to look written on.
        d="M-1.2-10C.4-9.2 1-7.6 0-5.6M1-3C-.8-2-1-.2.4 1M-.8 3.4C.8 4.6 1 6.4-.2 8",
        fill="none",
        stroke=INK,
        stroke_width=1.6,
        stroke_linecap="round",
    )
    light = el(
        "g",
        el("circle", r=5.8, fill=PAPER),
        el("circle", r=4.4, fill=RED, stroke=GOLD, stroke_width=1.3),
        el("circle", r=1.6, fill=GOLD),
        id="m-light",
    )
    return [
        pine_tuft,
        plum_petal,
        plum,
        sakura_petal,
        sakura,
        wisteria,
        iris,
        peony,
        kiku_petal,
        kiku,
        hagi,
        maple,
        leaf,
        ribbon,
        writing,
        light,
    ]


# ---------------------------------------------------------------- month plants


def plant_jan() -> str:
    return "".join(
        [
            el("path", d="M1 52C9 48 22 55 39 50V59H1Z", fill=RED),
            el(
                "path",
                d="M6 60C8 50 11 42 16 35 20 29 23 25 25 17L27.6 18C26 26 23 32 19 37 15 44 13 52"
                " 12 60Z",
                fill=BROWN,
            ),
            el("path", d="M17 36C22 36 27 38 32 36.4V38.2C27 40 22 38.4 17 38Z", fill=BROWN),
            el("path", d="M21 30C17 29 13 28 10 25.6L11 24.6C14 27 17 28 21 28.6Z", fill=BROWN),
            use("m-pine", transform=tr(26, 17.5, 1.25)),
            use("m-pine", transform=tr(11, 25.5, 1.05)),
            use("m-pine", transform=tr(32, 36.5, 1)),
            use("m-pine", transform=tr(9, 43, 0.9)),
            use("m-pine", transform=tr(24, 48, 0.85)),
        ]
    )


def plant_feb() -> str:
    branch = el(
        "path",
        d="M4 60C7 51 6 45 12 39S22 31 20 23 26 13 33 6M12 39C18 38 24 42 31 41M20 23C15 20 11"
        " 18 8 12M21 31C25 28 29 27 34 25",
        fill="none",
        stroke="#3b2418",
        stroke_width=2,
        stroke_linecap="round",
    )
    spots = [(20, 23), (12, 39), (31, 41), (8, 12), (32, 7), (26, 15), (34, 25), (6, 50), (24, 41)]
    return (
        el("path", d="M1 54C12 51 26 57 39 53V59H1Z", fill=RED)
        + branch
        + "".join(use("m-plum", x, y) for x, y in spots)
    )


def plant_mar() -> str:
    branch = el(
        "path",
        d="M40 40C32 36 26 30 20 26S8 18 2 17M26 30C27 24 30 18 36 14",
        fill="none",
        stroke=BROWN,
        stroke_width=2,
        stroke_linecap="round",
    )
    spots = [
        (6, 8),
        (12, 5),
        (20, 7),
        (28, 5),
        (34, 9),
        (8, 16),
        (16, 14),
        (24, 15),
        (32, 17),
        (13, 22),
        (20, 21),
        (28, 23),
        (35, 24),
        (22, 29),
        (31, 31),
    ]
    return (
        el("path", d="M1 3C10 1 30 4 39 2V18C30 20 12 12 1 18Z", fill="#f7d6df")
        + branch
        + "".join(use("m-sakura", x, y, transform=None) for x, y in spots)
    )


def plant_apr() -> str:
    leaves = "".join(
        use("m-leaf", transform=tr(x, y, 1, a), fill=GREEN)
        for x, y, a in [
            (2, 4, 10),
            (10, 3, -20),
            (16, 5, 30),
            (24, 3, -15),
            (30, 6, 20),
            (33, 4, 160),
        ]
    )
    stems = el(
        "path",
        d="M0 3C10 5 20 1 40 4M9 4C9 8 10 10 9 12M20 3C20 8 21 12 20 15M31 5C31 8 30 10 31 12",
        fill="none",
        stroke=BROWN,
        stroke_width=1,
    )
    clusters = "".join(
        use("m-wisteria", transform=tr(x, y, s))
        for x, y, s in [(9, 12, 1), (20, 15, 1.15), (31, 12, 1)]
    )
    return stems + leaves + clusters + el("path", d="M1 55C14 51 26 57 39 54V59H1Z", fill=RED)


def plant_may() -> str:
    blades = el(
        "path",
        d="M4 60C5 48 8 38 12 30 10 40 9 50 9 60ZM12 60C13 46 16 36 22 26 19 38 17 50 17 60Z"
        "M26 60C26 48 28 40 33 32 31 42 31 52 31 60ZM34 60C34 52 36 46 39 42 38 50 38 56 38 60Z"
        "M18 60C20 52 23 46 27 42 25 48 23 54 23 60Z",
        fill=GREEN,
    )
    return (
        blades
        + use("m-iris", transform=tr(13, 18, 1.1))
        + use("m-iris", transform=tr(29, 24, 1))
        + use("m-iris", transform=tr(22, 8, 0.8))
    )


def plant_jun() -> str:
    leaves = "".join(
        use("m-leaf", transform=tr(x, y, s, a), fill=c)
        for x, y, s, a, c in [
            (14, 24, 1.4, 150, GREEN),
            (14, 24, 1.3, 40, LEAF),
            (14, 24, 1.2, 95, GREEN),
            (26, 40, 1.4, -30, GREEN),
            (26, 40, 1.3, 200, LEAF),
            (26, 40, 1.2, 100, GREEN),
            (8, 48, 1.1, -60, LEAF),
        ]
    )
    stems = el(
        "path", d="M14 24C14 34 10 46 8 60M26 40C26 48 27 54 28 60", stroke=GREEN, stroke_width=1.2
    )
    return (
        stems
        + leaves
        + use("m-peony", transform=tr(14, 22, 1))
        + use("m-peony", transform=tr(27, 38, 0.85))
        + el("ellipse", cx=8, cy=48, rx=2.2, ry=3, fill=PLUM)
    )


def bezier(p: tuple[tuple[float, float], ...], t: float) -> tuple[float, float]:
    """Point at ``t`` on the cubic Bezier ``p`` (four control points)."""
    u = 1 - t
    w = (u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t)
    return sum(k * q[0] for k, q in zip(w, p, strict=True)), sum(
        k * q[1] for k, q in zip(w, p, strict=True)
    )


JUL_STEMS = (
    ((2, 59), (6, 40), (16, 24), (36, 13)),
    ((7, 59), (12, 44), (22, 34), (38, 30)),
    ((1, 40), (8, 30), (14, 22), (22, 5)),
    ((15, 59), (19, 51), (27, 46), (38, 45)),
)


def plant_jul() -> str:
    stems = el(
        "path",
        d="".join(
            f"M{num(a[0])} {num(a[1])}C" + " ".join(f"{num(x)} {num(y)}" for x, y in (b, c, d))
            for a, b, c, d in JUL_STEMS
        ),
        fill="none",
        stroke=BROWN,
        stroke_width=1.1,
    )
    # Bush clover: at each node a small leaf and a spray of tiny flowers, alternating sides.
    nodes = []
    for stem in JUL_STEMS:
        for i in range(7):
            t = 0.3 + i * 0.1
            x, y = bezier(stem, t)
            mirror = " scale(-1 1)" if i % 2 else ""
            nodes.append(use("m-hagi", transform=f"translate({num(x)} {num(y)}){mirror}"))
    return stems + "".join(nodes)


def aug_hill() -> str:
    grass = el(
        "path",
        # Pampas blades grow out of the black hill: paper strokes read as moonlit grass.
        d="M5 59C6 48 8 40 12 33M10 59C12 50 15 42 20 35M16 59C18 52 22 46 28 40M24 59C26 52 29"
        " 46 34 43M30 59C32 54 35 50 38 48M3 46C6 42 9 40 14 38M20 50C24 45 28 42 33 39",
        fill="none",
        stroke=PAPER,
        stroke_width=0.7,
    )
    return el("path", d="M1 35C8 27 30 26 39 33V59H1Z", fill=INK) + grass


def aug_plumes() -> str:
    # Each plume: a stem rising from the hill and a head of fine strands drooping to one side.
    plume_d = []
    for bx, by, tx, ty, side in ((9, 33, 6, 21, 1), (20, 29, 22, 18, -1), (31, 31, 34, 21, -1)):
        plume_d.append(f"M{bx} {by}Q{num((bx + tx) / 2)} {num(ty + 6)} {tx} {ty}")
        for k in range(5):
            ex, ey = tx + side * (1.6 + k * 0.9), ty + 2.6 + k * 1.5
            plume_d.append(
                f"M{tx} {ty}Q{num(tx + side * (1.2 + k * 0.5))} {num(ty - 0.4)} {num(ex)} {num(ey)}"
            )
    plumes = el("path", d="".join(plume_d), fill="none", stroke=INK, stroke_width=0.7)
    return plumes


def plant_aug() -> str:
    return use("m-aug-plumes") + use("m-aug-hill")


def plant_sep() -> str:
    leaves = "".join(
        use("m-leaf", transform=tr(x, y, s, a), fill=c)
        for x, y, s, a, c in [
            (14, 21, 1.3, 130, GREEN),
            (28, 37, 1.3, 20, GREEN),
            (28, 37, 1.2, 160, LEAF),
            (12, 46, 1.2, -30, GREEN),
            (20, 52, 1.1, 200, LEAF),
        ]
    )
    stems = el(
        "path",
        d="M14 21C16 34 18 46 20 60M28 37C26 46 22 52 20 60",
        stroke=GREEN,
        stroke_width=1.2,
        fill="none",
    )
    return (
        stems
        + leaves
        + use("m-kiku", transform=tr(14, 19, 1.05))
        + use("m-kiku", transform=tr(28, 35, 1.15))
        + use("m-kiku", transform=tr(11, 45, 0.75))
    )


def plant_oct() -> str:
    twigs = el(
        "path",
        d="M0 4C10 8 18 8 26 14S34 24 40 26M14 7C16 14 14 20 10 26M26 14C24 22 26 28 30 34",
        fill="none",
        stroke=BROWN,
        stroke_width=1.1,
    )
    leaves = [
        (7, 9, 1, RED),
        (14, 8, 0.9, "#d9681e"),
        (20, 14, 1.1, RED),
        (10, 26, 1, RED),
        (26, 14, 0.9, RED),
        (32, 22, 1.1, "#d9681e"),
        (30, 34, 1, RED),
        (35, 29, 0.8, RED),
        (15, 18, 0.7, "#d9681e"),
        # A few fallen leaves fill the lower half of the plains.
        (9, 44, 0.8, "#d9681e"),
        (22, 50, 0.9, RED),
        (33, 46, 0.7, RED),
    ]
    return twigs + "".join(use("m-maple", transform=tr(x, y, s), fill=c) for x, y, s, c in leaves)


def plant_nov() -> str:
    strands = el(
        "path",
        d="M6 0C4 10 6 20 4 34M12 0C11 12 14 22 12 38M20 0C20 10 17 18 19 30M27 0C28 12 25 24"
        " 28 40M34 0C35 10 32 18 34 30",
        fill="none",
        stroke=LEAF,
        stroke_width=2.2,
        # Round-capped dashes of a thick stroke make the narrow willow leaves in one short path.
        stroke_dasharray="1.4 3",
        stroke_linecap="round",
    )
    return el("path", d="M2 1H38V3H2Z", fill=DARK_GREEN) + strands


def dec_spikes() -> str:
    return "".join(
        el("path", d=f"M{x} {y + 16}V{y}", stroke=BROWN, stroke_width=0.8)
        + "".join(
            el("circle", cx=x + dx, cy=y + dy, r=1.2, fill=PURPLE if (dx + dy) % 2 else "#8f73c0")
            for dx, dy in [
                (0, 0),
                (-1, 2),
                (1, 2.5),
                (-2, 4.5),
                (0, 4.5),
                (2, 5),
                (-2.6, 7),
                (2.6, 7.5),
                (-1, 7.5),
            ]
        )
        for x, y in ((23, 2), (31, 5), (14, 16))
    )


def dec_leaves() -> str:
    leaf_path = "M0 0C-8-2-12-10-9-16-6-20 0-18 0-14 0-18 6-20 9-16 12-10 8-2 0 0Z"
    leaves = "".join(
        el("path", d=leaf_path, transform=tr(x, y, s, a), fill=GREEN if i % 2 else LEAF)
        + el(
            "path",
            d="M0 0V-15M0-6-6-12M0-6 6-12",
            transform=tr(x, y, s, a),
            stroke=DARK_GREEN,
            stroke_width=0.6,
            fill="none",
        )
        for i, (x, y, s, a) in enumerate([(9, 58, 1.1, -25), (31, 58, 1.1, 25), (20, 60, 1.3, 0)])
    )
    return leaves


def plant_dec() -> str:
    return use("m-dec-spikes") + use("m-dec-leaves")


PLANTS = {
    "jan": plant_jan,
    "feb": plant_feb,
    "mar": plant_mar,
    "apr": plant_apr,
    "may": plant_may,
    "jun": plant_jun,
    "jul": plant_jul,
    "aug": plant_aug,
    "sep": plant_sep,
    "oct": plant_oct,
    "nov": plant_nov,
    "dec": plant_dec,
}


# ---------------------------------------------------------------- subjects


def subject(card_id: str, kind: str) -> str:
    """What lies on top of the plant: the light, animal or ribbon that names the card."""
    if kind in ("poem", "red", "blue"):
        colour = BLUE if kind == "blue" else RED
        angle = {
            "jan": 12,
            "feb": -14,
            "mar": 10,
            "apr": -10,
            "may": 14,
            "jun": -12,
            "jul": 10,
            "sep": -12,
            "oct": 12,
            "nov": -10,
        }[card_id[:3]]
        out = use("m-ribbon", transform=tr(21, 33, 1, angle), fill=colour)
        if kind == "poem":
            out += use("m-writing", transform=tr(21, 33, 1, angle))
        return out
    return SUBJECTS[card_id]()


def crane() -> str:
    return "".join(
        [
            el("circle", cx=27, cy=17, r=10, fill=RED),
            el("path", d="M20 45 19 57M24 45 26 57", stroke=INK, stroke_width=0.8),
            el("path", d="M13 41C9 45 8 49 9 53 13 50 16 47 18 44Z", fill=INK),
            el(
                "ellipse",
                cx=21,
                cy=40,
                rx=9,
                ry=5.6,
                transform="rotate(-18 21 40)",
                fill=WHITE,
                stroke=INK,
                stroke_width=0.6,
            ),
            el("path", d="M15 38C19 35 23 37 26 40", stroke=INK, stroke_width=0.5, fill="none"),
            el("path", d="M27 37C30 31 27 27 29 22", stroke=INK, stroke_width=2.2, fill="none"),
            el("circle", cx=29.3, cy=21, r=2.1, fill=WHITE, stroke=INK, stroke_width=0.5),
            el("circle", cx=29.5, cy=19.6, r=1.1, fill=RED),
            el("path", d="M31 21.4 35.4 23", stroke=GOLD, stroke_width=1, stroke_linecap="round"),
        ]
    )


def curtain() -> str:
    stripes = "".join(
        el("path", d=f"M{x} 30H{x + 4}V48H{x}Z", fill=RED if i % 2 == 0 else WHITE)
        for i, x in enumerate(range(4, 36, 4))
    )
    return "".join(
        [
            el("path", d="M2 29H38", stroke=BROWN, stroke_width=1.4),
            stripes,
            el("path", d="M4 30H36V48H4Z", fill="none", stroke=INK, stroke_width=0.6),
            el(
                "path",
                d="M4 48C8 51 12 46 16 49S24 46 28 49 34 47 36 48",
                fill="none",
                stroke=INK,
                stroke_width=0.6,
            ),
            el("circle", cx=20, cy=39, r=5.5, fill=WHITE, stroke=INK, stroke_width=0.6),
            use("m-sakura", 20, 39, transform=None),
        ]
    )


def moon() -> str:
    return el("circle", cx=20, cy=17, r=11, fill="#fbf4dc", stroke=GOLD, stroke_width=0.8)


def rain_man() -> str:
    rain = el(
        "path",
        d="M4 10 1 20M10 4 7 14M36 6 33 16M38 22 35 32M6 30 3 40M37 40 34 50M30 2 28 8",
        stroke=INK,
        stroke_width=0.6,
    )
    return "".join(
        [
            el("path", d="M1 50C10 47 28 53 39 49V59H1Z", fill=BLUE),
            el(
                "path",
                d="M4 54C10 52 14 55 20 53M24 56C28 54 32 56 36 54",
                stroke=WHITE,
                stroke_width=0.6,
                fill="none",
            ),
            rain,
            # The umbrella is lifted high and tilted so the poet's face stays in view.
            el("path", d="M20 17 23.5 42", stroke=BROWN, stroke_width=0.9),
            el("path", d="M6 20C7 10 25 5 32 14Z", fill=RED, stroke=INK, stroke_width=0.5),
            el(
                "path",
                d="M19.6 9.4 10.5 19M19.6 9.4 16 17.6M19.6 9.4 21.6 16.4M19.6 9.4 27 15",
                stroke="#7a1a14",
                stroke_width=0.5,
            ),
            el(
                "path",
                d="M14.6 29.6C12 38 11 45 11.6 52H28.4C28.4 44 26.6 36 23.4 29.4Z",
                fill=GOLD,
                stroke=INK,
                stroke_width=0.6,
            ),
            el(
                "path",
                d="M15 29.6 19 35 23.4 29.4M13 42 27 40M12.2 47 28 46",
                stroke=BROWN,
                stroke_width=0.6,
                fill="none",
            ),
            el("circle", cx=19, cy=26, r=3.2, fill=WHITE, stroke=INK, stroke_width=0.6),
            el("path", d="M15.8 25.2C16 21.6 22 21.6 22.2 25.2 20 24 18 24 15.8 25.2Z", fill=INK),
            el(
                "path",
                d="M17.6 26.4h.1M20.4 26.4h.1",
                stroke=INK,
                stroke_width=0.8,
                stroke_linecap="round",
            ),
            el(
                "ellipse",
                cx=31,
                cy=51.6,
                rx=3,
                ry=2,
                fill=LEAF,
                stroke=DARK_GREEN,
                stroke_width=0.4,
            ),
            el("circle", cx=32.6, cy=50.4, r=0.6, fill=INK),
        ]
    )


def phoenix() -> str:
    plumes = "M19 30C11 36 6 42 4 51M20.6 31C17 38 16 45 17.6 53M22 30.6C25 38 30 43 36 47"
    bird = el(
        "g",
        *[
            el("path", d=plumes, fill="none", stroke=RED, stroke_width=2.6, stroke_linecap="round"),
            el(
                "path",
                d=plumes,
                fill="none",
                stroke=GOLD,
                stroke_width=1,
                stroke_dasharray="1.4 2.2",
            ),
            # Broad wings with a scalloped trailing edge: a phoenix, not a small bird.
            el(
                "path",
                d="M19.6 27C12 25 5 19 3 8 6 11 8 10 9.4 13 10.4 10.4 12.4 11.4 13.4 15 14.6 12.6"
                " 16.4 14 17 17.4 18.2 15.6 19.6 18 20.4 22Z",
                fill=GOLD,
                stroke=INK,
                stroke_width=0.5,
                stroke_linejoin="round",
            ),
            el(
                "path",
                d="M22.6 26C29 22 33.6 15.6 35.4 5.4 33 8.6 31 8 30.2 11.4 28.6 9.4 27.4 11.6 26.8"
                " 14.6 25.2 13 24.4 15.6 24.2 18.4 22.8 17 21.8 19.4 21.4 23Z",
                fill=GREEN,
                stroke=INK,
                stroke_width=0.5,
                stroke_linejoin="round",
            ),
            el(
                "path",
                d="M8 13.4C11 18 15 21 19 23M30.6 11.8C28.6 16.6 25.6 20 22.6 22.6",
                stroke=INK,
                stroke_width=0.4,
                fill="none",
            ),
            el("ellipse", cx=21, cy=27.6, rx=3.6, ry=5, fill=RED, stroke=INK, stroke_width=0.5),
            el(
                "path",
                d="M21.4 23.4C20.4 19 22 16 24.6 14.8",
                stroke=GREEN,
                stroke_width=2.2,
                fill="none",
                stroke_linecap="round",
            ),
            el("circle", cx=25.2, cy=14.4, r=2, fill=RED, stroke=INK, stroke_width=0.4),
            el("path", d="M27 14 29.8 15.2 27 15.4Z", fill=GOLD),
            el("circle", cx=25.6, cy=13.8, r=0.45, fill=INK),
            el(
                "path",
                d="M24.4 12.6C23.4 10.6 24.4 8.6 26.6 8.4M25.6 12.6C25.6 11 26.6 10 28 10",
                stroke=GOLD,
                stroke_width=0.8,
                fill="none",
                stroke_linecap="round",
            ),
        ],
        # Set a little lower and left so the crest clears the light marker.
        transform="translate(-1.5 4)",
    )
    return el("path", d="M1 22C10 18 30 26 39 20V32C30 36 12 28 1 32Z", fill="#f5c9a0") + bird


def bird(x: float, y: float, s: float, body: str, belly: str, rotate: float = 0) -> str:
    """A small perched bird facing right; the warbler and the swallow share its outline."""
    return el(
        "g",
        el("path", d="M-6 1-11 4-10 1.6Z", fill=body),
        el("ellipse", rx=6, ry=3.6, fill=body),
        el("path", d="M-3 2.2C0 3.6 3 3.4 5 1.6", stroke=belly, stroke_width=1.4, fill="none"),
        el("circle", cx=5, cy=-2, r=2.8, fill=body),
        el("path", d="M7.4-2.6 10-1.6 7.4-1Z", fill=INK),
        el("circle", cx=5.8, cy=-2.6, r=0.6, fill=INK),
        transform=tr(x, y, s, rotate),
    )


def warbler() -> str:
    return bird(20, 31, 1.1, "#7d8a2e", "#c9c36a", -12) + el(
        "path", d="M17 35 16 38M22 35 22 38", stroke=INK, stroke_width=0.7
    )


def cuckoo() -> str:
    # One silhouette: head right, wings swept back, a long rounded tail (the swallow's is forked).
    body = (
        "M9 0 6.6-1.8C4-2.4 2.4-2.2 1.4-2L-6-10.6-3.6-1.2-6-.8-15.4-2.6C-16.4-1-16.2.4-15.4 1.4"
        "L-6 1.2-2.4 1.4-4 8.8 1.2 1.8C3 2.2 5 2.2 6.6 1.6Z"
    )
    return el("path", d="M32 6A9 9 0 1 0 34 23 7 7 0 1 1 32 6Z", fill=GOLD) + el(
        "g",
        el("path", d=body, fill=INK),
        el("path", d="M8.6-.6 11.4.2 8.6 1Z", fill=RED),
        el("circle", cx=6.2, cy=-0.5, r=0.7, fill=GOLD),
        transform=tr(20, 31, 1.15, -18),
    )


def bridge() -> str:
    planks = "".join(
        el("path", d=f"M{x} {y}l10 -4 2 2.4-10 4Z", fill="#8a5a32", stroke=INK, stroke_width=0.5)
        for x, y in [(2, 52), (11, 49), (20, 46), (29, 43)]
    )
    posts = el("path", d="M5 54V60M14 51V58M23 48V56M32 45V54", stroke=INK, stroke_width=1)
    return el("path", d="M1 44C12 42 28 46 39 42V59H1Z", fill="#8fb5d8") + posts + planks


def butterflies() -> str:
    def fly(x: float, y: float, a: float, c1: str, c2: str) -> str:
        return el(
            "g",
            el("ellipse", cx=-3.4, cy=-3, rx=3.6, ry=4.4, transform="rotate(-25 -3.4 -3)", fill=c1),
            el("ellipse", cx=3.4, cy=-3, rx=3.6, ry=4.4, transform="rotate(25 3.4 -3)", fill=c1),
            el("ellipse", cx=-2.6, cy=3, rx=2.4, ry=3, fill=c2),
            el("ellipse", cx=2.6, cy=3, rx=2.4, ry=3, fill=c2),
            el("path", d="M0-4V5M0-4-2-8M0-4 2-8", stroke=INK, stroke_width=0.7, fill="none"),
            transform=tr(x, y, 1, a),
        )

    return fly(12, 44, -15, BLUE, GOLD) + fly(30, 20, 20, GOLD, BLUE)


def boar() -> str:
    return el(
        "g",
        el(
            "path",
            d="M-9 5-10 11M-5 6-4.6 11.4M5 5 4.4 11M9 3.6 10 10",
            stroke=INK,
            stroke_width=2,
            stroke_linecap="round",
        ),
        el("path", d="M-13 0C-15-1-15.6-3-15-4.4", stroke=INK, stroke_width=0.8, fill="none"),
        el(
            "path",
            d="M-13 2C-14-4-10-8-4-8.6 2-9 6-8 9-5L14-1.4 16 .4 15.6 2 12.6 2.6C9 5 3 6-4 6-9 6"
            "-12 5-13 2Z",
            fill="#5e3a22",
            stroke=INK,
            stroke_width=0.5,
            stroke_linejoin="round",
        ),
        # A bristly ridge along the back: the boar's outline in one stroke.
        el(
            "path",
            d="M-10-6-9-8.2-7.6-6.8-6.4-9-5-7.6-3.6-9.6-2.2-8-.8-9.8.6-8.2 2-9.6 3.4-7.8"
            " 5-8.8 5.6-7",
            stroke=INK,
            stroke_width=0.8,
            fill="none",
            stroke_linejoin="round",
        ),
        el("path", d="M5-7 6.2-10.2 8.2-6.2Z", fill="#3a2214"),
        el("ellipse", cx=15.6, cy=1.2, rx=0.7, ry=1.2, fill="#3a2214"),
        el("circle", cx=10, cy=-3, r=0.8, fill=WHITE),
        el("circle", cx=10.2, cy=-3, r=0.4, fill=INK),
        el(
            "path",
            d="M12.4 2.6C13 1.2 14 .6 15 .2",
            stroke=WHITE,
            stroke_width=0.8,
            stroke_linecap="round",
            fill="none",
        ),
        transform=tr(19, 41, 1),
    )


def goose_def() -> str:
    # One goose flying left, wings both raised: long neck and small head are what make it a
    # goose and not the swallow of November.
    goose = el(
        "g",
        el("path", d="M-3.6-.4-10-1.6", stroke=INK, stroke_width=1.3, stroke_linecap="round"),
        el("circle", cx=-10.4, cy=-1.7, r=1.3, fill=INK),
        el("path", d="M-11.4-1.9-13.4-1.2-11.4-1Z", fill=GOLD),
        el("path", d="M-5 0C-3-2 3-2.2 5.4-.8L7.6-.8 6.4.8C3 2.4-3 2-5 0Z", fill=INK),
        el("path", d="M-2-1.2C-1-5 1-8.4 5-10 4.6-6.4 3.2-3.2 1.8-1Z", fill=INK),
        el("path", d="M-.6-.8C1.4-4 4-6 8.6-6.6 6.6-3.8 4.4-1.8 2.4-.2Z", fill="#3a3a3a"),
        id="m-goose",
    )
    return goose


def geese() -> str:
    return "".join(
        use("m-goose", transform=tr(x, y, sc, -6))
        for x, y, sc in ((21, 12, 1), (30.4, 20, 1), (17, 26.4, 0.85))
    )


def sake_cup() -> str:
    return "".join(
        [
            el("path", d="M9 36C10 46 30 46 31 36Z", fill=RED, stroke=INK, stroke_width=0.6),
            el("ellipse", cx=20, cy=36, rx=11, ry=3.2, fill=GOLD, stroke=INK, stroke_width=0.6),
            el("ellipse", cx=20, cy=36, rx=8, ry=2, fill=RED),
            use("m-kiku", transform="translate(20 36) scale(.28 .18)"),
            el("path", d="M16 44.5 15 48H25L24 44.5Z", fill=RED, stroke=INK, stroke_width=0.6),
        ]
    )


def deer() -> str:
    antlers = (
        "M11-18C10.6-21 9.6-23 8-24.6M10.4-21 12.4-23.4M11.8-18C13-20.6 14.6-22 16.6-22.6"
        "M14-21 14.2-23.6"
    )
    return el(
        "g",
        el(
            "path",
            d="M-8 3-9 12M-5 3-4.6 12M5 3 4 12M8 2.4 9.4 11.6",
            stroke=INK,
            stroke_width=1.3,
            stroke_linecap="round",
        ),
        el(
            "path",
            d="M-11 0C-11-5-4-6 2-6 4-6 5-6 5.4-6.4 6.4-9.6 8-12.4 9-15.4L12.4-14.2C11.4-10.4"
            " 10.4-7.2 10-3.6 10.2 2 6 4 0 4-6 4-11 3-11 0Z",
            fill="#a4622a",
            stroke=INK,
            stroke_width=0.5,
            stroke_linejoin="round",
        ),
        el("path", d="M-11-1.6-13.4-3.6-12.6-.2Z", fill=INK),
        el(
            "path",
            d="M8.6-16C9.6-18 12.4-18.6 14.4-17.4L17-15.6C17.4-15 17-14.4 16.4-14.4L13-14.6C11.6"
            "-13.6 9.4-13.8 8.6-16Z",
            fill="#a4622a",
            stroke=INK,
            stroke_width=0.5,
        ),
        el("path", d="M10-17.2 7-19.2 10.6-18.6Z", fill="#7a4720", stroke=INK, stroke_width=0.4),
        el("path", d=antlers, stroke=BROWN, stroke_width=1, fill="none", stroke_linecap="round"),
        el("circle", cx=13, cy=-16.4, r=0.5, fill=INK),
        el(
            "path",
            d="M-6-3h.1M-2-4h.1M2-3h.1M-4 0h.1M0-1h.1M-8-1h.1M4-1h.1",
            stroke=WHITE,
            stroke_width=1,
            stroke_linecap="round",
        ),
        transform=tr(17, 45, 1),
    )


def swallow() -> str:
    body = (
        "M9 0 6.6-1.8C4-2.4 1-2-1-1.4L-10-9-3.4-.6-6-.6-15-3.6-10 .2-15 3.4-6 1-2.6 1.2-8 8.4 0 1.8"
        "C2 2.2 5 2.2 6.6 1.6Z"
    )
    return el(
        "g",
        el("path", d=body, fill=INK),
        el("path", d="M-1 1.4C1 2 3.4 2 5.4 1.6", stroke=WHITE, stroke_width=0.9, fill="none"),
        el("circle", cx=6.6, cy=0.6, r=1, fill=RED),
        transform=tr(25, 40, 1.2, 22),
    )


def lightning() -> str:
    return "".join(
        [
            el("path", d="M1 26H39V59H1Z", fill=RED),
            el("path", d="M1 26C10 30 30 24 39 28", stroke=INK, stroke_width=3, fill="none"),
            el(
                "path",
                d="M24 30 16 42H22L14 56 28 39H22L30 30Z",
                fill=GOLD,
                stroke=INK,
                stroke_width=0.5,
            ),
            el("circle", cx=8, cy=46, r=4, fill=INK),
            el("circle", cx=8, cy=46, r=2, fill="none", stroke=GOLD, stroke_width=0.8),
            el("circle", cx=33, cy=52, r=3.4, fill=INK),
            el("circle", cx=33, cy=52, r=1.6, fill="none", stroke=GOLD, stroke_width=0.8),
        ]
    )


SUBJECTS = {
    "jan-crane": crane,
    "mar-curtain": curtain,
    "aug-moon": moon,
    "nov-rain-man": rain_man,
    "dec-phoenix": phoenix,
    "feb-warbler": warbler,
    "apr-cuckoo": cuckoo,
    "may-bridge": bridge,
    "jun-butterflies": butterflies,
    "jul-boar": boar,
    "aug-geese": geese,
    "sep-sake-cup": sake_cup,
    "oct-deer": deer,
    "nov-swallow": swallow,
    "nov-lightning": lightning,
}


# ---------------------------------------------------------------- cards


def month_index(month_no: int) -> str:
    """The month number, ink on paper in a small box, drawn last so nothing covers it."""
    digits = str(month_no)
    width = 4.5 + 6.8 * len(digits)
    glyphs = "".join(
        use(f"m-n{d}", stroke=INK, transform=tr(2.9 + 6.8 * i, 3.2, 0.75))
        for i, d in enumerate(digits)
    )
    return (
        el(
            "rect",
            x=1.5,
            y=1.5,
            width=width,
            height=12.4,
            rx=1.5,
            fill=PAPER,
            stroke=INK,
            stroke_width=0.6,
        )
        + glyphs
    )


def card(card_id: str, kind: str) -> str:
    month = card_id[:3]
    month_no = MONTHS.index(month) + 1
    if card_id == "aug-moon":
        plant = el("path", d="M1 1H39V36H1Z", fill=RED) + use("m-aug")
    elif card_id == "aug-geese":
        # Bare hill: the plumes would tangle with the geese.
        plant = use("m-aug-hill")
    elif card_id == "dec-plain-3":
        # The third plain of December is the yellow one, as in traditional packs.
        plant = el("path", d="M1 1H39V59H1Z", fill="#efd27a") + use("m-dec")
    elif card_id == "dec-phoenix":
        # No flower spikes: the phoenix needs the whole sky.
        plant = use("m-dec-leaves")
    elif card_id.endswith("-plain-2") and month != "dec":
        # The twin plain is the same plant mirrored, so a pair looks like two cards, not one.
        plant = use(f"m-{month}", transform="matrix(-1 0 0 1 40 0)")
    else:
        plant = use(f"m-{month}")
    layers = [use("m-face"), plant]
    if kind != "plain" or card_id == "nov-lightning":
        layers.append(subject(card_id, kind))
    if kind == "light":
        layers.append(use("m-light", 33.5, 7))
    layers.append(month_index(month_no))
    layers.append(use("m-edge"))
    return symbol(
        card_id,
        VIEW_BOX,
        *layers,
    )


def face_defs() -> list[str]:
    face = el("rect", id="m-face", x=0.5, y=0.5, width=39, height=59, rx=2.5, fill=PAPER)
    edge = el(
        "rect",
        id="m-edge",
        x=0.5,
        y=0.5,
        width=39,
        height=59,
        rx=2.5,
        fill="none",
        stroke=INK,
        stroke_width=1,
    )
    parts = [
        el("g", dec_spikes(), id="m-dec-spikes"),
        el("g", dec_leaves(), id="m-dec-leaves"),
        el("g", aug_hill(), id="m-aug-hill"),
        el("g", aug_plumes(), id="m-aug-plumes"),
    ]
    plants = [el("g", fn(), id=f"m-{month}") for month, fn in PLANTS.items()]
    return [face, edge, *parts, *plants]


def back() -> str:
    """Deep red with a lattice of diamonds and a gold ring: the classic dark hanafuda back."""
    dark = "#6e1a14"
    return symbol(
        "back",
        VIEW_BOX,
        el("rect", x=0.5, y=0.5, width=39, height=59, rx=2.5, fill=dark, stroke=INK),
        el("path", d=lattice(3, 3, 37, 57, 6), stroke="#a8372c", stroke_width=0.8),
        el("rect", x=3, y=3, width=34, height=54, fill="none", stroke=GOLD, stroke_width=0.6),
        el("circle", cx=20, cy=30, r=8, fill=dark, stroke=GOLD, stroke_width=1),
        el("circle", cx=20, cy=30, r=4, fill=GOLD),
    )


def build() -> str:
    return sprite(
        [*digit_defs("m-n", 2.3), *small_defs(), goose_def(), *face_defs()],
        [card(cid, kind) for cid, kind in CARDS] + [back()],
    )
