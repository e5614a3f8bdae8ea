"""The gettext catalogues (server/translations/): well-formed, complete, and used consistently."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from server import i18n

ROOT = Path(__file__).resolve().parent.parent
LITERAL_KEY = re.compile(r"""\bt\(\s*["']([a-z][a-z0-9.-]+)["']""")


def catalog(lang: str):
    with open(i18n.catalogue_path(lang), "rb") as handle:
        return read_po(handle, locale=lang, abort_invalid=True)


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_each_catalogue_is_valid_gettext_without_fuzzy_or_empty_entries(lang):
    parsed = catalog(lang)
    assert str(parsed.locale) == lang
    messages = [m for m in parsed if m.id]
    assert len(messages) > 300
    for message in messages:
        assert isinstance(message.id, str) and message.string, message.id
        assert not message.fuzzy, message.id
    assert not [m.id for m in parsed.obsolete.values()]


def test_both_languages_have_the_same_keys_and_placeholders():
    zh = {m.id: m.string for m in catalog("zh") if m.id}
    en = {m.id: m.string for m in catalog("en") if m.id}
    assert zh.keys() == en.keys()
    for key in en:
        assert placeholders(zh[key]) == placeholders(en[key]), key


def test_the_loaded_messages_are_the_catalogues():
    assert i18n.load_messages() == i18n.MESSAGES
    assert i18n.text("error.game-over", "zh") == catalog("zh")["error.game-over"].string
    assert i18n.text("error.bad-undo", "en", {"moves": 3}) == "You can undo 1 to 3 moves here."
    assert i18n.text("no.such.key", "en") == "no.such.key"


def test_a_missing_translation_falls_back_to_english(tmp_path):
    """A catalogue a translator has not finished still serves every key."""
    for lang in i18n.LANGS:
        target = tmp_path / lang / "LC_MESSAGES"
        target.mkdir(parents=True)
        source = i18n.catalogue_path(lang).read_text(encoding="utf-8")
        if lang == "zh":  # blank one translation
            source = source.replace('msgstr "这局棋已经结束了。"', 'msgstr ""')
        (target / "messages.po").write_text(source, encoding="utf-8")
    loaded = i18n.load_messages(tmp_path)
    assert loaded["error.game-over"] == {"en": "This game is finished."}
    assert i18n._pick(loaded["error.game-over"], "zh") == "This game is finished."


def test_every_key_the_pages_and_scripts_name_exists():
    """Literal keys in templates/ and static/js/ (dynamic ones are covered by the protocol
    and page tests, which render every status and algorithm)."""
    files = [*ROOT.glob("templates/*.html"), *ROOT.glob("static/js/**/*.js")]
    found = (key for path in files for key in LITERAL_KEY.findall(path.read_text("utf-8")))
    used = {key for key in found if not key.endswith(".")}  # "prefix." + name: dynamic
    assert len(used) > 100
    missing = sorted(used - i18n.MESSAGES.keys())
    assert not missing, missing
