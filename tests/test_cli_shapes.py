"""The CLI on shapes: ``--holes``, ``--shape``, puzzle codes, and ``verdict``."""

from __future__ import annotations

import json

import pytest

from server.engine.shape import parse_puzzle
from tests.test_cli import run
from tests.tourcheck import assert_tour


def holes_of(code: str) -> set[int]:
    return set(parse_puzzle(code).shape.holes)


@pytest.mark.parametrize(
    ("argv", "rows", "cols", "holes", "closed"),
    [
        (["solve", "5x5", "--holes", "c3"], 5, 5, {12}, False),
        (["solve", "--shape", "5x5:c3"], 5, 5, {12}, False),
        (["solve", "--shape", "#..../...../...../...../....."], 5, 5, {0}, False),
        (["solve", "5x5:a1.c"], 5, 5, {20}, True),
        (["solve", "5x5", "--holes", "a1", "--closed", "--algorithm", "warnsdorff"],
         5, 5, {20}, True),
        (["solve", "5x5~AAAQAA.c"], 5, 5, {20}, True),
    ],
)  # fmt: skip
def test_solve_a_shape_finds_a_checked_tour(capsys, argv, rows, cols, holes, closed):
    code, out, err = run(capsys, *argv, "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert (doc["rows"], doc["cols"], doc["closed"]) == (rows, cols, closed)
    assert {r * cols + c for r, c in doc["holes"]} == holes
    assert_tour(rows, cols, doc["tour"], closed=closed, blocked=holes)


def test_a_fixed_start_is_kept(capsys):
    code, out, _ = run(capsys, "solve", "5x5:a1.c.e5", "--json")
    assert code == 0
    tour = json.loads(out)["tour"]
    assert_tour(5, 5, tour, closed=True, start=(0, 4), blocked={20})


def test_solve_prints_holes_as_hashes(capsys):
    code, out, _ = run(capsys, "solve", "5x5", "--holes", "c3")
    assert code == 0
    grid = [line.split("\t") for line in out.splitlines()[:5]]
    assert grid[2][2] == "#" and sorted(int(n) for row in grid for n in row if n != "#") == list(
        range(1, 25)
    )


def test_no_tour_on_a_shape_exits_3(capsys):
    code, out, err = run(capsys, "solve", "4x5:a1.c")
    assert code == 3 and out == "" and err.startswith("knights-tour:")


def test_hint_on_a_shape(capsys):
    code, out, _ = run(capsys, "hint", "5x5", "--holes", "c3", "--path", "0,0", "1,2", "--json")
    assert code == 0
    doc = json.loads(out)
    assert doc["verdict"] == "completable" and [2, 2] not in doc["witness"]
    assert_tour(5, 5, [[0, 0], [1, 2], *doc["witness"]], blocked={12})


def test_verdict_with_a_witness(capsys):
    code, out, _ = run(capsys, "verdict", "5x5:c3.o", "--witness", "--json")
    assert code == 0
    doc = json.loads(out)
    assert doc["tour"] is True and doc["puzzle"] == "5x5~ABAAAA.o"
    assert_tour(5, 5, doc["witness"], blocked={12})
    code, out, _ = run(capsys, "verdict", "5x5:c3.o")
    assert code == 0 and out.strip() == "5x5~ABAAAA.o: a tour exists"


def test_verdict_names_the_obstacle(capsys):
    code, out, _ = run(capsys, "verdict", "4x5:a1.c")
    assert code == 3
    first, second = out.splitlines()
    assert "no tour (colour)" in first and second.startswith("look at: ")
    code, out, _ = run(capsys, "verdict", "4x5:a1.c", "--json")
    doc = json.loads(out)
    assert doc["tour"] is False and doc["code"] == "colour" and doc["witness"] is None


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["solve", "--shape", "7y7"], "shape-malformed"),
        (["solve", "--shape", "21x3"], "shape-too-big"),
        (["solve", "--shape", "###/###/###"], "shape-empty"),
        (["solve", "5x5:c3.o.c3"], "start-on-hole"),
        (["solve", "5x5.o.z9"], "start-off-board"),
        (["solve", "5x5", "--holes", "a1", "--start", "4,0"], "start-on-hole"),
        (["solve", "5x5", "--holes", "z9"], "not a square"),
        (["solve", "5x5", "--shape", "5x5"], "either"),
        (["solve"], "missing"),
        (["solve", "5x5", "--holes", "c3", "--algorithm", "construct"], "no holes"),
        (["solve", "5x5:a1.c.e5", "--start", "0,0"], "starts on e5"),
        (["hint", "5x5", "--holes", "c3", "--path", "2,2"], "blocked"),
        (["hint", "5x5:a1.c.e5", "--path", "0,0"], "starts on e5"),
        (["verdict", "5x5~!!.o"], "shape-malformed"),
        (["verdict", "5x5"], "shape-malformed"),
        (["verdict"], ""),
    ],
)
def test_bad_shapes_exit_2_with_one_line(capsys, argv, words):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("knights-tour: error:") and words in lines[0]
