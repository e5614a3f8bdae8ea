"""Every setting the app reads: its default, its parser, what it means, and what
several processes need of it (the table in docs/deploy.md is made from these)."""

from __future__ import annotations

from .parsers import Setting, flag, origins, public_url, rate, seconds, storage, text, whole

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
        "megabytes of search timelines one client address holds: its ended /watch runs (kept"
        " for a seek back; beyond it the oldest are dropped, a seek into one computes it again)"
        " and the demos of the class rooms it opened (in use: beyond it their searches wait)",
        "per process",
    ),
    Setting(
        "TIMELINE_MEMORY",
        192,
        whole(0, 1_000_000),
        "megabytes of search timelines the whole process holds: ended /watch runs are dropped,"
        " the oldest first, beyond it (class rooms' demos in use push them out)",
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
        "CLASS_ROOMS",
        500,
        whole(1, 1_000_000),
        "live class rooms the server keeps in all; beyond it `POST /class/new` is answered 503"
        " until one is closed or expires",
        "counted in the database, for every process together",
    ),
    Setting(
        "CLASS_ADDRESS_ROOMS",
        100,
        whole(1, 1_000_000),
        "live class rooms opened from one client address: a school's teachers behind one NAT"
        " fit (60 an hour, each alive for `CLASS_ROOM_TTL` after its last use), a script cannot"
        " fill the server; beyond it 429 until one is closed or expires",
        "counted in the database, for every process together",
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
        "CLASS_HANDLER_SLOTS",
        4,
        whole(1, 64),
        "class messages handled at once; the others wait their turn, a room's teacher's first,"
        " then those of the client address that has the fewest running",
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
        500,
        whole(1, 100_000),
        "names entered in one class room (quiz and puzzle); the teacher can remove one",
        SAME,
    ),
    Setting(
        "CLASS_ADDRESS_ROOM_NAMES",
        250,
        whole(1, 100_000),
        "names one client address may enter in one class room: a script cannot take them"
        " all, while a class of 250 behind one NAT address fits",
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
