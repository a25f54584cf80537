"""``cinch-sim advise``: how high can I safely bid with this hand, and in which trump?"""

from __future__ import annotations

import json

import click

from cinch_sim import notation as N
from cinch_sim.cli.files import output_file, results_on_stderr_if_stdout_taken
from cinch_sim.cli.options import (
    BadInput,
    CardsType,
    Count,
    Share,
    check_seat,
    dealer_option,
    force_option,
    format_option,
    friendly,
    policy_options_with,
    rules_option,
    run_options,
)


@click.command(short_help="Advise a bid and trump for a 9-card hand, by simulation.")
@click.argument("hand", type=CardsType())
@click.option(
    "--seat",
    type=click.IntRange(min=0),
    required=True,
    help="Your seat (0 to players - 1, clockwise; 0 and 2 are partners).",
)
@dealer_option
@click.option(
    "--bids",
    default=None,
    metavar="SEAT:BID,...",
    help="Bids made before you, from the eldest hand, e.g. '0:pass,1:9'.",
)
@click.option(
    "--known",
    multiple=True,
    metavar="SEAT:CARDS",
    help="Cards known to be in another seat's hand, e.g. '1:AH,KH' (repeatable).",
)
@click.option(
    "--risk",
    type=Share(0, 1, min_open=True),
    default=0.5,
    show_default=True,
    help="Recommend the highest legal bid made at least this often.",
)
@click.option(
    "--precision",
    type=Share(0, 0.5, min_open=True, max_open=True),
    default=0.01,
    show_default=True,
    help="Stop when every probability's 95% half-width is at most this.",
)
@click.option(
    "--max-hands",
    type=Count("max_hands", 1),
    default=200_000,
    show_default=True,
    help="Stop after this many deals (per suit) even if the precision is not reached.",
)
@click.option(
    "--per-contract",
    is_flag=True,
    help="Play every contract separately even when the policies ignore the contract.",
)
@run_options
@rules_option
@policy_options_with({"bid": "traditional"})  # read earlier bids as people bid
@format_option(
    help="How the advice prints on stdout: json, the advice and every estimate; csv, "
    "one row per trump and bid (P(make), expected score change, their intervals)."
)
@click.option(
    "--plot",
    type=click.Path(dir_okay=False, allow_dash=True),
    default=None,
    help="Also draw P(make) against bid, one line per suit, to this image file (its "
    "extension names the format: .png, .svg, .pdf, ...; '-': PNG on stdout).",
)
@force_option(files=("--plot",), out=False)
@friendly
def advise(
    hand,
    seat,
    dealer,
    bids,
    known,
    risk,
    precision,
    max_hands,
    per_contract,
    seed,
    threads,
    rules,
    policies,
    fmt,
    plot,
    force,
):
    """Advise on HAND (9 cards, e.g. "AS KS 5S 5C 2S 9H 3D 7C JD"; TS, 10S,
    10♠ and lower case all read).

    Fixes your cards, seat and dealer, deals the other 43 cards at random
    (keeping only deals where the earlier seats' bidding policies make the
    --bids given), and plays each deal with you as the maker in each trump.
    Prints P(make) for every bid and suit with 95% intervals, the expected
    score change, the chance of saving each Pedro, and the advice: the best
    trump, the highest legal bid made at least --risk of the time (and at
    0.7, "safe"), the bid with the best expected score, or pass.
    """
    from cinch_sim.advisor import AdvisorError, advice_dict, advice_table, plot_advice
    from cinch_sim.api import advise as run_advice

    check_seat("--seat", seat, rules.players)
    _check_question(hand, seat, dealer, bids, list(known), rules)
    _check_plot(plot, force)
    try:
        adv = run_advice(
            hand,
            seat,
            dealer,
            bids=bids,
            known=list(known),
            rules=rules,
            risk=risk,
            precision=precision,
            max_hands=max_hands,
            seed=seed,
            threads=threads,
            contract_aware=True if per_contract else None,
            **policies,
        )
    except AdvisorError as e:
        raise click.ClickException(str(e)) from None
    with results_on_stderr_if_stdout_taken(plot):
        if fmt == "json":
            click.echo(json.dumps(advice_dict(adv)))
        elif fmt == "csv":
            from cinch_sim.advisor.present import advice_frame

            click.echo(N.csv_text(advice_frame(adv)), nl=False)
        else:
            click.echo(advice_table(adv))
    if plot:
        plot_advice(adv, plot)


def _check_plot(plot: str | None, force: bool) -> None:
    """--plot checked before any deal: a format matplotlib writes, a path that can be
    written (a file there replaced only with --force)."""
    from cinch_sim.advisor.present import plot_format

    if plot is None:
        return
    try:
        plot_format(plot)
    except ValueError as exc:
        raise BadInput("--plot", str(exc)) from None
    output_file("--plot", plot, force)


def _check_question(hand: str, seat: int, dealer: int, bids, known: list[str], rules) -> None:
    """The question checked a part at a time, so the first bad part is a usage error
    naming its option, before any deal is simulated."""
    from cinch_sim.advisor import AdvisorError
    from cinch_sim.advisor.query import make_query
    from cinch_sim.cards import CardError

    parts = {"HAND": {}, "--bids": {"bids": bids}, "--known": {"bids": bids, "known": known}}
    for option, more in parts.items():
        try:
            make_query(hand, seat, dealer, rules=rules, **more)
        except (AdvisorError, CardError) as exc:
            message = str(exc)
            for prefix in ("bids: ", "known: ", "--known "):
                message = message.removeprefix(prefix)
            raise BadInput(option, message) from None
