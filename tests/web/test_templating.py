"""The templates' gettext callables behave as the ones Jinja's i18n extension installs."""

from __future__ import annotations

import pytest
from jinja2 import Environment

from app import i18n
from app.web.templating import environment

SNIPPETS = [
    '{{ _("Moves") }}',
    '{{ gettext("Game board") }}',
    '{{ _("%(first)s and %(second)s", first="<b>", second=3) }}',
    '{{ _("100%% sure") }}',
    '{{ _("{first} + {second}").format(first="<i>", second="K") }}',
    '{{ ngettext("The solver has proven that the remaining %(num)d move wins.", '
    '"The solver has proven that the remaining %(num)d moves win.", 1) }}',
    '{{ ngettext("%(num)d day played, %(won)d won.", "%(num)d days played, %(won)d won.", 4, won=2) }}',
    '{{ pgettext("link: watch the game again", "Replay") }}',
    '{{ pgettext("ctx", "%(context)s and %(x)s", x="&") }}',
    '{{ npgettext("ctx", "%(num)d card", "%(num)d cards", 2) }}',
    '{% trans %}Moves{% endtrans %}',
    '{% trans n=3 %}{{ n }} & 100%{% endtrans %}',
    '{% trans count=2 %}{{ count }} card{% pluralize %}{{ count }} cards{% endtrans %}',
    '{{ _("Moves") ~ "<" }}',
]


def reference() -> Environment:
    """Jinja's own newstyle callables, as install_gettext_callables makes them."""
    env = Environment(extensions=["jinja2.ext.i18n"], autoescape=True)
    env.install_gettext_callables(  # type: ignore[attr-defined]
        i18n.gettext, i18n.ngettext, newstyle=True, pgettext=i18n.pgettext, npgettext=i18n.npgettext)
    env.globals.update({k: v for k, v in environment.globals.items() if k not in env.globals and k != "_"})
    return env


@pytest.mark.parametrize("language", i18n.LANGUAGES)
@pytest.mark.parametrize("source", SNIPPETS)
def test_gettext_callables_render_as_jinjas_newstyle_ones(source, language):
    i18n.set_language(language)
    try:
        ours = environment.from_string(source).render()
        theirs = reference().from_string(source).render()
    finally:
        i18n.set_language(i18n.DEFAULT_LANGUAGE)
    assert ours == theirs


def test_a_translation_is_trusted_and_its_variables_are_escaped():
    out = environment.from_string('{{ _("%(x)s", x="<script>") }}').render()
    assert out == "&lt;script&gt;"


def test_a_translated_text_in_danish():
    i18n.set_language("da")
    try:
        assert environment.from_string('{{ _("Moves") }}').render() != "Moves"
    finally:
        i18n.set_language(i18n.DEFAULT_LANGUAGE)
