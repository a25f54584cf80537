"""What a policy's author is told: a run records what its user policies were (so merge
and --resume refuse another file's), a float or bool return is refused with a
signature too, a parameter table's typo is refused, numba's reason for a compile
failure is kept on one line, an illegal choice says what was legal, and a strategy
file finds its policy file beside it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from cinch_sim import api
from cinch_sim import layout as L
from cinch_sim.checks import InputError
from cinch_sim.cli.main import main
from cinch_sim.engine.run import prepare_run
from cinch_sim.policies.loading import PolicyError, load_policy, numba_reason
from cinch_sim.policies.strategies import Strategy, resolve_strategy

HEAD = """
import numpy as np
from numba import njit
from cinch_sim.bits import lowbit_index
from cinch_sim.signatures import POLICY_SIG
"""

# bids the lowest legal bid when its parameter is above 2, else passes
BIDDER = (
    HEAD
    + """
DEFAULT_PARAMS = {"count_bid": (MARGIN,)}

@njit(POLICY_SIG)
def count_bid(obs, hand, legal, params, scratch, rng):
    bids = legal & ~np.uint64(1)
    if bids != np.uint64(0) and params[0] > 2:
        return lowbit_index(bids)
    return 0 if legal & np.uint64(1) else lowbit_index(legal)
"""
)


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


# ------------------------------------------------------- 1. what a run records
def _two_bots(tmp_path: Path) -> tuple[Path, Path]:
    """bot.py in a/ and b/: the same spec from each folder, another DEFAULT_PARAMS."""
    a = _write(tmp_path / "a" / "bot.py", BIDDER.replace("MARGIN", "1.0")).parent
    b = _write(tmp_path / "b" / "bot.py", BIDDER.replace("MARGIN", "4.0")).parent
    return a, b


def test_merge_and_resume_refuse_runs_of_another_policy_file(tmp_path, monkeypatch):
    a, b = _two_bots(tmp_path)
    spec = "bot.py:count_bid"
    monkeypatch.chdir(a)
    api.simulate(hands=300, seed=1, bid=spec, save=tmp_path / "r1")
    api.simulate(hands=300, seed=3, bid=spec, save=tmp_path / "r3")
    monkeypatch.chdir(b)
    api.simulate(hands=300, seed=2, bid=spec, save=tmp_path / "r2")
    assert api.merge([tmp_path / "r1", tmp_path / "r3"]).hands == 600  # the same file
    # the file's name, its function and what changed (its text or parameters' digest)
    changed = r'settings\.policies\.bid\[0\] was "bot\.py:count_bid, file and parameters '
    with pytest.raises(InputError, match=changed):
        api.merge([tmp_path / "r1", tmp_path / "r2"])
    with pytest.raises(InputError, match="holds another run: " + changed):
        api.simulate(hands=300, seed=1, bid=spec, resume=tmp_path / "r1")


def test_one_unchanged_policy_file_spelled_three_ways_is_one_policy(tmp_path, monkeypatch):
    """A review merged runs of one unchanged file named bot.py, ./bot.py and its absolute
    path (docs/long-runs.md gives a Dask cluster absolute paths): refused, "was
    \"bot.py:count_bid\", not \"./bot.py:count_bid\"". The file's text and parameters
    are what make a policy; a resume may name it another way too."""
    a, _ = _two_bots(tmp_path)
    monkeypatch.chdir(a)
    spellings = ["bot.py:count_bid", "./bot.py:count_bid", f"{a / 'bot.py'}:count_bid"]
    for seed, spec in enumerate(spellings, 1):
        api.simulate(hands=300, seed=seed, bid=spec, save=tmp_path / f"s{seed}")
    assert api.merge([tmp_path / f"s{k}" for k in (1, 2, 3)]).hands == 900
    assert api.simulate(hands=300, seed=1, bid=spellings[2], resume=tmp_path / "s1").hands == 300
    # a strategy's policy (compare, ladder) the same way
    games = [
        api.compare(
            Strategy("mine", bid=spec), "heuristic", games=20, seed=seed, save=tmp_path / f"c{seed}"
        )  # fmt: skip
        for seed, spec in enumerate(spellings[:2], 1)
    ]
    assert api.merge([tmp_path / "c1", tmp_path / "c2"]).games == sum(g.games for g in games)


def test_built_in_runs_record_no_digest_and_strategies_record_a_users(tmp_path):
    settings = prepare_run(10, 1, None, 3, "heuristic", "simple", "random", "greedy")[2]
    assert list(settings) == ["version", "hands", "seed", "dealer", "rules", "policies"]
    path = _write(tmp_path / "bot.py", BIDDER.replace("MARGIN", "1.0"))
    user = prepare_run(10, 1, None, 3, f"{path}:count_bid", *["heuristic"] * 3)[2]
    assert set(user["policy_digests"]) == {"bid"}
    strategy = Strategy("mine", bid=f"{path}:count_bid")
    described = strategy.describe()
    assert "digest" in described["bid"] and "digest" not in described["play"]
    # the digest is the text's and the parameters', not the path's
    twin = _write(tmp_path / "twin" / "bot.py", path.read_text())
    same, other = (load_policy("bid", f"{f}:count_bid") for f in (path, twin))
    assert same.digest() == other.digest()
    moved = load_policy("bid", f"{path}:count_bid", (5.0,))
    assert moved.digest() != same.digest()


# ------------------------------------------- 2. float and bool returns, signed
SIGNED = (
    HEAD
    + """
