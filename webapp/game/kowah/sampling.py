"""Kowah for the expert's search: a deal behind a seat's view, and the deal's value.

``sample`` deals the cards the view does not show to the other hands (besides the cards
everyone knows them to hold) and the stock.  A declared seat's hand is locked checki on its
exposed pair, so its unknown cards are dealt as the triples that complete it.  ``settled``
is 1 when the searching seat won the deal, else 0, once it is over.
"""

from __future__ import annotations

import random
from collections import Counter

from webapp.game.kowah.cards import DECK, KIND, KINDS, sort_cards
from webapp.game.kowah.oracle import checki_pairs
from webapp.game.kowah.state import KowahState, Phase
from webapp.game.kowah.view import KowahView
from webapp.game.search import unseen

_PHASES: dict[str, Phase] = {"take": "take", "discard": "discard"}

#: Tries at dealing a declared hand checki before settling for any cards (never seen).
TRIES = 50


def _triples(pool: list[str], fixed: list[str], size: int, rng: random.Random) -> list[str] | None:
    """``size`` cards from ``pool`` making the triples of a declared hand around ``fixed``."""
    have = Counter(KIND[card] for card in fixed)
    counts = Counter(KIND[card] for card in pool)
    chosen: list[str] = []
    for kind, held in have.items():
        need = (3 - held % 3) % 3
        if need > counts[kind]:
            return None
        cards = [card for card in pool if KIND[card] == kind and card not in chosen]
        chosen += rng.sample(cards, need)
    while len(chosen) < size:
        open_kinds = [k for k in KINDS if counts[k] - sum(KIND[c] == k for c in chosen) >= 3]
        if not open_kinds:
            return None
        kind = rng.choice(open_kinds)
        cards = [card for card in pool if KIND[card] == kind]
        for card in chosen:
            if card in cards:
                cards.remove(card)
        chosen += rng.sample(cards, 3)
    return chosen if len(chosen) == size else None


def _declared_hand(pool: list[str], pair: str, known: tuple[str, ...], size: int,
                   rng: random.Random) -> list[str]:  # fmt: skip
    """A locked hand of ``size`` cards: the exposed pair, the known cards, checki on the pair."""
    for _ in range(TRIES):
        fill = _triples(pool, list(known), size, rng)
        if fill is not None and pair in checki_pairs([pair, pair, *known, *fill]):
            return fill
    return pool[:size]


def sample(view: KowahView, rng: random.Random) -> KowahState:
    """A deal consistent with ``view``: every card it does not show dealt at random."""
    assert view.seat is not None
    seen = [*view.hand, *(entry.card for entry in view.pile)]
    for other in view.seats:
        if other.seat != view.seat:
            seen += other.known + ((other.exposed, other.exposed) if other.exposed else ())
    pool = unseen(DECK, seen, rng)
    hands = [view.hand] * view.players
    # The declared hands first: they are the ones the dealt cards must fit.
    for other in sorted(view.seats, key=lambda seat_view: seat_view.exposed is None):
        if other.seat == view.seat:
            continue
        size = other.hand_count - len(other.known) - (2 if other.exposed else 0)
        if other.exposed:
            fill = _declared_hand(pool, other.exposed, other.known, size, rng)
        else:
            fill = pool[:size]
        for card in fill:
            pool.remove(card)
        pair = (other.exposed, other.exposed) if other.exposed else ()
        hands[other.seat] = sort_cards([*other.known, *pair, *fill])
    return KowahState(
        seed=0,
        players=view.players,
        hands=tuple(hands),
        stock=tuple(pool),
        pile=view.pile,
        exposed=tuple(other.exposed for other in view.seats),
        known=tuple(other.known for other in view.seats),
        turn=view.seat,
        phase=_PHASES[view.phase],
        drawn=view.drawn,
        taken=view.taken,
        events=(),
    )


def settled(state: KowahState, seat: int) -> float | None:
    """1 when ``seat`` won the deal, 0 when another seat won or nobody did; None until over."""
    if state.result is None:
        return None
    return 1.0 if seat in state.result.winners else 0.0
