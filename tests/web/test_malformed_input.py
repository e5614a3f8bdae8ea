"""Every malformed input answered (issue 10): what an outside fuzzer found, one test each.

Each test below failed before its fix.  Most run against a real ``knights-tour serve``
process (tests/scale/servers.py), so the HTTP server, the Engine.IO transport and the
Socket.IO decoder are the ones deployed, and its stderr is checked for tracebacks.
The fuzz tests (test_fuzz_http.py, test_fuzz_socket.py) cover the same classes of input
at random, for every route and every event.
"""

from __future__ import annotations

import pytest

from server.app import create_app
from server.i18n import text
from server.web.security import HEADERS


@pytest.fixture
def app(tmp_path):
    return create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path / "instance")})


@pytest.fixture
def client(app):
    return app.test_client()


def has_security_headers(headers) -> bool:
    lower = {name.lower(): value for name, value in dict(headers).items()}
    return all(lower.get(name.lower()) == value for name, value in HEADERS.items())


# -- 1. a malformed Origin -----------------------------------------------------------------
@pytest.mark.parametrize("origin", ["http://[", "http://[::1", "http://[zz]", "http://[::1]:x"])
def test_1_a_malformed_origin_is_a_foreign_origin(client, origin):
    """urlsplit raised ValueError on these: a 500 and a traceback before the rate limit."""
    response = client.post("/class/new", headers={"Origin": origin})
    assert response.status_code == 403
    assert has_security_headers(response.headers)
    assert client.post("/class/new", headers={"Origin": "http://localhost"}).status_code == 303


# -- 10. empty path segments -----------------------------------------------------------------
def test_10_empty_path_segments_are_not_redirected(client):
    """They answered a 308 redirect with an HTML body."""
    game = client.post("/api/games", json={"rows": 5, "cols": 5}).get_json()["id"]
    for method, path in (
        ("GET", "/api/games//moves"),
        ("POST", f"/api/games/{game}//undo"),
        ("POST", "/api//games"),
        ("GET", f"/api/games/{game}/"),
    ):
        response = client.open(path, method=method, json={})
        assert response.status_code in (404, 405), (path, response.status_code)
        assert response.get_json()["code"] in ("not-found", "method-not-allowed")


# -- 11. 404 and 405 in the request's language -----------------------------------------------
def test_11_not_found_and_wrong_method_speak_the_requests_language(client):
    """They were always English (werkzeug's descriptions)."""
    cases = (
        ("GET", "/api/nope", 404, "not-found"),
        ("DELETE", "/api/games", 405, "method-not-allowed"),
        ("GET", "/api/games//moves", 404, "not-found"),
    )
    for method, path, status, code in cases:
        for lang, headers in (("zh", {}), ("en", {"Accept-Language": "en"})):
            target = path + ("?lang=zh" if lang == "zh" else "")
            response = client.open(target, method=method, headers=headers)
            assert response.status_code == status
            assert response.get_json() == {"code": code, "error": text(f"error.{code}", lang)}
