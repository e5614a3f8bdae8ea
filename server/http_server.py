"""The HTTP server ``knights-tour serve`` runs: werkzeug's threaded server (one thread
per connection; every websocket keeps its thread) with these changes:

- **TCP_NODELAY on every accepted socket.**  The server often writes two small messages
  back to back (an acknowledgement, then the batch the credit released; a long-polling
  response's headers, then its body).  With Nagle's algorithm the second write waits
  until the peer acknowledges the first, and a peer delaying its ACK makes that about
  40 ms.  The option is set on the accepted socket itself, since not every system
  passes it on from the listening socket;
- **a websocket's end ends its connection** (:class:`RequestHandler`);
- **keep-alive for requests without a body** (:class:`RequestHandler`): werkzeug closes
  every connection after one response, since Python's ``http.server`` cannot tell where
  an unread request body ends.  A GET without a body has nothing to drain, so its
  connection stays open for the next request (a phone opening a class page asks for
  40-odd files over six connections; a new connection and a new thread for each cost
  it about 100 ms on a busy laptop).  A connection waits :data:`KEEP_ALIVE_IDLE`
  seconds for its next request, then its thread ends;
- a listen backlog of 1024 instead of werkzeug's 128, so a whole class connecting at
  the same moment is not dropped into SYN retries;
- **limits one client cannot get round** (server/limits/connections.py): connections are
  counted in all (``MAX_CONNECTIONS``, kept under the open-files limit) and per client
  address (``MAX_CONNECTIONS_PER_ADDRESS``); one beyond either cap is answered 503 at
  once, from the accepting thread, and gets no thread.  A request's line and headers
  must arrive within 10 s, its body within 15 s after; a response the client leaves
  unread for 30 s, and a websocket silent for 45 s (a live one pongs every 25 s), end
  the connection;
- no ``Server`` header: werkzeug's names itself and Python with their versions.

Tests and benchmarks start the app through :func:`make_server` too, so they measure
what ``knights-tour serve`` runs.
"""

from __future__ import annotations

import contextlib
import io
import logging
import socket

from werkzeug.serving import ThreadedWSGIServer, WSGIRequestHandler

from .config import BY_NAME
from .i18n import text
from .limits import connections
from .limits.connections import Admission, DeadlineReader, connection_cap
from .web.security import HEADERS, ServerErrorHeaders

LISTEN_BACKLOG = 1024  # capped by the system (net.core.somaxconn: 4096 on Linux >= 5.4)
KEEP_ALIVE_IDLE = 5.0  # seconds a kept-alive connection (and its thread) waits for a request

log = logging.getLogger(__name__)

# -- the server ---------------------------------------------------------------------------


def set_nodelay(sock: socket.socket) -> None:
    """Turn Nagle's algorithm off on a TCP socket (a no-op on any other socket)."""
    if sock.family in (socket.AF_INET, socket.AF_INET6):
        with contextlib.suppress(OSError):  # e.g. the peer is already gone
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


