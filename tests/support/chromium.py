"""How the browser tests and the browser benchmarks launch chromium.

Debian's chromium (installed by ``make browser``) when present; the flags keep it off a
closed network and inside a small container.
"""

import os
from pathlib import Path

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]


def launch_options() -> dict:
    """Playwright's ``chromium.launch`` options: headless, these flags, and Debian's
    chromium when present (else Playwright's own build)."""
    options = {"headless": True, "args": CHROMIUM_ARGS}
    if Path(CHROMIUM).exists():
        options["executable_path"] = CHROMIUM
    return options
