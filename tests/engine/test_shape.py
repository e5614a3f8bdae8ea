"""Shape and puzzle codes: one canonical text per shape, every refusal named."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from server.engine.shape import (
    MAX_SHAPE_SIDE,
    Puzzle,
    Shape,
    ShapeError,
    parse_puzzle,
    parse_shape,
    shape_from_art,
)


@st.composite
def shapes(draw):
    rows = draw(st.integers(1, MAX_SHAPE_SIDE))
    cols = draw(st.integers(1, MAX_SHAPE_SIDE))
    area = rows * cols
    holes = draw(st.frozensets(st.integers(0, area - 1), max_size=area - 1))
    return Shape(rows, cols, holes)


@given(shapes())
def test_every_shape_round_trips_through_its_code_and_its_art(shape):
    assert parse_shape(shape.code) == shape
    assert shape_from_art(shape.art()) == shape
    assert parse_shape("/".join(shape.art())) == shape


@given(shapes(), st.booleans(), st.data())
def test_every_puzzle_round_trips_through_its_code(shape, closed, data):
    if shape.cols > 26:
        return
    open_squares = sorted(set(range(shape.rows * shape.cols)) - shape.holes)
    start = data.draw(st.none() | st.sampled_from(open_squares))
    puzzle = Puzzle(shape, closed, start)
    assert parse_puzzle(puzzle.code) == puzzle


def test_codes_are_short_and_canonical():
    full = Shape(20, 20, frozenset(range(0, 400, 3)))
    assert len(full.code) <= 73
    assert Shape(6, 6).code == "6x6"
    same = parse_shape("6x6:f6,a1")
    assert same == parse_shape("6x6:a1,f6") == parse_shape(same.code)
    assert same.code == "6x6~IAAAQAA"
    assert same.holes == frozenset({0 * 6 + 5, 5 * 6 + 0})  # f6 top right, a1 bottom left


def test_named_holes_art_and_code_agree():
    art = parse_shape("#.../..../...#")
    assert art == parse_shape("3x4:a3,d1")
    assert art.size == 10
    assert parse_puzzle(f"{art.code}.c.b1") == Puzzle(art, True, art.board.parse_name("b1"))


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", "shape-malformed"),
        ("6x", "shape-malformed"),
        ("6by6", "shape-malformed"),
        ("6x6~!!", "shape-malformed"),
        ("6x6~AAAA", "shape-malformed"),  # 3 bytes where 36 squares need 5
        ("2x2~8A", "shape-malformed"),  # a hole beyond the 4 squares
        ("6x6:z9", "shape-malformed"),
        ("../.x", "shape-malformed"),
        ("../...", "shape-malformed"),
        ("21x5", "shape-too-big"),
        ("0x5", "shape-too-big"),
        ("99999x5", "shape-malformed"),
        ("6x6" + "~A" * 400, "shape-too-big"),
        ("#/#", "shape-empty"),
        ("1x1:a1", "shape-empty"),
    ],
)
def test_bad_shapes_are_refused_with_a_code(text, code):
    with pytest.raises(ShapeError) as refused:
        parse_shape(text)
    assert refused.value.code == code


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("6x6", "shape-malformed"),  # no mode
        ("6x6.x", "shape-malformed"),
        ("6x6.o.a1.b2", "shape-malformed"),
        ("6x6.o.g1", "start-off-board"),
        ("6x6.o.a7", "start-off-board"),
        ("6x6.o.<b>", "start-off-board"),
        ("6x6:a1.o.a1", "start-on-hole"),
        ("6x6:a1,b1,c1,d1,e1,f1,a2.c.c2", None),  # fine
    ],
)
def test_bad_puzzles_are_refused_with_a_code(text, code):
    if code is None:
        assert parse_puzzle(text).start is not None
        return
    with pytest.raises(ShapeError) as refused:
        parse_puzzle(text)
    assert refused.value.code == code


def test_non_text_is_malformed_not_a_crash():
    for value in (None, 5, ["6x6"], b"6x6"):
        with pytest.raises(ShapeError) as refused:
            parse_shape(value)
        assert refused.value.code == "shape-malformed"
