"""Writing results safely: atomic files, output folders that refuse to clobber, run.json."""

from __future__ import annotations

import json
import os
import platform
import tempfile
from pathlib import Path
from typing import Any

from cinch_sim import __version__


class OutputError(ValueError):
    """An output folder or file that cannot be written as asked."""


def atomic_write_text(path: str | Path, text: str) -> None:
    """Write a whole file or nothing: a temporary file beside it, then rename."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def atomic_write_bytes(path: str | Path, data: bytes) -> None:
    path = Path(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def prepare_out_dir(out: str | Path, force: bool) -> Path:
    """Create the output folder; refuse a non-empty one unless ``force``."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise OutputError(f"--out {out} exists and is not a folder")
    if out.is_dir() and any(out.iterdir()) and not force:
        raise OutputError(f"--out {out} already holds files; use --force to overwrite them")
    out.mkdir(parents=True, exist_ok=True)
    return out


def versions() -> dict[str, str]:
    from importlib.metadata import PackageNotFoundError, version

    out = {"cinch_sim": __version__, "python": platform.python_version()}
    for package in (
        "numpy",
        "numba",
        "llvmlite",
        "pandas",
        "scipy",
        "click",
        "matplotlib",
        "platformdirs",
        "pyarrow",
    ):
        try:
            out[package] = version(package)
        except PackageNotFoundError:
            out[package] = "not installed"
    return out


def write_run_json(out: Path, settings: dict[str, Any]) -> None:
    """Record every setting beside the outputs, so any table can be reproduced."""
    payload = dict(settings)
    payload["versions"] = versions()
    atomic_write_text(out / "run.json", json.dumps(payload, indent=2, default=str) + "\n")
