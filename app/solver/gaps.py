"""Budgeted search for Gaps over the current round and the later ones.

A grid is a list of small integers: a card is ``16 * suit + rank`` (rank 2–13, suits in
``C D H S`` order), a gap is 0, so the card that may fill a gap is always ``left + 1``
(unless the left neighbour is a king or a gap). ``GapsCore`` works on any board of
``rows`` rows and ``cols`` columns (ranks 2..cols, rank ``cols`` plays the king), so the
tests can compare it with a plain breadth-first search on reduced boards.

Search. Depth-first over (grid, round) with the grid updated in place and undone, and a
visited set keyed by an exact integer (6 bits a cell, plus the round): no hashing of a
52-tuple per node and no collisions, so a position is expanded at most once per run and
a run that ends having tried every move of every reached position is a proof. Fills
that extend a row's correct run come first; the redeal ``N`` last. The redeal itself is
the engine's (``GapsPosition.redealt``): the solver never re-implements it.

Lost positions are remembered across runs. Each run tracks Tarjan's strongly connected
components (the graph has cycles: a 2 can go back and forth between column-0 gaps).
When a component is complete, every move out of every position in it has been tried and
leads into the component or to a position already known lost, and none of them is won,
so all of them are lost: they go into ``dead``, which later runs (restarts) skip. A run
cut short adds only components it completed. (Removing a position from the graph only
when it is proven lost keeps every win reachable.)

Column 0 (``GapsCore.column0_moves``; the last round, international rules). A 2 in column 0
may jump to any other gap of column 0 at any time, and back: so all the positions that
differ only in how the 2s of column 0 are arranged over the column-0 cells that hold a 2 or
a gap, when one of those is a gap, can reach one another, and win or lose together. The
search treats each such class as one position: its key is the key of the arrangement with
those contents in sorted order (``column0_key``), and its moves are the moves of all its
members except the jumps within column 0 themselves, each up to the class it leads to:

- a fill that neither goes to column 0 nor lands next to a member's cell of column 0 is
  legal in every member alike and leads to one class (column 0 keeps a gap);
- a 3 next to its 2 in a member row: the 2 is brought there first (a 2 in its way moved to
  another gap), then the 3; every arrangement leads to the same class;
- a 2 from elsewhere into a gap of column 0: into any gap, while another gap is left (one
  class); into the last gap, once for every arrangement of the 2s and this one over the
  member cells (a position of its own each, reached by the fewest jumps).

A fill into column 0 or next to a member's cell is one of these in every member, so the
class moves reach exactly the classes that the members' moves reach, and the graph of
classes wins and loses as the graph of positions does: a complete component of classes is
lost (the argument above), and a win is the line of real fills the search played (a class
move is played fill by fill). Before the last round the arrangement matters to the redeal,
and under the Danish rule a 2 never moves within column 0, so neither uses classes. The
first run of ``solve`` keeps plain positions too: its fixed order is the one that finds the
quick wins, and a class move would change it; the runs after it share its ``dead`` set (a
plain position proven lost makes its class lost).

Restarts (``GapsCore.solve``). Most one-round deals are won, and a depth-first search
that goes wrong early spends its whole budget under that first move. So the search is
run again and again: first in the fixed order for ``FIRST_RUN_NODES`` positions, then on
the Luby schedule of node allowances (``RESTART_NODES`` × 1, 1, 2, 1, 1, 2, 4, …), every
such run with the fills of each group shuffled by ``random.Random(run)`` (deterministic). A run
cut by its allowance proves nothing and is dropped, with its visited set. Soundness: a win is the move list of
one run, which the caller replays; ``False`` comes only from a run that finished within
its allowance, i.e. a complete search (the order of the moves never matters for that).
The allowances grow without bound, so the schedule is complete as well. The budget
(``Budget``) counts every node of every run; when it runs out the answer is ``None``.
In the last round, half the restarts begin at a checkpoint instead: a position on the
line to the most advanced dead end found so far (most cards in correct runs); see
``solve``. Most wins are found by short runs that are nearly one straight descent, so a
restart from a good line's middle is a cheaper descent.
A position the relaxation (below) condemns also goes into ``dead``.

The last round, compiled (``GapsSearch._last_round``). When no redeal is left and the compiled
core is built, ``solve_gaps`` runs the compiled beams and exhaustive search of
``app.solver.gaps_exhaustive`` instead of this one: they find its quick wins far faster, and
prove the lost rounds this search cannot finish.

Beam (``GapsCore.beam``; last round only). Between the restarts, ``solve`` runs a beam
search from the root: level by level it keeps the ``width`` best new positions by cards
in correct runs, (X − 1, X) adjacencies and dead gaps, with widths ``BEAM_WIDTH``, twice
that, …, and ``BEAM_SHARE`` nodes of beam for each node of restarts. It drops positions,
so it proves nothing: only its wins count, and a win is a line of legal fills that the
caller replays like any other. The restarts keep every ``False`` they gave before (the
beam never touches ``dead``). The beam wins deals the restarts leave undecided; its share
stays below the restarts' because they win other deals, and wider beams, more evaluation
terms or the relaxation on its positions won no more for their cost (docs/performance.md,
"Gaps solver"). A child is scored from its parent's counts (adjacencies, dead gaps and runs
change only at the cells a fill touches), a child with every gap dead (no fill left) is
dropped rather than given a place, and only the kept children are built (grid, gaps, key);
``BEAM_POSITIONS_PER_NODE`` makes a beam node cost about as much time as a search node.

Home beam (``GapsCore.home_beam``; the par's, ``app.solver.gaps_shortest``). A beam that ranks
positions by the par's bound (``bound``: the cards outside their cell of the won grid, for the
best way to give the suits the rows), ties broken by fewer dead gaps and more (X − 1, X)
neighbours; a level is one move, so its first win is its shortest line. As a third turn of
``solve`` it decided no deal the search did not decide without it, so ``solve`` does not use it
(docs/performance.md, "Gaps solver").

Reach (``GapsCore.analyse``; only when no redeal is left, so that winning means
winning within this round). It computes, for every card X, a set reach(X) of cells and a
set G of cells, the least solution of

    G        ⊇ the current gaps ∪ {cell of X : reach(X) has a cell besides it}
    reach(X) ∋ the cell of X
    reach(2) ⊇ the column-0 cells in G that this 2 may fill (its row's, under starters)
    reach(X) ⊇ {q + 1 : q in reach(X − 1), q not in the last column, q + 1 in G}

Invariant, by induction over any sequence of fills from here: every card stays in
reach(X) and every gap is in G. A fill moves X into a gap h (in G by induction) that is
in column 0 (X is a 2 allowed there) or right of X − 1, which is at some q in
reach(X − 1); either way h is in reach(X). The cell X leaves is in reach(X), and X now
has two cells there, so that cell is in G. Hence: if some last-column cell is not in G,
its card can never leave, and the won grid has a gap there; if no assignment of suits to
rows (a matching; under starters, each row's own suit) gives every card X of suit s in
row r the cell (r, rank − 2) in reach(X), no won grid is reachable. Either way the
position is lost within this round, and it is not expanded. A lost position that the
relaxation does not see is simply searched, so this only removes positions from which
no win exists; every reduced-board deal in the tests agrees with breadth-first search.
The sets are bitmasks, one 64-bit lane per suit in a single integer, so all four
suits advance by rank in one operation; the matching verdicts are cached by mask.

Where it runs. One ``analyse`` costs about as much as ten bare search nodes, and the
positions it condemns deep in a restart are few, so it runs at the start of every run
(the root or a checkpoint, which catches the deals lost from the deal) and at every 2nd
depth of the first run only (``PRUNE_EVERY``, ``FIRST_RUN_PRUNE_EVERY``): there it steers
the fixed-order descent away from hopeless lines and finds some quick wins early; deeper in
the restarts it would cost more time a node than the positions it condemns save. The figures
behind this and the other settings of ``solve``, and the settings tried and dropped, are in
docs/performance.md, "Gaps solver".
"""