@njit(POLICY_SIG)
def floaty(obs, hand, legal, params, scratch, rng):
    return lowbit_index(legal) + 0.7

@njit(POLICY_SIG)
def booly(obs, hand, legal, params, scratch, rng):
    return legal != 0

@njit(POLICY_SIG)
def keep_mask(obs, hand, legal, params, scratch, rng):
    return hand & ~legal
"""
)


def test_a_signed_policy_returning_a_float_or_a_bool_is_refused(tmp_path):
    path = _write(tmp_path / "signed.py", SIGNED)
    with pytest.raises(PolicyError, match=r"'.*signed.py:floaty' returns float64, not int64$"):
        load_policy("play", f"{path}:floaty")
    with pytest.raises(PolicyError, match=r"returns bool, not int64$"):
        load_policy("play", f"{path}:booly")
    assert load_policy("discard", f"{path}:keep_mask").spec.endswith("keep_mask")  # uint64
    # without a signature numba keeps the uint64: refused, with the way to return it
    plain = _write(tmp_path / "plain.py", HEAD + """
@njit
def keep_mask(obs, hand, legal, params, scratch, rng):
    return hand & ~legal
""")  # fmt: skip
    with pytest.raises(PolicyError, match=r"returns uint64, not int64: return np.int64\(\.\.\.\)"):
        load_policy("discard", f"{plain}:keep_mask")


def test_an_unsigned_policy_returning_a_constant_loads_and_plays(tmp_path):
    """``return 0`` with no signature is typed Literal[int](0): an int64 all the same.
    It was refused as "returns int64, not int64"; now the always-passing bidder plays,
    and a play policy returning 60 meets the kernel's own refusal of an illegal card."""
    import json

    from cinch_sim import api

    path = _write(tmp_path / "const.py", HEAD + """
@njit
def always_pass(obs, hand, legal, params, scratch, rng):
    return 0

@njit
def sixty(obs, hand, legal, params, scratch, rng):
    return 60
""")  # fmt: skip
    records = tmp_path / "hands.jsonl"
    api.simulate(hands=200, bid={1: f"{path}:always_pass"}, records=str(records), threads=1)
    calls = [b for line in records.read_text().splitlines()
             for s, b in json.loads(line)["bids"] if s == 1]  # fmt: skip
    assert len(calls) == 200 and all(b is None for b in calls)
    with pytest.raises(PolicyError, match="illegal"):
        api.simulate(hands=10, play=f"{path}:sixty", threads=1)


# ------------------------------------------------------ 3. parameter tables
PLAIN = (
    HEAD
    + "\n@njit\ndef p(obs, hand, legal, params, scratch, rng):\n    return lowbit_index(legal)\n"
)


