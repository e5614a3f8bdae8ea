"""Every setting the app reads, in one place: its default, its type, what it means.

A setting comes from, in order: its default here, the environment (a variable of the
same name), then the mapping passed to ``create_app`` (tests, ``serve --message-queue``).
Each is parsed and checked once, at start: a bad value stops the app with one line
saying which setting and why, never a failure per request.  ``docs/deploy.md``'s table
of settings is generated from :data:`SETTINGS` (``python -m server.config``) and a test
keeps the two equal; another fails when the code reads a key that is not listed here.

The secret key comes from ``SECRET_KEY``; when absent it is generated once and kept in
``instance/secret_key`` so sessions survive restarts.
"""

from __future__ import annotations

import os
import secrets
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any


class SettingError(ValueError):
    """A setting's value is not one it takes (the message names the setting)."""


@dataclass(frozen=True)
class Setting:
    name: str
    default: Any
    parse: Callable[[Any], Any]  # a value from the environment (str) or a mapping -> the value
    meaning: str  # one line, for docs/deploy.md
    processes: str = ""  # what several processes need of it
    shown_default: str | None = None  # when the default is computed at start


# -- parsers: each takes a string (the environment) or a typed value (a mapping) -----------------
def text(value) -> str | None:
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise SettingError(f"expected text, got {value!r}")
    return value


def whole(low: int, high: int) -> Callable[[Any], int]:
    def parse(value) -> int:
        if isinstance(value, str) and value.strip().lstrip("-").isdigit():
            value = int(value.strip())
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise SettingError(f"expected a whole number from {low:,} to {high:,}, got {value!r}")
        return value

    return parse


def seconds(low: float, high: float) -> Callable[[Any], float]:
    def parse(value) -> float:
        if isinstance(value, str):
            try:
                value = float(value)
            except ValueError:
                raise SettingError(f"expected a number of seconds, got {value!r}") from None
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not low <= value <= high
        ):
            raise SettingError(f"expected seconds from {low:g} to {high:g}, got {value!r}")
        return float(value)

    return parse


def rate(value) -> str | None:
    """A limit in Flask-Limiter's syntax ("60/minute", "10 per hour"); None when off ("0")."""
    from .web.ratelimit import parse_rate

    return parse_rate(value)  # a ValueError with the reason


def storage(value) -> str | None:
    from .web.ratelimit import check_storage_uri

    value = text(value)
    if value is not None:
        check_storage_uri(value)
    return value


def origins(value) -> list[str] | None:
    """Comma-separated origins (or a list); a wildcard is refused."""
    if value is None or value == "":
        return None
    listed = [o.strip() for o in value.split(",")] if isinstance(value, str) else list(value)
    listed = [o for o in listed if o]
    if "*" in listed:
        raise SettingError("must list origins, not '*'")
    return listed or None


def public_url(value) -> str | None:
    from .serving import check_public_url

    value = text(value)
    return check_public_url(value) if value else None


def flag(value) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in (
        "1",
        "true",
        "yes",
        "on",
        "0",
        "false",
        "no",
        "off",
        "",
    ):
        return value.lower() in ("1", "true", "yes", "on")
    raise SettingError(f"expected true or false, got {value!r}")


