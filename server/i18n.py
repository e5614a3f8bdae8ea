"""One bilingual catalogue (zh / en) for server messages and the browser's UI strings.

The words live in standard gettext catalogues, ``server/translations/<lang>/LC_MESSAGES/
messages.po`` (msgid = a stable key such as ``error.bad-board``, msgstr = the text), read
once with Babel, so translators use ordinary gettext tools.  The browser fetches its
strings from ``GET /api/i18n``, so the page and the API never disagree on a word.
Engine reasons arrive as a ``code`` plus ``params`` and an English ``reason``;
:func:`reason_text` renders them in the chosen language and falls back to the English
reason for a code the catalogue lacks.

Placeholders use ``str.format`` names, e.g. ``{square}``.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Mapping
from pathlib import Path

from babel.messages.pofile import read_po

LANGS = ("zh", "en")
DEFAULT_LANG = "zh"
CATALOGUES = Path(__file__).with_name("translations")


def catalogue_path(lang: str) -> Path:
    return CATALOGUES / lang / "LC_MESSAGES" / "messages.po"


def load_messages(directory: Path = CATALOGUES) -> dict[str, dict[str, str]]:
    """Every key with its text per language, from the .po catalogues (untranslated: absent)."""
    messages: dict[str, dict[str, str]] = {}
    for lang in LANGS:
        with open(directory / lang / "LC_MESSAGES" / "messages.po", "rb") as handle:
            catalog = read_po(handle, locale=lang)
        for message in catalog:
            if message.id and isinstance(message.id, str) and message.string:
                messages.setdefault(message.id, {})[lang] = message.string
    return messages


MESSAGES: dict[str, dict[str, str]] = load_messages()


def pick_lang(query: str | None, cookie: str | None, accept_languages=None) -> str:
    """``?lang=`` wins, then the ``lang`` cookie, then Accept-Language, then zh."""
    for choice in (query, cookie):
        if choice in LANGS:
            return choice
    if accept_languages is not None:
        best = accept_languages.best_match(LANGS)
        if best:
            return best
    return DEFAULT_LANG


def request_lang() -> str:
    """The language of the current Flask request."""
    # the rules and rooms use this module for their words without Flask: only this
    # function needs a request, so only it imports Flask
    from flask import request

    return pick_lang(
        request.args.get("lang"), request.cookies.get("lang"), request.accept_languages
    )


def text(key: str, lang: str, params: Mapping | None = None) -> str:
    """The message ``key`` in ``lang`` with ``params`` filled in; the key itself if unknown."""
    entry = MESSAGES.get(key)
    if entry is None:
        return key
    template = _pick(entry, lang)
    return _fill(template, params) or template


def reason_text(
    prefix: str, code: str | None, params: Mapping | None, fallback: str | None, lang: str
) -> str | None:
    """An engine reason in ``lang``: the catalogue's ``prefix.code``, else the English reason."""
    entry = MESSAGES.get(f"{prefix}.{code}") if code else None
    if entry is None:
        return fallback
    return _fill(_pick(entry, lang), params) or fallback


def _pick(entry: Mapping[str, str], lang: str) -> str:
    """The text in ``lang``, else in English, else in whichever language has it."""
    return entry.get(lang) or entry.get("en") or next(iter(entry.values()))


def _fill(template: str, params: Mapping | None) -> str | None:
    """``template`` with ``params``; None when a placeholder has no value."""
    try:
        return template.format_map(_flat(params))
    except (KeyError, IndexError, ValueError, AttributeError):
        return None


def _flat(params: Mapping | None) -> dict:
    """Lists of squares become one comma-separated string for the message."""
    out = {}
    for key, value in (params or {}).items():
        out[key] = ", ".join(map(str, value)) if isinstance(value, list | tuple) else value
    return out


def catalogue(lang: str) -> dict[str, str]:
    """Every message in one language (the browser's copy)."""
    return {key: _pick(entry, lang) for key, entry in MESSAGES.items()}


@functools.cache
def catalogue_version(lang: str) -> str:
    """A digest of ``lang``'s catalogue: pages fetch ``/api/i18n?lang=..&v=..``, which
    browsers keep until a release changes a word (as the static files, server/web/assets.py)."""
    words = json.dumps(catalogue(lang), sort_keys=True, ensure_ascii=False).encode()
    return hashlib.sha256(words).hexdigest()[:12]
