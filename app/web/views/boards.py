"""The board: what it shows.

What the board shows are view models of a position for the templates: which card is playable,
selected, a partner of the selection. The templates and the JavaScript know no rules: they
draw the places these models describe and post taps back. Each place also carries what a tap
on it would do (the places it pairs with, the move a tap alone plays, or that it is refused),
the same answers a tap gives (``Variant.tap``, app/engine/taps.py; tests/web/views/test_boards.py
holds them to it), so the page can show them before the server answers. Each kind of position
registers its own builder (functools.singledispatch: ``board_of``); each family's helpers know
that family's move types, so nothing here asks which game a position is.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import singledispatch
from typing import Any, NamedTuple

from app.engine import Card, GameRecord, Move, Position, Status
from app.engine.announcements import said_moves
from app.engine.gaps import COLUMNS, REDEAL, ROWS, Fill, GapsPosition, Redeal
from app.engine.pyramid import (
    DRAW,
    PYRAMID_SIZE,
    RECYCLE,
    Draw,
    PyramidPosition,
    Recycle,
    Remove,
    location_text,
    row_indices,
)
from app.engine.pyramid import ROWS as PYRAMID_ROW_COUNT
from app.engine.taps import STOCK_PLACE, gaps_tap, places, pos_text, pyramid_tap
from app.engine.taps import stuck as gaps_stuck

# ---------------------------------------------------------------- what the board shows

DRAW_SHOWN = "S>W"  # what a draw shows at once: the stock's top card goes onto the waste


class Slot(NamedTuple):
    """One place of a Pyramid-family board. The answers to a tap (``partners``, ``alone``, ``strangers``) are
    those of ``pyramid_tap``."""

    loc: str
    card: Card | None
    playable: bool = False
    selected: bool = False
    partner: bool = False
    covered: bool = False  # both cards below it still lie on it: only its top strip shows
    under: bool = False    # a card below it still lies on it (one or both): no Tab stop
    partners: tuple[str, ...] = ()  # selected, a tap on one of these removes the pair
    alone: bool = False             # a tap removes it by itself (a king)
    # selected, a tap on one of these (a free card it does not pair with) selects that one, and
    # says why the two make no pair: (place, card) of each
    strangers: tuple[tuple[str, Card], ...] = ()
    draws: bool = False  # the stock's top card, which can't be played: a tap draws (``pyramid_tap``)

    @property
    def answers(self) -> dict[str, str]:
        """What a tap here does, as the page's script reads it (templates/_cards.html): the places
        it pairs with, the move a tap alone plays, or the refusal's message key."""
        if self.draws:
            return {"data-move": DRAW_SHOWN}
        if not self.playable:  # as ``pyramid_tap`` says it
            return {"data-refusal": "covered" if self.under else "no_partner"}
        said = {"data-partners": " ".join(self.partners)} if self.partners else {}
        return said | {"data-move": self.loc} if self.alone else said


@dataclass(frozen=True)
class PyramidBoard:
    pyramids: tuple[tuple[tuple[Slot, ...], ...], ...]  # pyramid → row → slots (None card = removed)
    stock: Slot | None
    waste: Slot | None
    reserves: tuple[tuple[tuple[Card, ...], Slot | None], ...]  # Giza: lower cards, then the top
    stock_count: int
    waste_count: int
    can_draw: bool
    can_recycle: bool
    passes_left: int | None
    pass_number: int
    cards_left: int
    selected: str | None
    family: str = "pyramid"
    has_stock: bool = True  # a stock to draw from, or reserve piles instead (the table says which)
    gone: tuple[Card, ...] = ()  # the pyramids' removed cards: the pile a won game's cascade throws
    # the answers of the board after each move, by what the page shows of the move (``ahead``)
    ahead: dict[str, dict[str, Any]] = field(default_factory=dict)
    draw_move: str = DRAW_SHOWN
    recycle_move: str = "W"  # a turnover: the waste's top card leaves it
    taps_pair: bool = True  # two card taps make one move (a pair): how the page counts taps it holds

    @property
    def cleared(self) -> bool:
        """No card left in any pyramid (``cards_left`` also counts the stock where all must go)."""
        return all(s.card is None for pyramid in self.pyramids for row in pyramid for s in row)

    @property
    def single_pass(self) -> bool:
        """One pass through the stock and no turnover: no pass to count."""
        return self.pass_number == 1 and self.passes_left == 0

    @property
    def d_key(self) -> str | None:
        """The button the d key presses (static/js/app.js): Draw (or Turn over), where there is a stock."""
        return "draw" if self.has_stock else None

    @property
    def stock_used_up(self) -> bool:
        """Nothing left to draw and no turnover: the stock's place says so, not a grey Draw."""
        return not (self.can_draw or self.can_recycle or self.stock_count)

    @property
    def counts_passes(self) -> bool:
        """Passes through a stock to count: a stock, and more than one pass."""
        return self.has_stock and not self.single_pass

    @property
    def layout(self) -> str:
        """The table's shape, for the style sheets (static/css): its pyramids, and a stock or
        reserve piles beside them."""
        return f"pyramids-{len(self.pyramids)} " + ("with-stock" if self.has_stock else "with-reserves")


