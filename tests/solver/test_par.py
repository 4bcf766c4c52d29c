"""app.solver.par: one entry point for every game's par, and what each variant says its search
is worth beyond the par (a hint's line, a search in full that ends within seconds)."""

from __future__ import annotations

from app.engine import GAMES, deal_for_seed, get_game
from app.solver import hint_shortest, proves_shortest, quick_shortest


def _start(game: str):
    variant = get_game(game)
    return variant.new_position(deal_for_seed(game, 1), variant.parse_rules())


def test_every_game_has_a_par_search_and_its_variant_says_what_else_it_is_worth():
    assert all(proves_shortest(_start(game)) for game in GAMES)
    worth = {game: (hint_shortest(_start(game)), quick_shortest(_start(game))) for game in GAMES}
    assert worth == {"pyramid": (True, True), "giza": (True, True), "double-pyramid": (True, False),
                     "gaps": (False, False)}
