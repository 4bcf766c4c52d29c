"""Budgeted search for Gaps over the current round and the later ones.

A grid is a list of 52 small integers: a card is ``16 * suit + rank`` (rank 2–13, suits in
``C D H S`` order), a gap is 0, so the card that may fill a gap is always ``left + 1``
(unless the left neighbour is a king or a gap). The search is depth-first over
(grid, round) with a transposition table, so a position is expanded once and a
``False`` (every move of every reachable position tried) is a proof. Within a round it
tries first the fills that extend a row's correct run from column 0, then the others, and
the redeal ``N`` last. The redeal itself is the engine's (``GapsPosition.redealt``): it
depends on the deal and the round, and the solver never re-implements it.
"""

from __future__ import annotations

from dataclasses import replace

from .result import Budget, BudgetExceeded, SolveResult

ROWS, COLUMNS = 4, 13
SUITS = "CDHS"
RANKS = "A23456789TJQK"


def _code(card) -> int:
    return 0 if card is None else 16 * SUITS.index(card.suit) + card.rank


def _text(code: int) -> str:
    return RANKS[(code & 15) - 1] + SUITS[code >> 4]


class GapsSearch:
    def __init__(self, position, budget: Budget | None = None) -> None:
        self.position = position
        self.budget = budget
        self.nodes = 0
        rules = position.rules
        self.rounds = rules.rounds
        self.starters = tuple(SUITS.index(s) for s in (position.starters or ()))

    # --- rules on packed grids ----------------------------------------------------------
    def prefix_lengths(self, grid: list[int]) -> list[int]:
        out = []
        for r in range(ROWS):
            base = r * COLUMNS
            first = grid[base]
            if self.starters:
                want = 16 * self.starters[r] + 2
                if first != want:
                    out.append(0)
                    continue
            elif not first or first & 15 != 2:
                out.append(0)
                continue
            n = 1
            while n < COLUMNS - 1 and grid[base + n] == first + n:
                n += 1
            out.append(n)
        return out

    def is_won(self, grid: list[int]) -> bool:
        # A won grid has its four gaps in column 12; almost no node does, so that cheap
        # test spares the prefix scan at nearly every node.
        if grid[12] or grid[25] or grid[38] or grid[51]:
            return False
        return self.prefix_lengths(grid) == [COLUMNS - 1] * ROWS

    def fills(self, grid: list[int], where: list[int],
              gaps: list[int] | None = None) -> list[tuple[int, int, int]]:
        """Legal fills as (card, from cell, to cell), progress first (a fill that extends a
        row's correct run from column 0), each group in cell order. ``gaps``: the gap cells
        when the caller tracks them (there are only four), else they are looked up."""
        good: list[tuple[int, int, int]] = []
        other: list[tuple[int, int, int]] = []
        if gaps is None:
            gaps = [g for g in range(52) if not grid[g]]
        for g in sorted(gaps):
            c = g % COLUMNS
            if c == 0:
                suits = (self.starters[g // COLUMNS],) if self.starters else range(4)
                for s in suits:
                    card = 16 * s + 2
                    frm = where[card]
                    move = (card, frm, g)
                    (good if grid[g + 1] == card + 1 else other).append(move)
                continue
            left = grid[g - 1]
            if not left or left & 15 == 13:
                continue
            card = left + 1
            move = (card, where[card], g)
            # The fill extends the row's run iff columns 0..c-1 hold that run: the card at
            # c-1 then has rank c+1, a cheap test that rules out nearly every other fill.
            if left & 15 == c + 1 and self._run_reaches(grid, g - c, c):
                good.append(move)
            else:
                other.append(move)
        return good + other

    def _run_reaches(self, grid: list[int], base: int, c: int) -> bool:
        """Whether columns 0..c-1 of the row starting at ``base`` are its correct run
        (``prefix_lengths`` of that row is at least ``c``)."""
        first = grid[base]
        if self.starters:
            if first != 16 * self.starters[base // COLUMNS] + 2:
                return False
        elif not first or first & 15 != 2:
            return False
        for k in range(1, c):
            if grid[base + k] != first + k:
                return False
        return True

    def redeal(self, grid: list[int], round_number: int) -> list[int]:
        from app.engine import card as make_card

        cards = tuple(None if x == 0 else make_card(x & 15, SUITS[x >> 4]) for x in grid)
        after = replace(self.position, grid=cards, round=round_number).redealt()
        return [_code(c) for c in after.grid]

    def can_redeal(self, round_number: int) -> bool:
        return self.rounds is None or round_number < self.rounds

    # --- search -------------------------------------------------------------------------
    def run(self) -> tuple[bool, list[str]]:
        grid = [_code(c) for c in self.position.grid]
        round_number = self.position.round
        where = [0] * 64
        for i, x in enumerate(grid):
            if x:
                where[x] = i
        if self.is_won(grid):
            return True, []
        gaps = [g for g in range(52) if not grid[g]]
        visited = {bytes(grid) + round_number.to_bytes(4, "little")}
        budget = self.budget
        path: list[str] = []
        # Each frame: [moves, next index, undo record of the move that led here].
        frames: list[list] = [[self._moves(grid, where, round_number, gaps), 0, None]]
        while frames:
            frame = frames[-1]
            moves, i = frame[0], frame[1]
            if i == len(moves):
                frames.pop()
                undo = frame[2]
                if undo is not None:
                    path.pop()
                    grid, where, round_number = self._undo(grid, where, round_number, undo)
                    gaps = self._gaps_after_undo(grid, gaps, undo)
                continue
            frame[1] = i + 1
            move = moves[i]
            grid, where, round_number, undo = self._apply(grid, where, round_number, move)
            key = bytes(grid) + round_number.to_bytes(4, "little")
            if key in visited:
                grid, where, round_number = self._undo(grid, where, round_number, undo)
                continue
            gaps = self._gaps_after_move(grid, gaps, move)
            visited.add(key)
            self.nodes += 1
            if budget is not None and self.nodes % Budget.CHECK_EVERY == 0:
                budget.check(self.nodes)
            path.append(self._move_text(move))
            if self.is_won(grid):
                return True, path
            frames.append([self._moves(grid, where, round_number, gaps), 0, undo])
        return False, []

    @staticmethod
    def _gaps_after_move(grid, gaps, move) -> list[int]:
        if move is None:  # a redeal: look the gaps up again
            return [g for g in range(52) if not grid[g]]
        _, frm, to = move
        return [frm if g == to else g for g in gaps]

    @staticmethod
    def _gaps_after_undo(grid, gaps, undo) -> list[int]:
        if len(undo) == 3 and isinstance(undo[0], list):
            return [g for g in range(52) if not grid[g]]
        _, frm, to = undo
        return [to if g == frm else g for g in gaps]

    def _moves(self, grid, where, round_number, gaps=None) -> list:
        moves: list = self.fills(grid, where, gaps)
        if self.can_redeal(round_number):
            moves.append(None)  # N
        return moves

    def _apply(self, grid, where, round_number, move):
        if move is None:
            new = self.redeal(grid, round_number)
            new_where = [0] * 64
            for i, x in enumerate(new):
                if x:
                    new_where[x] = i
            return new, new_where, round_number + 1, (grid, where, round_number)
        card, frm, to = move
        grid[to] = card
        grid[frm] = 0
        where[card] = to
        return grid, where, round_number, move

    @staticmethod
    def _undo(grid, where, round_number, undo):
        if len(undo) == 3 and isinstance(undo[0], list):  # a redeal: restore the old grid
            return undo
        card, frm, to = undo
        grid[frm] = card
        grid[to] = 0
        where[card] = frm
        return grid, where, round_number

    @staticmethod
    def _move_text(move) -> str:
        if move is None:
            return "N"
        card, _, to = move
        return f"{_text(card)}>{to // COLUMNS}.{to % COLUMNS}"


def solve_gaps(position, budget: Budget | None = None) -> SolveResult:
    search = GapsSearch(position, budget)
    try:
        won, moves = search.run()
    except BudgetExceeded:
        return SolveResult(None, (), "budget", search.nodes)
    return SolveResult(won, tuple(moves) if won else (), None, search.nodes)
