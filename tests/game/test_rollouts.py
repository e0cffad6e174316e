"""The expert's fast playouts keep the rules: their moves replay through ``apply`` exactly.

Each game's ``rollout.py`` plays a round on its own compact state for speed; here its moves
are replayed through the engine from the same state, every one must be legal there, the
legal throws it computed must be the engine's, and the round must end with the same winner.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from webapp.game.koa import GAME as KOA
from webapp.game.koa.actions import Cabut, KoaAction, Makan, Throw
from webapp.game.koa.cards import INDEX, TYPES, counts
from webapp.game.koa.rollout import CABUT, MAKAN, _legal_throws, play_round
from webapp.game.koa.rules import is_gantung, legal_throws
from webapp.game.koa.sampling import sample
from webapp.game.koa.state import KoaState
from webapp.game.koikoi import GAME as KOIKOI
from webapp.game.koikoi.actions import KoikoiAction, Play, Stop
from webapp.game.koikoi.actions import Take as KoikoiTake
from webapp.game.koikoi.cards import DECK as KOIKOI_DECK
from webapp.game.koikoi.rollout import rollout as koikoi_rollout
from webapp.game.koikoi.sampling import sample as koikoi_sample
from webapp.game.koikoi.sampling import settled as koikoi_settled
from webapp.game.koikoi.sim import INDEX as KOIKOI_INDEX
from webapp.game.koikoi.sim import WORTH, by_month, greedy_card, mask_of
from webapp.game.koikoi.state import KoikoiState
from webapp.game.kowah import GAME as KOWAH
from webapp.game.kowah.actions import Discard, Draw, KowahAction, Take
from webapp.game.kowah.cards import TYPES as KOWAH_TYPES
from webapp.game.kowah.rollout import DRAW, TAKE, play_deal
from webapp.game.kowah.sampling import sample as kowah_sample
from webapp.game.kowah.state import KowahState
from webapp.game.protocol import Game


def positions(
    game: Game[Any, Any, Any],
    options: Callable[[int], dict[str, Any]],
    sample: Callable[[Any, random.Random], Any],
    count: int,
) -> list[Any]:
    """States along games of mixed levels, and deals sampled behind their views."""
    found: list[Any] = []
    gen = random.Random(5)
    seed = 0
    while len(found) < count:
        seed += 1
        levels = ["hard", "easy", "medium", "random"]
        state = game.new_game(seed, options(seed))
        step = 0
        while (seat := game.to_act(state)) is not None and step < 2000:
            view = game.view(state, seat)
            if len(game.legal_actions(state)) > 1 and step % 7 == 0:
                found.append(state)
                found.append(sample(view, gen))
            state = game.apply(state, game.bots[levels[seat]](view, gen))
            step += 1
    return found


def koa_positions(count: int) -> list[KoaState]:
    """Full matches reach gantung; sampled deals have ceki hands and the bans kept."""
    return positions(KOA, lambda seed: {"mode": "full" if seed % 2 else "quick"}, sample, count)


def koa_action(move: int) -> KoaAction:
    return Cabut() if move == CABUT else Makan() if move == MAKAN else Throw(TYPES[move])


def koa_legal_throws(state: KoaState) -> list[int]:
    bans = [(ban.seat, ban.eater, INDEX[ban.card]) for ban in state.bans]
    eaten = -1 if state.eaten is None else INDEX[state.eaten]
    hand = list(counts(state.hands[state.turn]))
    return _legal_throws(hand, state.turn, eaten, is_gantung(state, state.turn), bans)


def test_koa_rollouts_replay_through_the_engine() -> None:
    makan = bans = 0
    for number, start in enumerate(koa_positions(200)):
        winner, moves = play_round(start, random.Random(number))
        state = start
        for move in moves:
            if state.phase == "throw":
                assert koa_legal_throws(state) == [INDEX[c] for c in legal_throws(state)]
            makan += move == MAKAN
            bans += bool(state.bans)
            state = KOA.apply(state, koa_action(move))  # raises on an illegal move
        assert state.phase in ("round-over", "match-over")
        assert state.result is not None and state.result.winner == winner
    assert makan > 20 and bans > 20  # the rare rules were exercised


def kowah_positions(count: int) -> list[KowahState]:
    """Two, three and four players."""
    return positions(KOWAH, lambda seed: {"players": 2 + seed % 3}, kowah_sample, count)


def kowah_action(move: tuple[int, int]) -> KowahAction:
    if move == DRAW:
        return Draw()
    if move == TAKE:
        return Take()
    card, pair = move
    return Discard(KOWAH_TYPES[card], KOWAH_TYPES[pair] if pair >= 0 else None)


def test_kowah_rollouts_replay_through_the_engine() -> None:
    takes = declared = 0
    for number, start in enumerate(kowah_positions(150)):
        winner, moves = play_deal(start, random.Random(number))
        state = start
        for move in moves:
            takes += move == TAKE
            declared += move[1] >= 0
            state = KOWAH.apply(state, kowah_action(move))  # raises on an illegal move
        assert state.phase == "over" and state.result is not None
        assert state.result.winners == (() if winner is None else (winner,))
    assert takes > 20 and declared > 10  # the rarer paths were exercised


def koikoi_greedy(state: KoikoiState) -> KoikoiAction:
    """``sim``'s greedy policy, played through the engine: its card, the dearer of two
    field cards (the first of equals, as ``sim`` takes), always stop."""
    if state.phase == "decide":
        return Stop()
    if state.phase == "choose":
        assert state.pending is not None
        return KoikoiTake(max(state.pending.options, key=lambda c: WORTH[KOIKOI_INDEX[c]]))
    hand = [KOIKOI_INDEX[card] for card in state.hands[state.turn]]
    field = by_month(KOIKOI_INDEX[card] for card in state.field)
    card = greedy_card(hand, field, mask_of(state.captured[state.turn]), state.house)
    return Play(KOIKOI_DECK[card])


def test_koikoi_rollouts_score_as_the_engine_does() -> None:
    """The round played greedily on bit masks ends as the same play through the engine."""
    scored = 0
    for number, start in enumerate(positions(KOIKOI, lambda s: {"rounds": 3}, koikoi_sample, 300)):
        seat = KOIKOI.to_act(start)
        assert seat is not None
        state = start
        while (value := koikoi_settled(state, seat)) is None:
            state = KOIKOI.apply(state, koikoi_greedy(state))  # raises on an illegal move
        assert koikoi_rollout(start, seat, random.Random(number)) == value, number
        scored += value != 0
    assert scored > 100  # most rounds end with a yaku, not with the hands out
