"""The plain search of a Pyramid-family game with a stock and a limited number of passes, from
before its last pass: what ``PyramidSearch.run`` tries first, for a few positions, before
``pyramid_multi`` (it finds most quick wins and losses faster, having no relaxations to solve).

Suits never matter, so the stock and the waste are kept as their card values, four bits a card,
top card in the lowest bits; two positions that differ only in which of two equal cards went are
one position (``StockState``). A position is not expanded again at the same or a later pass (a
later pass has no line the earlier one lacked). Each expansion runs in phases:

1. ``_play_forced``: moves that cannot hurt are played at once: an available king (layout,
   stock top, waste top), and a layout card with a single partner left when both are available;
2. ``_drop_stuck_waste`` (last pass): two waste cards never meet again, so a waste card whose
   partners are gone from the layout and the stock stays for good, and the cards under it are
   out of the game;
3. ``_lost``: Hall's condition on the value group of the last move (``PyramidSearch``), and two
   relaxations of the rest of the game (``_counts_fail``, ``_order_fails``), each a proof of loss;
4. ``_moves``: the moves to try, pairs that open the most of the layout first.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from .depth_first import DEAD_END, WON, depth_first
from .pyramid_problem import DRAW, KING, RECYCLE, STOCK, WASTE, ShapeFacts


class StockState(NamedTuple):
    """A position of the plain search."""

    removed: int  # the layout cards gone (bit mask)
    waste: int  # the waste's values, four bits a card, top card in the lowest bits
    stock: int  # the stock's values, likewise
    stock_counts: int  # how many cards of each value the stock holds, four bits a value
    waste_counts: int  # and the waste
    pass_number: int
    touched: int  # the value group of the last move: 0 none, -1 every group


class StockFacts(NamedTuple):
    """What a stock's value counts offer, shared by the many positions with the same stock."""

    counts: list[int]  # cards of each value
    partners: int  # bit ``13 - v`` for every value ``v`` it holds, and bit ``KING``
    values: int  # bit ``v`` for every value it holds


def _count(value: int) -> int:
    """``value`` counted once, as the counts hold it."""
    return 1 << (4 * value)


def _packed(values) -> tuple[int, int]:
    """Cards (top first) as the search keeps them: four bits a card, and the counts."""
    cards = counts = 0
    for v in reversed(values):
        cards = (cards << 4) | v
    for v in values:
        counts += _count(v)
    return cards, counts


