"""Security headers on every response the app sends (pages, API, static files, errors).

The Content-Security-Policy matches what the pages load: scripts only from this origin
(the ES modules and the vendored socket.io client; no inline script), stylesheets from
this origin, the data: SVG favicon, and fetch / Socket.IO (long-polling and websocket)
back to this origin only.  CSP level 3 lets ``'self'`` match ``ws:``/``wss:`` on the same
host, which every current browser implements.  The templates set a few CSS custom
properties in ``style`` attributes (``--rows``/``--cols``, which the scripts then keep
up to date), so inline *attributes* are allowed while inline ``<style>`` elements are
not: ``style-src-attr 'unsafe-inline'`` with ``style-src 'self'``.  A browser without
``style-src-attr`` falls back to ``style-src 'self'`` and only loses those initial
values until the scripts set them.

A header a view set itself is kept (``setdefault``).

:class:`QueryStringGuard` percent-encodes a query string that is not UTF-8 before the
app sees it: production WSGI servers pass the request's raw bytes through, and
werkzeug's ``request.args`` would raise UnicodeDecodeError on them (a 500 on every
route).  Encoded, they decode like any other malformed ``%xx`` escape.

Three guards sit outside the whole app (Socket.IO's transport included), installed by
:func:`wrap` once the app is complete:

* :class:`SecurityHeaders` adds :data:`HEADERS` to every response, whoever made it:
  Flask, python-engineio's long-polling answers, the guards' own refusals;
* :class:`BodyLimit` caps a body however it is framed: a chunked body (no
  Content-Length) is read here up to the limit and reaches the app with a
  Content-Length, so Flask refuses an oversized one with 413 as it refuses any other
  (werkzeug stops reading a chunked body at the limit and hands over the truncated
  start as if it were complete); a Content-Length that is not a number, or a chunked
  body that is not well framed, is refused with 400;
* :class:`ServerErrorHeaders` is for the HTTP server itself: its own refusals (414 for
  a request line over 64 KiB, 431 for a header line over 64 KiB or more than 100
  headers, 400 for a request line it cannot parse) carry the headers too.
"""

from __future__ import annotations

import io
import json
from urllib.parse import quote, urlsplit

from flask import Flask
from werkzeug.wrappers import Request

from ..i18n import pick_lang, text


def content_security_policy(scripts: str = "'self'", styles: str = "'self'") -> str:
    """The policy, with ``scripts`` as its script-src and ``styles`` as its style-src: the
    code lab's page adds a nonce to both (its import map, its editor's style element), its
    worker ``'wasm-unsafe-eval'`` for Pyodide (server/web/lab.py); every other response has
    the plain one."""
    return "; ".join(
        (
            "default-src 'self'",
            f"script-src {scripts}",
            f"style-src {styles}",
            "style-src-attr 'unsafe-inline'",
            "img-src 'self' data:",
            "font-src 'self'",
            "connect-src 'self'",
            "object-src 'none'",
            "base-uri 'none'",
            "form-action 'self'",
            "frame-ancestors 'none'",
        )
    )


CONTENT_SECURITY_POLICY = content_security_policy()

HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",  # frame-ancestors for browsers that predate it
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=()",
}


PRINTABLE_ASCII = "".join(map(chr, range(0x21, 0x7F)))


class QueryStringGuard:
    """WSGI middleware: a query string that is not valid UTF-8 reaches the app %-encoded."""

    def __init__(self, wsgi_app) -> None:
        self.wsgi_app = wsgi_app

    def __call__(self, environ, start_response):
        query = environ.get("QUERY_STRING", "")
        if not query.isascii():
            raw = query.encode("latin-1", "replace")  # WSGI: the bytes, one char each
            try:
                raw.decode("utf-8")
            except UnicodeDecodeError:
                environ["QUERY_STRING"] = quote(raw, safe=PRINTABLE_ASCII)
        return self.wsgi_app(environ, start_response)


def register(app: Flask) -> None:
    """Guard the query string of every request ``app`` serves (see :func:`wrap`)."""
    app.wsgi_app = QueryStringGuard(app.wsgi_app)


def wrap(app: Flask) -> None:
    """Put :class:`BodyLimit` and :class:`SecurityHeaders` around everything ``app``
    serves; call it once the app is complete (after the Socket.IO middleware)."""
    app.wsgi_app = SecurityHeaders(BodyLimit(app.wsgi_app, app.config["MAX_CONTENT_LENGTH"]))