@pytest.mark.parametrize(
    ("tables", "said"),
    [
        ('DEFAULT_PARAMS = {"q": (1.0,)}', "DEFAULT_PARAMS has an entry 'q', which names no"),
        (
            'PARAM_NAMES = {"p": ("a",), "pp": ("b",)}\nDEFAULT_PARAMS = {"p": (1.0,)}',
            "PARAM_NAMES has an entry 'pp', which names no function in",
        ),
        (
            'PARAM_NAMES = {"p": ("a", "b")}\nDEFAULT_PARAMS = {"p": (1.0,)}',
            "PARAM_NAMES['p'] names 2 parameters but DEFAULT_PARAMS['p'] gives 1",
        ),
        ('PARAM_NAMES = {"p": "ab"}\nDEFAULT_PARAMS = {"p": (1.0,)}', "must be a tuple of names"),
        (
            'PARAM_NAMES = {"p": ("a", "a")}\nDEFAULT_PARAMS = {"p": (1.0, 2.0)}',
            "PARAM_NAMES['p'] names 'a' twice",
        ),
    ],
)
def test_a_parameter_table_naming_no_function_or_miscounted_is_refused(tmp_path, tables, said):
    path = _write(tmp_path / "tables.py", PLAIN + tables + "\n")
    with pytest.raises(PolicyError) as caught:
        load_policy("play", f"{path}:p")
    assert said in str(caught.value) and "\n" not in str(caught.value)


def test_a_table_imported_from_a_built_in_is_not_the_modules_own(tmp_path):
    text = PLAIN + "from cinch_sim.policies.heuristic import DEFAULT_PARAMS\n"
    path = _write(tmp_path / "borrows.py", text)
    assert load_policy("play", f"{path}:p").params == ()


# ------------------------------------------------- 4. numba's reason, one line
GLOBALS = (
    HEAD
    + """
RANKS = {"A": 12}
NAMES = ["C", "S"]

@njit
def uses_dict(obs, hand, legal, params, scratch, rng):
    return lowbit_index(legal) + RANKS["A"] - 12

@njit
def uses_list(obs, hand, legal, params, scratch, rng):
    return lowbit_index(legal) + len(NAMES[0]) - 1
"""
)


def test_a_compile_failure_keeps_numbas_reason_on_one_line(tmp_path):
    path = _write(tmp_path / "globals_bot.py", GLOBALS)
    r = CliRunner().invoke(main, ["simulate", "--hands", "10", "--play", f"{path}:uses_dict"])
    errors = [ln for ln in r.output.splitlines() if ln.startswith("Error:")]
    assert r.exit_code == 2 and "Traceback" not in r.output and len(errors) == 1
    assert "Untyped global name 'RANKS'" in errors[0]
    assert errors[0].endswith("(globals_bot.py, line 12)"), errors[0]
    assert r.output.rstrip().endswith(errors[0])  # nothing of numba's dump after it
    with pytest.raises(PolicyError, match=r"reflected list.*NAMES.*line 16\)$"):
        load_policy("play", f"{path}:uses_list")


def test_a_signed_policy_failing_at_import_keeps_numbas_reason(tmp_path):
    text = GLOBALS.replace("@njit\ndef uses_dict", "@njit(POLICY_SIG)\ndef uses_dict")
    path = _write(tmp_path / "signed_globals.py", text)
    with pytest.raises(PolicyError) as caught:
        load_policy("play", f"{path}:uses_list")
    message = str(caught.value)
    assert "failed to load: Untyped global name 'RANKS'" in message and "\n" not in message
    assert "nopython" not in message and message.endswith("(signed_globals.py, line 12)")


# a play policy that notes something in obs: every seat would read it (a partner too)
WRITES_OBS = (
    HEAD
    + """
from cinch_sim import layout as L

@njit
def scribble(obs, hand, legal, params, scratch, rng):
    obs[L.O_TRUMP] = 0
    return lowbit_index(legal)

@njit
def _wipe(obs):
    obs.fill(0)

@njit(POLICY_SIG)
def wipes(obs, hand, legal, params, scratch, rng):
    _wipe(obs)
    return lowbit_index(legal)
"""
)


def test_a_policy_that_writes_to_obs_does_not_load(tmp_path):
    """``obs`` is read-only by its type: in a review, writes at one seat (O_TRUMP and
    O_TRUMP_MASK) changed the built-in seats' play (made 53.2% against 63.8%) without a
    word."""
    from cinch_sim.policies.loading import READ_ONLY
    from cinch_sim.signatures import POLICY_SIG

    assert not POLICY_SIG.args[0].mutable
    path = _write(tmp_path / "scribbler.py", WRITES_OBS.replace("@njit(POLICY_SIG)\n", "@njit\n"))
    r = CliRunner().invoke(main, ["simulate", "--hands", "10", "--play", f"0={path}:scribble"])
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert r.output.rstrip().endswith(f"{READ_ONLY} (scribbler.py, line 11)"), r.output
    with pytest.raises(PolicyError, match=r"read-only array: obs .*line 16\)$"):
        load_policy("play", f"{path}:wipes")  # in a function it calls
    signed = _write(tmp_path / "signed_scribbler.py", WRITES_OBS)
    with pytest.raises(PolicyError, match=r"failed to load: it writes to a read-only array"):
        load_policy("play", f"{signed}:wipes")


