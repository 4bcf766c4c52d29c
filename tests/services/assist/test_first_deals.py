"""The proven deals shipped with the code (app/services/assist/first_deals.py): the solver proves
each, and a newcomer's new deal on a server that has proven none yet is one of them."""

from __future__ import annotations

import pytest

from app.db.models import DealVerdict, Player, PositionVerdict
from app.engine import PRESETS, GameRecord, get_game
from app.services.assist import first_deals, solver_cache, winnable
from app.services.play import games
from app.solver import solve


def _start(slug: str, seed: int) -> GameRecord:
    preset = PRESETS[slug]
    return GameRecord.new(preset.game, preset.rules, get_game(preset.game).deal(seed))


@pytest.mark.parametrize("slug", list(PRESETS))
def test_the_solver_proves_every_shipped_seed_within_its_node_budget(slug):
    seeds = first_deals.shipped(slug)
    assert len(seeds) >= 8 and len(set(seeds)) == len(seeds)
    for seed in seeds:
        assert solve(_start(slug, seed).position, budget_nodes=first_deals.NODES).winnable is True, (slug, seed)


@pytest.mark.parametrize("slug", ["gaps", "gaps-danish", "pyramid"])
def test_a_newcomers_deal_on_a_fresh_server_is_proven_when_its_search_finds_none(sessions, monkeypatch, slug):
    # the search of a Gaps deal proves no candidate within its limit about one time in two
    monkeypatch.setattr(winnable, "first_winnable", lambda *args, **kwargs: (None, None, 15))
    with sessions() as session:
        assert session.query(DealVerdict).count() == 0  # nothing proven yet
        newcomer = Player(winnable_only=True)
        session.add(newcomer)
        session.commit()
        seed = winnable.new_seed(session, newcomer, slug)
        assert seed in first_deals.shipped(slug)
        assert winnable.proven(session, slug, seed)  # the deal's page says it can be won
        verdict = session.get(DealVerdict, (slug, seed))
        assert verdict is not None and verdict.winnable and verdict.moves  # kept, with its winning line
        kept = session.get(PositionVerdict, solver_cache.key_of(_start(slug, seed)))
        assert kept is not None and kept.winnable  # a hint on the first move costs nothing


def test_a_new_deal_is_never_a_deal_the_player_has_a_game_of(sessions, monkeypatch):
    # "New deal" on a new server: no search proves one in time, and the deals to fall back to are
    # few (the shipped ones, and those kept since): none may be the game in play, or one played
    monkeypatch.setattr(winnable, "first_winnable", lambda *args, **kwargs: (None, None, 15))
    with sessions() as session:
        player = Player(winnable_only=True)
        session.add(player)
        session.commit()
        dealt = []
        for _ in first_deals.shipped("gaps"):
            seed = winnable.new_seed(session, player, "gaps")
            dealt.append(seed)
            games.start_game(session, player, "gaps", seed=seed)
            session.commit()
        assert sorted(dealt) == sorted(first_deals.shipped("gaps"))  # each once, all of them proven
        assert winnable.new_seed(session, player, "gaps") not in dealt  # then a deal at random
