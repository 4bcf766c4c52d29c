"""app.i18n as the page's offline engine has it (shipped as ``app/i18n.py`` in its bundle,
app/web/views/offline_bundle.py): the same functions the board's templates and app/web/views/card_words.py
call, over the compiled catalogs read by the standard library's gettext, without Babel (which
the bundle leaves out: it would weigh megabytes). Never imported by the server itself.
"""

from __future__ import annotations

import gettext as _gettext
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path

# in the bundle this file is app/i18n.py, beside app/locale; in the repository (its tests) it
# is app/web/views/offline_i18n.py, three folders below it
_HERE = Path(__file__).resolve().parent
LOCALE_DIR = next((p / "locale" for p in (_HERE, *_HERE.parents) if (p / "locale").is_dir()), _HERE / "locale")
LANGUAGES = ("da", "sv", "en")
DEFAULT_LANGUAGE = "en"
LANGUAGE: ContextVar[str] = ContextVar("tretten_language", default=DEFAULT_LANGUAGE)


def N_(message: str) -> str:
    return message


@lru_cache
def translations_for(language: str) -> _gettext.NullTranslations:
    return _gettext.translation("messages", str(LOCALE_DIR), [language], fallback=True)


def set_language(language: str) -> None:
    LANGUAGE.set(language if language in LANGUAGES else DEFAULT_LANGUAGE)


def current_language() -> str:
    return LANGUAGE.get()


def gettext(message: str) -> str:
    return translations_for(LANGUAGE.get()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return translations_for(LANGUAGE.get()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    return translations_for(LANGUAGE.get()).pgettext(context, message)


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    return translations_for(LANGUAGE.get()).npgettext(context, singular, plural, n)
