"""``POST /api/verdict`` (docs/api.md, the editor's verdict): every reason worded in both
languages, the witness only when asked, verdicts agreeing with an exhaustive search, and
every bad puzzle refused with its shape error code and nothing stored."""

from __future__ import annotations

import base64
import sqlite3

import pytest

from server.app import create_app
from server.engine.shape import Puzzle, Shape, parse_puzzle
from server.engine.verdict import ShapeVerdict, decide
from server.i18n import LANGS, MESSAGES
from server.web.verdicts import reason, reason_key
from tests.support.bruteforce import brute_force
from tests.support.shapes import random_puzzles
from tests.tourcheck import assert_tour

# one puzzle for each reason the verdict can give before running out of time
BY_CODE = {
    None: "5x5.o",
    "unreachable": "3x3.o",
    "split": "4x10:e1,e2,e3,e4,f1,f2,f3,f4.o",
    "dead-ends": "3x4:a1.c",
    "colour": "5x5.c",
    "start-colour": "5x5.o.b1",
    "theory": "4x4.o",
    "too-small": "1x1.c",
}


def ask(client, puzzle, *, witness=None, lang="en", status=200):
    body = {"puzzle": puzzle} if witness is None else {"puzzle": puzzle, "witness": witness}
    response = client.post(f"/api/verdict?lang={lang}", json=body)
    assert response.status_code == status, response.get_json()
    return response.get_json()


def an_exhausted_puzzle() -> str:
    """A small shape no obstacle rules out but the search proves has no tour."""
    for puzzle in random_puzzles(2000, "exhausted", max_side=5):
        if decide(puzzle, time_limit=30).code == "exhausted":
            return puzzle.code
    raise AssertionError("the sample holds no exhausted shape")


def rows_stored(app) -> dict[str, int]:
    path = app.config["DATABASE_URL"].removeprefix("sqlite:///")
    with sqlite3.connect(path) as db:
        tables = [row[0] for row in db.execute("select name from sqlite_master where type='table'")]
        return {name: db.execute(f'select count(*) from "{name}"').fetchone()[0] for name in tables}


@pytest.mark.parametrize("lang", LANGS)
def test_every_reason_is_worded_in_each_language_and_names_its_squares(client, lang):
    codes = {**BY_CODE, "exhausted": an_exhausted_puzzle()}
    for code, puzzle in codes.items():
        answer = ask(client, puzzle, lang=lang)
        assert answer["code"] == code, answer
        assert answer["tour"] is (code is None)
        assert answer["reason"]
        if lang == "zh":
            assert answer["reason"] != english_reason(puzzle)
        if code == "theory":
            key = f"theory.{answer['params']['theory']}"
        elif code is None:
            key = "verdict.tour"
        elif answer["closed"] and f"verdict.{code}.closed" in MESSAGES:
            key = f"verdict.{code}.closed"
        else:
            key = f"verdict.{code}"
        assert lang in MESSAGES[key], key
        assert "{" not in answer["reason"], answer["reason"]  # every placeholder filled
        for name in answer["names"][:6]:
            assert name in answer["reason"] or code in ("split", "colour")
        assert len(answer["squares"]) == len(answer["names"])
        assert answer["witness"] is None  # not asked


def english_reason(code: str) -> str:
    return decide(parse_puzzle(code)).reason


def test_named_squares_are_the_ones_the_reason_points_at(client):
    answer = ask(client, "3x3.o")
    assert answer["squares"] == [[1, 1]] and answer["names"] == ["b2"]
    answer = ask(client, "5x5.o.b1")
    assert answer["start"] == [4, 1] and answer["squares"] == [[4, 1]]


def test_a_proof_by_search_is_worded_by_its_kind_and_never_counts_zero_positions():
    kinds = set()
    for puzzle in random_puzzles(1500, "exhausted", max_side=6):
        verdict = decide(puzzle, time_limit=30)
        if verdict.code != "exhausted":
            continue
        key = reason_key(verdict, puzzle)
        kinds.add(key)
        for lang in LANGS:
            words = MESSAGES[key][lang]
            assert ("{nodes}" in words) == (key == "verdict.exhausted")
            assert reason(verdict, puzzle, lang) == words.format(**verdict.params)
        if key == "verdict.exhausted.starts":
            assert puzzle.start is None and not puzzle.closed
        assert verdict.nodes or key != "verdict.exhausted"
    assert kinds == {"verdict.exhausted", "verdict.exhausted.starts", "verdict.exhausted.proof"}


def test_time_is_worded_too():
    """A search out of time cannot be provoked reliably on a fast core; its words can."""
    verdict = ShapeVerdict(None, "time", "undecided", {"seconds": 1.0})
    puzzle = Puzzle(Shape(5, 5))
    for lang in LANGS:
        assert reason(verdict, puzzle, lang) == MESSAGES["verdict.time"][lang].format(seconds=1.0)


