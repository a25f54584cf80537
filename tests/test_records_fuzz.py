"""Fuzz: random byte and JSON mutations of good records never raise, never show a
traceback, and never reach the referee's internal-error fallback."""

from __future__ import annotations

import copy
import json
import random
import re

import pytest
from click.testing import CliRunner
from records_cases import base_hand, bidders_renege, dealer_robs, rotate, thrown_in

from cinch_sim.cli.main import main
from cinch_sim.records import referee_record
from cinch_sim.records.io import iter_lines, referee_lines


def _game():
    hands = []
    for rec in (base_hand(), rotate(base_hand(), 1)):
        rec = copy.deepcopy(rec)
        for k in ("format", "rules", "result"):
            rec.pop(k, None)
        hands.append(rec)
    return {
        "format": "cinch-game/1",
        "rules": {"preset": "standard", "options": {"target": 10}},
        "target": 10,
        "first_dealer": 3,
        "hands": hands,
    }


SEEDS = [base_hand(), bidders_renege(), thrown_in(), _game(), dealer_robs()]
ODD_VALUES = [None, True, False, 0, -1, 1, 3, 4, 99, 2**70, 1.5, float("inf"), "", "AS", "10♠",
              "5♦️", "x", "S", [], {}, [[]], ["AS"], {"seat": 1}, "null"]  # fmt: skip


def _nodes(obj, path=()):
    yield path
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _nodes(v, path + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _nodes(v, path + (i,))


def _get(obj, path):
    for k in path:
        obj = obj[k]
    return obj


def json_mutation(rec, rng: random.Random):
    rec = copy.deepcopy(rec)
    for _ in range(rng.choice((1, 1, 2, 3))):
        paths = [p for p in _nodes(rec) if p]
        if not paths:
            return rec
        path = rng.choice(paths)
        parent = _get(rec, path[:-1])
        key = path[-1]
        op = rng.randrange(6)
        if op == 0:  # delete
            del parent[key]
        elif op == 1:  # replace by an odd value
            parent[key] = copy.deepcopy(rng.choice(ODD_VALUES))
        elif op == 2 and isinstance(parent, list) and len(parent) > 1:  # swap
            j = rng.randrange(len(parent))
            parent[key], parent[j] = parent[j], parent[key]
        elif op == 3 and isinstance(parent, list):  # duplicate an element
            parent.insert(key, copy.deepcopy(parent[key]))
        elif op == 4:  # replace by another node of the record
            other = _get(rec, rng.choice(paths))
            parent[key] = copy.deepcopy(other)
        else:  # nudge a number or a card token
            v = parent[key]
            if isinstance(v, int) and not isinstance(v, bool):
                parent[key] = v + rng.choice((-1, 1, 13))
            elif isinstance(v, str) and v:
                parent[key] = v[::-1] if rng.random() < 0.5 else v.lower()
    return rec


def byte_mutation(data: bytes, rng: random.Random) -> bytes:
    b = bytearray(data)
    for _ in range(rng.choice((1, 2, 5))):
        op = rng.randrange(4)
        i = rng.randrange(len(b) + 1)
        if op == 0 and b:
            del b[min(i, len(b) - 1)]
        elif op == 1:
            b.insert(i, rng.randrange(256))
        elif op == 2 and b:
            b[min(i, len(b) - 1)] = rng.randrange(256)
        else:
            b[i:i] = rng.choice([b"\xe2\x99", b"\xff", b'"', b"{", b"]", b"\\u", b"\n", b"\x00"])
    return bytes(b)


@pytest.mark.parametrize("seed", range(4))
def test_fuzz_json_mutations(seed):
    rng = random.Random(seed)
    for _ in range(400):
        rec = json_mutation(rng.choice(SEEDS), rng)
        v = referee_record(json.loads(json.dumps(rec)))
        assert "internal error" not in v.message, (v.describe(), rec)
        assert "\n" not in v.describe()
        if v.status == "invalid":
            assert v.message


@pytest.mark.parametrize("seed", range(4))
def test_fuzz_byte_mutations(seed):
    rng = random.Random(100 + seed)
    lines = []
    for _ in range(400):
        data = json.dumps(rng.choice(SEEDS), ensure_ascii=rng.random() < 0.5).encode()
        lines.append(byte_mutation(data, rng))
    blob = b"\n".join(lines)
    for v in referee_lines(iter_lines(blob.split(b"\n"))):
        assert "internal error" not in v.message, v.describe()
        assert "\n" not in v.describe()


def test_fuzz_cli_no_traceback(tmp_path):
    rng = random.Random(7)
    lines = []
    for _ in range(150):
        seed = rng.choice(SEEDS)
        if rng.random() < 0.5:
            lines.append(json.dumps(json_mutation(seed, rng), ensure_ascii=False).encode())
        else:
            lines.append(byte_mutation(json.dumps(seed).encode(), rng))
    path = tmp_path / "fuzz.jsonl"
    path.write_bytes(b"\n".join(lines))
    out = tmp_path / "back.jsonl"
    for args in (["referee", str(path)], ["referee", str(path), "--write", str(out)]):
        res = CliRunner().invoke(main, args)
        assert res.exception is None or isinstance(res.exception, SystemExit), res.output
        assert res.exit_code in (0, 1)
        assert "Traceback" not in res.output
        assert "internal error" not in res.output
        assert re.search(r"^\d+ valid, \d+ renege, \d+ misdeal, \d+ invalid$", res.output, re.M)
    for n in range(1, 40):
        res = CliRunner().invoke(main, ["show", str(path), "--line", str(n)])
        assert res.exit_code in (0, 1) and "Traceback" not in res.output
        assert res.exception is None or isinstance(res.exception, SystemExit), res.output
