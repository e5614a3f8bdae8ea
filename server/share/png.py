"""A tour's picture as PNG, painted with Pillow from the same layout as the SVG.

Pillow is the well-kept imaging library; drawing the layout's rectangles, lines,
circles and digits directly avoids an SVG rasteriser (cairo) as a system dependency.
``scale`` multiplies every coordinate, for sharp slides.
"""

from __future__ import annotations

import io

from PIL import Image, ImageDraw, ImageFont

from .drawing import Layout

DEFAULT_SCALE = 2


def _hatch(pen: ImageDraw.ImageDraw, x: int, y: int, size: int, colour: str) -> None:
    """45° lines across one square (x + y constant on each), clipped to it."""
    edge = size - 1
    for k in range(size // 6, 2 * edge, max(4, size // 6)):
        start = (x + max(0, k - edge), y + min(k, edge))
        end = (x + min(k, edge), y + max(0, k - edge))
        pen.line((*start, *end), fill=colour, width=2)


def render(drawing: Layout, scale: int = DEFAULT_SCALE) -> bytes:
    colours, cell = drawing.colours, drawing.cell * scale
    image = Image.new("RGB", (drawing.width * scale, drawing.height * scale), colours["badge"])
    pen = ImageDraw.Draw(image)
    for sq in drawing.squares:
        box = (sq.x * scale, sq.y * scale, sq.x * scale + cell - 1, sq.y * scale + cell - 1)
        if sq.hole:
            pen.rectangle(box, fill=colours["hole"], outline=colours["hatch"])
            _hatch(pen, box[0], box[1], cell, colours["hatch"])
        else:
            pen.rectangle(box, fill=colours["dark" if sq.dark else "light"])
    first = drawing.squares[0]
    last = drawing.squares[-1]
    pen.rectangle(
        (first.x * scale, first.y * scale, last.x * scale + cell, last.y * scale + cell),
        outline=colours["frame"],
        width=2 * scale,
    )
    width = max(1, round(cell / 14))
    for line in drawing.lines:
        pen.line(
            (line.x1 * scale, line.y1 * scale, line.x2 * scale, line.y2 * scale),
            fill=colours["line"],
            width=width,
        )
    if drawing.start is not None:
        x, y = drawing.start[0] * scale, drawing.start[1] * scale
        r = cell * 0.42
        pen.ellipse((x - r, y - r, x + r, y + r), outline=colours["start"], width=round(cell / 12))
    number_font = ImageFont.load_default(size=round(cell * 0.3))
    label_font = ImageFont.load_default(size=round(cell * 0.27))
    for label in drawing.labels:
        x, y = label.x * scale, label.y * scale
        if label.kind == "number":
            r = cell * 0.3
            pen.ellipse(
                (x - r, y - r, x + r, y + r),
                fill=colours["badge"],
                outline=colours["line"],
                width=max(1, scale),
            )
            pen.text((x, y), label.text, fill=colours["number"], font=number_font, anchor="mm")
        else:
            pen.text((x, y), label.text, fill=colours["label"], font=label_font, anchor="mm")
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
