"""Redraw only what changed: a table layout's parts, remembered per listener.

A table layout is a handful of parts (``{{ part("play/koa/_seat.html", who=who) }}``):
the status line, each seat, each pile, the prompt, the hand, the log.  A move changes a
few of them.  Rendering every part for every listener on every move was most of a
move's cost, so a listener keeps, for each part, what the part read the last time it
was drawn (the view's fields it touched, the other context values its template names,
and the inputs it was given) with the HTML it made; when all of those are equal now,
the part is not drawn again.

What a part reads comes from two places: its template's free names, found once by
Jinja's static analysis (through the templates it includes), and the view's fields,
noted as the template touches them through :class:`ReadView`.  Functions and the
request's ambient objects are not state and are not compared; the listener's language
and card style never change for one memo.  A part that includes a template chosen at
run time may read whatever any template of its folder reads.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from jinja2 import Environment, meta, pass_context
from jinja2.runtime import Context
from markupsafe import Markup

#: Context values that are the request's surroundings, not the table's state.
AMBIENT = frozenset({"g", "request", "session", "config", "current_user", "memo"})


class ReadView:
    """A game view that notes each field a template reads, with its value."""

    __slots__ = ("_view", "_reads")

    def __init__(self, view: Any, reads: dict[str, Any]) -> None:
        self._view = view
        self._reads = reads

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._view, name)
        self._reads[name] = value
        return value


@dataclass(frozen=True)
class Drawn:
    """One part as last drawn for one listener, with everything it depended on."""

    inputs: Mapping[str, Any]
    context: Mapping[str, Any]
    reads: Mapping[str, Any]
    html: Markup
    fragments: Mapping[str, str]  # the marked fragments in ``html``, by element id

    def still_fits(self, inputs: Mapping[str, Any], context: Context, view: Any) -> bool:
        return (
            self.inputs == inputs
            and all(context.get(name) == value for name, value in self.context.items())
            and all(getattr(view, name) == value for name, value in self.reads.items())
        )


def free_names(environment: Environment) -> Callable[[str], frozenset[str] | None]:
    """The context names a template (and every template it includes) may read; None
    when it includes one chosen at run time."""

    @cache
    def names(template: str) -> frozenset[str] | None:
        assert environment.loader is not None
        source = environment.loader.get_source(environment, template)[0]
        tree = environment.parse(source)
        found = set(meta.find_undeclared_variables(tree))
        for included in meta.find_referenced_templates(tree):
            inner = None if included is None else names(included)
            if inner is None:
                return None
            found |= inner
        return frozenset(found - environment.globals.keys() - AMBIENT)

    @cache
    def anywhere_in(folder: str) -> frozenset[str] | None:
        """What a template of ``folder`` chosen at run time may read: any of theirs."""
        found: set[str] = set()
        for template in environment.list_templates(filter_func=lambda n: n.startswith(folder)):
            inner = names(template)
            if inner is None:
                return None
            found |= inner
        return frozenset(found)

    def read_by(template: str) -> frozenset[str] | None:
        found = names(template)
        return found if found is not None else anywhere_in(template.partition("/")[0] + "/")

    return read_by


def install(environment: Environment, split: Callable[[str], Mapping[str, str]]) -> None:
    """Make ``part(template, **inputs)`` available to templates.

    With ``memo`` in the context a part is remembered there, and with ``collected`` (a
    dict) its fragments, split out by ``split`` once when drawn, are added to it: the
    fragments of a table come from its parts without searching the whole layout.
    """
    names = free_names(environment)

    def draw(template: str, values: dict[str, Any]) -> Markup:
        # The values already hold the environment's globals (they come from the layout's
        # context): a shared context spares copying them again for every part.
        found = environment.get_template(template)
        return Markup(environment.concat(found.root_render_func(found.new_context(values, True))))

    @pass_context
    def part(context: Context, template: str, **inputs: Any) -> Markup:
        memo: dict[tuple[str, Any], Drawn] | None = context.get("memo")
        if memo is None:  # a whole page: nothing to remember
            return draw(template, {**context.get_all(), **inputs})
        view = context["view"]
        slot = (template, inputs.get("who"))
        drawn = memo.get(slot)
        if drawn is not None and drawn.still_fits(inputs, context, view):
            context["collected"].update(drawn.fragments)
            return drawn.html
        values = {**context.get_all(), **inputs}
        read = names(template)
        if read is None:
            read = frozenset(context.get_all().keys() - AMBIENT)
        watched = {
            name: context.get(name)
            for name in read - {"view"} - inputs.keys()
            if not callable(context.get(name))
        }
        reads: dict[str, Any] = {}
        html = draw(template, {**values, "view": ReadView(view, reads)})
        memo[slot] = drawn = Drawn(inputs, watched, reads, html, split(html))
        context["collected"].update(drawn.fragments)
        return html

    environment.globals["part"] = part
