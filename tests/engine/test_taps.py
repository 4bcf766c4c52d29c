"""What a tap means is the variant's (``Variant.tap``, app/engine/taps.py): each variant taps
as its family does, and a place the board does not have is the engine's error."""

from __future__ import annotations

import pytest

from app.engine import GAMES, GameRecord, InvalidMoveError, deal_for_seed
from app.engine.pyramid import DRAW
from app.engine.taps import Tap, gaps_tap, places, pyramid_tap


@pytest.mark.parametrize("name", sorted(GAMES))
def test_each_variant_taps_as_its_family(name):
    variant = GAMES[name]
    position = GameRecord.new(name, variant.default_rules(), deal_for_seed(name, 7)).position
    family_tap = gaps_tap if variant.family == "gaps" else pyramid_tap
    target = "0.1" if variant.family == "gaps" else "S" if variant.name != "giza" else "G0"
    assert isinstance(variant.tap(position, None, target), Tap)
    assert variant.tap(position, None, target) == family_tap(position, None, target)
    with pytest.raises(InvalidMoveError):
        variant.tap(position, None, "nowhere")


def _stock_cards(name: str, seed: int):
    """The positions met drawing through a deal's stock, each with what its stock's card can do."""
    variant = GAMES[name]
    position = GameRecord.new(name, variant.default_rules(), deal_for_seed(name, seed)).position
    while position.stock:
        yield position, [m for m in position.legal_moves() if "S" in places(m)]
        position = position.apply(DRAW)


@pytest.mark.parametrize("name", ["pyramid", "double-pyramid"])
def test_a_tap_on_the_stock_card_that_makes_no_pair_draws(name):
    """A player taps a stock to turn a card: the stock's top card lies face up, and when it can't
    be played a tap on it draws, as the draw button does, whatever was selected."""
    met = {"draws": 0, "selects": 0}
    for position, moves in _stock_cards(name, 7):
        tap = pyramid_tap(position, None, "S")
        if not moves:
            assert tap == Tap(move=DRAW)
            assert pyramid_tap(position, "P27", "S").move == DRAW  # a free card selected: the same
            met["draws"] += 1
        elif any(places(m) == ("S",) for m in moves):  # a king goes alone
            assert places(tap.move) == ("S",)
        else:  # it pairs: selected, as any card with partners
            assert tap == Tap(selected="S")
            met["selects"] += 1
    assert all(met.values()), met


def test_only_the_stock_card_draws():
    """The waste's card and a covered card of the pyramid, which can't be played, are refused: a
    tap on them draws nothing."""
    refused = 0
    for position, _ in _stock_cards("pyramid", 7):
        assert pyramid_tap(position, None, "P0") == Tap(note="covered")
        if position.card_at("W") is not None and not any("W" in places(m) for m in position.legal_moves()):
            assert pyramid_tap(position, None, "W") == Tap(note="not_playable")
            refused += 1
    assert refused
