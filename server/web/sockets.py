"""What every Socket.IO namespace of the app shares: answering, refusing, and the guards.

A namespace is a :class:`flask_socketio.Namespace` subclass of :class:`AnsweringNamespace`:
its ``on_<event>(payload)`` methods validate (with the message models), call down into
the domain packages and return the acknowledgement.  Refusals are mapped here, in one
place, for ``/watch`` and ``/class`` alike: a ``ValidationError`` (worded by
server/web/refusals.py), a :class:`~server.stream.spec.ProtocolError` or a
:class:`~server.classroom.messages.ClassError` becomes an ``error`` event to the sender
*and* the ``{"ok": false, "error": ...}`` acknowledgement, in the connection's
language; a flood gets at most one ``error`` event a second; a bug is logged and
answered ``internal`` instead of leaving the client waiting.

A payload holding text that is not Unicode (a lone surrogate, server/web/text.py) is
refused here, before any handler reads a field of it: ``bad-request``.

Events named ``connect`` or ``disconnect`` that a *client* sends are refused:
python-socketio hands them to the connection handlers, where a replay would swap a
connection's record or stop its runs.

An event the namespace does not know is dropped without an answer, as docs/protocol.md
says (python-socketio's rule for a namespace without a handler): Flask-SocketIO's
namespace class answered it an empty acknowledgement.
"""

from __future__ import annotations

import functools
import logging
import time
from contextlib import AbstractContextManager, nullcontext

from flask import current_app, request
from flask_socketio import Namespace
from pydantic import ValidationError

from ..classroom.messages import ClassError
from ..i18n import reason_text, request_lang, text
from ..stream.spec import ProtocolError, run_of
from .refusals import WATCH, Wording, refusal_of
from .text import has_lone_surrogate

log = logging.getLogger(__name__)

CONNECTION_EVENTS = ("on_connect", "on_disconnect")


def server():
    """The Socket.IO server of the app handling this event (tests run many apps)."""
    return current_app.extensions["socketio_server"]


def is_client_event(namespace: str) -> bool:
    """Whether a connect/disconnect handler runs for a client's *event* of that name.

    A real connection runs them while the sid is not yet (or no longer) connected.
    """
    return server().manager.is_connected(request.sid, namespace)


def _words(key: str, params: dict, lang: str) -> str:
    """The refusal's message; an engine reason in it (``reason_code``) in ``lang`` too."""
    params = dict(params)
    if "reason_code" in params:
        params["reason"] = reason_text(
            "theory", params.pop("reason_code"), params.pop("reason_params"), params["reason"], lang
        )
    return text(key, lang, params)


def error_body(err: Exception, lang: str, payload=None) -> dict:
    """The ``error`` event's body for a refusal, worded in ``lang``."""
    if isinstance(err, ProtocolError):
        run = err.run if err.run is not None else run_of(payload)
        return {"run": run, "code": err.code, "message": _words(err.key, err.params, lang)}
    assert isinstance(err, ClassError)
    params = {k: v for k, v in err.params.items() if k != "state"}
    body = {"run": None, "code": err.code, "message": _words(err.key, params, lang)}
    if "gen" in err.params:
        body["gen"] = err.params["gen"]
    if "state" in err.params:
        body["state"] = err.params["state"]
    return body


class AnsweringNamespace(Namespace):
    """A namespace whose event handlers answer every message (see the module docstring).

    Subclasses define ``language(sid)`` (the connection's language, or None before it
    is known), ``throttle(sid)`` (the connection's rate-error clock holder, or None)
    and ``internal_error`` (the key of the words for a bug).
    """

    internal_error = "watch.error.internal"
    internal_code = "bad-request"
    refusal_class = ProtocolError  # the refusals of this namespace (ClassError on /class)
    wording: Wording = WATCH  # how its models' type errors are worded

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        for name, handler in list(vars(cls).items()):
            if name.startswith("on_") and name not in CONNECTION_EVENTS and callable(handler):
                setattr(cls, name, _answering(name[3:], handler))

    def trigger_event(self, event, *args):
        """Dispatch to ``on_<event>``; an event without one is not handled: python-socketio
        then sends no acknowledgement (``server.not_handled``, checked by
        tests/web/test_socket_hooks.py)."""
        if not callable(getattr(self, f"on_{event or ''}", None)):
            return self.server.not_handled
        return super().trigger_event(event, *args)

    def language(self, sid: str) -> str | None:  # pragma: no cover - overridden
        return None

    def translate(self, err: Exception) -> Exception | None:
        """A refusal for an exception that is not a bug (None: it is one)."""
        return None

    def throttle(self, sid: str):  # pragma: no cover - overridden
        return None

    def turn(self, sid: str) -> AbstractContextManager:
        """The block a handler runs in: its turn at the process's handlers (``/class``)."""
        return nullcontext()

    def refuse_client_event(self, payload=None) -> dict:
        """The answer to a forged connect/disconnect event."""
        return self.answer_refusal(ProtocolError("bad-request"), payload)

    def answer_refusal(self, err: Exception, payload) -> dict:
        sid = request.sid
        lang = self.language(sid) or request_lang()
        body = error_body(err, lang, payload)
        holder = self.throttle(sid)
        if body["code"] == "rate-limited" and holder is not None:
            # a flood gets one error event a second, not one per message
            now = time.monotonic()
            if now - holder.last_rate_error < 1.0:
                return {"ok": False, "error": body}
            holder.last_rate_error = now
        server().emit("error", body, to=sid, namespace=self.namespace)
        return {"ok": False, "error": body}


def _answering(event: str, handler):
    @functools.wraps(handler)
    def answer(self: AnsweringNamespace, payload=None, *extra):
        try:
            if has_lone_surrogate(payload):
                raise self.refusal_class("bad-request", "error.bad-request.text")
            with self.turn(request.sid):
                return handler(self, payload)
        except (ProtocolError, ClassError) as err:
            return self.answer_refusal(err, payload)
        except ValidationError as err:
            refusal = refusal_of(err, self.wording)
            err = self.refusal_class(refusal.code, refusal.key, **refusal.params)
            return self.answer_refusal(err, payload)
        except Exception as err:
            refusal = self.translate(err)
            if refusal is not None:
                return self.answer_refusal(refusal, payload)
            log.exception("%s %s handler failed", self.namespace, event)
            err = ProtocolError(self.internal_code, self.internal_error)
            return self.answer_refusal(err, payload)

    return answer
