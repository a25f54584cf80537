"""Corrupted records: every kind the reader duties name is caught with the right
message (field, seat, trick), and a file goes on to its next line."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from records_cases import base_hand, defenders_renege

from cinch_sim.cli.main import main
from cinch_sim.records import RecordFileError, read_records, referee_file, referee_record


def _set(path):
    def f(rec, value):
        obj = rec
        for k in path[:-1]:
            obj = obj[k]
        obj[path[-1]] = value

    return f


def _del(path):
    def f(rec, _):
        obj = rec
        for k in path[:-1]:
            obj = obj[k]
        del obj[path[-1]]

    return f


# (name, mutate, value, field, seat, trick, words in the message)
CASES = [
    (
        "card not held",
        _set(["tricks", 0, "cards", 1]),
        "2S",
        "tricks[0].cards[1]",
        3,
        0,
        ["seat 3 plays 2S", "does not hold"],
    ),
    (
        "card held by another seat",
        _set(["tricks", 0, "cards", 1]),
        "QH",
        "tricks[0].cards[1]",
        3,
        0,
        ["seat 0 holds it"],
    ),
    (
        "card played twice",
        _set(["tricks", 1, "cards", 0]),
        "AH",
        "tricks[1].cards[0]",
        2,
        1,
        ["already played in trick 1"],  # tricks count from 1 in messages
    ),
    (
        "wrong winner",
        _set(["tricks", 1, "winner"]),
        3,
        "tricks[1].winner",
        2,
        1,
        ["record says seat 3", "seat 2 wins with KH"],
    ),
    (
        "wrong leader",
        _set(["tricks", 3, "leader"]),
        2,
        "tricks[3].leader",
        1,
        3,
        ["seat 1 won trick 3"],  # tricks[2], the third
    ),
    (
        "wrong points",
        _set(["result", "points"]),
        [8, 6],
        "result.points",
        None,
        None,
        ["record says [8, 6]", "[9, 5]"],
    ),
    ("wrong score", _set(["result", "score"]), [-7, 5], "result.score", None, None, ["[9, 5]"]),
    (
        "wrong made",
        _set(["result", "made"]),
        False,
        "result.made",
        None,
        None,
        ["record says false, referee computes true"],  # JSON's words, not Python's
    ),
    (
        "wrong captured",
        _set(["result", "captured", "left_pedro"]),
        0,
        "result.captured.left_pedro",
        None,
        None,
        ["(5D)"],
    ),
    ("made as a number", _set(["result", "made"]), 1, "result.made", None, None, []),
    (
        "renege claimed",
        _set(["result", "renege"]),
        {"seat": 1, "trick": 2},
        "result.renege",
        None,
        None,
        [],
    ),
    (
        "draw out of stock order",
        _set(["draws", 0]),
        ["4C", "8H"],
        "draws[0][0]",
        0,
        None,
        ["should receive 8H", "record has 4C"],
    ),
    ("too few drawn", _set(["draws", 1]), [], "draws[1]", 1, None, ["must draw 1", "record has 0"]),
    (
        "robber short of the stock",
        _set(["draws", 2]),
        ["JH", "5C"],
        "draws[2]",
        2,
        None,
        ["whole rest of the stock"],
    ),
    (
        "duplicate card in the deal",
        _set(["hands", 1, 0]),
        "QH",
        "hands[1][0]",
        1,
        None,
        ["duplicate card QH", "hands[0]"],
    ),
    (
        "duplicate card in a hand",
        _set(["hands", 0, 1]),
        "QH",
        "hands[0][1]",
        0,
        None,
        ["duplicate card QH"],
    ),
    (
        "duplicate card in the stock",
        _set(["stock", 1]),
        "8H",
        "stock[1]",
        None,
        None,
        ["duplicate card 8H"],
    ),
    ("malformed token", _set(["hands", 0, 0]), "QX", "hands[0][0]", 0, None, ['unknown card "QX"']),
    ("eleven", _set(["hands", 0, 0]), "11H", "hands[0][0]", 0, None, ['unknown card "11H"']),
    ("card as a number", _set(["stock", 0]), 42, "stock[0]", None, None, ["unknown card 42"]),
    (
        "malformed trick card",
        _set(["tricks", 2, "cards", 0]),
        "6DD",
        "tricks[2].cards[0]",
        2,
        2,
        ['unknown card "6DD"'],
    ),
    ("missing bids", _del(["bids"]), None, "bids", None, None, ['missing field "bids"']),
    ("missing hands", _del(["hands"]), None, "hands", None, None, ['missing field "hands"']),
    (
        "missing trick cards",
        _del(["tricks", 4, "cards"]),
        None,
        "tricks[4].cards",
        None,
        None,
        ['missing field "cards"'],
    ),
    ("missing format", _del(["format"]), None, "format", None, None, ['missing field "format"']),
    (
        "unknown rule option",
        _set(["rules", "options", "robbers"]),
        "dealer",
        "rules.options",
        None,
        None,
        ['unknown rule option "robbers"'],
    ),
    (
        "bad option value",
        _set(["rules", "options", "robber"]),
        "nobody",
        "rules.options.robber",
        None,
        None,
        ['robber="nobody"'],
    ),
    (
        "unknown preset",
        _set(["rules", "preset"]),
        "pinochle",
        "rules.preset",
        None,
        None,
        ['unknown rules preset "pinochle"'],
    ),
    ("unknown format", _set(["format"]), "cinch-hand/2", "format", None, None, ["unknown format"]),
    ("unknown field", _set(["comment"]), "x", "comment", None, None, ["unknown field"]),
    ("bid out of turn", _set(["bids", 0]), [1, None], "bids[0]", 1, None, ["out of turn"]),
    ("bid too low", _set(["bids", 2]), [2, 6], "bids[2]", 2, None, ["does not beat"]),
    ("bid too high", _set(["bids", 2]), [2, 15], "bids[2]", 2, None, ["out of range 1..14"]),
    ("wrong maker", _set(["maker"]), 1, "maker", 2, None, ["the maker is seat 2"]),
    ("wrong bid", _set(["bid"]), 6, "bid", 2, None, ["the contract is 7"]),
    ("bad trump", _set(["trump"]), "X", "trump", None, None, ["unknown suit"]),
    (
        "trump discarded",
        _set(["discards", 0]),
        ["2S", "3S", "4S", "5S", "9H"],
        "discards[0]",
        0,
        None,
        ["discards the trump 9H"],
    ),
    (
        "discard not held",
        _set(["discards", 0]),
        ["2S", "3S", "4S", "5S", "AS"],
        "discards[0][4]",
        0,
        None,
        ["AS was not dealt to seat 0"],
    ),
    (
        "robber discards first",
        _set(["discards", 2]),
        ["8D"],
        "discards[2]",
        2,
        None,
        ["does not discard before robbing"],
    ),
    (
        "robber keeps too many",
        _set(["robber_discards"]),
        ["8D"],
        "robber_discards",
        2,
        None,
        ["must keep 6 cards"],
    ),
    ("hand not finished", _del(["tricks", 5]), None, "tricks", None, 5, ["not finished"]),
    ("dealer out of range", _set(["dealer"]), 4, "dealer", None, None, ["out of range 0..3"]),
    ("dealer as text", _set(["dealer"]), "3", "dealer", None, None, ["a whole number"]),
    ("hands not a list", _set(["hands"]), {"0": []}, "hands", None, None, ["must be a list"]),
    ("five hands", _set(["hands"]), [[], [], [], [], []], "hands", None, None, ["4 entries"]),
    (
        "too few trick cards",
        _set(["tricks", 0, "cards"]),
        ["AH", "4H", "8H"],
        "tricks[0].cards",
        None,
        0,
        ["4 seats hold cards"],
    ),
]


@pytest.mark.parametrize(
    ("mutate", "value", "field", "seat", "trick", "words"),
    [pytest.param(*c[1:], id=c[0]) for c in CASES],
)
def test_corruption_caught(mutate, value, field, seat, trick, words):
    rec = base_hand()
    mutate(rec, value)
    v = referee_record(json.loads(json.dumps(rec)), 7)
    assert v.status == "invalid", v.describe()
    assert v.field == field, v.describe()
    assert v.seat == seat, v.describe()
    assert v.trick == trick, v.describe()
    for w in words:
        assert w in v.message, v.describe()
    line = v.describe()
    assert line.startswith("line 7: invalid: ") and "\n" not in line


def test_extra_trick():
    rec = base_hand()
    rec["tricks"].append({"leader": 2, "cards": ["AH", "4H", "8H", "3H"]})
    v = referee_record(rec)
    assert v.field == "tricks[6]" and "every card has been played" in v.message


def test_excess_trumps_must_go_face_up():
    # rules ask must_discard_nontrumps: seat 0 kept non-trumps 7S 8S
    rec = base_hand({"must_discard_nontrumps": True})
    v = referee_record(rec)
    assert v.field == "discards[0]" and "must_discard_nontrumps" in v.message


BAD_LINES = [
    (b"{not json", "bad JSON"),
    (b'{"format": "cinch-hand/1", ', "bad JSON"),
    (b"\xff\xfe{}", "not UTF-8: byte 0xff at column 1"),
    # columns count characters, as a JSON error's do: "♠" is three bytes, one column
    ('{"hands": [["A♠"'.encode() + b"\xff", "not UTF-8: byte 0xff at column 17"),
    (b'"just a string"', "a record must be a JSON object"),
    (b"[1, 2, 3]", "a record must be a JSON object"),
    (b"[" * 100000, "bad JSON"),
    (b"{}", 'missing field "format"'),
    (b'{"format": "cinch-hand/1"}', 'missing field "rules"'),
    (b"NaN", "a record must be a JSON object"),
    (b'{"format": "cinch-hand/1", "rules": {"preset": "standard"}, "dealer": 1e400}', "dealer"),
    (b"1" * 5000, "bad JSON"),
]


def test_bad_lines_and_the_run_goes_on(tmp_path):
    good = json.dumps(base_hand()).encode()
    data = b"\n".join([good] + [b for b, _ in BAD_LINES] + [good, b"", b"   "]) + b"\n"
    path = tmp_path / "mixed.jsonl"
    path.write_bytes(data)
    rep = referee_file(path)
    statuses = [v.status for v in rep.verdicts]
    assert statuses == ["valid"] + ["invalid"] * len(BAD_LINES) + ["valid"]
    for v, (_, words) in zip(rep.verdicts[1:], BAD_LINES, strict=False):
        assert words in v.describe(), v.describe()
    assert [v.line for v in rep.verdicts][:3] == [1, 2, 3]
    res = CliRunner().invoke(main, ["referee", str(path)])
    assert res.exit_code == 1
    assert "Traceback" not in res.output
    out = res.output.strip().splitlines()
    assert len(out) == len(BAD_LINES) + 1
    assert out[0].startswith("line 2: invalid: bad JSON")
    assert out[-1] == f"2 valid, 0 renege, 0 misdeal, {len(BAD_LINES)} invalid"
    df = rep.to_frame()
    assert list(df["status"]).count("invalid") == len(BAD_LINES)


def test_bom_and_crlf_are_read(tmp_path):
    path = tmp_path / "bom.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(base_hand()).encode() + b"\r\n")
    assert referee_file(path).summary() == "1 valid, 0 renege, 0 misdeal, 0 invalid"


@pytest.mark.parametrize("end", ["\n", "\r\n", "  \n"], ids=["lf", "crlf", "spaces"])
def test_a_line_cut_short_is_reported_at_its_last_column(tmp_path, end):
    """A record cut mid-way (``head -c``) is wrong where it stops, on its own line: the
    line's end is not JSON's next line, whose column 1 would point nowhere. Columns
    count characters, as an editor shows them (``Q♥`` is 4 bytes but 2 columns)."""
    rec = base_hand()
    rec["hands"][0][0] = "Q♥"
    text = json.dumps(rec, ensure_ascii=False)
    cut = text.index('"stock":') + len('"stock":')  # a value should follow
    path = tmp_path / "cut.jsonl"
    path.write_text(text[:cut] + end, encoding="utf-8", newline="")
    res = CliRunner().invoke(main, ["referee", str(path)])
    assert res.output.splitlines()[0] == (
        f"line 1: invalid: bad JSON: Expecting value (column {cut + 1})"
    )


def test_messages_quote_values_as_json():
    """What a record says is quoted as the JSON the person typed: null, true/false,
    {"seat": 3, "trick": 2} and "QX", never Python's None, True, {'seat': 3} or 'QX'."""
    rec = defenders_renege()
    rec["result"] = referee_record(defenders_renege()).check.result()
    rec["result"]["renege"] = None
    v = referee_record(json.loads(json.dumps(rec)))
    assert v.field == "result.renege" and (v.seat, v.trick) == (3, 2)
    assert v.message == (
        "record says null, referee finds a renege: seat 3 plays 3C on a diamond lead while "
        'holding AD (written {"seat": 3, "trick": 2}, tricks counted from 0)'
    ), v.message
    rec = base_hand()
    rec["result"]["renege"] = {"seat": 3, "trick": 2}
    assert referee_record(rec).message == (
        'record says {"seat": 3, "trick": 2}, referee computes null'
    )
    rec = base_hand()
    rec["format"] = "cinch-hand/2"
    assert referee_record(rec).message == (
        'unknown format "cinch-hand/2" (expected "cinch-hand/1" or "cinch-game/1")'
    )
    for bad in ({"x": None}, [True, None], "5X"):
        rec = base_hand()
        rec["hands"][0][0] = bad
        v = referee_record(rec)
        assert v.message.startswith(f"unknown card {json.dumps(bad, ensure_ascii=False)} ")


