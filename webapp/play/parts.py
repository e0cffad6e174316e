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
noted as the template touches them through :class:`ReadView`; of a tuple field (a count
per seat) only the items read by index, so one seat's change redraws that seat alone.
Functions and the request's ambient objects are not state and are not compared; the
listener's language and card style never change for one memo.  A part that includes a
template chosen at run time may read whatever any template of its folder reads.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from jinja2 import Environment, meta, pass_context
from jinja2.runtime import Context, new_context
from markupsafe import Markup

#: Context values that are the request's surroundings, not the table's state (and the
#: render's own: its memo, and the fragments it collects).
AMBIENT = frozenset({"g", "request", "session", "config", "current_user", "memo", "collected"})


#: What a part read of the view: a field's name, or (name, index) for one item of a tuple.
Read = str | tuple[str, int]


class ReadView:
    """A game view that notes each field a template reads, with its value."""

    __slots__ = ("_view", "_reads")

    def __init__(self, view: Any, reads: dict[Read, Any]) -> None:
        self._view = view
        self._reads = reads

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._view, name)
        if type(value) is tuple:
            return ReadItems(name, value, self._reads)
        self._reads[name] = value
        return value


class ReadItems:
    """A tuple field of the view that notes what a template reads of it: an item by its
    index, or the whole tuple for anything else (a loop, a length, a slice, a helper
    given it).  Only the operations below exist: any other raises, rather than reading
    unnoticed."""

    __slots__ = ("_name", "_items", "_reads")

    def __init__(self, name: str, items: tuple[Any, ...], reads: dict[Read, Any]) -> None:
        self._name = name
        self._items = items
        self._reads = reads

    def _whole(self) -> tuple[Any, ...]:
        self._reads[self._name] = self._items
        return self._items

    def __getitem__(self, key: Any) -> Any:
        if type(key) is int and -len(self._items) <= key < len(self._items):
            value = self._items[key]
            self._reads[(self._name, key)] = value
            return value
        return self._whole()[key]  # a slice, or an index out of range: its length matters

    def __getattr__(self, name: str) -> Any:  # a tuple's methods (count, index)
        return getattr(self._whole(), name)

    def __iter__(self) -> Iterator[Any]:
        return iter(self._whole())

    def __reversed__(self) -> Iterator[Any]:
        return iter(self._whole()[::-1])

    def __len__(self) -> int:
        return len(self._whole())

    def __bool__(self) -> bool:
        return bool(self._whole())

    def __contains__(self, item: object) -> bool:
        return item in self._whole()

    def __eq__(self, other: object) -> bool:
        return self._whole() == (other._whole() if isinstance(other, ReadItems) else other)

    def __hash__(self) -> int:
        return hash(self._whole())

    def __add__(self, other: Any) -> Any:
        return self._whole() + other

    def __radd__(self, other: Any) -> Any:
        return other + self._whole()

    def __str__(self) -> str:
        return str(self._whole())

    def __repr__(self) -> str:
        return repr(self._whole())


def _still_read(view: Any, read: Read, value: Any) -> bool:
    """Whether the view still has ``value`` where a part read it."""
    if isinstance(read, str):
        return bool(getattr(view, read) == value)
    name, index = read
    items = getattr(view, name)
    return -len(items) <= index < len(items) and bool(items[index] == value)


@dataclass(frozen=True)
class Drawn:
    """One part as last drawn for one listener, with everything it depended on."""

    inputs: Mapping[str, Any]
    context: Mapping[str, Any]
    reads: Mapping[Read, Any]
    html: Markup
    fragments: Mapping[str, str]  # the marked fragments in ``html``, by element id

    def still_fits(self, inputs: Mapping[str, Any], values: Mapping[str, Any], view: Any) -> bool:
        """Whether drawing again with these inputs, context ``values`` (the layout's
        context, flat) and view would draw the same."""
        if self.inputs != inputs:
            return False
        for name, value in self.context.items():
            if values.get(name) != value:
                return False
        return all(_still_read(view, read, value) for read, value in self.reads.items())


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
    # Templates by name, without the loader's cache and its freshness check on every
    # draw (unless templates reload as they change, in development).
    loaded = cache(environment.get_template)

    def draw(template: str, values: dict[str, Any], own: dict[str, Any]) -> Markup:
        # The values already hold the environment's globals (they come from the layout's
        # context): a shared context spares copying them again for every part, and one
        # made without them spares listing them (only a module's exports need that).
        # The part's ``own`` values lie over them as the context's variables.
        found = (environment.get_template if environment.auto_reload else loaded)(template)
        context = new_context(environment, found.name, found.blocks, values, shared=True)
        context.vars.update(own)
        return Markup(environment.concat(found.root_render_func(context)))

    @pass_context
    def part(context: Context, template: str, **inputs: Any) -> Markup:
        # The layout's context, flat: without assignments of its own, that is its parent
        # as it is (no copy), and a plain dict reads faster than the context's lookups.
        values = context.get_all()
        memo: dict[tuple[str, Any], Drawn] | None = values.get("memo")
        if memo is None:  # a whole page: nothing to remember
            return draw(template, values, inputs)
        view = values["view"]
        slot = (template, inputs.get("who"))
        drawn = memo.get(slot)
        if drawn is not None and drawn.still_fits(inputs, values, view):
            values["collected"].update(drawn.fragments)
            return drawn.html
        read = names(template)
        if read is None:
            read = frozenset(values.keys() - AMBIENT)
        watched = {
            name: value
            for name in read - {"view"} - inputs.keys()
            if not callable(value := values.get(name))
        }
        reads: dict[Read, Any] = {}
        html = draw(template, values, {**inputs, "view": ReadView(view, reads)})
        memo[slot] = drawn = Drawn(inputs, watched, reads, html, split(html))
        values["collected"].update(drawn.fragments)
        return html

    environment.globals["part"] = part
