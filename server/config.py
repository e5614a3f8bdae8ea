"""Configuration: embedded defaults, then the environment, then the caller's mapping.

The secret key comes from ``SECRET_KEY`` in the environment; when absent it is
generated once and kept in ``instance/secret_key`` so sessions survive restarts.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

DEFAULTS = {
    "DEBUG": False,
    "MAX_CONTENT_LENGTH": 64 * 1024,  # every JSON body the app accepts is small
    "SOCKETIO_MESSAGE_QUEUE": None,
    "SOCKETIO_CORS_ALLOWED_ORIGINS": None,  # None = same origin only
    "RATE_LIMIT_GAMES": "60/minute",  # new games per client address (server/web/ratelimit.py)
    "RATE_LIMIT_STORAGE": None,  # None = the Redis message queue if any, else memory
    "PROXY_FIX": 0,  # trusted reverse proxies in front (X-Forwarded-For/-Proto/-Host)
    "PUBLIC_URL": None,  # where students' phones reach the app; None = the request's host
}

# Read from the environment when set (all strings; numeric ones are parsed where used).
ENV_KEYS = (
    "DATABASE_URL",
    "SOCKETIO_MESSAGE_QUEUE",
    "SOCKETIO_CORS_ALLOWED_ORIGINS",  # comma-separated origins
    "SECRET_KEY",
    "RATE_LIMIT_GAMES",
    "RATE_LIMIT_CLASS_ROOMS",
    "RATE_LIMIT_STORAGE",  # a limits storage URI: memory:// or redis://host:port/db
    "PROXY_FIX",  # how many reverse proxies to trust (0: none, the default)
    "CLASS_ROOM_TTL",  # seconds
    "PUBLIC_URL",  # e.g. https://tour.school.example: the base of join links and QR codes
)


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


def build_config(instance_path: Path, overrides: dict | None) -> dict:
    config = dict(DEFAULTS)
    config["DATABASE_URL"] = f"sqlite:///{instance_path / 'knights_tour.sqlite3'}"
    for key in ENV_KEYS:
        if os.environ.get(key):
            config[key] = os.environ[key]
    config.update(overrides or {})
    check(config)  # a bad value fails at start, not per request
    if not config.get("SECRET_KEY"):
        config["SECRET_KEY"] = load_secret_key(instance_path)
    return config


def check(config: dict) -> None:
    """Parse the values read per request once, at start: ValueError with a one-line reason."""
    from .web.ratelimit import check_storage_uri, parse_rate, storage_uri

    for key in ("RATE_LIMIT_GAMES", "RATE_LIMIT_CLASS_ROOMS"):
        try:
            parse_rate(config.get(key))
        except ValueError as err:
            raise ValueError(f"{key}: {err}") from None
    check_storage_uri(storage_uri(config))
    proxies = config.get("PROXY_FIX") or 0
    if isinstance(proxies, str) and proxies.strip().isdigit():
        proxies = int(proxies)
    if isinstance(proxies, bool) or not isinstance(proxies, int) or not 0 <= proxies <= 10:
        raise ValueError(f"PROXY_FIX must be a number of proxies from 0 to 10, got {proxies!r}")
    config["PROXY_FIX"] = proxies
    if config.get("PUBLIC_URL"):
        from .serving import check_public_url

        config["PUBLIC_URL"] = check_public_url(config["PUBLIC_URL"])
