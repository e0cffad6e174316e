"""Redraw only what changed: a table layout's parts, remembered per listener.

A table layout is a handful of parts (``{{ "play/koa/_seat.html"|part(who=who) }}``):
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
template chosen at run time may read whatever any template it may choose reads.

A part drawn for one listener fits another whenever what it read is equal for both, so
the listeners of one render in one language and card style share their drawings: of a
seated listener, its seat (``me``) is noted as the questions asked of it (is it the
seat that plays?) and the seat names by the seats read, so the status line, the log or
the prompt are drawn once for all the seats they say the same to, and still per seat
wherever a seat's own view, name or place shows.
"""

from __future__ import annotations

import fnmatch
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from types import FunctionType
from typing import Any

from jinja2 import Environment, Template, meta, nodes, pass_context
from jinja2.runtime import Context, new_context
from markupsafe import Markup

#: Context values that are the request's surroundings, not the table's state (and the
#: render's own: its memo, and the fragments it collects).
AMBIENT = frozenset(
    {"g", "request", "session", "config", "current_user", "memo", "collected", "alike"}
)


#: What a remembered part leaves in the layout, which is not kept.
NOTHING = Markup()

#: What a part read of the view: a field's name, or (name, index) for one item of a tuple;
#: of the context, also ("me", seat) for whether its reader sits in that seat.
Read = str | tuple[str, Any]


class ReadView(tuple[Any, dict[Read, Any]]):
    """A game view that notes each field a template reads, with its value.

    Every attribute is the view's.  Hence ``__getattribute__``, and a pair (the view, the
    reads) to keep them in: ``__getattr__`` runs only after Python's own lookup has failed
    and made its error, which made each field a template read cost five times as much."""

    __slots__ = ()

    def __new__(cls, view: Any, reads: dict[Read, Any]) -> ReadView:
        return tuple.__new__(cls, (view, reads))

    def __getattribute__(self, name: str) -> Any:
        if name[0] == "_":  # what Python asks of any object (``__class__``, ``__html__``)
            return object.__getattribute__(self, name)
        view, reads = self
        value = getattr(view, name)
        if type(value) is tuple:
            return ReadItems(name, value, reads)
        reads[name] = value
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
        if type(key) is ReadSeat:  # the reader's own item: which seat it is, and that item
            key = key.__index__()
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


class ReadSeat:
    """The reader's seat (``me``, a seat's number) that notes what a template asks of it:
    whether it is some seat (``==``, ``!=``, ``in``), or anything else (a sum, an index,
    its text), which reads it whole.  Not an int: an int would be read by C code (an
    index into a tuple) without asking.  A part that only asks whether its reader is the
    seat that moved is then the same for every reader that is not, and drawn once.

    The reader is seated: asking whether it is None says no (so no spectator shares
    what a seat drew)."""

    __slots__ = ("_seat", "_reads")

    def __init__(self, seat: int, reads: dict[Read, Any]) -> None:
        self._seat = seat
        self._reads = reads
        reads[("me", None)] = False

    def _whole(self) -> int:
        self._reads["me"] = self._seat
        return self._seat

    def __eq__(self, other: object) -> bool:
        try:
            self._reads[("me", other)] = result = self._seat == other
        except TypeError:  # unhashable: nothing a seat is compared with
            return self._whole() == other
        return result

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(self._whole())

    def __index__(self) -> int:
        return self._whole()

    __int__ = __index__

    def __bool__(self) -> bool:
        return bool(self._whole())

    def __add__(self, other: int) -> int:
        return self._whole() + other

    def __radd__(self, other: int) -> int:
        return other + self._whole()

    def __sub__(self, other: int) -> int:
        return self._whole() - other

    def __rsub__(self, other: int) -> int:
        return other - self._whole()

    def __lt__(self, other: int) -> bool:
        return self._whole() < other

    def __le__(self, other: int) -> bool:
        return self._whole() <= other

    def __gt__(self, other: int) -> bool:
        return self._whole() > other

    def __ge__(self, other: int) -> bool:
        return self._whole() >= other

    def __str__(self) -> str:
        return str(self._whole())

    def __repr__(self) -> str:
        return repr(self._whole())

    def __format__(self, spec: str) -> str:
        return format(self._whole(), spec)


