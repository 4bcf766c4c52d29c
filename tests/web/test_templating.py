"""The template environment: what every template can see, however it was loaded."""

from __future__ import annotations

from app import i18n
from app.web.heap import freeze_startup_heap
from app.web.templating import environments


def test_every_template_sees_every_global_of_the_environment(app):
    # templates copy the globals when they load (a plain dict, not Jinja's ChainMap, for
    # speed), so a global added after a template loaded would be missing from it
    freeze_startup_heap()  # what start-up does: every template is loaded, in every language
    assert set(environments) == {"da", "sv", "en"}
    for language, env in environments.items():
        names = env.list_templates(extensions=["html"])
        assert "game.html" in names and "_cards.html" in names
        for name in names:
            template = env.get_template(name)
            assert type(template.globals) is dict, name
            missing = set(env.globals) - set(template.globals)
            assert not missing, f"{name} ({language}) does not see {sorted(missing)}"


def test_a_board_fragment_renders_its_three_blocks_with_the_globals(client):
    page = client.get("/play/pyramid/7", follow_redirects=True)
    fragment = client.get(page.url.path, headers={"HX-Request": "true"})
    text = fragment.text
    assert fragment.status_code == 200 and "<html" not in text
    assert 'id="board"' in text and 'id="announce" hx-swap-oob' in text and 'id="share" hx-swap-oob' in text
    assert 'aria-label="Game board"' in text  # gettext, a global
    assert 'data-card="' in text  # card_button, a memoized global


def _compiled_source(language: str, source: str) -> str:
    env = environments[language]
    return env.compile(source, raw=True)


def test_a_literal_text_is_translated_when_the_template_compiles():
    # the translation is a constant of the compiled code: no gettext call is left to run
    for language, expected in {"da": "Fortryd", "sv": "Ångra", "en": "Undo"}.items():
        code = _compiled_source(language, '<button>{{ _("Undo") }}</button>')
        assert expected in code and "gettext" not in code, language
        assert environments[language].from_string('<b>{{ _("Undo") }}</b>').render() == f"<b>{expected}</b>"


def test_folded_texts_are_escaped_and_still_format():
    env = environments["en"]
    assert env.from_string('{{ _("a < b") }}').render() == "a &lt; b"  # not in the catalog: the text itself
    assert env.from_string('{{ _("100%%") }}').render() == "100%"  # newstyle gettext %-formats
    rendered = env.from_string('{{ _("gap after {card}").format(card="<i>") }}').render()
    assert rendered == "gap after &lt;i&gt;"


def test_texts_with_variables_or_names_stay_calls_and_translate_at_render():
    code = _compiled_source("sv", '{{ _(label) }} {{ _("Undo", n=1) }}')
    assert code.count("context.call(") == 2 and "Ångra" not in code
    i18n.set_language("sv")
    try:
        text = environments["sv"].from_string(
            '{{ _(label) }}|{{ _("Undo", n=1) }}|{{ ngettext("%(num)d hint used", "%(num)d hints used", n) }}'
        ).render(label="Undo", n=2)
    finally:
        i18n.set_language("en")
    assert text == "Ångra|Ångra|2 ledtrådar använda"
