"""Strategies: named bundles of the four policies (bid, trump, discard, play) and their parameters.

A strategy is what ``cinch-sim compare`` and ``cinch-sim ladder`` pit against
each other. It is either a built-in bundle (:data:`BUILTIN`) or a small TOML
file, so users compare their own strategies without writing Python when only
parameters change::

    name = "bold"                     # optional (default: the file's stem)
    description = "heuristic, bidding more freely"
    base = "heuristic"                # optional: start from a built-in bundle

    [bid]
    policy = "heuristic"              # built-in name, module:function or file.py:function
                                      # (a relative file path: from this file's folder)
    params = { margin = 0.2, cap = 10 }   # by name (built-ins), or a full list

    [play]
    policy = "greedy"

Kinds left out keep the base bundle's policy (or ``heuristic`` without a
base). ``params`` given by name change only those slots of the policy's
defaults; a list replaces the whole vector. Parameter names of the built-ins
are the slot constants of their modules, lower-cased without the prefix
(``B_MARGIN`` -> ``margin``); a user module may name its slots in
``PARAM_NAMES = {"function": ("name0", "name1", ...)}``. Every mistake is a
one-line :class:`StrategyError` naming the file and the field.
"""

from __future__ import annotations

import importlib
import math
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from cinch_sim.policies.loading import KINDS, Policy, PolicyError, is_file_spec, load_policy
from cinch_sim.policies.registry import find
from cinch_sim.signatures import N_PARAMS


class StrategyError(ValueError):
    """A strategy that cannot be found or loaded (one line, names the field)."""


@dataclass(frozen=True)
class Strategy:
    """Four policy specs and, per kind, a parameter vector (None: the policy's defaults)."""

    name: str
    bid: str = "heuristic"
    trump: str = "heuristic"
    discard: str = "heuristic"
    play: str = "heuristic"
    params: dict[str, tuple[float, ...]] = field(default_factory=dict)
    description: str = ""

    def __post_init__(self) -> None:
        # however it was built (a file, with_params, by hand): every parameter finite
        for kind, vec in self.params.items():
            for i, v in enumerate(vec):
                if not _is_finite(v):
                    names = param_names(kind, self.spec(kind))
                    label = repr(names[i]) if i < len(names) else f"params[{i}]"
                    _finite(v, f"{self.name}: {kind} parameter {label}")

    def spec(self, kind: str) -> str:
        return getattr(self, kind)

    def policy(self, kind: str) -> Policy:
        """The loaded policy of one plug point, with this strategy's parameters."""
        return load_policy(kind, self.spec(kind), self.params.get(kind))

    def policies(self) -> dict[str, Policy]:
        return {k: self.policy(k) for k in KINDS}

    def with_params(self, kind: str, **named: float) -> Strategy:
        """A copy with some named parameters of one kind changed (e.g. ``bid``, ``cap=6``)."""
        if kind not in KINDS:
            raise PolicyError(f"unknown plug point {kind!r} (one of {', '.join(KINDS)})")
        vec = _apply_named(
            kind,
            self.spec(kind),
            _defaults(kind, self.spec(kind), self.params.get(kind)),
            named,
            where=self.name,
        )
        params = dict(self.params)
        params[kind] = vec
        return replace(self, params=params)

    def renamed(self, name: str) -> Strategy:
        return replace(self, name=name)

    def describe(self) -> dict[str, Any]:
        """Specs and full parameter vectors, for run.json and reports."""
        out: dict[str, Any] = {"name": self.name}
        if self.description:
            out["description"] = self.description
        for k in KINDS:
            p = self.policy(k)
            out[k] = {"policy": p.spec, "params": list(p.params)}
            digest = p.digest()
            if digest is not None:  # a user policy: what its file held (Policy.digest)
                out[k]["digest"] = digest
        return out


