"""HTTP fuzzing: 5,000+ random and malformed requests, and what only a real server sees.

* In this process, through the Flask test client: a seeded generator (``FUZZ_SEED`` to
  vary it, ``FUZZ_REQUESTS`` for more) sends random methods to every route (the API,
  the pages, the class pages) with real and bogus game ids and room codes, random query
  strings, and bodies of every kind: JSON values of every type, deep nesting, integers
  of 100+ digits and ±1e308, unicode, lone surrogates in any field, invalid UTF-8, wrong
  content types, truncated and oversized bodies, malformed headers (``Origin``,
  ``Accept-Language``, ``Cookie``, ``X-Forwarded-*`` with ``PROXY_FIX`` set).  Every answer
  must be below 500 with the security headers; every /api answer >= 400 must be JSON
  with a non-empty ``error``; a body holding a lone surrogate is never accepted; game
  states must be self-consistent; nothing may be logged as an exception; and no request
  may take long (the worst one is reported).
* Every field of every body and query (:func:`test_every_field_refuses_what_it_cannot_hold`):
  lone surrogates and numbers too big for it are refused.
* Over the wire, against a real ``knights-tour serve`` (:func:`test_the_wire`): bodies
  framed every way (chunked, broken chunks, lengths that are not numbers or do not
  match, both at once, oversized), request lines and headers too long for the server,
  unparseable request lines, odd methods and targets, malformed headers; nothing below
  500 but the HTTP/0.9 refusals of request lines that cannot be parsed, the security
  headers on every answer with a status line, and no traceback in the server's log.
"""

from __future__ import annotations

import itertools
import json
import logging
import os
import random
import re
import string
import time
from collections import Counter
from urllib.parse import quote

import pytest

from server.app import create_app
from server.engine.board import Board
from server.engine.hints import hint
from server.i18n import text as words
from server.web.security import HEADERS
from server.web.text import has_lone_surrogate
from tests.support.servers import open_class_room, tracebacks
from tests.support.wire import exchange, request_bytes
from tests.web.logs import Records
from tests.web.serving import module_server

SEED = int(os.environ.get("FUZZ_SEED", "20240611"))
REQUESTS = int(os.environ.get("FUZZ_REQUESTS", "5000"))
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
LONE_SURROGATES = ("\ud800", "a\udfffb", "\udc00\udc00", "x\ud83d")
BODY_ROUTES = ("moves", "undo", "restart", "hint", "score")  # and POST /api/games


def random_text(rng: random.Random, longest: int = 30, surrogates: bool = True) -> str:
    """Random text; with ``surrogates``, now and then half of a surrogate pair (a URL or a
    header cannot hold one: their bytes are decoded, see server/web/text.py)."""
    alphabet = rng.choice((string.printable, UNICODE, string.ascii_letters, "%/\\.?#&=;"))
    text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, longest)))
    if surrogates and rng.random() < 0.05:  # half of a surrogate pair, where a string may be
        at = rng.randint(0, len(text))
        text = text[:at] + rng.choice(LONE_SURROGATES) + text[at:]
    return text


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
            -1e308,
            10**100,
            -(10**100),
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
                "%ED%A0%80",  # the UTF-8 bytes of a lone surrogate: not UTF-8
                random_text(rng, surrogates=False),
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
            random_text(rng, 40, surrogates=False)
            .replace("/", "")
            .replace("?", "")
            .replace("#", "")
            or "e",
        )
    )


def random_path(rng: random.Random, pool: list[dict]) -> tuple[str, dict | None]:
    game = rng.choice(pool) if pool and rng.random() < 0.75 else None
    gid = game["id"] if game else bogus_id(rng)
    roll = rng.random()
    if roll < 0.45:
        action = rng.choice(ACTIONS) if rng.random() < 0.9 else random_text(rng, 10, False)
        return f"/api/games/{gid}/{action}", game
    if roll < 0.55:
        return f"/api/games/{gid}", game
    if roll < 0.62:
        return "/api/games", None
    if roll < 0.65:  # the class pages, with real and bogus room codes
        code = rng.choice((*ROOMS, "ZZZZZZ", "abc-234", " " + ROOMS[0].lower(), "马", "x" * 40))
        return rng.choice(
            (
                "/class",
                f"/class?code={code}",
                "/class/new",
                f"/class/{code}",
                f"/class/{code}/teach",
                f"/class/{code}/qr.svg",
                f"/class/{code}/nope",
                "/class/",
            )
        ), None
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
        "/api/games//moves",
        f"/api/games/{gid}//undo",
        "/api//games",
        "/static/js/main.js",
        "/static/../server/app.py",
        "/static/%2e%2e/server/app.py",
        "/" + random_text(rng, 20, surrogates=False).replace("?", "").replace("#", ""),
    )
    return rng.choice(choices), None


