"""Test apps share their URL builders.

Werkzeug compiles two small Python functions for each URL rule of an app (to build its
URLs): that is most of what ``create_app`` costs, about 45 ms of the 60 ms, and the suite
makes an app for hundreds of tests.  A builder depends on the rule alone (its text, its
parts, its defaults and its converters' kinds) and takes the rule as its first argument, so
one compiled builder serves the same rule of every app.  Production makes one app a
process and is left as werkzeug made it.  A werkzeug without ``Rule._compile_builder``
leaves every app compiling its own: only the test that checks the sharing fails then.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from werkzeug.routing.rules import Rule

Builder = Callable[..., tuple[str, str]]


def share_url_builders() -> None:
    """Compile each rule's builders once per process (idempotent)."""
    compile_builder = getattr(Rule, "_compile_builder", None)
    if compile_builder is None or getattr(compile_builder, "shared", False):
        return
    builders: dict[Hashable, Builder] = {}

    def shared(self: Rule, *args: Any, **kwargs: Any) -> Builder:
        key = (
            self.rule,
            self.host,
            self.subdomain,
            tuple(self._trace),
            repr(sorted((self.defaults or {}).items())),
            tuple((name, type(converter)) for name, converter in self._converters.items()),
            args,
            tuple(sorted(kwargs.items())),
        )
        if key not in builders:
            builders[key] = compile_builder(self, *args, **kwargs)
        return builders[key]

    shared.shared = True  # type: ignore[attr-defined]
    Rule._compile_builder = shared  # type: ignore[method-assign]
