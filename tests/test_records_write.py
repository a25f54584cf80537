"""`cinch-sim referee --write`: line N of the output is line N of the input. Valid
records come back checked and filled in; invalid lines are copied byte for byte."""

from __future__ import annotations

import json

from click.testing import CliRunner
from records_cases import base_hand

from cinch_sim.cli.main import main
from cinch_sim.records import referee_record


def _mixed_file(path):
    """A valid hand typed without winners or result, a hand with a wrong trick winner
    (CRLF-ended), a blank line, a line that is not JSON, and a misdeal; the raw lines."""
    bad = base_hand()
    bad["tricks"][1]["winner"] = 3  # seat 2 wins with KH
    mis = base_hand()
    mis["exposed"] = "AS"
    lines = [
        json.dumps(base_hand(result=False, winners=False)).encode() + b"\n",
        json.dumps(bad, indent=None, separators=(",", ":")).encode() + b"\r\n",
        b"   \n",
        b'{"format": "cinch-hand/1", "dealer": 3, "hands": [["QH",\n',
        json.dumps(mis).encode(),  # the last line, with no newline
    ]
    path.write_bytes(b"".join(lines))
    return lines


def _check_written(lines, written: bytes):
    out = written.splitlines(keepends=True)
    assert len(out) == len(lines)
    assert out[1] == lines[1] and out[2] == lines[2] and out[3] == lines[3]  # byte for byte
    first = json.loads(out[0])
    assert referee_record(first).status == "valid"
    assert first == base_hand()  # the winners and the result filled in
    assert out[0].endswith(b"\n")
    assert referee_record(json.loads(out[4])).status == "misdeal"


def test_write_copies_invalid_lines_unchanged(tmp_path):
    src = tmp_path / "mixed.jsonl"
    lines = _mixed_file(src)
    out = tmp_path / "checked.jsonl"
    res = CliRunner().invoke(main, ["referee", str(src), "--write", str(out)])
    assert res.exit_code == 1, res.output
    assert res.stdout.splitlines() == [
        "line 2: invalid: tricks[1].winner, seat 2, trick 2: "
        "record says seat 3, seat 2 wins with KH",
        "line 4: invalid: bad JSON: Expecting value (column 57)",
        "line 5: misdeal: AS exposed during the deal; the same dealer redeals",
        "1 valid, 0 renege, 1 misdeal, 2 invalid",
    ]
    assert res.stderr == (f"2 invalid record(s) copied unchanged to {out} (same line numbers)\n")
    _check_written(lines, out.read_bytes())
    # the verdicts on the written file name the same lines
    again = CliRunner().invoke(main, ["referee", str(out)])
    assert again.stdout == res.stdout


def test_write_over_the_input_keeps_every_line(tmp_path):
    src = tmp_path / "inplace.jsonl"
    lines = _mixed_file(src)
    res = CliRunner().invoke(main, ["referee", str(src), "--write", str(src), "--force"])
    assert res.exit_code == 1, res.output
    assert f"2 invalid record(s) copied unchanged to {src}" in res.stderr
    _check_written(lines, src.read_bytes())
    assert [p.name for p in tmp_path.iterdir()] == ["inplace.jsonl"]  # no temporary left


def test_write_to_stdout_keeps_every_line(tmp_path):
    src = tmp_path / "mixed.jsonl"
    lines = _mixed_file(src)
    res = CliRunner().invoke(main, ["referee", str(src), "--write", "-"])
    assert res.exit_code == 1, res.output
    _check_written(lines, res.stdout_bytes)
    assert "1 valid, 0 renege, 1 misdeal, 2 invalid" in res.stderr
    assert "2 invalid record(s) copied unchanged to stdout" in res.stderr


def test_write_keeps_a_byte_order_mark_on_a_bad_first_line(tmp_path):
    src = tmp_path / "bom.jsonl"
    raw = b"\xef\xbb\xbf{not json\n" + json.dumps(base_hand()).encode() + b"\n"
    src.write_bytes(raw)
    out = tmp_path / "out.jsonl"
    res = CliRunner().invoke(main, ["referee", str(src), "--write", str(out)])
    assert res.exit_code == 1, res.output
    assert out.read_bytes() == raw  # the valid hand was already in the writer's form


def test_write_without_problems_says_nothing_on_stderr(tmp_path):
    src = tmp_path / "good.jsonl"
    src.write_text(json.dumps(base_hand(result=False)) + "\n")
    out = tmp_path / "out.jsonl"
    res = CliRunner().invoke(main, ["referee", str(src), "--write", str(out)])
    assert res.exit_code == 0, res.output
    assert res.stderr == ""
    assert json.loads(out.read_text()) == base_hand()
