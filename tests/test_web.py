"""The web server (issue 30): the advice and review endpoints answer as the API does,
bad requests get a 400 and a message, never a traceback, and the queue stays bounded
and responsive under many malformed and concurrent requests."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from web_server import request, running

from cinch_sim.web.jobs import Busy, JobBoard

HAND = "AS KS 5S 5C 2S 9H 3D 7C JD"


def _finish(base: str, job: str, client: str = "test", limit: float = 60.0) -> dict:
    end = time.monotonic() + limit
    while time.monotonic() < end:
        status, view = request(base, "GET", f"/api/jobs/{job}", client=client)
        assert status == 200
        if view["status"] not in ("queued", "running"):
            return view
        time.sleep(0.05)
    raise AssertionError(f"job {job} did not finish in {limit} s")


@pytest.fixture(scope="module")
def base():
    with running(workers=2, max_jobs=16) as url:
        yield url


def test_the_advice_is_refined_to_the_command_line_s(base):
    from cinch_sim.api import advise

    status, started = request(base, "POST", "/api/advise", {"hand": HAND, "dealer": 3})
    assert status == 200 and started["cli"] == f"cinch-sim advise '{HAND}' --dealer 3"
    view = _finish(base, started["job"])
    assert view["status"] == "done" and view["final"] and view["stage"] == view["stages"] == 3
    want = advise(HAND, dealer=3)  # the command line's precision, the same seed
    assert view["result"]["advice"] == want.to_dict()["advice"]
    assert view["result"]["hands"] == want.hands and view["result"]["seat_assumed"]
    rows = view["result"]["rows"]["S"]
    assert [r["bid"] for r in rows] == list(range(1, 15))
    assert all(set(r) >= {"p_make", "interval", "as_maker", "judged", "ev"} for r in rows)


@pytest.mark.parametrize(
    "body, message",
    [
        ({}, "pick the cards of your hand"),
        ({"hand": "AS KS 5S 5C 2S 9H 3D 7C"}, "a hand needs 9 cards, got 8"),
        ({"hand": "AS KS 5S 5C 2S 9H 3D 7C 7C"}, "duplicate card 7C"),
        ({"hand": HAND, "seat": 4}, "seat 4 is out of range"),
        ({"hand": HAND, "seat": "two"}, "seat must be int"),
        ({"hand": HAND, "dealer": 1.5}, "dealer must be int"),
        ({"hand": HAND, "variant": "bridge"}, "variant 'bridge' is not one of standard"),
        ({"hand": HAND, "play": "god"}, "play 'god' is not one of heuristic, pimc, dd"),
        ({"hand": HAND, "bid_model": "pimc"}, "bid model 'pimc' is not one of heuristic, "),
        ({"hand": HAND, "bids": "0:99"}, "bids: seat 0's bid 99 is impossible"),
        ({"hand": HAND, "risk": 2}, "risk 2 must be above 0 and at most 1"),
        ({"hand": HAND, "seat": True}, "seat must be int"),
        ({"hand": HAND, "precision": 0.001}, "precision 0.001 must be at least 0.005"),
        # no seat chosen: the eldest hand is assumed, and bids that fit another seat say so
        (
            {"hand": HAND, "bids": "0:8"},
            "seat 0 is your own seat; give only earlier bids. "
            "No seat was chosen, so the eldest hand (seat 0) was assumed: choose your seat",
        ),
    ],
)
def test_a_bad_advice_request_gets_a_400_and_its_message(base, body, message):
    status, answer = request(base, "POST", "/api/advise", body)
    assert status == 400 and message in answer["error"], answer


@pytest.mark.parametrize(
    "method, path, raw, status, message",
    [
        ("POST", "/api/advise", b"not json", 400, "not a JSON object"),
        ("POST", "/api/advise", b"[1, 2]", 400, "not a JSON object"),
        ("POST", "/api/advise", b"\xff\xfe", 400, "not a JSON object"),
        ("POST", "/api/review", b'{"records": "{\\"a\\": 1"}', 400, "line 1 is not JSON"),
        ("POST", "/api/review", b'{"records": "[1]"}', 400, "line 1 is not a JSON object"),
        ("POST", "/api/review", b"{}", 400, "paste or upload"),
        ("POST", "/api/sample", b'{"seed": -1}', 400, "seed"),
        ("GET", "/api/jobs/nope", None, 404, "no query 'nope'"),
        ("GET", "/api/advise", None, 405, "does not take that method"),
        ("GET", "/no/such/page", None, 404, "no such page"),
        ("POST", "/api/review", b'{"records": "' + b"x" * 2_200_000 + b'"}', 413, "too large"),
    ],
)
def test_malformed_requests_are_refused_in_one_line(base, method, path, raw, status, message):
    got, answer = request(base, method, path, raw=raw)
    assert got == status and message in answer["error"], answer


def _garbage(rng: random.Random) -> tuple[str, str, bytes]:
    """A malformed request: random bytes, a wrong JSON type, or fields of wrong values."""
    path = rng.choice(["/api/advise", "/api/review", "/api/sample", "/api/advise"])
    kind = rng.randrange(4)
    if kind == 0:
        raw = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 60)))
    elif kind == 1:
        raw = json.dumps(rng.choice([[], 3, "x", None, [{"hand": HAND}], 2.5])).encode()
    else:
        junk = [None, -1, 1e300, "", "AS", "ZZ " * 9, [1], {"a": 1}, True, "0:" * 50]
        body = {
            k: rng.choice(junk)
            for k in rng.sample(["hand", "seat", "dealer", "bids", "variant", "play", "risk",
                                 "records", "seed"], rng.randrange(1, 5))
        }  # fmt: skip
        if path == "/api/advise":
            body.setdefault("hand", rng.choice(["AS KS", "", "5S 5C", HAND + " 4C"]))
        if path == "/api/sample":
            body["seed"] = rng.choice(["x", -5, 2.5, [1]])
        raw = json.dumps(body).encode()
    return "POST", path, raw


@pytest.mark.parametrize(
    ("garbage", "queries", "max_jobs"),
    [(300, 6, 4), pytest.param(1000, 20, 16, marks=pytest.mark.slow)],
)
def test_malformed_requests_then_queries_at_once(garbage, queries, max_jobs):
    """Garbage of every kind is refused one request at a time; then more queries at
    once than the board holds: at least the board's share is answered, the rest
    refused as busy, and the server still answers afterwards."""
    rng = random.Random(30)
    with running(workers=2, max_jobs=max_jobs) as base:
        for _ in range(garbage):
            method, path, raw = _garbage(rng)
            status, answer = request(base, method, path, raw=raw)
            assert status in (400, 413) and isinstance(answer.get("error"), str), (path, raw)

        def ask(i: int) -> tuple[int, dict]:
            query = {"hand": HAND, "seat": i % 4, "precision": 0.05}  # one stage: quick
            status, started = request(base, "POST", "/api/advise", query, client=f"c{i}")
            if status != 200:
                return status, started
            return status, _finish(base, started["job"], f"c{i}", limit=120)

        with ThreadPoolExecutor(queries) as pool:
            results = list(pool.map(ask, range(queries)))
        done = [v for s, v in results if s == 200]
        assert all(s in (200, 503) for s, _ in results)
        assert all(v["status"] == "done" and v["stages"] == 1 for v in done)
        assert len(done) >= max_jobs
        assert all("busy" in v["error"] for s, v in results if s == 503)
        # and it still answers, correctly
        query = {"hand": HAND, "seat": 2, "precision": 0.05}
        status, started = request(base, "POST", "/api/advise", query)
        view = _finish(base, started["job"])
        assert view["result"]["seat"] == 2 and view["result"]["best_trump"] == "S"


def test_a_client_s_new_query_cancels_its_last(base):
    _, first = request(base, "POST", "/api/advise", {"hand": HAND, "play": "dd"}, client="k")
    _, second = request(base, "POST", "/api/advise", {"hand": HAND, "seat": 1}, client="k")
    assert _finish(base, first["job"], "k")["status"] == "cancelled"
    assert _finish(base, second["job"], "k")["status"] == "done"
    _, third = request(base, "POST", "/api/advise", {"hand": HAND, "play": "dd"}, client="k")
    status, view = request(base, "DELETE", f"/api/jobs/{third['job']}", client="k")
    assert status == 200 and _finish(base, third["job"], "k")["status"] == "cancelled"


def test_a_bad_line_among_records_is_an_invalid_entry_beside_the_good_ones(base, tmp_path):
    """A good record, a line that is not JSON, a good record: both hands are reviewed
    and line 2 is an invalid entry saying why (one bad line refused them all)."""
    from cinch_sim.api import simulate

    path = tmp_path / "hands.jsonl"
    simulate(hands=2, seed=4, records=str(path))
    one, two = path.read_text().splitlines()
    status, answer = request(base, "POST", "/api/review", {"records": f"{one}\nhello there\n{two}"})
    assert status == 200
    hands = answer["hands"]
    assert [h["line"] for h in hands] == [1, 2, 3]
    assert [h["status"] for h in hands] == ["valid", "invalid", "valid"]
    assert hands[1]["message"].startswith("bad JSON: ")


def test_the_review_is_solve_s(base, tmp_path):
    from cinch_sim.api import simulate, solve

    path = tmp_path / "hands.jsonl"
    simulate(hands=3, seed=4, records=str(path))
    status, answer = request(base, "POST", "/api/review", {"records": path.read_text()})
    # solve's objects, and whether the sides are partnerships (the page's words for them)
    assert status == 200 and all(h.pop("partnerships") is True for h in answer["hands"])
    assert answer["hands"] == json.loads(json.dumps(solve(str(path)).hands))
    status, sample = request(base, "POST", "/api/sample", {"seed": 4})
    assert status == 200 and len(sample["records"]) == 1
    assert sample["hands"][0]["status"] == "valid" and sample["hands"][0]["tricks"]


def test_a_sampled_hand_is_of_the_variant_asked_for(base):
    """Deal a hand of any preset: its record names the preset and seats its players
    (three in cutthroat3); double-dummy play is refused where the solver cannot play
    it, with the reason, as the advisor's is."""
    status, sample = request(base, "POST", "/api/sample", {"seed": 4, "variant": "cutthroat3"})
    assert status == 200, sample
    record = sample["records"][0]
    assert record["rules"]["preset"] == "cutthroat3" and len(record["hands"]) == 3
    hand = sample["hands"][0]
    assert hand["status"] == "valid" and hand["partnerships"] is False
    assert {p["seat"] for t in hand["tricks"] for p in t["plays"]} == {0, 1, 2}
    status, answer = request(base, "POST", "/api/sample", {"variant": "two_deck", "play": "dd"})
    assert status == 400 and "two decks" in answer["error"], answer
    status, answer = request(base, "POST", "/api/sample", {"variant": "nine_handed"})
    assert status == 400 and "variant 'nine_handed' is not one of standard" in answer["error"]