# (layout index, location) of each row of a first ("P") and second ("Q") pyramid
_PYRAMID_ROWS = tuple(
    tuple(tuple((base + i, location_text(base + i)) for i in row_indices(r)) for r in range(PYRAMID_ROW_COUNT))
    for base in (0, PYRAMID_SIZE)
)


# ---------------------------------------------------------------- one move ahead
# A board also carries the answers of the board after each of its moves (one move ahead): the
# page shows a move before the server's board comes, and taps on at once with these. By move,
# as the page names what it shows: "P22 P25" (those cards leave), "S>W" (a draw), "W" (a turn
# over), "1.11>0.1" (a Gaps card into a gap). By place: [partners, the move a tap alone plays
# as the page names it ("" if none), a note key ("" if none)]; a place left out is refused,
# "covered" lists the pyramid's cards a card below still lies on (their refusal says so, as
# ``pyramid_tap``'s), "unplayable" the refusal of a card left out that is not covered
# ("no_partner": a free pyramid card no free card makes 13 with; a Gaps card "not_playable", the
# page's default), "stuck" that a Gaps round can only be redealt (every place left out says so:
# ``gaps_tap``), "dead" and "placed" the Gaps places drawn as a dead gap and as a card in place,
# and "counts" the board's figures after the move (``_pyramid_counts``). A card the page cannot
# show yet (the next stock or waste card) is left out, and so is any answer naming it.


def _pyramid_answers(position) -> tuple[dict[str, set[str]], set[str]]:
    """The places each free card pairs with, and the cards that go alone."""
    pairs: dict[str, set[str]] = {}
    alone = set()
    for m in position.legal_moves():
        locs = places(m)
        if len(locs) == 1:
            alone.add(locs[0])
        for loc in locs if len(locs) > 1 else ():
            pairs.setdefault(loc, set()).update(other for other in locs if other != loc)
    return pairs, alone


def _pyramid_shown(move: Move) -> str:
    if isinstance(move, Draw):
        return PyramidBoard.draw_move
    if isinstance(move, Recycle):
        return PyramidBoard.recycle_move
    return " ".join(sorted(places(move)))


def _pyramid_counts(position) -> dict[str, str]:
    """The board's figures as it prints them, by their ``data-count`` / ``data-stat`` name: the
    page shows a move's piles and figures before its board comes, as that board will print them."""
    passes = position.passes_left
    return {"stock": str(len(position.stock)), "waste": str(len(position.waste)),
            "cards-left": str(position.cards_left), "pass": str(position.pass_number),
            "passes-left": "∞" if passes is None else str(passes)}


def _tap_draws(position) -> bool:
    """A tap on the stock's card draws (``pyramid_tap``: the rule is the engine's, asked here)."""
    return isinstance(pyramid_tap(position, None, STOCK_PLACE).move, Draw)