ROOMS: list[str] = []  # the codes of real rooms (seed_pool opens some)


def random_headers(rng: random.Random) -> dict:
    headers = {}
    if rng.random() < 0.3:
        headers["Accept-Language"] = rng.choice(
            ("en", "zh-CN,zh;q=0.9", "fr;q=abc", ";;;,", "en;q=0.5,zh;q=0.6", random_text(rng))
        )
    if rng.random() < 0.2:
        headers["Cookie"] = rng.choice(
            ("lang=en", "lang=zh", "lang=xx", "lang=", 'lang="\\355\\240\\200"', random_text(rng))
        )
    if rng.random() < 0.1:
        headers["Accept"] = rng.choice(("text/html", "*/*", "application/json", "\x00"))
    if rng.random() < 0.15:
        headers["Origin"] = rng.choice(
            ("http://localhost", "null", "http://[", "http://[::1", "http://[zz]", random_text(rng))
        )
    if rng.random() < 0.15:  # believed: the app runs with PROXY_FIX = 1
        headers["X-Forwarded-For"] = rng.choice(
            ("203.0.113.9", "garbage", "", "1.2.3.4, 5.6.7.8", ",,,", "[::1]", random_text(rng))
        )
    if rng.random() < 0.05:
        headers["X-Forwarded-Proto"] = rng.choice(("https", "javascript", "", random_text(rng)))
    if rng.random() < 0.05:
        headers["X-Forwarded-Host"] = rng.choice(("evil.example", "[", "a b", random_text(rng)))
    # as a WSGI server passes them: the header's bytes, one latin-1 character each
    return {
        k: v.replace("\n", " ")
        .replace("\r", " ")
        .encode("utf-8", "surrogatepass")
        .decode("latin-1")
        for k, v in headers.items()
    }


def wsgi_str(path: str) -> str:
    """A path as WSGI carries it: its UTF-8 bytes, one latin-1 character each."""
    return path.encode("utf-8", "surrogatepass").decode("latin-1")


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
        {
            "INSTANCE_PATH": str(tmp_path / "instance"),
            "RATE_LIMIT_GAMES": "150/minute",
            "RATE_LIMIT_CLASS_ROOMS": "1000/minute",
            "RATE_LIMIT_CLASS_ROOMS_DEVICE": "1000/minute",
            "PROXY_FIX": 1,  # X-Forwarded-* are believed (one proxy)
        }
    )


def open_rooms(client, count: int = 3) -> list[str]:
    codes = []
    for _ in range(count):
        response = client.post("/class/new")
        assert response.status_code == 303, response.status_code
        codes.append(response.headers["Location"].split("/")[2])
    return codes


CJK = re.compile("[\u4e00-\u9fff]")


def asked_language(query: str, environ: dict) -> str | None:
    """The language a query string asks for, when it asks plainly (one ``lang`` of zh|en)."""
    if "QUERY_STRING" in environ:
        return None
    query = query.split("#", 1)[0]  # the rest is a fragment: never sent
    asked = re.findall(r"(?:^\?|&)lang=([^&]*)", query)
    if len(asked) == 1 and asked[0] in ("zh", "en") and "lang&" not in query + "&":
        return asked[0]
    return None


def body_of(body: bytes | None):
    try:
        return json.loads(body) if body else None
    except (ValueError, RecursionError):
        return None