def test_a_card_nobody_holds_is_said_without_nested_brackets():
    rec = base_hand()
    rec["tricks"][0]["cards"][1] = "2S"  # seat 0 discarded it
    v = referee_record(rec)
    assert v.message == (
        "seat 3 plays 2S, which it does not hold (no seat holds it after the draw)"
    )


def test_file_that_cannot_be_opened(tmp_path):
    runner = CliRunner()
    for target in (tmp_path / "missing.jsonl", tmp_path):
        res = runner.invoke(main, ["referee", str(target)])
        assert res.exit_code == 2, res.output
        assert "cannot open" in res.output and "Traceback" not in res.output
        with pytest.raises(RecordFileError):
            read_records(target)
    res = runner.invoke(main, ["show", str(tmp_path / "missing.jsonl")])
    assert res.exit_code == 2


def test_cli_exit_statuses(tmp_path):
    good = tmp_path / "good.jsonl"
    good.write_text(json.dumps(base_hand()) + "\n")
    res = CliRunner().invoke(main, ["referee", str(good)])
    assert res.exit_code == 0 and res.output == "1 valid, 0 renege, 0 misdeal, 0 invalid\n"
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    res = CliRunner().invoke(main, ["referee", str(empty)])
    assert res.exit_code == 0 and "0 valid" in res.output
    bad = base_hand()
    bad["tricks"][1]["winner"] = 3
    badf = tmp_path / "bad.jsonl"
    badf.write_text(json.dumps(bad) + "\n")
    out = tmp_path / "w.jsonl"
    res = CliRunner().invoke(main, ["referee", str(badf), "--write", str(out)])
    assert res.exit_code == 1
    assert res.output.splitlines()[0] == (
        "line 1: invalid: tricks[1].winner, seat 2, trick 2: "
        "record says seat 3, seat 2 wins with KH"
    )
    # an invalid record is written back as it was, so line 1 is still line 1
    assert out.read_text() == badf.read_text()
    assert "1 invalid record(s) copied unchanged to" in res.stderr
    res = CliRunner().invoke(main, ["show", str(badf)])
    assert res.exit_code == 1 and "tricks[1].winner" in res.output


