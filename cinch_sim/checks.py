"""Checks of the numbers a user gives, shared by the Python API and the command line.

One function per kind of value, so ``simulate(hands=0)`` and ``cinch-sim
simulate --hands 0`` are refused by the same code with the same words: the
API says ``hands: 0 is not a positive whole number``, the command line
``Error: --hands: 0 is not a positive whole number``. Pure Python, no imports
beyond the standard library: the command line checks its options with it
before anything heavy is loaded.

>>> whole(12, "hands", at_least=1)
12
>>> whole(1000.0, "hands", at_least=1)
Traceback (most recent call last):
...
cinch_sim.checks.InputError: hands: 1000.0 is not a positive whole number
>>> from_text("1000.0"), from_text("7"), from_text("x")
(1000.0, 7, 'x')

Counts and seeds have a top as well as a bottom: what the kernel cannot
number is refused, not run until interrupted or silently reduced.

>>> seed(2**64)
Traceback (most recent call last):
...
cinch_sim.checks.InputError: seed: 18446744073709551616 is out of range 0..2^64 - 1
"""

from __future__ import annotations

import math
import numbers
import os
import re
import secrets
from collections.abc import Callable, Iterator
from contextlib import contextmanager

MAX_HANDS = 2**62
"""The most hands one run can play: the kernel numbers hands with signed 64-bit
integers (and the advisor its deals)."""
MAX_GAMES = 2**46
"""The most games one match can play: game g's hands are numbered from g * 2^16 in
signed 64 bits, and a pair's two games share one number."""
MAX_GAME_HANDS = 2**16 - 1
"""The most hands a game may last (``max_hands``): a game numbers its hands in 16 bits."""
SEEDS = 2**64
"""Seeds are 0 .. 2^64 - 1, the kernel's unsigned 64-bit seed, each its own stream."""
LADDER_BOOTSTRAP = 2000
"""The ladder's bootstrap resamples by default (API and CLI): with 200 the ends of
the rating intervals moved by up to 32 Elo between seeds."""


class InputError(ValueError):
    """A value the user gave that cannot be used; ``problem`` is the message without
    the argument's name, which each front end spells its own way."""

    def __init__(self, name: str, problem: str) -> None:
        super().__init__(f"{name}: {problem}")
        self.name = name
        self.problem = problem


def whole(value: object, name: str, at_least: int | None = None, at_most: int | None = None) -> int:
    """``value`` as an int (numpy's integers too): never a float, a bool or a string,
    at least ``at_least`` and at most ``at_most`` when given.

    >>> whole(10**6, "games", at_least=1, at_most=2**16)
    Traceback (most recent call last):
    ...
    cinch_sim.checks.InputError: games: 1000000 is too large: at most 2^16 (65,536)
    """
    if value in (math.inf, -math.inf):  # typed with more digits than int() reads
        raise InputError(name, "a number of so many digits is out of range")
    ok = isinstance(value, numbers.Integral) and not isinstance(value, bool)
    if not ok or (at_least is not None and value < at_least):  # type: ignore[operator]
        raise InputError(name, f"{value!r} is not {_whole_words(at_least)}")
    n = int(value)  # type: ignore[call-overload]
    if at_most is not None and n > at_most:
        raise InputError(name, f"{n} is too large: at most {_power(at_most)}")
    return n


def share(value: object, name: str, interval: str, inside: Callable[[float], bool]) -> float:
    """A number in ``interval`` (``risk``, ``precision``: ``inside`` says whether it
    is), refused in one line naming the argument: a string or None would otherwise
    fail deep inside as a bare TypeError.

    >>> share("high", "risk", "(0, 1]", lambda x: 0 < x <= 1)
    Traceback (most recent call last):
    ...
    cinch_sim.checks.InputError: risk: 'high' is not a number in (0, 1]
    """
    ok = isinstance(value, numbers.Real) and not isinstance(value, bool)
    if not ok or not inside(float(value)):  # type: ignore[arg-type]
        raise InputError(name, f"{value!r} is not a number in {interval}")
    return float(value)  # type: ignore[arg-type]


