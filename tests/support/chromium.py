"""How the browser tests and the browser benchmarks launch chromium.

Debian's chromium, as its old headless shell (``chromium-headless-shell``, installed by
``make browser``): the same Blink and V8 as the browser, without the full browser's
windowing, which cost the browser tests 40 % more CPU (168 against 95 core-seconds for
test_watch and test_layout). ``CHROMIUM`` names another binary; with none of them,
Playwright's own build. The flags keep it off a closed network and inside a small
container.
"""

import os
from pathlib import Path

HEADLESS_SHELL = "/usr/bin/chromium-headless-shell"
FULL_BROWSER = "/usr/bin/chromium"


def _binary() -> str:
    named = os.environ.get("CHROMIUM")
    if named:
        return named
    return next((path for path in (HEADLESS_SHELL, FULL_BROWSER) if Path(path).exists()), "")


CHROMIUM = _binary()
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
if CHROMIUM == FULL_BROWSER:
    CHROMIUM_ARGS.insert(0, "--headless=new")  # the full browser's own headless mode


def launch_options() -> dict:
    """Playwright's ``chromium.launch`` options: headless, these flags, and Debian's
    chromium when present (else Playwright's own build)."""
    options = {"headless": True, "args": CHROMIUM_ARGS}
    if CHROMIUM and Path(CHROMIUM).exists():
        options["executable_path"] = CHROMIUM
    return options
