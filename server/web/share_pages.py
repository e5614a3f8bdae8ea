"""Share pages: the daily puzzle, replay links with their SVG/PNG pictures, worksheets.

Thin views over server/daily, server/game/replays and server/share (the pictures are
pure functions of a layout).  The JSON behind them is in server/web/api.py.
"""

from __future__ import annotations

from flask import Blueprint, Response, abort, render_template, request

from ..daily import generator as daily_puzzles
from ..engine.shape import Puzzle, ShapeError, parse_puzzle
from ..game import replays
from ..game.rules import RuleError
from ..game.verdict_cache import verdicts as verdict_cache
from ..i18n import request_lang, text
from ..limits.budget import Refused, searching
from ..share import drawing, png, svg
from . import budgets, verdicts
from .api import daily_json

bp = Blueprint("share", __name__)

WORKSHEET_SECONDS = 2.0  # the verdict's search for the solution page


@bp.get("/daily")
def daily():
    """Today's puzzle (UTC), a button to play it, today's leaderboard."""
    today = daily_puzzles.daily(daily_puzzles.today())
    return render_template("daily.html", daily=daily_json(today))


def _replay_or_404(replay_id: str) -> dict:
    try:
        return replays.replay(replay_id)
    except RuleError:
        abort(404)


@bp.get("/replay/<replay_id>")
def replay(replay_id: str):
    """A shared tour played back move by move on the shared board."""
    try:
        found = replays.replay(replay_id)
    except RuleError:
        return render_template("replay.html", replay_id=None), 404
    return render_template("replay.html", replay_id=found["id"], replay=found)


def _title(found: dict) -> str:
    lang = request_lang()
    mode = text("ui.mode.closed" if found["closed"] else "ui.mode.open", lang)
    return f"{found['rows']}×{found['cols']} · {mode} · {found['puzzle']}"


def _replay_layout(found: dict) -> drawing.Layout:
    return drawing.layout(
        found["rows"],
        found["cols"],
        holes=found["holes"],
        path=found["path"],
        closed=found["closed"],
        returned=found["returned"],
        title=_title(found),
    )


def _picture(body: bytes | str, mimetype: str, name: str) -> Response:
    response = Response(body, mimetype=mimetype)
    response.headers["Content-Disposition"] = f'inline; filename="{name}"'
    response.headers["Cache-Control"] = "public, max-age=86400"  # a finished tour never changes
    return response


@bp.get("/replay/<replay_id>.svg")
def replay_svg(replay_id: str):
    found = _replay_or_404(replay_id)
    picture = svg.render(_replay_layout(found))
    return _picture(picture, "image/svg+xml", f"knights-tour-{found['id']}.svg")


@bp.get("/replay/<replay_id>.png")
def replay_png(replay_id: str):
    found = _replay_or_404(replay_id)
    try:
        with searching():  # no search, but pure-Python drawing: charged like one
            picture = png.render(_replay_layout(found))
    except Refused as err:
        return budgets.refusal(err)
    return _picture(picture, "image/png", f"knights-tour-{found['id']}.png")


def _puzzle_layouts(puzzle: Puzzle, lang: str, palette: str = "print"):
    """The puzzle to fill in, its verdict, and its solution's picture (None without a tour)."""
    shape = puzzle.shape
    cols = shape.cols
    holes = [divmod(sq, cols) for sq in shape.holes]
    start = divmod(puzzle.start, cols) if puzzle.start is not None else None
    mode = text("ui.mode.closed" if puzzle.closed else "ui.mode.open", lang)
    title = f"{shape.rows}×{cols} · {mode} · {puzzle.code}"
    task = drawing.layout(shape.rows, cols, holes=holes, start=start, palette=palette, title=title)
    verdict = verdict_cache.decide(puzzle, time_limit=WORKSHEET_SECONDS)
    solution = None
    if verdict.tour:
        solution = drawing.layout(
            shape.rows,
            cols,
            holes=holes,
            path=[divmod(sq, cols) for sq in verdict.witness],
            closed=puzzle.closed,
            returned=puzzle.closed,
            palette=palette,
            title=title,
        )
    return task, verdict, solution


def _worksheet_pictures(puzzle: Puzzle, lang: str) -> dict:
    """Page 1: the board to fill in; page 2: the solution, when the verdict finds one."""
    task, verdict, solution = _puzzle_layouts(puzzle, lang)
    return {
        "task": svg.render(task),
        "solution": svg.render(solution) if solution else None,
        "verdict": verdict,
        "start_name": puzzle.shape.board.name(puzzle.start) if puzzle.start is not None else None,
    }


@bp.get("/worksheet")
def worksheet():
    """A printable worksheet: the puzzle to number, then its solution on page 2."""
    code = request.args.get("puzzle", "")
    lang = request_lang()
    try:
        puzzle = parse_puzzle(code)
    except ShapeError as err:  # said as the API and the editor say it
        why = text(f"error.{err.code}", lang, err.params)
        return render_template("worksheet.html", error=True, code=code[:100], why=why), 400
    try:
        with searching():  # the verdict's search and the drawing, charged to the client
            pictures = _worksheet_pictures(puzzle, lang)
    except Refused as err:  # the solution needs a search the client may not run now
        why = budgets.words(err, lang)
        page = render_template("worksheet.html", error=True, busy=True, code=code, why=why)
        status = budgets.STATUS[budgets.code_of(err)]
        return page, status, budgets.retry_after(err)
    why_not = (
        None if pictures["verdict"].tour else verdicts.reason(pictures["verdict"], puzzle, lang)
    )
    return render_template(
        "worksheet.html", error=False, puzzle=puzzle, why_not=why_not, **pictures
    )


def _puzzle_picture(kind: str):
    """A puzzle's picture: the board to fill in, or with ``solution=1`` its solved tour."""
    try:
        puzzle = parse_puzzle(request.args.get("puzzle", ""))
    except ShapeError:
        abort(400)
    palette = "print" if request.args.get("palette") == "print" else "board"
    try:
        with searching():  # the verdict's search and the drawing (a PNG is pure Python)
            task, _verdict, solution = _puzzle_layouts(puzzle, request_lang(), palette)
            picture = task
            if request.args.get("solution") in ("1", "true"):
                if solution is None:
                    abort(404)  # no tour: nothing to draw
                picture = solution
            body = svg.render(picture) if kind == "svg" else png.render(picture)
    except Refused as err:
        return budgets.refusal(err)
    name = f"knights-tour-puzzle.{kind}"
    return _picture(body, "image/svg+xml" if kind == "svg" else "image/png", name)


@bp.get("/puzzle.svg")
def puzzle_svg():
    return _puzzle_picture("svg")


@bp.get("/puzzle.png")
def puzzle_png():
    return _puzzle_picture("png")