def path(value: object, name: str) -> object:
    """A file or folder to write or read: a str or an os.PathLike (None passes: the
    argument left out); a number or a list would fail inside pathlib instead.

    >>> path(123, "save")
    Traceback (most recent call last):
    ...
    cinch_sim.checks.InputError: save: 123 is not a path (a str or a pathlib.Path)
    """
    if value is not None and not isinstance(value, (str, os.PathLike)):
        raise InputError(name, f"{value!r} is not a path (a str or a pathlib.Path)")
    return value


def flag(value: object, name: str) -> bool:
    """True or False (numpy's too), never a string: ``force="no"`` would be true."""
    if not isinstance(value, (bool, _np_bool())):
        raise InputError(name, f"{value!r} is not True or False")
    return bool(value)


def callback(value: object, name: str) -> object:
    """A function to call as the work goes (``progress``, ``on_chunk``), or None: a
    number failed only once the first chunk had been played."""
    if value is not None and not callable(value):
        raise InputError(name, f"{value!r} is not a function")
    return value


def _np_bool() -> type:
    """numpy's bool, imported only when a flag is checked (checks stays light)."""
    import numpy as np

    return np.bool_


def count(value: object, name: str, at_least: int = 1) -> int:
    """A number of hands or games (``name`` says which; ``max_hands`` is a count of
    hands too): a whole number from ``at_least`` to what the kernel can number."""
    top = MAX_GAMES if name == "games" else MAX_HANDS
    return whole(value, name, at_least, top)


RANDOM_SEED = "random"  # the seed that asks for one drawn from the operating system


def seed(value: object, name: str = "seed") -> int:
    """A seed, 0 .. 2^64 - 1: every one its own run (none reduced mod 2^64). ``"random"``
    draws one from the operating system: no policy can know it in advance, and it is
    recorded with the results like any other, so the run can be repeated."""
    if isinstance(value, str):
        if value.strip().lower() == RANDOM_SEED:
            return secrets.randbits(64)
        if not isinstance(from_text(value), numbers.Number):
            raise InputError(name, f"{value!r} is neither a whole number nor {RANDOM_SEED!r}")
    n = whole(value, name)
    if not 0 <= n < SEEDS:
        raise InputError(name, f"{n} is out of range 0..2^64 - 1")
    return n


def _power(n: int) -> str:
    """``2^46 (70,368,744,177,664)`` for a power of two, else ``1,000``."""
    if n > 1024 and n & (n - 1) == 0:
        return f"2^{n.bit_length() - 1} ({n:,})"
    return f"{n:,}"


def _whole_words(at_least: int | None) -> str:
    if at_least is None:
        return "a whole number"
    if at_least == 1:
        return "a positive whole number"
    return f"a whole number of at least {at_least:,}"


def seat(value: object, players: int, name: str = "dealer") -> int:
    """A seat of a table of ``players`` (0 to players - 1)."""
    n = whole(value, name)
    if not 0 <= n < players:
        raise InputError(name, f"seat {n} is out of range 0..{players - 1}")
    return n


_INT_TEXT = re.compile(r"[+-]?[0-9]+")
_FLOAT_TEXT = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")


def from_text(text: str) -> int | float | str:
    """What a number typed on the command line is, so the checks above see the same
    value as from Python: ``"7"`` is 7, ``"1000.0"`` is 1000.0, ``"x"`` stays text.
    Only plain ASCII numbers count, as in ``--rule`` values: Python's ``int`` would
    also read ``"1_000"``, ``" 7 "`` and other scripts' digits.

    >>> from_text("12"), from_text("0.5"), from_text("1_000"), from_text("\u0661")
    (12, 0.5, '1_000', '\u0661')
    """
    if _INT_TEXT.fullmatch(text):
        try:
            return int(text)
        except ValueError:  # more digits than int() reads: infinite, to every check
            return float(text)
    if _FLOAT_TEXT.fullmatch(text):
        return float(text)
    return text


@contextmanager
def named(name: str, *kinds: type[ValueError]) -> Iterator[None]:
    """Put the argument's name in front of the errors of ``kinds`` raised inside, keeping
    their type: ``rules: robber='x' is not one of maker, dealer, none``."""
    try:
        yield
    except kinds as exc:
        raise type(exc)(f"{name}: {exc}") from None
