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
import secrets
from functools import cache
from pathlib import Path

from flask import Blueprint, Response, current_app, render_template, request, url_for

from ..lab import PROGRAMS, program
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


@bp.get("/lab")
def lab():
    """The lab: an editor, Run and Stop, and the recorded run on a Watch lane."""
    nonce = secrets.token_urlsafe(18)
    html = render_template(
        "lab.html",
        nonce=nonce,
        import_map=import_map(),
        programs={name: program(name) for name in PROGRAMS},
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
