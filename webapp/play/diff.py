"""Smaller messages: what changed inside a fragment, as a few out-of-band operations.

A fragment is re-sent whole when it changes, which for a hand or a field of cards means
every card again for one card played.  Lists marked as *keyed* avoid that: the container
has an id, and each child is written ``<!--k BOX-->CHILD<!--/k-->`` where BOX is the
container's id and CHILD an element with its own id.  When only keyed children differ
between two renders of a fragment, the change is sent as htmx out-of-band operations:
``delete`` for a child that left, ``beforebegin:#next`` (or ``beforeend:#box``) for one
that arrived, in its place, and the child itself for one that changed.
"""

from __future__ import annotations

import re

#: A keyed child, up to the first end marker after it.  The loop "text without a tag, then
#: a tag that is not the end marker" finds what ``.*?`` would, in half the time.
KEYED = re.compile(
    r'<!--k (?P<box>[\w-]+)-->(?P<child><\w+ id="(?P<id>[\w-]+)"[^<]*(?:<(?!!--/k-->)[^<]*)*)'
    r"<!--/k-->"
)
KEY = "<!--k "
MARKERS = re.compile(r"<!--(?:f|/f|k [\w-]+|/k)-->")


def strip(html: str) -> str:
    """The HTML without fragment and keyed-list markers.

    >>> strip('<!--f--><p id="a"><!--k a--><b id="b">1</b><!--/k--></p><!--/f-->')
    '<p id="a"><b id="b">1</b></p>'
    """
    return MARKERS.sub("", html)


#: A fragment taken apart: its HTML without keyed children, and each keyed list's
#: children (id, HTML) by container id.
Parsed = tuple[str, dict[str, list[tuple[str, str]]]]


def parse(html: str) -> Parsed:
    """``html`` taken apart for :func:`operations` (a table keeps what it sent this way,
    so each fragment is taken apart once, not again as the old side of the next diff)."""
    if KEY not in html:
        return html, {}
    boxes: dict[str, list[tuple[str, str]]] = {}
    for match in KEYED.finditer(html):
        boxes.setdefault(match["box"], []).append((match["id"], match["child"]))
    return KEYED.sub("", html), boxes


def operations(old: str, new: str) -> list[str] | None:
    """The out-of-band operations that turn ``old`` into ``new``, or None if only a
    whole re-send can (the fragment changed outside its keyed lists, or reordered them).

    >>> old = '<p id="h"><!--k h--><b id="x">x</b><!--/k--><!--k h--><b id="y">y</b><!--/k--></p>'
    >>> new = '<p id="h"><!--k h--><b id="y">y</b><!--/k--><!--k h--><b id="z">z</b><!--/k--></p>'
    >>> operations(old, new)
    ['<i id="x" hx-swap-oob="delete"></i>', '<div hx-swap-oob="beforeend:#h"><b id="z">z</b></div>']
    """
    return operations_between(parse(old), parse(new))


def operations_between(old: Parsed, new: Parsed) -> list[str] | None:
    """:func:`operations` on fragments already taken apart."""
    (old_shell, old_boxes), (new_shell, new_boxes) = old, new
    if not old_boxes and not new_boxes:
        return None  # no keyed list on either side, and the two differ
    if old_shell != new_shell:
        return None
    ops: list[str] = []
    for box in old_boxes.keys() | new_boxes.keys():
        before = dict(old_boxes.get(box, []))
        after = new_boxes.get(box, [])
        staying = dict(after)
        kept = [child_id for child_id, _ in after if child_id in before]
        if kept != [child_id for child_id in before if child_id in staying]:
            return None
        ops.extend(
            f'<i id="{child_id}" hx-swap-oob="delete"></i>'
            for child_id in before
            if child_id not in staying
        )
        inserts: list[str] = []
        following: str | None = None
        for child_id, child in reversed(after):
            if child_id not in before:
                where = f"beforebegin:#{following}" if following else f"beforeend:#{box}"
                inserts.append(f'<div hx-swap-oob="{where}">{child}</div>')
            elif before[child_id] != child:
                ops.append(child)
            following = child_id
        ops.extend(inserts)
    return ops
