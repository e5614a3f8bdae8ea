"""Where ``make bench`` and ``make loadtest`` write their tables: docs/benchmarks.md.

Each table sits between two markers, ``<!-- NAME: written by ... -->`` and
``<!-- end of NAME -->``; a run of every suite replaces what is between them (a partial
run, ``--only``, only prints), so the document always holds one whole, dated run.
"""

from __future__ import annotations

import datetime
import re
from pathlib import Path

DOCUMENT = Path(__file__).resolve().parent.parent / "docs" / "benchmarks.md"


def replace_table(name: str, table: str, document: Path = DOCUMENT) -> None:
    """Put ``table`` (with today's date) between ``name``'s markers in ``document``."""
    text = document.read_text(encoding="utf-8")
    pattern = re.compile(
        rf"(<!-- {re.escape(name)}:[^\n]*-->\n).*?(<!-- end of {re.escape(name)} -->)", re.S
    )
    if not pattern.search(text):
        raise ValueError(f"{document} has no markers for {name!r}")
    dated = f"Run on {datetime.date.today().isoformat()}.\n\n{table.strip()}\n"
    document.write_text(
        pattern.sub(lambda m: m.group(1) + dated + m.group(2), text), encoding="utf-8"
    )
