"""How the browser tests and the browser benchmark launch chromium.

Debian's chromium (installed by ``make browser``) when present; the flags keep it off a
closed network and inside a small container.
"""

import os

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
