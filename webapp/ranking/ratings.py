"""Rating finished tables and reading ratings back: the database side of the ranking.

:func:`rate_table` is the hub's ``on_finish`` callback (through :func:`make_hook`): a
table is rated only when every seat is a different signed-in account, only once, and
only when it played the game's standard rules (no house rule).
Its rows are written in one transaction that starts by inserting the table's
:class:`RatedTable` row, whose primary key refuses a second rating (a repeated call, a
restart that replays a finished table, another process).  Rating rows are read for
update in a fixed order, so two tables finishing at once cannot lose an update.

Where every team is two people (Koa's mandan), each pair of partners also has a rating
of its own, one per unordered pair of accounts, moved in the same transaction: the pair
against the other team's pair, by the same Elo rule as single players.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import aliased
from sqlmodel import Session, col, func, or_, select

from webapp.adapters import names
from webapp.auth.models import User
from webapp.game import registry
from webapp.game.protocol import Outcome
from webapp.play.models import TableRecord
from webapp.play.revive import revive
from webapp.play.store import Seat, Store, TableBroken
from webapp.ranking import elo
from webapp.ranking.models import PairRating, RatedResult, RatedTable, Rating, Record, utcnow
from webapp.ranking.tiers import Tier, tier_of

log = logging.getLogger(__name__)

#: The games that have a ranking, in the order the pages list them.
GAMES = names()


def plays_in_pairs(game: str) -> bool:
    """Whether a game is played by teams of two at some table size (its pairs are rated)."""
    rules = registry.get(game)
    return any(len(team) == 2 for count in rules.seat_counts for team in rules.teams(count))


#: The games whose partners are rated as pairs too (Koa).
PAIR_GAMES = tuple(game for game in GAMES if plays_in_pairs(game))

Pair = tuple[int, int]


def pairs_in(teams: Sequence[Sequence[int]], accounts: Sequence[int]) -> list[Pair] | None:
    """Each team's two accounts, the smaller id first, when every team is a pair.

    >>> pairs_in([[0, 2], [1, 3]], [7, 5, 3, 9])
    [(3, 7), (5, 9)]
    >>> pairs_in([[0], [1]], [7, 5]) is None
    True
    """
    if any(len(team) != 2 for team in teams):
        return None
    return [(min(pair), max(pair)) for pair in ([accounts[a], accounts[b]] for a, b in teams)]


def player_account(player: str | None) -> int | None:
    """The account id in a player id (``u-<id>``); None for a guest (``g-...``).

    >>> player_account("u-42"), player_account("g-x1"), player_account(None)
    (42, None, None)
    """
    if not player or not player.startswith("u-") or not player[2:].isdigit():
        return None
    return int(player[2:])


def account_id(seat: Seat) -> int | None:
    """The account behind a seat, if a signed-in person sits there.

    >>> account_id(Seat("human", player="u-42")), account_id(Seat("bot", player="u-42"))
    (42, None)
    """
    return player_account(seat.player) if seat.kind == "human" else None


def rated_accounts(seats: Sequence[Seat]) -> list[int] | None:
    """The account of every seat, or None when the table is not rated.

    A bot, a guest, or one account in two seats makes the table unrated.

    >>> rated_accounts([Seat("human", player="u-1"), Seat("human", player="u-2")])
    [1, 2]
    >>> rated_accounts([Seat("human", player="u-1"), Seat("bot", level="easy")]) is None
    True
    >>> rated_accounts([Seat("human", player="u-1"), Seat("human", player="u-1")]) is None
    True
    """
    accounts = [account_id(seat) for seat in seats]
    found = [account for account in accounts if account is not None]
    if len(found) != len(seats) or len(set(found)) != len(found) or len(found) < 2:
        return None
    return found


def rate_table(
    engine: Engine,
    table_id: str,
    game: str,
    seats: Sequence[Seat],
    outcome: Outcome,
    teams: Sequence[Sequence[int]],
) -> bool:
    """Rate one finished table; True if this call rated it.

    ``teams`` lists the seats of each side (the game's ``teams``); ``outcome.winners``
    are the seats that won, none on a draw.
    """
    accounts = rated_accounts(seats)
    if accounts is None or game not in GAMES:
        return False
    for _attempt in range(3):
        try:
            return _rate_once(engine, table_id, game, accounts, outcome, teams)
        except _Conflict:
            # Another table made a first rating row for one of these players at the
            # same moment; the table's own key was free, so read everything again.
            continue
    return False


class _Conflict(Exception):
    pass


def _rate_once(
    engine: Engine,
    table_id: str,
    game: str,
    accounts: list[int],
    outcome: Outcome,
    teams: Sequence[Sequence[int]],
) -> bool:
    winners = {index for index, team in enumerate(teams) if set(team) & set(outcome.winners)}
    team_of = {seat: index for index, team in enumerate(teams) for seat in team}
    now = utcnow()
    with Session(engine) as db:
        try:
            db.add(RatedTable(table_id=table_id, game=game, rated_at=now))
            db.flush()
        except IntegrityError:
            db.rollback()
            return False
        present = set(db.exec(select(User.id).where(col(User.id).in_(accounts))).all())
        if present != set(accounts):
            # An account was deleted while the match went on: nobody is rated.
            db.rollback()
            return False
        standing: dict[int, Rating] = {}
        for account in sorted(accounts):
            row = db.exec(
                select(Rating)
                .where(Rating.user_id == account, Rating.game == game)
                .with_for_update()
            ).first()
            standing[account] = row or Rating(user_id=account, game=game)
        sides = [
            [
                elo.Player(standing[accounts[seat]].rating, standing[accounts[seat]].games)
                for seat in team
            ]
            for team in teams
        ]
        deltas = elo.changes(sides, winners)
        for team_index, team in enumerate(teams):
            score = team_score(team_index, winners)
            for position, seat in enumerate(team):
                row = standing[accounts[seat]]
                before = row.rating
                count(row, deltas[team_index][position], score, now)
                db.add(row)
                db.add(
                    RatedResult(
                        table_id=table_id,
                        user_id=accounts[seat],
                        game=game,
                        seat=seat,
                        team=team_of[seat],
                        score=score,
                        before=before,
                        after=row.rating,
                        rated_at=now,
                    )
                )
        pairs = pairs_in(teams, accounts)
        if pairs is not None:
            _rate_pairs(db, game, pairs, winners, now)
        try:
            db.commit()
        except IntegrityError as error:
            db.rollback()
            raise _Conflict from error
    return True


def team_score(team: int, winners: set[int]) -> float:
    """1 for a team that won, 0 for one that lost, ½ each on a draw (no winner)."""
    return 0.5 if not winners else 1.0 if team in winners else 0.0


def count(row: Record, change: float, score: float, now: datetime) -> None:
    """One more rated match on a player's or a pair's row."""
    row.rating += change
    row.games += 1
    row.wins += score == 1.0
    row.draws += score == 0.5
    row.losses += score == 0.0
    row.updated_at = now


def _rate_pairs(
    db: Session, game: str, pairs: list[Pair], winners: set[int], now: datetime
) -> None:
    """Move each team's pair against the others' (read for update, in a fixed order)."""
    rows: dict[Pair, PairRating] = {}
    for first, second in sorted(pairs):
        row = db.exec(
            select(PairRating)
            .where(
                PairRating.game == game,
                PairRating.first_id == first,
                PairRating.second_id == second,
            )
            .with_for_update()
        ).first()
        rows[first, second] = row or PairRating(game=game, first_id=first, second_id=second)
    sides = [[elo.Player(rows[pair].rating, rows[pair].games)] for pair in pairs]
    for index, (pair, (change,)) in enumerate(zip(pairs, elo.changes(sides, winners), strict=True)):
        count(rows[pair], change, team_score(index, winners), now)
        db.add(rows[pair])


def make_hook(engine: Engine) -> Callable[[Any], None]:
    """The hub's ``on_finish`` callback: rate a table that just ended."""

    def rate_finished(session: Any) -> None:
        outcome = session.game.outcome(session.state)
        if outcome is None or not session.game.standard_rules(session.options):
            return
        teams = session.game.teams(len(session.seats))
        rate_table(engine, session.id, session.game.name, session.seats, outcome, teams)

    return rate_finished


def catch_up(engine: Engine) -> int:
    """Rate every finished table that should have been rated and was not (the server
    stopped between a table's last move and its rating); returns how many it rated."""
    store = Store(engine)
    with Session(engine) as db:
        rated = select(RatedTable.table_id)
        candidates = db.exec(
            select(TableRecord.id).where(
                col(TableRecord.finished).is_(True),
                col(TableRecord.broken).is_(None),
                col(TableRecord.id).not_in(rated),
            )
        ).all()
    count = 0
    for table_id in candidates:
        try:
            stored = store.load(table_id)
            if stored is None or rated_accounts(stored.seats) is None:
                continue
            game, state = revive(store, stored)
            if not game.standard_rules(stored.options):
                continue
        except TableBroken:
            continue  # its log no longer replays (marked now): a broken table never counts
        outcome = game.outcome(state)
        if outcome is None:
            continue
        teams = game.teams(len(stored.seats))
        count += rate_table(engine, table_id, game.name, stored.seats, outcome, teams)
    return count


# Reading ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Standing:
    """A player's rating in one game, as the pages show it."""

    game: str
    rating: float
    games: int
    wins: int
    draws: int
    losses: int

    @property
    def provisional(self) -> bool:
        return self.games < elo.PROVISIONAL_GAMES

    @property
    def shown(self) -> int:
        return round(self.rating)

    @property
    def tier(self) -> Tier:
        return tier_of(self.rating, self.provisional)


def standing_of(row: Rating | PairRating) -> Standing:
    return Standing(row.game, row.rating, row.games, row.wins, row.draws, row.losses)


@dataclass(frozen=True)
class BoardRow:
    place: int
    user_id: int
    username: str
    standing: Standing

    @property
    def ids(self) -> tuple[int]:
        """The accounts on the row (a pair's row has two)."""
        return (self.user_id,)


def leaderboard(engine: Engine, game: str, limit: int = 50) -> list[BoardRow]:
    """The best rated players of a game: highest rating first, then most games."""
    with Session(engine) as db:
        rows = db.exec(
            select(Rating, User.username)
            .join(User, col(User.id) == col(Rating.user_id))
            .where(Rating.game == game)
            .order_by(col(Rating.rating).desc(), col(Rating.games).desc(), col(User.username))
            .limit(limit)
        ).all()
    return [
        BoardRow(place, rating.user_id, username, standing_of(rating))
        for place, (rating, username) in enumerate(rows, start=1)
    ]


def place_of(engine: Engine, user_id: int, game: str) -> int | None:
    """A player's place on a game's leaderboard (None when they have no rating)."""
    with Session(engine) as db:
        mine = db.get(Rating, (user_id, game))
        if mine is None:
            return None
        above = db.exec(
            select(func.count())
            .select_from(Rating)
            .join(User, col(User.id) == col(Rating.user_id))
            .where(Rating.game == game, col(Rating.rating) > mine.rating)
        ).one()
    return int(above) + 1


def standings(engine: Engine, user_id: int) -> dict[str, Standing]:
    """Every game a player is rated in."""
    with Session(engine) as db:
        rows = db.exec(select(Rating).where(Rating.user_id == user_id)).all()
    return {row.game: standing_of(row) for row in rows}


@dataclass(frozen=True)
class PairRow:
    """One pair of partners on a game's pairs leaderboard."""

    place: int
    ids: Pair
    names: tuple[str, str]
    standing: Standing


def pair_leaderboard(engine: Engine, game: str, limit: int = 50) -> list[PairRow]:
    """The best rated pairs of a game: highest rating first, then most games."""
    first, second = aliased(User), aliased(User)
    with Session(engine) as db:
        rows = db.exec(
            select(PairRating, first.username, second.username)
            .join(first, col(first.id) == col(PairRating.first_id))
            .join(second, col(second.id) == col(PairRating.second_id))
            .where(PairRating.game == game)
            .order_by(
                col(PairRating.rating).desc(),
                col(PairRating.games).desc(),
                col(first.username),
                col(second.username),
            )
            .limit(limit)
        ).all()
    return [
        PairRow(place, (pair.first_id, pair.second_id), (one, other), standing_of(pair))
        for place, (pair, one, other) in enumerate(rows, start=1)
    ]


@dataclass(frozen=True)
class Partner:
    """A player's pair with one partner: the partner's name and the pair's standing."""

    username: str
    standing: Standing


def partners(engine: Engine, user_id: int, game: str) -> list[Partner]:
    """Every pair a player is half of in a game, the best rated first."""
    with Session(engine) as db:
        rows = db.exec(
            select(PairRating, User.username)
            .join(
                User,
                or_(
                    (col(PairRating.first_id) == user_id) & (col(User.id) == PairRating.second_id),
                    (col(PairRating.second_id) == user_id) & (col(User.id) == PairRating.first_id),
                ),
            )
            .where(PairRating.game == game)
            .order_by(
                col(PairRating.rating).desc(), col(PairRating.games).desc(), col(User.username)
            )
        ).all()
    return [Partner(username, standing_of(pair)) for pair, username in rows]


@dataclass(frozen=True)
class Result:
    """One rated table from one player's side."""

    table_id: str
    game: str
    rated_at: datetime
    score: float
    before: float
    after: float
    partners: tuple[str, ...]
    opponents: tuple[str, ...]

    @property
    def change(self) -> int:
        """The change as the page shows it: between the two rounded ratings."""
        return round(self.after) - round(self.before)


def history(engine: Engine, user_id: int, game: str, limit: int = 60) -> list[float]:
    """The player's rating in a game after each of their last ``limit`` rated tables,
    oldest first, starting with the rating before the first of them."""
    with Session(engine) as db:
        rows = db.exec(
            select(RatedResult.before, RatedResult.after)
            .where(RatedResult.user_id == user_id, RatedResult.game == game)
            .order_by(col(RatedResult.rated_at).desc(), col(RatedResult.table_id).desc())
            .limit(limit)
        ).all()
    if not rows:
        return []
    rows = list(reversed(rows))
    return [rows[0][0], *(after for _before, after in rows)]


def recent_results(engine: Engine, user_id: int, game: str, limit: int = 5) -> list[Result]:
    """The player's last rated tables of a game, newest first, with who sat with them."""
    with Session(engine) as db:
        mine = db.exec(
            select(RatedResult)
            .where(RatedResult.user_id == user_id, RatedResult.game == game)
            .order_by(col(RatedResult.rated_at).desc(), col(RatedResult.table_id).desc())
            .limit(limit)
        ).all()
        tables = [row.table_id for row in mine]
        others = db.exec(
            select(RatedResult.table_id, RatedResult.team, RatedResult.seat, User.username)
            .join(User, col(User.id) == col(RatedResult.user_id))
            .where(col(RatedResult.table_id).in_(tables), RatedResult.user_id != user_id)
            .order_by(col(RatedResult.seat))
        ).all()
    found = []
    for row in mine:
        at_table = [other for other in others if other[0] == row.table_id]
        found.append(
            Result(
                table_id=row.table_id,
                game=row.game,
                rated_at=row.rated_at,
                score=row.score,
                before=row.before,
                after=row.after,
                partners=tuple(name for _t, team, _s, name in at_table if team == row.team),
                opponents=tuple(name for _t, team, _s, name in at_table if team != row.team),
            )
        )
    return found


def table_change(engine: Engine, table_id: str, player: str) -> tuple[float, float] | None:
    """A player's rating before and after one table, if that table was rated."""
    account = player_account(player)
    if account is None:
        return None
    with Session(engine) as db:
        row = db.get(RatedResult, (table_id, account))
    return (row.before, row.after) if row is not None else None


def rating_of(engine: Engine, player: str, game: str) -> float:
    """A player's current rating in a game (the starting rating when unrated)."""
    account = player_account(player)
    if account is None:
        return elo.INITIAL
    with Session(engine) as db:
        row = db.get(Rating, (account, game))
    return row.rating if row is not None else elo.INITIAL