def same_origin(origin: str | None, host: str, scheme: str) -> bool:
    """Whether an ``Origin`` header names this very origin, ``scheme://host``.

    Absent counts as the same (not a browser's cross-site request: browsers send an
    Origin with every POST); ``null`` (an opaque origin: a sandboxed frame, a page from
    ``file:``, a cross-site redirect) and another scheme do not.  An origin that does not
    even parse (``http://[``) is a foreign one.  Behind a TLS proxy, ``PROXY_FIX`` gives
    the request its real scheme.
    """
    if not origin:
        return True
    try:
        parts = urlsplit(origin)
    except ValueError:
        return False
    return parts.scheme.lower() == scheme.lower() and parts.netloc.lower() == host.lower()


def request_language(environ) -> str:
    """The language of a request that has not reached Flask (as :func:`i18n.request_lang`)."""
    request = Request(environ)
    try:
        return pick_lang(
            request.args.get("lang"), request.cookies.get("lang"), request.accept_languages
        )
    except ValueError:  # pragma: no cover - werkzeug parses leniently
        return pick_lang(None, None)


def refuse(environ, start_response, status: int, code: str, key: str, retry_after=None):
    """A JSON refusal ``{"error", "code"}`` in the request's language, from WSGI."""
    reason = {400: "BAD REQUEST", 413: "CONTENT TOO LARGE", 429: "TOO MANY REQUESTS"}.get(
        status, "ERROR"
    )
    body = json.dumps({"error": text(key, request_language(environ)), "code": code})
    data = body.encode("utf-8")
    headers = [("Content-Type", "application/json"), ("Content-Length", str(len(data)))]
    if retry_after is not None:
        headers.append(("Retry-After", str(retry_after)))
    start_response(f"{status} {reason}", headers)
    return [data]


class SecurityHeaders:
    """WSGI middleware: :data:`HEADERS` on every response that lacks them."""

    def __init__(self, wsgi_app) -> None:
        self.wsgi_app = wsgi_app

    def __call__(self, environ, start_response):
        def start(status, headers, exc_info=None):
            present = {name.lower() for name, _ in headers}
            missing = [(n, v) for n, v in HEADERS.items() if n.lower() not in present]
            return start_response(status, [*headers, *missing], exc_info)

        return self.wsgi_app(environ, start)


class BodyLimit:
    """WSGI middleware: every body reaches the app with a valid Content-Length.

    A body the server terminates itself (``wsgi.input_terminated``: chunked, with
    werkzeug's server and gunicorn alike) and that has no Content-Length is read here,
    at most ``limit + 1`` bytes, and handed on with its length: over the limit, the
    app's own check refuses it (413 ``too-large``).  Only what the server framed is
    read, never more than that much.
    """

    def __init__(self, wsgi_app, limit: int) -> None:
        self.wsgi_app = wsgi_app
        self.limit = limit

    def __call__(self, environ, start_response):
        length = environ.get("CONTENT_LENGTH", "").strip()
        if length and not length.isdigit():  # "abc", "-1", "1, 2": the body is not framed
            return refuse(environ, start_response, 400, "bad-request", "error.bad-request.body")
        if not length and environ.get("wsgi.input_terminated"):
            try:
                body = read_at_most(environ["wsgi.input"], self.limit + 1)
            except (OSError, ValueError):  # a chunk header that is not one
                return refuse(environ, start_response, 400, "bad-request", "error.bad-request.body")
            environ["wsgi.input"] = io.BytesIO(body)
            environ["CONTENT_LENGTH"] = str(len(body))
            environ.pop("HTTP_TRANSFER_ENCODING", None)  # werkzeug ignores the length else
            environ.pop("wsgi.input_terminated", None)
        return self.wsgi_app(environ, start_response)


def read_at_most(stream, size: int) -> bytes:
    """Up to ``size`` bytes of ``stream`` (a raw stream may return less per read)."""
    parts, left = [], size
    while left > 0:
        part = stream.read(min(left, 65536))
        if not part:
            break
        parts.append(part)
        left -= len(part)
    return b"".join(parts)


class ServerErrorHeaders:
    """Mixed into the HTTP server's request handler (``BaseHTTPRequestHandler``): the
    refusals it sends itself, before any app sees the request, carry :data:`HEADERS`.

    ``send_error`` writes its status line and headers and ends them with
    ``end_headers``; the headers are added there, for that response only.
    """

    _adding_headers = False

    def send_error(self, code, message=None, explain=None):
        self._adding_headers = True
        try:
            super().send_error(code, message, explain)
        finally:
            self._adding_headers = False

    def end_headers(self):
        if self._adding_headers:
            for name, value in HEADERS.items():
                self.send_header(name, value)
        super().end_headers()
