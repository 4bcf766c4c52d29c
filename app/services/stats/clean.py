"""A win by the player alone, and a clean win: one rule, read in Python (the daily table's reasons)
and in SQL (the statistics' clean wins, the daily streak, a deal page's records).

**By the player alone** (``unaided``): the player's first game of its cards (``games.first_of_deal``:
no earlier game of theirs dealt the same cards, in any preset of the game, imported or seeded: a
later game knows the deal, and may have seen its winning line) and, while it was played, their
only one (``games.alone_in_deal``: a game of the same cards opened beside it lends it its hints
and, once over, the deal's winning line), with no hint, no auto-finish and
no "still winnable?" shown while it was played, its moves made at the board of the pages (never
through the API: a program's game) and no faster than a person plays
(``FLOOR_SECONDS_PER_MOVE``, on the server's clock from the first move to the last). A game
played offline has no time to judge: its moves reached the server together.

**Clean**: won by the player alone, with no undo either. The daily table ranks a clean win only
when the server saw it played (not offline: a program can say it was offline as well as a
person); the statistics count it either way, as the player's own.
"""

from __future__ import annotations

from enum import StrEnum

from sqlalchemy import ColumnElement, and_, or_, select

from app.db.models import Game

from ..play import games

# The fewest seconds a move takes a person, on average over a game, timed by the server from the
# first move to the last (docs/par.md, "Programs are not players", says how it was measured): a
# win faster than that was not played by hand and is not clean.
FLOOR_SECONDS_PER_MOVE = 0.25


class Unranked(StrEnum):
    """Why a daily win is not ranked (the table's words, the API's ``unranked``), in the order
    the rule asks."""

    ASSISTED = "assisted"    # a hint (one asked before the first move too), an undo, an auto-finish, "still winnable?"
    AGAIN = "again"          # not the player's first game of these cards: a retry, a restart, a second try
    ALONGSIDE = "alongside"  # another game of these cards was opened while it was played
    API = "api"              # moves through the API: a program's game
    TOO_FAST = "too_fast"    # faster than a person plays (FLOOR_SECONDS_PER_MOVE)
    OFFLINE = "offline"      # played offline: clean, but nobody saw how (a program can claim it too)


def unranked(game: Game, *, first: bool, alone: bool) -> Unranked | None:
    """The one rule of a ranked daily win, for a won game on a day's table: None when it is
    ranked, else why not. ``first``: the game is the player's first game of its cards;
    ``alone``: no other game of them was opened while it was played."""
    if help_used(game):
        return Unranked.ASSISTED
    if not first:
        return Unranked.AGAIN
    if not alone:
        return Unranked.ALONGSIDE
    if game.played_via != games.PAGE:
        return Unranked.API
    if game.played_offline:
        return Unranked.OFFLINE
    if game.seconds is None or game.seconds < FLOOR_SECONDS_PER_MOVE * max(0, game.cursor - 1):
        return Unranked.TOO_FAST
    return None


def help_used(game: Game) -> str | None:
    """Which help made a win ``ASSISTED``, to say to its player (the first of them): "hint",
    "undo", "auto_finish" or "winnable_shown"; None without help."""
    used = (("hint", game.hint_count), ("undo", game.undo_count), ("auto_finish", game.auto_finished),
            ("winnable_shown", game.winnable_shown))
    return next((name for name, yes in used if yes), None)


def unaided_expression(c, player_id=None) -> ColumnElement[bool]:
    """SQL: the game of columns ``c`` (``Game``, or a subquery's ``.c`` with the same names) was
    played by its player alone (``player_id``: its player's id, when ``c`` does not carry it)."""
    player = c.player_id if player_id is None else player_id
    return and_(
        c.hint_count == 0, c.auto_finished.is_(False), c.winnable_shown.is_(False), c.played_via == games.PAGE,
        or_(c.played_offline.is_(True), c.seconds >= FLOOR_SECONDS_PER_MOVE * (c.cursor - 1)),
        games.first_of_deal(player, c.game, c.deal_key, c.created_at, c.id),
        games.alone_in_deal(player, c.game, c.deal_key, c.created_at, c.finished_at, c.updated_at, c.id),
    )


def clean_expression(c, player_id=None) -> ColumnElement[bool]:
    """SQL: the game of columns ``c`` is clean if won: by its player alone, with no undo."""
    return and_(unaided_expression(c, player_id), c.undo_count == 0)


def first_games(session, player_ids, seed: int, preset: str) -> set[str]:
    """The ids of the players' games of the preset's deal ``seed`` that are their first game of
    its cards (``games.first_of_deal``)."""
    return _of_deal(session, player_ids, seed, preset,
                    games.first_of_deal(Game.player_id, Game.game, Game.deal_key, Game.created_at, Game.id))


def alone_games(session, player_ids, seed: int, preset: str) -> set[str]:
    """The ids of the players' games of the preset's deal ``seed`` beside which no other game of
    its cards was opened (``games.alone_in_deal``)."""
    return _of_deal(session, player_ids, seed, preset, games.alone_in_deal(
        Game.player_id, Game.game, Game.deal_key, Game.created_at, Game.finished_at, Game.updated_at, Game.id))


def _of_deal(session, player_ids, seed: int, preset: str, rule: ColumnElement[bool]) -> set[str]:
    return set(session.scalars(select(Game.id).where(
        Game.preset == preset, Game.seed == seed, Game.player_id.in_(list(player_ids)), rule)))

