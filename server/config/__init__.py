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
from collections.abc import Mapping
from pathlib import Path

from .parsers import Setting, SettingError, origins
from .settings import BY_NAME, LIBRARY_KEYS, SETTINGS

__all__ = [
    "BY_NAME",
    "LIBRARY_KEYS",
    "SETTINGS",
    "Setting",
    "SettingError",
    "build_config",
    "load_secret_key",
    "origins",
    "settings_table",
]


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
