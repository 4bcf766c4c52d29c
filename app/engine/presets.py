"""The named rule sets the lobby offers: a game plus rule options, named and described in da, sv
and en, with what a player may expect to win of it where no player's figure was measured."""

from __future__ import annotations

from dataclasses import dataclass, field

from .errors import InvalidRulesError
from .variants import Rules, Variant, get_game


@dataclass(frozen=True)
class Preset:
    slug: str
    game: str
    options: dict[str, str] = field(hash=False)
    names: dict[str, str] = field(hash=False)
    summary: dict[str, str] = field(hash=False)
    expectation: dict[str, str] = field(hash=False)  # a player's chances in words (the odds page)

    @property
    def variant(self) -> Variant:
        return get_game(self.game)

    @property
    def rules(self) -> Rules:
        return self.variant.parse_rules(self.options)

    def name(self, language: str = "en") -> str:
        return _in(self.names, language)

    def described(self, language: str = "en") -> str:
        return _in(self.summary, language)

    def expected(self, language: str = "en") -> str:
        return _in(self.expectation, language)


def _in(words: dict[str, str], language: str) -> str:
    """The words in ``language``, English where it has none."""
    return words.get(language, words["en"])


def _in_languages(texts: tuple[str, str, str]) -> dict[str, str]:
    return dict(zip(("da", "sv", "en"), texts, strict=True))


def _preset(slug, game, options, names, summary, expectation) -> Preset:
    return Preset(slug, game, options, _in_languages(names), _in_languages(summary), _in_languages(expectation))


def _also(first: tuple[str, str, str], then: tuple[str, str, str]) -> tuple[str, str, str]:
    return tuple(f"{a} {b}" for a, b in zip(first, then, strict=True))  # type: ignore[return-value]


# what a player may expect where the solver's figure is known and a player's is not
_STOCK_UNKNOWN = ("Færre end løserens tal: En spiller kender ikke rækkefølgen i trækbunken.",
                  "Färre än lösarens siffra: en spelare känner inte till ordningen i talongen.",
                  "Fewer than the solver's figure: a player does not know the order of the stock.")
_ONE_PASS = ("Med én gennemgang færre end 1 kabale ud af 10.", "Med ett varv färre än 1 giv av 10.",
             "With one pass, fewer than 1 deal in 10.")
_MORE_PASSES = ("Klart flere end i Pyramide med én gennemgang.", "Klart fler än i Pyramiden med ett varv.",
                "Clearly more than one-pass Pyramid.")
_NO_ESTIMATE = ("Vi kender ikke noget pålideligt almindeligt skøn.",
                "Vi känner inte till någon pålitlig allmän uppskattning.",
                "No reliable common estimate is known.")


