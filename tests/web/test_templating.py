"""The template environment: what every template can see, however it was loaded."""

from __future__ import annotations

from app.web.heap import freeze_startup_heap
from app.web.templating import env


def test_every_template_sees_every_global_of_the_environment(app):
    # templates copy the globals when they load (a plain dict, not Jinja's ChainMap, for
    # speed), so a global added after a template loaded would be missing from it
    freeze_startup_heap()  # what start-up does: every template is loaded
    names = env.list_templates(extensions=["html"])
    assert "game.html" in names and "_cards.html" in names
    for name in names:
        template = env.get_template(name)
        assert type(template.globals) is dict, name
        missing = set(env.globals) - set(template.globals)
        assert not missing, f"{name} does not see {sorted(missing)}"


def test_a_board_fragment_renders_its_three_blocks_with_the_globals(client):
    page = client.get("/play/pyramid/7", follow_redirects=True)
    fragment = client.get(page.url.path, headers={"HX-Request": "true"})
    text = fragment.text
    assert fragment.status_code == 200 and "<html" not in text
    assert 'id="board"' in text and 'id="announce" hx-swap-oob' in text and 'id="share" hx-swap-oob' in text
    assert 'aria-label="Game board"' in text  # gettext, a global
    assert 'data-card="' in text  # card_button, a memoized global
