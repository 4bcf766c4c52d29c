"""/api/docs in Chromium: Swagger UI from node_modules renders the API's operations under the
app's own Content-Security-Policy, with no CSP violation and no request off the site."""

from __future__ import annotations

from urllib.parse import urlsplit

from .conftest import shot


def test_api_docs_renders_the_operations_under_the_csp(server, new_page):
    page = new_page()
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    response = page.goto(server + "/api/docs")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    page.wait_for_selector(".opblock-summary-path")
    paths = set(page.locator(".opblock-summary-path").all_inner_texts())
    assert {"/api/players", "/api/games", "/api/games/{game_id}/moves", "/api/deals/{preset}/{seed}"} <= paths
    assert page.locator(".info .title").inner_text().startswith("Tretten")

    # an operation opens and shows its documented responses, the 409's current game among them
    page.locator(".opblock-summary-path", has_text="/api/games/{game_id}/moves").first.click()
    page.wait_for_selector(".responses-table")
    codes = set(page.locator(".opblock.is-open .response-col_status").all_inner_texts())
    assert {"200", "400", "409", "422"} <= {code.strip() for code in codes}
    shot(page, "api-docs-1280")

    assert page.js_errors == [], page.js_errors  # a CSP violation is a console error
    origin = urlsplit(server).netloc
    assert {urlsplit(url).netloc for url in requested if not url.startswith("data:")} == {origin}


def test_api_docs_on_a_phone(server, new_page):
    page = new_page(width=390, height=844)
    page.goto(server + "/api/docs")
    page.wait_for_selector(".opblock-summary-path")
    shot(page, "api-docs-390")
    assert page.js_errors == [], page.js_errors
