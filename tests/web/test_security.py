"""Security basics: headers on every response, per-client rate limits, safe defaults."""

from __future__ import annotations

import re
import socket
import time

import pytest

from server.app import create_app
from server.web import ratelimit
from server.web.ratelimit import parse_rate
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


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


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
    body = {"data": b"[1", "content_type": "application/json"} if method == "POST" else {}
    response = client.open(path, method=method, **body)
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


def test_a_limited_view_carries_flask_limiters_headers(client):
    response = create(client)
    assert response.headers["X-RateLimit-Limit"] == "3"
    assert response.headers["X-RateLimit-Remaining"] == "2"
    assert int(response.headers["X-RateLimit-Reset"]) > time.time()
    assert "X-RateLimit-Limit" not in client.get("/api/leaderboard").headers  # not limited


def test_the_limit_is_per_app_and_can_be_switched_off(tmp_path):
    for off in (None, "0", 0, ""):
        app = create_app({"INSTANCE_PATH": str(tmp_path / "off"), "RATE_LIMIT_GAMES": off})
        client = app.test_client()
        for _ in range(40):
            response = create(client)
            assert response.status_code == 201
        assert "X-RateLimit-Limit" not in response.headers


def test_the_default_limit_lets_a_class_behind_one_address_start_at_once(tmp_path, monkeypatch):
    """300 a minute and 3,000 an hour per address: a class of 200 behind one school NAT
    starts the class puzzle (each attempt a game of this count) or the Play page at once,
    with retries; far above a player."""
    monkeypatch.delenv("RATE_LIMIT_GAMES", raising=False)
    app = create_app({"INSTANCE_PATH": str(tmp_path / "default")})
    assert app.config["RATE_LIMIT_GAMES"] == "300/minute;3000/hour"
    client = app.test_client()
    for _ in range(200):
        response = create(client)
        assert response.status_code == 201
    assert response.headers["X-RateLimit-Limit"] == "300"
    assert response.headers["X-RateLimit-Remaining"] == "100"


def test_the_window_moves(tmp_path):
    """Two a second: the third is refused until the first leaves the window (a real wait)."""
    app = create_app({"INSTANCE_PATH": str(tmp_path / "moving"), "RATE_LIMIT_GAMES": "2/second"})
    client = app.test_client()
    assert create(client).status_code == 201
    assert create(client).status_code == 201
    refused = create(client)
    assert refused.status_code == 429 and refused.headers["Retry-After"] == "1"
    time.sleep(1.05)
    assert create(client).status_code == 201  # the first left the window
    assert create(client).status_code == 201  # and the second (refusals are not counted)
    assert create(client).status_code == 429


@pytest.mark.parametrize(
    "value, rate",
    [
        ("30/minute", "30/minute"),
        ("30 per minute", "30 per minute"),
        (" 10 per hour ", "10 per hour"),
        ("5 per 10 seconds", "5 per 10 seconds"),
        ("100/hours", "100/hours"),
        ("10/second; 100/day", "10/second; 100/day"),
        (None, None),
        ("", None),
        (0, None),
        ("0", None),
    ],
)
def test_rate_syntax(value, rate):
    assert parse_rate(value) == rate


@pytest.mark.parametrize(
    "value",
    ["fast", "3/fortnight", "3/0", "-1/minute", "3/0.5", "5/10", "45", "0/minute", True, 30],
)
def test_a_bad_rate_fails_at_start(tmp_path, value):
    with pytest.raises(ValueError):
        parse_rate(value)
    for key in ("RATE_LIMIT_GAMES", "RATE_LIMIT_CLASS_ROOMS"):
        with pytest.raises(ValueError, match=key):
            create_app({"INSTANCE_PATH": str(tmp_path / "bad"), key: value})


def test_a_multiple_limit_refuses_at_the_first_exhausted(tmp_path):
    app = create_app(
        {"INSTANCE_PATH": str(tmp_path / "two"), "RATE_LIMIT_GAMES": "5/minute; 2/hour"}
    )
    client = app.test_client()
    assert [create(client).status_code for _ in range(3)] == [201, 201, 429]
    refused = create(client)
    assert 3500 <= int(refused.headers["Retry-After"]) <= 3600  # the hour's limit


@pytest.mark.parametrize(
    "config, uri",
    [
        ({}, "memory://"),
        ({"SOCKETIO_MESSAGE_QUEUE": "redis://127.0.0.1:6390/0"}, "redis://127.0.0.1:6390/0"),
        ({"SOCKETIO_MESSAGE_QUEUE": "kafka://broker:9092"}, "memory://"),
        (
            {"SOCKETIO_MESSAGE_QUEUE": "redis://q:6379/0", "RATE_LIMIT_STORAGE": "memory://"},
            "memory://",
        ),
        ({"RATE_LIMIT_STORAGE": "redis://limits:6379/2"}, "redis://limits:6379/2"),
    ],
)
def test_counts_are_shared_through_the_redis_queue_unless_told_otherwise(config, uri):
    assert ratelimit.storage_uri(config) == uri


