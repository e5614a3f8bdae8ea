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
"""

from __future__ import annotations

from urllib.parse import quote, urlsplit

from flask import Flask

CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
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
    """Add :data:`HEADERS` to every response of ``app``; guard the query string."""
    app.wsgi_app = QueryStringGuard(app.wsgi_app)

    @app.after_request
    def security_headers(response):
        for name, value in HEADERS.items():
            response.headers.setdefault(name, value)
        return response


def same_origin(origin: str | None, host: str) -> bool:
    """Whether an ``Origin`` header names ``host`` (absent and ``null`` count as same).

    An origin that does not even parse (``http://[``) is a foreign one.
    """
    if not origin or origin == "null":
        return True
    try:
        return urlsplit(origin).netloc == host
    except ValueError:
        return False