# Written by the kernel (simple/greedy policies, seed 1, hand 6): the robber
# (seat 3, 7 trumps among his cards) sets aside the 2 of trumps. docs/rules.md §2,
# excess_trump_discard (non_point_only: "the A, J and 10 of trumps, both Pedros
# and the 2 of trumps may not go") names no exception for the robber; §2 exempts
# him only from must_discard_nontrumps. Reported as a kernel discrepancy.
ROBBER_POINT_TRUMP = json.dumps(
    {
        "format": "cinch-hand/1",
        "rules": {"preset": "standard", "options": {"excess_trump_discard": "non_point_only"}},
        "dealer": 3,
        "hands": [
            ["AS", "KC", "AH", "7C", "9H", "7S", "QH", "4C", "JH"],
            ["TD", "8S", "JC", "2C", "9D", "KH", "6H", "JD", "KD"],
            ["9S", "3S", "6S", "KS", "4S", "6C", "AC", "3C", "2S"],
            ["5D", "4H", "6D", "7H", "5H", "3H", "TC", "8H", "2H"],
        ],
        "stock": [
            "5C",
            "2D",
            "QD",
            "3D",
            "AD",
            "7D",
            "9C",
            "JS",
            "TH",
            "QC",
            "TS",
            "4D",
            "QS",
            "8D",
            "8C",
            "5S",
        ],
        "bids": [[0, None], [1, None], [2, None], [3, 13]],
        "maker": 3,
        "bid": 13,
        "trump": "H",
        "discards": [
            ["AS", "KC", "7C", "7S", "4C"],
            ["TD", "8S", "JC", "2C", "9D", "JD", "KD"],
            ["9S", "3S", "6S", "KS", "4S", "6C", "AC", "3C", "2S"],
            [],
        ],
        "draws": [
            ["5C", "2D"],
            ["QD", "3D", "AD", "7D"],
            ["9C", "JS", "TH", "QC", "TS", "4D"],
            ["QS", "8D", "8C", "5S"],
        ],
        "robber_discards": ["6D", "TC", "2H", "QS", "8D", "8C", "5S"],
        "tricks": [
            {"leader": 3, "cards": ["8H", "9H", "KH", "TH"], "winner": 1},
            {"leader": 1, "cards": ["6H", "4D", "3H", "JH"], "winner": 0},
            {"leader": 0, "cards": ["AH", "3D", "9C", "4H"], "winner": 0},
            {"leader": 0, "cards": ["QH", "7D", "TS", "7H"], "winner": 0},
            {"leader": 0, "cards": ["5C", "QD", "QC", "5D"], "winner": 3},
            {"leader": 3, "cards": ["5H", "2D", "AD", "JS"], "winner": 3},
        ],
        "result": {
            "points": [3, 11],
            "captured": {
                "high": 0,
                "low": 0,
                "jack": 0,
                "game": 1,
                "right_pedro": 1,
                "left_pedro": 1,
            },
            "made": False,
            "score": [3, -13],
            "renege": None,
        },
    }
)


