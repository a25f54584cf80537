"""The examples in the docstrings of the modules a user reads first still run."""

import doctest

import pytest

from cinch_sim import api, cards, checks, rules
from cinch_sim.policies import loading, registry
from cinch_sim.solver import review


@pytest.mark.parametrize(
    "module", [cards, rules, registry, checks, loading, api, review], ids=lambda m: m.__name__
)
def test_docstring_examples(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 3
    assert result.failed == 0


def test_every_api_function_has_an_example():
    """Each function the API exports shows how it is called, and the example runs above."""
    missing = [
        name
        for name in api.__all__
        if callable(obj := getattr(api, name))
        and not isinstance(obj, type)
        and name != "resolve_rules"  # the rules module's own, doctested there
        and ">>> " not in (obj.__doc__ or "")
    ]
    assert missing == []
