"""The code lab: GET /lab, where a student's Python runs in the browser and plays on our board.

The program runs in a Web Worker under Pyodide (static/js/lab/worker.js), served from
static/vendor/pyodide/ (``make pyodide``); nothing of it reaches the server.  Two things
differ from the other pages' Content-Security-Policy, for this page only:

* the page maps CodeMirror's package names to its vendored files with an inline
  ``<script type="importmap">``, and the editor puts its styles in a ``<style>`` element:
  both are allowed by a nonce made for each response (never ``'unsafe-inline'``);
* WebAssembly needs ``'wasm-unsafe-eval'``: the worker gets it, in the policy of its own
  script's response, which is the one a dedicated worker runs under.  The page itself
  compiles no WebAssembly and does without.
"""

from __future__ import annotations

import json
import re
import secrets
from functools import cache
from pathlib import Path

from flask import Blueprint, Response, current_app, render_template, request, url_for

from ..lab import PROGRAMS, program
from ..stream import spec
from .security import content_security_policy

bp = Blueprint("lab", __name__)

WORKER = "js/lab/worker.js"
WORKER_SCRIPTS = "'self' 'wasm-unsafe-eval'"
CODEMIRROR = "vendor/codemirror"


@cache
def _import_names(static: str) -> dict[str, str]:
    """CodeMirror's packages and their files under static/ (vendor/codemirror/importmap.json)."""
    names = json.loads((Path(static) / CODEMIRROR / "importmap.json").read_text("utf-8"))
    return {name: f"{CODEMIRROR}/{path}" for name, path in names.items()}


def import_map() -> str:
    """The page's import map: each CodeMirror package name at its versioned address."""
    names = _import_names(current_app.static_folder)
    imports = {name: url_for("static", filename=path) for name, path in names.items()}
    return json.dumps({"imports": imports}, indent=1).replace("</", "<\\/")


def _side(name: str) -> int:
    """A board side from the address (a lesson's link), clamped to a search's; else 5."""
    value = request.args.get(name, "")
    side = int(value) if re.fullmatch(r"[0-9]{1,3}", value) else 5
    return min(max(side, spec.MIN_SIDE), spec.MAX_SIDE)


@bp.get("/lab")
def lab():
    """The lab: an editor, Run and Stop, and the recorded run on a Watch lane.

    A lesson's chapter links here with its program and board (``?example=start&rows=5&
    cols=5&start=a5``); the page reads ``start``.  Anything else in the address is
    ignored: the lab opens as it always does.
    """
    nonce = secrets.token_urlsafe(18)
    example = request.args.get("example", "")
    html = render_template(
        "lab.html",
        nonce=nonce,
        import_map=import_map(),
        programs={name: program(name) for name in PROGRAMS},
        example=example if example in PROGRAMS else "start",
        rows=_side("rows"),
        cols=_side("cols"),
    )
    response = Response(html, mimetype="text/html")
    own = f"'self' 'nonce-{nonce}'"
    response.headers["Content-Security-Policy"] = content_security_policy(own, own)
    return response


@bp.after_app_request
def worker_policy(response: Response) -> Response:
    """The worker's script (at its versioned or plain address) may compile WebAssembly."""
    static = current_app.static_url_path
    if request.path.startswith(f"{static}/") and request.path.endswith(f"/{WORKER}"):
        response.headers["Content-Security-Policy"] = content_security_policy(WORKER_SCRIPTS)
    return response
