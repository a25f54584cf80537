"""Keep numba's disk cache honest about the package's own sources.

numba keys a cached function on its own file only: a cached kernel that
calls jitted helpers or built-in policies from other files keeps running
their old code after those files change. Before any of our
jitted modules loads, ``refresh`` compares a digest of every source file of
the package with a stamp kept in the cache folder, and on a mismatch deletes
the package's cache index files there, so everything recompiles once.
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parents[1]
_STAMP = "cinch_sim_sources.sha256"
# the sources jitted code is compiled from (the kernel and what it calls)
JIT_SOURCES = (
    "engine/kernel.py",
    "analysis/row_codes.py",
    "advisor/pools.py",
    "engine/policy_table.py",
    "jit/*.py",
    "policies/*.py",
    "solver/*.py",
    "bits.py",
    "rng.py",
    "layout.py",
    "signatures.py",
)
_done: set[str] = set()


@functools.cache
def source_digest() -> str:
    h = hashlib.sha256()
    paths = {p for pattern in JIT_SOURCES for p in _PACKAGE.glob(pattern)}
    for path in sorted(paths):
        h.update(str(path.relative_to(_PACKAGE)).encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def cache_dir_of(func) -> Path | None:
    from numba.core.caching import FunctionCache

    try:
        return Path(FunctionCache(func)._cache_path)
    except Exception:  # no usable cache location: numba will not cache either
        return None


def refresh(func) -> None:
    """Flush our cache entries in the cache folder of ``func``'s source folder if stale."""
    folder = cache_dir_of(func)
    if folder is None or str(folder) in _done:
        return
    _done.add(str(folder))
    digest = source_digest()
    stamp = folder / _STAMP
    try:
        if stamp.read_text() == digest:
            return
    except OSError:
        pass
    modules = {p.stem for p in Path(func.__code__.co_filename).parent.glob("*.py")}
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for index in folder.glob("*.nbi"):
            if index.name.split(".", 1)[0] in modules:
                index.unlink(missing_ok=True)
        stamp.write_text(digest)
    except OSError:
        pass


def refresh_user_file(path: Path) -> None:
    """Flush a user's policy file's entries in our cache folder when they were not
    compiled against these sources: numba watches only the file itself, so a layout
    change would leave the policy reading old slots; and a cinch_sim that imported
    the file under another module name left entries that load as that module."""
    from numba.core import config
    from numba.core.caching import UserProvidedCacheLocator

    if not config.CACHE_DIR:
        return
    path = path.resolve()
    sub = UserProvidedCacheLocator.get_suitable_cache_subpath(str(path))
    folder = Path(config.CACHE_DIR) / sub
    stamp = folder / f"{path.stem}.{_STAMP}"
    digest = source_digest()
    try:
        if stamp.read_text() == digest:
            return
    except OSError:
        pass
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for entry in [*folder.glob(f"{path.stem}.*.nbi"), *folder.glob(f"{path.stem}.*.nbc")]:
            entry.unlink(missing_ok=True)
        stamp.write_text(digest)
    except OSError:
        pass
