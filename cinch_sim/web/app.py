"""The web page's server: Flask routes over ``queries`` and ``jobs``.

Flask because it is small, well kept and needs nothing beyond the standard
library's WSGI server in a local tool; every page and script ships in
``cinch_sim/web/static`` (no CDN, no network). The routes:

- ``GET /``, ``/review``: the advisor and the hand review pages;
- ``POST /api/advise``: start an advice query (JSON: hand, seat, dealer, bids,
  variant, play, risk) for the client named by the ``X-Client`` header; answers
  ``{"job": id}``. The client's previous query is cancelled;
- ``GET /api/jobs/<id>``: the job's status and its latest (refined) answer;
  ``DELETE`` cancels it;
- ``POST /api/review``: records (JSON Lines text) solved double-dummy;
  ``POST /api/sample``: one hand from a run, as records;
- ``GET /api/variants``: the presets the pages offer;
- ``GET /play`` and ``POST /api/table`` (new game: variant, seat, bots),
  ``GET /api/table/<id>``, ``POST /api/table/<id>/choose`` (``{"value": ...,
  "move": ...}``), ``.../hint`` and ``.../next``: a game against the bots
  (``table.Table``).

A bad request is a 400 with ``{"error": message}``, a busy server a 503; no
route ever answers with a traceback.
"""

from __future__ import annotations

import logging
import secrets
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from flask import Flask, Response, jsonify, request, send_from_directory

from cinch_sim.web import queries
from cinch_sim.web.jobs import Busy, JobBoard
from cinch_sim.web.table import Table, TableError

STATIC = Path(__file__).resolve().parent / "static"
MAX_TABLES = 64  # games kept in memory; the oldest is dropped beyond


def make_app(board: JobBoard | None = None, precision: float = queries.PRECISION) -> Flask:
    """The application; ``board`` runs its long queries (a new one by default);
    ``precision``, the advice's last stage (``serve --precision``)."""
    app = Flask(__name__, static_folder=str(STATIC), static_url_path="/static")
    app.config["MAX_CONTENT_LENGTH"] = queries.MAX_RECORD_BYTES + 100_000
    jobs = board or JobBoard()
    app.extensions["cinch_jobs"] = jobs
    logging.getLogger("werkzeug").setLevel(logging.WARNING)

    def fail(message: str, status: int = 400) -> tuple[Response, int]:
        return jsonify({"error": message}), status

    def body() -> dict[str, Any]:
        return queries.body_of(request.get_data(cache=False))

    def client() -> str:
        return (request.headers.get("X-Client") or request.remote_addr or "anonymous")[:64]

    @app.errorhandler(queries.BadRequest)
    def bad_request(exc: queries.BadRequest):
        return fail(str(exc))

    @app.errorhandler(TableError)
    def bad_move(exc: TableError):
        return fail(str(exc))

    @app.errorhandler(Busy)
    def busy(exc: Busy):
        return fail(str(exc), 503)

    @app.errorhandler(404)
    def not_found(_exc):
        return fail("no such page or endpoint", 404)

    @app.errorhandler(405)
    def wrong_method(_exc):
        return fail("this endpoint does not take that method", 405)

    @app.errorhandler(413)
    def too_large(_exc):
        return fail("the request is too large", 413)

    @app.errorhandler(Exception)
    def unexpected(exc: Exception):
        app.logger.exception("unexpected error")
        return fail(f"the server could not answer: {type(exc).__name__}", 500)

    @app.get("/")
    def advisor_page():
        return send_from_directory(STATIC, "advisor.html")

    @app.get("/review")
    def review_page():
        return send_from_directory(STATIC, "review.html")

    @app.get("/play")
    def play_page():
        return send_from_directory(STATIC, "play.html")

    _game_routes(app, jobs, body)

    @app.get("/api/variants")
    def variants():
        return jsonify(queries.variants())

    @app.post("/api/advise")
    def start_advice():
        q = queries.advise_query(body(), precision)
        job = jobs.submit(client(), queries.advise_stages(q))  # Busy: a 503 (above)
        return jsonify({"job": job.id, "cli": queries.cli_command(q)})

    def job_answer(job, job_id: str):
        """A job's view, or a 404 naming the query (finished ones are kept a while)."""
        if job is None:
            return fail(f"no query {job_id!r} (finished ones are kept a while)", 404)
        return jsonify(job.view())

    @app.get("/api/jobs/<job_id>")
    def job_status(job_id: str):
        return job_answer(jobs.get(job_id), job_id)

    @app.delete("/api/jobs/<job_id>")
    def job_cancel(job_id: str):
        return job_answer(jobs.cancel(job_id), job_id)

    @app.post("/api/review")
    def review():
        return jsonify(queries.review(queries.records_of(body())))

    @app.post("/api/sample")
    def sample():
        records = queries.sample_records(body())
        return jsonify({"records": records, **queries.review(records)})

    return app


def _game_routes(app: Flask, jobs: JobBoard, body: Callable[[], dict[str, Any]]) -> None:
    """The play page's endpoints: games kept in memory (the oldest dropped beyond
    ``MAX_TABLES``), each move run on the job board's workers, one at a time a game."""
    tables: dict[str, Table] = {}
    table_lock = threading.Lock()

    def table_of(table_id: str) -> Table:
        with table_lock:
            t = tables.get(table_id)
        if t is None:
            raise TableError(f"no game {table_id!r}: start a new one")
        return t

    def run_move(table_id: str, move) -> dict[str, Any]:
        """One request's move on a game, one at a time per game, run on the job board's
        workers (a hand replayed with PIMC bots takes seconds)."""
        t = table_of(table_id)

        def locked() -> dict[str, Any]:
            with t.lock:
                return move(t)

        return jobs.call(locked)

    def on_table(table_id: str, move):
        return jsonify(run_move(table_id, move))

    @app.post("/api/table")
    def new_table():
        b = body()
        seat = b.get("seat", 0)
        t = Table(str(b.get("variant", "standard")), seat, str(b.get("bots", "heuristic")),
                  b.get("seed"))  # fmt: skip
        table_id = secrets.token_hex(8)
        with table_lock:
            tables[table_id] = t
            while len(tables) > MAX_TABLES:
                tables.pop(next(iter(tables)))
        return jsonify({"table": table_id, **run_move(table_id, lambda g: g.state())})

    @app.get("/api/table/<table_id>")
    def table_state(table_id: str):
        return on_table(table_id, lambda t: t.state())

    @app.post("/api/table/<table_id>/choose")
    def table_choose(table_id: str):
        b = body()
        if "value" not in b:
            raise TableError("give your choice as value")
        # "move": the state answered, so a double click's second answer is refused
        return on_table(table_id, lambda t: t.choose(b["value"], b.get("move")))

    @app.post("/api/table/<table_id>/hint")
    def table_hint(table_id: str):
        return on_table(table_id, lambda t: t.hint())

    @app.post("/api/table/<table_id>/next")
    def table_next(table_id: str):
        return on_table(table_id, lambda t: t.next_hand())