SAME = "the same in every process"
SETTINGS: tuple[Setting, ...] = (
    Setting(
        "SECRET_KEY",
        None,
        text,
        "signs cookies",
        "**required, the same in every process**: without it each process makes its own "
        "in its instance folder, and a cookie from one is worthless on another",
        shown_default="generated once, kept in `instance/secret_key`",
    ),
    Setting(
        "DATABASE_URL",
        None,
        text,
        "SQLAlchemy URL of the database (SQLite or PostgreSQL); its schema changes only by "
        "migrations: `knights-tour db upgrade`",
        "**one database for all**: SQLite only when every process runs on one host; "
        "otherwise PostgreSQL",
        shown_default="SQLite in the instance folder",
    ),
    Setting(
        "INSTANCE_PATH",
        None,
        text,
        "the instance folder: the SQLite file and the generated secret key",
        "one per process, or shared",
        shown_default="`instance/` in the checkout",
    ),
    Setting(
        "PORT",
        5000,
        whole(0, 65535),
        "the port `knights-tour serve` listens on (0: a free one)",
        "one per process",
    ),
    Setting(
        "PUBLIC_URL",
        None,
        public_url,
        "the address students' phones reach the app at, `http(s)://host[:port][/prefix]`: "
        "class join links and QR codes are built on it (`serve --lan` sets the LAN address)",
        SAME + ": the public address of the proxy",
        shown_default="the host the teacher's browser used",
    ),
    Setting(
        "SOCKETIO_MESSAGE_QUEUE",
        None,
        text,
        "`redis://...`: Socket.IO rooms and broadcasts shared by several processes "
        "(same as `serve --message-queue`)",
        "**required**: rooms and broadcasts cross processes through it",
    ),
    Setting(
        "SOCKETIO_CORS_ALLOWED_ORIGINS",
        None,
        origins,
        "other origins whose pages may connect to Socket.IO, comma-separated ('*' is refused)",
        SAME,
        shown_default="same origin only",
    ),
    Setting(
        "PROXY_FIX",
        0,
        whole(0, 10),
        "how many reverse proxies to trust for `X-Forwarded-For`/`-Proto`/`-Host`",
        "set it on every process behind the proxy (1 behind one nginx)",
    ),
    Setting(
        "RATE_LIMIT_GAMES",
        "300/minute;3000/hour",
        rate,
        "new games per client address, the class puzzle's attempts included, in Flask-Limiter's"
        " syntax (`60/minute`, `10 per hour`, `5 per 10 seconds`, several joined by `;`); `0`"
        " switches it off: a class of 200 behind one NAT address starts a puzzle at once",
        "counted together, see `RATE_LIMIT_STORAGE`",
    ),
    Setting(
        "RATE_LIMIT_CLASS_ROOMS",
        "120/hour",
        rate,
        "class rooms opened per client address, the same syntax (`0` switches it off): loose,"
        " since a whole school may come through one NAT address",
        "counted together, see `RATE_LIMIT_STORAGE`",
    ),
    Setting(
        "RATE_LIMIT_CLASS_ROOMS_DEVICE",
        "30/hour",
        rate,
        "class rooms opened per teacher device (its browser's `kt_teacher` cookie; a request"
        " without one counts as its address's), the same syntax (`0` switches it off)",
        "counted together, see `RATE_LIMIT_STORAGE`",
    ),
    Setting(
        "RATE_LIMIT_CLASS_MISSES",
        "60/minute;600/hour",
        rate,
        "class codes looked up in vain (`GET /class/<code>`, its teacher page and QR code, a"
        " `join`) per client address, the same syntax (`0` switches it off); beyond it only"
        " rooms the address already has a member in (or the teacher's own) are found",
        "counted together, see `RATE_LIMIT_STORAGE`",
    ),
    Setting(
        "RATE_LIMIT_CLASS_NAMES",
        "600 per 10 minutes",
        rate,
        "new student names in class rooms (`quiz_enter`, `solve` with a name) per client"
        " address, the same syntax (`0` switches it off)",
        "counted together, see `RATE_LIMIT_STORAGE`",
    ),
    Setting(
        "RATE_LIMIT_VERDICTS",
        "120/minute",
        rate,
        "the editor's verdicts (`POST /api/verdict`) per client address, the same syntax "
        "(`0` switches it off)",
        "counted together, see `RATE_LIMIT_STORAGE`",
    ),
    Setting(
        "VERDICT_SECONDS",
        1.0,
        seconds(0.01, 10),
        "the search time one editor verdict may take; beyond it the answer is undecided (`time`)",
        SAME,
    ),
    Setting(
        "VERDICT_CACHE",
        1024,
        whole(0, 1_000_000),
        "puzzle verdicts kept (by puzzle code), so a puzzle is searched once, not per request;"
        " about 2 KB each at most",
        "per process",
    ),
    Setting(
        "SEARCH_BUDGET",
        20.0,
        seconds(0, 3600),
        "search-seconds each client address may spend at once (hints, the warning after a"
        " move, verdicts, worksheets and their pictures, /watch runs), charged with the CPU"
        " time used; beyond it 429 `rate-limited` until it refills; `0` switches it off",
        "per process",
    ),
    Setting(
        "SEARCH_BUDGET_REFILL",
        0.5,
        seconds(0.01, 64),
        "search-seconds given back to each address per second: the share of a core one"
        " address may use over time (a class behind one NAT address needs a few %)",
        "per process",
    ),
    Setting(
        "SEARCH_SLOTS",
        0,
        whole(0, 1024),
        "searches running at once (`0`: one per core, one on the Python engine); one address"
        " holds at most half of them; the others wait their turn",
        "per process",
        shown_default="`0`: one per core",
    ),
    Setting(
        "SEARCH_WAIT",
        2.0,
        seconds(0, 60),
        "seconds a search waits for a slot before the answer is 503 `busy` with Retry-After"
        " (a move is then made without the early warning)",
        "per process",
    ),
    Setting(
        "TIMELINE_MEMORY_PER_ADDRESS",
        64,
        whole(0, 1_000_000),
        "megabytes of ended /watch runs (their timelines, for a seek back) one client address"
        " keeps; beyond it its oldest are dropped (a seek into one computes it again)",
        "per process",
    ),
    Setting(
        "TIMELINE_MEMORY",
        192,
        whole(0, 1_000_000),
        "megabytes of ended /watch runs the whole process keeps, the oldest dropped first",
        "per process",
    ),
    Setting(
        "RATE_LIMIT_STORAGE",
        None,
        storage,
        "where those counts live: `memory://` or `redis://host:port/db`",
        "with the Redis queue the processes share one count per client; `memory://` makes "
        "each process count alone",
        shown_default="the message queue's Redis, else memory",
    ),
    Setting(
        "CLASS_ROOM_TTL",
        7200.0,
        seconds(60, 7 * 24 * 3600),
        "seconds a class room lives without any activity",
        SAME,
    ),
    Setting(
        "CLASS_PRESENCE_TIMEOUT",
        60.0,
        seconds(5, 3600),
        "seconds without a heartbeat after which a student is no longer counted",
        SAME,
    ),
    Setting(
        "CLASS_HEARTBEAT",
        20.0,
        seconds(2, 600),
        "seconds between the heartbeats class pages are told to send",
        SAME,
    ),
    Setting(
        "CLASS_MAX_MEMBERS",
        1000,
        whole(1, 100_000),
        "class students one process serves at most (a teacher's pages have seats of their own)",
        "per process: a whole class behind one NAT address is one process's",
    ),
    Setting(
        "CLASS_ADDRESS_SEATS",
        600,
        whole(1, 100_000),
        "class students from one client address, in all rooms (a school's NAT: 3 classes of 200)",
        "per process (with `ip_hash` an address stays on one process)",
    ),
    Setting(
        "CLASS_ROOM_SEATS",
        400,
        whole(1, 100_000),
        "students in one class room",
        "per process",
    ),
    Setting(
        "CLASS_ADDRESS_ROOM_SEATS",
        250,
        whole(1, 100_000),
        "students from one client address in one room: a class of 200 behind one NAT fits,"
        " and one address cannot take a whole room",
        "per process",
    ),
    Setting(
        "CLASS_TEACHER_PAGES",
        8,
        whole(1, 1000),
        "pages one room's teacher may have joined (projector, laptop, phone...); never"
        " taken by students or other rooms",
        "per process",
    ),
    Setting(
        "CLASS_QUIZ_STUDENTS",
        300,
        whole(1, 100_000),
        "names entered in one class room (quiz and puzzle); the teacher can remove one",
        SAME,
    ),
    Setting(
        "MAX_CONTENT_LENGTH",
        64 * 1024,
        whole(1024, 16 * 1024 * 1024),
        "the largest HTTP request body accepted, in bytes (every JSON body is small)",
        SAME,
    ),
    Setting(
        "MAX_CONNECTIONS",
        1200,
        whole(0, 1_000_000),
        "connections `knights-tour serve` holds open at once, each with its thread (a "
        "websocket's for its whole life); one more is answered 503 at once. Kept under the "
        "open-files limit, which `serve` raises to the hard limit at start; `0`: that limit "
        "alone. Under gunicorn: `--threads` and `--worker-connections`",
        "per process",
    ),
    Setting(
        "MAX_CONNECTIONS_PER_ADDRESS",
        50,
        whole(0, 1_000_000),
        "connections `knights-tour serve` holds open per client address (a phone uses a "
        "few); one more is answered 503 at once; `0`: no cap. This machine's own 127.0.0.1 "
        "is not capped, and behind a proxy (`PROXY_FIX`) the proxy caps them (nginx "
        "`limit_conn`)",
        "per process; raise it if a class reaches `serve` through one NAT address",
    ),
    Setting(
        "SOCKETIO_SESSIONS_PER_ADDRESS",
        500,
        whole(0, 1_000_000),
        "Socket.IO connections (websocket or long-polling) one client address holds open; "
        "a handshake beyond is answered 429 `too-many-connections`; `0`: no cap; "
        "127.0.0.1 is not capped",
        "per process: a whole class behind one NAT address is one process's",
    ),
    Setting("DEBUG", False, flag, "Flask's debug mode: never on a server others can reach"),
)
BY_NAME = {setting.name: setting for setting in SETTINGS}
# Keys the app sets or reads that belong to Flask and its extensions, not to operators.
LIBRARY_KEYS = frozenset({"TESTING", "SQLALCHEMY_DATABASE_URI", "SERVER_NAME"})