BUILTIN: dict[str, Strategy] = {
    "random": Strategy(
        "random",
        "random",
        "random",
        "random",
        "random",
        description="every decision uniform over the legal options",
    ),
    "simple": Strategy(
        "simple",
        "simple",
        "simple",
        "simple",
        "random",
        description="a bid from a count of its best suit, that suit as trump, its trumps kept "
        "(and nothing else before a draw); random play",
    ),
    "greedy": Strategy(
        "greedy",
        "simple",
        "simple",
        "simple",
        "greedy",
        description="a bid from a count of its best suit, that suit as trump, its trumps kept "
        "(and nothing else before a draw); greedy play",
    ),
    "heuristic": Strategy("heuristic", description="the heuristic policies, score-aware bidding"),
    "heuristic_v1": Strategy(
        "heuristic_v1",
        "heuristic_v1",
        "heuristic_v1",
        "heuristic_v1",
        "heuristic_v1",
        description="the heuristic before the play fixes and the bolder bid margin",
    ),
    "heuristic_v2": Strategy(
        "heuristic_v2",
        "heuristic_v2",
        "heuristic_v2",
        "heuristic_v2",
        "heuristic_v2",
        description="the heuristic before the three play fixes of its double-dummy review",
    ),
    "pimc": Strategy(
        "pimc",
        play="pimc",
        description="the heuristic's bidding, trump and discards; PIMC play (slow)",
    ),
    "pimc_infer": Strategy(
        "pimc_infer",
        bid="pimc_fitted",
        trump="pimc_fitted",
        play="pimc_infer",
        description="the strongest: pimc_fitted's bidding, and PIMC play whose deals are "
        "weighted by what the calls and the trump named say of the hands (slow)",
    ),
    "pimc_fitted": Strategy(
        "pimc_fitted",
        bid="pimc_fitted",
        trump="pimc_fitted",
        play="pimc",
        description="pimc bidding and naming trump with a hand model fitted to PIMC play (slow)",
    ),
    "dd": Strategy(
        "dd",
        play="dd",
        description="the heuristic's bidding, trump and discards; double-dummy play, the "
        "bound of perfect play (it sees every card: not a player, refused in matches)",
    ),
}


def param_names(kind: str, spec: str) -> tuple[str, ...]:
    """Names of a policy's parameter slots (empty when it names none)."""
    spec = spec.strip()
    builtin = find(kind, spec)
    if builtin is not None:
        fn_name, prefix = builtin.function, builtin.param_prefix
        module = importlib.import_module(f"cinch_sim.policies.{builtin.module}")
    elif ":" in spec:
        where, fn_name = spec.rsplit(":", 1)
        try:
            module = load_policy_module(kind, spec)
        except PolicyError:
            return ()
        named = getattr(module, "PARAM_NAMES", {}).get(fn_name)
        return tuple(named) if named else ()
    else:
        return ()
    n = len(getattr(module, "DEFAULT_PARAMS", {}).get(fn_name, ()))
    if not prefix or n == 0:
        return ()
    slots = {
        v: k[len(prefix) :].lower()
        for k, v in vars(module).items()
        if k.startswith(prefix) and isinstance(v, int)
    }
    return tuple(slots.get(i, str(i)) for i in range(n))


def load_policy_module(kind: str, spec: str):
    """The module a user policy spec lives in (loaded as ``load_policy`` loads it)."""
    load_policy(kind, spec)
    from cinch_sim.policies.loading import _import_user_module

    where = spec.rsplit(":", 1)[0]
    return _import_user_module(where, spec)


def _defaults(kind: str, spec: str, given: tuple[float, ...] | None) -> tuple[float, ...]:
    if given is not None:
        return tuple(given)
    return tuple(load_policy(kind, spec).params)