def test_numba_reason_takes_the_signature_it_found_no_implementation_for():
    dump = (
        "Failed in nopython mode pipeline (step: nopython frontend)\n"
        "\x1b[1mNo implementation of function Function(<built-in function add>) found for "
        "signature:\n \n >>> add(int64, unicode_type)\n \nThere are 20 candidate "
        'implementations:\n - Of which 18 did not match\n\nFile "bot.py", line 4:\n'
    )
    assert numba_reason(ValueError(dump), "/x/bot.py") == (
        "No implementation of function Function(<built-in function add>) found for "
        "signature: add(int64, unicode_type) (bot.py, line 4)"
    )


# ---------------------------------------------- 5. what was legal, in the error
ILLEGAL = (
    HEAD
    + """
@njit(POLICY_SIG)
def keep_trumps(obs, hand, legal, params, scratch, rng):
    return hand & ~legal

@njit(POLICY_SIG)
def keep_all(obs, hand, legal, params, scratch, rng):
    return hand

@njit(POLICY_SIG)
def bid20(obs, hand, legal, params, scratch, rng):
    return 20

@njit(POLICY_SIG)
def card_number(obs, hand, legal, params, scratch, rng):
    return lowbit_index(hand)

@njit(POLICY_SIG)
def keep_foreign(obs, hand, legal, params, scratch, rng):
    return (hand & ~legal) | (~hand & np.uint64(1))
"""
)


def test_an_illegal_keep_says_whether_it_was_the_robbers_take_and_how_many(tmp_path):
    path = _write(tmp_path / "illegal.py", ILLEGAL)
    with pytest.raises(PolicyError) as caught:
        api.simulate(hands=200, seed=1, discard=f"{path}:keep_trumps")
    message = str(caught.value)
    assert "when robbing the pack (mask 0x0: no card)" in message
    assert "the robber keeps exactly 6 cards" in message
    # a seat that does not rob: the discard before the draw, its nine cards named
    with pytest.raises(PolicyError) as caught:
        api.simulate(hands=200, seed=1, discard=f"{path}:keep_all")
    message = str(caught.value)
    assert re.search(
        r"to keep in the discard before the draw \(mask 0x[0-9a-f]+: (\w\w ){8}\w\w\)", message
    )
    assert message.endswith("keep every trump (exactly 6 when holding more) and at most 6 cards")
    # a card's number for a mask, and a card not held: each named
    with pytest.raises(PolicyError, match="looks like the number of .*: a discard returns the "):
        api.simulate(hands=200, seed=1, discard=f"{path}:card_number")
    with pytest.raises(PolicyError, match="; it keeps 2C, not in the hand it was asked about"):
        api.simulate(hands=200, seed=1, discard=f"{path}:keep_foreign")


def test_an_illegal_bid_states_the_legal_range(tmp_path):
    path = _write(tmp_path / "illegal.py", ILLEGAL)
    with pytest.raises(PolicyError, match=r"illegal bid 20 \(legal here: pass \(0\) or 1\.\.14\)"):
        api.simulate(hands=200, seed=1, bid=f"{path}:bid20")
    with pytest.raises(PolicyError, match=r"illegal bid 20 \(legal here: pass \(0\) or 6\.\.14\)"):
        api.simulate(hands=200, seed=1, variant="pidro", bid=f"{path}:bid20")


# ------------------------------------------ 6. a strategy file's policy path
def test_a_strategy_files_policy_path_is_read_from_its_folder(tmp_path, monkeypatch):
    _write(tmp_path / "strats" / "bot.py", BIDDER.replace("MARGIN", "1.0"))
    _write(tmp_path / "strats" / "bold.toml", '[bid]\npolicy = "bot.py:count_bid"\n')
    monkeypatch.chdir(tmp_path)
    strategy = resolve_strategy("strats/bold.toml")
    assert strategy.bid == str(Path("strats") / "bot.py") + ":count_bid"
    assert strategy.policy("bid").params == (1.0,)
    monkeypatch.chdir(tmp_path / "strats")  # from its own folder: the spec as written
    assert resolve_strategy("bold.toml").bid == "bot.py:count_bid"
    assert resolve_strategy(str(tmp_path / "strats" / "bold.toml")).bid.startswith(str(tmp_path))


