"""Finding, loading and checking policies for the four plug points.

A policy spec is a built-in name (``random``, ``simple``, ``greedy``,
``heuristic``), ``package.module:function`` or ``path/to/file.py:function``.
A user's function is any numba function with the signature in
``signatures.py``; a plain ``@njit`` one is compiled for that signature here,
and either runs as its bounds-checked twin (``checked.py``).

``seat_specs`` turns what a user gives for one plug point into one spec per
seat, the one reading of ``SEAT=POLICY`` for the command line and the API.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import inspect
import numbers
import re
import sys
import threading
import warnings
import weakref
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

import numpy as np

from cinch_sim.interrupts import compiling
from cinch_sim.jit.cache import refresh_user_file
from cinch_sim.jit.notice import first_compile
from cinch_sim.policies.checked import checked
from cinch_sim.policies.registry import BUILTINS, KINDS, Builtin, find, names
from cinch_sim.signatures import N_PARAMS, POLICY_SIG


class PolicyError(ValueError):
    """A policy that cannot be found, loaded or used."""


@dataclass(frozen=True)
class Policy:
    """A loaded policy: its spec, the compiled function and its parameter vector."""

    spec: str
    kind: str
    func: object = field(repr=False, compare=False)
    params: tuple[float, ...] = ()
    builtin: Builtin | None = None  # the registry's entry (the kernel calls it directly)
    source: str = field(default="", repr=False)  # a user policy's module text, hashed

    def digest(self) -> str | None:
        """What decides a user policy's behaviour, hashed: its module's text and its
        parameters (None for a built-in: the version names its code). Runs record it,
        so merge and --resume refuse a run whose policy file or parameters changed."""
        if self.builtin is not None:
            return None
        text = f"{self.source}\n{[float(v) for v in self.params]!r}"
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]

    @property
    def slow(self) -> bool:
        """A slow built-in (pimc, dd): milliseconds a hand, not microseconds."""
        return self.builtin is not None and self.builtin.slow

    def param_vector(self) -> np.ndarray:
        v = np.zeros(N_PARAMS)
        v[: len(self.params)] = self.params
        return v


def load_policy(kind: str, spec: str, params: tuple[float, ...] | None = None) -> Policy:
    """Resolve a spec to a compiled policy, with a one-line error when it cannot be."""
    # importing a policy's module compiles its functions or loads them from the cache:
    # Ctrl-C must stop that, and never be lost inside numba (cinch_sim/interrupts.py)
    # and numba's notes on its own features (first-class functions, in dd) are not
    # the user's business
    from numba.core.errors import NumbaWarning

    with compiling(), warnings.catch_warnings():
        warnings.simplefilter("ignore", NumbaWarning)
        return _load_policy(kind, spec, params)


def load_named_policy(kind: str, spec: str) -> Policy:
    """A policy a user named (``--bid-policy``, ``simulate(bid=...)``): ``load_policy``
    with its own defaults, refusing a built-in whose choice is its parameters
    (``fixed``), which a name alone would leave always passing or naming clubs."""
    builtin = find(kind, spec.strip())
    if builtin is not None and not builtin.by_name:
        what = "bid" if kind == "bid" else "suit"
        raise PolicyError(
            f"{kind} policy {spec.strip()!r} makes the one {what} its parameters give, and "
            f"a name alone gives none: set {what!r} in a strategy file (docs/policies.md, "
            "Strategies)"
        )
    return load_policy(kind, spec)


def _load_policy(kind: str, spec: str, params: tuple[float, ...] | None) -> Policy:
    if kind not in KINDS:
        raise PolicyError(f"unknown plug point {kind!r} (one of {', '.join(KINDS)})")
    spec = spec.strip()
    builtin = find(kind, spec)
    if builtin is not None:
        module = _builtin_module(builtin.module)
        fn = getattr(module, builtin.function)
        defaults = getattr(module, "DEFAULT_PARAMS", {}).get(builtin.function, ())
        if params is not None:
            defaults = param_tuple(params, f"{kind} policy {spec!r}: params")
        return Policy(spec, kind, fn, tuple(defaults), builtin)
    if ":" not in spec:
        known = ", ".join(names(kind))
        raise PolicyError(
            f"unknown {kind} policy {spec!r} (built-ins: {known}; "
            "or module:function, or path/to/file.py:function)"
        )
    where, fn_name = spec.rsplit(":", 1)
    if ":" in where:  # bot.py:play:extra
        raise PolicyError(
            f"{kind} policy {spec!r}: one ':' between the module or file and the function"
        )
    if not where.strip() or not fn_name.strip() or where.strip(".") == "":
        raise PolicyError(
            f"{kind} policy {spec!r}: name a module or file and a function, "
            "module:function or path/to/file.py:function"
        )
    module = _import_user_module(where, spec)
    fn = getattr(module, fn_name, None)
    if fn is None:
        raise PolicyError(f"{kind} policy {spec!r}: {where} has no function {fn_name!r}")
    _check_param_tables(module, where, f"{kind} policy {spec!r}")
    twin = _compile_for_kernel(fn, kind, spec)
    source = _source_digest(module, fn)
    if params is not None:
        given = param_tuple(params, f"{kind} policy {spec!r}: params")
        return Policy(spec, kind, twin, given, source=source)
    defaults = _user_defaults(module, fn, fn_name, kind, spec)
    return Policy(spec, kind, twin, defaults, source=source)


def _builtin_module(name: str):
    """A built-in policy's module. Importing it compiles its functions on a first run
    (seconds for the heuristic's, 84-106 s measured for pimc's with the solver) or
    loads them from the cache; past the kernel's threshold the user is told it is a
    compile, and how long it took, as for the kernel (``jit.notice``)."""
    full = f"cinch_sim.policies.{name}"
    module = sys.modules.get(full)
    if module is not None:
        if not getattr(module.__spec__, "_initializing", False):
            return module
        # another thread is importing it (the web page's queries run in threads):
        # importlib waits for that import to finish instead of handing out a
        # half-made module ("has no attribute 'heuristic_bid'")
        return importlib.import_module(full)
    loaded = threading.Event()
    with first_compile(f"the {name} policies", lambda: not loaded.is_set()):
        module = importlib.import_module(full)
        loaded.set()
    return module


def param_tuple(raw: object, what: str) -> tuple[float, ...]:
    """A parameter vector as the policies read it: at most N_PARAMS finite numbers.
    A one-line PolicyError naming ``what`` otherwise (numpy's own words name neither
    the policy nor the mistake)."""
    if isinstance(raw, (str, bytes)) or not isinstance(raw, Sequence | np.ndarray):
        raise PolicyError(f"{what} must be a tuple of numbers, not {type(raw).__name__}")
    if len(raw) > N_PARAMS:
        raise PolicyError(f"{what} has {len(raw)} values (at most {N_PARAMS})")
    out = []
    for i, v in enumerate(raw):
        ok = isinstance(v, numbers.Real) and not isinstance(v, bool)
        if not ok or not np.isfinite(float(v)):
            raise PolicyError(f"{what}[{i}] is {v!r}: every parameter is a finite number")
        out.append(float(v))
    return tuple(out)


def _user_defaults(module, fn, fn_name: str, kind: str, spec: str) -> tuple[float, ...]:
    """A user policy's default parameters. Without a ``DEFAULT_PARAMS`` entry every
    slot reads 0, which silently changes a policy that reads parameters (the
    heuristic's play with zeros pulls no trumps): a built-in's function keeps
    the built-in's defaults, and a function whose slots are named in
    ``PARAM_NAMES`` but given no defaults is refused."""
    table = getattr(module, "DEFAULT_PARAMS", {})
    if not isinstance(table, Mapping):
        raise PolicyError(
            f"{kind} policy {spec!r}: DEFAULT_PARAMS must be a dict of function name to "
            f"a tuple of numbers, not {type(table).__name__}"
        )
    if fn_name in table:
        return param_tuple(table[fn_name], f"{kind} policy {spec!r}: DEFAULT_PARAMS[{fn_name!r}]")
    for b in BUILTINS:
        if b.kind != kind:
            continue
        home = importlib.import_module(f"cinch_sim.policies.{b.module}")
        if getattr(home, b.function, None) is fn:
            return tuple(getattr(home, "DEFAULT_PARAMS", {}).get(b.function, ()))
    if fn_name in getattr(module, "PARAM_NAMES", {}):
        raise PolicyError(
            f"{kind} policy {spec!r} names its parameters in PARAM_NAMES but has no "
            f"DEFAULT_PARAMS entry {fn_name!r}: give its defaults (else every slot reads 0)"
        )
    return ()


def _check_param_tables(module: ModuleType, where: str, what: str) -> None:
    """Refuse a ``DEFAULT_PARAMS`` or ``PARAM_NAMES`` key that names no function of the
    module (a typo leaves every slot of the real one at 0), and a function whose names
    and defaults differ in length (a name past the defaults would set a slot at 0)."""
    names = getattr(module, "PARAM_NAMES", {})
    if not isinstance(names, Mapping):
        raise PolicyError(f"{what}: PARAM_NAMES must be a dict of function name to a tuple "
                          f"of names, not {type(names).__name__}")  # fmt: skip
    defaults = getattr(module, "DEFAULT_PARAMS", {})
    for table, label in ((defaults, "DEFAULT_PARAMS"), (names, "PARAM_NAMES")):
        if not isinstance(table, Mapping) or _borrowed(module, label, table):
            continue
        for key in table:
            if not callable(getattr(module, str(key), None)):
                raise PolicyError(f"{what}: {label} has an entry {key!r}, which names no "
                                  f"function in {where}")  # fmt: skip
    for key, named in names.items():
        if isinstance(named, str) or not isinstance(named, Sequence):
            raise PolicyError(f"{what}: PARAM_NAMES[{key!r}] must be a tuple of names, "
                              f"not {type(named).__name__}")  # fmt: skip
        twice = sorted({str(n) for n in named if list(named).count(n) > 1})
        if twice:
            raise PolicyError(f"{what}: PARAM_NAMES[{key!r}] names {', '.join(map(repr, twice))} "
                              "twice: each parameter slot needs a name of its own")  # fmt: skip
        values = defaults.get(key) if isinstance(defaults, Mapping) else None
        if isinstance(values, Sequence | np.ndarray) and len(values) != len(named):
            raise PolicyError(f"{what}: PARAM_NAMES[{key!r}] names {len(named)} parameters "
                              f"but DEFAULT_PARAMS[{key!r}] gives {len(values)}")  # fmt: skip


def _borrowed(module: ModuleType, name: str, table: object) -> bool:
    """A table imported from another module (``from cinch_sim.policies.heuristic import
    DEFAULT_PARAMS``): its keys name that module's functions, not this one's."""
    for other in list(sys.modules.values()):
        if other is not module and getattr(other, "__dict__", {}).get(name) is table:
            return True
    return False


_SOURCES: weakref.WeakKeyDictionary[ModuleType, str] = weakref.WeakKeyDictionary()


def _source_digest(module: ModuleType, fn) -> str:
    """The digest of a user policy's module text, as it was when first seen (a policy
    file's text is read as it is imported). Without a file, the function's own source."""
    found = _SOURCES.get(module)
    if found is None:
        try:
            text = Path(module.__file__).read_bytes()  # type: ignore[arg-type]
        except (OSError, TypeError):
            try:
                text = inspect.getsource(getattr(fn, "py_func", fn)).encode("utf-8")
            except (OSError, TypeError):
                text = b""
        found = _SOURCES[module] = hashlib.sha256(text).hexdigest()
    return found


def user_module_name(path: Path) -> str:
    """The name a policy file is imported under when another module already has its
    stem: its stem and a digest of its resolved path, unique to the file."""
    import hashlib

    digest = hashlib.sha1(str(path.resolve()).encode("utf-8")).hexdigest()[:12]
    stem = "".join(c if c.isalnum() else "_" for c in path.stem)
    return f"cinch_user_{stem}_{digest}"


@contextmanager
def _no_disk_cache() -> Iterator[None]:
    """numba's ``cache=True`` ignored while a module is imported: it neither loads nor
    saves compiled code (the module compiles afresh)."""
    from numba.core.dispatcher import Dispatcher

    enable = Dispatcher.enable_caching
    Dispatcher.enable_caching = lambda self: None
    try:
        yield
    finally:
        Dispatcher.enable_caching = enable


def is_file_spec(where: str) -> bool:
    """The part of a spec before its ``:`` names a file (``bots/mine.py``), not a module."""
    return where.endswith(".py") or "/" in where or "\\" in where


def _import_user_module(where: str, spec: str):
    if is_file_spec(where):
        path = Path(where)
        if not path.is_file():
            typo = path.with_suffix(".py")
            hint = f" (did you mean {typo}?)" if typo != path and typo.is_file() else ""
            raise PolicyError(f"policy {spec!r}: no such file {where}{hint}")
        # Not runpy (a policy file run with runpy.run_path crashed the cached kernel
        # in the next process): importing under a stable name lets numba's cache
        # find the module's functions again in the next process. The module's own
        # stem, as a plain import would name it: numba keys its cache by the file but
        # records the module's name in it, so a file must load under one name.
        resolved = str(path.resolve())
        name = path.stem
        own_cache = True
        loaded = sys.modules.get(name)
        if loaded is not None and getattr(loaded, "__file__", None) != resolved:
            # another file of this stem (a/bot.py, then b/bot.py) is loaded already. Its
            # cached code would load as that module, and numba's compiled symbols carry
            # the module's name: b's function would silently be a's. So this one loads
            # under a name of its own, compiled afresh and never cached.
            name, own_cache = user_module_name(path), False
            loaded = sys.modules.get(name)
        text = path.read_bytes()  # the text an import runs (a run records its digest)
        if loaded is not None and getattr(loaded, "__file__", None) == resolved:
            if _SOURCES.get(loaded) == hashlib.sha256(text).hexdigest():
                return loaded
            # the file changed since this process imported it (a notebook's
            # %%writefile, an editor): its new text is imported, never the old code
        module_spec = importlib.util.spec_from_file_location(name, resolved)
        if module_spec is None or module_spec.loader is None:
            raise PolicyError(f"policy {spec!r}: cannot load {where}")
        refresh_user_file(path)  # before the import: @njit(SIG, cache=True) loads there
        module = importlib.util.module_from_spec(module_spec)
        sys.modules[name] = module
        try:
            with nullcontext() if own_cache else _no_disk_cache():
                module_spec.loader.exec_module(module)
        except Exception as exc:  # user code: report, never crash
            del sys.modules[name]
            why = numba_reason(exc, resolved) if _numba_error(exc) else str(exc)
            if isinstance(exc, ModuleNotFoundError):  # its own module beside it, say
                why += (
                    " (a policy file's imports are looked for on Python's path, not "
                    "beside the file: set PYTHONPATH to its folder)"
                )
            raise PolicyError(f"policy {spec!r}: {where} failed to load: {why}") from None
        _SOURCES[module] = hashlib.sha256(text).hexdigest()
        return module
    try:
        return importlib.import_module(where)
    except Exception as exc:
        here = Path(*where.split(".")).with_suffix(".py")
        typo = Path(where).with_suffix(".py")  # bot.pyy, bot.txt for bot.py
        hint = ""
        if isinstance(exc, ModuleNotFoundError) and here.is_file():  # not on sys.path
            hint = f" (a file in this folder: name it as one, {here}:{spec.rsplit(':', 1)[1]})"
        elif isinstance(exc, ModuleNotFoundError) and typo.is_file():
            hint = f" (did you mean the file {typo}:{spec.rsplit(':', 1)[1]}?)"
        raise PolicyError(f"policy {spec!r}: cannot import {where}: {exc}{hint}") from None


def _compile_for_kernel(fn, kind: str, spec: str):
    """fn's bounds-checked twin (``checked.py``), compiled with the policy signature;
    refused unless fn is a numba function that may take that signature and returns
    an integer."""
    from numba.core.dispatcher import Dispatcher

    if not isinstance(fn, Dispatcher):
        what = "" if callable(fn) else f" ({type(fn).__name__}, not a function)"
        raise PolicyError(
            f"{kind} policy {spec!r} is not a numba function{what}: decorate it with @njit"
        )
    if POLICY_SIG.args not in fn.overloads and not fn._can_compile:  # @njit(its own sig)
        shown = ", ".join(str(s) for s in fn.signatures)
        raise PolicyError(
            f"{kind} policy {spec!r} does not compile with the policy signature "
            f"(obs, hand, legal, params, scratch, rng) -> int64: it was compiled for "
            f"its own signature ({shown}) only: use @njit(POLICY_SIG) from "
            "cinch_sim.signatures, or @njit with none"
        )
    own = fn.overloads.get(POLICY_SIG.args)  # compiled already: as declared (int64 casts)
    fn = checked(fn)
    try:
        if POLICY_SIG.args not in fn.overloads:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                fn.compile(POLICY_SIG.args if own is None else own.signature)
    except Exception as exc:
        first = numba_reason(exc, inspect.getsourcefile(fn.py_func))
        raise PolicyError(
            f"{kind} policy {spec!r} does not compile with the policy signature "
            f"(obs, hand, legal, params, scratch, rng) -> int64: {first}"
        ) from None
    cres = fn.overloads.get(POLICY_SIG.args)
    if cres is not None and str(_unliteral(cres.signature.return_type)) != "int64":
        # a policy returning a float or a bool would be silently truncated
        returned = _shown(cres.signature.return_type)
        hint = ""
        if _INTEGER.fullmatch(str(returned)):  # a uint64 mask, an int32: cast it
            hint = ": return np.int64(...) (or declare @njit(POLICY_SIG), which casts)"
        elif str(returned).startswith("OptionalType"):  # a path falls off the end
            hint = ": a path through it returns nothing (None); end every path with a return"
        raise PolicyError(f"{kind} policy {spec!r} returns {returned}, not int64{hint}")
    # what each return hands over, before int64 casts it (under a signature 0.7 became
    # 0 and True 1; without one a bool beside an int unifies to int64): one rule for
    # both, whichever load compiled the function first
    returned = _not_an_integer(fn, cres) if cres is not None else None
    if returned is not None:
        raise PolicyError(f"{kind} policy {spec!r} returns {returned}, not int64")
    return fn


def _unliteral(t):
    """``return 0`` without a signature is typed Literal[int](0): an int64 all the same."""
    from numba.core import types

    return t.literal_type if isinstance(t, types.IntegerLiteral) else t


_INTEGER = re.compile(r"u?int(8|16|32|64)|Literal\[int\]\(.*\)")
_ASSIGNED = re.compile(r"#\s+(\S+) = (.*)  :: (.+)")  # a line of numba's annotation
_CAST = re.compile(r"cast\(value=(\S+)\)")


def _not_an_integer(fn, cres) -> str | None:
    """What a declared policy returns that is no integer (a float, a bool) before the
    signature's int64 casts it; None when every return is an integer (a uint64 mask
    too)."""
    found = _annotated_returns(cres)
    if found is None:
        found = _inferred_returns(fn)
    bad = [t for t in found if not _INTEGER.fullmatch(t)]
    return re.sub(r"Literal\[(\w+)\]\(.*\)", r"\1", bad[0]) if bad else None


def _annotated_returns(cres) -> list[str] | None:
    """The types of what each ``return`` hands to the cast, read from numba's type
    annotation of the compiled function (its cache keeps it as text): microseconds,
    no compile. None when the annotation does not show them."""
    types_of: dict[str, str] = {}
    returned: list[str] = []
    for line in str(getattr(cres, "type_annotation", None) or "").splitlines():
        m = _ASSIGNED.fullmatch(line.strip())
        if m is None:
            continue
        target, expr, typ = m.groups()
        if expr.startswith("call "):  # a call shows its signature: (args) -> result
            typ = typ.rsplit(" -> ", 1)[-1]
        types_of[target] = typ.strip()
        cast = _CAST.fullmatch(expr)
        if cast is not None:
            returned.append(cast.group(1))
    found = [types_of.get(v) for v in returned]
    return None if not found or None in found else [t for t in found if t is not None]


def _inferred_returns(fn) -> list[str]:
    """numba's type inference of ``fn``'s Python code with the policy's arguments and no
    return type, where the annotation does not tell. Slower: typing the helpers it calls
    compiles them or loads them from the cache (30-900 ms measured)."""
    from numba.core.compiler import run_frontend
    from numba.core.typed_passes import type_inference_stage

    try:
        fn.typingctx.refresh()
        fn.targetctx.refresh()
        ir = run_frontend(fn.py_func)
        args = (fn.typingctx, fn.targetctx, ir, POLICY_SIG.args, None)
        return [str(type_inference_stage(*args, locals=fn.locals).return_type)]
    except Exception:
        return []  # the compile with the signature passed: nothing to refuse


def _shown(t: object) -> object:
    """A numba type as a user wrote it: ``bool``, not ``Literal[bool](True)``."""
    from numba.core import types

    return types.unliteral(t)


def _numba_error(exc: BaseException) -> bool:
    from numba.core.errors import NumbaError

    return isinstance(exc, NumbaError)


_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_AT = re.compile(r'File "([^"]+)", line (\d+)')
# numba's lines that say where it was, not what went wrong
_NOT_A_REASON = ("Failed in ", "During:", "File ", "- Resolution failure", "- Of which",
                 "Enable logging", "There are ", "Return of:", "<source elided>")  # fmt: skip


READ_ONLY = (
    "it writes to a read-only array: obs (every seat reads the same observation; keep "
    "your own notes in scratch) or a module-level array (a constant in compiled code)"
)


def numba_reason(exc: BaseException, source: str | None = None) -> str:
    """numba's key reason on one line: the first line of its message that says what
    went wrong (not the pipeline step it failed in), with the signature it found no
    implementation for, and the line of ``source`` (else the first file) it names.

    >>> numba_reason(ValueError("Failed in nopython mode pipeline (step: x)\\n"
    ...     "Untyped global name 'R'\\n\\nFile \\"bot.py\\", line 7:\\n  x = R[0]"))
    "Untyped global name 'R' (bot.py, line 7)"
    """
    lines = [ln.strip() for ln in _ANSI.sub("", str(exc)).splitlines()]
    reason = next((ln for ln in lines if ln and not ln.startswith(_NOT_A_REASON)), "")
    if not reason:
        return type(exc).__name__
    if reason.endswith("found for signature:"):
        called = next((ln for ln in lines if ln.startswith(">>>")), "")
        reason = f"{reason} {called[3:].strip()}".strip()
    if "readonly array" in reason and ("setitem" in reason or "fill" in reason):
        reason = READ_ONLY  # obs is typed read-only (signatures.py says why)
    places = [m.groups() for ln in lines if (m := _AT.match(ln))]
    name = Path(source).name if source else None
    mine = [p for p in places if name and Path(p[0]).name == name] or places
    if mine:  # numba names the file relative to the current folder: ../../tmp/...
        reason += f" ({Path(mine[0][0]).name}, line {mine[0][1]})"
    return reason


def split_seat(kind: str, item: str, players: int | None = None) -> tuple[int | None, str]:
    """``SEAT=POLICY`` -> (seat, policy); ``POLICY`` -> (None, policy).

    A seat is plain ASCII digits: ``str.isdigit`` also takes ``²`` and ``٣``,
    which ``int`` then refuses with a message about ``int()``. A head that no
    policy spec could start with (no ``:``, ``.`` or path separator) is a seat
    meant, so ``²=random`` is named as a seat that is not a number.

    >>> split_seat("play", "2=greedy"), split_seat("play", "greedy")
    ((2, 'greedy'), (None, 'greedy'))
    >>> split_seat("play", "²=greedy")
    Traceback (most recent call last):
    ...
    cinch_sim.policies.loading.PolicyError: play policy '²=greedy': seat '²' is not a number
    """
    head, sep, tail = item.strip().partition("=")
    head = head.strip()
    if not sep or any(ch in head for ch in ":./\\"):
        return None, item.strip()
    if not is_seat_number(head):
        seats = f" (seats are 0..{players - 1})" if players else ""
        raise PolicyError(f"{kind} policy {item.strip()!r}: seat {head!r} is not a number{seats}")
    seat = int(head)
    if players is not None and not 0 <= seat < players:
        raise PolicyError(f"{kind} policy {item.strip()!r}: seat {seat} is not 0..{players - 1}")
    return seat, tail.strip()


def is_seat_number(text: str) -> bool:
    """Plain ASCII decimal digits (``"2"``; not ``"²"``, ``"٢"``, ``"+2"`` or ``""``)."""
    return text.isascii() and text.isdigit()


def parse_policy_specs(
    kind: str, items: tuple[str, ...] | list[str], players: int = 4, default: str = "heuristic"
) -> list[str]:
    """CLI form -> one spec per seat. Items are ``POLICY`` (all seats), at most once
    and first, or ``SEAT=POLICY``, each seat at most once: a repeat would silently
    undo what came before it.

    >>> parse_policy_specs("play", ["greedy", "0=random"])
    ['random', 'greedy', 'greedy', 'greedy']
    >>> parse_policy_specs("play", ["0=random", "0=greedy"])
    Traceback (most recent call last):
    ...
    cinch_sim.policies.loading.PolicyError: play policy '0=greedy': seat 0 is given twice
    """
    specs = [default] * players
    seats: set[int] = set()
    for n, item in enumerate(items):
        seat, spec = split_seat(kind, item, players)
        if seat is None:
            if n and split_seat(kind, items[0], players)[0] is None:
                raise PolicyError(
                    f"{kind} policy {item!r}: every seat's policy is given twice "
                    f"({items[0]!r} first): give it once, then SEAT=POLICY for a seat"
                )
            if n:
                raise PolicyError(
                    f"{kind} policy {item!r}: every seat's policy comes first, before any "
                    f"seat's own ({items[0]!r} came before it)"
                )
            specs = [spec] * players
        elif seat in seats:
            raise PolicyError(f"{kind} policy {item!r}: seat {seat} is given twice")
        else:
            seats.add(seat)
            specs[seat] = spec
    return specs


#: What a user may give for one plug point (``seat_specs`` reads it).
SeatSpecs = str | Mapping[int, str] | Sequence[str] | None


def seat_specs(
    kind: str, spec: SeatSpecs, players: int = 4, default: str = "heuristic"
) -> list[str]:
    """One spec per seat from any form the API takes, the command line's included.

    ``"greedy"`` is every seat; ``{0: "greedy"}`` is seat 0, the others
    ``default``; a list of one spec per seat is each seat's own; a list with
    ``SEAT=POLICY`` items is read as repeated command-line options are.

    >>> seat_specs("play", {0: "greedy", 2: "greedy"})
    ['greedy', 'heuristic', 'greedy', 'heuristic']
    >>> seat_specs("play", ["0=greedy"]) == seat_specs("play", {0: "greedy"})
    True
    >>> seat_specs("play", {4: "greedy"})
    Traceback (most recent call last):
    ...
    cinch_sim.policies.loading.PolicyError: play policy '4=greedy': seat 4 is not 0..3
    """
    if spec is None:
        return [default] * players
    if isinstance(spec, str):
        return parse_policy_specs(kind, [spec], players, default)
    if isinstance(spec, Mapping):
        specs = [default] * players
        for seat, s in spec.items():
            number = isinstance(seat, numbers.Integral) and not isinstance(seat, bool)
            if not (number or (isinstance(seat, str) and is_seat_number(seat.strip()))):
                raise PolicyError(
                    f"{kind} policy {{{seat!r}: {s!r}}}: seat {seat!r} is not a number "
                    f"(seats are 0..{players - 1})"
                )
            n = int(seat)  # type: ignore[arg-type]
            if not 0 <= n < players:
                item = f"{n}={_text(kind, s)}"
                raise PolicyError(f"{kind} policy {item!r}: seat {n} is not 0..{players - 1}")
            specs[n] = _text(kind, s).strip()
        return specs
    if callable(spec):  # a notebook's @njit function: runs name their policies
        raise _not_by_name(kind, spec)
    if not isinstance(spec, Sequence):
        raise PolicyError(f"{kind} policy {spec!r} is not a name, a dict of seats or a list")
    items = [_text(kind, s) for s in spec]
    if len(items) == players and not any(_seat_item(s) for s in items):
        return [s.strip() for s in items]
    if not any(_seat_item(s) for s in items) and len(items) != 1:
        raise PolicyError(f"{len(items)} {kind} policies given for {players} seats")
    return parse_policy_specs(kind, items, players, default)


def _text(kind: str, spec: object) -> str:
    if callable(spec):
        raise _not_by_name(kind, spec)
    if not isinstance(spec, str):
        raise PolicyError(f"{kind} policy {spec!r} is not a name (a string)")
    return spec


def _not_by_name(kind: str, function: object) -> PolicyError:
    name = getattr(function, "__name__", "name")
    return PolicyError(
        f"{kind} policy: give the function by name, 'file.py:{name}' or "
        f"'module:{name}', not the function itself: a run records its policies by "
        "name, so that it can be resumed, merged and played on other machines"
    )


def _seat_item(item: str) -> bool:
    """``SEAT=POLICY`` rather than a policy for every seat (a bad seat is named when
    the item is read)."""
    head, sep, _ = item.partition("=")
    return bool(sep) and not any(ch in head for ch in ":./\\")