# One drawing is itself only: compared by identity.  Not frozen: a frozen dataclass sets
# each field through object.__setattr__, and every part drawn makes one.
@dataclass(eq=False, slots=True)
class Drawn:
    """One part as last drawn for one listener, with everything it depended on."""

    inputs: Mapping[str, Any]
    context: Mapping[str, Any]
    asked: Mapping[Read, Any]  # of a seated reader: what was asked of its seat and names
    reads: Mapping[Read, Any]
    html: str  # as drawn (its text only: not a value a template is given)
    fragments: Mapping[str, str]  # the marked fragments in ``html``, by element id

    def still_fits(self, inputs: Mapping[str, Any], values: Mapping[str, Any], view: Any) -> bool:
        """Whether drawing again with these inputs, context ``values`` (the layout's
        context, flat) and view would draw the same."""
        # Written out rather than calling a helper per entry: a move checks a few
        # hundred of them.
        if self.inputs != inputs:
            return False
        for name, value in self.context.items():
            if values.get(name) != value:
                return False
        for read, value in self.asked.items():  # what the reader's seat and names answered
            if isinstance(read, str):
                if values[read] != value:
                    return False
                continue
            name, key = read
            if name == "me":
                if (values["me"] == key) != value:
                    return False
                continue
            items = values[name]
            if not (-len(items) <= key < len(items) and items[key] == value):
                return False
        for read, value in self.reads.items():  # the view's fields, or items of them
            if isinstance(read, str):
                if getattr(view, read) != value:
                    return False
                continue
            name, index = read
            items = getattr(view, name)
            if not (-len(items) <= index < len(items) and items[index] == value):
                return False
        return True


#: The statements that draw another template.
INCLUDES = (nodes.Extends, nodes.FromImport, nodes.Import, nodes.Include)


def _named(node: nodes.Expr) -> str | None:
    """The template names an include's expression may give, as a pattern: its text, with
    any text where it joins a value ("play/" ~ game ~ "/_events.html" gives
    play/*/_events.html); None for a name given whole at run time."""
    if isinstance(node, nodes.Const) and isinstance(node.value, str):
        return node.value
    if isinstance(node, nodes.Concat):
        return "".join(_named(inner) or "*" for inner in node.nodes)
    return None


def parsed(environment: Environment, template: str) -> nodes.Template:
    """A template's syntax tree, from its source."""
    assert environment.loader is not None
    return environment.parse(environment.loader.get_source(environment, template)[0])


def free_names(environment: Environment) -> Callable[[str], frozenset[str] | None]:
    """The context names a template (and every template it includes) may read; None
    when it includes one chosen at run time from anything.  A template chosen from a
    pattern may be any template that matches it."""

    @cache
    def names(template: str) -> frozenset[str] | None:
        tree = parsed(environment, template)
        found = set(meta.find_undeclared_variables(tree))
        for node in tree.find_all(INCLUDES):
            assert isinstance(node, INCLUDES)
            choices = (
                node.template.items
                if isinstance(node.template, nodes.List | nodes.Tuple)
                else [node.template]
            )
            for choice in choices:
                pattern = _named(choice)
                if pattern is None or pattern.strip("*") == "":
                    return None
                for included in fnmatch.filter(environment.list_templates(), pattern):
                    inner = names(included)
                    if inner is None:
                        return None
                    found |= inner
        return frozenset(found - environment.globals.keys() - AMBIENT)

    return names