# --------------------------------------------------------------- 7. the docs
def test_the_docs_give_every_follow_rule_its_value():
    docs = (Path(__file__).resolve().parents[1] / "docs" / "policies.md").read_text()
    row = next(ln for ln in docs.splitlines() if ln.startswith("| `O_FOLLOW_RULE`"))
    shown = dict(re.findall(r"`(FOLLOW_\w+)` \((\d)\)", row))
    assert shown == {
        name: str(getattr(L, name))
        for name in ("FOLLOW_MAY_TRUMP", "FOLLOW_STRICT", "FOLLOW_TRUMPS_ONLY")
    }
    # the bounds check's message as the run gives it (test_policy_bounds.py runs it)
    from cinch_sim.signatures import N_PARAMS, N_SCRATCH

    shown = " ".join(docs.split())  # the docs wrap the quoted message
    assert (
        "index is out of bounds: past the end of an array it was given, "
        f"obs {L.OBS_LEN} slots, params {N_PARAMS}, scratch {N_SCRATCH}, rng 1"
    ) in shown


def test_a_function_object_is_refused_with_the_way_to_name_it():
    """A notebook passes its @njit function itself: the message says how to name it."""
    from cinch_sim import api
    from cinch_sim.policies.random import random_choice

    hint = "give the function by name, 'file.py:random_choice' or 'module:random_choice'"
    for given in (random_choice, {0: random_choice}, [random_choice] * 4):
        with pytest.raises(PolicyError) as info:
            api.simulate(hands=10, play=given)
        assert hint in str(info.value), given


def test_a_policy_that_raises_is_named_once_with_its_seats(tmp_path):
    """A play policy dividing by zero at every seat: the message names it once, with
    the seats it plays at, not once a seat."""
    bot = _write(
        tmp_path / "crash.py",
        HEAD
        + """
@njit(POLICY_SIG)
def crash(obs, hand, legal, params, scratch, rng):
    return lowbit_index(legal) // (obs[0] - obs[0])
""",
    )
    with pytest.raises(PolicyError) as info:
        api.simulate(hands=20, play=f"{bot}:crash", threads=1)
    said = str(info.value)
    assert said.startswith("a policy raised ZeroDivisionError")
    assert said.endswith(f"(user policies in play: play policy '{bot}:crash' at seats 0, 1, 2, 3)")


def test_a_bool_beside_an_int_is_refused_on_every_load(tmp_path):
    """Without a signature numba unifies ``True`` and an int return to int64: the
    policy is refused the first time it is loaded as on the second (it was accepted
    first and refused after, whichever load compiled it)."""
    bot = _write(
        tmp_path / "mixed.py",
        HEAD
        + """
@njit
def mixed(obs, hand, legal, params, scratch, rng):
    if legal == np.uint64(0):
        return True
    return lowbit_index(legal)
""",
    )
    for _ in range(2):
        with pytest.raises(PolicyError, match="returns bool, not int64"):
            load_policy("play", f"{bot}:mixed")


MASK_PLAYER = (
    HEAD
    + """
@njit
def plays_a_mask(obs, hand, legal, params, scratch, rng):
    return np.int64(legal & (~legal + np.uint64(1)))  # the lowest legal card's bit
"""
)


def test_a_card_returned_as_its_mask_is_named_as_one(tmp_path):
    path = _write(tmp_path / "masker.py", MASK_PLAYER)
    with pytest.raises(PolicyError) as info:
        api.simulate(hands=10, play=f"0={path}:plays_a_mask")
    message = str(info.value)
    value = int(re.search(r"returned (\d+), the mask of (\w\w), not a card", message)[1])
    card = re.search(r"the mask of (\w\w)", message)[1]
    from cinch_sim.cards import format_card

    assert value & (value - 1) == 0 and format_card(value.bit_length() - 1) == card
    said = "a play policy returns the card's number, 0..51 (lowbit_index(mask); legal here: "
    legal = message.split(said, 1)[1].rstrip(")").split()
    assert legal[0] == card  # the policy returned its lowest legal card's bit