def test_a_seed_comes_as_digits_whole_up_to_the_top_of_its_range(base):
    """The page sends the seed as typed: a browser's numbers keep 53 bits, so 2**64 - 1
    read as a number became 18446744073709552000, refused as out of range, and seeds
    2**53 and 2**53 + 1 dealt the same hand."""
    top = str(2**64 - 1)
    status, sample = request(base, "POST", "/api/sample", {"seed": top})
    assert status == 200 and len(sample["records"]) == 1
    _, a = request(base, "POST", "/api/sample", {"seed": str(2**53)})
    _, b = request(base, "POST", "/api/sample", {"seed": str(2**53 + 1)})
    assert a["records"][0]["hands"] != b["records"][0]["hands"]
    for seed, said in ((str(2**64), f"seed: {2**64} is out of range"),
                       ("1e3", "seed '1e3' must be a whole number, 0 or more")):  # fmt: skip
        status, answer = request(base, "POST", "/api/sample", {"seed": seed})
        assert status == 400 and said in answer["error"], answer


def test_the_board_keeps_its_bounds():
    board = JobBoard(workers=1, max_jobs=2, time_limit=0.2)

    def slow(check):
        while True:
            check()
            time.sleep(0.01)

    a = board.submit("a", [slow])
    board.submit("b", [slow])
    with pytest.raises(Busy):
        board.submit("c", [slow])
    end = time.monotonic() + 5
    while not a.finished and time.monotonic() < end:
        time.sleep(0.02)
    assert a.status == "timeout" and "time limit" in a.error
    board.shutdown()