class RequestHandler(ServerErrorHeaders, WSGIRequestHandler):
    """werkzeug's handler with TCP_NODELAY, keep-alive after a GET without a body,
    hanging up once a websocket has ended, time limits on what the client sends
    (:class:`~server.limits.connections.DeadlineReader`) and no ``Server`` header.

    In threading mode a websocket ends by raising ConnectionError out of the WSGI app
    (that is how simple-websocket tells werkzeug the socket is gone), but werkzeug then
    keeps the HTTP/1.1 connection alive and parses the client's websocket close frame
    as the next request line: the thread blocks until the client gives up, and clients
    that wait for the close handshake (python-socketio) hang for 3 s on every disconnect.
    The server's own refusals (414, 431, ...) carry the security headers
    (:class:`~server.web.security.ServerErrorHeaders`).
    """

    keep_alive = False  # this request's connection stays open after its response
    served = 0  # requests answered on this connection

    def setup(self) -> None:
        set_nodelay(self.request)
        super().setup()
        self.connection.settimeout(connections.SEND_TIMEOUT)  # writes; reads: the reader's
        self.reader = DeadlineReader(self.connection)
        self.reader.limit(connections.HEAD_TIMEOUT)  # the first request, from now
        plain, self.rfile = self.rfile, io.BufferedReader(self.reader)
        plain.close()  # else the socket stays open after the connection ends

    def connection_dropped(self, error, environ=None) -> None:
        self.close_connection = True

    def handle_one_request(self) -> None:
        """Wait a kept-alive connection's next request at most KEEP_ALIVE_IDLE seconds,
        then give its line and headers HEAD_TIMEOUT."""
        if self.served:
            self.reader.limit(KEEP_ALIVE_IDLE)
            try:
                waiting = self.rfile.peek(1)  # blocks until a byte comes (or one is buffered)
            except OSError:  # timed out, or the peer went away
                waiting = b""
            if not waiting:
                self.close_connection = True
                return
            self.reader.limit(connections.HEAD_TIMEOUT)
        self.served += 1
        self.keep_alive = False  # until run_wsgi knows this request has no body
        super().handle_one_request()

    def run_wsgi(self) -> None:
        # a body (and whatever werkzeug drains after the response) within BODY_TIMEOUT
        self.reader.limit(connections.BODY_TIMEOUT)
        if "Upgrade" in self.headers:
            return self._run_websocket()
        self.keep_alive = self._bodiless()
        if not self.keep_alive:
            return super().run_wsgi()
        # werkzeug reads whatever the client sent after the response and throws it away
        # (the unread rest of a body): here that would be the next request.  A request
        # without a body has nothing left to read, which this reader says at once.
        rfile, self.rfile = self.rfile, _NothingLeft(self.rfile)
        try:
            return super().run_wsgi()
        finally:
            self.rfile = rfile
            if self.environ.get(RESPONSE_FAILED):
                # werkzeug writes nothing more of a response that broke off, but hangs up
                # only after a chunked one: one with a length stops short of it, and the
                # client would read the next response as its rest
                self.close_connection = True

    def _run_websocket(self) -> None:
        """A websocket (or any request asking to upgrade) owns the socket: simple-websocket's
        thread reads it, python-engineio's writes it (and ends them both before the app
        returns: server/web/socket_guards.py).  werkzeug's drain after the app would read
        the client's close frame from under them."""
        self.connection.settimeout(connections.WEBSOCKET_IDLE)  # a live client pongs in it
        rfile, self.rfile = self.rfile, _NothingLeft(self.rfile)
        try:
            return super().run_wsgi()
        finally:
            self.rfile = rfile
            self.close_connection = True

    def send_header(self, keyword: str, value: str) -> None:
        name = keyword.lower()
        if name == "server":
            return  # werkzeug's and Python's names and versions: nothing a client needs
        if self.keep_alive and name == "connection" and value.lower() == "close":
            return  # werkzeug's blanket "close": this connection can take another request
        super().send_header(keyword, value)

    def _bodiless(self) -> bool:
        """Whether this request surely has no body and its connection may stay open."""
        headers = self.headers
        return (
            self.request_version == "HTTP/1.1"
            and self.command == "GET"  # a HEAD answered with a body would run into the next
            and not self.close_connection  # the client asked for close
            and headers.get("Content-Length", "0").strip() == "0"
            and "Transfer-Encoding" not in headers
            and "Upgrade" not in headers  # a websocket keeps the connection its own way
        )


RESPONSE_FAILED = "knights_tour.response_failed"  # in environ: the app raised


def _marking_failures(app):
    """``app``, with a mark in the request's environ when it raises, calling it or while
    its response is sent: that response may have stopped short of its length."""

    def marked(environ, start_response):
        try:
            body = app(environ, start_response)
        except BaseException:
            environ[RESPONSE_FAILED] = True
            raise
        return _MarkedBody(body, environ)

    return marked


