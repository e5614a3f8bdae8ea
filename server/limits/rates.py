"""Rate-limit settings, checked at start: Flask-Limiter's syntax and where counts live.

The settings (server/config/) check every ``RATE_LIMIT_*`` value and
``RATE_LIMIT_STORAGE`` here when the app starts, so a bad value stops it with one line;
server/web/ratelimit.py then applies them.  No Flask: only the ``limits`` library's
parser, which Flask-Limiter itself uses.
"""

from __future__ import annotations

from limits import parse_many

MEMORY = "memory://"
SHARED_SCHEMES = ("redis", "rediss", "redis+unix")  # stores limits can reach with redis-py
OFF = (None, "", 0, "0")


def parse_rate(value) -> str | None:
    """The rate a setting holds, checked: None when the limit is off; ValueError when malformed."""
    if value in OFF or (isinstance(value, str) and value.strip() in ("", "0")):
        return None
    if not isinstance(value, str):
        raise ValueError(f"a rate limit must be like '60/minute' or '10 per hour', got {value!r}")
    try:
        items = parse_many(value)
    except ValueError:
        raise ValueError(
            f"a rate limit must be like '60/minute' or '10 per hour', got {value!r}"
        ) from None
    if any(item.amount < 1 or item.get_expiry() < 1 for item in items):
        raise ValueError(f"a rate limit needs a count and a period of at least 1, got {value!r}")
    return value.strip()


def check_storage_uri(uri: str) -> None:
    """ValueError for a store the app cannot use (checked at start, not per request)."""
    scheme = uri.split("://", 1)[0] if "://" in uri else ""
    if scheme != "memory" and scheme not in SHARED_SCHEMES:
        raise ValueError(f"RATE_LIMIT_STORAGE must be memory:// or a redis:// URL, got {uri!r}")
