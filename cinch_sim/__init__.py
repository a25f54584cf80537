"""Cinch Monte Carlo strategy analyser.

The Python API (``cinch_sim.api``, docs/api.md) is offered here too:
``cinch_sim.simulate(hands=2000)``, ``cinch_sim.advise(...)``, ... Those names
are looked up on first use (PEP 562), so ``import cinch_sim`` stays cheap: it
loads neither numba nor pandas, and ``cinch-sim --help`` stays instant. The
report function is ``cinch_sim.strategy_report`` here, since
``cinch_sim.report`` is the subpackage that builds it.

Importing the package points numba's disk cache at a per-user cache folder
(``platformdirs.user_cache_dir("cinch-sim")``, e.g. ``~/.cache/cinch-sim``)
unless ``NUMBA_CACHE_DIR`` is set already: the compiled kernel then never
lands inside the installed package, where a later reinstall would leave it
behind as a stray folder that shadows the package.
"""

import os as _os
import sys as _sys

from cinch_sim.version import __version__


def _use_user_cache_dir() -> None:
    if _os.environ.get("NUMBA_CACHE_DIR"):
        return  # the user's own choice
    from platformdirs import user_cache_dir

    _os.environ["NUMBA_CACHE_DIR"] = user_cache_dir("cinch-sim", appauthor=False)
    if "numba" in _sys.modules:  # numba read its settings before us: read them again
        from numba.core.config import reload_config

        reload_config()


_use_user_cache_dir()


#: The API's names, offered by the package itself (``cinch_sim.api.__all__``
#: without ``report``, which is the subpackage's name here).
_API = (
    "Advice",
    "Analysis",
    "CardValues",
    "Comparison",
    "CutThroatComparison",
    "InputError",
    "Ladder",
    "RefereeReport",
    "Report",
    "Rules",
    "Simulation",
    "SolveReport",
    "advise",
    "analyse",
    "card_values",
    "compare",
    "ladder",
    "merge",
    "referee",
    "resolve_rules",
    "simulate",
    "solve",
    "stats",
    "strategy_report",
    "variants",
)
__all__ = ["__version__", *_API]


def __getattr__(name: str):
    """The API's names, imported on first use (a function-level import, so the
    package's import loads nothing heavy)."""
    if name in _API:
        from cinch_sim import api

        return getattr(api, name)
    if name == "report":  # the subpackage's name: the function is called otherwise here
        raise AttributeError(
            "cinch_sim.report is the subpackage that builds reports: the function is "
            "cinch_sim.strategy_report (cinch_sim.api.report)"
        )
    raise AttributeError(f"module 'cinch_sim' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_API))
