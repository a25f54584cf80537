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
"""

from __future__ import annotations

import numbers
from collections.abc import Iterator
from contextlib import contextmanager


class InputError(ValueError):
    """A value the user gave that cannot be used; ``problem`` is the message without
    the argument's name, which each front end spells its own way."""

    def __init__(self, name: str, problem: str) -> None:
        super().__init__(f"{name}: {problem}")
        self.name = name
        self.problem = problem


def whole(value: object, name: str, at_least: int | None = None) -> int:
    """``value`` as an int (numpy's integers too): never a float, a bool or a string,
    and at least ``at_least`` when given."""
    ok = isinstance(value, numbers.Integral) and not isinstance(value, bool)
    if not ok or (at_least is not None and value < at_least):  # type: ignore[operator]
        raise InputError(name, f"{value!r} is not {_whole_words(at_least)}")
    return int(value)  # type: ignore[call-overload]


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


def from_text(text: str) -> int | float | str:
    """What a number typed on the command line is, so the checks above see the same
    value as from Python: ``"7"`` is 7, ``"1000.0"`` is 1000.0, ``"x"`` stays text."""
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


@contextmanager
def named(name: str, *kinds: type[ValueError]) -> Iterator[None]:
    """Put the argument's name in front of the errors of ``kinds`` raised inside, keeping
    their type: ``rules: robber='x' is not one of maker, dealer, none``."""
    try:
        yield
    except kinds as exc:
        raise type(exc)(f"{name}: {exc}") from None
