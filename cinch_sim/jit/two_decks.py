"""One source, two compilations: the two-deck copy of a jitted function.

Code for two decks sits behind ``if TWO_DECKS and ...`` where ``TWO_DECKS`` is a
module global set False. numba reads a global as a constant and prunes the
branch before typing, so the one-deck compilation carries none of it (cold
compile and speed as before). ``with_two_decks`` compiles the same source again
with ``TWO_DECKS`` true and named callees swapped for their own two-deck
copies; the engine and the solver pick a copy by ``rules.decks``.
"""

from __future__ import annotations

from types import FunctionType
from typing import Any

from numba import njit
from numba.core.caching import NullCache


def with_two_decks(fn: Any, scope: dict[str, Any] | None = None, **callees: Any) -> Any:
    """``fn`` compiled again from its own source with ``TWO_DECKS`` true and the named
    callees replaced (``play_hand=play_hand2``); ``scope``, a dict shared by several
    copies, lets copies call each other. A cached function's copy is cached too
    (``cache=True`` is not among numba's target options, so it is read off the
    dispatcher), in a file of its own (the name ends in 2)."""
    py = fn.py_func
    if scope is None:
        scope = {**py.__globals__}
    scope.update(TWO_DECKS=True, **callees)
    copy = FunctionType(py.__code__, scope, py.__name__ + "2", py.__defaults__, py.__closure__)
    copy.__qualname__ = py.__qualname__ + "2"
    copy.__doc__ = py.__doc__
    opts = {k: v for k, v in fn.targetoptions.items() if k != "nopython"}  # njit's own
    if not isinstance(fn._cache, NullCache):
        opts["cache"] = True
    return njit(**opts)(copy)
