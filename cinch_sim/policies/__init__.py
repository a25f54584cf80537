"""Built-in policies, each a small jitted function with the policy signature."""

from cinch_sim.jit.cache import refresh as _refresh


def _here() -> None:
    """Locates this folder's numba cache."""


_refresh(_here)  # before any built-in policy loads from a stale cache
