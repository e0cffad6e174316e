"""``python -m tests.game.golden``: compare the golden playouts, or ``--write`` them."""

from __future__ import annotations

import argparse
import sys

from tests.game.golden import CASES, current, dumps, path_of, stored


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.game.golden", description=__doc__)
    parser.add_argument("--write", action="store_true", help="write the files anew")
    args = parser.parse_args(argv)
    differ = 0
    for name in sorted(CASES):
        now = current(name)
        path = path_of(name)
        before = stored(name) if path.exists() else None
        if before == now:
            print(f"{name}: unchanged")
            continue
        differ += 1
        changed = [
            index
            for index, record in enumerate(now["playouts"])
            if before is None
            or index >= len(before["playouts"])
            or before["playouts"][index] != record
        ]
        print(f"{name}: {len(changed)} playout(s) differ: {changed}")
        if before is not None and before["rules_version"] == now["rules_version"]:
            print(
                f"  the rules version is still {now['rules_version']}: if the rules changed, "
                f"raise RULES_VERSION in webapp/game/{name} and write again"
            )
        if args.write:
            path.write_text(dumps(now))
            print(f"  wrote {path}")
    return 0 if args.write or not differ else 1


if __name__ == "__main__":
    sys.exit(main())
