"""Policy files loaded by path: each file its own module, whatever its name, so two
files of one name never stand for each other (numba's compiled symbols carry the
module's name), and a file's cache is flushed when cinch_sim's sources change."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from cinch_sim.policies.loading import load_policy, user_module_name

LOWEST = """
from numba import njit
from cinch_sim.signatures import POLICY_SIG
from cinch_sim.bits import lowbit_index

@njit(POLICY_SIG, cache=True)
def play(obs, hand, legal, params, scratch, rng):
    return lowbit_index(legal)
"""

HIGHEST = """
from numba import njit
from cinch_sim.signatures import POLICY_SIG

@njit(POLICY_SIG, cache=True)
def play(obs, hand, legal, params, scratch, rng):
    for c in range(51, -1, -1):
        if legal >> c & 1:
            return c
    return -1
"""


def _bots(tmp_path: Path) -> tuple[Path, Path]:
    a, b = tmp_path / "a" / "bot.py", tmp_path / "b" / "bot.py"
    for path, text in ((a, LOWEST), (b, HIGHEST)):
        path.parent.mkdir()
        path.write_text(text)
    return a, b


def test_two_files_of_one_name_are_two_modules(tmp_path):
    a, b = _bots(tmp_path)
    assert user_module_name(a) != user_module_name(b)
    assert user_module_name(a) == user_module_name(tmp_path / "a" / ".." / "a" / "bot.py")
    fa = load_policy("play", f"{a}:play")
    fb = load_policy("play", f"{b}:play")
    assert fa.func is not fb.func and fa.func.py_func.__module__ != fb.func.py_func.__module__
    assert sys.modules[fa.func.py_func.__module__].__file__ == str(a.resolve())


def test_a_file_changed_in_the_same_process_is_loaded_again(tmp_path):
    """A notebook's ``%%writefile bot.py`` between two runs: the second run plays the new
    text and records its digest (a review found the first text's code and digest kept);
    the unchanged file is the module already loaded."""
    from cinch_sim import api

    bot = tmp_path / "bot.py"
    bot.write_text(LOWEST)
    first = load_policy("play", f"{bot}:play")
    assert load_policy("play", f"{bot}:play").func is first.func  # unchanged: no import
    low = api.simulate(hands=400, seed=1, play=f"{bot}:play", threads=1)
    bot.write_text(HIGHEST)
    second = load_policy("play", f"{bot}:play")
    assert second.source != first.source and second.func is not first.func
    high = api.simulate(hands=400, seed=1, play=f"{bot}:play", threads=1)
    assert low.counts.make_rate != high.counts.make_rate
    digests = [s.settings["policy_digests"]["play"] for s in (low, high)]
    assert digests[0] != digests[1], digests


def _make_rate(cwd: Path, *specs: str) -> str:
    args = [sys.executable, "-m", "cinch_sim", "simulate", "--hands", "4000", "--seed", "1"]
    for seat, spec in enumerate(specs):
        args += ["--play-policy", f"{seat}={spec}"]
    out = subprocess.run(args, cwd=cwd, capture_output=True, text=True, check=True).stdout
    return out.split("made ", 1)[1].split(" of", 1)[0]


@pytest.mark.slow
def test_cached_files_of_one_name_mix_as_themselves(tmp_path):
    # each file cached by a run of its own, then both loaded together: before the
    # fix the mixed table played b's function at every seat, silently
    _bots(tmp_path)
    low = _make_rate(tmp_path, *["a/bot.py:play"] * 4)
    high = _make_rate(tmp_path, *["b/bot.py:play"] * 4)
    mixed = _make_rate(tmp_path, "a/bot.py:play", "b/bot.py:play", "a/bot.py:play", "b/bot.py:play")
    assert low != high and mixed not in (low, high)


def test_a_files_cache_is_flushed_once_for_these_sources(tmp_path, monkeypatch):
    # numba watches only the policy's own file: entries compiled against other
    # cinch_sim sources (a layout change) or under an older module name must go
    from numba.core import config
    from numba.core.caching import UserProvidedCacheLocator

    from cinch_sim.jit.cache import refresh_user_file

    monkeypatch.setattr(config, "CACHE_DIR", str(tmp_path / "cache"))
    a, _ = _bots(tmp_path)
    folder = tmp_path / "cache" / UserProvidedCacheLocator.get_suitable_cache_subpath(str(a))
    folder.mkdir(parents=True)
    old = [folder / "bot.play-5.py311.nbi", folder / "bot.play-5.py311.1.nbc"]
    other = folder / "helpers.f-3.py311.nbi"  # another file of the same folder
    for f in (*old, other):
        f.write_bytes(b"x")
    refresh_user_file(a)
    assert not any(f.exists() for f in old) and other.exists()
    new = folder / "bot.play-5.py311.nbi"
    new.write_bytes(b"y")
    refresh_user_file(a)  # stamped: these sources compiled it, nothing to flush
    assert new.read_bytes() == b"y"


@pytest.mark.parametrize(
    ("defaults", "said"),
    [
        ('{"play": 2.0}', "DEFAULT_PARAMS['play'] must be a tuple of numbers, not float"),
        ('{"play": ("x",)}', "DEFAULT_PARAMS['play'][0] is 'x': every parameter is a finite"),
        ('{"play": (1.0,) * 65}', "DEFAULT_PARAMS['play'] has 65 values (at most 64)"),
        ('{"play": (float("nan"),)}', "DEFAULT_PARAMS['play'][0] is nan"),
        ("[1.0, 2.0]", "DEFAULT_PARAMS must be a dict of function name to a tuple"),
    ],
)
def test_a_malformed_default_params_is_one_line_naming_the_policy(tmp_path, defaults, said):
    from click.testing import CliRunner

    from cinch_sim.cli.main import main
    from cinch_sim.policies.loading import PolicyError

    path = tmp_path / "p.py"
    path.write_text(LOWEST.replace("@njit", f"DEFAULT_PARAMS = {defaults}\n\n@njit"))
    with pytest.raises(PolicyError) as caught:
        load_policy("play", f"{path}:play")
    message = str(caught.value)
    assert message.startswith(f"play policy '{path}:play': ") and said in message
    r = CliRunner().invoke(main, ["simulate", "--hands", "10", "--play-policy", f"{path}:play"])
    assert r.exit_code == 2 and said in r.output and "Traceback" not in r.output
    # a good vector loads as floats
    good = tmp_path / "good.py"
    good.write_text(LOWEST.replace("@njit", 'DEFAULT_PARAMS = {"play": (1, 2.5)}\n\n@njit'))
    assert load_policy("play", f"{good}:play").params == (1.0, 2.5)
