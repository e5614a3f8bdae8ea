"""Static files at versioned addresses, kept by browsers for a year.

A class's phones reload the students' page often (a phone that slept, a tab closed by
mistake, a reconnect that gave up). Revalidated on every use, each reload asked again for
the page's forty-odd files, and a room of phones reloading at once asked a small server
for thousands. So every static address is ``/static/v/<version>/<path>``, the version a
digest of the whole static tree: a release changes it, so a browser may keep each file
for good (``immutable``), and a reload asks for the page alone.

The whole tree and not each file, because the pages' ES modules import each other by
relative paths (``../core/i18n.js``): under a versioned directory those resolve to
versioned addresses by themselves, with no import map and no build step.

``url_for("static", filename=...)`` builds the versioned address (:class:`VersionedFlask`,
the class ``create_app`` makes), so templates and code name static files as Flask does.
The plain ``/static/<path>`` still answers, revalidated on every use. An address with
another version (a page from before an upgrade) gets today's file, not kept. With
``app.debug`` addresses are plain: an edited file shows on the next reload.

A page that must paint before anything else has loaded (the students' class page, which
the server draws) asks for its stylesheets as one *pack*: their concatenation, in order,
at ``/static/v/<version>/packs/<name>.css``.  Five stylesheets were five connections and
five server threads, each waited for by the first paint while the page's other files were
also being served.  The packed files hold no relative ``url()`` (a test checks), so moving
them into one file changes nothing they mean.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from flask import Flask, abort, current_app, request, url_for

ENDPOINT = "versioned_static"
PACK_ENDPOINT = "stylesheet_pack"
PACKS = {
    # the students' class page: base.html's two, then the page's own (class_student.html)
    "class-student": (
        "css/app.css",
        "css/board.css",
        "css/watch.css",
        "css/stack.css",
        "css/quiz.css",
        "css/class.css",
    ),
}
PIN = "pin.json"  # a fetched folder's pin (tools/fetch_pyodide.py)
KEEP = "public, max-age=31536000, immutable"  # a year: as long as a cache keeps anything
EXTENSION = "static_version"


def pinned_files(folder: Path) -> set[Path]:
    """The files a ``pin.json`` under ``folder`` stands for: fetched, not in git, and named
    by the digest the pin holds (static/vendor/pyodide/: 13 MB that would otherwise be read
    and hashed at every start)."""
    named = set()
    for pin in folder.rglob(PIN):
        files = json.loads(pin.read_text(encoding="utf-8")).get("files", [])
        named.update(pin.parent / name for name in files)
    return named


def tree_digest(folder: Path) -> str:
    """A short digest of every file under ``folder``: its relative path and its bytes (a
    pinned file's bytes by its pin's, :func:`pinned_files`)."""
    digest = hashlib.sha256()
    skipped = pinned_files(folder)
    for path in sorted(p for p in folder.rglob("*") if p.is_file() and p not in skipped):
        digest.update(path.relative_to(folder).as_posix().encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def static_version(app: Flask) -> str:
    """The static tree's version, read once per process (a release restarts it)."""
    version = app.extensions.get(EXTENSION)
    if version is None:
        version = app.extensions[EXTENSION] = tree_digest(Path(app.static_folder))
    return version


class VersionedFlask(Flask):
    """Flask whose ``url_for("static", ...)`` gives the versioned address."""

    def url_for(self, endpoint: str, *args, **values) -> str:
        if endpoint == "static" and not self.debug and ENDPOINT in self.view_functions:
            endpoint = ENDPOINT
            values["version"] = static_version(self)
        return super().url_for(endpoint, *args, **values)


def serve_versioned(version: str, filename: str):
    response = current_app.send_static_file(filename)
    if version == static_version(current_app) and response.status_code in (200, 304):
        response.headers["Cache-Control"] = KEEP
    return response


def read_pack(app: Flask, name: str) -> tuple[bytes, str]:
    """The pack's stylesheets, one after the other, and their ETag (read once per process,
    unless debug)."""
    packs = app.extensions.setdefault("static_packs", {})
    pack = packs.get(name)
    if pack is None or app.debug:
        folder = Path(app.static_folder)
        parts = [
            f"/* {path} */\n{(folder / path).read_text(encoding='utf-8')}" for path in PACKS[name]
        ]
        body = "\n".join(parts).encode()
        pack = packs[name] = (body, hashlib.sha256(body).hexdigest()[:16])
    return pack


def serve_pack(version: str, name: str):
    if name not in PACKS:
        abort(404)
    body, etag = read_pack(current_app, name)
    response = current_app.response_class(body, mimetype="text/css")
    response.set_etag(etag)
    kept = version == static_version(current_app) and not current_app.debug
    response.headers["Cache-Control"] = KEEP if kept else "no-cache"
    return response.make_conditional(request)


def pack_href(name: str) -> str:
    """The address of the stylesheet pack ``name`` (one of :data:`PACKS`)."""
    return url_for(PACK_ENDPOINT, version=static_version(current_app), name=name)


def register(app: Flask) -> None:
    """Add the versioned routes beside Flask's own static one."""
    app.add_url_rule(
        f"{app.static_url_path}/v/<version>/packs/<name>.css",
        endpoint=PACK_ENDPOINT,
        view_func=serve_pack,
    )
    app.add_url_rule(
        f"{app.static_url_path}/v/<version>/<path:filename>",
        endpoint=ENDPOINT,
        view_func=serve_versioned,
    )
    app.add_template_global(pack_href)
