"""Security basics: headers on every response, per-client rate limits, safe defaults."""

from __future__ import annotations

import re

import pytest

from server.app import create_app
from server.web import ratelimit
from server.web.ratelimit import SlidingWindowLimiter, parse_rate
from server.web.security import HEADERS

ROOT_TEMPLATES = ("templates/base.html", "templates/index.html", "templates/watch.html")


@pytest.fixture
def app(tmp_path):
    return create_app({"INSTANCE_PATH": str(tmp_path / "instance"), "RATE_LIMIT_GAMES": "3/minute"})


@pytest.fixture
def client(app):
    return app.test_client()


def directives(policy: str) -> dict[str, list[str]]:
    out = {}
    for part in policy.split(";"):
        name, *values = part.split()
        out[name] = values
    return out


# -- headers ------------------------------------------------------------------
@pytest.mark.parametrize(
    "method, path, status",
    [
        ("GET", "/", 200),
        ("GET", "/watch", 200),
        ("GET", "/static/js/main.js", 200),
        ("GET", "/static/css/app.css", 200),
        ("GET", "/api/i18n", 200),
        ("GET", "/api/games/nope", 404),
        ("POST", "/api/games", 400),
        ("DELETE", "/api/leaderboard", 405),
        ("GET", "/no-such-page", 404),
    ],
)
def test_every_response_carries_the_security_headers(client, method, path, status):
    response = client.open(path, method=method, data=b"[1" if method == "POST" else None)
    assert response.status_code == status
    for name, value in HEADERS.items():
        assert response.headers.get(name) == value, name
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] in ("same-origin", "strict-origin-when-cross-origin")


def test_the_policy_allows_only_this_origin_for_scripts_and_connections():
    policy = directives(HEADERS["Content-Security-Policy"])
    assert policy["script-src"] == ["'self'"]  # no inline script, no eval
    assert policy["connect-src"] == ["'self'"]  # fetch and the Socket.IO websocket
    assert policy["style-src"] == ["'self'"]  # no <style> elements
    assert policy["default-src"] == ["'self'"]
    assert policy["object-src"] == ["'none'"]
    assert policy["frame-ancestors"] == ["'none'"]
    assert "'unsafe-eval'" not in HEADERS["Content-Security-Policy"]


def test_the_pages_need_nothing_the_policy_forbids(client):
    """No inline <script> or <style>, no inline handler, every script and sheet is local."""
    for path in ("/", "/watch", "/?lang=en", "/watch?lang=en"):
        html = client.get(path).get_data(as_text=True)
        for tag in re.findall(r"<script\b[^>]*>", html):
            assert re.search(r'\ssrc="/static/', tag), tag  # only external, same-origin scripts
        assert not re.search(r"<script\b[^>]*>\s*[^<\s]", html), "inline script"
        assert "<style" not in html
        assert not re.search(r"\son[a-z]+\s*=", html), "inline event handler"
        for href in re.findall(r'<link rel="stylesheet" href="([^"]+)"', html):
            assert href.startswith("/static/")
        for src in re.findall(r'\s(?:src|href)="((?:https?:)?//[^"]*)"', html):
            pytest.fail(f"a resource from another origin: {src}")


def test_debug_is_off_by_default_and_templates_autoescape(app):
    assert app.debug is False
    assert app.jinja_env.autoescape is not False
    assert app.config["SECRET_KEY"]


# -- rate limits --------------------------------------------------------------
def create(client, addr="203.0.113.1", lang="en"):
    return client.post(
        f"/api/games?lang={lang}",
        json={"rows": 5, "cols": 5},
        environ_base={"REMOTE_ADDR": addr},
    )


def test_creating_games_is_rate_limited_per_client(client):
    for _ in range(3):
        assert create(client).status_code == 201
    refused = create(client)
    assert refused.status_code == 429
    body = refused.get_json()
    assert body["code"] == "rate-limited"
    assert "new games" in body["error"]
    retry = int(refused.headers["Retry-After"])
    assert 1 <= retry <= 60
    assert str(retry) in body["error"]
    assert create(client, lang="zh").get_json()["error"].startswith("你开新局太频繁")
    # another address is counted on its own
    assert create(client, addr="203.0.113.2").status_code == 201
    # other routes are not limited
    game = create(client, addr="203.0.113.3").get_json()
    for _ in range(10):
        assert client.get(f"/api/games/{game['id']}").status_code == 200


