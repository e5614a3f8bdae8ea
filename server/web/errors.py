"""Every HTTP error is a JSON body with an ``error`` for API clients, never a traceback.

Under ``/api`` an error no view raised (an unknown route: 404, a wrong method: 405, a
body over the limit: 413, a bug: 500) is answered as the API's own refusals are:
``{"error", "code"}`` with the words in the request's language (server/web/api.py).
"""

from __future__ import annotations

from flask import Flask, request
from werkzeug.exceptions import HTTPException

from .api import http_error as api_error
from .api import internal_error


def _is_api() -> bool:
    return request.path == "/api" or request.path.startswith("/api/")


def register(app: Flask) -> None:
    @app.errorhandler(HTTPException)
    def http_error(err: HTTPException):
        if _is_api():
            return api_error(err)
        return err

    @app.errorhandler(Exception)
    def unexpected(err: Exception):
        app.logger.exception("unhandled error on %s", request.path)
        return internal_error()