from __future__ import annotations

import itertools
import random
from array import array
from collections.abc import Sequence
from dataclasses import replace

from app.engine import card as make_card

from . import gaps_exhaustive
from .result import Budget, BudgetExceeded, SolveResult

ROWS, COLUMNS = 4, 13
SUITS = "CDHS"
RANKS = "A23456789TJQK"


def card_code(card) -> int:
    """An engine card as the search's small integer (``16 * suit + rank``), a gap as 0."""
    return 0 if card is None else 16 * SUITS.index(card.suit) + card.rank


def code_card(code: int):
    """The engine card of a code (``None`` for 0, a gap)."""
    return None if code == 0 else make_card(code & 15, SUITS[code >> 4])


def fill_text(code: int, cell: int) -> str:
    """A fill of the full board in the notation: ``7H>2.5``."""
    return f"{RANKS[(code & 15) - 1]}{SUITS[code >> 4]}>{cell // COLUMNS}.{cell % COLUMNS}"


class GapsCore:
    """The search on packed grids of any size: ``rows`` rows of ``cols`` cells, suits
    ``0..rows-1`` of ranks ``2..cols`` (rank ``cols`` plays the king), a card is
    ``16 * suit + rank`` and a gap is 0. The full game is ``GapsCore(4, 13)``; reduced
    boards exist for the exhaustive cross-checks in the tests."""

    # Where ``analyse`` runs (module docstring, "Where it runs"): n > 0 at every n-th depth,
    # 0 only at the start of each run (the root or a checkpoint); the first run has its own.
    PRUNE_EVERY = 0
    FIRST_RUN_PRUNE_EVERY = 2

    def __init__(self, rows: int = ROWS, cols: int = COLUMNS, starters: tuple[int, ...] = (),
                 budget: Budget | None = None, prune: bool = True) -> None:
        self.rows, self.cols = rows, cols
        self.top = cols
        self.n = rows * cols
        self.starters = tuple(starters)
        self.budget = budget
        self.prune = prune
        self.rng: random.Random | None = None
        self.prefix: list = []  # the line from the position solved to a run's start
        self.best_line: list = []  # the line to the most advanced dead end so far
        self.best_progress = -1
        self.track = False
        self.stride = self.PRUNE_EVERY
        self.limit: int | None = None  # a node count at which ``search`` gives up (raises _Cut)
        self.classes = True  # column 0 as one arrangement in the last round (module docstring)
        self.routes: dict[tuple, list] = {}  # column 0's arrangements, for ``_last_gap_lines``
        self.first_run = False  # the first run of ``solve`` keeps plain positions
        self.dead: set[int] = set()  # positions proven lost, kept from run to run
        self.alive: set[int] = set()  # last-round positions the relaxation let through
        self.nodes = 0
        n, c = self.n, cols
        self.col = [i % c for i in range(n)]
        self.power = [1 << (6 * i) for i in range(n)]
        self.last_mask = sum(1 << (r * c + c - 1) for r in range(rows))
        self.not_last = ((1 << n) - 1) & ~self.last_mask
        self.col0_mask = sum(1 << (r * c) for r in range(rows))
        # the column-0 cells each 2 may fill
        if self.starters:
            self.two_targets = {16 * s + 2: sum(1 << (r * c) for r in range(rows)
                                                if self.starters[r] == s)
                                for s in range(rows)}
        else:
            self.two_targets = {16 * s + 2: self.col0_mask for s in range(rows)}
        self.twos = [16 * s + 2 for s in range(rows)]
        self._lanes()
        self._assignments = self.assignments()
        # random 64-bit terms for the beam's keys (fixed seed: the same on every machine)
        terms = random.Random(0)  # nosec B311 - hashing, not security
        self.zobrist = [[terms.getrandbits(64) for _ in range(n)] for _ in range(64)]

    # --- rules -------------------------------------------------------------------------
    def run_length(self, grid: Sequence[int], r: int) -> int:
        base, c = r * self.cols, self.cols
        first = grid[base]
        if self.starters:
            if first != 16 * self.starters[r] + 2:
                return 0
        elif not first or first & 15 != 2:
            return 0
        k = 1
        while k < c - 1 and grid[base + k] == first + k:
            k += 1
        return k

    def is_won(self, grid: list[int]) -> bool:
        c = self.cols
        return all(not (grid[r * c + c - 1] or self.run_length(grid, r) != c - 1) for r in range(self.rows))

    def _run_reaches(self, grid: list[int], base: int, k: int) -> bool:
        first = grid[base]
        if self.starters:
            if first != 16 * self.starters[base // self.cols] + 2:
                return False
        elif not first or first & 15 != 2:
            return False
        return all(grid[base + j] == first + j for j in range(1, k))

    def fills(self, grid: list[int], where: list[int], gaps: list[int]) -> list[tuple]:
        """Legal fills as (card, from, to): those that extend a row's correct run first,
        then those that leave a live gap behind, then those that leave a dead one (the
        card came from the right of a king or of a gap)."""
        return self._ordered(*self._fill_groups(grid, where, gaps))

    def _ordered(self, good: list, other: list, bad: list) -> list:
        rng = self.rng
        if rng is not None:
            rng.shuffle(good)
            rng.shuffle(other)
            rng.shuffle(bad)
        return good + other + bad

    def _fill_groups(self, grid: list[int], where: list[int], gaps: list[int]) -> tuple:
        """``fills`` in their three groups, each in cell order."""
        col, top, c = self.col, self.top, self.cols
        good: list = []
        other: list = []
        bad: list = []
        first = self.rng is None  # the first run keeps every other fill in cell order
        for g in sorted(gaps):
            k = col[g]
            if k == 0:
                row = g // c
                for two in self.twos:
                    if self.starters and self.starters[row] != two >> 4:
                        continue
                    frm = where[two]
                    if grid[g + 1] == two + 1:
                        good.append((two, frm, g))
                    elif col[frm] and (not grid[frm - 1] or grid[frm - 1] & 15 == top):
                        (other if first else bad).append((two, frm, g))
                    else:
                        other.append((two, frm, g))
                continue
            left = grid[g - 1]
            if not left or left & 15 == top:
                continue
            card = left + 1
            frm = where[card]
            if left & 15 == k + 1 and self._run_reaches(grid, g - k, k):
                good.append((card, frm, g))
            elif col[frm] and frm - 1 != g and (not grid[frm - 1] or grid[frm - 1] & 15 == top):
                (other if first else bad).append((card, frm, g))
            else:
                other.append((card, frm, g))
        return good, other, bad

    # --- column 0 as one arrangement (last round, any 2 in any row) -----------------------
    def column0_key(self, grid: list[int]) -> int:
        """What to add to a position's key to make it its class's (module docstring,
        "Column 0"): the column-0 cells that hold a 2 or a gap get their contents in sorted
        order, when one of them is a gap; 0 otherwise."""
        c, power = self.cols, self.power
        cells = [r * c for r in range(self.rows) if not grid[r * c] or grid[r * c] & 15 == 2]
        if len(cells) < 2:
            return 0
        held = [grid[q] for q in cells]
        if 0 not in held:
            return 0
        delta = 0
        for q, x, y in zip(cells, held, sorted(held), strict=True):
            delta += (y - x) * power[q]
        return delta

    def column0_moves(self, grid: list[int], where: list[int], gaps: list[int]) -> list:
        """The moves of a position's class (module docstring, "Column 0"): each is a fill
        (card, from, to) or a tuple of fills played as one move (2s moved within column 0
        first). ``fills`` when column 0 has no gap."""
        c, rows = self.cols, self.rows
        members = [r for r in range(rows) if not grid[r * c] or grid[r * c] & 15 == 2]
        open_rows = [r for r in members if not grid[r * c]]
        good, other, bad = self._fill_groups(grid, where, gaps)
        if not open_rows:
            return self._ordered(good, other, bad)
        # the plain fills: those that neither go to column 0 nor sit next to a member's 2
        nearby = {r * c + 1 for r in members}
        good, other, bad = ([m for m in group if m[2] % c and m[2] not in nearby]
                            for group in (good, other, bad))
        held = {grid[r * c]: r for r in members if grid[r * c]}  # the 2s in column 0
        # a fill that extends a run of some member of the class (its 2 in that row) is good
        for group in (other, bad):
            for m in list(group):
                card, _, to = m
                row, k = divmod(to, c)
                two = (card & ~15) + 2
                if row in members and two in held and \
                        all(grid[row * c + j] == two + j for j in range(1, k)):
                    group.remove(m)
                    good.append(m)
        # a 3 next to its 2: the 2 brought to that row first (a 2 there moved to a gap)
        for r in members:
            if grid[r * c + 1]:
                continue
            for two, at in held.items():
                line = []
                if at != r:
                    there = grid[r * c]
                    if there:
                        spare = next(q for q in open_rows if q != r)
                        line.append((there, r * c, spare * c))
                    line.append((two, at * c, r * c))
                line.append((two + 1, where[two + 1], r * c + 1))
                good.append(line[0] if len(line) == 1 else tuple(line))
        # a 2 from outside column 0 into a gap there
        for two in self.twos:
            frm = where[two]
            if not frm % c:
                continue
            if len(open_rows) > 1:  # a gap is left: every target is the same class
                row = next((q for q in open_rows if grid[q * c + 1] == two + 1), open_rows[0])
                (good if grid[row * c + 1] == two + 1 else other).append((two, frm, row * c))
                continue
            # the last gap: every arrangement of column 0 with this 2 is a position of its own
            for line, row in self._last_gap_lines(grid, members, two, frm):
                (good if grid[row * c + 1] == two + 1 else other).append(
                    line[0] if len(line) == 1 else tuple(line))
        return self._ordered(good, other, bad)

    def _last_gap_lines(self, grid: list[int], members: list[int], two: int, frm: int):
        """(fills, row) for every arrangement of the 2s of column 0 and ``two`` over the
        member rows: the 2s already there moved to their rows (fewest moves), ``two`` into
        the row left open."""
        c = self.cols
        start = tuple(grid[r * c] for r in members)
        routes = self.routes.get((start, tuple(members)))
        if routes is None:
            # arrangement -> 2s moved to reach it (breadth-first)
            lines: dict[tuple[int, ...], list[tuple[int, int, int]]] = {start: []}
            frontier = [start]
            while frontier:
                following = []
                for here in frontier:
                    hole = here.index(0)
                    for i, x in enumerate(here):
                        if x:
                            moved = list(here)
                            moved[hole], moved[i] = x, 0
                            there = tuple(moved)
                            if there not in lines:
                                step = (x, members[i] * c, members[hole] * c)
                                lines[there] = lines[here] + [step]
                                following.append(there)
                frontier = following
            routes = [(line, members[there.index(0)]) for there, line in lines.items()]
            self.routes[(start, tuple(members))] = routes
        return [([*line, (two, frm, row * c)], row) for line, row in routes]

    # --- the relaxation -----------------------------------------------------------------
    def _lanes(self) -> None:
        """Constants of ``analyse``: one 64-bit lane of a big integer per suit, a cell
        mask (bit ``13 * row + col``) in each lane."""
        rows, n = self.rows, self.n
        self.ones = sum(1 << (64 * s) for s in range(rows))
        self.cells = (1 << n) - 1
        self.nl4 = self.not_last * self.ones
        self.low4 = self.cells * self.ones
        self.t2 = sum(self.two_targets[16 * s + 2] << (64 * s) for s in range(rows))
        self.col04 = self.col0_mask * self.ones
        self.fit_cache: dict[int, bool] = {}

    def analyse(self, where: list[int], gaps: list[int]):
        """None when no continuation within this round can win (see the module docstring,
        "Reach"): an over-approximation of the cells each card can still reach shows that
        some row can never be completed, or a last-column card can never leave."""
        top, rows, n = self.top, self.rows, self.n
        ones, nl4, low4, cells = self.ones, self.nl4, self.low4, self.cells
        # pos[k]: the cell of the rank-k card of each suit, one lane per suit
        if rows == 4:
            pos = [0, 0] + [1 << where[k] | 1 << (where[16 + k] + 64)
                            | 1 << (where[32 + k] + 128) | 1 << (where[48 + k] + 192)
                            for k in range(2, top + 1)]
        else:
            pos = [0, 0]
            for k in range(2, top + 1):
                v = 0
                for s in range(rows):
                    v |= 1 << (where[16 * s + k] + 64 * s)
                pos.append(v)
        can_gap = 0
        for g in gaps:
            can_gap |= 1 << g
        t2 = self.t2
        shift = n
        while True:
            before = can_gap
            g4 = can_gap * ones
            p = pos[2]
            reach = p | (g4 & t2)
            levels = [reach]
            moved = p & ((((reach ^ p) + low4) >> shift) & ones) * cells
            if moved:
                can_gap |= (moved | moved >> 64 | moved >> 128 | moved >> 192) & cells
                g4 = can_gap * ones
            for k in range(3, top + 1):
                p = pos[k]
                reach = p | (((reach & nl4) << 1) & g4)
                levels.append(reach)
                moved = p & ((((reach ^ p) + low4) >> shift) & ones) * cells
                if moved:
                    can_gap |= (moved | moved >> 64 | moved >> 128 | moved >> 192) & cells
                    g4 = can_gap * ones
            if can_gap == before:
                break
        last = self.last_mask
        if can_gap & last != last:
            return None
        fit = self.col04
        for j, reach in enumerate(levels):
            fit &= reach >> j
        if not fit:
            return None
        verdict = self.fit_cache.get(fit)
        if verdict is None:
            fits = []
            c = self.cols
            for s in range(rows):
                lane = fit >> (64 * s)
                ok = 0
                for row in range(rows):
                    if lane >> (row * c) & 1 and (not self.starters or self.starters[row] == s):
                        ok |= 1 << row
                fits.append(ok)
            verdict = not all(fits) or not _matching(fits, rows)
            self.fit_cache[fit] = verdict
        if verdict:
            return None
        return levels, pos, can_gap

    # --- search -------------------------------------------------------------------------
    FIRST_RUN_NODES = 2048  # the fixed order, the best single order known, goes first
    RESTART_NODES = 128  # the unit of the restart schedule (the best of the units tried)

    def solve(self, grid: list[int], round_number: int = 1, can_redeal=None, redeal=None):
        """``search`` restarted: a first run of ``FIRST_RUN_NODES`` in the fixed order,
        then runs on the Luby schedule (``RESTART_NODES`` times 1, 1, 2, 1, 1, 2, 4, …),
        each with the fills of each group shuffled by ``random.Random(run)``. A run that
        ends within its allowance is complete whatever its order, so its ``False`` is a
        proof; a win is a win.

        Checkpoints (last round only). A run may instead start from a position on the
        line to the most advanced dead end seen so far (most cards in correct runs),
        ``CHECKPOINT`` of the time, at a random depth along it. Its win is that line's
        prefix followed by its own moves; its ``False`` proves only the checkpoint lost
        (its completed components go into ``dead`` like any run's, which is sound from
        any start), so it ends nothing: the search goes on."""
        last_round = can_redeal is None or not can_redeal(round_number)
        self.best_line, self.best_progress = [], -1
        self.track = last_round and self.CHECKPOINT > 0
        run = 0
        beam_width, beam_nodes = self.BEAM_WIDTH, 0
        stride = self.stride
        try:
            while True:
                run += 1
                if last_round and beam_width and run > 1 and \
                        beam_nodes <= (self.nodes - beam_nodes) * self.BEAM_SHARE:
                    before = self.nodes
                    line = self.beam(grid, beam_width)
                    beam_nodes += self.nodes - before
                    if line is not None:
                        return True, line
                    beam_width *= 2
                # a seeded generator only shuffles the move order (same answer on every machine)
                self.rng = rng = None if run == 1 else random.Random(run)  # nosec B311
                allowance = self.FIRST_RUN_NODES if run == 1 else \
                    self.RESTART_NODES * _luby(run - 1)
                self.stride = self.FIRST_RUN_PRUNE_EVERY if run == 1 else stride
                self.first_run = run == 1
                self.limit = self.nodes + allowance
                prefix = []
                if last_round and rng is not None and self.best_line and \
                        rng.random() < self.CHECKPOINT:
                    n = len(self.best_line)
                    prefix = self.best_line[:rng.randint(int(n * self.CHECKPOINT_FROM), n)]
                self.prefix = prefix
                start = self.play_line(grid, prefix)
                try:
                    won, moves = self.search(start, round_number, can_redeal, redeal)
                except _Cut:
                    continue
                if won:
                    return True, prefix + moves
                if not prefix:
                    return False, []
        finally:
            self.stride = stride
            self.first_run = False
            self.rng = self.limit = None
            self.prefix = []
            self.track = False

    CHECKPOINT = 0.5
    # The beam (last round only) gets BEAM_SHARE node for each node of the restarts,
    # widths BEAM_WIDTH, twice that, and so on.
    BEAM_WIDTH = 1000
    BEAM_SHARE = 0.7
    BEAM_POSITIONS_PER_NODE = 2  # a beam position costs about half a search node
    CHECKPOINT_FROM = 0.0  # the shallowest checkpoint, as a fraction of the line

    # --- the beam (a win-finder for the last round) -------------------------------------
    # Weights of the beam's evaluation: cards in correct runs, (X - 1, X) adjacencies, dead
    # gaps (tuned by hand; the exact values matter little).
    BEAM_RUN, BEAM_ADJACENT, BEAM_DEAD = 5, 2, 3
    BEAM_LEVELS = 400  # a winning line is about 100-150 fills; deeper levels are wandering

    def beam(self, grid: list[int], width: int):
        """A winning line of fills ((card, to) pairs) found by beam search, or None.

        Level by level, every fill of every kept position is tried; the new positions
        (not seen before in this beam) are ranked by ``BEAM_RUN`` × cards in correct runs
        + ``BEAM_ADJACENT`` × (X − 1, X) adjacencies − ``BEAM_DEAD`` × dead gaps, and the
        best ``width`` are kept. It proves nothing when it fails (it drops positions), so
        only its wins are used, and a win is a line of legal fills the caller replays. The
        seen set holds 64-bit Zobrist keys: a collision can only drop a position, which a
        heuristic may do anyway. ``BEAM_POSITIONS_PER_NODE`` new positions count as
        one node of the budget (about the same time as one node of ``search``).

        Adjacencies never decrease except when a 2 goes to column 0: a fill puts X right of
        X − 1 and breaks at most (X, X + 1), so the count measures progress that later
        fills do not undo, while dead gaps measure room lost."""
        rows, cols, n = self.rows, self.cols, self.n
        top, last, col = self.top, cols - 1, self.col
        starters = self.starters
        if starters:
            twos_of_row: list[tuple[int, ...]] = [(16 * starters[r] + 2,) for r in range(rows)]
        else:
            twos_of_row = [tuple(self.twos)] * rows
        run_length = self.run_length
        w_run, w_adj, w_dead = self.BEAM_RUN, self.BEAM_ADJACENT, self.BEAM_DEAD
        goal = rows * last
        budget = self.budget
        check_every = Budget.CHECK_EVERY
        runs = tuple(run_length(grid, r) for r in range(rows))
        if sum(runs) == goal:
            return []
        adjacent = sum(1 for i in range(n) if col[i] and grid[i] and grid[i] == grid[i - 1] + 1)
        gaps = tuple(i for i in range(n) if not grid[i])
        n_gaps = len(gaps)
        dead = sum(1 for q in gaps if col[q] and (not grid[q - 1] or grid[q - 1] & 15 == top))
        # Zobrist keys: a child's key is its parent's with two terms changed, so a position
        # is looked up in ``seen`` before its grid is built (only the kept ones are built)
        zobrist = self.zobrist
        key = 0
        for i, x in enumerate(grid):
            if x:
                key ^= zobrist[x][i]
        seen = {key}
        level = [(bytes(grid), gaps, runs, sum(runs), adjacent, dead, key)]
        made, per_node = 0, self.BEAM_POSITIONS_PER_NODE
        # per level: the index of each position's parent in the level above, and its fill
        # (card << 8 | cell), in compact arrays (a beam of width 4,000 runs 150+ levels)
        history: list[tuple] = []
        for _ in range(self.BEAM_LEVELS):
            # a candidate is (score, parent, gap's slot, card, from, to, adjacencies, dead
            # gaps, (runs, cards in runs) if the fill touched a run, else None); its grid,
            # gaps and key are made only if it is kept
            candidates = []
            for parent, entry in enumerate(level):
                here, gaps, runs, in_runs, adjacent, parent_dead, key = entry
                for slot, to in enumerate(gaps):
                    c = col[to]
                    if c:
                        left = here[to - 1]
                        if not left or left & 15 == top:
                            continue
                        cards: tuple[int, ...] = (left + 1,)
                    else:
                        cards = twos_of_row[to // cols]
                    for card in cards:
                        frm = here.index(card)
                        z = zobrist[card]
                        child = key ^ z[frm] ^ z[to]
                        if child in seen:
                            continue
                        seen.add(child)
                        made += 1
                        if made == per_node:
                            made = 0
                            self.nodes += 1
                            if budget is not None and self.nodes % check_every == 0:
                                budget.check(self.nodes)
                        # a king's successor code (rank 14) is no card, so it never matches
                        adj = adjacent + (1 if c else 0)
                        if c < last and here[to + 1] == card + 1:
                            adj += 1
                        k = col[frm]
                        if k < last and here[frm + 1] == card + 1:
                            adj -= 1
                        # dead gaps, updated: only the gaps at frm, to + 1 and frm + 1 change
                        dead = parent_dead
                        if k:
                            left = card if frm - 1 == to else here[frm - 1]
                            if not left or left & 15 == top:
                                dead += 1
                        if card & 15 != top:
                            if c < last and not here[to + 1]:
                                dead -= 1  # its left neighbour was the gap filled
                            if k < last and frm + 1 != to and not here[frm + 1]:
                                dead += 1  # its left neighbour is the gap left behind
                        cards_in_runs, new_runs = in_runs, None
                        if k < runs[frm // cols] or c <= runs[to // cols]:
                            new_runs = self._runs_after(here, runs, card, frm, to)
                            cards_in_runs = new_runs[1]
                            if cards_in_runs == goal:
                                return self._beam_line(history, parent, (card, to))
                        if dead == n_gaps:
                            continue  # no fill at all: a dead end would waste a place
                        candidates.append((w_run * cards_in_runs + w_adj * adj - w_dead * dead,
                                           parent, slot, card, frm, to, adj, dead, new_runs))
            if not candidates:
                return None
            if len(candidates) > width:
                candidates.sort(key=_first, reverse=True)
                del candidates[width:]
            level = self._beam_level(level, candidates, history)
        return None

    # --- cards at home: the par's bound, and a second beam -------------------------------
    def assignments(self) -> tuple[tuple[int, ...], ...]:
        """The ways to give each suit a row (suit -> row): one under starters, else all."""
        if self.starters:
            return (tuple(self.starters.index(s) for s in range(self.rows)),)
        return tuple(itertools.permutations(range(self.rows)))

    def home(self, grid) -> list[int]:
        """``home[rows * suit + row]``: the cards of the suit in their cell of that row in the
        won grid (rank ``k`` in column ``k - 2``)."""
        rows, c = self.rows, self.cols
        home = [0] * (rows * rows)
        for i, x in enumerate(grid):
            if x and i % c == (x & 15) - 2:
                home[rows * (x >> 4) + i // c] += 1
        return home

    def bound(self, home) -> int:
        """Fills every win from here needs at least (the last round): one for each card outside
        its cell of the won grid, for the best way to give the suits the rows."""
        rows = self.rows
        best = 0
        for to_row in self._assignments:
            total = 0
            for s in range(rows):
                total += home[rows * s + to_row[s]]
            if total > best:
                best = total
        return rows * (self.cols - 1) - best

    def moved_home(self, home, card: int, frm: int, to: int):
        """``home`` after the fill, or None when the fill changes no count."""
        rank_col, c, rows = (card & 15) - 2, self.cols, self.rows
        was = frm % c == rank_col
        now = to % c == rank_col
        if not was and not now:
            return None
        home = list(home)
        if was:
            home[rows * (card >> 4) + frm // c] -= 1
        if now:
            home[rows * (card >> 4) + to // c] += 1
        return home

    def all_fills(self, grid: bytes) -> list[tuple[int, int, int]]:
        """Every legal fill of a grid (as ``bytes``) as (card, from, to), in no useful order."""
        out = []
        col, top, c, starters = self.col, self.top, self.cols, self.starters
        i = grid.find(0)
        while i >= 0:
            if col[i]:
                left = grid[i - 1]
                if left and left & 15 != top:
                    out.append((left + 1, grid.index(left + 1), i))
            else:
                for two in self.twos:
                    if not starters or starters[i // c] == two >> 4:
                        out.append((two, grid.index(two), i))
            i = grid.find(0, i + 1)
        return out

    def _crowding(self, grid: bytes) -> int:
        """The home beam's tie-break: dead gaps count against, (X − 1, X) neighbours for."""
        score, c, top = 0, self.cols, self.top
        for i, x in enumerate(grid):
            if not i % c:
                continue
            left = grid[i - 1]
            if x:
                if left and x == left + 1:
                    score -= 1
            elif not left or left & 15 == top:
                score += 2
        return score

    def _best_of(self, candidates: list, width: int) -> list:
        """The ``width`` best candidates by bound, ties broken by ``_crowding`` (computed only
        for the candidates tied at the cut, where it decides)."""
        candidates.sort(key=_first)
        cut = candidates[width - 1][0]
        kept = [x for x in candidates[:width] if x[0] < cut]
        tied = [x for x in candidates if x[0] == cut]
        for x in tied:
            x[1] = self._crowding(x[5])
        tied.sort(key=_second)
        return kept + tied[:width - len(kept)]

    def home_beam(self, grid, width: int, limit: int | None = None):
        """A winning line of fills ((card, to) pairs) of this round found by a beam over the
        bound (``bound``), or None: level by level every fill of every kept position, the new
        positions ranked by fewest cards left to place, then by fewer dead gaps and more
        (X − 1, X) neighbours, the best ``width`` kept. A level is one move, so the first won
        position met is the beam's shortest line; a line of ``limit`` moves or more is not
        looked for. Like ``beam`` it proves nothing: only its wins count. Every new position
        counts as one node of the budget."""
        start = bytes(grid)
        home = self.home(start)
        limit = 1 << 30 if limit is None else limit
        level: list[tuple] = [(start, home, self.bound(home))]
        if level[0][2] == 0:
            return []
        seen = {start}
        parents: list[list] = []
        budget, check_every = self.budget, Budget.CHECK_EVERY
        depth = 0
        while level and depth + 1 < limit:
            depth += 1
            candidates = []
            for index, (here, home, h) in enumerate(level):
                for card, frm, to in self.all_fills(here):
                    child = bytearray(here)
                    child[frm], child[to] = 0, card
                    after = bytes(child)
                    if after in seen:
                        continue
                    seen.add(after)
                    self.nodes += 1
                    if budget is not None and self.nodes % check_every == 0:
                        budget.check(self.nodes)
                    moved = self.moved_home(home, card, frm, to)
                    child_h = h if moved is None else self.bound(moved)
                    if child_h == 0:
                        line = [(card, to)]
                        for kept in reversed(parents):
                            index, card, to = kept[index]
                            line.append((card, to))
                        line.reverse()
                        return line
                    if depth + child_h >= limit:
                        continue
                    candidates.append([child_h, 0, index, card, to, after, home if moved is None else moved])
            if len(candidates) > width:
                candidates = self._best_of(candidates, width)
            parents.append([(x[2], x[3], x[4]) for x in candidates])
            level = [(x[5], x[6], x[0]) for x in candidates]
        return None

    def _runs_after(self, here: bytes, runs: tuple, card: int, frm: int, to: int):
        """The rows' run lengths after the fill, and their sum (only called when the fill
        touches a run: a 2 leaves column 0 or a card lands at a run's end)."""
        after = bytearray(here)
        after[frm] = 0
        after[to] = card
        new_runs = list(runs)
        cols = self.cols
        new_runs[frm // cols] = self.run_length(after, frm // cols)
        new_runs[to // cols] = self.run_length(after, to // cols)
        return tuple(new_runs), sum(new_runs)

    def _beam_level(self, level: list, candidates: list[tuple], history: list) -> list:
        """The kept candidates as positions (grid, gaps, runs, cards in runs, adjacencies,
        dead gaps, key); their parents and fills go into ``history``."""
        zobrist = self.zobrist
        parents = array("l")
        fills = array("l")
        kept = []
        for _, parent, slot, card, frm, to, adj, dead, new_runs in candidates:
            here, gaps, runs, in_runs, _, _, key = level[parent]
            after = bytearray(here)
            after[frm] = 0
            after[to] = card
            if new_runs is not None:
                runs, in_runs = new_runs
            z = zobrist[card]
            kept.append((bytes(after), (*gaps[:slot], frm, *gaps[slot + 1:]), runs, in_runs,
                         adj, dead, key ^ z[frm] ^ z[to]))
            parents.append(parent)
            fills.append(card << 8 | to)
        history.append((parents, fills))
        return kept

    @staticmethod
    def _beam_line(history: list, parent: int, fill: tuple) -> list:
        """The line of fills from the beam's root to ``parent``, then ``fill``."""
        line = [fill]
        for parents, fills in reversed(history):
            move = fills[parent]
            parent = parents[parent]
            line.append((move >> 8, move & 255))
        line.reverse()
        return line

    def play_line(self, grid: list[int], line: list) -> list[int]:
        """The grid after the fills ``line`` ((card, to) pairs, all legal, no redeal)."""
        grid = list(grid)
        for card, to in line:
            frm = grid.index(card)
            grid[frm], grid[to] = 0, card
        return grid

    def search(self, grid: list[int], round_number: int = 1, can_redeal=None, redeal=None):
        """Depth-first from ``grid``; ``(True, moves)`` with moves as (card, to) or None for
        a redeal, ``(False, [])`` when no continuation wins. Raises ``BudgetExceeded`` (and
        ``_Cut`` at ``limit``)."""
        if self.is_won(list(grid)):
            return True, []
        return _Run(self, grid, round_number, can_redeal, redeal).run()


class _Frame:
    """A position on the run's stack: its moves and the next to try, what takes its own move
    back (``undo``: a fill, fills played together, or a redeal's saved round), its key, its
    discovery index and lowlink (Tarjan), and what its class adds to the key (``column0_key``;
    None outside the classes)."""

    __slots__ = ("delta", "index", "key", "low", "moves", "next", "undo")

    def __init__(self, moves: list, undo, key: int, index: int, delta: int | None) -> None:
        self.moves, self.next, self.undo = moves, 0, undo
        self.key, self.index, self.low, self.delta = key, index, index, delta


class _Run:
    """One depth-first run of ``GapsCore.search`` (module docstring, "Search"): the grid is
    played in place and taken back; Tarjan's components over the positions reached make the
    completed ones lost (``core.dead``). Each step either leaves the top frame, every move of
    it tried (``_leave``), or plays its next move (``_enter_redeal``, ``_enter_fills``,
    ``_enter_fill``: the key of the position reached, or None when it was seen or is lost)."""

    def __init__(self, core: GapsCore, grid: list[int], round_number: int, can_redeal, redeal) -> None:
        self.core, self.can_redeal, self.redeal = core, can_redeal, redeal
        self.round_number = round_number
        self._set_grid(list(grid))
        self.round_shift = 6 * core.n
        self.class_from = self._class_from() if core.classes and not core.starters and not core.first_run else None
        self.open_: dict[int, int] = {}  # position of this run not yet in a completed component -> its index
        self.tarjan: list[int] = []
        self.path: list = []
        self.stride = core.stride or 1 << 62  # 0: only at this run's start (depth 0)
        self.limit = float("inf") if core.limit is None else core.limit

    def _set_grid(self, grid: list[int]) -> None:
        """The grid, where each card is, the gaps and the grid's key."""
        self.grid = grid
        self.where = [0] * 64
        key = 0
        for i, x in enumerate(grid):
            if x:
                self.where[x] = i
                key += x * self.core.power[i]
        self.gaps = [i for i, x in enumerate(grid) if not x]
        self.key = key

    def _class_from(self) -> int | None:
        """The round from which column 0 is one arrangement (the last one, when it is known)."""
        can_redeal, final = self.can_redeal, self.round_number
        while can_redeal is not None and can_redeal(final) and final < self.round_number + 8:
            final += 1
        return final if can_redeal is None or not can_redeal(final) else None

    def in_classes(self) -> bool:
        return self.class_from is not None and self.round_number >= self.class_from

    def _full_key(self, delta: int | None) -> int:
        return self.key + (self.round_number << self.round_shift) + (delta or 0)

    # --- the loop ------------------------------------------------------------------------------
    def run(self) -> tuple[bool, list]:
        core = self.core
        delta = core.column0_key(self.grid) if self.in_classes() else None
        root = self._full_key(delta)
        if root in core.dead:
            return False, []
        self.open_[root] = 0
        self.tarjan.append(root)
        frames = [_Frame(self._expand(root), None, root, 0, delta)]
        counter = 1
        budget, check_every = core.budget, Budget.CHECK_EVERY
        while frames:
            frame = frames[-1]
            if frame.next == len(frame.moves):
                frames.pop()
                self._leave(frame, frames[-1] if frames else None)
                continue
            move = frame.moves[frame.next]
            frame.next += 1
            if move is None:
                entered = self._enter_redeal(frame)
            elif type(move[0]) is tuple or (frame.delta is not None and not (core.col[move[1]] and core.col[move[2]])):
                entered = self._enter_fills(frame, move)
            else:
                entered = self._enter_fill(frame, move)
            if entered is None:
                continue
            full, undo, delta = entered
            core.nodes += 1
            if budget is not None and core.nodes % check_every == 0:
                budget.check(core.nodes)
            if core.nodes >= self.limit:
                raise _Cut
            self._record(move)
            if self._won():
                return True, self.path
            self.open_[full] = counter
            self.tarjan.append(full)
            frames.append(_Frame(self._expand(full), undo, full, counter, delta))
            counter += 1
        return False, []

    def _won(self) -> bool:
        last, col = self.core.cols - 1, self.core.col
        return all(col[g] == last for g in self.gaps) and self.core.is_won(self.grid)

    def _record(self, move) -> None:
        if move is None:
            self.path.append(None)
        elif type(move[0]) is tuple:
            self.path.extend((card, to) for card, _, to in move)
        else:
            self.path.append((move[0], move[2]))

    # --- a position's moves --------------------------------------------------------------------
    def _expand(self, here: int) -> list:
        """The fills, and None for a redeal; in the last round a hopeless position is lost
        (kept in ``dead``, so that later runs skip it), one that passes is not analysed again."""
        core, grid, where, gaps = self.core, self.grid, self.where, self.gaps
        moves: list = core.column0_moves(grid, where, gaps) if self.in_classes() else core.fills(grid, where, gaps)
        if self.can_redeal is not None and self.can_redeal(self.round_number):
            moves.append(None)
        elif core.prune and moves and len(self.path) % self.stride == 0 and here not in core.alive:
            if core.analyse(where, gaps) is None:
                core.dead.add(here)
                moves = []
            else:
                core.alive.add(here)
        if not moves and core.track:
            progress = sum(core.run_length(grid, r) for r in range(core.rows))
            if progress > core.best_progress:
                core.best_progress = progress
                core.best_line = core.prefix + self.path
        return moves

    # --- leaving a frame -----------------------------------------------------------------------
    def _leave(self, frame: _Frame, parent: _Frame | None) -> None:
        """Every move of ``frame`` tried: a completed component is lost; its move is taken back."""
        if frame.low == frame.index:
            while True:
                k = self.tarjan.pop()
                del self.open_[k]
                self.core.dead.add(k)
                if k == frame.key:
                    break
        elif parent is not None and parent.low > frame.low:
            parent.low = frame.low
        undo = frame.undo
        if undo is None:
            return
        if undo[0] is None:  # a redeal: restore the saved round
            self.path.pop()
            _, self.grid, self.where, self.gaps, self.key, self.round_number = undo
            return
        played = undo if type(undo[0]) is tuple else (undo,)
        del self.path[-len(played):]
        self._take_back(played)

    # --- playing a move ------------------------------------------------------------------------
    def _seen(self, frame: _Frame, full: int) -> bool:
        """Whether ``full`` is on this run's stack or lost; the former lowers ``frame``'s link."""
        seen = self.open_.get(full)
        if seen is not None and seen < frame.low:
            frame.low = seen
        return seen is not None or full in self.core.dead

    def _enter_redeal(self, frame: _Frame):
        saved = (None, self.grid, self.where, self.gaps, self.key, self.round_number)
        self._set_grid(self.redeal(self.grid, self.round_number))
        self.round_number += 1
        delta = self.core.column0_key(self.grid) if self.in_classes() else None
        full = self._full_key(delta)
        if self._seen(frame, full):
            _, self.grid, self.where, self.gaps, self.key, self.round_number = saved
            return None
        return full, saved, delta

    def _enter_fills(self, frame: _Frame, move):
        """Fills played together, or one that changes column 0 in a class."""
        played = move if type(move[0]) is tuple else (move,)
        self._play(played)
        delta = self.core.column0_key(self.grid) if self.in_classes() else None
        full = self._full_key(delta)
        if self._seen(frame, full):
            self._take_back(played)
            return None
        return full, move, delta

    def _enter_fill(self, frame: _Frame, move):
        """One fill that leaves column 0's arrangement as it was (its key is known first)."""
        card, frm, to = move
        power = self.core.power
        full = self._full_key(frame.delta) + card * (power[to] - power[frm])
        if self._seen(frame, full):
            return None
        self._play((move,))
        return full, move, frame.delta

    def _play(self, played) -> None:
        grid, where, gaps, power = self.grid, self.where, self.gaps, self.core.power
        for card, frm, to in played:
            grid[to] = card
            grid[frm] = 0
            where[card] = to
            gaps[gaps.index(to)] = frm
            self.key += card * (power[to] - power[frm])

    def _take_back(self, played) -> None:
        """Take the fills ``played`` back, the last first."""
        grid, where, gaps, power = self.grid, self.where, self.gaps, self.core.power
        for card, frm, to in reversed(played):
            grid[frm] = card
            grid[to] = 0
            where[card] = frm
            gaps[gaps.index(frm)] = to
            self.key += card * (power[frm] - power[to])


def _first(entry):
    return entry[0]


def _second(entry):
    return entry[1]


def _luby(i: int) -> int:
    """The i-th term (from 1) of the Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, …"""
    while True:
        k = i.bit_length()
        if i == (1 << k) - 1:
            return 1 << (k - 1)
        i -= (1 << (k - 1)) - 1


class _Cut(Exception):
    """A restart's own node allowance ran out (the search goes on with another order)."""


def _matching(fits: list[int], rows: int) -> bool:
    """Whether every suit gets its own row among the rows it fits (bitmasks)."""
    match = [-1] * rows  # row -> suit

    def place(s: int, seen: int) -> bool:
        for row in range(rows):
            if fits[s] >> row & 1 and not seen >> row & 1:
                seen |= 1 << row
                if match[row] < 0 or place(match[row], seen):
                    match[row] = s
                    return True
        return False

    return all(place(s, 0) for s in range(len(fits)))


class GapsSearch:
    """The search for an engine position (any round, either ace rule)."""

    def __init__(self, position, budget: Budget | None = None, prune: bool = True,
                 restarts: bool = True, compiled: bool = True) -> None:
        self.position = position
        self.compiled = compiled and gaps_exhaustive.available()
        self.rounds = position.rules.rounds
        starters = tuple(SUITS.index(s) for s in (position.starters or ()))
        self.core = GapsCore(ROWS, COLUMNS, starters, budget, prune)
        self.restarts = restarts

    @property
    def nodes(self) -> int:
        return self.core.nodes

    def redeal(self, grid: list[int], round_number: int) -> list[int]:
        cards = tuple(code_card(x) for x in grid)
        after = replace(self.position, grid=cards, round=round_number).redealt()
        return [card_code(c) for c in after.grid]

    def can_redeal(self, round_number: int) -> bool:
        return self.rounds is None or round_number < self.rounds

    def run(self) -> tuple[bool, list[str]]:
        grid = [card_code(c) for c in self.position.grid]
        if self.restarts and self.compiled and not self.can_redeal(self.position.round):
            won, moves = self._last_round(grid)
        else:
            solve = self.core.solve if self.restarts else self.core.search
            won, moves = solve(grid, self.position.round, self.can_redeal, self.redeal)
        if not won:
            return False, []
        return True, [self._move_text(m) for m in moves]

    def _last_round(self, grid: list[int]) -> tuple[bool, list]:
        """The last round, compiled (``app.solver.gaps_exhaustive.decide``): beams, which find
        the quick wins the Python search's restarts and beam found, far faster, then
        the exhaustive search, which proves the lost rounds; on the whole budget (a node is
        ``GRIDS_PER_NODE`` grids)."""
        core = self.core
        won, line, nodes = gaps_exhaustive.decide(grid, ROWS, COLUMNS, core.starters, core.budget,
                                                  core.nodes)
        core.nodes += nodes
        if won is None:
            raise BudgetExceeded
        return won, line

    @staticmethod
    def _move_text(move) -> str:
        return "N" if move is None else fill_text(*move)


def solve_gaps(position, budget: Budget | None = None, prune: bool = True,
               restarts: bool = True, compiled: bool = True) -> SolveResult:
    """The search for ``position``; in the last round, with ``compiled`` and the compiled core
    built, the compiled beams and exhaustive search (``GapsSearch._last_round``)."""
    search = GapsSearch(position, budget, prune, restarts, compiled)
    try:
        won, moves = search.run()
    except BudgetExceeded:
        return SolveResult(None, (), "budget", search.nodes)
    return SolveResult(won, tuple(moves) if won else (), None, search.nodes)
