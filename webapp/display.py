"""The reader's display settings: contrast, grain, colour temperature, lite cards, and
whether the players' reactions show at live tables (webapp/play/emotes.py).

They are kept in one cookie and applied on the server as CSS custom properties, so they
work with JavaScript off and cost no extra request.  The colours are computed here, in
one place, so the stylesheet stays a plain consumer of ``--paper``, ``--ink`` and friends.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from flask import Flask, Request, Response, g, request

COOKIE = "display"

RGB = tuple[float, float, float]

# Paper from a cool, slightly blue-grey sheet to warm coffee-stall cream.
COOL_PAPER: RGB = (236, 240, 243)
WARM_PAPER: RGB = (249, 236, 212)
# Ink from a soft brown-grey to pure black as contrast rises.
SOFT_INK: RGB = (88, 74, 62)
HARD_INK: RGB = (0, 0, 0)


def mix(a: RGB, b: RGB, t: float) -> RGB:
    r0, g0, b0 = a
    r1, g1, b1 = b
    return (r0 + (r1 - r0) * t, g0 + (g1 - g0) * t, b0 + (b1 - b0) * t)


def hex_colour(rgb: RGB) -> str:
    """
    >>> hex_colour((255, 0, 16.4))
    '#ff0010'
    """
    r, g, b = (max(0, min(255, round(channel))) for channel in rgb)
    return f"#{r:02x}{g:02x}{b:02x}"


def relative_luminance(rgb: RGB) -> float:
    """WCAG 2 relative luminance of an sRGB colour."""

    def linear(channel: float) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = rgb
    return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)


def contrast_ratio(a: RGB, b: RGB) -> float:
    """
    >>> round(contrast_ratio((0, 0, 0), (255, 255, 255)), 1)
    21.0
    """
    light, dark = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def clamp_percent(raw: object, default: int = 50) -> int:
    """A 0-100 setting from untrusted input.

    >>> clamp_percent("73"), clamp_percent("-4"), clamp_percent("lots")
    (73, 0, 50)
    """
    try:
        value = int(str(raw))
    except ValueError:
        return default
    return max(0, min(100, value))


@dataclass(frozen=True)
class Display:
    contrast: int = 50
    grain: int = 50
    temperature: int = 50
    lite_cards: bool = False
    reactions: bool = True

    @classmethod
    def parse(cls, raw: str | None) -> Display | None:
        """The settings a ``c-g-t-l-r`` cookie holds (``c-g-t-l`` before reactions could
        be hidden), or None when it holds none.

        >>> Display.parse("80-10-35-1-0")
        Display(contrast=80, grain=10, temperature=35, lite_cards=True, reactions=False)
        >>> Display.parse("80-10-35-1").reactions, Display.parse("rubbish") is None
        (True, True)
        """
        parts = (raw or "").split("-")
        if len(parts) not in (4, 5) or not all(part.isdigit() for part in parts):
            return None
        contrast, grain, temperature, lite, *reactions = parts
        return cls(
            clamp_percent(contrast),
            clamp_percent(grain),
            clamp_percent(temperature),
            lite == "1",
            reactions != ["0"],
        )

    @classmethod
    def from_cookie(cls, raw: str | None) -> Display:
        """The cookie's settings; anything malformed falls back to the defaults.

        >>> Display.from_cookie("rubbish")
        Display(contrast=50, grain=50, temperature=50, lite_cards=False, reactions=True)
        """
        return cls.parse(raw) or cls()

    @classmethod
    def from_request(cls, request: Request) -> Display:
        """The reader's saved settings, else the defaults for their browser."""
        saved = cls.parse(request.cookies.get(COOKIE))
        if saved is not None:
            return saved
        return SAVING_DATA if saves_data(request) else cls()

    def updated(self, form: Mapping[str, str]) -> Display:
        """These settings with a submitted form's values applied.

        >>> Display().updated({"contrast": "90", "lite_cards_shown": "1"})
        Display(contrast=90, grain=50, temperature=50, lite_cards=False, reactions=True)
        """

        def ticked(name: str, now: bool) -> bool:
            # An unticked checkbox is not sent at all; a hidden marker says it was offered.
            return form.get(name) in {"1", "on", "true"} if f"{name}_shown" in form else now

        return Display(
            contrast=clamp_percent(form.get("contrast", self.contrast), self.contrast),
            grain=clamp_percent(form.get("grain", self.grain), self.grain),
            temperature=clamp_percent(form.get("temperature", self.temperature), self.temperature),
            lite_cards=ticked("lite_cards", self.lite_cards),
            reactions=ticked("reactions", self.reactions),
        )

    def to_cookie(self) -> str:
        return "-".join(
            str(part)
            for part in (
                self.contrast,
                self.grain,
                self.temperature,
                int(self.lite_cards),
                int(self.reactions),
            )
        )

    @property
    def paper(self) -> RGB:
        return mix(COOL_PAPER, WARM_PAPER, self.temperature / 100)

    @property
    def ink(self) -> RGB:
        return mix(SOFT_INK, HARD_INK, 0.35 + 0.65 * self.contrast / 100)

    @property
    def muted(self) -> RGB:
        # Secondary text: between ink and paper, but always readable: AA (4.5:1) at every
        # setting, since it is small text.
        return mix(self.ink, self.paper, 0.28 - 0.18 * self.contrast / 100)

    def css(self) -> str:
        """The page's inline style: the custom properties, and no grain layer at all
        when there is no grain (a full-screen blended noise costs a cheap phone's GPU
        even when it is transparent)."""
        rules = f":root{{{self.css_variables()}}}"
        return rules if self.grain else rules + "body::before{content:none}"

    def css_variables(self) -> str:
        """The custom properties the stylesheet reads."""
        line = 0.55 - 0.35 * self.contrast / 100
        return (
            f"--paper:{hex_colour(self.paper)};"
            f"--ink:{hex_colour(self.ink)};"
            f"--muted:{hex_colour(self.muted)};"
            f"--line:rgba(40,28,18,{line + 0.2:.2f});"
            f"--grain:{self.grain / 100 * 0.22:.3f};"
            f"--warmth:{self.temperature / 100:.2f}"
        )


#: What a browser that asks to save data gets until the reader saves settings of their own.
SAVING_DATA = Display(grain=0, lite_cards=True)


def saves_data(request: Request) -> bool:
    """Whether the browser asks for lighter pages (the ``Save-Data`` client hint).

    >>> from werkzeug.test import EnvironBuilder
    >>> saves_data(Request(EnvironBuilder(headers={"Save-Data": " On"}).get_environ()))
    True
    """
    return request.headers.get("Save-Data", "").split(";")[0].strip().lower() == "on"


def current() -> Display:
    """The display settings of the request being served (read once per request)."""
    if "display" not in g:
        g.display = Display.from_request(request)
    display: Display = g.display
    return display


def vary_on_save_data(response: Response) -> Response:
    """A response drawn with the settings depends on ``Save-Data`` (caches must know)."""
    if "display" in g:
        response.vary.add("Save-Data")
    return response


def init_app(app: Flask) -> None:
    app.after_request(vary_on_save_data)
