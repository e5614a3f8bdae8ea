"""HTTP fuzzing: 10,000+ random and malformed requests through the Flask test client.

A seeded generator (``FUZZ_SEED`` to vary it, ``FUZZ_REQUESTS`` for more) sends random
methods to every route with real and bogus game ids, random query strings, and bodies
of every kind: JSON values of every type, deep nesting, huge numbers, unicode, lone
surrogates, invalid UTF-8, wrong content types, truncated and oversized bodies, junk
headers.  Every answer must be below 500; every /api answer >= 400 must be JSON with a
non-empty ``error``; game states must be self-consistent; nothing may be logged as an
exception; and no request may take long (the worst one is reported).
"""

from __future__ import annotations

import itertools
import json
import logging
import os
import random
import string
import time
from collections import Counter

import pytest

from server.app import create_app
from server.engine.board import Board
from server.engine.hints import hint

SEED = int(os.environ.get("FUZZ_SEED", "20240611"))
REQUESTS = int(os.environ.get("FUZZ_REQUESTS", "10000"))
DEADLINE = 10.0  # seconds for one request: far above the engine's ~1 s budget, below a hang
POOL_SIZE = 40
SMALL_AREA = 36  # fuzz-created games join the pool only when the engine is quick on them

ACTIONS = ("moves", "undo", "restart", "hint", "score")
METHODS = ["GET"] * 6 + ["POST"] * 10 + ["PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "TRACE"]
METHODS += ["PROPFIND", "FOO", "get"]
FIELDS = ("row", "col", "count", "name", "rows", "cols", "closed", "random", "lang", "id")
QUERY_KEYS = ("rows", "cols", "closed", "row", "col", "lang", "count", "x", "", "rows[]")
CONTENT_TYPES = (
    "application/json",
    "application/json; charset=utf-8",
    "application/json; charset=latin-1",
    "text/plain",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=xyz",
    "multipart/form-data",
    "application/octet-stream",
    "text/html; charset=\x00",
    "garbage/;;;=",
    None,
)
UNICODE = "马踏棋盘♞😀\u200d\u202e\u0000\ufeff\uffff𝔘Ωé\u0301ß\t\n\r "


def random_text(rng: random.Random, longest: int = 30) -> str:
    alphabet = rng.choice((string.printable, UNICODE, string.ascii_letters, "%/\\.?#&=;"))
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, longest)))


def random_number(rng: random.Random):
    return rng.choice(
        (
            rng.randint(-3, 25),
            rng.randint(-(10**6), 10**6),
            10 ** rng.randint(10, 300),
            -(10 ** rng.randint(10, 300)),
            rng.uniform(-100, 100),
            3.0,
            0.0,
            -0.0,
            1e308,
            2**63,
            2**64 + 1,
        )
    )


