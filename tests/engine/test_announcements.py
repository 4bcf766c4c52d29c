"""A move in words (app.engine.announcements): a removal names its cards, and, where each card
lies twice (Double Pyramid's two decks), where each came from."""

from __future__ import annotations

from app.engine import GameRecord, deal_for_seed, get_preset
from app.engine.announcements import said_moves
from app.engine.taps import places


def _played(preset: str, seed: int, plies: int) -> GameRecord:
    """A game of the deal: its first removal each time there is one, else a draw (or a turnover)."""
    p = get_preset(preset)
    record = GameRecord.new(p.game, p.rules, deal_for_seed(p.game, seed))
    for _ in range(plies):
        legal = record.position.legal_moves()
        removals = [m for m in legal if places(m)]
        if not legal:
            break
        record = record.play(removals[0] if removals else legal[0])
    return record


def test_a_double_pyramid_removal_says_where_each_card_lay():
    record = _played("double-pyramid", 3, 40)
    said = [a for a in said_moves(record) if a.kind == "remove"]
    assert said
    kinds = {"P": "pyramid-1", "Q": "pyramid-2", "S": "stock", "W": "waste"}
    for a, move in zip(said, (m for m in record.moves[:record.cursor] if places(m)), strict=True):
        assert a.places == tuple(kinds[loc[0]] for loc in places(move)) and len(a.places) == len(a.cards)
    assert {"pyramid-1", "pyramid-2"} <= {p for a in said for p in a.places}


def test_a_one_pyramid_removal_names_only_its_cards():
    said = [a for a in said_moves(_played("pyramid-3", 3, 30)) if a.kind == "remove"]
    assert said and all(a.places == () for a in said)