def test_a_seat_given_twice_or_every_seat_after_one_is_refused():
    """A repeat silently undid what came before it (the review's ``0=mine 0=greedy``
    played greedy at seat 0, and said so only in the settings line)."""
    for items, says in [
        (["0=random", "0=greedy"], "play policy '0=greedy': seat 0 is given twice"),
        (["0=random", "greedy"], "'greedy': every seat's policy comes first, before any seat"),
    ]:
        with pytest.raises(PolicyError, match=re.escape(says)):
            api.simulate(hands=10, play=items)
    twice = ["--play-policy", "1=random", "--play-policy", "1=greedy"]
    r = CliRunner().invoke(main, ["simulate", "--hands", "10", *twice])
    assert r.exit_code == 2 and "seat 1 is given twice" in r.output
    twice = ["--play-policy", "random", "--play-policy", "greedy"]  # a list in Python: by seat
    r = CliRunner().invoke(main, ["simulate", "--hands", "10", *twice])
    assert r.exit_code == 2, r.output
    assert "'greedy': every seat's policy is given twice ('random' first)" in r.output
    sim = api.simulate(hands=10, play=["greedy", "0=random", "2=random"])  # the usual way
    # an empty module or function: one line, not a traceback
    for spec in (":x", ".:x", "bot.py:"):
        with pytest.raises(PolicyError, match="name a module or file and a function"):
            api.simulate(hands=10, play=spec)
    r = CliRunner().invoke(main, ["simulate", "--hands", "10", "--play-policy", ":x"])
    assert r.exit_code == 2 and "name a module or file and a function" in r.output
    assert sim.settings["policies"]["play"] == ["random", "greedy", "random", "greedy"]


def test_a_module_name_for_a_file_here_says_to_name_the_file(tmp_path, monkeypatch):
    """``cinch-sim`` does not put the current folder on the import path (``python -m``
    does), so ``bot:play`` for ./bot.py failed with "No module named 'bot'" alone."""
    _write(tmp_path / "herebot.py", MASK_PLAYER)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(PolicyError) as info:
        load_policy("play", "herebot:plays_a_mask")
    assert str(info.value).endswith(
        "No module named 'herebot' (a file in this folder: name it as one, herebot.py:plays_a_mask)"
    )
    with pytest.raises(PolicyError) as info:  # no such file: no hint
        load_policy("play", "nobot:play")
    assert str(info.value).endswith("No module named 'nobot'")


def test_a_policy_files_own_import_says_where_modules_are_found(tmp_path):
    """``from helpers import peek`` beside the file is not found by ``cinch-sim``: the
    line says to put its folder on PYTHONPATH."""
    _write(tmp_path / "bots" / "mine.py", HEAD + "from sidekick import peek\n" + PLAIN[len(HEAD) :])
    _write(tmp_path / "bots" / "sidekick.py", "peek = 1\n")
    with pytest.raises(PolicyError) as caught:
        load_policy("play", f"{tmp_path / 'bots' / 'mine.py'}:p")
    assert "No module named 'sidekick'" in str(caught.value)
    assert "set PYTHONPATH to its folder" in str(caught.value)


def test_a_spec_s_extra_colon_a_number_and_a_missing_return_are_named(tmp_path, monkeypatch):
    path = _write(tmp_path / "odd.py", HEAD + """
NOTAFUNC = 3

@njit
def maybe(obs, hand, legal, params, scratch, rng):
    if legal:
        return lowbit_index(legal)
""")  # fmt: skip
    with pytest.raises(PolicyError, match="one ':' between the module or file and the function"):
        load_policy("play", f"{path}:maybe:extra")
    with pytest.raises(PolicyError, match=r"no such file .*odd\.pyy \(did you mean .*odd\.py\?\)$"):
        load_policy("play", f"{str(path)[:-3]}.pyy:maybe")
    monkeypatch.chdir(tmp_path)  # a name without a folder reads as a module first
    with pytest.raises(PolicyError, match=r"\(did you mean the file odd\.py:maybe\?\)$"):
        load_policy("play", "odd.pyy:maybe")
    with pytest.raises(PolicyError, match=r"is not a numba function \(int, not a function\)"):
        load_policy("play", f"{path}:NOTAFUNC")
    with pytest.raises(PolicyError, match="a path through it returns nothing"):
        load_policy("play", f"{path}:maybe")
