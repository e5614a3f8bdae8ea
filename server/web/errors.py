"""Every HTTP error is a JSON body with an ``error`` for API clients, never a traceback."""

from __future__ import annotations

from flask import Flask, jsonify, request
from werkzeug.exceptions import HTTPException


def register(app: Flask) -> None:
    @app.errorhandler(HTTPException)
    def http_error(err: HTTPException):
        if request.path == "/api" or request.path.startswith("/api/"):
            code = (err.name or "error").lower().replace(" ", "-")
            return jsonify(error=err.description, code=code, status=err.code), err.code
        return err

    @app.errorhandler(Exception)
    def unexpected(err: Exception):
        app.logger.exception("unhandled error on %s", request.path)
        return jsonify(error="internal error"), 500
