"""What the tests and the benchmarks may import from each other.

``tests/support/`` (live servers, socket clients, ``wait_until``, chromium's flags) is the
one place both use.  A test importing a benchmark, a benchmark importing a test, or the
support importing either would bring back the cycle tests <-> benchmarks.  And no
``importorskip``: a project that cannot import its own code (or a pinned dependency)
must fail, not skip quietly.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def modules(folder: str) -> list[Path]:
    return sorted((ROOT / folder).rglob("*.py"))


def imported(path: Path) -> set[str]:
    """Every module ``path`` imports, anywhere in it, relative imports resolved."""
    package = list(path.relative_to(ROOT).with_suffix("").parts[:-1])
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "attr", "") == "import_module"
            and node.args
            and isinstance(node.args[0], ast.JoinedStr | ast.Constant)
        ):
            text = ast.unparse(node.args[0]).strip("f'\"")
            found.add(text.split("{")[0].rstrip("."))
    return found


def under(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def offenders(folder: str, refused) -> list[str]:
    return [
        f"{path.relative_to(ROOT)}: {name}"
        for path in modules(folder)
        for name in sorted(imported(path))
        if refused(path, name)
    ]


def test_the_import_scan_sees_what_it_checks():
    """The scan itself: it must see the imports the rules below are about."""
    assert "tests.support.watch.stream_run" in imported(ROOT / "benchmarks/bench_stream.py")
    assert "tests.support.servers.start_servers" in imported(ROOT / "tests/scale/conftest.py")
    assert "benchmarks" in imported(ROOT / "benchmarks/bench.py")  # import_module(f"...")
    follower = imported(ROOT / "tests/web/test_class_busy.py")
    assert "tests.support.follower.Follower" in follower


def test_tests_do_not_import_benchmarks():
    assert not offenders("tests", lambda path, name: under(name, "benchmarks"))


def test_benchmarks_import_tests_only_through_the_support():
    def refused(path, name):
        return under(name, "tests") and not under(name, "tests.support")

    assert not offenders("benchmarks", refused)


def test_the_support_imports_no_test_and_no_benchmark():
    def refused(path, name):
        if not path.is_relative_to(ROOT / "tests/support"):
            return False
        return under(name, "benchmarks") or (
            under(name, "tests") and not under(name, "tests.support")
        )

    assert not offenders("tests", refused)


@pytest.mark.parametrize("folder", ["tests", "benchmarks"])
def test_nothing_is_skipped_for_want_of_an_import(folder):
    calls = [
        str(path.relative_to(ROOT))
        for path in modules(folder)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "importorskip"
    ]
    assert not calls, calls
