"""The documents are the contract: their tables are the models', every code is in them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from server.classroom import messages as class_messages
from server.stream import spec
from server.web import bodies, contract

ROOT = Path(__file__).resolve().parents[2]
# how the server refuses: an exception or a refusal naming the code first
RAISED = re.compile(r"""\b(?:ProtocolError|ClassError|RuleError|refuse|refused)\(\s*"([a-z-]+)\"""")


def codes_raised(*paths: str) -> set[str]:
    found = set()
    for pattern in paths:
        for path in ROOT.glob(pattern):
            found |= set(RAISED.findall(path.read_text(encoding="utf-8")))
    assert found, paths
    return found


@pytest.mark.parametrize("name", sorted(contract.TABLES))
def test_each_table_in_the_docs_is_the_models(name):
    doc, make = contract.TABLES[name]
    match = contract.section(name).search((ROOT / "docs" / doc).read_text(encoding="utf-8"))
    assert match, f"docs/{doc} has lost its generated table {name!r}"
    assert match.group(1) == make(), "regenerate: python -m server.web.contract"


def test_a_changed_model_is_a_drifted_doc(tmp_path):
    """The check can fail: a doc whose table is out of date is rewritten, and only then."""
    for doc in ("api.md", "protocol.md"):
        (tmp_path / doc).write_text((ROOT / "docs" / doc).read_text(encoding="utf-8"))
    assert contract.regenerate(tmp_path) == []
    text = (tmp_path / "protocol.md").read_text(encoding="utf-8")
    (tmp_path / "protocol.md").write_text(text.replace("1..20,000", "1..20,001", 1))
    assert contract.regenerate(tmp_path) == ["watch messages"]
    assert (tmp_path / "protocol.md").read_text(encoding="utf-8") == text


def documented(error_model) -> set[str]:
    return {
        entry["const"] for entry in error_model.model_json_schema()["properties"]["code"]["oneOf"]
    }


def test_every_watch_code_is_documented():
    raised = codes_raised("server/stream/*.py", "server/web/watch_socket.py")
    assert raised <= documented(spec.ErrorEvent), raised - documented(spec.ErrorEvent)


def test_every_class_code_is_documented():
    from server.web.class_socket import ClassNamespace

    raised = codes_raised("server/classroom/*.py", "server/web/class_*.py")
    raised |= {"bad-board", "unknown-algorithm", ClassNamespace.internal_code}  # settings
    raised |= {"rate-limited", "full"}  # the hub's
    missing = raised - documented(class_messages.ErrorEvent)
    assert not missing, missing


def test_every_api_code_is_documented_with_its_status():
    from server.web.api import HTTP_CODES, HTTP_STATUS

    raised = codes_raised("server/game/*.py", "server/web/api.py", "server/web/bodies.py")
    raised |= set(HTTP_CODES.values()) | {"rate-limited", "internal"}
    missing = raised - documented(bodies.ErrorAnswer)
    assert not missing, missing
    for status, code in HTTP_CODES.items():
        assert HTTP_STATUS[code] == status


def bounds(schema: dict) -> list:
    value = next((o for o in schema.get("anyOf", []) if o.get("type") != "null"), schema)
    keys = ("minimum", "maximum", "exclusiveMinimum", "minLength", "maxLength")
    return [value[k] for k in keys if k in value]


@pytest.mark.parametrize(
    ("name", "models"),
    [
        ("api bodies", bodies.BODIES),
        ("watch messages", spec.MESSAGES),
        ("class messages", class_messages.MESSAGES),
    ],
)
def test_every_range_is_in_the_docs(name, models):
    doc, _make = contract.TABLES[name]
    table = contract.section(name).search((ROOT / "docs" / doc).read_text(encoding="utf-8"))
    rows = table.group(1).splitlines()
    for event, model in models.items():
        for field, schema in model.model_json_schema()["properties"].items():
            row = next(r for r in rows if r.startswith(f"| `{event}` | `{field}` |"))
            for bound in bounds(schema):
                assert contract._number(bound) in row, (event, field, bound)
            code = contract._without_null(schema)[0].get("x-error")
            if code is not None:  # the code of a value out of range
                assert row.endswith(f"| `{code}` |"), (event, field, code)


# a puzzle code as the docs write one: 6x6.o, 5x5:c3.c.e5, 6x6~AAAgAAA.c.a1
PUZZLE_CODE = re.compile(
    r"(?<![\w~.])\d{1,3}x\d{1,3}(?:~[A-Za-z0-9_-]*|:[a-z0-9,]+)?\.[oc](?:\.[a-z]\d{1,2})?(?![\w~])"
)


def test_every_puzzle_code_the_docs_and_messages_show_is_one():
    """The docs' own example ``6x6~AAAg.c.a1`` was refused (``shape-malformed``): a 6x6
    mask is 5 bytes, and codes are canonical."""
    from server.engine.shape import ShapeError, parse_puzzle

    places = [
        *ROOT.glob("docs/*.md"),
        *ROOT.glob("README*.md"),
        *ROOT.glob("server/translations/*/LC_MESSAGES/messages.po"),
    ]
    shown = {(path.name, code) for path in places for code in PUZZLE_CODE.findall(path.read_text())}
    assert len(shown) > 10
    refused = []
    for place, code in sorted(shown):
        try:
            parse_puzzle(code)
        except ShapeError as err:
            refused.append((place, code, err.code))
    assert not refused
