"""Real server processes for the scale-out, churn and fuzz tests and the benchmarks.

* :func:`start_redis` runs a throwaway ``redis-server`` on a free loopback port
  (no persistence, its files in a temporary directory);
* :func:`start_servers` runs N ``knights-tour serve --port 0`` processes, as deployed:
  the console script, a message queue when given, one SQLite ``DATABASE_URL`` and one
  ``SECRET_KEY`` shared by all of them, each process's stderr kept in a file so a test
  can look for tracebacks;
* :func:`start_gunicorn` runs the app under gunicorn as docs/deploy.md deploys it;
* :func:`start_server` runs one of either kind.

Teardown is SIGTERM (``serve`` stops its server and prints "stopped"), then SIGKILL
after a grace period; nothing is left running whatever the test did.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import platform
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import psutil

from .console import knights_tour
from .database import migrated_copy
from .loopback import http_connection

ROOT = Path(__file__).resolve().parents[2]
LISTENING = re.compile(r"listening on (http://\S+)")
START_TIMEOUT = 60.0  # seconds: a loaded 2-core machine starts a server in 20
PING_INTERVAL = 25.0  # python-engineio's default ping_interval (seconds)
# nanosleep / clock_nanosleep: what a thread inside time.sleep() is blocked in
SLEEP_SYSCALLS = {"x86_64": {35, 230}, "aarch64": {101, 115}}.get(platform.machine(), set())


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def terminate(proc: subprocess.Popen, grace: float = 5.0) -> None:
    """SIGTERM, then SIGKILL after ``grace`` seconds; always reaps the process."""
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(grace)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
            proc.wait(grace)
    for stream in (proc.stdout, proc.stderr):
        if stream is not None:
            with contextlib.suppress(OSError):
                stream.close()


# -- redis ------------------------------------------------------------------------------


@dataclass
class RedisServer:
    proc: subprocess.Popen
    port: int
    directory: Path

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def stop(self) -> None:
        terminate(self.proc)


def redis_binary() -> str | None:
    return shutil.which("redis-server") or next(
        (p for p in ("/usr/bin/redis-server", "/usr/sbin/redis-server") if os.access(p, os.X_OK)),
        None,
    )


def start_redis(directory: Path, port: int | None = None, attempts: int = 3) -> RedisServer:
    """A redis-server on ``port`` (default: a free loopback port), ready for commands."""
    import redis

    binary = redis_binary()
    if binary is None:
        raise RuntimeError("redis-server is not installed (make redis installs it)")
    directory.mkdir(parents=True, exist_ok=True)
    last_error = ""
    for _ in range(attempts):  # a free port may be taken between probe and bind
        chosen = port or free_port()
        proc = subprocess.Popen(
            [
                binary,
                "--port",
                str(chosen),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(directory),
                "--daemonize",
                "no",
                "--loglevel",
                "warning",
            ],
            cwd=str(directory),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        client = redis.Redis(host="127.0.0.1", port=chosen, socket_connect_timeout=0.5)
        deadline = time.monotonic() + 10
        try:
            while time.monotonic() < deadline and proc.poll() is None:
                try:
                    if client.ping():
                        return RedisServer(proc, chosen, directory)
                except redis.exceptions.ConnectionError:
                    time.sleep(0.05)
        finally:
            client.close()
        terminate(proc, 2)
        last_error = proc.stdout.read() if proc.stdout and not proc.stdout.closed else ""
    raise RuntimeError(f"redis-server did not start: {last_error[-500:]}")


# -- app servers ------------------------------------------------------------------------


@dataclass
class ServerProcess:
    """One ``knights-tour serve`` child process."""

    proc: subprocess.Popen
    url: str
    stderr_path: Path
    stdout_lines: list[str] = field(default_factory=list)

    @property
    def pid(self) -> int:
        return self.proc.pid

    @property
    def process(self) -> psutil.Process:
        return psutil.Process(self.proc.pid)

    def alive(self) -> bool:
        return self.proc.poll() is None

    def threads(self) -> int:
        return self.process.num_threads()

    def busy_threads(self) -> int:
        """Threads not blocked in ``time.sleep``.

        Threads that sleep are the lingering kind: python-engineio's per-connection
        ping threads (a plain ``time.sleep(ping_interval)``, 25 s) under a server
        without server/web/socket_limits.py's keeper, a gunicorn arbiter.  Every other
        thread (a websocket's, a run's, a handler's, the keeper) is blocked elsewhere
        (a futex, a socket read), so this count comes back to its baseline as soon as
        connections and runs have really ended.  Reads ``/proc/PID/task/*/syscall``;
        on an architecture not in SLEEP_SYSCALLS it counts every thread.
        """
        busy = 0
        for tid in os.listdir(f"/proc/{self.pid}/task"):
            try:
                with open(f"/proc/{self.pid}/task/{tid}/syscall") as handle:
                    number = handle.read().split()[0]
            except (OSError, IndexError):
                continue  # the thread ended meanwhile
            if not (number.isdigit() and int(number) in SLEEP_SYSCALLS):
                busy += 1
        return busy

    def settle_threads(self, baseline: int, timeout: float = 10.0, *, busy=False) -> int:
        """Wait until the thread count (``busy``: :meth:`busy_threads`) is back to
        ``baseline``, or the timeout; the last count."""
        count_of = self.busy_threads if busy else self.threads
        deadline = time.monotonic() + timeout
        count = count_of()
        while count > baseline and time.monotonic() < deadline:
            time.sleep(0.05)
            count = count_of()
        return count

    def stacks(self, timeout: float = 5.0) -> str:
        """Every thread's stack, as ``knights-tour serve`` prints them on SIGUSR1
        (faulthandler): what a thread that did not end waits for."""
        before = self.stderr_path.stat().st_size
        os.kill(self.pid, signal.SIGUSR1)
        deadline = time.monotonic() + timeout
        text, previous = "", None
        while time.monotonic() < deadline and (not text or text != previous):
            time.sleep(0.1)  # a dump is written at once; read until it stops growing
            previous, text = text, self.stderr_path.read_bytes()[before:].decode(errors="replace")
        return text

    def assert_settled(self, baseline: int, timeout: float = 10.0, *, busy=False) -> None:
        """:meth:`settle_threads` back to ``baseline``, or fail with every thread's stack."""
        count = self.settle_threads(baseline, timeout, busy=busy)
        if count > baseline:
            kind = "busy threads" if busy else "threads"
            raise AssertionError(f"{count} {kind}, baseline {baseline}:\n{self.stacks()}")

    def steady_busy_threads(self, timeout: float = 10.0) -> int:
        """:meth:`busy_threads` once two readings 0.3 s apart agree: a test's baseline."""
        count, previous = self.busy_threads(), -1
        deadline = time.monotonic() + timeout
        while count != previous and time.monotonic() < deadline:
            time.sleep(0.3)
            previous, count = count, self.busy_threads()
        return count

    def stderr(self) -> str:
        return self.stderr_path.read_text(errors="replace")

    def stop(self) -> None:
        terminate(self.proc)


def server_env(directory: Path, message_queue: str | None, extra: dict | None = None) -> dict:
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "PYTHONUNBUFFERED": "1",
        "INSTANCE_PATH": str(directory / "instance"),
        "DATABASE_URL": f"sqlite:///{directory / 'shared.sqlite3'}",
        "SECRET_KEY": "scale-tests-shared-secret",
    }
    env.pop("SOCKETIO_MESSAGE_QUEUE", None)
    if message_queue:
        env["SOCKETIO_MESSAGE_QUEUE"] = message_queue
    env.update(extra or {})
    return env


def seed_database(directory: Path, env: dict) -> bool:
    """Whether the servers' database is the default shared SQLite file of ``directory``,
    at this release's schema: a new one is copied from the migrated template."""
    shared = directory / "shared.sqlite3"
    if env["DATABASE_URL"] != f"sqlite:///{shared}":
        return False
    if not shared.exists():
        migrated_copy(shared)
    return True


def _launch(
    directory: Path, index: int, env: dict, message_queue: str | None, serve_args: Sequence[str]
):
    args = [*knights_tour(), "serve", *serve_args, "--port", "0"]
    if message_queue:
        args += ["--message-queue", message_queue]
    stderr_path = directory / f"server-{index}.stderr"
    with open(stderr_path, "wb") as stderr:
        proc = subprocess.Popen(
            args,
            cwd=str(ROOT),
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
        )
    return proc, stderr_path


def _wait_listening(proc: subprocess.Popen, stderr_path: Path) -> tuple[str, list[str]]:
    """The URL from the "listening on" line; the lines read; raises when it never comes."""
    found: list[str] = []
    lines: list[str] = []

    def read():
        for line in proc.stdout:
            lines.append(line.rstrip("\n"))
            match = LISTENING.search(line)
            if match:  # all interfaces (serve --lan): this machine is at 127.0.0.1 too
                found.append(match.group(1).replace("//0.0.0.0:", "//127.0.0.1:"))
                return

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(START_TIMEOUT)
    if not found:
        terminate(proc, 2)
        raise RuntimeError(
            f"knights-tour serve did not start: stdout {lines!r}, "
            f"stderr {stderr_path.read_text(errors='replace')[-2000:]!r}"
        )
    # keep draining stdout so the child never blocks on a full pipe
    threading.Thread(target=lambda: [lines.append(x) for x in proc.stdout], daemon=True).start()
    return found[0], lines


def start_servers(
    directory: Path,
    count: int,
    message_queue: str | None = None,
    env: dict | None = None,
    serve_args: Sequence[str] = ("--host", "127.0.0.1"),
) -> list[ServerProcess]:
    """``count`` serve processes sharing one database (and the message queue when given),
    each started as ``knights-tour serve SERVE_ARGS --port 0``.

    A new shared SQLite file starts as a copy of the migrated template
    (tests/support/database.py) and every process starts at once; on another database the
    first process creates the tables before the others start (SQLite's ``create_all`` is
    not safe to race).
    """
    directory.mkdir(parents=True, exist_ok=True)
    full_env = server_env(directory, message_queue, env)
    seeded = seed_database(directory, full_env)
    started: list[ServerProcess] = []
    try:
        for batch in [list(range(count))] if seeded else ([0], list(range(1, count))):
            launched = [
                (i, *_launch(directory, i, full_env, message_queue, serve_args)) for i in batch
            ]
            for _i, proc, stderr_path in launched:
                try:
                    url, lines = _wait_listening(proc, stderr_path)
                except RuntimeError:
                    for _j, other, _p in launched:
                        terminate(other, 2)
                    raise
                started.append(ServerProcess(proc, url, stderr_path, lines))
    except BaseException:
        for server in started:
            server.stop()
        raise
    return started


def gunicorn_command() -> list[str]:
    """gunicorn next to this interpreter (``pip install '.[deploy]'``)."""
    script = Path(sys.executable).with_name("gunicorn")
    return [str(script)] if script.exists() else [sys.executable, "-m", "gunicorn"]


def start_gunicorn(
    directory: Path,
    threads: int,
    env: dict | None = None,
    *,
    app: str = "server.app:create_app()",
    options: Sequence[str] = (),
) -> ServerProcess:
    """The deployment of docs/deploy.md: ``gunicorn -w 1 --threads N [OPTIONS] APP`` (the
    gthread worker) on a free loopback port, ready once its worker answers a page."""
    directory.mkdir(parents=True, exist_ok=True)
    full_env = server_env(directory, None, env)
    seed_database(directory, full_env)
    for _ in range(3):  # a free port may be taken between probe and bind
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        stderr_path = directory / f"gunicorn-{port}.stderr"
        args = ["-w", "1", "--threads", str(threads), *options, "-b", f"127.0.0.1:{port}"]
        with open(stderr_path, "wb") as stderr:
            proc = subprocess.Popen(
                [*gunicorn_command(), *args, app],
                cwd=str(ROOT),
                env=full_env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=stderr,
            )
        deadline = time.monotonic() + START_TIMEOUT
        while proc.poll() is None and time.monotonic() < deadline:
            with contextlib.suppress(OSError, http.client.HTTPException):
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
                try:
                    conn.request("GET", "/class")
                    if conn.getresponse().status == 200:
                        return ServerProcess(proc, url, stderr_path)
                finally:
                    conn.close()
            time.sleep(0.1)
        terminate(proc, 2)
    raise RuntimeError(f"gunicorn did not start: {stderr_path.read_text(errors='replace')[-2000:]}")


def start_server(kind: str, directory: Path, threads: int = 4, **gunicorn) -> ServerProcess:
    """One server process as deployed: ``kind`` "gunicorn" is :func:`start_gunicorn` with
    ``threads`` and its keyword options ``gunicorn``; any other, ``knights-tour serve``."""
    if kind == "gunicorn":
        return start_gunicorn(directory, threads, **gunicorn)
    (server,) = start_servers(directory, 1)
    return server


def open_class_room(url: str, source: str | None = None) -> tuple[str, str]:
    """``POST /class/new`` (from the loopback address ``source``) without following the
    redirect: (code, teacher token)."""
    conn = http_connection(url, source)
    try:
        conn.request("POST", "/class/new", headers={"Content-Length": "0"})
        response = conn.getresponse()
        assert response.status == 303, response.status
        path, token = response.getheader("Location").split("#token=")
    finally:
        conn.close()
    return path.split("/")[2], token


def tracebacks(text: str) -> list[str]:
    """The tracebacks in a server's stderr (each from its header line on, shortened)."""
    out = []
    for match in re.finditer(r"Traceback \(most recent call last\):", text):
        out.append(text[max(0, match.start() - 200) : match.start() + 1500])
    return out