def test_random_and_malformed_requests_never_break_the_server(app):
    recorder = Records()
    app.logger.addHandler(recorder)
    logging.getLogger("werkzeug").addHandler(recorder)
    client = app.test_client()
    pool = seed_pool(client)
    ROOMS[:] = open_rooms(client)
    big = client.post("/api/games", json={"rows": 20, "cols": 20}).get_json()
    rng = random.Random(SEED)
    print(f"FUZZ_SEED={SEED}")
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
            missing = [name for name in HEADERS if name not in response.headers]
            if missing:
                problems.append(f"{status} without {missing} for {label}")
            if (
                status < 300
                and method == "POST"
                and (path == "/api/games" or path.rsplit("/", 1)[-1] in BODY_ROUTES)
                and has_lone_surrogate(body_of(body))
            ):
                problems.append(f"a lone surrogate accepted ({status}) for {label}")
            target = environ.get("PATH_INFO") or path
            api = target == "/api" or target.startswith("/api/")
            if api and 300 <= status < 400:
                problems.append(f"the API redirected ({status}) {label}")
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
                elif (lang := asked_language(query, environ)) and (
                    bool(CJK.search(answer["error"])) != (lang == "zh")
                ):
                    problems.append(f"{status} not in {lang} for {label}: {answer['error']!r}")
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


# -- every field -----------------------------------------------------------------------

BODY_FIELDS = {
    "games": {"rows": 5, "cols": 5, "closed": False},
    "moves": {"row": 0, "col": 0},
    "undo": {"count": 1},
    "restart": {},
    "hint": {},
    "score": {"name": "Ada"},
}
BIG_LITERALS = ("1" + "0" * 100, "-1" + "0" * 100, "1" * 5000, "1e308", "-1e308", "1e400")
QUERY_FIELDS = {
    "/api/leaderboard?rows=5&cols=5&closed=false": ("rows", "cols", "closed"),
    "/api/theory?rows=5&cols=5&closed=false&row=0&col=0": ("rows", "cols", "closed", "row", "col"),
}


def test_every_field_refuses_what_it_cannot_hold(app):
    """Each field of each body: every lone surrogate is refused (400 ``bad-request`` with
    its words, before the field is read), and every number too big for it (a 4xx); the
    same in a key and in a field the route does not know.  Each field of each query: the
    UTF-8 bytes of a lone surrogate and a 5,000-digit number are refused."""
    client = app.test_client()
    game = client.post("/api/games", json={"rows": 5, "cols": 5}).get_json()["id"]
    client.post(f"/api/games/{game}/moves", json={"row": 0, "col": 0})
    refusal = {"code": "bad-request", "error": words("error.bad-request.text", "en")}
    problems, sent = [], 0
    for route, base in BODY_FIELDS.items():
        url = ("/api/games" if route == "games" else f"/api/games/{game}/{route}") + "?lang=en"
        bodies = [({**base, name: bad}, "text") for name in base for bad in LONE_SURROGATES]
        bodies += [({**base, "\udc00": 1}, "text"), ({**base, "note": "\ud800"}, "text")]
        for name in base:
            for literal in BIG_LITERALS:
                raw = json.dumps({**base, name: "BIG"}).replace('"BIG"', literal)
                bodies.append((raw, "too big"))
        for body, why in bodies:
            data = body if isinstance(body, str) else json.dumps(body)
            response = client.post(url, data=data, content_type="application/json")
            sent += 1
            answer = response.get_json(silent=True)
            if why == "text" and (response.status_code != 400 or answer != refusal):
                problems.append(f"{url} {data[:80]!r}: {response.status_code} {answer!r:.120}")
            if why == "too big" and not (400 <= response.status_code < 500 and answer["code"]):
                problems.append(f"{url} {data[:80]!r}: {response.status_code} {answer!r:.120}")
    for url, names in QUERY_FIELDS.items():
        for name in names:
            for bad in ("%ED%A0%80", "1" * 5000, "\ud800".encode("utf-8", "surrogatepass").hex()):
                query = url.split("?", 1)[1].replace(f"{name}=", f"{name}={bad}", 1)
                response = client.get(url.split("?")[0] + "?" + query)
                sent += 1
                if response.status_code != 400 or response.get_json()["code"] != "bad-request":
                    problems.append(f"{url} {name}={bad[:20]}: {response.status_code}")
    print(f"{sent} requests, one field each")
    assert not problems, problems[:10]


# -- over the wire ---------------------------------------------------------------------

WIRE_REQUESTS = int(os.environ.get("FUZZ_WIRE_REQUESTS", 500))