def install(environment: Environment, split: Callable[[str], Mapping[str, str]]) -> None:
    """Make the filter ``template|part(**inputs)`` available to templates.

    A filter rather than a function: Jinja calls a filter directly, and a function through
    the context's ``call`` (which asks what the callable wants, on each of the hundred
    parts a move's renders draw).

    With ``memo`` in the context a part is remembered there, and its fragments, split
    out by ``split`` once when drawn, are added to ``collected`` (a dict): the fragments
    of a table come from its parts without searching the whole layout, whose own text
    is not kept.
    """
    names = free_names(environment)
    # Templates by name, without the loader's cache and its freshness check on every
    # draw (unless templates reload as they change, in development).
    loaded = cache(environment.get_template)

    def draw(template: str, values: dict[str, Any], own: dict[str, Any]) -> str:
        # The values already hold the environment's globals (they come from the layout's
        # context): a shared context spares copying them again for every part, and one
        # made without them spares listing them (only a module's exports need that).
        # The part's ``own`` values lie over them as the context's variables.
        # Plain text: a remembered part is only split into its fragments, and slicing
        # Markup makes Markup of every slice.
        found = (environment.get_template if environment.auto_reload else loaded)(template)
        context = new_context(environment, found.name, found.blocks, values, shared=True)
        context.vars.update(own)
        text: str = environment.concat(found.root_render_func(context))
        return text

    def drawing(template: str, inputs: dict[str, Any], values: dict[str, Any]) -> Drawn:
        """The part drawn, with what it read."""
        read = names(template)
        if read is None:
            read = frozenset(values.keys() - AMBIENT)
        reads: dict[Read, Any] = {}
        asked: dict[Read, Any] = {}
        own = {**inputs, "view": ReadView(values["view"], reads)}
        seat = values["me"]
        if seat is not None:
            own["me"] = ReadSeat(seat, asked)
            own["names"] = ReadItems("names", values["names"], asked)
        watched = {
            name: value for name in read - own.keys() if not callable(value := values.get(name))
        }
        html = draw(template, values, own)
        return Drawn(inputs, watched, asked, reads, html, split(html))

    @pass_context
    def part(context: Context, template: str, **inputs: Any) -> Markup:
        # The layout's context, flat: without assignments of its own, that is its parent
        # as it is (no copy), and a plain dict reads faster than the context's lookups.
        values = context.get_all()
        memo: dict[tuple[str, Any], Drawn] | None = values.get("memo")
        if memo is None:  # a whole page: nothing to remember
            return Markup(draw(template, values, inputs))
        view = values["view"]
        slot = (template, inputs.get("who"))
        # The same part as drawn for the other readers of this render alike (one
        # language and card style): one of them may fit this reader as well.
        alike: list[Drawn] = values["alike"].setdefault(slot, [])
        drawn = memo.get(slot)
        if drawn is None or not drawn.still_fits(inputs, values, view):
            for other in alike:
                if other.still_fits(inputs, values, view):
                    drawn = memo[slot] = other
                    break
            else:
                drawn = memo[slot] = drawing(template, inputs, values)
                alike.append(drawn)
        elif drawn not in alike:
            alike.append(drawn)
        values["collected"].update(drawn.fragments)
        return NOTHING  # the render keeps the fragments, not the page they are in

    environment.filters["part"] = part


#: What turns a template's own text into a value it may pass on (to a part, say): a
#: macro, a call block, a ``{% set %}`` block, a filter block.
PASSED_ON = (nodes.Macro, nodes.CallBlock, nodes.AssignBlock, nodes.FilterBlock)


def _unescaped(value: Any) -> Any:
    return value


#: A compiled template's root: its text, piece by piece.
Render = Callable[[Context], Iterator[str]]


def _without_escaping(root: Render) -> Render:
    """A compiled template's root function whose ``{{ }}`` output is not escaped: the same
    code over a copy of its module's names, ``escape`` among them."""
    assert isinstance(root, FunctionType)
    names = {**root.__globals__, "escape": _unescaped}
    return FunctionType(root.__code__, names, root.__name__, root.__defaults__, root.__closure__)


def collector(environment: Environment) -> Callable[[Template, Context], None]:
    """``collect(layout, context)``: run a layout with a ``memo`` for the parts it draws.

    Its parts leave their fragments in ``collected`` and nothing in the layout, whose
    own text is thrown away: so it is not escaped either (escaping the layout's every
    value, each part's empty output included, was 3% of a move).  Unless the layout can
    pass its own text on as a value (``PASSED_ON``): that text must be escaped as on
    the page, so such a layout runs as it is.
    """

    @cache  # by the compiled root too: a template edited in development is checked anew
    def collecting(name: str | None, root: Render) -> Render:
        if name is None:
            return root
        passes_on = next(parsed(environment, name).find_all(PASSED_ON), None) is not None
        return root if passes_on else _without_escaping(root)

    def collect(layout: Template, context: Context) -> None:
        deque(collecting(layout.name, layout.root_render_func)(context), maxlen=0)

    return collect
