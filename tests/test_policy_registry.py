"""The built-in policy registry is the one table the loader, the CLI and the kernel use."""

import importlib

import numpy as np
import pytest
from click.testing import CliRunner

from cinch_sim.cli.main import main
from cinch_sim.engine.run import PolicySet, run_chunk
from cinch_sim.policies import registry
from cinch_sim.policies.loading import PolicyError, load_policy
from cinch_sim.rules import Rules


@pytest.mark.parametrize("entry", registry.BUILTINS, ids=lambda b: f"{b.kind}-{b.name}")
def test_every_entry_loads_its_function(entry):
    p = load_policy(entry.kind, entry.name)
    module = importlib.import_module(f"cinch_sim.policies.{entry.module}")
    assert p.func is getattr(module, entry.function)
    assert p.builtin is entry
    assert entry.kernel_id > 0


def test_names_are_unique_per_kind_and_unknown_names_list_them():
    for kind in registry.KINDS:
        names = registry.names(kind)
        assert len(names) == len(set(names)) > 0
    with pytest.raises(PolicyError, match="built-ins: random, greedy, heuristic"):
        load_policy("play", "nonesuch")


def test_help_text_lists_the_registry_names():
    out = CliRunner().invoke(main, ["simulate", "--help"], terminal_width=300).output
    for kind in registry.KINDS:
        assert ", ".join(registry.names(kind)) in " ".join(out.split())


def test_kernel_direct_calls_match_pointer_calls_for_every_builtin():
    """Each registry id the kernel branches on calls the same function as its pointer."""
    rules = Rules()
    for entry in registry.BUILTINS:
        specs = dict(bid="heuristic", trump="heuristic", discard="heuristic", play="heuristic")
        if entry.by_name:
            specs[entry.kind] = entry.name
        ps = PolicySet.from_specs(4, **specs)
        if not entry.by_name:  # fixed: its choice is its parameter (bid 9, hearts)
            given = load_policy(entry.kind, entry.name, (9.0,) if entry.kind == "bid" else (2.0,))
            getattr(ps, entry.kind)[:] = [given] * 4
        hands = 6 if entry.slow else 300  # pimc solves deals: ms a card, ~40 calls a hand
        direct, _ = run_chunk(rules, ps, 5, 0, hands, direct=True)
        pointer, _ = run_chunk(rules, ps, 5, 0, hands, direct=False)
        assert np.array_equal(direct, pointer), entry


@pytest.mark.parametrize("doc", ["README.md", "docs/policies.md"])
def test_every_built_in_policy_has_a_row_in_the_policy_tables(doc):
    """The README's and docs/policies.md's tables of built-in policies name every one
    the options take (the README's had lost `fixed`, `pimc_infer` and `pimc_fitted`)."""
    from pathlib import Path

    text = (Path(__file__).parents[1] / doc).read_text()
    rows = {line.split("|")[1].strip().strip("`") for line in text.splitlines()
            if line.startswith("| `")}  # fmt: skip
    assert {entry.name for entry in registry.BUILTINS} <= rows
