"""Numba plumbing shared by the kernel and the built-in policies: raw memory views,
branch hints and the disk cache's source stamp. Holds no rule of the game.

Importing it makes numba's cache loads lighter (``_light_cache_loads``): every
command loads the compiled kernel and policies from the cache, and that load was
the largest part of a warm start.
"""


def _light_cache_loads() -> None:
    """Load cached functions without first refreshing numba's target context.

    numba's ``Cache.load_overload`` calls ``target_context.refresh()`` before it
    reads a cached function; the refresh imports and installs every implementation
    numba has (about 0.3 s of a 1.35 s ``cinch-sim simulate --hands 100`` here).
    Those are needed to compile, not to load compiled code: the load needs only the
    runtime initialised (``rtsys.initialize``). A compile still refreshes both
    contexts (numba's compiler does it itself), and a lowering that misses an
    implementation refreshes too. Left as it is where numba's cache has another
    shape than the one this was written against (numba 0.60-0.68)."""
    from numba.core import caching
    from numba.core.runtime.nrt import rtsys

    cache = caching.Cache
    if getattr(cache.load_overload, "cinch_light", False):
        return
    needed = ("_load_overload", "_guard_against_spurious_io_errors")
    if not all(hasattr(cache, name) for name in needed):
        return

    def load_overload(self, sig, target_context):
        rtsys.initialize(target_context)
        with self._guard_against_spurious_io_errors():
            return self._load_overload(sig, target_context)

    load_overload.cinch_light = True  # type: ignore[attr-defined]
    load_overload.__doc__ = cache.load_overload.__doc__
    cache.load_overload = load_overload


_light_cache_loads()
