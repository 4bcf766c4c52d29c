"""Seeds deal the same cards forever: these vectors must never change."""

import pytest

from app.engine import MAX_SEED, SplitMix64, deal_for_seed, format_deal, shuffled
from app.engine.seeding import text_seed

GOLDEN = {
    ("pyramid", 0): "8S JH 9C 2S 2D QD 6S TC 3D AC JC 7C 9H 8C QS KH 5H 2C 3H 5C AH 6C 4S TD "
    "5D 8H 8D AD QH TS QC JD 3S 4D 2H 9D 3C KD AS 7S 9S 7D JS 6H KS 4C 7H 5S 6D 4H KC TH",
    ("pyramid", 1): "7D 9C 4D 8H 8D 5S JD 6D 9S JC 5D KD 3C 2D JH 5H 7H 4H 2C AD 6S KC KH TH "
    "TS JS TD 8S QC 4S 6C 7C AS 5C AH KS 6H QS QH QD 9D 3D 3S AC 4C 2H 8C TC 3H 2S 9H 7S",
    ("pyramid", 42): "7C 3H KC AS 2S AC AH KD TD 5C 8S JH 2H 4S 6H 5D 2D 5S 6D AD 7D 2C 8H 8C "
    "4D 7H KS TS 4H 3D TH JS 4C 6S 7S 3S 8D QD 9S KH 5H 6C QS 9D JD QC 3C 9H QH 9C JC TC",
    ("gaps", MAX_SEED): "JC KS 7S 4C AD JH 5D 2H AH 7D 6D 6S 4D AS 4S 7H 3D 2D 9H QH 8D 3S "
    "5S 9S AC 8S QD TD 7C QS 9C 4H JD KH KC 6H 9D 8H 8C TH 6C KD 2S 3H QC JS 3C 5H TS 2C TC 5C",
    ("double-pyramid", 7): "9C 2S AC KD 4S KS 8S 4D TS 8S QD 9S 7H 3S 6D 2H 3D 4H 9H 7C 5H 4C "
    "6S QC 3D KH QD 5S JH TH JC JS 7S 9S 5D JC 6C JS TC 5D JD 5C 3H KH AS 9C 2C 5H AH 5C 9H 3C "
    "QS 2D JH AS TC AD KS 4S QS 7C 6H 8H TS 4H 6D KC 3S 9D 8D 6H 8C 2D 5S 7D 8C 8D 7D QH 2C QH "
    "TH 2H 4C 9D AH JD 3H AC 7S TD KD 6C 8H AD 6S 3C 7H TD 4D KC 2S QC",
}


def test_splitmix64_matches_the_reference_outputs():
    rng = SplitMix64(1234567)
    assert [rng.next() for _ in range(5)] == [
        6457827717110365317,
        3203168211198807973,
        9817491932198370423,
        4593380528125082431,
        16408922859458223821,
    ]


@pytest.mark.parametrize("game, seed", sorted(GOLDEN))
def test_golden_deals(game, seed):
    assert format_deal(deal_for_seed(game, seed)) == GOLDEN[(game, seed)]


def test_shuffle_is_a_permutation_and_depends_on_the_seed():
    items = list(range(30))
    assert sorted(shuffled(items, 5)) == items
    assert shuffled(items, 5) == shuffled(items, 5)
    assert shuffled(items, 5) != shuffled(items, 6)


@pytest.mark.parametrize("seed", [-1, MAX_SEED + 1])
def test_seeds_out_of_range_are_refused(seed):
    with pytest.raises(ValueError):
        deal_for_seed("pyramid", seed)


def test_text_seed_is_the_sha256_prefix():
    # sha256("abc") = ba7816bf8f01cfea…
    assert text_seed("abc") == 0xBA7816BF8F01CFEA