PRESETS: dict[str, Preset] = {
    p.slug: p
    for p in (
        _preset(
            "pyramid", "pyramid", {"passes": "1", "goal": "pyramid"},
            ("Pyramide", "Pyramid", "Pyramid"),
            ("Én gennemgang af trækbunken. Kabalen går op, når pyramiden er ryddet. Kendes også som Tut's Tomb.",
             "Ett varv genom talongen. Patiensen går ut när pyramiden är tom. Kallas också Tut's Tomb.",
             "One pass through the stock. Won when the pyramid is cleared. Also known as Tut's Tomb."),
            _also(_STOCK_UNKNOWN, _ONE_PASS),
        ),
        _preset(
            "pyramid-classic", "pyramid", {"passes": "1", "goal": "all"},
            ("Klassisk pyramide", "Klassisk pyramid", "Classic Pyramid"),
            ("Én gennemgang. Alle 52 kort skal væk, også trækbunken.",
             "Ett varv. Alla 52 kort ska bort, även talongen.",
             "One pass. All 52 cards must go, the stock too."),
            _also(_STOCK_UNKNOWN, _ONE_PASS),
        ),
        _preset(
            "pyramid-3", "pyramid", {"passes": "3", "goal": "pyramid"},
            ("Pyramide, 3 gennemgange", "Pyramid, 3 varv", "Pyramid, 3 passes"),
            ("Tre gennemgange af trækbunken. Kabalen går op, når pyramiden er ryddet.",
             "Tre varv genom talongen. Patiensen går ut när pyramiden är tom.",
             "Three passes through the stock. Won when the pyramid is cleared."),
            _also(_STOCK_UNKNOWN, _MORE_PASSES),
        ),
        _preset(
            "relaxed", "pyramid", {"passes": "unlimited", "goal": "pyramid", "overlap": "true"},
            ("Let pyramide", "Lätt pyramid", "Relaxed Pyramid"),
            ("Ubegrænsede gennemgange, og et kort må parres med det kort, der dækker det.",
             "Obegränsat antal varv, och ett kort får paras med kortet som täcker det.",
             "Unlimited passes, and a card may pair with the card that covers it."),
            _also(_STOCK_UNKNOWN, _MORE_PASSES),
        ),
        _preset(
            "giza", "giza", {"goal": "all"},
            ("Giza", "Giza", "Giza"),
            ("Ingen trækbunke: 24 kort ligger åbent i otte reservebunker. Alle 52 kort skal væk.",
             "Ingen talong: 24 kort ligger öppet i åtta reservhögar. Alla 52 kort ska bort.",
             "No stock: 24 cards lie face up in eight reserves. All 52 cards must go."),
            ("Højst omkring én kabale ud af tre: Giza skjuler intet kort, så omhyggelig planlægning kan komme "
             "tæt på løserens tal.",
             "Högst ungefär en giv av tre: Giza döljer inget kort, så noggrann planering kan komma nära lösarens "
             "siffra.",
             "At most about one deal in three: Giza hides no card, so careful planning can come close to the "
             "solver's figure."),
        ),
        _preset(
            "double-pyramid", "double-pyramid", {"passes": "3", "goal": "pyramid"},
            ("Dobbeltpyramide", "Dubbelpyramid", "Double Pyramid"),
            ("To kortspil, to pyramider, tre gennemgange. Ryd begge pyramider.",
             "Två kortlekar, två pyramider, tre varv. Töm båda pyramiderna.",
             "Two decks, two pyramids, three passes. Clear both pyramids."),
            _also(_STOCK_UNKNOWN, _NO_ESTIMATE),
        ),
        _preset(
            "gaps", "gaps", {"rounds": "3", "aces": "removed"},
            ("13-kabalen (Gaps)", "Gaps (Montana)", "Gaps (Montana)"),
            ("Internationale regler: Esserne fjernes, og enhver 2'er kan starte en række. Tre runder.",
             "Gaps (engelska för ”luckor”) kallas också Montana. Internationella regler: essen tas bort, "
             "och vilken tvåa som helst kan börja en rad. Tre omgångar.",
             "International rules: the aces leave, any 2 may open a row. Three rounds."),
            _NO_ESTIMATE,
        ),
        _preset(
            "gaps-danish", "gaps", {"rounds": "3", "aces": "starters"},
            ("13-kabalen, dansk husregel", "Gaps, dansk husregel", "Gaps, Danish house rule"),
            ("Esserne bliver rækkernes startkort og bestemmer hver rækkes kulør. Tre runder.",
             "Essen blir radernas startkort och bestämmer varje rads färg. Tre omgångar.",
             "The aces become row starters and fix each row's suit. Three rounds."),
            _NO_ESTIMATE,
        ),
    )
}


# Other names of a preset: a link with one (a share link, a daily deal, an API call) opens the
# preset itself. Tretten once listed Tut's Tomb beside Pyramid with exactly Pyramid's rules;
# Microsoft's Tut's Tomb draws three cards at a time and pairs the waste only with the pyramid
# (Solitaire Laboratory, docs/glossary.md), rules this engine does not play.
ALIASES: dict[str, str] = {"tuts-tomb": "pyramid"}


def presets_of(game: str) -> list[Preset]:
    """The presets that play the game called ``game``, in the lobby's order."""
    return [p for p in PRESETS.values() if p.game == game]


def get_preset(slug: str) -> Preset:
    try:
        return PRESETS[ALIASES.get(slug, slug)]
    except KeyError:
        raise InvalidRulesError(
            f"unknown preset {slug!r}: choose {', '.join(PRESETS)}"
        ) from None