def test_each_app_counts_in_its_own_store(tmp_path):
    app = create_app({"INSTANCE_PATH": str(tmp_path / "a")})
    other = create_app(
        {"INSTANCE_PATH": str(tmp_path / "b"), "SOCKETIO_MESSAGE_QUEUE": "redis://q:6379/0"}
    )
    stores = [type(a.extensions["ratelimit"].storage).__name__ for a in (app, other)]
    assert stores == ["MemoryStorage", "RedisStorage"]


@pytest.mark.parametrize(
    "config, message",
    [
        ({"RATE_LIMIT_STORAGE": "memcached://m:11211"}, "RATE_LIMIT_STORAGE"),
        ({"PROXY_FIX": "two"}, "PROXY_FIX"),
        ({"PROXY_FIX": -1}, "PROXY_FIX"),
        ({"PROXY_FIX": 99}, "PROXY_FIX"),
        ({"PROXY_FIX": True}, "PROXY_FIX"),
    ],
)
def test_bad_limit_settings_fail_at_start(tmp_path, config, message):
    with pytest.raises(ValueError, match=message):
        create_app({"INSTANCE_PATH": str(tmp_path / "bad"), **config})


def test_an_unreachable_store_lets_requests_through_and_says_so(tmp_path, caplog):
    """A broken limiter must not take the game down: requests pass, a warning is logged."""
    dead = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    app = create_app(
        {
            "INSTANCE_PATH": str(tmp_path / "dead"),
            "RATE_LIMIT_GAMES": "1/minute",
            "RATE_LIMIT_STORAGE": dead,
        }
    )
    client = app.test_client()
    with caplog.at_level("WARNING", logger="server.web.ratelimit"):
        for _ in range(3):
            assert create(client).status_code == 201
    warnings = [r for r in caplog.records if "storage unavailable" in r.getMessage()]
    assert len(warnings) == 1  # once a minute, not per request


def test_a_store_that_never_answers_does_not_hang_requests(tmp_path):
    """A Redis that accepts connections and then says nothing (a wedged host): the
    limiter's short socket timeouts let the request through instead of hanging it."""
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)  # accepts into the backlog, never reads or replies
        port = silent.getsockname()[1]
        app = create_app(
            {
                "INSTANCE_PATH": str(tmp_path / "silent"),
                "RATE_LIMIT_GAMES": "1/minute",
                "RATE_LIMIT_STORAGE": f"redis://127.0.0.1:{port}/0",
            }
        )
        client = app.test_client()
        assert create(client).status_code == 201
        assert create(client).status_code == 201  # not limited: the store cannot count


class FlakyStore:
    """A store whose health the test decides (``Storage.check`` is all StoreHealth asks)."""

    def __init__(self) -> None:
        self.up, self.checks = False, 0

    def check(self) -> bool:
        self.checks += 1
        return self.up


def test_a_failed_store_is_asked_again_after_a_pause(caplog):
    """While the store is down it is asked once every few seconds, not per request;
    counting resumes at the first check that finds it back."""
    clock = [1000.0]
    store = FlakyStore()
    health = ratelimit.StoreHealth(store, clock=lambda: clock[0])
    with caplog.at_level("WARNING", logger="server.web.ratelimit"):
        assert health.store_is_down() and store.checks == 1
        clock[0] += ratelimit.RECHECK_AFTER - 0.1
        assert health.store_is_down() and store.checks == 1  # not asked again yet
        clock[0] += 0.2
        assert health.store_is_down() and store.checks == 2
        store.up = True
        clock[0] += ratelimit.RECHECK_AFTER
        assert not health.store_is_down() and store.checks == 3
        assert not health.store_is_down() and store.checks == 3
    assert len(caplog.records) == 1  # one warning: the second failure came within a minute


# -- behind a reverse proxy ----------------------------------------------------
def test_forwarded_addresses_count_only_behind_a_trusted_proxy(tmp_path):
    """Without PROXY_FIX a client cannot dodge its limit by sending X-Forwarded-For."""

    def forwarded(client, addr):
        return client.post(
            "/api/games",
            json={"rows": 5, "cols": 5},
            headers={"X-Forwarded-For": addr},
            environ_base={"REMOTE_ADDR": "10.0.0.1"},
        )

    direct = create_app({"INSTANCE_PATH": str(tmp_path / "a"), "RATE_LIMIT_GAMES": "1/minute"})
    client = direct.test_client()
    assert forwarded(client, "198.51.100.1").status_code == 201
    assert forwarded(client, "198.51.100.2").status_code == 429  # the same socket peer

    proxied = create_app(
        {"INSTANCE_PATH": str(tmp_path / "b"), "RATE_LIMIT_GAMES": "1/minute", "PROXY_FIX": 1}
    )
    client = proxied.test_client()
    assert forwarded(client, "198.51.100.1").status_code == 201
    assert forwarded(client, "198.51.100.2").status_code == 201  # each real client counts
    assert forwarded(client, "198.51.100.1").status_code == 429
    # one trusted hop: a client-supplied address in front of the proxy's is not believed
    assert forwarded(client, "203.0.113.66, 198.51.100.1").status_code == 429


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
