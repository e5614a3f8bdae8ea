"""server/config/: every setting listed once, parsed at start, documented as listed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from server.config import (
    BY_NAME,
    LIBRARY_KEYS,
    SETTINGS,
    SettingError,
    build_config,
    settings_table,
)

ROOT = Path(__file__).resolve().parent.parent
TABLE = re.compile(r"<!-- settings:[^\n]*-->\n(.*?)\n<!-- end of settings -->", re.S)
# how the code reads a setting: app.config / config[...] / .get(...), the environment
READS = re.compile(
    r"""(?:config(?:\.get\(|\[)|os\.environ(?:\.get\(|\[))\s*["']([A-Z][A-Z0-9_]+)["']"""
)


def test_the_deploy_guide_lists_exactly_the_settings():
    guide = (ROOT / "docs" / "deploy.md").read_text(encoding="utf-8")
    match = TABLE.search(guide)
    assert match, "docs/deploy.md has lost its generated table of settings"
    assert match.group(1) == settings_table(), "regenerate it: python -m server.config"


def test_every_key_the_code_reads_is_a_listed_setting():
    read = set()
    for path in (ROOT / "server").rglob("*.py"):
        read |= set(READS.findall(path.read_text(encoding="utf-8")))
    assert read, "the pattern found no reads at all"
    unlisted = sorted(read - set(BY_NAME) - LIBRARY_KEYS)
    assert not unlisted, f"read but not listed in server/config/settings.py: {unlisted}"


def test_each_setting_is_listed_once_with_a_meaning():
    names = [s.name for s in SETTINGS]
    assert len(names) == len(set(names))
    assert all(s.meaning and not s.meaning.endswith(".") for s in SETTINGS)


def test_defaults_then_the_environment_then_the_callers_mapping(tmp_path):
    env = {"CLASS_ROOM_TTL": "600", "CLASS_MAX_MEMBERS": "700", "PROXY_FIX": "1"}
    config = build_config(tmp_path, {"CLASS_MAX_MEMBERS": 500}, environ=env)
    assert config["CLASS_ROOM_TTL"] == 600.0 and config["PROXY_FIX"] == 1
    assert config["CLASS_MAX_MEMBERS"] == 500  # the mapping wins
    assert (
        config["CLASS_HEARTBEAT"] == 20.0 and config["RATE_LIMIT_GAMES"] == "300/minute;3000/hour"
    )
    assert config["DATABASE_URL"].startswith("sqlite:///") and config["SECRET_KEY"]
    assert (tmp_path / "secret_key").read_text() == config["SECRET_KEY"]  # kept for next time
    assert build_config(tmp_path, None, environ={})["SECRET_KEY"] == config["SECRET_KEY"]


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("CLASS_ROOM_TTL", "soon"),
        ("CLASS_ROOM_TTL", "1"),
        ("CLASS_MAX_MEMBERS", "0"),
        ("CLASS_MAX_MEMBERS", "1.5"),
        ("PROXY_FIX", "11"),
        ("PORT", "70000"),
        ("RATE_LIMIT_GAMES", "often"),
        ("RATE_LIMIT_STORAGE", "ftp://x"),
        ("SOCKETIO_CORS_ALLOWED_ORIGINS", "*"),
        ("PUBLIC_URL", "tour.example"),
        ("DEBUG", "maybe"),
    ],
)
def test_a_bad_value_stops_the_start_naming_the_setting(tmp_path, name, value):
    with pytest.raises(SettingError) as err:
        build_config(tmp_path, None, environ={name: value})
    assert str(err.value).startswith(f"{name}: ")
    assert "\n" not in str(err.value)
