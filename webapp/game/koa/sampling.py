"""Koa for the expert's search: a round behind a seat's view, and the round's value.

``sample`` deals the cards the view does not show to the other hands (besides the cards
known to sit there: eaten throws and draws watched while ceki, until thrown again) and the
arena.  A seat with the ceki badge gets a ceki hand (see ``_ceki_hand``), so the search
fears its koa.  Bans between other seats are not in the view and are left out.  ``settled`` is 1
when the searching seat's team won the round, 0 when the other did, 0.5 on arena habis.
"""

from __future__ import annotations

import random

from webapp.game.koa.bots import known_in_hands
from webapp.game.koa.cards import DECK, TYPES, counts, sort_cards
from webapp.game.koa.hand import distance
from webapp.game.koa.oracle import koa_cards
from webapp.game.koa.state import SEATS, KoaState
from webapp.game.koa.view import KoaView
from webapp.game.search import unseen

#: Swaps tried to bring a ceki seat's dealt hand to ceki.
CLIMB = 400


def _ceki_hand(known: list[str], pool: list[str], size: int,
               rng: random.Random) -> tuple[tuple[str, ...], frozenset[str]]:  # fmt: skip
    """``known`` plus ``size`` pool cards made ceki by swaps that never move it further away.

    Random hands are almost never ceki (1 in 270 tries), so the hand climbs to ceki from a
    random one; when the climb stalls it keeps the hand and waits on two random live types
    (on the one left, late in a round where the unseen cards are all of one type).
    """
    fill, rest = pool[:size], pool[size:]
    away = distance(counts([*known, *fill]))
    for _ in range(CLIMB):
        if away == 0 or not rest:
            break
        i, j = rng.randrange(size), rng.randrange(len(rest))
        fill[i], rest[j] = rest[j], fill[i]
        after = distance(counts([*known, *fill]))
        if after <= away:
            away = after
        else:
            fill[i], rest[j] = rest[j], fill[i]
    hand = sort_cards([*known, *fill])
    waits = koa_cards(hand)
    if not waits:
        live = sorted(set(rest) or set(TYPES))
        waits = frozenset(rng.sample(live, 2) if len(live) > 1 else live)
    return hand, waits


def sample(view: KoaView, rng: random.Random) -> KoaState:
    """A round consistent with ``view``: every card it does not show dealt at random."""
    assert view.seat is not None
    taken = [*view.hand, *(record.card for record in view.pile)]
    known = [
        [TYPES[i] for i, count in enumerate(row) for _ in range(count)]
        for row in known_in_hands(view)
    ]
    pool = unseen(DECK, taken + [card for row in known for card in row], rng)
    hands = [view.hand] * SEATS
    koa = [frozenset(view.koa_cards)] * SEATS
    for seat in range(SEATS):
        if seat == view.seat:
            continue
        size = view.hand_counts[seat] - len(known[seat])
        if view.ceki[seat]:
            hands[seat], koa[seat] = _ceki_hand(known[seat], pool, size, rng)
            for card in _dealt(hands[seat], known[seat]):
                pool.remove(card)
        else:
            hands[seat] = sort_cards([*known[seat], *pool[:size]])
            koa[seat] = frozenset()
            del pool[:size]
    return KoaState(
        seed=0,
        mode=view.mode,
        round_no=view.round_no,
        starter=view.starter,
        marks=view.marks,
        hands=tuple(hands),
        arena=tuple(pool),
        throws=view.throws,
        draws=view.arena_draws,
        koa=tuple(koa),
        bans=view.bans,
        turn=view.seat,
        turn_no=view.turn_no,
        phase=view.phase,
        drawn=view.drawn,
        eaten=view.eaten,
        result=view.result,
        last_throw_open=view.latest_throw is not None,
    )


def _dealt(hand: tuple[str, ...], known: list[str]) -> list[str]:
    """The cards of ``hand`` beyond the ``known`` ones."""
    rest = list(hand)
    for card in known:
        rest.remove(card)
    return rest


def settled(state: KoaState, seat: int) -> float | None:
    """The searching seat's team's share of the round once it is over, else None."""
    if state.phase not in ("round-over", "match-over"):
        return None
    assert state.result is not None
    if state.result.winner is None:
        return 0.5
    return 1.0 if (state.result.winner - seat) % 2 == 0 else 0.0
