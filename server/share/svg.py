"""A tour's picture as SVG text (for slides, worksheets and the /replay page's export).

Pure text from server/share/drawing.py's layout; every piece of text is escaped, so a
title may hold anything.  Elements carry classes (``square``, ``hole``, ``move``,
``number``, ``start``) for styling and for the tests.
"""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from .drawing import Layout

FONT = "system-ui, -apple-system, 'Segoe UI', 'Noto Sans', sans-serif"


def _n(value: float) -> str:
    return f"{value:g}"


def render(drawing: Layout) -> str:
    """The layout as a standalone SVG document."""
    colours, cell = drawing.colours, drawing.cell
    out = [
        '<svg xmlns="http://www.w3.org/2000/svg"'
        f' width="{drawing.width}" height="{drawing.height}"'
        f' viewBox="0 0 {drawing.width} {drawing.height}" font-family={quoteattr(FONT)}>',
        f"<title>{escape(drawing.title)}</title>",
        '<defs><pattern id="hatch" width="8" height="8" patternUnits="userSpaceOnUse"'
        ' patternTransform="rotate(45)">'
        f'<line x1="0" y1="0" x2="0" y2="8" stroke="{colours["hatch"]}" stroke-width="2"/>'
        "</pattern></defs>",
        f'<rect width="100%" height="100%" fill="{colours["badge"]}"/>',
        '<g class="board">',
    ]
    for sq in drawing.squares:
        if sq.hole:
            out.append(
                f'<rect class="hole" data-row="{sq.row}" data-col="{sq.col}" x="{_n(sq.x)}"'
                f' y="{_n(sq.y)}" width="{cell}" height="{cell}" fill="url(#hatch)"'
                f' stroke="{colours["hatch"]}"/>'
            )
        else:
            fill = colours["dark" if sq.dark else "light"]
            out.append(
                f'<rect class="square" data-row="{sq.row}" data-col="{sq.col}" x="{_n(sq.x)}"'
                f' y="{_n(sq.y)}" width="{cell}" height="{cell}" fill="{fill}"/>'
            )
    rows_span = max(sq.y for sq in drawing.squares) + cell - drawing.squares[0].y
    cols_span = max(sq.x for sq in drawing.squares) + cell - drawing.squares[0].x
    out.append(
        f'<rect x="{_n(drawing.squares[0].x)}" y="{_n(drawing.squares[0].y)}"'
        f' width="{_n(cols_span)}" height="{_n(rows_span)}" fill="none"'
        f' stroke="{colours["frame"]}" stroke-width="2"/>'
    )
    out.append("</g>")
    out.append(
        f'<g class="path" stroke="{colours["line"]}" stroke-width="{_n(cell / 14)}"'
        ' stroke-linecap="round">'
    )
    for line in drawing.lines:
        out.append(
            f'<line class="move" x1="{_n(line.x1)}" y1="{_n(line.y1)}"'
            f' x2="{_n(line.x2)}" y2="{_n(line.y2)}"/>'
        )
    out.append("</g>")
    if drawing.start is not None:
        x, y = drawing.start
        out.append(
            f'<circle class="start" cx="{_n(x)}" cy="{_n(y)}" r="{_n(cell * 0.42)}" fill="none"'
            f' stroke="{colours["start"]}" stroke-width="{_n(cell / 12)}"/>'
        )
    out.append('<g class="labels" text-anchor="middle" dominant-baseline="central">')
    for label in drawing.labels:
        if label.kind == "number":
            out.append(
                f'<circle cx="{_n(label.x)}" cy="{_n(label.y)}" r="{_n(cell * 0.3)}"'
                f' fill="{colours["badge"]}" stroke="{colours["line"]}" stroke-width="1.5"/>'
                f'<text class="number" x="{_n(label.x)}" y="{_n(label.y)}"'
                f' font-size="{_n(cell * 0.3)}" font-weight="600"'
                f' fill="{colours["number"]}">{escape(label.text)}</text>'
            )
        else:
            out.append(
                f'<text class="{label.kind}" x="{_n(label.x)}" y="{_n(label.y)}"'
                f' font-size="{_n(cell * 0.27)}" fill="{colours["label"]}">'
                f"{escape(label.text)}</text>"
            )
    out.append("</g></svg>")
    return "\n".join(out) + "\n"
