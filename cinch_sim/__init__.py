"""Cinch Monte Carlo strategy analyser.

Importing the package points numba's disk cache at a per-user cache folder
(``platformdirs.user_cache_dir("cinch-sim")``, e.g. ``~/.cache/cinch-sim``)
unless ``NUMBA_CACHE_DIR`` is set already: the compiled kernel then never
lands inside the installed package, where a later reinstall would leave it
behind as a stray folder that shadows the package.
"""

import os as _os
import sys as _sys

__version__ = "0.1.0"


def _use_user_cache_dir() -> None:
    if _os.environ.get("NUMBA_CACHE_DIR"):
        return  # the user's own choice
    from platformdirs import user_cache_dir

    _os.environ["NUMBA_CACHE_DIR"] = user_cache_dir("cinch-sim", appauthor=False)
    if "numba" in _sys.modules:  # numba read its settings before us: read them again
        from numba.core.config import reload_config

        reload_config()


_use_user_cache_dir()
