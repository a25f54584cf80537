"""User policies run with their indexes checked, so a seat reads only its own arrays.

The kernel hands each seat views into arrays that hold every seat's state side by
side (the parameters, the scratch, the random streams), and compiled code does not
check its indexes: ``scratch[40]`` from a 32-slot view would read, or write, the next
seat's scratch. So a user policy never runs as the user compiled it: the loader runs
a twin of it, the same code compiled with ``boundscheck=True``, which calls twins of
the user functions it calls (by global name, as a module's attribute, or from a
closure). An index past a view then stops the run with an IndexError.

cinch_sim's, numba's and numpy's own functions are called as they are. Twinning
cinch_sim's too was tried: a test policy calling the solver then compiled it again
with checks (that test took 45 s in a full run). Given sensible arguments they index only what
they are given; a deliberately absurd one (``common.team_of(obs, 10**6)``) is of a
kind with what no check can stop: code that works around numba's types on purpose
(``numba.extending.intrinsic``, raw pointers). Compiled code runs in the same
process as the deal, so a bot you do not trust is not made safe here.
"""

from __future__ import annotations

import types
from typing import Any

SUFFIX = "__checked"  # the twin's name: its own entries in numba's disk cache
_TRUSTED = ("cinch_sim", "numba", "numpy")
_TWINS: dict[Any, Any] = {}  # the user's dispatcher -> its twin, one a process
_MODULES: dict[tuple[int, frozenset[str]], types.ModuleType] = {}


def checked(fn: Any) -> Any:
    """The bounds-checked twin of a numba function (itself when it is cinch_sim's,
    numba's or numpy's own), compiled lazily and cached as the user's function is."""
    if _trusted(fn.py_func.__module__):
        return fn
    twin = _TWINS.get(fn)
    return _twin(fn) if twin is None else twin


def _trusted(module: str | None) -> bool:
    return (module or "").split(".")[0] in _TRUSTED


def _twin(fn: Any) -> Any:
    from numba import njit
    from numba.core.caching import NullCache

    py = fn.py_func
    names = _names(py.__code__)
    env = dict(py.__globals__)  # numba reads globals when it compiles: filled in below
    closure = py.__closure__
    if closure is not None:
        closure = tuple(types.CellType(_checked_value(c.cell_contents, names)) for c in closure)
    code = types.FunctionType(py.__code__, env, py.__name__, py.__defaults__, closure)
    code.__kwdefaults__ = py.__kwdefaults__
    code.__qualname__ = py.__qualname__ + SUFFIX
    code.__module__ = py.__module__
    keep = ("fastmath", "error_model", "nogil", "inline", "forceinline")
    options = {k: v for k, v in fn.targetoptions.items() if k in keep}
    cache = not isinstance(getattr(fn, "_cache", None), NullCache)
    twin = _TWINS[fn] = njit(boundscheck=True, cache=cache, **options)(code)
    # after the twin is known: a function that calls itself (or its caller) finds it
    for name in names & env.keys():
        env[name] = _checked_value(env[name], names)
    return twin


def _names(code: types.CodeType) -> set[str]:
    """Every global and attribute name a function's code (and code nested in it) uses."""
    out = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            out |= _names(const)
    return out


def _checked_value(value: Any, names: set[str]) -> Any:
    """A global or closure value as the twin sees it: a user's numba function as its
    twin; a user's module, where it holds one under a name the code uses, as a copy
    holding twins; anything else as it is."""
    from numba.core.dispatcher import Dispatcher

    if isinstance(value, Dispatcher):
        return checked(value)
    if isinstance(value, types.ModuleType) and not _trusted(value.__name__):
        return _checked_module(value, names)
    return value


def _checked_module(module: types.ModuleType, names: set[str]) -> types.ModuleType:
    """``module``, or a copy of it whose attributes under ``names`` are twins (a copy
    only where needed: numba knows the standard modules by identity)."""
    from numba.core.dispatcher import Dispatcher

    kinds = (Dispatcher, types.ModuleType)
    used = {n for n in names if isinstance(getattr(module, n, None), kinds)}
    key = (id(module), frozenset(used))
    if key in _MODULES:
        return _MODULES[key]
    changed = {}
    _MODULES[key] = module  # a module reached again while it is copied: as it is
    for n in used:
        value = getattr(module, n)
        twin = _checked_value(value, names)
        if twin is not value:
            changed[n] = twin
    if not changed:
        return module
    copy = types.ModuleType(module.__name__, module.__doc__)
    copy.__dict__.update(module.__dict__)
    copy.__dict__.update(changed)
    _MODULES[key] = copy
    return copy
