"""``cinch-sim advise``: how high can I safely bid with this hand, and in which trump?"""

from __future__ import annotations

import json
import sys

import click
from click.core import ParameterSource

from cinch_sim import notation as N
from cinch_sim.cli.files import output_file, results_on_stderr_if_stdout_taken
from cinch_sim.cli.options import (
    BadInput,
    Count,
    SeatNumber,
    Share,
    builtin_names,
    cards_argument,
    check_seat,
    dealer_option,
    force_option,
    format_option,
    friendly,
    local_run_options,
    policy_options_with,
    rules_option,
    stopped,
)
from cinch_sim.interrupts import EXIT_STATUS


@click.command(short_help="Advise a bid and trump for a hand, by simulation.")
@cards_argument("hand")
@click.option(
    "--seat",
    type=SeatNumber("seat"),
    default=None,
    help="Your seat (0 to players - 1, clockwise; at four, 0 and 2 are partners; in "
    "cut-throat each plays alone) [default: the eldest hand, the seat after the dealer: "
    "0 with the default dealer].",
)
@dealer_option
@click.option(
    "--bids",
    default=None,
    metavar="SEAT:BID,...",
    help="Bids made before you, from the eldest hand, e.g. '0:8,1:9'; passes of "
    "seats after you may be added where known (e.g. '3:pass'). Where bidding goes "
    "in rounds (--variant auction, sancho_classic, dom_pedro_classic, or "
    "bid_rounds=auction) every call so far in the order made, your own included, up "
    "to your turn: '0:7,1:8,2:pass,3:pass'.",
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
    default=0.7,
    show_default=True,
    help="The make rate you insist on: the safe bid is the highest bid whose P(make | "
    "you are the maker) is at least RISK with 95% confidence (its lower Wilson bound).",
)
@click.option(
    "--precision",
    type=Share(0, 0.5, min_open=True, max_open=True),
    default=0.01,
    show_default=True,
    help="Stop when every P(win the auction) and P(win and make)'s 95% half-width is at most this.",
)
@click.option(
    "--max-hands",
    type=Count("max_hands", 1),
    default=200_000,
    show_default=True,
    help="Stop after this many deals even if the precision is not reached.",
)
@click.option(
    "--bid-model",
    type=click.Choice(builtin_names("bid")),
    default=None,
    help="The bidding policy of the other seats: it reads the bids before you and "
    "bids after you [default: heuristic, the simulator's, with an earlier seat whose "
    "call it never makes (a pass first to speak) bidding as traditional does; "
    "--bid-policy sets seats one by one].",
)
@local_run_options
@rules_option
@policy_options_with({})  # the simulator's defaults: heuristic everywhere
@format_option(
    help="How the advice prints on stdout: json, the advice and every estimate; csv, "
    "one row per trump and candidate bid (P(win the auction), P(make | maker), "
    "expected score changes, ev against pass, their intervals)."
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
    bid_model,
    seed,
    threads,
    rules,
    policies,
    fmt,
    plot,
    force,
):
    """Advise on HAND (the cards the preset deals: 9 in the standard game, e.g. AS KS
    5S 5C 2S 9H 3D 7C JD, quoted or not; 6 at five or six players and in the
    classic presets; 18 with two decks, a card at most twice; TS, 10S, 10♠ and
    lower case all read).

    Fixes your cards, seat and dealer, deals the rest of the pack at random
    (keeping only deals where the earlier seats' bidding policies make the
    --bids given; where under 1 deal in 100 fits them, each deal joins hands
    drawn to make each call, seat by seat), and for pass and every legal bid, in each trump, you bid
    it and the rest of the auction and the hand play out under the other
    seats' policies, on the same deals. Prints, per bid and trump, P(you
    win the auction), P(make | you are the maker) with 95% intervals and
    the expected score margin over the whole hand against passing (ev), and
    the advice: the best-EV bid (or pass), and the safe bid, the highest
    whose make rate is at least --risk with 95% confidence.

    A bid is judged only where you won the auction with it on at least 100
    deals (marked * in the table otherwise): a make rate from a handful of
    deals is no verdict. When no bid is judged, or none beats passing with
    95% confidence (the lower end of its ev interval above 0), the
    advice is pass, with the reason. The advice also names the bids the
    deals cannot tell from the best one (their paired difference's 95%
    interval reaches 0): "bids 10 and 12 are as good within the noise".

    Risk: the make rate you insist on (0.7: set at most 3 times in 10 as the
    maker); a lower risk gives a higher, bolder safe bid.

    Cost: the default query (precision 0.01, about 9,600 deals) takes about
    half a second in the standard game under the heuristic's play (measured
    in-process; from the command add a second to start, and longer with more
    players or two decks: 0.8 to 5 s). Under strong play (--play, short
    for --play-policy) the table and the sentences are the same, and the cost
    is the player's: --play dd (double-dummy, the bound of perfect play: every
    card seen) about 6 ms a deal on two cores, a minute at the default
    precision, 15 s at --precision 0.02; --play pimc about 0.4 s a deal on two
    cores in the standard game (PIMC reads the contract, so each bid is played
    out, but a deal's bids share its solves up to where their play parts):
    --max-hands 100 in under a minute; about 4 s a deal in heasly, cutthroat6
    and two_deck, 20 s in no_draw (nine tricks to solve). A long query prints
    its progress every 10 s; Ctrl-C stops it and prints the advice on the deals
    finished.
    """
    from cinch_sim.advisor import AdvisorError, advice_dict, advice_table, plot_advice
    from cinch_sim.api import advise as run_advice
    from cinch_sim.policies.registry import dd_note

    _check_hand(hand, rules)  # the hand's own error first
    if seat is not None:
        check_seat("--seat", seat, rules.players)
    if bid_model is not None:
        ctx = click.get_current_context()
        if ctx.get_parameter_source("bid_policy") not in (None, ParameterSource.DEFAULT):
            raise BadInput("--bid-model", "give --bid-model or --bid-policy, not both")
    _check_question(hand, seat, dealer, bids, list(known), rules)
    _check_plot(plot, force)
    from cinch_sim.cli.progress import Progress

    # a line every 10 s on stderr: the heuristic's query ends before the first one
    bar = Progress(None, "advising", unit="deals", threshold=10**12)
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
            progress=bar,
            bid_model=bid_model,  # named: the default alone lets a seat's odd call fall back
            **policies,
        )
    except AdvisorError as e:
        raise click.ClickException(str(e)) from None
    finally:
        bar.close()
    with results_on_stderr_if_stdout_taken(plot):
        if fmt == "json":
            click.echo(json.dumps(advice_dict(adv)))
        elif fmt == "csv":
            from cinch_sim.advisor.present import advice_frame

            click.echo(N.csv_text(advice_frame(adv)), nl=False)
        else:
            click.echo(advice_table(adv))
            note = dd_note(adv.policies)
            if note:  # the advice is under perfect play: say so
                click.echo(f"note: {note}")
    if plot:
        plot_advice(adv, plot)
    if adv.interrupted:
        stopped(f"advice on the {adv.hands:,} finished deals", None)
        sys.exit(EXIT_STATUS)


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


def _check_hand(hand: str, rules) -> None:
    """The hand alone: its size and its cards, a usage error naming HAND."""
    from cinch_sim.advisor.query import hand_cards
    from cinch_sim.cards import CardError

    try:
        hand_cards(hand, rules)
    except CardError as exc:
        raise BadInput("HAND", str(exc)) from None


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