def test_a_game_s_moves_run_on_the_board_within_its_bounds():
    """Moves at a table share the workers: their answers (and errors) come back; more
    than max_jobs waiting, or one past the time limit, is Busy (a 503 on the page)."""
    board = JobBoard(workers=1, max_jobs=2, time_limit=0.5)
    assert board.call(lambda: threading.current_thread().name).startswith("cinch-web")
    with pytest.raises(ValueError, match="refused"):
        board.call(lambda: (_ for _ in ()).throw(ValueError("refused")))
    with pytest.raises(Busy, match="no answer within"):
        board.call(lambda: time.sleep(1.0))
    board.shutdown()
    # the capacity on a board whose limit no loaded machine reaches: the two waiting
    # moves must still wait when the third comes (at 0.5 s they could time out first)
    board = JobBoard(workers=1, max_jobs=2, time_limit=60)
    gate = threading.Event()
    waiting = [threading.Thread(target=lambda: board.call(gate.wait)) for _ in range(2)]
    for t in waiting:
        t.start()
    end = time.monotonic() + 5
    while board.calls < 2 and time.monotonic() < end:
        time.sleep(0.01)
    with pytest.raises(Busy, match="2 moves waiting"):
        board.call(lambda: None)
    gate.set()
    for t in waiting:
        t.join()
    assert board.call(lambda: 7) == 7
    board.shutdown()