class _MarkedBody:
    """A response's iterable that marks its environ when producing it raises; ``close`` is
    passed on (the WSGI server calls it)."""

    def __init__(self, body, environ) -> None:
        self._body = body
        self._environ = environ

    def __iter__(self):
        try:
            yield from self._body
        except BaseException:
            self._environ[RESPONSE_FAILED] = True
            raise

    def close(self) -> None:
        close = getattr(self._body, "close", None)
        if close is not None:
            close()


class _NothingLeft:
    """A request's input stream once the request is known to have no body."""

    def __init__(self, stream) -> None:
        self._stream = stream

    def read(self, size: int = -1) -> bytes:
        return b""

    def readline(self, size: int = -1) -> bytes:
        return b""

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


class _ListenError(Exception):
    """Carries bind()/listen()'s OSError past werkzeug, which would print it and exit."""


def refusal_bytes() -> bytes:
    """The 503 a connection beyond a cap gets, before its request is read (both
    languages: nothing says which the client reads yet)."""
    body = " / ".join(text("error.too-many-connections", lang) for lang in ("zh", "en"))
    data = (body + "\n").encode("utf-8")
    headers = {
        "Content-Type": "text/plain; charset=utf-8",
        "Content-Length": str(len(data)),
        "Retry-After": "5",
        "Connection": "close",
        **HEADERS,
    }
    head = "HTTP/1.1 503 Service Unavailable\r\n"
    head += "".join(f"{name}: {value}\r\n" for name, value in headers.items())
    return head.encode("latin-1") + b"\r\n" + data


class Server(ThreadedWSGIServer):
    """werkzeug's threaded server that counts its connections (:class:`Admission`).

    A connection beyond a cap is answered 503 (:func:`refusal_bytes`, sent without
    waiting: it fits any socket buffer) and closed in the accepting thread: it never
    gets a thread of its own.
    """

    request_queue_size = LISTEN_BACKLOG
    admission = Admission(0, 0)  # make_server sets the caps
    refusal = b""

    def process_request(self, request, client_address) -> None:
        address = _address_of(client_address)
        if not self.admission.admit(address):
            self._refuse(request)
            return
        try:
            super().process_request(request, client_address)  # starts its thread
        except RuntimeError:  # the system has no thread to give: as if over the cap
            self.admission.release(address)
            log.warning("cannot start a thread for a connection: refused")
            self._refuse(request)

    def process_request_thread(self, request, client_address) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self.admission.release(_address_of(client_address))

    def _refuse(self, request) -> None:
        with contextlib.suppress(OSError):
            request.setblocking(False)
            request.send(self.refusal)
        self.shutdown_request(request)

    def server_bind(self) -> None:
        try:
            super().server_bind()
        except OSError as err:
            raise _ListenError(err) from None

    def server_activate(self) -> None:
        try:
            super().server_activate()
        except OSError as err:
            raise _ListenError(err) from None


def _address_of(client_address) -> str:
    return client_address[0] if isinstance(client_address, tuple) else str(client_address)


def make_server(host: str, port: int, app) -> Server:
    """The threaded server of ``knights-tour serve``, bound and listening (port 0: a free
    one, see ``server.port``).  Raises OSError when it cannot listen.

    Its caps come from the app's ``MAX_CONNECTIONS`` (kept under the open-files limit)
    and ``MAX_CONNECTIONS_PER_ADDRESS`` (none behind a proxy, ``PROXY_FIX``: every
    connection then comes from the proxy, which keeps its own per-client limit).
    """
    config = getattr(app, "config", {})
    # an app without the settings (a test's bare WSGI app) gets their defaults
    total = connection_cap(config.get("MAX_CONNECTIONS", BY_NAME["MAX_CONNECTIONS"].default))
    per_address = config.get(
        "MAX_CONNECTIONS_PER_ADDRESS", BY_NAME["MAX_CONNECTIONS_PER_ADDRESS"].default
    )
    if config.get("PROXY_FIX"):
        per_address = 0
    try:
        server = Server(host, port, _marking_failures(app), handler=RequestHandler)
    except _ListenError as err:
        raise err.args[0] from None
    server.admission = Admission(total, per_address)
    server.refusal = refusal_bytes()
    return server