def test_the_limit_is_per_app_and_can_be_switched_off(tmp_path):
    app = create_app({"INSTANCE_PATH": str(tmp_path / "off"), "RATE_LIMIT_GAMES": None})
    client = app.test_client()
    for _ in range(40):
        assert create(client).status_code == 201


def test_the_default_limit_is_sixty_games_a_minute(tmp_path, monkeypatch):
    """One a second at most, per address: far above a player, and above the browser suite
    (tests/browser creates fewer than 40 games in all, from one address)."""
    monkeypatch.delenv("RATE_LIMIT_GAMES", raising=False)
    app = create_app({"INSTANCE_PATH": str(tmp_path / "default")})
    assert parse_rate(app.config["RATE_LIMIT_GAMES"]) == (60, 60.0)


def test_the_window_slides():
    now = [100.0]
    limiter = SlidingWindowLimiter(2, 10.0, clock=lambda: now[0])
    assert limiter.hit("a") is None
    now[0] = 105.0
    assert limiter.hit("a") is None
    assert limiter.hit("a") == pytest.approx(5.0)  # the first hit leaves at 110
    now[0] = 110.0
    assert limiter.hit("a") is None  # the first hit left the window
    assert limiter.hit("a") == pytest.approx(5.0)
    assert limiter.hit("b") is None


def test_memory_stays_bounded_with_many_clients():
    now = [0.0]
    limiter = SlidingWindowLimiter(1, 60.0, clock=lambda: now[0], max_keys=100)
    for i in range(1000):
        now[0] += 0.001
        limiter.hit(f"10.0.{i // 256}.{i % 256}")
    assert len(limiter) == 100
    assert limiter.hit("10.0.3.231") is not None  # the most recent client is still counted


@pytest.mark.parametrize(
    "value, rate",
    [
        ("30/minute", (30, 60.0)),
        ("30 per minute", (30, 60.0)),
        ("5/10", (5, 10.0)),
        ("100/hours", (100, 3600.0)),
        (30, (30, 60.0)),
        ("45", (45, 60.0)),
        (None, None),
        ("", None),
        (0, None),
        ("0", None),
    ],
)
def test_rate_syntax(value, rate):
    assert parse_rate(value) == rate


@pytest.mark.parametrize("value", ["fast", "3/fortnight", "3/0", "-1/minute", True, -3])
def test_a_bad_rate_fails_at_start(tmp_path, value):
    with pytest.raises(ValueError):
        parse_rate(value)
    with pytest.raises(ValueError):
        create_app({"INSTANCE_PATH": str(tmp_path / "bad"), "RATE_LIMIT_GAMES": value})


def test_the_limiter_is_reusable_outside_views(app):
    with app.app_context():
        active = ratelimit.limiter(app, "RATE_LIMIT_GAMES")
    assert active is not None and (active.count, active.period) == (3, 60.0)
    with app.test_request_context(environ_base={"REMOTE_ADDR": "198.51.100.9"}):
        for _ in range(3):
            ratelimit.limit("RATE_LIMIT_GAMES")
        with pytest.raises(ratelimit.RateLimited) as refused:
            ratelimit.limit("RATE_LIMIT_GAMES")
    assert refused.value.retry_after >= 1


def test_idle_clients_are_forgotten():
    now = [0.0]
    limiter = SlidingWindowLimiter(2, 60.0, clock=lambda: now[0])
    for i in range(50):
        limiter.hit(f"198.51.100.{i}")
    now[0] = 61.0
    limiter.hit("203.0.113.7")  # a new client sweeps out those idle for a whole window
    assert len(limiter) == 1


# -- malformed requests found by the fuzzer (tests/web/test_fuzz_http.py) ------
@pytest.mark.parametrize("query", ["lang=\xff", "rows=\xc3\x28&cols=5", "x=\xed\xa0\x80"])
def test_a_query_string_that_is_not_utf8_is_refused_cleanly(client, query):
    """Production WSGI servers pass raw bytes; request.args used to raise (a 500)."""
    for path in ("/api/leaderboard", "/api/i18n", "/", "/api/games/nope"):
        response = client.get(path, environ_overrides={"QUERY_STRING": query})
        assert response.status_code < 500, (path, query)
        if path.startswith("/api/") and response.status_code >= 400:
            assert response.get_json()["error"]


def test_api_without_a_trailing_slash_answers_json(client):
    response = client.get("/api")
    assert response.status_code == 404
    assert response.get_json()["error"]
    assert client.get("/apis").status_code == 404  # not the API: the plain 404 page
