"""Builds the optional compiled core, server.engine._core (everything else is in pyproject.toml).

A plain C extension built by setuptools with the system compiler: nothing is
downloaded, and when it cannot be built (no compiler, no Python headers) the
install still succeeds and the pure-Python engine runs (server/engine/native.py).
"""

from pathlib import Path

from setuptools import Extension, setup

CSRC = Path("server/engine/csrc")

setup(
    ext_modules=[
        Extension(
            "server.engine._core",
            sources=[str(p) for p in sorted(CSRC.glob("*.c"))],
            depends=[str(p) for p in sorted(CSRC.glob("*.h"))],
            extra_compile_args=["-O2", "-std=c11", "-D_POSIX_C_SOURCE=200809L"],
            optional=True,
        )
    ]
)
