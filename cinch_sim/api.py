"""The plain Python API: the calls the command line makes, for scripts and notebooks.

One function per command: ``simulate``, ``stats``, ``advise``, ``compare``,
``ladder``, ``report`` (also ``strategy_report``) and ``referee``; ``card_values``
is ``stats --card-values``. They take
what the options take, by the same names (``hands``, ``seed``, ``dealer``,
``rules={"robber": "dealer"}``, ``play={0: "greedy"}``, ``variant="sancho"``
for a preset of the rules, ``rules`` then on top of it), refuse bad values
with the command line's words as a ``ValueError`` naming the argument, and
return a result that prints as a line or two of headline numbers, shows as a
table in a notebook and gives its tables as DataFrames (``.table(name)``).
``import cinch_sim`` offers the same names (``cinch_sim.simulate``) without
loading anything heavy until one is used. docs/api.md is the guide.

The matches (scipy) and the report are imported when first called, so
``cinch-sim simulate`` does not pay for them.
"""

from __future__ import annotations

import numbers
import os
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

from cinch_sim import checks, interrupts
from cinch_sim import notation as N
from cinch_sim.analysis.analyse import Analysis
from cinch_sim.analysis.counts import HandCounts
from cinch_sim.analysis.intervals import FEW_HANDS
from cinch_sim.engine.run import PolicySpec, iter_chunks, prepare_run  # noqa: F401 (re-exported)
from cinch_sim.rules import PRESET_BY_NAME, Rules, RulesError, make_rules, resolve_rules
from cinch_sim.runs.chunks import match_chunk
from cinch_sim.runs.driver import execute
from cinch_sim.runs.hands import count_run, plan_hands
from cinch_sim.runs.store import ChunkStore, open_store
from cinch_sim.runs.work import (
    LadderRun,
    MatchRun,
    play_ladder,
    play_match,
)
from cinch_sim.views import Tables, no_nan

if TYPE_CHECKING:
    import pandas as pd

    from cinch_sim.advisor.estimate import Advice
    from cinch_sim.analysis.card_values import CardValues
    from cinch_sim.matches.compare import Comparison
    from cinch_sim.matches.cutthroat import CutThroatComparison
    from cinch_sim.matches.ladder import Ladder
    from cinch_sim.policies.strategies import Strategy
    from cinch_sim.records.io import RefereeReport
    from cinch_sim.records.review import SolveReport
    from cinch_sim.report.render import Report

__all__ = [
    "Advice",
    "Analysis",
    "Comparison",
    "CutThroatComparison",
    "InputError",
    "Ladder",
    "RefereeReport",
    "Report",
    "SolveReport",
    "Rules",
    "Simulation",
    "CardValues",
    "advise",
    "analyse",
    "card_values",
    "compare",
    "ladder",
    "merge",
    "referee",
    "report",
    "resolve_rules",
    "simulate",
    "solve",
    "stats",
    "strategy_report",
    "variants",
]

InputError = checks.InputError

