"""Command line: write both sprites (default into webapp/static/cards/) or check them.

``python -m scripts.card_art`` regenerates the committed files; ``--out DIR`` writes elsewhere
(the tests use it to prove the committed sprites are exactly what the code produces).
"""

from __future__ import annotations

import argparse
import gzip
from pathlib import Path

from . import hanafuda, money

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_OUT = ROOT / "webapp" / "static" / "cards"


def render() -> dict[str, bytes]:
    return {
        "money.svg": money.build().encode(),
        "hanafuda.svg": hanafuda.build().encode(),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output directory")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for name, data in render().items():
        (args.out / name).write_bytes(data)
        print(f"{name}: {len(data)} bytes, {len(gzip.compress(data, 9))} gzip")


if __name__ == "__main__":
    main()