def _pyramid_ahead(position, legal) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    # the piles whose next card the page cannot show: the stock's and the waste's lie face down
    # or under; a Giza reserve's cards all lie face up, the one under its top in sight
    piles = ("S", "W") if position.table.has_stock else ()
    for move in legal:
        after = position.apply(move)
        shown = {"W": position.card_at("S"), "S": None} if isinstance(move, Draw) else \
            {"W": None} if isinstance(move, Recycle) else dict.fromkeys(places(move))
        unseen = {loc for loc in piles if after.card_at(loc) is not None
                  and after.card_at(loc) != shown.get(loc, position.card_at(loc))}
        pairs, alone = _pyramid_answers(after)
        answers: dict[str, Any] = {
            loc: [sorted(pairs.get(loc, set()) - unseen), loc if loc in alone else "", ""]
            for loc in (pairs.keys() | alone) - unseen
        }
        if STOCK_PLACE in piles and STOCK_PLACE not in answers and STOCK_PLACE not in unseen \
                and after.card_at(STOCK_PLACE) is not None and _tap_draws(after):
            answers[STOCK_PLACE] = [[], DRAW_SHOWN, ""]  # the stock's card, unplayable: a tap draws
        # a draw shows the stock's top card going onto the waste: not one the page cannot show
        # yet (a draw pressed again before the first one's board is a blind one: kept until that
        # board comes, or offline not done)
        answers.update({action: [[], shown_text, ""] for action, shown_text, kind in
                        (("draw", PyramidBoard.draw_move, Draw), ("recycle", PyramidBoard.recycle_move, Recycle))
                        if any(isinstance(m, kind) for m in after.legal_moves())
                        and not (kind is Draw and STOCK_PLACE in unseen)})
        answers["covered"] = [location_text(i) for i in range(after.table.size)
                              if not after.is_removed(i) and not after.is_available(i)]
        answers["unplayable"] = "no_partner"
        answers["counts"] = _pyramid_counts(after)
        out[_pyramid_shown(move)] = answers
    return out


def pyramid_board(position, selected: str | None) -> PyramidBoard:
    legal = position.legal_moves()
    pairs, alone = _pyramid_answers(position)
    playable = pairs.keys() | alone
    if selected not in playable:
        selected = None
    partners = pairs.get(selected, set()) if selected else set()

    can_draw = position.is_legal(DRAW)
    stock_draws = position.table.has_stock and position.card_at(STOCK_PLACE) is not None and _tap_draws(position)

    def slot(loc: str, card: Card | None, covered: bool = False, under: bool = False) -> Slot:
        if loc not in playable:
            return Slot(loc, card, covered=covered, under=under, draws=loc == STOCK_PLACE and stock_draws)
        mine = pairs.get(loc, set())
        strangers = () if loc in alone else tuple(
            (other, position.card_at(other)) for other in sorted(pairs) if other != loc and other not in mine)
        return Slot(loc, card, True, loc == selected, loc in partners, covered=covered, partners=tuple(sorted(mine)),
                    alone=loc in alone, strangers=strangers)

    def in_pyramid(rows, r: int, c: int) -> Slot:
        """The place at row ``r``, column ``c``: which of the two cards below still lie on it."""
        i, loc = rows[r][c]
        below = rows[r + 1] if r + 1 < len(rows) else ()
        on = [position.card_at(j) is not None for j, _ in below[c:c + 2]]
        return slot(loc, position.card_at(i), covered=bool(on) and all(on), under=any(on))

    layout = position.layout
    pyramids = tuple(
        tuple(tuple(in_pyramid(rows, r, c) for c in range(len(row))) for r, row in enumerate(rows))
        for rows in _PYRAMID_ROWS[:position.table.pyramids]
    )
    reserves = tuple(
        (tuple(pile[:-1]), slot(f"G{k}", pile[-1]) if pile else None)
        for k, pile in enumerate(position.reserves)
    )
    return PyramidBoard(
        pyramids=pyramids,
        stock=slot("S", position.stock[0]) if position.stock else None,
        waste=slot("W", position.waste[0]) if position.waste else None,
        reserves=reserves,
        has_stock=position.table.has_stock,
        stock_count=len(position.stock),
        waste_count=len(position.waste),
        can_draw=can_draw,
        can_recycle=position.is_legal(RECYCLE),
        passes_left=position.passes_left,
        pass_number=position.pass_number,
        cards_left=position.cards_left,
        selected=selected,
        gone=tuple(card for i, card in enumerate(layout) if position.card_at(i) is None),
        ahead=_pyramid_ahead(position, legal),
    )


