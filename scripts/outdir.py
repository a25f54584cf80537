"""Where a script writes its results: the folder named by ``--out``, or a fresh one.

No script writes over a committed file unless you name it: without ``--out`` it
makes a new folder under the system's temporary folder and says where, so a
trial run leaves ``results/`` as it was. ``--out results`` updates the
committed files (the scripts' docstrings say which).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path


def add_out_option(ap: argparse.ArgumentParser, what: str) -> None:
    """``--out DIR``: where ``what`` goes; no default, so nothing is overwritten."""
    ap.add_argument(
        "--out",
        type=Path,
        default=None,
        metavar="DIR",
        help=f"folder for {what} (default: a new temporary folder, printed; "
        "--out results updates the committed files)",
    )


def out_folder(out: Path | None, name: str) -> Path:
    """``out`` (made if missing), or a new empty folder ``cinch-NAME-*`` in the
    system's temporary folder, announced on stderr."""
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        return out
    fresh = Path(tempfile.mkdtemp(prefix=f"cinch-{name}-"))
    print(f"writing to {fresh} (--out results updates the committed files)", file=sys.stderr)
    return fresh
