"""The project's console script, as the tests start it."""

from __future__ import annotations

import sys
from pathlib import Path


def knights_tour() -> list[str]:
    """The installed console script next to this interpreter, else ``python -m server``."""
    script = Path(sys.executable).with_name("knights-tour")
    return [str(script)] if script.exists() else [sys.executable, "-m", "server"]
