"""Fetch Pyodide for the code lab (/lab) into static/vendor/pyodide/, checked against its pin.

Pyodide's core is about 13 MB, too big for git: ``make pyodide`` runs this once.  It reads
``static/vendor/pyodide/pin.json`` (the npm tarball's address and the sha512 the registry
publishes for it, as package-lock.json pins an npm package), downloads the tarball, refuses
it unless its digest is that one, and unpacks only the files the pin lists, which git
ignores.  A copy whose ``package.json`` already names the pinned version is kept: nothing
is downloaded again, so a class works offline once this has run.

Standard library only: it runs before the project's virtual environment exists.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import sys
import tarfile
import urllib.request
from pathlib import Path

FOLDER = Path(__file__).resolve().parents[1] / "static" / "vendor" / "pyodide"


def installed(pin: dict) -> bool:
    """Whether every pinned file is there, from the pinned version."""
    if not all((FOLDER / name).is_file() for name in pin["files"]):
        return False
    package = json.loads((FOLDER / "package.json").read_text(encoding="utf-8"))
    return package.get("version") == pin["version"]


def check(data: bytes, integrity: str) -> None:
    """Refuse ``data`` unless its digest is the pinned Subresource-Integrity string."""
    algorithm, _, expected = integrity.partition("-")
    actual = base64.b64encode(hashlib.new(algorithm, data).digest()).decode()
    if actual != expected:
        sys.exit(f"pyodide: the tarball's {algorithm} is {actual}, not the pinned {expected}")


def unpack(data: bytes, names: list[str]) -> None:
    """Write the listed files of the tarball's ``package/`` folder, nothing else."""
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        for name in names:
            member = tar.getmember(f"package/{name}")
            source = tar.extractfile(member)
            if source is None:
                sys.exit(f"pyodide: {name} is not a file in the tarball")
            partial = FOLDER / f"{name}.part"
            partial.write_bytes(source.read())
            partial.replace(FOLDER / name)  # never a half-written file under its name


def main() -> None:
    pin = json.loads((FOLDER / "pin.json").read_text(encoding="utf-8"))
    if installed(pin):
        return
    print(f"pyodide: fetching {pin['tarball']}", file=sys.stderr)
    with urllib.request.urlopen(pin["tarball"], timeout=120) as response:
        data = response.read()
    check(data, pin["integrity"])
    # package.json last: it marks the copy complete (installed() reads its version)
    unpack(data, sorted(pin["files"], key=lambda name: name == "package.json"))


if __name__ == "__main__":
    main()
