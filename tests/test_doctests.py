"""The examples in the docstrings of the modules a user reads first still run."""

import doctest

import pytest

from cinch_sim import cards, rules
from cinch_sim.policies import registry


@pytest.mark.parametrize("module", [cards, rules, registry], ids=lambda m: m.__name__)
def test_docstring_examples(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 3
    assert result.failed == 0
