import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine import (
    DECK,
    Card,
    InvalidDealError,
    NotationError,
    card,
    deal_for_seed,
    format_deal,
    parse_card,
    parse_deal,
)
from app.engine.variants import GAMES, get_game


def test_every_card_code_round_trips():
    assert len(set(DECK)) == 52
    for c in DECK:
        assert parse_card(c.code) is c
        assert parse_card(c.code.lower()) is c
        assert str(c) == c.code


def test_ten_may_be_written_10():
    assert parse_card("10h") == card(10, "H") == Card(10, "H")
    assert card(10, "H").code == "TH"


@pytest.mark.parametrize("bad", ["", "1H", "11S", "KX", "AHH", "H7"])
def test_bad_card_codes_are_refused(bad):
    with pytest.raises(NotationError):
        parse_card(bad)


def test_deal_parses_loosely_and_prints_canonically():
    text = format_deal(deal_for_seed("pyramid", 3))
    messy = "  " + "   ".join(code.lower() for code in text.split()).replace("t", "10") + " "
    assert format_deal(parse_deal(messy)) == text


def test_double_deck_deal_holds_each_card_twice():
    deal = deal_for_seed("double-pyramid", 3)
    assert len(deal) == 104
    assert format_deal(parse_deal(format_deal(deal), copies=2)) == format_deal(deal)


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda t: t[:-1], "has 51 cards, expected 52"),
        (lambda t: t + ["2C"], "token 52 '2C'"),
        (lambda t: t[:10] + ["ZZ"] + t[11:], "token 10 'ZZ' is not a card"),
        (lambda t: t[:5] + [t[3]] + t[6:], f"token 5"),
    ],
)
def test_bad_deals_name_the_first_offending_token(mutate, message):
    tokens = format_deal(deal_for_seed("pyramid", 9)).split()
    with pytest.raises(InvalidDealError, match=message.replace("(", r"\(")):
        parse_deal(" ".join(mutate(tokens)))


def test_a_third_copy_in_a_double_deal_is_refused():
    tokens = format_deal(deal_for_seed("double-pyramid", 1)).split()
    first = tokens[0]
    second = tokens.index(first, 1)
    tokens[-1] = first  # the third copy of `first`, at the last position
    with pytest.raises(InvalidDealError, match="token 103"):
        parse_deal(" ".join(tokens), copies=2)
    assert second < 103


# ---------------------------------------------------------------- the deal as play sees it

SUIT_ORDERS = st.permutations("CDHS")


def _renamed(deal, order) -> tuple:
    names = dict(zip("CDHS", order, strict=True))
    return tuple(card(c.rank, names[c.suit]) for c in deal)


@settings(max_examples=60)
@given(st.sampled_from(sorted(GAMES)), st.integers(0, 2**64 - 1), SUIT_ORDERS)
def test_a_deal_with_its_suits_renamed_is_the_same_game(name, seed, order):
    """Pyramid reads only ranks, Gaps not which suit is which: suits renamed consistently, a deal
    keeps its key (a line of one plays on the other, its cards renamed)."""
    variant = get_game(name)
    deal = variant.deal(seed)
    assert variant.deal_key(_renamed(deal, order)) == variant.deal_key(deal)


@settings(max_examples=60)
@given(st.sampled_from(sorted(GAMES)), st.integers(0, 2**64 - 1), st.data())
def test_cards_that_trade_places_make_another_game(name, seed, data):
    """Two cards of different ranks trading places change the key (for Gaps two of one rank
    and different suits too: each row is built in one suit)."""
    variant = get_game(name)
    deal = list(variant.deal(seed))
    i = data.draw(st.integers(0, len(deal) - 1))
    j = data.draw(st.integers(0, len(deal) - 1).filter(lambda j: deal[j].rank != deal[i].rank))
    before = variant.deal_key(tuple(deal))
    deal[i], deal[j] = deal[j], deal[i]
    assert variant.deal_key(tuple(deal)) != before


def _same_game_forms(name: str, deal: tuple, chance) -> list[tuple]:
    """The deal in the forms its game's play cannot tell apart (``Variant.deal_key``)."""
    variant = get_game(name)
    forms = []
    if variant.family == "gaps":
        rows = [deal[13 * r:13 * r + 13] for r in range(4)]
        chance.shuffle(rows)
        forms.append(tuple(c for row in rows for c in row))  # the rows in another order
        return forms
    # Pyramid: a rank's group {v, 13 - v} renamed, its two ranks swapped; a pyramid mirrored
    groups = [(v, 13 - v) for v in range(1, 7)]
    chance.shuffle(groups)
    ranks = {13: 13}
    for (v, w), (x, y) in zip([(v, 13 - v) for v in range(1, 7)], groups, strict=True):
        ranks[v], ranks[w] = (x, y) if chance.random() < .5 else (y, x)
    forms.append(tuple(card(ranks[c.rank], c.suit) for c in deal))
    size = variant.table.size
    mirrored = [deal[(k // 28) * 28 + _row_start(k % 28) + _row_of(k % 28) - (k % 28 - _row_start(k % 28))]
                for k in range(size)]
    forms.append(tuple(mirrored) + tuple(deal[size:]))
    if variant.table.pyramids == 2:
        forms.append(tuple(deal[28:56]) + tuple(deal[:28]) + tuple(deal[56:]))
    if variant.table.reserve_piles:
        piles = [deal[size + 3 * k:size + 3 * k + 3] for k in range(variant.table.reserve_piles)]
        chance.shuffle(piles)
        forms.append(tuple(deal[:size]) + tuple(c for pile in piles for c in pile))
    return forms


def _row_of(index: int) -> int:
    return next(r for r in range(7) if index < (r + 1) * (r + 2) // 2)


def _row_start(index: int) -> int:
    r = _row_of(index)
    return r * (r + 1) // 2


@settings(max_examples=60)
@given(st.sampled_from(sorted(GAMES)), st.integers(0, 2**64 - 1), st.randoms(use_true_random=False))
def test_a_deal_in_a_form_play_cannot_tell_apart_is_the_same_game(name, seed, chance):
    """Pyramid: rank groups renamed, a pyramid mirrored, two swapped, Giza's piles reordered;
    Gaps: its rows reordered. The same key: a line found on one plays on the other, renamed."""
    variant = get_game(name)
    deal = variant.deal(seed)
    for form in _same_game_forms(name, deal, chance):
        assert sorted(form, key=str) == sorted(deal, key=str)  # the same cards
        assert variant.deal_key(form) == variant.deal_key(deal)


def test_pyramid_reads_ranks_only_and_gaps_the_suits_pattern():
    deal = get_game("pyramid").deal(7)
    mixed = tuple(card(c.rank, "CDHS"[(c.rank + i) % 4]) for i, c in enumerate(deal))  # not a renaming
    assert get_game("pyramid").deal_key(mixed) == get_game("pyramid").deal_key(deal)
    gaps = get_game("gaps").deal(7)
    one_pair_swapped = tuple(card(c.rank, {"C": "D", "D": "C"}.get(c.suit, c.suit)) if c.rank == 5 else c
                             for c in gaps)
    assert get_game("gaps").deal_key(one_pair_swapped) != get_game("gaps").deal_key(gaps)