class Cell(NamedTuple):
    """One cell of a Gaps board. The answers to a tap (``partners``,
    ``move``, ``note``) are those of ``gaps_tap``."""

    pos: str
    row: int
    col: int
    card: Card | None
    playable: bool = False
    selected: bool = False
    partner: bool = False
    dead: bool = False
    in_place: bool = False
    after: Card | None = None  # the card left of a gap, for its accessible name
    partners: tuple[str, ...] = ()  # selected, a tap on one of these (gaps, or cards) fills
    move: str | None = None  # a tap alone fills: the place at the other end of the move
    # a tap alone says a word (message key): selects a card in place, or refuses (``gaps_tap``)
    note: str | None = None

    @property
    def answers(self) -> dict[str, str]:
        """As ``Slot.answers``; a move names the card's place, then the gap's ("1.11>0.1")."""
        if not self.playable:
            return {"data-refusal": self.note or ""}
        said = {"data-partners": " ".join(self.partners)} if self.partners else {}
        if self.move:
            said["data-move"] = fill_shown(self.pos, self.move) if self.card else fill_shown(self.move, self.pos)
        return said | {"data-note": self.note} if self.note else said


@dataclass(frozen=True)
class GapsBoard:
    rows: tuple[tuple[Cell, ...], ...]
    starters: tuple[str, ...]
    round: int
    rounds_left: int | None
    can_redeal: bool
    in_place: int
    places: int         # cards a won game has in place
    selected: str | None
    stuck: bool = False  # no card can move and a redeal is left: the page says so at its button
    family: str = "gaps"
    has_stock: bool = False  # every card is dealt to the grid
    layout: str = "grid"     # the table's shape, for the style sheets (as PyramidBoard's)
    taps_pair: bool = False  # a tap is most often a move of its own: a card into its one gap (as PyramidBoard's)
    ahead: dict[str, dict[str, Any]] = field(default_factory=dict)  # as PyramidBoard's
    d_key: str | None = "redeal"  # the button the d key presses (as PyramidBoard's)


GAPS_PLACES = ROWS * (COLUMNS - 1)  # the cards a won Gaps game has in place (each row's gap last)


def fill_shown(card_pos: str, gap_pos: str) -> str:
    """A Gaps card going into a gap, as the page names the move it shows: "1.11>0.1"."""
    return f"{card_pos}>{gap_pos}"


def _gaps_ends(position, fills) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """The places at the other end of each card's fills (gaps), and of each gap's (cards)."""
    gaps_of: dict[str, list[str]] = {}
    cards_of: dict[str, list[str]] = {}
    for f in fills:
        card_pos = _card_pos(position, f)
        gaps_of.setdefault(card_pos, []).append(pos_text(f))
        cards_of.setdefault(pos_text(f), []).append(card_pos)
    return gaps_of, cards_of


def _card_pos(position, fill: Fill) -> str:
    at = position.grid.index(fill.card)
    return f"{at // COLUMNS}.{at % COLUMNS}"


def _tap_alone(position, pos: str) -> tuple[str | None, str | None]:
    """What one tap on ``pos`` does with nothing selected, as ``gaps_tap`` rules (asked, not
    repeated here): the place at the other end of the move it makes, or the word it says."""
    tap = gaps_tap(position, None, pos)
    if not isinstance(tap.move, Fill):  # a tap on a place moves a card, or makes no move
        return None, tap.note
    card_pos = _card_pos(position, tap.move)
    return (pos_text(tap.move) if card_pos == pos else card_pos), None


def _gaps_ahead(position, fills) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for move in fills:
        after = position.apply(move)
        later = [m for m in after.legal_moves() if isinstance(m, Fill)]
        gaps_of, cards_of = _gaps_ends(after, later)
        prefixes = after.correct_prefix_lengths()
        answers: dict[str, Any] = {}
        for pos, to in gaps_of.items():
            other, note = _tap_alone(after, pos)
            answers[pos] = [to, fill_shown(pos, other) if other else "", note or ""]
        for pos, fits in cards_of.items():
            other, note = _tap_alone(after, pos)
            answers[pos] = [fits, fill_shown(other, pos) if other else "", note or ""]
        if gaps_stuck(after):  # every card and gap left out says to redeal
            answers["stuck"] = True
        answers["counts"] = {"in-place": _in_place_text(prefixes)}
        # how the next board draws its places: the gaps that are dead, the cards in place
        answers["dead"] = [f"{r}.{c}" for r, c in after.gap_positions()
                           if after.status is not Status.WON and after.is_dead_gap(r, c)]
        answers["placed"] = [f"{r}.{c}" for r in range(ROWS) for c in range(prefixes[r])]
        out[fill_shown(_card_pos(position, move), pos_text(move))] = answers
    return out


