"""The boardsat command-line binary the tests compare with and check by."""

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def binary():
    """The boardsat binary: $BOARDSAT_BIN, else the newest build of the repository."""
    given = os.environ.get("BOARDSAT_BIN")
    if given:
        return given
    built = [p for p in (REPO / "target" / kind / "boardsat" for kind in ("release", "debug")) if p.is_file()]
    if not built:
        pytest.fail("no boardsat binary: run `cargo build -p boardsat` first, or set BOARDSAT_BIN")
    return str(max(built, key=lambda p: p.stat().st_mtime))