class StockSearch:
    """One plain search over ``search.problem`` (a ``PyramidSearch``'s), on its tables and
    caches; ``run()`` answers ``(winnable, moves)`` or raises the budget's exception."""

    def __init__(self, search) -> None:
        pr = search.problem
        assert pr.passes is not None  # unlimited passes are searched elsewhere
        self.search = search
        self.passes = pr.passes
        self.goal_all = pr.goal == "all"
        self.check_order = not pr.overlap
        self.full = (1 << search.L) - 1
        self.waste_shift = search.L + 4 * len(pr.sequence) + 4
        self.visited_at: dict[int, int] = {}  # packed position -> the earliest pass it was expanded at
        self.path: list[tuple] = []
        self._stock_facts: dict[int, StockFacts] = {}
        self._count_checks: dict[int, tuple[list[int], int]] = {}

    def run(self) -> tuple[bool, list[tuple]]:
        pr = self.search.problem
        waste, waste_counts = _packed(pr.sequence[:pr.pointer][::-1])  # waste top first
        stock, stock_counts = _packed(pr.sequence[pr.pointer:])  # stock top first
        start = StockState(pr.removed, waste, stock, stock_counts, waste_counts, pr.pass_number, -1)
        won = depth_first(start, self.expand, self.path, self.search._tick)
        return won, (self.path if won else [])

    def expand(self, state: StockState):
        state, info = self._play_forced(state)
        if self._won(state):
            return WON
        waste_left: list[int] = []
        if state.pass_number == self.passes and state.waste:
            dropped = self._drop_stuck_waste(state, info)
            if dropped is None:
                return DEAD_END
            state, waste_left = dropped
        if self._seen(state) or self._lost(state, info, waste_left):
            return DEAD_END
        return self._moves(state, info)

    def _won(self, state: StockState) -> bool:
        return state.removed == self.full and (not self.goal_all or not (state.waste or state.stock))

    def _seen(self, state: StockState) -> bool:
        """Whether the position was expanded at this pass or an earlier one (else it is now)."""
        key = state.removed | (state.stock << self.search.L) | (state.waste << self.waste_shift)
        seen = self.visited_at.get(key)
        if seen is not None and seen <= state.pass_number:
            return True
        self.visited_at[key] = state.pass_number
        return False

    # --- 1. the moves that cannot hurt ---------------------------------------------------------
    def _play_forced(self, state: StockState):
        """``state`` after every available king and forced pair, with the layout's facts
        (``PyramidSearch._expinfo``) of the shape it ends in; the moves go on ``path``."""
        search, path = self.search, self.path
        while True:
            removed, info = search.without_kings(state.removed, path)
            state = state._replace(removed=removed)
            if self._won(state):
                return state, None
            if state.stock & 15 == KING:
                path.append((STOCK,))
                state = state._replace(stock=state.stock >> 4, stock_counts=state.stock_counts - _count(KING))
            elif state.waste & 15 == KING:
                path.append((WASTE,))
                state = state._replace(waste=state.waste >> 4, waste_counts=state.waste_counts - _count(KING))
            else:
                forced = self._forced_pair(state, info)
                if forced is None:
                    return state, info
                move, state = forced
                path.append(move)

    def _forced_pair(self, state: StockState, info: ShapeFacts) -> tuple[tuple, StockState] | None:
        """A layout card with a single partner left must go with it: if both are available,
        that pair goes now (doing it later gains nothing)."""
        search = self.search
        counts = state.stock_counts + state.waste_counts
        open_cards = search._exposed(state.removed)[1]
        for value, cards in info.need.items():
            spare = (counts >> (4 * value)) & 15  # stock and waste cards of the partner value
            if spare > 1:
                continue
            for x in cards:
                other = search.layout_part[x] & ~state.removed
                after = state._replace(removed=state.removed | 1 << x, touched=-1)
                if spare and not other and state.stock & 15 == value:
                    return (x, STOCK), after._replace(stock=state.stock >> 4,
                                                      stock_counts=state.stock_counts - _count(value))
                if spare and not other and state.waste & 15 == value:
                    return (x, WASTE), after._replace(waste=state.waste >> 4,
                                                      waste_counts=state.waste_counts - _count(value))
                if not spare and other and not other & (other - 1) and other & open_cards:
                    return (x, other.bit_length() - 1), after._replace(removed=after.removed | other)
        return None

    # --- 2. the last pass's stuck waste --------------------------------------------------------
    def _drop_stuck_waste(self, state: StockState, info: ShapeFacts) -> tuple[StockState, list[int]] | None:
        """In the last pass, the waste down to its first card whose partners are gone from the
        layout and the stock (that card stays, so the ones under it are out of the game), and
        its values top first; ``None`` when such a card must go (goal ``all``)."""
        present = info.values | self._facts(state.stock_counts).values  # values in layout or stock
        values: list[int] = []
        rest = state.waste
        while rest:
            value = rest & 15
            values.append(value)
            if not present >> (13 - value) & 1:
                if self.goal_all:
                    return None
                if rest >> 4:  # cards under it: out of the game
                    waste = state.waste & ((1 << (4 * len(values))) - 1)
                    state = state._replace(waste=waste, waste_counts=_packed(values)[1], touched=-1)
                break
            rest >>= 4
        return state, values

    # --- 3. proofs of loss ---------------------------------------------------------------------
    def _lost(self, state: StockState, info: ShapeFacts, waste_left: list[int]) -> bool:
        search = self.search
        counts = state.stock_counts + state.waste_counts
        if state.touched < 0 and any(search._dead_counts(state.removed, counts, v) for v in range(1, 7)):
            return True
        if state.touched > 0 and search._dead_counts(state.removed, counts, state.touched):
            return True
        if state.pass_number == self.passes:
            return (self._counts_fail(state, info, waste_left)
                    or (self.check_order and self._order_fails(state, waste_left)))
        if self.check_order:
            # before the last pass every stock and waste card comes round again
            can = 1 << KING
            for v in range(1, 13):
                if (counts >> (4 * v)) & 15:
                    can |= 1 << (13 - v)
            return not search._clears(state.removed, can)[0]
        return False

    def _facts(self, stock_counts: int) -> StockFacts:
        got = self._stock_facts.get(stock_counts)
        if got is None:
            counts = [(stock_counts >> (4 * v)) & 15 for v in range(14)]
            partners, values = 1 << KING, 0
            for v in range(1, 13):
                if counts[v]:
                    partners |= 1 << (13 - v)
                    values |= 1 << v
            got = self._stock_facts[stock_counts] = StockFacts(counts, partners, values)
        return got

    def _counts_fail(self, state: StockState, info: ShapeFacts, waste: list[int]) -> bool:
        """The last pass's counting relaxation: for some depth of the waste, the layout cards and
        every waste card above that depth find distinct partners (a waste card pairs with a
        layout card or a stock card; two layout cards only when neither lies under the other).
        Whether no depth passes."""
        layout, reach = info.counts, info.reach
        stock = self._facts(state.stock_counts).counts
        failing, bad = self._groups_failing(state, layout, reach, stock)
        in_waste = [0] * 14
        if self.goal_all:
            for z in waste:
                in_waste[z] += 1
            for a in range(1, 7):
                b = 13 - a
                if (in_waste[a] > layout[b] + stock[b] or in_waste[b] > layout[a] + stock[a]
                        or layout[a] > reach[b] + in_waste[b] + stock[b]
                        or layout[b] > reach[a] + in_waste[a] + stock[a]):
                    return True
            return False
        if not bad:
            return False
        failing = failing[:]
        for z in waste:  # one more waste card above the depth at a time
            if z == KING:
                continue
            in_waste[z] += 1
            a = min(z, 13 - z)
            b = 13 - a
            pa, pb, wa, wb, fa, fb = layout[a], layout[b], in_waste[a], in_waste[b], stock[a], stock[b]
            if wa > pb + fb or wb > pa + fa:
                return True
            now = (pa > reach[b] + wb + fb or pb > reach[a] + wa + fa
                   or pa + wa > pb + wb + fb or pb + wb > pa + wa + fa)
            bad += now - failing[a]
            failing[a] = now
            if not bad:
                return False
        return True

    def _groups_failing(self, state: StockState, layout, reach, stock) -> tuple[list[int], int]:
        """The value groups that fail the count with no waste card above the depth (they depend
        on the shape and the stock only, which many positions share), and how many."""
        key = state.removed | (state.stock_counts << self.search.L)
        got = self._count_checks.get(key)
        if got is None:
            failing = [0] * 7
            for a in range(1, 7):
                b = 13 - a
                pa, pb, fa, fb = layout[a], layout[b], stock[a], stock[b]
                failing[a] = int(pa > reach[b] + fb or pb > reach[a] + fa or pa > pb + fb or pb > pa + fa)
            got = self._count_checks[key] = (failing, sum(failing))
        return got

    def _order_fails(self, state: StockState, waste: list[int]) -> bool:
        """The last pass's order relaxation: every layout card could go if partners could serve
        many times: a waste card goes once the cards above it can go and a partner is open in the
        layout or left in the stock; a layout card once the cards covering it can go and a
        partner is open, reachable in the waste or left in the stock."""
        closure = self.search._clears
        stock = self._facts(state.stock_counts).partners
        can = stock | (1 << (13 - waste[0]) if waste else 0)
        depth = 0
        while True:
            cleared, offered = closure(state.removed, can)
            while depth < len(waste) and (stock | offered) >> waste[depth] & 1:
                depth += 1
                if depth < len(waste):
                    can |= 1 << (13 - waste[depth])
            if closure(state.removed, can) == (cleared, offered):
                break
        return not cleared or (self.goal_all and depth < len(waste))

    # --- 4. the moves ----------------------------------------------------------------------------
    def _moves(self, state: StockState, info: ShapeFacts) -> Iterator[tuple[tuple, StockState]]:
        removed, waste, stock = state.removed, state.waste, state.stock
        need, pairs = info.need, info.pairs
        for bits, move, group in pairs:
            yield move, state._replace(removed=removed | bits, touched=group)
        top, waste_top = stock & 15, waste & 15
        if top:
            for i in need.get(top, ()):
                yield (i, STOCK), state._replace(removed=removed | 1 << i, stock=stock >> 4,
                                                 stock_counts=state.stock_counts - _count(top),
                                                 touched=min(top, 13 - top))
        if waste_top:
            for i in need.get(waste_top, ()):
                yield (i, WASTE), state._replace(removed=removed | 1 << i, waste=waste >> 4,
                                                 waste_counts=state.waste_counts - _count(waste_top),
                                                 touched=min(waste_top, 13 - waste_top))
            if top + waste_top == 13:
                yield (STOCK, WASTE), state._replace(waste=waste >> 4, stock=stock >> 4,
                                                     stock_counts=state.stock_counts - _count(top),
                                                     waste_counts=state.waste_counts - _count(waste_top),
                                                     touched=min(top, waste_top))
        if top:
            yield DRAW, state._replace(waste=(waste << 4) | top, stock=stock >> 4,
                                       stock_counts=state.stock_counts - _count(top),
                                       waste_counts=state.waste_counts + _count(top), touched=0)
        elif waste and state.pass_number < self.passes:
            turned = 0  # the waste turned over: its bottom card is the new stock's top
            rest = waste
            while rest:
                turned = (turned << 4) | (rest & 15)
                rest >>= 4
            yield RECYCLE, StockState(removed, 0, turned, state.waste_counts, 0, state.pass_number + 1, 0)