def _apply_named(
    kind: str, spec: str, base: tuple[float, ...], named: dict[str, Any], where: str
) -> tuple[float, ...]:
    names = param_names(kind, spec)
    vec = list(base)
    for key, value in named.items():
        if key not in names:
            known = ", ".join(names) if names else "none by name; give a list"
            raise StrategyError(
                f"{where}: {kind} policy {spec!r} has no parameter {key!r} (known: {known})"
            )
        i = names.index(key)
        vec += [0.0] * (i + 1 - len(vec))
        vec[i] = _finite(value, f"{where}: {kind} parameter {key!r}")
    return tuple(vec)


def _is_finite(value: Any) -> bool:
    try:
        return math.isfinite(value)
    except (TypeError, OverflowError):
        return False


def _finite(value: Any, what: str) -> float:
    """A parameter as the float the policies read: a finite number only. NaN, an
    infinity (TOML's ``inf``, or ``1e309``) or an integer past the float range would
    reach the policy and surface as an illegal choice blamed on the policy."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise StrategyError(f"{what} must be a number, got {value!r}")
    try:
        x = float(value)
    except OverflowError:
        x = math.inf
    if not math.isfinite(x):
        digits = len(str(value))
        shown = value if isinstance(value, float) else f"a whole number of {digits} digits"
        raise StrategyError(f"{what} is {shown}: parameters must be finite numbers")
    return x


def load_strategy_file(path: str | Path) -> Strategy:
    """A strategy from a TOML file (see the module docstring for the format)."""
    path = Path(path)
    where = str(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise StrategyError(f"no such strategy file {where}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise StrategyError(f"cannot read strategy file {where}: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise StrategyError(f"{where}: not valid TOML: {exc}") from None
    return strategy_from_dict(data, where=where, default_name=path.stem, folder=path.parent)


_TOP_KEYS = {"name", "description", "base", *KINDS}
_KIND_KEYS = {"policy", "params"}


def beside(spec: str, folder: Path | None) -> str:
    """A policy spec of a strategy file, its relative file path read from ``folder`` (the
    strategy file's): its writer names the file beside it, wherever the command runs.
    Built-in names, ``module:function`` and absolute paths stay as they are.

    >>> beside("bots/mine.py:play", Path("/srv/me")), beside("greedy", Path("/srv/me"))
    ('/srv/me/bots/mine.py:play', 'greedy')
    >>> beside("mine.py:play", Path("."))
    'mine.py:play'
    """
    where, sep, fn = spec.strip().rpartition(":")
    if folder is None or not sep or not is_file_spec(where) or Path(where).is_absolute():
        return spec
    return f"{folder / where}:{fn}"


def strategy_from_dict(
    data: dict[str, Any],
    where: str = "strategy",
    default_name: str = "custom",
    folder: Path | None = None,
) -> Strategy:
    """A strategy from a parsed TOML table (the same checks as a file); ``folder`` is
    where its relative policy file paths are read from (None: the current folder)."""
    for key in data:
        if key not in _TOP_KEYS:
            raise StrategyError(
                f"{where}: unknown field {key!r} (known: {', '.join(sorted(_TOP_KEYS))})"
            )
    name = data.get("name", default_name)
    if not isinstance(name, str) or not name.strip():
        raise StrategyError(f"{where}: name must be a non-empty string")
    desc = data.get("description", "")
    if not isinstance(desc, str):
        raise StrategyError(f"{where}: description must be a string")
    base_name = data.get("base", "heuristic")
    if base_name not in BUILTIN:
        raise StrategyError(
            f"{where}: unknown base {base_name!r} (built-in strategies: {', '.join(BUILTIN)})"
        )
    base = BUILTIN[base_name]
    specs = {k: base.spec(k) for k in KINDS}
    params: dict[str, tuple[float, ...]] = dict(base.params)
    for kind in KINDS:
        if kind not in data:
            continue
        sect = data[kind]
        if isinstance(sect, str):  # bid = "simple"
            sect = {"policy": sect}
        if not isinstance(sect, dict):
            raise StrategyError(f"{where}: [{kind}] must be a table or a policy name")
        for key in sect:
            if key not in _KIND_KEYS:
                raise StrategyError(f"{where}: unknown field {kind}.{key} (known: policy, params)")
        spec = sect.get("policy", specs[kind])
        if not isinstance(spec, str):
            raise StrategyError(f"{where}: {kind}.policy must be a string")
        spec = beside(spec, folder)
        if spec != specs[kind]:
            params.pop(kind, None)
        specs[kind] = spec
        try:
            default = load_policy(kind, spec).params
        except PolicyError as exc:
            raise StrategyError(f"{where}: {exc}") from None
        raw = sect.get("params")
        if raw is None:
            continue
        if isinstance(raw, list):
            if any(isinstance(v, bool) or not isinstance(v, (int, float)) for v in raw):
                raise StrategyError(f"{where}: {kind}.params must hold numbers only")
            if len(raw) > N_PARAMS:
                raise StrategyError(
                    f"{where}: {kind}.params has {len(raw)} values (at most {N_PARAMS})"
                )
            params[kind] = tuple(
                _finite(v, f"{where}: {kind}.params[{i}]") for i, v in enumerate(raw)
            )
            if default and len(raw) != len(default):  # a short list sets the rest to 0
                raise StrategyError(
                    f"{where}: {kind}.params lists {len(raw)} values where {spec!r} takes "
                    f"{len(default)}: a list gives every one (a table of names, some)"
                )
        elif isinstance(raw, dict):
            base_vec = params.get(kind, tuple(default))
            params[kind] = _apply_named(kind, spec, base_vec, raw, where)
        else:
            raise StrategyError(f"{where}: {kind}.params must be a table of names or a list")
    return Strategy(name.strip(), **specs, params=params, description=desc)


def resolve_strategy(spec: str | Strategy) -> Strategy:
    """A built-in name, a path to a ``.toml`` file, or a Strategy (returned as is)."""
    if isinstance(spec, Strategy):
        return spec
    s = spec.strip()
    if s in BUILTIN:
        return BUILTIN[s]
    if s.endswith(".toml") or Path(s).is_file():
        return load_strategy_file(s)
    if ":" in s:  # a policy's spec: the four decisions need a strategy around it
        raise StrategyError(
            f"{spec!r} is a policy, not a strategy: a strategy gives all four decisions. "
            f'Name it in a .toml file: base = "heuristic", and policy = "{s}" under its '
            "decision's [bid], [trump], [discard] or [play] (docs/policies.md, Strategies)"
        )
    raise StrategyError(
        f"unknown strategy {spec!r} (built-ins: {', '.join(BUILTIN)}; or a .toml file)"
    )


def a_player(strategy: Strategy) -> Strategy:
    """``strategy``, refused when it plays ``dd``: the double-dummy bound sees every
    card, so it measures what the cards are worth under perfect play; it is not a
    player, and a match against it would say nothing about strategies."""
    if strategy.play.strip() == "dd":
        raise StrategyError(
            f"strategy {strategy.name!r} plays dd, the double-dummy bound that sees every "
            "card: it is not a player, so compare and ladder refuse it (simulate, stats, "
            "card values and advise take it)"
        )
    return strategy


def resolve_player(value: str | Strategy) -> Strategy:
    """A strategy that may play a match (``resolve_strategy``'s, ``a_player``'s check):
    every match, whether the API, the command line or a script starts it, refuses dd
    here (a script's ladder played it against the players)."""
    return a_player(resolve_strategy(value))


def distinct_names(strategies: list[Strategy]) -> list[Strategy]:
    """Rename repeats (``random``, ``random#2``) so tables keep them apart."""
    seen: dict[str, int] = {}
    out = []
    for s in strategies:
        n = seen.get(s.name, 0) + 1
        seen[s.name] = n
        out.append(s if n == 1 else s.renamed(f"{s.name}#{n}"))
    return out