server = module_server(
    PROXY_FIX="1",
    RATE_LIMIT_GAMES="0",
    RATE_LIMIT_CLASS_ROOMS="0",
    RATE_LIMIT_CLASS_ROOMS_DEVICE="0",
)


def chunked(body: bytes, rng: random.Random) -> bytes:
    out, at = b"", 0
    while at < len(body):
        size = rng.choice((1, 7, 100, 4096, 8192, 65536))
        part = body[at : at + size]
        out += b"%x\r\n%s\r\n" % (len(part), part)
        at += size
    return out + b"0\r\n\r\n"


def wire_request(rng: random.Random, url: str, game: str, room: str) -> tuple[bytes, dict]:
    """A raw request and what its answer must be: ``framed`` (a status line is due: False
    for request lines the server cannot parse), ``statuses`` (the allowed ones, or None),
    ``api`` (a 4xx is JSON from the API, not a refusal by the HTTP server itself)."""
    target = rng.choice(
        (
            "/api/games",
            f"/api/games/{game}/{rng.choice(ACTIONS)}",
            f"/api/games/{quote(bogus_id(rng).encode('utf-8', 'surrogatepass'), '%')}/moves",
            "/api/i18n?lang=en",
            "/api/leaderboard?rows=5&cols=5",
            "/class/new",
            f"/class/{room}",
            f"/class/{room}/qr.svg",
            "/",
            "/watch",
            "/socket.io/?EIO=4&transport=polling",
        )
    )
    kind, roll = rng.random(), rng.random()
    method = "POST" if kind < 0.6 or rng.random() < 0.5 else rng.choice(METHODS)
    line = f"{method} {target} HTTP/1.1"
    expect = {"framed": True, "statuses": None, "api": target.startswith("/api/")}
    junk = roll < 0.05
    if junk:  # raw bytes in the target: not UTF-8 (and \xa0 splits the line for the server)
        tail = rng.choice(("/%ff", "/\xff\xfe", "?lang=\xed\xa0\x80"))
        line = f"{method} {target}{tail} HTTP/1.1"
        expect["api"] = False
    elif roll < 0.1:  # the absolute form, odd methods, "//"
        method, target = rng.choice(
            (
                ("GET", f"http://evil.example{target}"),
                ("PROPFIND", target),
                ("get", target),
                (method, f"/{target}"),
                ("OPTIONS", "*"),
            )
        )
        line = f"{method} {target} HTTP/1.1"
        expect["api"] = False
    reads_body = (  # a route that reads its body (a bogus id may be no route at all)
        method == "POST"
        and expect["api"]
        and (target == "/api/games" or target.startswith(f"/api/games/{game}/"))
        and target.rsplit("/", 1)[-1] in (*BODY_ROUTES, "games")
    )
    headers = {"Content-Type": "application/json"}
    body = json.dumps(valid_body_for(target)).encode()
    if kind < 0.15:  # a chunked body, well formed
        headers["Transfer-Encoding"] = "chunked"
        raw_body = chunked(body, rng)
    elif kind < 0.25:  # oversized, chunked or not
        body = b'{"name": "' + b"x" * rng.choice((65_536, 70_000, 200_000)) + b'"}'
        if rng.random() < 0.5:
            headers["Transfer-Encoding"] = "chunked"
            raw_body = chunked(body, rng)
        else:
            headers["Content-Length"] = str(len(body))
            raw_body = body
        if reads_body:
            expect["statuses"] = {413}
    elif kind < 0.35:  # chunks that are not chunks
        headers["Transfer-Encoding"] = "chunked"
        raw_body = rng.choice((b"zz\r\nxx\r\n0\r\n\r\n", b"-1\r\nx\r\n", b"5\r\nab"))
        expect["statuses"] = {400}
        if rng.random() < 0.3:  # a chunk announcing far more than the limit, cut short
            raw_body = b"ffffffffffffffffff\r\nx"
            expect["statuses"] = {400, 413} if reads_body else None
    elif kind < 0.45:  # a Content-Length that is no length
        headers["Content-Length"] = rng.choice(("abc", "-1", "1, 2", "0x10", "1e3", "½"))
        raw_body = body
        expect["statuses"] = {400}
    elif kind < 0.5:  # a length that does not match the body
        headers["Content-Length"] = str(len(body) + rng.choice((-3, 5, 10**6)))
        raw_body = body
    elif kind < 0.55:  # both framings at once: the chunks win
        headers["Transfer-Encoding"] = "chunked"
        headers["Content-Length"] = str(len(body))
        raw_body = chunked(body, rng)
    else:
        headers["Content-Length"] = str(len(body))
        raw_body = body
    headers.update(random_headers(rng))
    late = rng.random()
    if late < 0.05:  # a request line too long for the server
        line = f"GET /{'a' * 70_000} HTTP/1.1"
        expect.update(statuses={414}, api=False)
    elif late < 0.1:  # a header line too long, or too many headers
        if rng.random() < 0.5:
            headers["X-Long"] = "a" * 70_000
        else:
            headers.update({f"X-{i}": str(i) for i in range(120)})
        expect.update(statuses={400, 431} if junk else {431}, api=False)
    elif late < 0.15:  # a request line the server cannot parse: answered the HTTP/0.9 way
        line = rng.choice(("GARBAGE", "GET", "GET / HTTP/1.1 extra", "GET / HTTP/x", "\x00"))
        expect.update(framed=False, api=False)
    head = [line, "Host: 127.0.0.1"] + [f"{name}: {value}" for name, value in headers.items()]
    if rng.random() < 0.05:  # an obsolete folded header line
        head.append("X-Folded: a\r\n b")
    raw = "\r\n".join(head).encode("latin-1", "replace") + b"\r\n\r\n" + raw_body
    return raw, expect


