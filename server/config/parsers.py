"""A setting's shape and the parsers that check its value, once, at start.

Each parser takes a string (from the environment) or a typed value (from the mapping
given to ``create_app``) and returns the value, or raises :class:`SettingError` (a
ValueError) saying why.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..limits.rates import check_storage_uri, parse_rate
from ..network import check_public_url


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
    return parse_rate(value)  # a ValueError with the reason


def storage(value) -> str | None:
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