def test_serve_prints_its_address_and_refuses_a_bad_port():
    proc = subprocess.Popen(
        [sys.executable, "-m", "cinch_sim", "serve", "--port", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        line = proc.stdout.readline()
        assert line.startswith("serving cinch_sim on http://127.0.0.1:")
        url = line.split()[3]
        status, variants = request(url.rstrip("/"), "GET", "/api/variants")
        assert status == 200 and variants["standard"]["players"] == 4
    finally:
        proc.terminate()
        proc.wait(10)
    bad = subprocess.run(
        [sys.executable, "-m", "cinch_sim", "serve", "--port", "70000"],
        capture_output=True, text=True,
    )  # fmt: skip
    assert bad.returncode == 2 and "70000" in bad.stderr
    # --precision: the advice's last stage, refused past its range as a usage error
    from click.testing import CliRunner

    from cinch_sim.cli.main import main

    res = CliRunner().invoke(main, ["serve", "--precision", "0.7"])
    assert res.exit_code == 2 and "'--precision'" in res.output


def test_the_server_s_precision_is_the_last_stage_and_the_command_shown():
    """``serve --precision 0.02``: a query that names none stops at 0.02, in two stages
    (0.05, then 0.02), and its command line says --precision 0.02; one that names its
    own keeps it."""
    from cinch_sim.web import queries

    q = queries.advise_query({"hand": HAND}, 0.02)
    assert q["precision"] == 0.02 and queries.cli_command(q).endswith("--precision 0.02")
    assert len(queries.advise_stages(q)) == 2
    assert queries.advise_query({"hand": HAND, "precision": 0.01}, 0.02)["precision"] == 0.01
    default = queries.advise_query({"hand": HAND})
    assert default["precision"] == 0.01 and "--precision" not in queries.cli_command(default)
    assert len(queries.advise_stages(default)) == 3


def test_a_running_stage_reports_how_far_it_has_come():
    import threading

    board = JobBoard(workers=1)
    go = threading.Event()

    def stage(check):
        check(3)
        check(4)
        go.wait(5)
        return {"ok": True}

    job = board.submit("a", [stage])
    end = time.monotonic() + 5
    while job.view()["done"] < 7 and time.monotonic() < end:
        time.sleep(0.01)
    assert job.view()["done"] == 7 and job.status == "running"
    go.set()
    while not job.finished and time.monotonic() < end:
        time.sleep(0.01)
    assert job.view()["result"] == {"ok": True} and job.status == "done"
    board.shutdown()


def test_a_game_through_the_endpoints(base):
    status, s = request(base, "POST", "/api/table", {"variant": "standard", "seat": 1})
    assert status == 200 and s["status"] == "your turn" and s["seat"] == 1
    table = s["table"]
    for _ in range(60):
        if s["status"] == "hand over":
            break
        q = s["question"]
        if q["kind"] == "discard":
            keep = [c for c in q["hand"] if c not in q["legal"]]
            keep += [c for c in q["trumps"] if c not in keep][: q["keep"][1] - len(keep)]
            keep += [c for c in q["hand"] if c not in keep][: q["keep"][1] - len(keep)]
            value = " ".join(keep)
        else:
            value = q["legal"][0]
        status, s = request(base, "POST", f"/api/table/{table}/choose", {"value": value})
        assert status == 200, s
    assert s["status"] == "hand over" and s["review"]["status"] == "valid"
    status, nxt = request(base, "POST", f"/api/table/{table}/next")
    assert status == 200 and nxt["hand_number"] == 2
    # a seed as digits, past a browser's 2**53, deals the same game again
    again = [request(base, "POST", "/api/table", {"seed": str(2**60 + 1)})[1] for _ in (0, 1)]
    assert again[0]["seed"] == str(2**60 + 1) and again[0]["question"] == again[1]["question"]
    for body, path, message in [
        ({"value": 99}, f"/api/table/{table}/choose", "is not one of"),
        ({}, f"/api/table/{table}/choose", "give your choice as value"),
        ({"value": 1}, "/api/table/nope/choose", "no game 'nope'"),
        ({"variant": "bridge"}, "/api/table", "variant 'bridge'"),
        ({"seat": "x"}, "/api/table", "seat 'x'"),
        ({"seed": "x"}, "/api/table", "seed 'x' must be a whole number"),
    ]:
        status, answer = request(base, "POST", path, body)
        assert status == 400 and message in answer["error"], (path, answer)


def test_a_bids_error_that_no_seat_mends_does_not_ask_for_the_seat(base):
    status, answer = request(base, "POST", "/api/advise", {"hand": HAND, "bids": "0:8,1:banana"})
    assert status == 400
    assert answer["error"] == "bids: seat 1's bid 'banana' is not a number or 'pass'"


def test_after_the_highest_bid_the_answer_is_pass_without_dealing(base):
    """An earlier 14 is legal: the answer is that you must pass (it was "impossible or
    too rare to sample: 0 of 50,000 deals matched")."""
    body = {"hand": HAND, "seat": 2, "bids": "0:14,1:pass"}
    status, started = request(base, "POST", "/api/advise", body)
    assert status == 200
    view = _finish(base, started["job"])
    r = view["result"]
    assert view["status"] == "done" and view["stages"] == 1 and r["call"] == "pass"
    assert r["summary"] == "Pass: 14 is the highest bid there is, so no bid is left for you."
    assert r["hands"] == 0 and r["legal_bids"] == [] and r["verdict"]


def test_an_eldest_pass_is_read_as_people_bid(base):
    """The heuristic, first to speak with any bid from 1 open, always bids: under the
    page's default bid model the eldest's pass is read with the traditional bidder
    (how people bid), and the answer says so, as the command line does; a bid model
    named is kept at every seat."""
    body = {"hand": HAND, "seat": 1, "bids": "0:pass", "precision": 0.05}
    status, started = request(base, "POST", "/api/advise", body)
    assert status == 200 and "--bids 0:pass" in started["cli"]
    assert "--bid-model" not in started["cli"]  # the command line's default does the same
    view = _finish(base, started["job"])
    assert view["status"] == "done" and view["result"]["hands"] > 0, view
    assert view["result"]["read_with"] == {"0": "traditional"}
    assert "so seat 0 bids as the traditional bidder does" in view["result"]["read_with_note"]
    status, started = request(base, "POST", "/api/advise", {**body, "bid_model": "simple"})
    assert status == 200 and "--bids 0:pass --bid-model simple" in started["cli"]
    view = _finish(base, started["job"])
    assert view["status"] == "done" and view["result"]["read_with"] == {}, view
    assert view["result"]["policies"]["bid"] == ["simple"] * 4


def test_pimc_s_command_line_plays_the_page_s_deals():
    from cinch_sim.web import queries

    q = queries.advise_query({"hand": HAND, "play": "pimc"})
    assert queries.cli_command(q).endswith(f"--play pimc --max-hands {queries.PIMC_DEALS}")
    assert queries.ADVISE_STAGES["pimc"][-1]["max_hands"] == queries.PIMC_DEALS


@pytest.mark.parametrize(
    ("pace", "asked"),
    [(2.5, [4, 16, 48]), (20.0, [4, 6]), (0.3, [4, 20, 200])],
)
def test_pimc_stages_play_the_deals_that_fit_their_time(monkeypatch, pace, asked):
    """A PIMC deal costs 0.3 s in the standard game and 20 s in no_draw: each stage plays
    as many deals as the pace of the stage before says fit in its seconds (40, then
    120), at most 20 and 200; a stage with no more deals to add keeps the last answer;
    the command line shown plays the deals of the answer it stands beside."""
    from cinch_sim import api
    from cinch_sim.web import queries

    real = api.advise
    played: list[int] = []

    def heuristic_instead(*args, **kwargs):  # PIMC's deals, at the heuristic's cost
        played.append(kwargs["max_hands"])
        return real(*args, **{**kwargs, "play": "heuristic"})

    class Clock:  # each query takes ``pace`` seconds a deal
        now = 0.0
        queries_seen = 0

        @classmethod
        def perf_counter(cls) -> float:
            if len(played) > cls.queries_seen:  # a query ran since the last reading
                cls.queries_seen = len(played)
                cls.now += pace * played[-1]
            return cls.now

    monkeypatch.setattr(api, "advise", heuristic_instead)
    monkeypatch.setattr(queries, "time", Clock)
    q = queries.advise_query({"hand": HAND, "play": "pimc"})
    answers = [stage(lambda units=0: None) for stage in queries.advise_stages(q)]
    assert played == asked
    assert answers[-1]["hands"] == asked[-1]
    assert answers[-1]["cli"].endswith(f"--max-hands {asked[-1]}")


def test_too_few_deals_are_no_verdict_and_show_no_intervals():
    """On a few deals (PIMC's) no bid is won as the maker on the 100 deals that judge it:
    the page says "no verdict yet", not the advisor's "pass", heads the table with
    the suit taking most points (not clubs, the first suit), and shows no interval
    for a bid not judged (+-37 points on four deals)."""
    from cinch_sim.api import advise
    from cinch_sim.web import queries

    few = advise(HAND, dealer=3, max_hands=40)
    assert few.call == "pass"  # the advisor's word: for want of deals
    v = queries.verdict_of(few)
    assert not v["verdict"] and v["summary"].startswith("No verdict yet: after 40 deals")
    assert "pass" not in v["summary"] and v["table_trump"] == "S"
    rows = queries.advice_rows(few)["S"]
    assert all(r["interval"] == r["ev_interval"] == "–" for r in rows if not r["judged"])
    full = advise(HAND, dealer=3)
    v = queries.verdict_of(full)
    assert v["verdict"] and v["summary"] == full.to_dict()["advice"].removeprefix("Advice: ")
    judged = [r for r in queries.advice_rows(full)["S"] if r["judged"]]
    assert judged and all(r["interval"].startswith("[") for r in judged)


def test_a_stage_without_a_verdict_says_how_to_change_the_command_shown():
    """Double-dummy's first stage plays 150 deals: with bids left open, the text says
    "the command below with --max-hands N" (the command shown is this answer's);
    under PIMC the command names its own deals, so the text says which to replace."""
    from cinch_sim.api import advise
    from cinch_sim.web import queries

    q = queries.advise_query({"hand": HAND, "seat": 0, "play": "dd"})
    first = queries.advise_stages(q)[0](lambda *a, **k: None)
    assert not first["verdict"] and "--max-hands" not in first["cli"]
    need = first["deals_needed"]
    assert f"(the command below with --max-hands {need})" in first["summary"]
    adv = advise(HAND, dealer=3, max_hands=62)
    adv.policies["play"] = ["pimc"] * 4
    v = queries.verdict_of(adv)
    assert f"the command below with --max-hands {v['deals_needed']} in place of 62" in v["summary"]


def test_some_bids_judged_and_others_open_is_no_verdict_on_those():
    from cinch_sim.api import advise
    from cinch_sim.web import queries

    adv = advise(HAND, dealer=3, max_hands=150)  # the top bids won on every deal
    v = queries.verdict_of(adv)
    assert not v["verdict"] and v["open_bids"]
    # the advice on the bids judged first (a player reads the answer, then the caveat)
    line = adv.to_dict()["advice"].removeprefix("Advice: ")
    assert v["summary"].startswith(f"{line} Not judged yet: bids ")
    assert "would judge them (the command below with --max-hands " in v["summary"]
    # under PIMC, past the deals the page plays, the page's own way on comes first
    adv.policies["play"] = ["pimc"] * 4
    v = queries.verdict_of(adv)
    need = int(v["summary"].split("about ")[1].split(" deals")[0].replace(",", ""))
    assert need > queries.PIMC_DEALS and "more than this page plays under PIMC" in v["summary"]
    assert "play 'double-dummy (perfect play)' answers on far more deals here" in v["summary"]
    page = (Path(queries.__file__).parent / "static" / "advisor.html").read_text()
    assert ">double-dummy (perfect play)</option>" in page  # the choice it names is there


def test_perfect_play_is_offered_only_where_it_can_play():
    """Under PIMC the page names double-dummy play as its way to more deals, but dd
    cannot play two decks or six seats: there only the command line is named."""
    from types import SimpleNamespace

    from cinch_sim.rules import VARIANTS
    from cinch_sim.web import queries

    def offer(variant: str) -> str:
        return queries._dd_instead(SimpleNamespace(query=SimpleNamespace(rules=VARIANTS[variant])))

    assert offer("standard").startswith("play 'double-dummy (perfect play)'") and offer("no_draw")
    assert offer("heasly") == offer("cutthroat6") == offer("two_deck") == ""


def test_one_bid_left_open_is_named_in_the_singular():
    from cinch_sim.api import advise
    from cinch_sim.cards import SUITS
    from cinch_sim.web import queries

    adv = advise(HAND, dealer=3, max_hands=150)
    v = queries.verdict_of(adv)
    s = SUITS.index(v["table_trump"])
    first, *rest = v["open_bids"]
    bids = [int(b) for b in adv.bids]
    for b in rest:  # never won: no longer open (candidate 0 is pass)
        adv.win[:, 1 + bids.index(b)] = 0
        adv.make[:, 1 + bids.index(b)] = 0
    v = queries.verdict_of(adv)
    assert v["open_bids"] == [first] and SUITS.index(v["table_trump"]) == s
    assert f" Not judged yet: bid {first}, in 150 deals it was won " in v["summary"]
    assert "deals would judge it (the command below" in v["summary"]


def test_a_move_of_the_wrong_type_or_an_earlier_one_gets_a_plain_400(base):
    status, s = request(base, "POST", "/api/table", {"variant": "standard", "seat": 0})
    table = s["table"]
    for value, message in [(None, "a bid is a whole number (0: pass), not null"),
                           (True, "a bid is a whole number (0: pass), not true")]:  # fmt: skip
        status, answer = request(base, "POST", f"/api/table/{table}/choose", {"value": value})
        assert status == 400 and answer["error"] == message
    move = s["move"]
    body = {"value": s["question"]["legal"][0], "move": move}
    status, after = request(base, "POST", f"/api/table/{table}/choose", body)
    assert status == 200 and after["move"] == move + 1
    status, answer = request(base, "POST", f"/api/table/{table}/choose", body)  # again
    assert status == 400 and "earlier question" in answer["error"]
