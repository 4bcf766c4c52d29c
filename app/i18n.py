"""Languages: gettext catalogs under app/locale, chosen per request.

The .po files are the source; .mo files are build output (gitignored). They are
compiled by `pybabel compile -d app/locale` at install time, and `ensure_compiled()`
rebuilds any that are missing or older than their .po so a fresh checkout still runs.

The compiled catalogs are read by the standard library's gettext, and Babel is imported only
to compile them: the page's offline engine ships this very module (app/web/views/offline_bundle.py)
without Babel, which would weigh megabytes.
"""

from __future__ import annotations

import contextlib
import gettext as _gettext
from collections.abc import Iterator
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
LANGUAGES = ("da", "sv", "en")
DEFAULT_LANGUAGE = "en"
LANGUAGE_NAMES = {"da": "Dansk", "sv": "Svenska", "en": "English"}

# the language of the page being drawn (set by app.web.views.templating.render)
LANGUAGE: ContextVar[str] = ContextVar("tretten_language", default=DEFAULT_LANGUAGE)


def ensure_compiled() -> None:
    from babel.messages.mofile import write_mo  # only here: the offline engine runs without Babel
    from babel.messages.pofile import read_po

    for po_path in LOCALE_DIR.glob("*/LC_MESSAGES/messages.po"):
        mo_path = po_path.with_suffix(".mo")
        if mo_path.exists() and mo_path.stat().st_mtime >= po_path.stat().st_mtime:
            continue
        with po_path.open("rb") as po_file:
            catalog = read_po(po_file, locale=po_path.parent.parent.name)
        with mo_path.open("wb") as mo_file:
            write_mo(mo_file, catalog)
    translations_for.cache_clear()


@lru_cache
def translations_for(language: str) -> _gettext.NullTranslations:
    """The language's compiled catalog, read anew (gettext.translation would hand back a copy
    of the one it read first, older than a catalog ensure_compiled has just rebuilt)."""
    found = _gettext.find("messages", str(LOCALE_DIR), [language])
    if found is None:
        return _gettext.NullTranslations()
    with open(found, "rb") as mo_file:
        return _gettext.GNUTranslations(mo_file)


def negotiate(accept_language: str | None) -> str:
    """The best of our languages for an Accept-Language header (q-values honoured)."""
    ranked: list[tuple[float, int, str]] = []
    for index, part in enumerate((accept_language or "").split(",")[:20]):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                quality = 0.0
        primary = tag.strip().lower().split("-")[0]
        if primary == "nb" or primary == "nn" or primary == "no":
            primary = "da"  # Norwegian readers understand Danish far better than English
        if primary in LANGUAGES and quality > 0:
            ranked.append((-quality, index, primary))
    return min(ranked)[2] if ranked else DEFAULT_LANGUAGE


def N_(text: str) -> str:
    """Marks a text for the catalogs (Babel extracts N_) without translating it: the page that
    shows it translates it while it renders, in the player's language."""
    return text


def set_language(language: str) -> None:
    LANGUAGE.set(language if language in LANGUAGES else DEFAULT_LANGUAGE)


@contextlib.contextmanager
def language_of(language: str) -> Iterator[None]:
    """``language`` (as ``set_language`` takes it) while the block runs, then the one before:
    for work done outside a request, whose language would otherwise outlive it."""
    token = LANGUAGE.set(language if language in LANGUAGES else DEFAULT_LANGUAGE)
    try:
        yield
    finally:
        LANGUAGE.reset(token)


def current_language() -> str:
    return LANGUAGE.get()


def gettext(message: str) -> str:
    return translations_for(LANGUAGE.get()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return translations_for(LANGUAGE.get()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """A text whose English is used in more than one sense ("Won" as a banner and as a
    statistic): the context, a short description of the use, tells the translations apart."""
    return translations_for(LANGUAGE.get()).pgettext(context, message)


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    return translations_for(LANGUAGE.get()).npgettext(context, singular, plural, n)