def test_robber_may_not_set_aside_point_trumps_under_non_point_only():
    v = referee_record(json.loads(ROBBER_POINT_TRUMP))
    assert v.status == "invalid" and v.field == "robber_discards" and v.seat == 3
    assert "point trump 2H" in v.message
    rec = json.loads(ROBBER_POINT_TRUMP)
    rec["rules"]["options"] = {}
    assert referee_record(rec).status == "valid"  # legal under the default "any"


def test_referee_and_show_errors_start_as_every_command_does(tmp_path):
    missing = str(tmp_path / "nothing.jsonl")
    for command in ("referee", "show"):
        res = CliRunner().invoke(main, [command, missing])
        assert res.exit_code == 2
        assert res.output.startswith("Error: "), res.output


def test_an_invisible_character_in_a_bad_card_is_shown():
    """ "AS" with an emoji selector after the letter is no card; the message used to
    print the selector as nothing, so the token looked valid."""
    from cinch_sim.records.parse import RecordError, get_card

    with pytest.raises(RecordError, match=r'unknown card "AS\\ufe0f"'):
        get_card("AS\ufe0f", "hands[0][0]")
    with pytest.raises(RecordError, match='unknown card "1♠"'):  # symbols stay as typed
        get_card("1♠", "hands[0][0]")
