"""Exported tours: the SVG is well-formed XML with a number per square and a line per
jump, and the PNG, painted from the same layout, decodes at the layout's size."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET

import pytest
from PIL import Image

from server.daily import generator
from server.share import drawing, png, svg

SVG = "{http://www.w3.org/2000/svg}"


def tour_layout(day: str, **extra) -> tuple[drawing.Layout, generator.Daily]:
    found = generator.daily(day)
    shape = found.puzzle.shape
    cols = shape.cols
    picture = drawing.layout(
        shape.rows,
        cols,
        holes=[divmod(sq, cols) for sq in shape.holes],
        path=[divmod(sq, cols) for sq in found.witness],
        closed=found.puzzle.closed,
        returned=found.puzzle.closed,
        **extra,
    )
    return picture, found


def centre_cell(x: float, y: float) -> tuple[int, int]:
    col = (x - drawing.MARGIN - drawing.CELL / 2) / drawing.CELL
    row = (y - drawing.MARGIN - drawing.CELL / 2) / drawing.CELL
    assert col.is_integer() and row.is_integer(), (x, y)
    return int(row), int(col)


@pytest.mark.parametrize("day", ["2025-03-05", "2025-03-08"])  # open, closed
def test_the_svg_has_a_number_per_square_and_a_line_per_knight_move(day):
    picture, found = tour_layout(day)
    root = ET.fromstring(svg.render(picture))
    shape = found.puzzle.shape
    numbers = root.findall(f".//{SVG}text[@class='number']")
    assert sorted(int(n.text) for n in numbers) == list(range(1, shape.size + 1))
    where = {int(n.text): centre_cell(float(n.get("x")), float(n.get("y"))) for n in numbers}
    assert {where[i] for i in where} == {divmod(sq, shape.cols) for sq in shape.board.squares()}
    lines = root.findall(f".//{SVG}line[@class='move']")
    jumps = shape.size - 1 + found.puzzle.closed
    assert len(lines) == jumps
    for i, line in enumerate(lines):
        a = centre_cell(float(line.get("x1")), float(line.get("y1")))
        b = centre_cell(float(line.get("x2")), float(line.get("y2")))
        assert sorted((abs(a[0] - b[0]), abs(a[1] - b[1]))) == [1, 2]
        assert a == where[i + 1] and b == where[(i + 1) % shape.size + 1]
    holes = root.findall(f".//{SVG}rect[@class='hole']")
    cells = {(int(h.get("data-row")), int(h.get("data-col"))) for h in holes}
    assert cells == {divmod(sq, shape.cols) for sq in shape.holes}
    assert int(root.get("width")) == picture.width


def test_text_in_the_svg_is_escaped():
    picture, _ = tour_layout("2025-03-05", title='<script>alert("x")</script> & co')
    text = svg.render(picture)
    assert "<script>" not in text
    assert ET.fromstring(text).find(f"{SVG}title").text == '<script>alert("x")</script> & co'


def test_a_worksheet_board_has_no_numbers_and_marks_the_start():
    found = generator.daily("2025-03-05")
    shape = found.puzzle.shape
    start = divmod(found.puzzle.start, shape.cols)
    picture = drawing.layout(
        shape.rows, shape.cols, holes=[divmod(sq, shape.cols) for sq in shape.holes],
        start=start, palette="print",
    )  # fmt: skip
    root = ET.fromstring(svg.render(picture))
    assert root.findall(f".//{SVG}text[@class='number']") == []
    assert root.findall(f".//{SVG}line[@class='move']") == []
    ring = root.find(f".//{SVG}circle[@class='start']")
    assert centre_cell(float(ring.get("cx")), float(ring.get("cy"))) == start


@pytest.mark.parametrize("scale", [1, 2])
def test_the_png_decodes_at_the_layouts_size(scale):
    picture, _ = tour_layout("2025-03-05")
    image = Image.open(io.BytesIO(png.render(picture, scale=scale)))
    image.load()
    assert image.format == "PNG"
    assert image.size == (picture.width * scale, picture.height * scale)


def test_the_png_paints_squares_and_holes_where_the_layout_has_them():
    found = generator.daily("2025-03-05")
    shape = found.puzzle.shape
    picture = drawing.layout(
        shape.rows, shape.cols, holes=[divmod(sq, shape.cols) for sq in shape.holes]
    )
    image = Image.open(io.BytesIO(png.render(picture, scale=2)))
    inset = picture.cell * 2 * 0.1  # near a corner, inside the frame
    for sq in picture.squares:
        pixel = image.getpixel((int(sq.x * 2 + inset), int(sq.y * 2 + inset)))
        if sq.hole:
            assert pixel in {(255, 255, 255), (0x9A, 0x9A, 0x9A)}  # white and its hatching
        else:
            assert pixel == ((0xB5, 0x88, 0x63) if sq.dark else (0xF0, 0xD9, 0xB5))
