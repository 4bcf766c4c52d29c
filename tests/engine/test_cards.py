import pytest

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
