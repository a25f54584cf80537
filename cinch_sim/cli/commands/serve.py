"""``cinch-sim serve``: the advisor and the hand review as a local web page."""

from __future__ import annotations

import click

from cinch_sim.cli.options import AtLeast, Share, friendly


@click.command(short_help="Serve the advisor, the hand review and a game as a web page.")
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on. The default is this machine only; another address "
    "(0.0.0.0: every network the machine is on) lets anyone who can reach it use "
    "the pages and run queries on this machine's cores (docs/web.md).",
)
@click.option(
    "--port",
    type=AtLeast("port", 0, 65535),
    default=0,
    show_default=True,
    help="Port to listen on; 0 picks a free one.",
)
@click.option("--open", "open_browser", is_flag=True, help="Open the page in the browser.")
@click.option(
    "--workers",
    type=AtLeast("workers", 1, 16),
    default=2,
    show_default=True,
    help="Queries and game moves run at once; more wait in a queue (at most 16 "
    "unfinished queries, 16 waiting moves).",
)
@click.option(
    "--precision",
    type=Share(0.005, 0.5, max_open=True),
    default=0.01,
    show_default=True,
    help="The advice's last stage: stop when every P(win the auction) and P(win and make) "
    "95% half-width is at most this (advise --precision). 0.02 answers in about a "
    "quarter of the time, on a slow machine.",
)
@friendly
def serve(host: str, port: int, open_browser: bool, workers: int, precision: float) -> None:
    """Start a local web server for players: pick nine cards and read the advice
    (refined while more deals are played), review recorded hands card by card
    against double-dummy play, or play a game against three bots with hints.
    Prints the address; Ctrl-C stops it.

    Nothing is downloaded: every page and script ships in the package.
    """
    import webbrowser

    from werkzeug.serving import make_server

    from cinch_sim.web.app import make_app
    from cinch_sim.web.jobs import JobBoard

    board = JobBoard(workers=workers)
    try:
        server = make_server(host, port, make_app(board, precision), threaded=True)
    except OSError as exc:
        raise click.ClickException(
            f"cannot listen on {host}:{port}: {exc.strerror or exc}"
        ) from None
    shown = "127.0.0.1" if host in ("0.0.0.0", "") else host
    url = f"http://{shown}:{server.server_port}/"
    click.echo(f"serving cinch_sim on {url} (Ctrl-C to stop)")
    if host not in ("127.0.0.1", "localhost", "::1"):
        click.echo(f"note: on {host}, anyone who can reach it can use the pages", err=True)
    if open_browser:
        webbrowser.open(url)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        click.echo("stopped", err=True)
    finally:
        server.server_close()
        board.shutdown()