def load_secret_key(instance_path: Path) -> str:
    key_file = instance_path / "secret_key"
    if key_file.exists():
        return key_file.read_text().strip()
    key = secrets.token_hex(32)
    instance_path.mkdir(parents=True, exist_ok=True)
    fd = os.open(key_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as handle:
        handle.write(key)
    return key


def build_config(instance_path: Path, overrides: Mapping | None, environ=os.environ) -> dict:
    """Defaults, then the environment, then ``overrides``; each value parsed and checked.

    SettingError (a ValueError) names the first bad setting.
    """
    raw = {setting.name: setting.default for setting in SETTINGS}
    raw["DATABASE_URL"] = f"sqlite:///{instance_path / 'knights_tour.sqlite3'}"
    raw["INSTANCE_PATH"] = str(instance_path)
    for setting in SETTINGS:
        if environ.get(setting.name):
            raw[setting.name] = environ[setting.name]
    raw.update(overrides or {})
    config = dict(raw)
    for setting in SETTINGS:
        try:
            config[setting.name] = setting.parse(raw[setting.name])
        except ValueError as err:
            raise SettingError(f"{setting.name}: {err}") from None
    if not config["SECRET_KEY"]:
        config["SECRET_KEY"] = load_secret_key(instance_path)
    return config


def settings_table() -> str:
    """docs/deploy.md's table of settings, in Markdown."""
    lines = ["| setting | default | what | several processes |", "|---|---|---|---|"]
    for s in SETTINGS:
        if s.shown_default is not None:
            default = s.shown_default
        elif s.default is None:
            default = "unset"
        else:
            default = f"`{s.default}`"
        lines.append(f"| `{s.name}` | {default} | {s.meaning} | {s.processes} |")
    return "\n".join(lines)


if __name__ == "__main__":  # python -m server.config: the table for docs/deploy.md
    sys.stdout.write(settings_table() + "\n")
