"""What one client can hold of ``knights-tour serve``: connections, time and descriptors.

werkzeug's threaded server gives every connection a thread for as long as the client
keeps it, reads a request's head and body with no time limit, and counts nothing: one
laptop on the classroom's Wi-Fi could hold every thread and every file descriptor with
half-sent requests.  :mod:`server.serving` keeps these limits with it:

* :class:`Admission` counts open connections, in all and per client address, and says
  whether one more may be served.  This machine's own loopback address (the teacher's
  browser, a proxy on the same host, the tests) is counted in the total only: nobody
  on the network can send from it.
* :class:`DeadlineReader` reads a connection against a deadline: a request line and
  its headers must arrive within :data:`HEAD_TIMEOUT` of the connection (or of the
  first byte of a kept-alive connection's next request), a body within
  :data:`BODY_TIMEOUT` of its headers.  The deadline is total, not per read: a client
  that trickles a byte every few seconds is cut off all the same.
* :func:`raise_fd_limit` raises the soft limit on open files to the hard limit at
  start (macOS starts programs with 256, many Linux sessions with 1,024): every
  connection holds a descriptor.  :func:`connection_cap` keeps the connections below
  what the limit allows.

gunicorn (docs/deploy.md) keeps none of these by itself; nginx in front of it does
(``client_header_timeout``, ``client_body_timeout``, ``limit_conn``).
"""

from __future__ import annotations

import io
import threading
import time

HEAD_TIMEOUT = 10.0  # seconds for a request line and its headers
BODY_TIMEOUT = 15.0  # seconds for a body (at most MAX_CONTENT_LENGTH) after its headers
SEND_TIMEOUT = 30.0  # seconds a client may leave a response unread before it is dropped
WEBSOCKET_IDLE = 45.0  # Engine.IO's ping interval + ping timeout: a live client pongs in it
FD_RESERVE = 64  # descriptors kept for the database, logs and the listening socket
# soft limits to try, highest first, when the hard one is unlimited or refused (Linux's
# default fs.nr_open; macOS's OPEN_MAX, its ceiling for setrlimit)
FD_CEILINGS = (1_048_576, 65_536, 10_240)

# Addresses a request can only come from when it comes from this machine itself.
LOCAL_ADDRESSES = frozenset({"127.0.0.1", "::1", "::ffff:127.0.0.1"})


def counted_per_address(address: str) -> bool:
    """Whether a client address has a per-address limit (every one but this machine's)."""
    return address not in LOCAL_ADDRESSES


class Admission:
    """The open connections, in all and per address, against their caps (0: no cap)."""

    def __init__(self, total: int, per_address: int) -> None:
        self.total = total
        self.per_address = per_address
        self.lock = threading.Lock()
        self.open = 0
        self.by_address: dict[str, int] = {}

    def admit(self, address: str) -> bool:
        """Count one more connection from ``address``, unless a cap forbids it."""
        with self.lock:
            if self.total and self.open >= self.total:
                return False
            held = self.by_address.get(address, 0)
            if self.per_address and held >= self.per_address and counted_per_address(address):
                return False
            self.open += 1
            self.by_address[address] = held + 1
            return True

    def release(self, address: str) -> None:
        with self.lock:
            self.open -= 1
            held = self.by_address.get(address, 0) - 1
            if held > 0:
                self.by_address[address] = held
            else:
                self.by_address.pop(address, None)


class DeadlineReader(io.RawIOBase):
    """A socket's input, read against a deadline (``time.monotonic()``; None: none).

    Each read waits at most until the deadline and raises TimeoutError past it, which
    the HTTP server takes as the end of the connection.  The socket's own timeout (the
    one its writes use) is put back after every read.
    """

    def __init__(self, sock) -> None:
        self.sock = sock
        self.deadline: float | None = None

    def limit(self, seconds: float | None) -> None:
        """Reads from now on must be done within ``seconds`` (None: no limit)."""
        self.deadline = None if seconds is None else time.monotonic() + seconds

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        if self.deadline is None:
            return self.sock.recv_into(buffer)
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("the client took too long to send its request")
        previous = self.sock.gettimeout()
        self.sock.settimeout(left if previous is None else min(left, previous))
        try:
            return self.sock.recv_into(buffer)
        finally:
            self.sock.settimeout(previous)


def raise_fd_limit() -> tuple[int, int] | None:
    """Raise the soft limit on open files as far as the hard limit allows: (before,
    after); None where the system has no such limit (Windows)."""
    try:
        import resource  # Unix only: imported where it is used, to fail softly elsewhere
    except ImportError:  # Windows: no RLIMIT_NOFILE
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    unlimited = resource.RLIM_INFINITY
    if soft == unlimited:
        return soft, soft
    # an unlimited hard limit still has a ceiling (Linux: fs.nr_open; macOS: OPEN_MAX)
    targets = [hard] if hard != unlimited else []
    targets += [n for n in FD_CEILINGS if hard == unlimited or n < hard]
    for target in targets:
        if target <= soft:
            break
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            break
        except (ValueError, OSError):
            continue
    return soft, resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def fd_line(files: tuple[int, int]) -> str:
    """What :func:`raise_fd_limit` did, for the log: ``open files: N (raised from M)``."""
    before, after = files
    raised = f" (raised from {before:,})" if after > before else ""
    return f"open files: {after:,}{raised}"


def fd_limit() -> int | None:
    """The soft limit on open files now (None: none, or unknown)."""
    try:
        import resource  # Unix only (see raise_fd_limit)
    except ImportError:
        return None
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    return None if soft == resource.RLIM_INFINITY else soft


def connection_cap(configured: int) -> int:
    """``configured`` connections (0: no cap of its own), kept under the open-files limit."""
    limit = fd_limit()
    if limit is None:
        return configured
    room = max(1, limit - FD_RESERVE)
    return min(configured, room) if configured else room
