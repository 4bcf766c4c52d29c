"""The result to share (app/web/views/sharing.py): real wording in da, sv and en, and the picture."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, datetime, timedelta, timezone

import pytest

from app.db.models import Game
from app.engine import GameRecord, GapsPosition, card, deal_for_seed, get_game, get_preset
from app.i18n import translations_for
from app.services.errors import InputError, NotFoundError
from app.web.views import sharing
from app.web.views.formatting import duration
from app.web.views.preset_words import preset_summary

G, W, H = "🟩", "⬜", "\u2002"  # cleared, left, half a square of indent
URL = "https://tretten.example/deal/pyramid/18?from=g1"

# Pyramid seed 18: a win in 38 moves, and a loss after 30 (draws, and a few pairs)
WIN = ("P22 P23+P24 P25+P26 P16+P18 D S+W D P17+S P27+S P20 S+W P12+S D D D D D P11+S D D P19+S "
       "P13+P21 P7+P15 P10 P6+W P8+W P14+W S+W S+W S+W S D P9+S P4+P5 P2+P3 S+W P1+W P0+S")
LOSS = ("D D D D D D P25+P26 D D D D P19+P27 D D D P22 D D P23+W D D D D S P20 P14+P21 D D D D")

CLEARED = "\n".join([
    H * 6 + G,
    H * 5 + G * 2,
    H * 4 + G * 3,
    H * 3 + G * 4,
    H * 2 + G * 5,
    H * 1 + G * 6,
    G * 7,
])
AFTER_LOSS = "\n".join([
    H * 6 + W,
    H * 5 + W * 2,
    H * 4 + W * 3,
    H * 3 + W * 4,
    H * 2 + W * 4 + G,
    H * 1 + W * 4 + G * 2,
    G * 3 + W + G * 3,
])


def _played(moves: str, preset: str = "pyramid", seed: int = 18) -> GameRecord:
    rules = get_preset(preset).rules
    deal = GameRecord.new(get_preset(preset).game, rules, deal_for_seed(get_preset(preset).game, seed)).deal_text
    return GameRecord.from_text(get_preset(preset).game, rules, deal, moves)


def _game(record: GameRecord, **fields) -> Game:
    values = dict(preset="pyramid", game=record.game, seed=18, deal=record.deal_text, moves=record.moves_text,
                  cursor=record.cursor, status=record.position.status, seconds=161, undo_count=0,
                  hint_count=0, daily_on=None, abandoned=False, auto_finished=False)
    values.update(fields)
    return Game(**values)


def _share(record: GameRecord, language: str, **fields) -> str:
    return sharing.share_text(_game(record, **fields), record.position, language, URL)


# ---------------------------------------------------------------- the wording

@pytest.mark.parametrize(("language", "title", "result"), [
    ("en", "Tretten · Pyramid · Seed 18", "Won in 38 moves, 2:41 · 2 undos, no hints"),
    ("da", "Tretten · Pyramide · Spilnummer 18", "Vundet på 38 træk, 2:41 · fortrudt 2 gange, uden tip"),
    ("sv", "Tretten · Pyramid · Spelnummer 18", "Vunnet på 38 drag, 2:41 · 2 ångringar, utan ledtrådar"),
])
def test_a_won_game(language, title, result):
    record = _played(WIN)
    assert record.position.status == "won"
    assert _share(record, language, undo_count=2) == "\n".join([title, result, CLEARED, URL])


@pytest.mark.parametrize(("abandoned", "language", "result"), [
    (True, "en", "Lost after 30 moves, 12:05 · no undos, 3 hints"),
    (True, "da", "Tabt efter 30 træk, 12:05 · uden at fortryde, 3 tip"),
    (True, "sv", "Förlorat efter 30 drag, 12:05 · utan att ångra, 3 ledtrådar"),
    (False, "en", "No moves left after 30 moves, 12:05 · no undos, 3 hints"),
    (False, "da", "Gået i stå efter 30 træk, 12:05 · uden at fortryde, 3 tip"),
    (False, "sv", "Fastnade efter 30 drag, 12:05 · utan att ångra, 3 ledtrådar"),
])
def test_a_game_with_no_moves_left(abandoned, language, result):
    """Given up (or replaced, or idle for a day): lost. Until then the end panel offers an undo
    or giving up, and the result to share says what is so: not yet lost."""
    record = _played(LOSS)
    assert record.position.status == "lost"
    text = _share(record, language, seconds=725, hint_count=3, abandoned=abandoned)
    assert text.split("\n")[1] == result
    assert text.split("\n")[2:] == AFTER_LOSS.split("\n") + [URL]


@pytest.mark.parametrize(("language", "result"), [
    ("en", "Won in 38 moves, 1:00:05 · 1 undo, 1 hint, auto-finished"),
    ("da", "Vundet på 38 træk, 1:00:05 · fortrudt 1 gang, 1 tip, afsluttet af løseren"),
    ("sv", "Vunnet på 38 drag, 1:00:05 · 1 ångring, 1 ledtråd, avslutat av lösaren"),
])
def test_one_undo_one_hint_an_hour_and_the_solvers_finish(language, result):
    text = _share(_played(WIN), language, seconds=3605, undo_count=1, hint_count=1, auto_finished=True)
    assert text.split("\n")[1] == result


@pytest.mark.parametrize(("language", "title"), [
    ("en", "Tretten · Pyramid · Daily deal 1 December 2026"),
    ("da", "Tretten · Pyramide · Dagens kabale 1. december 2026"),
    ("sv", "Tretten · Pyramid · Dagens giv 1 december 2026"),
])
def test_the_daily_deal_says_which_day(language, title):
    text = _share(_played(WIN), language, daily_on=date(2026, 12, 1), seed=1234567890123456789)
    assert text.split("\n")[0] == title
    assert "1234567890123456789" not in text  # the day names the deal, not its long seed


@pytest.mark.parametrize(("language", "result"), [
    ("en", "Lost after {n} moves (left unfinished) · no undos, no hints"),
    ("da", "Tabt efter {n} træk (afbrudt) · uden at fortryde, uden tip"),
    ("sv", "Förlorat efter {n} drag (avbrutet) · utan att ångra, utan ledtrådar"),
])
def test_a_game_left_unfinished_is_lost_as_the_statistics_count_it(language, result):
    record = _played(LOSS.rsplit(" ", 6)[0])
    assert record.position.status == "playing"
    assert _share(record, language, abandoned=True, seconds=None).split("\n")[1] == result.format(n=24)
    # finished after it was left: still the loss the statistics count
    assert _share(_played(WIN), language, abandoned=True, seconds=None).split("\n")[1] == result.format(n=38)


def test_a_game_idle_for_a_day_is_lost_as_left_unfinished():
    record = _played(LOSS.rsplit(" ", 6)[0])
    long_ago = datetime.now(timezone.utc) - timedelta(days=2)
    text = _share(record, "en", seconds=None, started_at=long_ago, updated_at=long_ago)
    assert text.split("\n")[1] == "Lost after 24 moves (left unfinished) · no undos, no hints"
    recent = datetime.now(timezone.utc) - timedelta(hours=2)
    with pytest.raises(InputError):  # still in play
        _share(record, "en", seconds=None, started_at=recent, updated_at=recent)


def test_a_deal_without_a_seed_has_no_number():
    assert _share(_played(WIN), "en", seed=None).split("\n")[0] == "Tretten · Pyramid"


def test_the_preset_names_the_game():
    record = _played(WIN)
    assert _share(record, "da", preset="pyramid-3").split("\n")[0] == "Tretten · Pyramide, 3 gennemgange · Spilnummer 18"


def test_a_game_in_play_has_no_result_to_share():
    record = _played(WIN.split(" ", 1)[0])
    with pytest.raises(InputError) as caught:
        _share(record, "en")
    assert caught.value.key == "not_finished"


def test_an_unknown_language_is_refused():
    with pytest.raises(InputError):
        _share(_played(WIN), "de")


def test_the_clock():
    # one format for a game's time: the share text, /stats, the tables and the board's clock
    assert [duration(s) for s in (0, 9, 61, 600, 3599, 3600, 36061)] == \
        ["0:00", "0:09", "1:01", "10:00", "59:59", "1:00:00", "10:01:01"]


# ---------------------------------------------------------------- the picture

def test_a_pyramid_at_the_start_is_all_left():
    position = _played("").position
    assert sharing.picture(position) == CLEARED.replace(G, W)


def test_a_partly_cleared_pyramid_shows_which_cards_went():
    position = _played("").position
    gone = [0, 1, 5, 21, 27]  # the apex, the left card below it, row 2's right end, row 6's ends
    position = replace(position, removed=sum(1 << i for i in gone))
    assert sharing.picture(position).split("\n") == [
        H * 6 + G,
        H * 5 + G + W,
        H * 4 + W * 2 + G,
        H * 3 + W * 4,
        H * 2 + W * 5,
        H * 1 + W * 6,
        G + W * 5 + G,
    ]


def test_giza_is_drawn_as_its_pyramid():
    record = _played("", "giza", 1)
    position = replace(record.position, removed=(1 << 28) - 1 - (1 << 27))
    assert sharing.picture(position).split("\n")[-1] == G * 6 + W
    assert sharing.picture(position).split("\n")[:-1] == CLEARED.split("\n")[:-1]


def test_double_pyramid_draws_both_pyramids_side_by_side():
    position = _played("", "double-pyramid", 0).position
    position = replace(position, removed=(1 << 28) - 1 | 1 << 28)  # the left pyramid and the right apex
    lines = sharing.picture(position).split("\n")
    assert len(lines) == 7
    assert lines[0] == H * 6 + G + H * 14 + G
    assert lines[1] == H * 5 + G * 2 + H * 12 + W * 2
    assert lines[6] == G * 7 + H * 2 + W * 7


def test_gaps_shows_each_rows_cards_in_their_run():
    rules = get_preset("gaps").rules
    row0 = [card(r, "C") for r in range(2, 14)] + [None]                           # finished
    row1 = [card(2, "H"), card(3, "H"), card(4, "H"), None] + [card(r, "H") for r in range(5, 14)]
    row2 = [None] + [card(r, "S") for r in range(2, 14)]                           # a gap first
    row3 = [card(3, "D"), card(2, "D")] + [card(r, "D") for r in range(4, 14)] + [None]  # no 2 first
    grid = tuple(row0 + row1 + row2 + row3)
    position = GapsPosition(rules, "", grid)
    assert position.correct_prefix_lengths() == (12, 3, 0, 0)
    assert sharing.picture(position) == "\n".join([G * 12, G * 3 + W * 9, W * 12, W * 12])


def test_a_won_gaps_game_is_all_green_and_a_dealt_one_counts_its_runs():
    rules = get_preset("gaps").rules
    position = get_game("gaps").new_position(deal_for_seed("gaps", 0), rules)
    lines = sharing.picture(position).split("\n")
    assert len(lines) == 4 and all(len(line) == 12 and set(line) <= {G, W} for line in lines)
    assert [line.count(G) for line in lines] == list(position.correct_prefix_lengths())
    won = tuple(c for s in "CDHS" for c in [card(r, s) for r in range(2, 14)] + [None])
    assert sharing.picture(GapsPosition(rules, "", won)) == "\n".join([G * 12] * 4)


def test_a_gaps_share_text_under_the_danish_rule():
    preset = get_preset("gaps-danish")
    record = GameRecord.new(preset.game, preset.rules, deal_for_seed("gaps", 3)).play("N").play("N")
    game = _game(record, preset="gaps-danish", seed=3, status="lost", cursor=2, seconds=30, abandoned=True)
    text = sharing.share_text(game, record.position, "da", "https://tretten.example/deal/gaps-danish/3?from=g2")
    lines = text.split("\n")
    assert lines[0] == "Tretten · 13-kabalen, dansk husregel · Spilnummer 3"
    assert lines[1] == "Tabt efter 2 træk, 0:30 · uden at fortryde, uden tip"
    assert len(lines) == 2 + 4 + 1 and lines[-1].endswith("?from=g2")


# ---------------------------------------------------------------- link previews

@pytest.mark.parametrize(("language", "seeded", "daily"), [
    ("en", "Pyramid · Seed 123 · Tretten", "Gaps (Montana) · Daily deal 1 December 2026 · Tretten"),
    ("da", "Pyramide · Spilnummer 123 · Tretten", "13-kabalen (Gaps) · Dagens kabale 1. december 2026 · Tretten"),
    ("sv", "Pyramid · Spelnummer 123 · Tretten", "Gaps (Montana) · Dagens giv 1 december 2026 · Tretten"),
])
def test_a_link_title_names_the_game_and_the_deal_or_its_day(language, seeded, daily):
    assert sharing.link_title("pyramid", language, seed=123) == seeded
    assert sharing.link_title("gaps", language, seed=2**63, daily_on=date(2026, 12, 1)) == daily
    assert sharing.link_title("giza", language) == "Giza · Tretten"


@pytest.mark.parametrize(("language", "played", "once"), [
    ("en", "Played by 12 players, won by 3.", "Played by 1 player, won by 0."),
    ("da", "Spillet af 12 spillere, vundet af 3.", "Spillet af 1 spiller, vundet af 0."),
    ("sv", "Spelad av 12 spelare, vunnen av 3.", "Spelad av 1 spelare, vunnen av 0."),
])
def test_a_link_description_gives_the_rules_and_who_won(language, played, once):
    rules = preset_summary("pyramid", language)
    assert sharing.link_description("pyramid", language, players=12, winners=3) == f"{rules} {played}"
    assert sharing.link_description("pyramid", language, players=1, winners=0) == f"{rules} {once}"
    # the deal page's own words for a deal nobody has played (their wording is the deal page's)
    nobody = translations_for(language).gettext("Nobody has played this deal yet. Be the first.")
    assert nobody != "Nobody has played this deal yet. Be the first." or language == "en"
    assert sharing.link_description("pyramid", language, players=0, winners=0) == f"{rules} {nobody}"


def test_a_link_text_for_an_unknown_preset_is_not_found():
    with pytest.raises(NotFoundError):
        sharing.link_title("nope", "en", seed=1)
    with pytest.raises(NotFoundError):
        sharing.link_description("nope", "en", players=0, winners=0)