def _in_place_text(prefixes) -> str:
    """The "in place" figure as the board prints it: cards in place of those a won game has."""
    return f"{sum(prefixes)}/{GAPS_PLACES}"


def gaps_board(position, selected: str | None) -> GapsBoard:
    legal = position.legal_moves()
    fills = [m for m in legal if isinstance(m, Fill)]
    playable_cards = {f.card.code for f in fills}
    playable_gaps = {pos_text(f) for f in fills}
    if selected not in playable_cards | playable_gaps:
        selected = None
    partners: set[str] = set()
    for f in fills:
        if selected == f.card.code:
            partners.add(pos_text(f))
        elif selected == pos_text(f):
            partners.add(f.card.code)
    prefixes = position.correct_prefix_lengths()
    gaps_of, cards_of = _gaps_ends(position, fills)
    stuck = gaps_stuck(position)  # as ``gaps_tap`` says it
    rows = []
    for r in range(ROWS):
        row = []
        for c in range(COLUMNS):
            card = position.grid[r * COLUMNS + c]
            pos = f"{r}.{c}"
            move, note = _tap_alone(position, pos)
            if card is None:
                row.append(Cell(
                    pos, r, c, None, pos in playable_gaps, pos == selected, pos in partners,
                    # a won board's gaps, each after its row's king, are where the game ends
                    dead=position.status is not Status.WON and position.is_dead_gap(r, c),
                    after=position.grid[r * COLUMNS + c - 1] if c else None,
                    partners=tuple(cards_of.get(pos, ())), move=move, note=note,
                ))
            else:
                row.append(Cell(
                    pos, r, c, card, card.code in playable_cards, card.code == selected,
                    card.code in partners, in_place=c < prefixes[r], partners=tuple(gaps_of.get(pos, ())),
                    move=move, note=note,
                ))
        rows.append(tuple(row))
    can_redeal = position.is_legal(REDEAL)
    return GapsBoard(
        rows=tuple(rows),
        starters=tuple(position.starters),
        round=position.round,
        rounds_left=position.rounds_left,
        can_redeal=can_redeal,
        stuck=stuck,
        in_place=sum(prefixes),
        places=GAPS_PLACES,
        selected=selected,
        ahead=_gaps_ahead(position, fills),
    )


@singledispatch
def board_of(position: Position, selected: str | None) -> PyramidBoard | GapsBoard:
    """The board's view model of a position: each kind of position registers its builder."""
    raise TypeError(f"no board for {type(position).__name__}")


board_of.register(PyramidPosition, pyramid_board)
board_of.register(GapsPosition, gaps_board)


# ---------------------------------------------------------------- a move as the page shows it

@singledispatch
def marks(move: Move, position: Position) -> dict[str, str]:
    """Where the board shows a move played from ``position`` (a hint marks it): what the player
    taps to make it. The places of its cards (``locs``), a Gaps card and the gap it goes to
    (``cards``, ``pos``: row.column), or its button (``action``)."""
    raise TypeError(f"no marks for {type(move).__name__}")


@marks.register
def _(move: Remove, position: Position) -> dict[str, str]:
    return {"locs": " ".join(move.locations)}


@marks.register
def _(move: Fill, position: Position) -> dict[str, str]:
    # a card that fits one gap goes there at its first tap (``gaps_tap``): its gap marked too was
    # tapped next, and filled with a card no hint named
    alone = gaps_tap(position, None, _card_pos(position, move)).move == move
    return {"cards": move.card.code, "pos": "" if alone else f"{move.row}.{move.col}"}


@marks.register
def _(move: Draw, position: Position) -> dict[str, str]:
    return {"action": "draw"}


@marks.register
def _(move: Recycle, position: Position) -> dict[str, str]:
    return {"action": "recycle"}


@marks.register
def _(move: Redeal, position: Position) -> dict[str, str]:
    return {"action": "redeal"}


def motion_steps(record: GameRecord, start: int) -> str:
    """The cards the moves from ply ``start`` to the cursor took, moved or drew, each with the
    step that did it ("KH:1 7S:2 6D:2"): the page plays a group of moves (auto-finish) one after
    another from this, without knowing the rules. A card touched twice keeps its last step."""
    steps: dict[str, int] = {}
    for step, said in enumerate(said_moves(record, start), 1):
        for card in said.cards:
            steps[card.code] = step
    return " ".join(f"{code}:{step}" for code, step in steps.items())
