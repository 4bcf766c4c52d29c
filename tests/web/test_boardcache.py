"""Kept cards and rows (app/web/boardcache.py) are exactly what the macros draw afresh."""

from __future__ import annotations

import random

import pytest
from markupsafe import Markup

from app import i18n
from app.engine import PRESETS, GameRecord, get_game
from app.services.boards import BOARDS, Cell
from app.web import boardcache
from app.web.templating import environment


def fresh(place, play: bool) -> Markup:
    """The place drawn by its macro now, past every cache."""
    module = environment.get_template("_cards.html").module
    if isinstance(place, Cell):
        return module.gaps_cell(place, play)
    return module.removed_slot(place.loc) if place.card is None else module.card(place, play)


def boards_along_a_game(preset_slug: str, seed: int, moves: int = 40):
    preset = PRESETS[preset_slug]
    variant = get_game(preset.game)
    record = GameRecord.new(variant.name, preset.rules, variant.deal(seed))
    rng = random.Random(seed)
    for _ in range(moves):
        position = record.position
        yield BOARDS[variant.family](position, None)
        legal = position.legal_moves()
        if not legal:
            return
        selected = rng.choice(legal)
        record = record.play(selected)


def rows_of(board):
    if board.family == "gaps":
        return list(board.rows)
    rows = [row for pyramid in board.pyramids for row in pyramid]
    piles = [s for s in (board.stock, board.waste) if s is not None]
    piles += [top for _, top in board.reserves if top is not None]
    return rows + [(s,) for s in piles]


@pytest.mark.parametrize("preset", ["pyramid", "giza", "double-pyramid", "gaps", "gaps-danish"])
def test_kept_places_and_rows_equal_fresh_rendering(preset):
    for language in i18n.LANGUAGES:
        i18n.set_language(language)
        try:
            for board in boards_along_a_game(preset, seed=11):
                for row in rows_of(board):
                    for play in (True, False):
                        expected = [fresh(place, play) for place in row]
                        assert [boardcache.place(place, play) for place in row] == expected
                        assert boardcache.row(row, play) == Markup("").join(expected)
        finally:
            i18n.set_language(i18n.DEFAULT_LANGUAGE)


def test_a_kept_card_is_drawn_in_each_language_of_its_own():
    board = next(boards_along_a_game("pyramid", seed=3))
    slot = board.pyramids[0][6][0]
    drawn = {}
    for language in i18n.LANGUAGES:
        i18n.set_language(language)
        drawn[language] = boardcache.place(slot)
    i18n.set_language(i18n.DEFAULT_LANGUAGE)
    assert len(set(drawn.values())) == 3  # the spoken names differ


def test_templates_translate_when_they_render():
    template = environment.from_string('<b>{{ _("Undo") }}</b> {{ ngettext("%(num)d hint used", "%(num)d hints used", n) }}')
    for language, expected in {"da": "<b>Fortryd</b>", "sv": "<b>Ångra</b>", "en": "<b>Undo</b>"}.items():
        i18n.set_language(language)
        assert template.render(n=2).startswith(expected)
    i18n.set_language(i18n.DEFAULT_LANGUAGE)
    assert environment.from_string('{{ _("gap after {card}").format(card="<i>") }}').render() == "gap after &lt;i&gt;"


def test_a_board_fragment_renders_its_three_blocks(client):
    page = client.get("/play/pyramid/7", follow_redirects=True)
    fragment = client.get(page.url.path, headers={"HX-Request": "true"})
    text = fragment.text
    assert fragment.status_code == 200 and "<html" not in text
    assert 'id="board"' in text and 'id="announce" hx-swap-oob' in text and 'id="share" hx-swap-oob' in text
    assert 'aria-label="Game board"' in text and 'data-card="' in text