def test_the_witness_comes_only_when_asked_and_is_a_tour(client):
    assert ask(client, "6x6~IAAAAAA.c", witness=True)["witness"] is None  # 35 squares: none
    answer = ask(client, "6x6.c.a1", witness=True)
    assert answer["tour"] is True and answer["start"] == [5, 0]
    assert_tour(6, 6, answer["witness"], closed=True, start=(5, 0))
    holes = frozenset({2, 30})  # c6 and a1 (one of each colour) off 6x6
    answer = ask(client, Puzzle(Shape(6, 6, holes)).code, witness=True)
    assert answer["tour"] is True
    assert_tour(6, 6, answer["witness"], blocked=holes)
    assert ask(client, "6x6.c.a1", witness=False)["witness"] is None
    assert ask(client, "6x6.c.a1")["witness"] is None


def test_the_answer_holds_the_puzzle_as_the_server_read_it(client):
    answer = ask(client, "5x5:c3,a1.o.e5")
    puzzle = Puzzle(Shape(5, 5, frozenset({12, 20})), False, 4)
    assert answer["puzzle"] == puzzle.code  # canonical: the same shape, the same code
    assert answer["holes"] == [[2, 2], [4, 0]] and answer["start"] == [0, 4]
    assert (answer["rows"], answer["cols"], answer["closed"], answer["size"]) == (5, 5, False, 23)
    assert ask(client, puzzle.code)["puzzle"] == puzzle.code


def test_verdicts_agree_with_exhaustive_search_through_the_api(client):
    tours = 0
    for puzzle in random_puzzles(120, "api", max_side=5):
        shape = puzzle.shape
        if shape.size > 16:
            continue
        answer = ask(client, puzzle.code, witness=True)
        truth = brute_force(shape.rows, shape.cols, shape.holes, puzzle.closed, puzzle.start)
        assert answer["tour"] is truth, (puzzle.code, answer)
        if truth:
            tours += 1
            assert_tour(
                shape.rows,
                shape.cols,
                answer["witness"],
                closed=puzzle.closed,
                start=puzzle.start,
                blocked=shape.holes,
            )
        else:
            assert answer["code"] and answer["reason"]
    assert tours > 0


def _all_holes(rows: int, cols: int) -> str:
    area = rows * cols
    raw = ((1 << area) - 1).to_bytes((area + 7) // 8, "little")
    return f"{rows}x{cols}~{base64.urlsafe_b64encode(raw).decode().rstrip('=')}"


BAD = [
    ("6x6", "shape-malformed"),  # no mode
    ("six by six.o", "shape-malformed"),
    ("6x6~!!.o", "shape-malformed"),
    ("6x6~AAAA.o", "shape-malformed"),  # too few bytes for 36 squares
    ("6x6.x", "shape-malformed"),
    ("", "shape-malformed"),
    ("21x6.o", "shape-too-big"),
    ("6x0.o", "shape-too-big"),
    ("6x6:" + ",".join(["a1"] * 200) + ".o", "shape-too-big"),  # over 500 characters
    (_all_holes(4, 4) + ".o", "shape-empty"),
    ("5x5:c3.o.c3", "start-on-hole"),
    ("5x5.c.f1", "start-off-board"),
    ("5x5.c.a6", "start-off-board"),
    ("5x5.c.zz", "start-off-board"),
]


@pytest.mark.parametrize(("puzzle", "code"), BAD)
@pytest.mark.parametrize("lang", LANGS)
def test_a_bad_puzzle_is_refused_with_its_shape_code_and_nothing_is_stored(
    app, client, puzzle, code, lang
):
    before = rows_stored(app)
    answer = ask(client, puzzle, lang=lang, status=400)
    assert answer["code"] == code
    params = {"max": 20, "start": _start_of(puzzle)}
    assert answer["error"] == MESSAGES[f"error.{code}"][lang].format(**params)
    assert rows_stored(app) == before


def _start_of(puzzle: str) -> str:
    parts = puzzle.split(".")
    return parts[2] if len(parts) == 3 else ""


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"puzzle": 66},
        {"puzzle": None},
        {"puzzle": ["6x6.o"]},
        {"puzzle": "6x6.o", "witness": 1},
    ],
)
def test_a_body_of_the_wrong_shape_is_bad_request(client, body):
    response = client.post("/api/verdict", json=body)
    assert response.status_code == 400 and response.get_json()["code"] == "bad-request"


def test_a_body_that_is_not_json_is_bad_request(client):
    response = client.post("/api/verdict", data=b"6x6.o", content_type="application/json")
    assert response.status_code == 400 and response.get_json()["code"] == "bad-request"
    response = client.post("/api/verdict", data=b"6x6.o", content_type="text/plain")
    assert response.status_code == 415 and response.get_json()["code"] == "not-json"
    assert client.get("/api/verdict").status_code == 405


def test_verdicts_are_rate_limited_per_client(tmp_path):
    app = create_app(
        {"TESTING": True, "INSTANCE_PATH": str(tmp_path / "i"), "RATE_LIMIT_VERDICTS": "2/minute"}
    )
    client = app.test_client()
    for _ in range(2):
        ask(client, "5x5.o")
    refused = client.post("/api/verdict?lang=en", json={"puzzle": "5x5.o"})
    assert refused.status_code == 429
    body = refused.get_json()
    assert body["code"] == "rate-limited"
    seconds = int(refused.headers["Retry-After"])
    assert seconds >= 1
    assert body["error"] == MESSAGES["error.rate-limited.verdicts"]["en"].format(seconds=seconds)