def valid_body_for(target: str) -> dict:
    action = target.rsplit("/", 1)[-1]
    return {
        "games": {"rows": 5, "cols": 5},
        "moves": {"row": 0, "col": 0},
        "undo": {"count": 1},
        "score": {"name": "Ada"},
    }.get(action, {})


def test_the_wire(server):
    """Raw requests against a real server: framing, oversized lines and headers, broken
    request lines, malformed headers (see the module docstring)."""
    print(f"FUZZ_SEED={SEED}")
    url = server.url
    rng = random.Random(SEED)
    json_type = {"Content-Type": "application/json"}
    game = exchange(url, request_bytes("POST", "/api/games", json_type, b'{"rows":5,"cols":5}'))
    game = game.json()["id"]
    room, _ = open_class_room(url)
    problems: list[str] = []
    statuses: Counter = Counter()
    started = time.monotonic()
    for i in range(WIRE_REQUESTS):
        raw, expect = wire_request(rng, url, game, room)
        label = f"#{i} {raw[:100]!r}"
        try:
            answer = exchange(url, raw)
        except OSError as err:
            problems.append(f"{err!r} for {label}")
            continue
        if answer is None:
            problems.append(f"no answer to {label}")
            continue
        statuses[answer.status] += 1
        if not expect["framed"]:
            if answer.status not in (0, 400, 505):
                problems.append(f"{answer.status} for an unparseable request line {label}")
            continue
        if not 100 <= answer.status < 500:
            problems.append(f"{answer.status} for {label}: {answer.body[:200]!r}")
            continue
        if expect["statuses"] is not None and answer.status not in expect["statuses"]:
            problems.append(f"{answer.status} (not {expect['statuses']}) for {label}")
        missing = [name for name in HEADERS if name.lower() not in answer.headers]
        if missing:
            problems.append(f"{answer.status} without {missing} for {label}")
        if expect["api"] and answer.status >= 400 and not raw.startswith(b"HEAD"):
            try:
                body = answer.json()
                assert body["error"] and body["code"]
            except (ValueError, KeyError, TypeError, AssertionError):
                problems.append(f"{answer.status} without a JSON error for {label}")
    seconds = time.monotonic() - started
    found = tracebacks(server.stderr())
    print(
        f"{WIRE_REQUESTS} raw requests in {seconds:.1f} s (seed {SEED}), statuses "
        f"{dict(sorted(statuses.items()))}, tracebacks in the server's log: {len(found)}"
    )
    assert not problems, f"FUZZ_SEED={SEED}: {len(problems)} problems, e.g. {problems[:10]}"
    assert not found, f"FUZZ_SEED={SEED}: {len(found)} tracebacks, the first:\n{found[0]}"
    assert server.alive()