# results whose modules load pandas, scipy or matplotlib: imported on first use, so
# that ``cinch-sim simulate`` starts without them (issue 34)
_LAZY = {
    "Advice": "cinch_sim.advisor.estimate",
    "CardValues": "cinch_sim.analysis.card_values",
    "RefereeReport": "cinch_sim.records.io",
    "SolveReport": "cinch_sim.records.review",
    "Comparison": "cinch_sim.matches.compare",
    "CutThroatComparison": "cinch_sim.matches.cutthroat",
    "Ladder": "cinch_sim.matches.ladder",
    "Report": "cinch_sim.report.render",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'cinch_sim.api' has no attribute {name!r}")


def _rules(rules: Rules | dict[str, Any] | None, variant: str | None = None) -> Rules:
    """The rules of a call: ``variant`` (a preset's name, docs/rules.md §3) with ``rules``
    (its options as a dict) on top, or a Rules object on its own."""
    _check_rule_options(rules)
    if variant is None:
        with checks.named("rules", RulesError):
            return resolve_rules(rules)
    with checks.named("variant", RulesError):
        if isinstance(rules, Rules):
            raise RulesError("give a Rules object or a variant with options, not both")
        return make_rules(variant, dict(rules or {}))


def _check_rule_options(rules: object) -> None:
    """Refuse ``rules`` that is neither a Rules, a dict of options nor None, in one line
    saying what to pass: a string was read letter by letter (``dict("robber=dealer")``)."""
    if rules is None or isinstance(rules, Rules | Mapping):
        return
    if isinstance(rules, str) and rules.strip() in PRESET_BY_NAME:
        why = f"{rules!r} is a preset: give it as variant={rules.strip()!r}"
    elif isinstance(rules, str):
        why = f"{rules!r} is text, not a dict of options: pass {_as_dict(rules)}"
    else:
        why = f"{rules!r} is not a dict of options or a Rules, e.g. {{'robber': 'dealer'}}"
    raise InputError("rules", why)


def _as_dict(text: str) -> str:
    """``"robber=dealer target=21"`` as the dict it means, for the message refusing it."""
    pairs = [t.split("=", 1) for t in text.replace(",", " ").split() if "=" in t]
    if not pairs:
        return "options as a dict, e.g. {'robber': 'dealer'} (a preset as variant=)"
    return repr({k: checks.from_text(v) for k, v in pairs})


def _check_record_source(source: object) -> None:
    """Records come from a file name or an iterable of record dicts, nothing else."""
    if isinstance(source, str | os.PathLike):
        return
    if isinstance(source, bytes | Mapping) or not isinstance(source, Iterable):
        raise InputError(
            "source", f"{source!r:.60} is not a file name or an iterable of record dicts"
        )


def match_pairing(r: Rules, pairing: str) -> None:
    """Refuse a two-side pairing other than the default for a cut-throat match (more
    than two sides): it has one way to seat the strategies, the rotation."""
    if r.teams > 2 and pairing != "swap":
        raise InputError(
            "pairing",
            f"{pairing} is for two sides; {r.preset} has {r.teams}, and its match rotates "
            "strategy A through every seat (leave pairing out)",
        )


@contextmanager
def _output(name: str, value: object = None) -> Iterator[None]:
    """An output path (``value``, checked to be one) that cannot be written, refused
    before the work in the command line's words (cinch_sim.outputs), with the
    argument's name in front."""
    from cinch_sim.outputs import OutputError

    checks.path(value, name)
    try:
        yield
    except OutputError as exc:
        raise OutputError(f"{name}: {str(exc).replace('--force', 'force=True')}") from None


# ----------------------------------------------------------------- simulate
@dataclass(repr=False)
class Simulation(Tables):
    """What a simulation run produced: the counts and every setting that made it
    (``.table()``: make rate by bid; ``.table("pedros")``: who took each Pedro)."""

    settings: dict[str, Any]
    counts: HandCounts
    seconds: float = 0.0
    interrupted: bool = False
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def hands(self) -> int:
        return self.counts.hands

    def by_bid(self) -> pd.DataFrame:
        from cinch_sim.analysis.tables import bid_summary

        return bid_summary(self.counts)

    def pedros(self) -> pd.DataFrame:
        from cinch_sim.analysis.tables import pedro_sides

        return pedro_sides(self.counts)

    def table_names(self) -> tuple[str, ...]:
        return ("by_bid", "pedros")

    def _table(self, name: str) -> pd.DataFrame:
        return self.by_bid() if name == "by_bid" else self.pedros()

    def headline(self) -> str:
        c = self.counts
        return (
            f"Simulation: {c.hands:,} hands, {N.seeds(self.settings)}, dealer seat "
            f"{self.settings['dealer']}; {c.contracts_line()}"
        )

    def notes(self) -> list[str]:
        from cinch_sim.policies.registry import dd_note

        note = dd_note(self.settings.get("policies") or {})
        return [note] if note else []

    def to_dict(self) -> dict[str, Any]:
        """Settings, counts and both tables as strict JSON: the passed-out row's make
        rate (no contract to make) is None, not NaN (``views.no_nan``)."""
        d = dict(self.settings)
        d["hands"] = self.counts.hands
        d["hands_requested"] = self.settings["hands"]
        d["interrupted"] = self.interrupted
        d["seconds"] = round(self.seconds, 3)
        d["thrown_in"] = self.counts.thrown_in
        d["contracts"] = self.counts.contracts
        d["contracts_made"] = self.counts.contracts_made
        d["by_bid"] = self.by_bid().to_dict(orient="records")
        d["pedros"] = self.pedros().to_dict(orient="records")
        return no_nan(d)


def simulate(
    hands: int = 100_000,
    seed: int = 0,
    rules: Rules | dict[str, Any] | None = None,
    bid: PolicySpec = "heuristic",
    trump: PolicySpec = "heuristic",
    discard: PolicySpec = "heuristic",
    play: PolicySpec = "heuristic",
    dealer: int | None = None,
    threads: int | None = None,
    chunk: int | None = None,
    records: str | os.PathLike | None = None,
    progress: Callable[[int], None] | None = None,
    on_chunk: Callable[[Any, Any], None] | None = None,
    trace: bool = False,
    variant: str | None = None,
    save: str | os.PathLike | None = None,
    resume: str | os.PathLike | None = None,
    force: bool = False,
    scheduler: str | None = None,
    workers: int | None = None,
) -> Simulation:
    """Play ``hands`` independent hands and tally bid success and Pedro capture
    (``cinch-sim simulate``).

    ``bid``, ``trump``, ``discard`` and ``play`` name a policy for every seat
    (``"greedy"``), some seats (``{0: "greedy"}``; the others keep the
    heuristic) or one per seat (a list). ``records`` writes every hand as a
    ``cinch-hand/1`` record to that file. The same seed gives the same numbers
    whatever ``threads`` and ``chunk`` are (hands a chunk: 65,536 unless given; 256
    where a seat plays pimc or dd). Ctrl-C between chunks stops the run
    and keeps what was finished (``interrupted`` is then true);
    ``on_chunk(rows, trace)`` sees every chunk. ``save`` names a folder where each
    finished chunk's counts and a manifest are kept as the run goes (one holding
    files only with ``force``); ``resume`` names such a folder and continues its run
    (the same settings, or an ``InputError`` naming the one that differs), giving
    exactly the numbers of a run never stopped (docs/long-runs.md). ``scheduler``
    (an address) or ``workers`` (a count: a local cluster started for the run) send
    the chunks to a Dask cluster, for the same numbers; ``records``, ``on_chunk`` and
    ``trace`` are then refused (they need every chunk's rows here).

    >>> sim = simulate(hands=2000, seed=1, play={0: "greedy"})
    >>> sim.hands
    2000
    >>> sim.settings["policies"]["play"]
    ['greedy', 'heuristic', 'heuristic', 'heuristic']
    >>> list(sim.table().columns[:3]), len(sim.table("pedros")) > 0
    (['bid', 'hands', 'made'], True)
    >>> simulate(hands=1000.0)
    Traceback (most recent call last):
    ...
    cinch_sim.checks.InputError: hands: 1000.0 is not a positive whole number
    """
    rules = _rules(rules, variant)
    dealer = rules.players - 1 if dealer is None else dealer  # the last seat
    run, settings = plan_hands(hands, seed, rules, dealer, (bid, trump, discard, play), chunk,
                               trace or records is not None)  # fmt: skip
    _not_chunked(resume, records=records)
    _cluster(scheduler, workers, threads, records=records, on_chunk=on_chunk, trace=trace)
    store = _store("simulate", settings, run, save, resume, force)
    writer = None
    if records is not None:
        from cinch_sim.records import RecordWriter

        with _output("records", records):  # opened now: a bad path fails before any work
            writer = RecordWriter(records, run.rules, run.dealer)
    start = time.perf_counter()
    counts, interrupted, timing = count_run(run, store, threads, progress, writer, on_chunk,
                                            scheduler, workers)  # fmt: skip
    extra = {"records": str(records)} if records is not None else {}
    if store is not None:
        extra["saved"] = str(store.folder)
    settings = {**settings, **timing}  # a cluster's timing (not in the store's settings)
    return Simulation(settings, counts, _seconds(store, start), interrupted, extra)


# chunked runs (cinch_sim.runs): what the commands below share
NOT_CHUNKED = (
    "per-hand files are not kept in chunks, so a resumed run cannot write them; leave "
    "it out to resume (the counts resume whole)"
)


def _not_chunked(resume: object, **outputs: object) -> None:
    """Refuse per-hand outputs with ``resume``, in one line naming the output."""
    if resume is None:
        return
    for name, value in outputs.items():
        if value:
            raise InputError(name, NOT_CHUNKED)


def _store(
    command: str,
    settings: dict[str, Any],
    run: Any,
    save: str | os.PathLike | None,
    resume: str | os.PathLike | None,
    force: bool,
    **shown: Any,
) -> ChunkStore | None:
    """The run's chunk store (``save``: a new one, ``resume``: an earlier one whose
    settings must be these), opened before any work; None without either."""
    checks.path(save, "save")
    checks.path(resume, "resume")
    checks.flag(force, "force")
    head = {
        "format": "cinch-run/1",
        "command": command,
        "settings": settings,
        "shown": shown,  # what only the tables' shape depends on (stats --by)
        "chunk": run.chunk,
        "units": run.units,
    }
    with _output("save"):
        return open_store(head, run.keys(), save, resume, force)


def _seconds(store: ChunkStore | None, start: float) -> float:
    """The run's time: with a store, over every sitting (``ChunkStore.seconds``);
    else since ``start``."""
    return store.seconds() if store is not None else time.perf_counter() - start


LOCAL_ONLY = (
    "per-hand outputs are written by a local run only; leave out scheduler and workers "
    "(the counts run on a cluster)"
)


def _cluster(scheduler: str | None, workers: int | None, threads: int | None,
             **local: object) -> bool:  # fmt: skip
    """Check the cluster options before any work (one-line InputErrors naming the
    option) and refuse the per-hand outputs with them; true for a cluster run."""
    checks.callback(local.get("on_chunk"), "on_chunk")
    if scheduler is None and workers is None:
        return False
    from cinch_sim.runs.dask_executor import check_cluster

    check_cluster(scheduler, workers, threads)
    for name, value in local.items():
        if value:
            raise InputError(name, LOCAL_ONLY)
    return True


# -------------------------------------------------------------------- stats
def stats(
    hands: int = 100_000,
    seed: int = 0,
    rules: Rules | dict[str, Any] | None = None,
    bid: PolicySpec = "heuristic",
    trump: PolicySpec = "heuristic",
    discard: PolicySpec = "heuristic",
    play: PolicySpec = "heuristic",
    dealer: int | None = None,
    by: Sequence[str] | str = ("trumps",),
    min_hands: int = FEW_HANDS,
    threads: int | None = None,
    chunk: int | None = None,
    hand_data: str | os.PathLike | None = None,
    progress: Callable[[int], None] | None = None,
    on_chunk: Callable[[Any, Any], None] | None = None,
    variant: str | None = None,
    save: str | os.PathLike | None = None,
    resume: str | os.PathLike | None = None,
    force: bool = False,
    scheduler: str | None = None,
    workers: int | None = None,
) -> Analysis:
    """Play ``hands`` hands and count bid success and Pedro capture by what the maker
    held (``cinch-sim stats``).

    ``by`` names the hand features (seat, trumps, pedros, high, ace, honours) of
    the "make rate for each bid given the hand" table; rows with fewer than
    ``min_hands`` hands are flagged ``low_n``; ``hand_data`` streams one row per
    hand to a Parquet file (needs pyarrow). Policies, ``save``, ``resume``,
    ``force``, ``scheduler`` and ``workers`` as in ``simulate``. The result's
    ``.table(name)`` is any of ``.table_names()`` and ``.figures()`` draws the charts.

    >>> a = stats(hands=2000, seed=1, by="pedros")
    >>> a.hands, a.table_names()[0]
    (2000, 'make_rate_by_bid')
    >>> a.table("make_rate_by_hand_and_bid").columns[0]
    'pedros'
    """
    from cinch_sim.analysis.counts import AnalysisError, check_features

    rules = _rules(rules, variant)
    dealer = rules.players - 1 if dealer is None else dealer  # the last seat
    try:
        if not isinstance(by, str) and not (
            isinstance(by, Iterable) and all(isinstance(f, str) for f in by)
        ):
            raise AnalysisError(f"{by!r} is not a feature's name or a list of them")
        by = check_features(by)
    except AnalysisError as exc:  # named as the argument, as everywhere in the API
        raise AnalysisError(f"by: {exc}") from None
    if isinstance(min_hands, bool) or not isinstance(min_hands, numbers.Integral):
        raise AnalysisError(f"min_hands: {min_hands!r} is not a whole number")
    if min_hands < 1:
        raise AnalysisError(f"min_hands: must be at least 1, got {min_hands}")
    run, settings = plan_hands(hands, seed, rules, dealer, (bid, trump, discard, play), chunk)
    _not_chunked(resume, hand_data=hand_data)
    _cluster(scheduler, workers, threads, hand_data=hand_data, on_chunk=on_chunk)
    store = _store("stats", settings, run, save, resume, force, by=list(by), min_hands=min_hands)
    writer = None
    if hand_data is not None:
        from cinch_sim.analysis.hand_rows import HandDataWriter

        with _output("hand_data", hand_data):
            writer = HandDataWriter(hand_data, run.rules, settings)
    start = time.perf_counter()
    counts, interrupted, timing = count_run(run, store, threads, progress, writer, on_chunk,
                                            scheduler, workers)  # fmt: skip
    extra = {"hand_data": str(hand_data)} if hand_data is not None else {}
    if store is not None:
        extra["saved"] = str(store.folder)
    settings = {**settings, **timing}
    return Analysis(settings, counts, by, min_hands, _seconds(store, start), interrupted, extra)


analyse = stats  # the name the API had first


def card_values(
    hands: int = 20_000,
    seed: int = 0,
    rules: Rules | dict[str, Any] | None = None,
    bid: PolicySpec = "heuristic",
    trump: PolicySpec = "heuristic",
    discard: PolicySpec = "heuristic",
    play: PolicySpec = "heuristic",
    dealer: int | None = None,
    replacement: str = "trump",
    threads: int | None = None,
    progress: Callable[[int], None] | None = None,
    variant: str | None = None,
) -> CardValues:
    """What each high trump, point card and the Pedro pair is worth to the maker, by
    controlled experiment (``cinch-sim stats --card-values``).

    Plays ``hands`` hands; every deal whose maker was dealt a tested card is
    replayed with the contract forced, as dealt and with the card swapped for
    ``replacement`` (``"trump"``: the lowest trump he was not dealt that is no
    point card; ``"plain"``: the lowest non-trump), on the same random streams.
    ``.table()`` has one row per card: ``value`` is the mean paired difference in
    the maker's side's points (``lo``, ``hi``: the paired 95% interval), with
    the same for making the contract and the score change;
    ``.table("card_values_by_bid")`` the make rate at each bid. Ctrl-C between
    chunks keeps the finished deals (``interrupted``).

    >>> cv = card_values(hands=500, seed=1)
    >>> row = cv.table().set_index("card").loc["Right Pedro"]
    >>> bool(row["lo"] <= row["value"] <= row["hi"]), cv.table_names()
    (True, ('card_values', 'card_values_by_bid'))
    """
    rules = _rules(rules, variant)
    dealer = rules.players - 1 if dealer is None else dealer  # the last seat
    from cinch_sim.analysis.card_values import REPLACEMENTS
    from cinch_sim.analysis.card_values import card_values as _card_values

    if replacement not in REPLACEMENTS:
        raise checks.InputError("replacement", f"{replacement!r} is not one of "
                                f"{', '.join(REPLACEMENTS)}")  # fmt: skip
    r, policies, settings = prepare_run(hands, seed, rules, dealer, bid, trump, discard, play)
    return _card_values(
        settings["hands"], settings["seed"], r, policies, settings, settings["dealer"],
        replacement, threads, progress,
    )  # fmt: skip


# ------------------------------------------------------------------- advise
def advise(
    hand: str | Sequence,
    seat: int | None = None,
    dealer: int | None = None,
    bids: str | Sequence | Mapping[int, int | str] | None = None,
    known: Iterable[str] | str | dict | None = None,
    rules: Rules | dict[str, Any] | None = None,
    bid: PolicySpec = "heuristic",
    trump: PolicySpec = "heuristic",
    discard: PolicySpec = "heuristic",
    play: PolicySpec = "heuristic",
    risk: float = 0.7,
    precision: float = 0.01,
    max_hands: int = 200_000,
    seed: int = 0,
    threads: int | None = None,
    bid_model: str | None = None,
    variant: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> Advice:
    """How high to bid with nine cards, in which trump (``cinch-sim advise``).

    Fixes ``hand`` (``"AS KS 5S ..."``, or card numbers) at ``seat``, deals the
    other cards at random many times (keeping deals where the earlier seats'
    bidding policies make the ``bids`` given, e.g. ``"0:8,1:9"`` or ``{0: 8, 1: 9}``,
    and where later seats pass if given, e.g. ``"3:pass"``; ``known`` cards, e.g.
    ``["1:AH,KH"]``, stay with their seat). For pass and every legal bid, in each
    trump, you bid it and the auction and the hand play out under the other
    seats' policies (``bid_model``, or ``bid`` seat by seat: heuristic, the
    simulator's default; left at the default, an earlier seat whose call the
    heuristic never makes, such as a pass first to speak, bids as ``traditional``
    does, and ``read_with`` says so), on the same deals. Stops when every P(win) and P(win
    and make) 95% half-width is at most ``precision``, or after ``max_hands``
    deals. ``seat`` None: the eldest hand (the seat after the dealer). ``call`` is
    the advice, a bid or ``"pass"`` (``pass_reason`` says why); ``best_trump`` a
    suit letter; ``best_ev_bid`` the bid with the best expected margin against
    passing (None: pass); ``safe_bid`` the highest bid whose P(make | maker) is at
    least ``risk`` with 95% confidence. Only bids the seat won the auction with on
    at least 100 deals are advised, best or safe. ``progress(n)`` is told of the
    deals as they are played.
    ``.table()`` has one row per trump and candidate, ``.table("suits")`` one per
    trump, ``.to_dict()`` the JSON.

    >>> adv = advise("AS KS 5S 5C 2S 9H 3D 7C JD", seat=0, max_hands=2000)
    >>> adv.best_trump, adv.hands
    ('S', 2000)
    >>> adv.to_dict()["best_trump"] == adv.table("suits").query("best")["trump"].item()
    True
    """
    rules = _rules(rules, variant)
    dealer = rules.players - 1 if dealer is None else dealer  # the last seat
    from cinch_sim.advisor import advise as _advise
    from cinch_sim.advisor.estimate import BID_MODEL, FALLBACK_BIDDER
    from cinch_sim.advisor.query import hand_cards
    from cinch_sim.cards import CardError

    seed = checks.seed(seed)
    max_hands = checks.count(max_hands, "max_hands")
    r = _rules(rules)
    try:  # the hand's own error first, named as the argument
        hand_cards(hand, r)
    except CardError as exc:
        raise CardError(f"hand: {exc}") from None
    dealer = checks.seat(dealer, r.players, "dealer")
    seat = None if seat is None else checks.seat(seat, r.players, "seat")
    return _advise(
        hand,
        seat,
        dealer,
        bids=bids,
        known=known,
        rules=r,
        bid=bid if bid_model is None else bid_model,
        # the default bidder never makes some calls (a pass first to speak): a seat that
        # made one bids as people do, and the advice says so
        fallback_bidder=FALLBACK_BIDDER if bid_model is None and _every(bid, BID_MODEL) else None,
        trump=trump,
        discard=discard,
        play=play,
        risk=risk,
        precision=precision,
        max_hands=max_hands,
        seed=seed,
        threads=threads,
        progress=progress,
    )


def _every(spec: PolicySpec, name: str) -> bool:
    """Whether a policy spec is ``name`` at every seat (one name, or one per seat)."""
    if isinstance(spec, str):
        return spec == name
    specs = spec.values() if isinstance(spec, dict) else spec
    return all(isinstance(x, str) and x == name for x in specs)


# ---------------------------------------------------------- compare, ladder
def compare(
    a: str | Strategy,
    b: str | Strategy,
    games: int = 1000,
    seed: int = 0,
    rules: Rules | dict[str, Any] | None = None,
    max_hands: int = 256,
    pairing: str = "swap",
    threads: int | None = None,
    records: str | os.PathLike | None = None,
    progress: Callable[[int], None] | None = None,
    on_chunk: Callable[[Any], None] | None = None,
    trace: bool = False,
    variant: str | None = None,
    chunk: int | None = None,
    save: str | os.PathLike | None = None,
    resume: str | os.PathLike | None = None,
    force: bool = False,
    scheduler: str | None = None,
    workers: int | None = None,
    until: str | None = None,
) -> Comparison | CutThroatComparison:
    """Strategy ``a`` against ``b`` in duplicate games to the target (``cinch-sim
    compare``): every deal sequence is played twice, the strategies trading places, so
    ``games`` is rounded up to whole pairs (``games=1`` plays 2).

    With more than two sides (cut-throat, 3 to 6 players) every deal sequence is
    played once per seat, ``a`` in that seat and ``b`` in all the others, and the
    result is a ``CutThroatComparison``: ``a``'s share of the wins against the fair
    share 1/players, with its interval over rotations (``games`` rounded up to
    whole rotations; ``pairing`` must stay ``swap``). docs/statistics.md says how
    to read it.

    A strategy is a built-in bundle (``random``, ``simple``, ``greedy``, ``heuristic``,
    ..., every name of ``policies.strategies.BUILTIN`` but ``dd``) or a TOML file. A
    game still going after ``max_hands`` hands is unfinished; ``pairing`` is
    ``swap`` or ``rotate``; ``records`` writes every game as a ``cinch-game/1``
    record. ``chunk`` pairs (rotations) are played at a time (1,000 unless given; 16
    where a strategy plays pimc); ``save``, ``resume``,
    ``force``, ``scheduler`` and ``workers`` as in ``simulate``. ``.summary()`` holds
    the win rate of ``a`` and the points per hand difference with their 95% intervals;
    ``.table()`` each side's bids and Pedros, ``.table("games")`` one row per game.

    ``until="decided"`` stops the match early, at a look every ``UNTIL_LOOK_PAIRS``
    pairs (its chunks), once the always-valid 95% confidence sequence of A's win
    rate excludes 50% (``matches.compare.decided``; two sides only): a clear
    answer in a fraction of ``games``, and no more wrong answers than 5% however
    early it stops. ``games`` is then the most it plays; after an early stop the
    repr shows that always-valid interval and says so (``win_rate_sequence_ci``).

    >>> cmp = compare("greedy", "random", games=20, seed=1)
    >>> cmp.games, list(cmp.table()["strategy"])
    (20, ['greedy', 'random'])
    >>> len(cmp.table("games"))
    20
    """
    rules = _rules(rules, variant)
    match_pairing(rules, pairing)
    from cinch_sim.matches.compare import (
        Comparison,
        check_match,
        check_until,
        decided,
        match_settings,
    )
    from cinch_sim.matches.cutthroat import CutThroatComparison
    from cinch_sim.policies.strategies import distinct_names

    games = checks.count(games, "games")
    seed = checks.seed(seed)
    max_hands = checks.whole(max_hands, "max_hands", 1, checks.MAX_GAME_HANDS)
    r = _rules(rules)
    check_match(r, games, pairing)
    if chunk is not None:
        chunk = checks.whole(chunk, "chunk", at_least=1)
    chunk = check_until(until, r, chunk)
    sa, sb = distinct_names([_strategy(a, "a"), _strategy(b, "b")])
    chunk = match_chunk(chunk, r, (sa, sb))
    _not_chunked(resume, records=records)
    _cluster(scheduler, workers, threads, records=records, on_chunk=on_chunk, trace=trace)
    settings = match_settings(r, sa, sb, games, seed, max_hands, pairing, until)
    run = MatchRun(r, sa, sb, seed, games, max_hands, pairing, chunk, trace or records is not None)
    store = _store("compare", settings, run, save, resume, force)
    writer, write_games = _game_writer(records, r)

    def see(ch: Any) -> None:
        if write_games is not None:
            write_games(ch)
        if on_chunk is not None:
            on_chunk(ch)

    hook = see if writer is not None or on_chunk is not None else None
    start = time.perf_counter()
    with _closed_at_the_end(writer):
        data, interrupted, timing = execute(run, partial(play_match, run, on_chunk=hook), store,
                                         threads, progress, scheduler, workers,
                                         stop=decided if until else None)  # fmt: skip
    seconds = _seconds(store, start)
    settings = {**settings, **timing}
    if run.cutthroat:
        return CutThroatComparison(sa, sb, settings, data, r, seconds, interrupted)
    return Comparison(sa, sb, settings, data, seconds, interrupted, 0.95, r)


def _game_writer(
    records: str | os.PathLike | None, r: Rules
) -> tuple[Any, Callable[[Any], None] | None]:
    """A match's ``cinch-game/1`` record file (opened now: a bad path fails before any
    work) and the function that writes a played chunk's games to it; (None, None)
    without ``records``."""
    if records is None:
        return None, None
    from cinch_sim.matches.play import game_records
    from cinch_sim.matches.rotation import rotation_records
    from cinch_sim.records import RecordWriter

    with _output("records", records):
        writer = RecordWriter(records, r)
    to_records = rotation_records if r.teams > 2 else game_records

    def write_games(ch: Any) -> None:
        for rec in to_records(r, ch):
            writer.write(rec)

    return writer, write_games


@contextmanager
def _closed_at_the_end(writer: Any) -> Iterator[None]:
    """A match's record file closed when its games are played or, when the run fails,
    dropped (``RecordWriter.abort``: nothing half-written at its path); None: no file."""
    try:
        yield
    except BaseException:
        if writer is not None:
            writer.abort()
        raise
    if writer is not None:
        writer.close()


def ladder(
    strategies: Sequence[str | Strategy],
    games: int = 1000,
    seed: int = 0,
    rules: Rules | dict[str, Any] | None = None,
    max_hands: int = 256,
    pairing: str = "swap",
    threads: int | None = None,
    progress: Callable[[int], None] | None = None,
    bootstrap: int = checks.LADDER_BOOTSTRAP,
    variant: str | None = None,
    chunk: int | None = None,
    save: str | os.PathLike | None = None,
    resume: str | os.PathLike | None = None,
    force: bool = False,
    scheduler: str | None = None,
    workers: int | None = None,
    records: str | os.PathLike | None = None,
) -> Ladder:
    """Every pair of ``strategies`` in a duplicate match of ``games`` games, rated
    together (Bradley-Terry on the Elo scale, 95% bootstrap intervals over
    ``bootstrap`` resamples on each rating and on its difference from the best;
    ``cinch-sim ladder``).

    ``.table()`` is the ratings, best first (``.table("ladder")`` too: the command
    line's name); ``.table("matchups")`` every match's win rate and points per hand
    difference; ``.to_dict()`` what ``--format json`` prints. ``games`` is rounded up to
    whole pairs (rotations), as in ``compare``. With more than two sides
    every ordered pair plays a cut-throat match (``compare``), both ways round,
    and the ratings are the Luce model's (Bradley-Terry for a winner among many;
    docs/statistics.md). ``chunk``, ``save``, ``resume``, ``force``, ``scheduler`` and
    ``workers`` as in ``compare``; every matchup's chunks are chunks of the one run.
    ``records`` writes every game as a ``cinch-game/1`` record, matchup by matchup in
    the order of ``.table("matchups")``, each as ``compare`` writes its games.

    >>> lad = ladder(["greedy", "random"], games=20, seed=1, bootstrap=20)
    >>> sorted(lad.table()["strategy"]), len(lad.table("matchups"))
    (['greedy', 'random'], 1)
    """
    rules = _rules(rules, variant)
    match_pairing(rules, pairing)
    from cinch_sim.matches.compare import check_match
    from cinch_sim.matches.ladder import ladder_settings, matchup_order
    from cinch_sim.policies.strategies import distinct_names

    games = checks.count(games, "games")
    seed = checks.seed(seed)
    bootstrap = checks.whole(bootstrap, "bootstrap", at_least=0)
    max_hands = checks.whole(max_hands, "max_hands", 1, checks.MAX_GAME_HANDS)
    r = _rules(rules)
    strats = distinct_names(
        [_strategy(s, f"strategies[{i}]") for i, s in enumerate(_listed(strategies))]
    )
    if chunk is not None:  # else each matchup its own default (LadderRun)
        chunk = checks.whole(chunk, "chunk", at_least=1)
    if len(strats) < 2:
        raise InputError("strategies", "a ladder needs at least two strategies")
    check_match(r, games, pairing)
    settings = ladder_settings(r, strats, games, seed, max_hands, pairing, bootstrap)
    order = tuple(matchup_order(r, len(strats)))
    _not_chunked(resume, records=records)
    _cluster(scheduler, workers, threads, records=records)
    run = LadderRun(r, tuple(strats), seed, games, max_hands, pairing, chunk, order,
                    trace=records is not None)  # fmt: skip
    store = _store("ladder", settings, run, save, resume, force)
    writer, write_games = _game_writer(records, r)
    start = time.perf_counter()
    with _closed_at_the_end(writer):
        per_matchup, interrupted, timing = execute(
            run, partial(play_ladder, run, on_chunk=write_games), store, threads, progress,
            scheduler, workers,
        )  # fmt: skip
    seconds = _seconds(store, start)
    settings = {**settings, **timing}
    return ladder_of(run, settings, per_matchup, bootstrap, seconds, interrupted)


def _strategy(value: object, name: str) -> Any:
    """One side of a match: a strategy's name, a .toml file or a Strategy, its errors
    named as the argument (``b: unknown strategy 'nope'``)."""
    from cinch_sim.policies.strategies import (
        Strategy,
        StrategyError,
        resolve_player,
    )

    if isinstance(value, os.PathLike):
        value = os.fspath(value)
    if not isinstance(value, (str, Strategy)):
        raise StrategyError(
            f"{name}: {value!r} is not a strategy (a built-in's name, a .toml file or a Strategy)"
        )
    with checks.named(name, StrategyError):
        return resolve_player(value)


def _listed(value: object, name: str = "strategies", example: str = "['heuristic', 'greedy']"
            ) -> list[Any]:  # fmt: skip
    """``value`` as a list, refused in one line when it is one string or path (iterated,
    a string would be its letters: ``unknown strategy 'h'``) or no collection at all."""
    if isinstance(value, (str, os.PathLike)):
        names = os.fspath(value).replace(",", " ").split()
        example = repr(names) if len(names) > 1 else example
        one = "string" if isinstance(value, str) else "path"
        why = f"{value!r} is one {one}: give a list, e.g. {example}"
        raise InputError(name, why)
    if not isinstance(value, Iterable):
        raise InputError(name, f"{value!r} is not a list of {name}, e.g. {example}")
    return list(value)


def ladder_of(
    run: LadderRun,
    settings: dict[str, Any],
    per_matchup: dict[int, Any],
    bootstrap: int,
    seconds: float = 0.0,
    interrupted: bool = False,
) -> Ladder:
    """The Ladder of a run's matchups (those that played a unit, in their order)."""
    from cinch_sim.matches.compare import Comparison
    from cinch_sim.matches.cutthroat import CutThroatComparison
    from cinch_sim.matches.ladder import Ladder

    matches = []
    for m, data in sorted(per_matchup.items()):
        one = run.match(m)
        part = match_settings_of(one)
        if one.cutthroat:
            c = CutThroatComparison(one.a, one.b, part, data, one.rules)
        else:
            c = Comparison(one.a, one.b, part, data, rules=one.rules)
        if c.units:
            matches.append(c)
    return Ladder(list(run.strategies), matches, settings, bootstrap, seconds, interrupted)


def match_settings_of(run: MatchRun) -> dict[str, Any]:
    from cinch_sim.matches.compare import match_settings

    return match_settings(run.rules, run.a, run.b, run.games, run.seed, run.max_hands,
                          run.pairing)  # fmt: skip


# -------------------------------------------------------------------- merge
def merge(
    folders: Sequence[str | os.PathLike],
    out: str | os.PathLike | None = None,
    force: bool = False,
) -> Simulation | Analysis | Comparison | CutThroatComparison | Ladder:
    """Runs saved with ``save`` (``--out``) under the same settings and different
    seeds, as one result (``cinch-sim merge``): what a single run of all their hands
    or games would show, its settings naming every seed and range merged
    (``merged``). Runs whose settings differ (rules, policies, strategies, ...) are
    refused in one line naming the difference, and so are two holding the same
    seed's chunk. ``out`` keeps the merged run there (a folder that can be merged
    again); its tables are written by the command line.

    >>> import os, tempfile
    >>> folder = tempfile.TemporaryDirectory()
    >>> one, two = (os.path.join(folder.name, n) for n in ("one", "two"))
    >>> _ = simulate(hands=500, seed=1, save=one)
    >>> _ = simulate(hands=300, seed=2, save=two)
    >>> both = merge([two, one])
    >>> both.hands, [p["seed"] for p in both.settings["merged"]]
    (800, [1, 2])
    >>> folder.cleanup()
    """
    from cinch_sim.matches.compare import Comparison
    from cinch_sim.matches.cutthroat import CutThroatComparison
    from cinch_sim.outputs import check_out_dir, prepare_out_dir
    from cinch_sim.runs.merge import merge_folders, save_merged

    folders = _listed(folders, "folders", "['run1', 'run2']")
    if out is not None:
        with _output("out"):
            check_out_dir(out, force, resumable=False)  # before the work, making nothing
    m = merge_folders(folders)
    if out is not None:
        with _output("out"):
            prepare_out_dir(out, force, resumable=False)
        save_merged(m, out)
    settings, command, run = m.settings(), m.head["command"], m.run
    if command == "simulate":
        return Simulation(settings, m.agg)
    if command == "stats":
        shown = m.head.get("shown") or {}
        return Analysis(settings, m.agg, tuple(shown.get("by", ("trumps",))),
                        int(shown.get("min_hands", 30)))  # fmt: skip
    if command == "compare":
        if run.cutthroat:
            return CutThroatComparison(run.a, run.b, settings, m.agg, run.rules)
        return Comparison(run.a, run.b, settings, m.agg, rules=run.rules)
    return ladder_of(run, settings, m.agg, int(settings.get("bootstrap", checks.LADDER_BOOTSTRAP)))


# ----------------------------------------------------------------- variants
def variants() -> pd.DataFrame:
    """Every preset of the rules (docs/rules.md §3.1), one row each: players, sides, deck,
    cards dealt and kept, tricks, points, bids, target, whether the kernel plays it
    yet, and a line on what it is (``cinch-sim variants``).

    >>> v = variants()
    >>> list(v["variant"][:3]), int(v.set_index("variant").loc["sancho", "points"])
    (['standard', 'auction', 'sancho'], 23)
    """
    import pandas as pd

    from cinch_sim.rules import preset_rows

    return pd.DataFrame(preset_rows())


# ------------------------------------------------------------------- report
def report(
    hands: int = 1_000_000,
    games: int = 4000,
    seed: int = 0,
    rules: Rules | dict[str, Any] | None = None,
    strategies: Sequence[str] = ("heuristic", "greedy", "simple", "random"),
    threads: int | None = None,
    out: str | os.PathLike | None = None,
    force: bool = False,
    progress: Callable[[int], None] | None = None,
    card_values_hands: int | None = None,
    variant: str | None = None,
) -> Report:
    """The strategy report (``cinch-sim report``): bid success, what a hand and each
    card is worth, robbing, Pedro capture, the ladder of ``strategies`` and advice
    for example hands, each number with its 95% interval.

    ``hands`` are simulated for each hand study, ``games`` played for each pair
    of strategies; card values are measured for the heuristic on ``hands / 20`` hands
    (at most 50,000); PIMC's and perfect play's card values, and PIMC's safe bids,
    come from studies stored with cinch_sim where one answers (a preset's own rules
    and the default dealer: ``report.stored_studies``), else PIMC plays
    ``card_values_hands`` (default ``hands / 5000``, at most 200), which also asks for
    PIMC's card values to be played here where a stored study would answer. With
    ``out`` the report is written there (report.html, report.md, figures/, tables/,
    run.json; a folder holding files only with
    ``force``). ``.table()`` lists the sections and their tables, each of which
    ``.table(name)`` gives as printed. Ctrl-C stops the whole report: it then
    holds the studies that ran and says so (``.interrupted``; ``.done`` and
    run.json count the hands and games each study really ran).
    ``cinch_sim.strategy_report`` is this function (``cinch_sim.report`` is the
    package that builds it). ``progress`` is called with the work done, in units of
    about a millisecond each, weighted by what each study costs; if it has a
    ``set_total`` method it is first told the total.

    >>> doc = report(hands=1000, games=2, strategies=["greedy", "random"])
    >>> doc.table()["section"].iloc[0], "ladder" in doc.table_names()
    ('What this report is', True)
    """
    rules = _rules(rules, variant)
    from cinch_sim.outputs import prepare_out_dir, write_run_json
    from cinch_sim.report.build import ReportSettings, build_report, total_work
    from cinch_sim.report.render import write_report

    hands = checks.count(hands, "hands", at_least=1000)
    games = checks.count(games, "games", at_least=2)
    seed = checks.seed(seed)
    if card_values_hands is not None:
        card_values_hands = checks.count(card_values_hands, "card_values_hands")
    names = tuple(_listed(strategies))
    if len(names) < 2:
        raise checks.InputError("strategies", "name at least two strategies")
    out_dir = None
    if out is not None:
        with _output("out"):
            out_dir = prepare_out_dir(out, force)  # before the work
    settings = ReportSettings(
        hands=hands, games=games, seed=seed, rules=rules, strategies=names,
        threads=threads, card_values_hands=card_values_hands, dealer=rules.players - 1,
    )  # fmt: skip
    if progress is not None and hasattr(progress, "set_total"):
        progress.set_total(total_work(settings))
    doc = build_report(settings, progress=progress)
    if out_dir is not None:
        with interrupts.finishing():  # a Ctrl-C now waits for the files to be whole
            write_report(doc, out_dir)
            facts = {"interrupted": doc.interrupted, "done": doc.done}
            write_run_json(out_dir, {**settings.describe(), **facts})
    return doc


strategy_report = report  # cinch_sim.report is the subpackage, so the package exports this


# ------------------------------------------------------------------ referee
def referee(
    source: str | os.PathLike | Iterable[dict[str, Any]],
    write: str | os.PathLike | None = None,
) -> RefereeReport:
    """Check hand and game records against the rules (``cinch-sim referee``).

    ``source`` is a JSON Lines file (``"-"``: standard input) or record dicts.
    Every record is replayed with its own rule options; each gets a verdict:
    valid, renege (penalised, not an error), misdeal or invalid, with the
    field, seat and trick that is wrong. ``write`` writes the readable records
    back with their computed fields (winners, result, totals) filled in.
    ``.summary()`` is the command's last line, ``.ok`` false when something is
    invalid, ``.table()`` one row per record.

    >>> import os, tempfile
    >>> folder = tempfile.TemporaryDirectory()
    >>> path = os.path.join(folder.name, "hands.jsonl")
    >>> _ = simulate(hands=20, seed=1, records=path)
    >>> rep = referee(path)
    >>> rep.summary(), rep.ok
    ('20 valid, 0 renege, 0 misdeal, 0 invalid', True)
    >>> rep.table()["status"].unique().tolist()
    ['valid']
    >>> folder.cleanup()
    """
    from cinch_sim.outputs import check_output_file
    from cinch_sim.records.io import RefereeReport, referee_file, referee_records

    _check_record_source(source)
    if write is not None:
        with _output("write"):
            check_output_file(write, force=True)  # before the work; replaced as asked
    if isinstance(source, str | os.PathLike):
        rep = referee_file(source)
    else:
        rep = RefereeReport(referee_records(source))
    if write is not None:
        from cinch_sim.records.writer import write_records

        write_records(write, (v.record for v in rep.verdicts if v.record is not None))
    return rep


# -------------------------------------------------------------------- solve
def solve(
    source: str | os.PathLike | Iterable[dict[str, Any]],
    line: int | None = None,
    from_trick: int | str = 1,
) -> SolveReport:
    """Recorded hands against double-dummy play (``cinch-sim solve``).

    ``source`` is a JSON Lines file of hand or game records (``"-"``: standard
    input) or record dicts; ``line`` keeps one line (1 first). Each hand the
    referee accepts is solved: its double-dummy value for the maker's side at the
    start of play (``dd_start``) and at each trick as played, and for every card
    the drop from the best value its player had to the value after it, summed by
    team (``lost``). ``from_trick`` (1 first) values only the cards from that trick
    on (``dd_start`` is then the value at its start, ``from_trick`` says which, and
    the earlier tricks' values are None); ``"quick"`` picks, per hand, the first
    trick the solver answers in about a second at most (the first, but for two
    decks and six seats, whose early tricks can take minutes). ``.hands`` are the
    objects ``--format json`` prints;
    ``.table(name)`` gives the ``hands``, ``tricks`` and ``cards`` tables. A file
    that cannot be read is an OSError; ``line`` holding no record a ValueError.

    >>> import os, tempfile
    >>> folder = tempfile.TemporaryDirectory()
    >>> path = os.path.join(folder.name, "hands.jsonl")
    >>> _ = simulate(hands=4, seed=1, records=path)
    >>> rep = solve(path)
    >>> h = rep.hands[0]
    >>> h["points"] == h["dd_start"] - h["lost"][h["maker_team"]] + h["lost"][1 - h["maker_team"]]
    True
    >>> list(rep.table("tricks").columns[:4])
    ['line', 'hand', 'trick', 'leader']
    >>> folder.cleanup()
    """
    from cinch_sim.records.review import SolveReport, TrickOutOfRange, iter_summaries

    _check_record_source(source)
    if line is not None:
        line = checks.whole(line, "line", at_least=1)
    if from_trick != "quick":
        from_trick = checks.whole(from_trick, "from_trick", at_least=1)
    try:
        return SolveReport(list(iter_summaries(source, line, from_trick)))
    except LookupError as e:
        raise checks.InputError("line", str(e)) from None
    except TrickOutOfRange as e:
        raise checks.InputError("from_trick", str(e)) from None
