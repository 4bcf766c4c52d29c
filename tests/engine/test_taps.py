"""What a tap means is the variant's (``Variant.tap``, app/engine/taps.py): each variant taps
as its family does, and a place the board does not have is the engine's error."""

from __future__ import annotations

import pytest

from app.engine import GAMES, GameRecord, InvalidMoveError, deal_for_seed
from app.engine.taps import Tap, gaps_tap, pyramid_tap


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
