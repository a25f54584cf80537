"""A cinch_sim web server on the loopback, in a thread, for the web tests."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from contextlib import contextmanager
from typing import Any

from werkzeug.serving import make_server

from cinch_sim.web.app import make_app
from cinch_sim.web.jobs import JobBoard


@contextmanager
def running(precision: float = 0.01, **board: Any):
    """The server's base URL while it runs (a free port on 127.0.0.1); ``precision``,
    its advice's last stage (``serve --precision``)."""
    jobs = JobBoard(**board)
    server = make_server("127.0.0.1", 0, make_app(jobs, precision), threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()
        jobs.shutdown()


def request(
    base: str, method: str, path: str, body: Any = None, raw: bytes | None = None,
    client: str = "test",
) -> tuple[int, dict[str, Any]]:  # fmt: skip
    """(status, JSON answer) of one request; ``raw`` is sent as it is."""
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    req = urllib.request.Request(base + path, data=data, method=method)
    req.add_header("Content-Type", "application/json")
    req.add_header("X-Client", client)
    try:
        with urllib.request.urlopen(req, timeout=60) as res:
            return res.status, json.loads(res.read() or b"{}")
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read() or b"{}")