def random_json(rng: random.Random, depth: int = 0):
    kind = rng.randrange(8 if depth < 4 else 5)
    if kind == 0:
        return None
    if kind == 1:
        return rng.choice((True, False))
    if kind == 2:
        return random_number(rng)
    if kind in (3, 4):
        return random_text(rng)
    if kind == 5:
        return [random_json(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    keys = [*FIELDS, random_text(rng, 8)]
    return {rng.choice(keys): random_json(rng, depth + 1) for _ in range(rng.randint(0, 5))}


def field_value(rng: random.Random, name: str, game: dict | None):
    """Mostly plausible values for ``name``, often of the wrong type or out of range."""
    if rng.random() < 0.35:
        return random_json(rng)
    if name in ("row", "col"):
        if game and game.get("legal") and rng.random() < 0.6:
            return rng.choice(game["legal"])[0 if name == "row" else 1]
        return rng.randint(-2, 21)
    if name == "count":
        return rng.randint(-1, 30)
    if name in ("rows", "cols"):
        return rng.choice((3, 4, 5, 6, rng.randint(-1, 25)))
    if name in ("closed", "random"):
        return rng.choice((True, False, 1, 0, "true"))
    if name == "name":
        return rng.choice(("Ada", "", " ", "x" * 24, "x" * 25, "<b>x</b>", random_text(rng)))
    return random_text(rng)


def random_body(rng: random.Random, game: dict | None) -> tuple[bytes | None, str | None]:
    kind = rng.randrange(16)
    if kind == 0:
        return None, None
    if kind == 1:
        return b"", rng.choice(CONTENT_TYPES)
    if kind <= 6:  # an object with the fields the contract names
        names = rng.sample(FIELDS, rng.randint(0, 4))
        body = {name: field_value(rng, name, game) for name in names}
        return json.dumps(body).encode(), rng.choice(CONTENT_TYPES)
    if kind == 7:  # any JSON value
        return json.dumps(random_json(rng)).encode(), "application/json"
    if kind == 8:  # deep nesting (within and beyond the interpreter's recursion limit)
        depth = rng.choice((50, 900, 5000, 30000))
        opener, closer = rng.choice((("[", "]"), ('{"a":', "}")))
        return (opener * depth + "1" + closer * depth).encode(), "application/json"
    if kind == 9:  # huge numbers, and literals Python's json accepts but JSON does not
        value = rng.choice(
            (
                "1" * rng.choice((20, 4300, 4301, 20000)),
                "1e400",
                "-1e400",
                "NaN",
                "Infinity",
                "-Infinity",
                "1" * 30 + ".5",
                "0." + "0" * 5000 + "1",
            )
        )
        field = rng.choice(("row", "col", "count", "rows", "cols"))
        return f'{{"{field}": {value}, "col": 1, "cols": 5}}'.encode(), "application/json"
    if kind == 10:  # invalid UTF-8 and other raw bytes
        raw = bytes(rng.randrange(256) for _ in range(rng.randint(1, 64)))
        return rng.choice((raw, b'{"name": "\xff\xfe"}', b'{"row": 1\x00}', b"\xef\xbb\xbf{}")), (
            rng.choice(CONTENT_TYPES)
        )
    if kind == 11:  # lone surrogates and escapes
        text = rng.choice(('"\\ud800"', '"\\udfff x"', '"\\u0000"', '"\\u202e\\u200d"'))
        return f'{{"name": {text}, "row": 0, "col": 0}}'.encode(), "application/json"
    if kind == 12:  # oversized
        size = rng.choice((64 * 1024, 64 * 1024 + 1, 200 * 1024))
        return b'{"name": "' + b"x" * size + b'"}', "application/json"
    if kind == 13:  # truncated or duplicated JSON
        text = json.dumps({name: field_value(rng, name, game) for name in FIELDS[:4]})
        broken = (text[: rng.randint(0, len(text))], text + text, '{"row":1,"row":"a"}')
        return rng.choice(broken).encode(), "application/json"
    if kind == 14:  # form data where JSON is expected
        return b"row=1&col=2&name=Ada", "application/x-www-form-urlencoded"
    return random_text(rng, 200).encode("utf-8", "surrogatepass"), rng.choice(CONTENT_TYPES)


def valid_body(rng: random.Random, path: str, game: dict) -> bytes:
    """What the Play page would send for ``path`` in ``game``'s state."""
    action = path.rsplit("/", 1)[1]
    if action == "moves" and game["status"] == "new" and rng.random() < 0.5:
        body = {"random": True}
    elif action == "moves" and game["legal"]:
        row, col = rng.choice(game["legal"])
        body = {"row": row, "col": col}
    elif action == "undo":
        body = {"count": rng.choice((1, 1, 1, 2, max(game["moves"], 1)))}
    elif action == "score":
        body = {"name": rng.choice(("Ada", "马踏棋盘", "<script>x</script>"))}
    else:
        body = {}
    return json.dumps(body).encode()


def random_query(rng: random.Random) -> str:
    if rng.random() < 0.3:
        return ""
    parts = []
    for _ in range(rng.randint(1, 6)):
        key = rng.choice(QUERY_KEYS)
        value = rng.choice(
            (
                str(rng.randint(-2, 25)),
                str(random_number(rng)),
                rng.choice(("zh", "en", "fr", "", "ZH", "true", "false", "1", "0", "yes")),
                "%ff%fe",
                "%00",
                "٣",  # a unicode digit
                "1" * rng.choice((6, 7, 5000)),
                random_text(rng),
            )
        )
        parts.append(f"{key}={value}" if rng.random() < 0.9 else key)
    return "?" + "&".join(parts)


def bogus_id(rng: random.Random) -> str:
    return rng.choice(
        (
            "nope",
            "x" * 64,
            "x" * 65,
            "x" * 5000,
            "%ff%fe",
            "%00",
            "..",
            "%2e%2e",
            "a%2Fb",
            "马",
            "😀",
            "%20",
            "null",
            "' OR 1=1 --",
            random_text(rng, 40).replace("/", "").replace("?", "").replace("#", "") or "e",
        )
    )


def random_path(rng: random.Random, pool: list[dict]) -> tuple[str, dict | None]:
    game = rng.choice(pool) if pool and rng.random() < 0.75 else None
    gid = game["id"] if game else bogus_id(rng)
    roll = rng.random()
    if roll < 0.45:
        action = rng.choice(ACTIONS) if rng.random() < 0.9 else random_text(rng, 10)
        return f"/api/games/{gid}/{action}", game
    if roll < 0.55:
        return f"/api/games/{gid}", game
    if roll < 0.62:
        return "/api/games", None
    choices = (
        "/api/leaderboard",
        "/api/theory",
        "/api/i18n",
        "/",
        "/watch",
        "/api/",
        "/api",
        "/api/nope",
        "/api/games/",
        f"/api/games/{gid}/moves/extra",
        "//api//games",
        "/static/js/main.js",
        "/static/../server/config.py",
        "/static/%2e%2e/server/config.py",
        "/" + random_text(rng, 20).replace("?", "").replace("#", ""),
    )
    return rng.choice(choices), None


def random_headers(rng: random.Random) -> dict:
    headers = {}
    if rng.random() < 0.3:
        headers["Accept-Language"] = rng.choice(
            ("en", "zh-CN,zh;q=0.9", "fr;q=abc", ";;;,", "en;q=0.5,zh;q=0.6", random_text(rng))
        )
    if rng.random() < 0.2:
        headers["Cookie"] = rng.choice(("lang=en", "lang=zh", "lang=xx", "lang=", random_text(rng)))
    if rng.random() < 0.1:
        headers["Accept"] = rng.choice(("text/html", "*/*", "application/json", "\x00"))
    return {k: v.replace("\n", " ").replace("\r", " ") for k, v in headers.items()}


def wsgi_str(path: str) -> str:
    """A path as WSGI carries it: its UTF-8 bytes, one latin-1 character each."""
    return path.encode("utf-8", "surrogatepass").decode("latin-1")


class Recorder(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def check_state(state: dict) -> None:
    """A game state must agree with itself."""
    rows, cols = state["rows"], state["cols"]
    path = state["path"]
    assert len({tuple(cell) for cell in path}) == len(path)
    assert all(0 <= r < rows and 0 <= c < cols for r, c in path)
    assert state["squares_left"] == rows * cols - len(path)
    assert state["moves"] == max(len(path) - 1, 0) + state["returned"]
    for (r1, c1), (r2, c2) in itertools.pairwise(path):
        assert sorted((abs(r1 - r2), abs(c1 - c2))) == [1, 2]


def seed_pool(client) -> list[dict]:
    """Games in every state: new, playing, stuck, won (open and closed), and one big board."""
    pool = []
    for rows, cols, closed in ((3, 4, False), (4, 4, False), (5, 5, False), (6, 6, True)):
        pool.append(client.post("/api/games", json={"rows": rows, "cols": cols, "closed": closed}))
    for rows, cols, closed, start in ((5, 5, False, 0), (6, 6, True, 0), (5, 6, False, 2)):
        game = client.post("/api/games", json={"rows": rows, "cols": cols, "closed": closed})
        gid = game.get_json()["id"]
        result = hint(Board(rows, cols), [start], closed=closed, time_limit=5.0)
        cells = [divmod(sq, cols) for sq in (start, *result.witness)]
        if closed:
            cells.append(cells[0])
        for row, col in cells:
            last = client.post(f"/api/games/{gid}/moves", json={"row": row, "col": col})
        pool.append(last)
    assert pool[-1].get_json()["status"] == "won"
    pool = [response.get_json() for response in pool]
    stuck = client.post("/api/games", json={"rows": 3, "cols": 3}).get_json()
    pool.append(
        client.post(f"/api/games/{stuck['id']}/moves", json={"row": 1, "col": 1}).get_json()
    )
    return pool


@pytest.fixture
def app(tmp_path):
    return create_app(
        {"INSTANCE_PATH": str(tmp_path / "instance"), "RATE_LIMIT_GAMES": "150/minute"}
    )


def test_random_and_malformed_requests_never_break_the_server(app):
    recorder = Recorder()
    app.logger.addHandler(recorder)
    logging.getLogger("werkzeug").addHandler(recorder)
    client = app.test_client()
    pool = seed_pool(client)
    big = client.post("/api/games", json={"rows": 20, "cols": 20}).get_json()
    rng = random.Random(SEED)
    statuses: Counter = Counter()
    codes: Counter = Counter()
    problems: list[str] = []
    slowest: list[tuple[float, str]] = []
    started = time.monotonic()
    try:
        for i in range(REQUESTS):
            if i % 400 == 200:  # the engine's bounded work on the biggest board, now and then
                path, game = f"/api/games/{big['id']}/{rng.choice(('moves', 'hint'))}", big
                method, query, headers = "POST", "", {}
                body, content_type = valid_body(rng, path, big), "application/json"
            elif rng.random() < 0.02:  # a fresh game for the pool
                path, game, method, query, headers = "/api/games", None, "POST", "", {}
                board = {"rows": rng.randint(3, 6), "cols": rng.randint(3, 6)}
                body = json.dumps({**board, "closed": rng.random() < 0.3}).encode()
                content_type = "application/json"
            elif rng.random() < 0.25:  # a well-formed intention on a real game
                game = rng.choice(pool)
                path = f"/api/games/{game['id']}/{rng.choice(ACTIONS)}"
                method, query, headers = "POST", rng.choice(("", "?lang=en", "?lang=zh")), {}
                body, content_type = valid_body(rng, path, game), "application/json"
            else:
                path, game = random_path(rng, pool)
                method = rng.choice(METHODS)
                query = random_query(rng)
                body, content_type = random_body(rng, game)
                headers = random_headers(rng)
            if content_type is not None:
                headers["Content-Type"] = content_type
            label = f"#{i} {method} {path}{query} body={body[:80] if body else body!r}"
            environ = {}
            url = path + query
            if path.startswith("//"):  # the test client would read a host out of it
                environ["PATH_INFO"] = wsgi_str(path)
                url = "/" + query
            if rng.random() < 0.03:  # raw bytes in the path and query: invalid UTF-8
                environ["PATH_INFO"] = wsgi_str(path)
                environ["PATH_INFO"] += rng.choice(("\xff", "\xc3\x28", "\xed\xa0\x80"))
                environ["QUERY_STRING"] = "lang=\xff&rows=\xc3\x28"
            t0 = time.monotonic()
            response = client.open(
                url,
                method=method,
                data=body,
                headers=headers,
                environ_overrides=environ,
            )
            seconds = time.monotonic() - t0
            slowest = sorted([*slowest, (seconds, label)], reverse=True)[:5]
            status = response.status_code
            statuses[status // 100 * 100] += 1
            if status >= 500:
                problems.append(f"{status} for {label}: {response.get_data()[:300]!r}")
                continue
            target = environ.get("PATH_INFO") or path
            api = target == "/api" or target.startswith("/api/")
            if not api or (method.upper() in ("HEAD", "OPTIONS") and status < 400):
                continue
            try:
                answer = json.loads(response.get_data())
            except ValueError:
                if status >= 400 and method.upper() != "HEAD":
                    problems.append(f"non-JSON {status} for {label}")
                continue
            if status >= 400:
                codes[answer.get("code") if isinstance(answer, dict) else None] += 1
                if not (isinstance(answer, dict) and isinstance(answer.get("error"), str)):
                    problems.append(f"{status} without an error for {label}: {answer!r}")
                elif not answer["error"]:
                    problems.append(f"{status} with an empty error for {label}")
                continue
            state = answer.get("state", answer) if isinstance(answer, dict) else None
            if isinstance(state, dict) and "path" in state:
                try:
                    check_state(state)
                except AssertionError:
                    problems.append(f"inconsistent state for {label}: {state!r}")
                small = state["rows"] * state["cols"] <= SMALL_AREA
                if path == "/api/games" and status == 201 and small:
                    if len(pool) >= POOL_SIZE:
                        pool.pop(rng.randrange(len(pool)))
                    pool.append(state)
                for j, known in enumerate(pool):
                    if known["id"] == state["id"]:
                        pool[j] = state
    finally:
        app.logger.removeHandler(recorder)
        logging.getLogger("werkzeug").removeHandler(recorder)
    elapsed = time.monotonic() - started
    report = (
        f"{REQUESTS} requests in {elapsed:.1f} s (seed {SEED}), statuses {dict(statuses)}, "
        f"refusals {dict(codes.most_common())}, "
        f"slowest: {[(round(s, 3), label[:120]) for s, label in slowest]}"
    )
    print(report)
    logged = [
        f"{r.levelname} {r.getMessage()} {r.exc_info[1]!r}" if r.exc_info else r.getMessage()
        for r in recorder.records
    ]
    assert not problems, f"{len(problems)} problems, e.g. {problems[:10]}\n{report}"
    assert not logged, f"logged: {logged[:10]}\n{report}"
    assert slowest[0][0] < DEADLINE, report
    assert statuses[200] + statuses[300] + statuses[400] == REQUESTS, report
    assert statuses[200] > REQUESTS // 20, report  # real successes, not only refusals
