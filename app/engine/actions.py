"""What an action on the board does to a game's record: its buttons (draw, recycle, redeal, undo,
redo, a new deal, restart, give up) and a tap of a card, said once for both of the app's
interpreters of a board: the server's (app/services/play/moves.py: ``perform`` and
``first_move``, for a stored game or a deal ready to play) and the page's offline engine
(app/web/views/offline_engine.py: ``apply``, the same module run by Pyodide in the browser).

``read_action`` reads an action as the board's form names it ("confirm-" and the name is the
yes to one that asked first); ``step`` works out what it does to a record: a question, the record
after it, a selection, or a refusal (``ActionRefused``, with the key the page words it by).
What only a stored game knows (its owner, a stale page, a game counted as lost, giving up, the
next deal's seed) stays with its caller: ``step`` answers from the record alone, and is told
whether the game counts as in play where its caller knows better (``in_play``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .cards import Card
from .errors import IllegalMoveError, InvalidMoveError
from .gaps import REDEAL
from .history import GameRecord
from .outcome import Status
from .pyramid import DRAW, RECYCLE
from .variants import Move


class ActionRefused(IllegalMoveError):
    """An action the game does not take: ``key`` names why (a message key the page words), the
    message says it in English, and ``detail`` is the engine's own words where it has some."""

    def __init__(self, message: str, key: str, detail: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.key = key
        self.detail = detail


class Action(StrEnum):
    """A board action, as the board's form names it (``read_action``): its buttons, and a tap of
    a card (the form's ``target``). What differs between them is said here once, by the
    properties below, and every caller asks them."""

    DRAW = "draw"
    RECYCLE = "recycle"
    REDEAL = "redeal"
    UNDO = "undo"
    REDO = "redo"
    NEW = "new"
    RESTART = "restart"
    GIVE_UP = "give-up"
    TAP = "tap"

    @property
    def move(self) -> Move | None:
        """The move the button plays, the same on every board (a tap's is the card's: ``Variant.tap``)."""
        return MOVE_OF_ACTION.get(self)

    @property
    def asks_first(self) -> bool:
        """Whether it may ask before it is done (``asks_first``): the yes is posted again as
        "confirm-" and its name."""
        return self in (Action.REDEAL, Action.NEW, Action.RESTART)

    @property
    def leaves(self) -> bool:
        """Whether it leaves the game: for a new deal, or for this game's deal again."""
        return self in (Action.NEW, Action.RESTART)

    @property
    def opens(self) -> bool:
        """Whether a deal ready to play takes it as its first action (``first_move``): a move, or a tap."""
        return self.move is not None or self is Action.TAP

    @property
    def queued(self) -> bool:
        """Whether a page with no network makes it and sends it back later (app.services.play.returned):
        a change of the game's moves; leaving the game or giving it up waits for the network."""
        return self.opens or self in (Action.UNDO, Action.REDO)

    @property
    def offline(self) -> bool:
        """Whether the page's own engine answers it with no network: a change it queues, or a new
        deal (the page picks its seed); restarting and giving up wait for the network."""
        return self.queued or self is Action.NEW


# the buttons that play a move
MOVE_OF_ACTION: dict[str, Move] = {Action.DRAW: DRAW, Action.RECYCLE: RECYCLE, Action.REDEAL: REDEAL}
CONFIRMED = frozenset(action for action in Action if action.asks_first)
ACTIONS = frozenset(Action)                                               # a stored game's
FIRST_ACTIONS = frozenset(action for action in Action if action.opens)     # a deal's first
QUEUED_ACTIONS = frozenset(action for action in Action if action.queued)   # sent back from offline
OFFLINE_ACTIONS = frozenset(action for action in Action if action.offline)  # the page's engine's
CONFIRM = "confirm-"


def read_action(action: str, target: str = "", among: frozenset[Action] = ACTIONS) -> tuple[Action, bool]:
    """The action a board form names, one of ``among``, and whether it is the yes to one that asked
    first ("confirm-" and an action that ``asks_first``). No action with a card named (``target``)
    is a tap. Any other name is refused ("unknown_action")."""
    name = action.removeprefix(CONFIRM)
    confirmed = name != action
    if not action and target:
        name = Action.TAP
    try:
        read = Action(name)
    except ValueError:
        raise ActionRefused("unknown action", "unknown_action") from None
    if read not in among or (confirmed and not read.asks_first):
        raise ActionRefused("unknown action", "unknown_action")
    return read, confirmed


def final(record: GameRecord) -> bool:
    """A won game takes nothing more, no undo or redo either: a win is final
    (app.services.play.lifecycle says the same of a stored game, and the board greys its buttons)."""
    return record.position.status is Status.WON


def in_play(record: GameRecord) -> bool:
    """A game in play as its record alone says it: a move made (even taken back), and not ended.
    A new deal or restart counts it as lost, so it asks first. (A stored game's own phase says
    more: app.services.play.lifecycle.phase_of.)"""
    return bool(record.moves) and record.position.status is Status.PLAYING


def asks_first(action: Action, record: GameRecord, playing: bool) -> bool:
    """Whether ``action`` needs a confirmation on this game: a redeal that skips possible moves
    (``gives_up_moves``); a new deal or restart that counts a game in play (``playing``) as lost."""
    if not action.asks_first:
        return False
    if action.move is not None:
        return record.position.gives_up_moves(action.move)
    return playing


@dataclass(frozen=True)
class Step:
    """What an action does to a record: the record after it (the same record when it only asks,
    selects, or is its caller's to do: leaving the game, giving it up), and beside it the move
    played, the selection, and what to say."""

    record: GameRecord
    move: Move | None = None             # the move played (undo and redo play none)
    selected: str | None = None          # a tap that only selects: the selection now
    note: str | None = None              # message key: the tap did nothing, or the question asked
    cards: tuple[Card, ...] = ()         # "no_pair": the selected card and the tapped one
    confirm: Action | None = None        # the action asks first: nothing is done until its yes
    stepped: bool = False                # an undo or a redo moved the cursor


def step(record: GameRecord, action: Action, *, target: str = "", selected: str | None = None,
         confirmed: bool = False, playing: bool | None = None, max_moves: int | None = None) -> Step:
    """What ``action`` does to ``record`` (``read_action`` read it; ``confirmed``: its yes). A win
    is final (``final``); an action that may ask first asks unless confirmed (``asks_first``;
    ``playing``: whether a new deal would count the game as lost, ``in_play`` unless said);
    undo and redo move the cursor; a button plays its move and a tap what ``Variant.tap`` says
    (a selection only, perhaps with a note); a move beyond ``max_moves`` moves is refused.
    Leaving the game and giving it up change nothing here: they are the caller's to do.
    A refusal raises ``ActionRefused``."""
    if final(record) and not action.leaves:
        raise ActionRefused("the game is won: a win is final", "won_final")
    if not confirmed and asks_first(action, record, in_play(record) if playing is None else playing):
        return Step(record, note=f"confirm_{action}", confirm=action)
    if action.leaves or action is Action.GIVE_UP:
        return Step(record)
    if action is Action.UNDO:
        if not record.can_undo:
            raise ActionRefused("there is nothing to undo", "nothing_to_undo")
        return Step(record.undo(), stepped=True)
    if action is Action.REDO:
        if not record.can_redo:
            raise ActionRefused("there is nothing to redo", "nothing_to_redo")
        return Step(record.redo(), stepped=True)
    move = action.move
    if move is None:
        try:
            tap = record.variant.tap(record.position, selected or None, target)
        except InvalidMoveError as exc:
            raise ActionRefused(str(exc), "bad_move", detail=str(exc)) from None
        if tap.move is None:
            return Step(record, selected=tap.selected, note=tap.note, cards=tap.cards)
        move = tap.move
    return Step(play(record, move, max_moves=max_moves), move=move)


def play(record: GameRecord, *moves: Move | str, max_moves: int | None = None) -> GameRecord:
    """The record after ``moves`` (Moves, or notation), all played or the refusal: more than
    ``max_moves`` moves in all ("too_many_moves"), notation that names no move ("bad_move"), a move
    the rules do not allow where it comes ("illegal_move")."""
    if max_moves is not None and record.cursor + len(moves) > max_moves:
        raise ActionRefused("this game has reached the longest move list allowed", "too_many_moves")
    try:
        for move in moves:
            record = record.play(move)
    except InvalidMoveError as exc:
        raise ActionRefused(str(exc), "bad_move", detail=str(exc)) from None
    except IllegalMoveError as exc:
        raise ActionRefused(str(exc), "illegal_move", detail=str(exc)) from None
    return record
