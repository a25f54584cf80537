"""Shared click options and helpers, so every command spells them the same way."""

from __future__ import annotations

import functools
from collections.abc import Callable
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click

from cinch_sim.policies.registry import KINDS
from cinch_sim.policies.registry import names as builtin_names

POLICY_HELP = (
    "{kind} policy: a built-in ({names}), module:function or file.py:function; "
    "for all seats, or SEAT=POLICY (repeatable)."
)
# what a user choosing a slow built-in should know first (docs/policies.md measures it)
POLICY_NOTE = {
    "play": " pimc is slow: it solves 32 deals a card, about 9 ms a hand for each seat"
    " that plays it (a heuristic hand takes about 2 microseconds).",
}


class RuleType(click.ParamType):
    """``--rule NAME=VALUE``: the shape and the option's name checked as typed; the
    values together by the option's callback, which builds the Rules."""

    name = "NAME=VALUE"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None):
        from cinch_sim.rules import RulesError, parse_rule_assignments

        try:
            parse_rule_assignments([value])
        except RulesError as exc:
            self.fail(str(exc), param, ctx)
        return value


def _check_variant(ctx: click.Context, param: click.Parameter, value: str | None):
    """``--variant NAME``: read first (eager), so ``--rule`` applies on top of it."""
    from cinch_sim.rules import RulesError, make_rules

    name = value or "standard"
    try:
        make_rules(name)
    except RulesError as exc:
        raise BadInput("--variant", str(exc)) from None
    ctx.meta["cinch_variant"] = name


def _check_rule(ctx: click.Context, param: click.Parameter, value: tuple[str, ...]):
    from cinch_sim.rules import RulesError, make_rules, parse_rule_assignments

    variant = ctx.meta.get("cinch_variant", "standard")
    try:
        return make_rules(variant, parse_rule_assignments(value))
    except RulesError as exc:  # the API's words: rules: robber='x' is not one of ...
        raise BadInput("--rule", str(exc)) from None


class _Checked:
    """A whole-number option checked by ``cinch_sim.checks``, the API's own check, so
    ``--hands 0`` and ``simulate(hands=0)`` are refused in the same words."""

    def __init__(
        self, name: str, at_least: int | None = None, at_most: int | None = None, **kwargs: Any
    ) -> None:
        super().__init__(**kwargs)  # type: ignore[call-arg]
        self.arg = name
        self.at_least = at_least
        self.at_most = at_most

    def check(self, value: object) -> int:
        from cinch_sim.checks import whole

        return whole(value, self.arg, self.at_least, self.at_most)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None):
        from cinch_sim.checks import InputError, from_text

        number = from_text(value) if isinstance(value, str) else value
        try:
            return self.check(number)
        except InputError as exc:
            option = param.opts[0] if param is not None and param.opts else f"--{self.arg}"
            problem = exc.problem
            if isinstance(number, float) and problem.startswith(repr(number)):
                problem = value.strip() + problem[len(repr(number)) :]  # as typed: 1e3
            raise BadInput(option, problem) from None


class WholeNumber(_Checked, click.types.IntParamType):
    """Any whole number."""


SEED_HELP = (
    "Random seed, 0 .. 2^64-1; 'random' draws one from the operating system (the "
    "outputs record it), so that no policy can know it in advance."
)


class Seed(_Checked, click.IntRange):
    """``--seed``: 0 .. 2^64 - 1, each its own run (none reduced mod 2^64), or ``random``
    (``checks.seed`` draws it; the outputs record the number drawn)."""

    def __init__(self) -> None:
        super().__init__("seed", min=0, max=2**64 - 1)

    def get_metavar(self, *args: Any, **kwargs: Any) -> str:
        return "INTEGER|random"

    def check(self, value: object) -> int:
        from cinch_sim.checks import seed

        return seed(value, self.arg)


class AtLeast(_Checked, click.IntRange):
    """A whole number of at least ``at_least``; the help shows the range as click's does."""

    def __init__(self, name: str, at_least: int, at_most: int | None = None) -> None:
        super().__init__(name, at_least, at_most, min=at_least, max=at_most)


class Count(AtLeast):
    """A number of hands or games: at least ``at_least``, at most what the kernel can
    number (``checks.count``), so ``--hands 10**23`` is refused, not run forever."""

    def check(self, value: object) -> int:
        from cinch_sim.checks import count

        return count(value, self.arg, self.at_least or 0)


class SeatNumber(_Checked, click.IntRange):
    """A seat: any whole number here, its range checked once the rules are known."""

    def __init__(self, name: str) -> None:
        super().__init__(name, None, min=0)


def match_pairing_checked(f: Callable) -> Callable:
    """For ``compare`` and ``ladder``: refuse ``--pairing rotate`` in a cut-throat game
    (more than two sides: its match rotates A through every seat) as a usage error."""

    @functools.wraps(f)
    def checked(*args: Any, **kwargs: Any) -> Any:
        from cinch_sim.api import InputError, match_pairing

        try:
            match_pairing(kwargs["rules"], kwargs["pairing"])
        except InputError as exc:
            raise BadInput("--pairing", exc.problem) from None
        return f(*args, **kwargs)

    return checked


class _RuleOption(click.Option):
    """``--rule``, whose help names every rule option: read from the rules only when
    the help is shown, so a command does not load them (and numpy) to parse."""

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        from cinch_sim.rules import OPTION_NAMES

        self.help = (
            "Set a rule option, e.g. robber=dealer (repeatable): "
            f"{', '.join(OPTION_NAMES)}; docs/rules.md says what each does."
        )
        return super().get_help_record(ctx)


def rules_option(f: Callable) -> Callable:
    """``--variant NAME`` and ``--rule NAME=VALUE``: together they give the command's
    Rules (the ``rules`` argument)."""
    f = click.option(
        "--rule",
        "rules",
        cls=_RuleOption,
        multiple=True,
        type=RuleType(),
        callback=_check_rule,
    )(f)
    return click.option(
        "--variant",
        metavar="NAME",
        default=None,
        is_eager=True,
        expose_value=False,
        callback=_check_variant,
        help="Play a preset of the rules (default standard); `cinch-sim variants` lists them.",
    )(f)


class PolicySpecType(click.ParamType):
    """``POLICY`` or ``SEAT=POLICY`` for one plug point: the policy is found, loaded
    and compiled as it is read, so a bad one is a usage error naming its option.
    The seat is checked later, once the rules say how many there are."""

    name = "SPEC"

    def __init__(self, kind: str) -> None:
        self.kind = kind

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None):
        from cinch_sim.policies.loading import PolicyError, load_named_policy, split_seat

        try:
            load_named_policy(self.kind, split_seat(self.kind, value)[1])
        except PolicyError as exc:
            self.fail(str(exc), param, ctx)
        return value


class FirstNameOption(click.Option):
    """An option with a short alias (``--play`` for ``--play-policy``) whose errors name
    it once: "Invalid value for '--play-policy'", not "'--play-policy' / '--play'"."""

    def get_error_hint(self, ctx: click.Context) -> str:
        return f"'{self.opts[0]}'"


def policy_options_with(defaults: dict[str, str]) -> Callable[[Callable], Callable]:
    """--bid-policy ... --play-policy, with the command's defaults in the help.

    The command gets them resolved, as one ``policies`` argument (per kind, one
    spec per seat: what the API takes as keywords), so no command repeats the
    parsing. Put it below ``rules_option``: resolving needs the player count.
    """

    def decorate(f: Callable) -> Callable:
        @functools.wraps(f)
        def resolved(*args: Any, **kwargs: Any) -> Any:
            items = {kind: kwargs.pop(f"{kind}_policy") for kind in KINDS}
            policies = checked_policy_specs(kwargs["rules"].players, defaults, items)
            return f(*args, policies=policies, **kwargs)

        g: Callable = resolved
        for kind in reversed(KINDS):
            default = defaults.get(kind, "heuristic")
            names = [f"--{kind}-policy"] + (["--play"] if kind == "play" else [])
            g = click.option(
                *names,  # --play: the short name of the switch people use most
                f"{kind}_policy",
                cls=FirstNameOption,
                multiple=True,
                type=PolicySpecType(kind),
                help=POLICY_HELP.format(
                    kind=kind.capitalize(), names=", ".join(builtin_names(kind))
                )
                + POLICY_NOTE.get(kind, "")
                + f" [default: {default}]",
            )(g)
        return g

    return decorate


policy_options = policy_options_with({})


class BadInput(click.BadParameter):
    """Input the user typed that cannot be used, found once several options are read
    together (a seat past the table the rules lay out): click's usage error, exit 2,
    ``Error: Invalid value for '--dealer': ...``, the same as click's own checks."""

    def __init__(self, option: str, message: str) -> None:
        super().__init__(message, click.get_current_context(silent=True), param_hint=[option])


def check_seat(option: str, seat: int, players: int) -> None:
    """A seat of the table the rules lay out, or a usage error naming ``option``."""
    if not 0 <= seat < players:
        raise BadInput(option, f"seat {seat} is out of range 0..{players - 1}")


def checked_policy_specs(
    players: int, defaults: dict[str, str], items: dict[str, tuple[str, ...]]
) -> dict[str, list[str]]:
    """Per kind, one spec per seat (each policy was loaded as its option was read),
    so a seat past the table is a usage error naming its option."""
    from cinch_sim.policies.loading import PolicyError

    out = {}
    for kind, kind_items in items.items():
        try:
            out[kind] = resolve_policy_specs(players, defaults, **{kind: kind_items})[kind]
        except PolicyError as exc:
            raise BadInput(f"--{kind}-policy", str(exc)) from None
    return out


def resolve_policy_specs(
    players: int, defaults: dict[str, str] | None = None, **kinds: tuple[str, ...]
) -> dict[str, list[str]]:
    """Per kind, one spec per seat from the CLI items (``POLICY`` or ``SEAT=POLICY``)."""
    from cinch_sim.policies.loading import parse_policy_specs

    defaults = defaults or {}
    return {
        kind: parse_policy_specs(kind, items, players, defaults.get(kind, "heuristic"))
        for kind, items in kinds.items()
    }


class StrategyType(click.ParamType):
    """A strategy (built-in bundle or TOML file), loaded as it is read, so a bad name or
    file is a usage error naming the argument."""

    name = "STRATEGY"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None):
        from cinch_sim.policies.strategies import (
            Strategy,
            StrategyError,
            resolve_player,
        )

        if isinstance(value, Strategy):
            return value
        try:
            return resolve_player(value)
        except StrategyError as exc:
            self.fail(str(exc), param, ctx)


class StrategyListType(click.ParamType):
    """Comma-separated strategies (at least two), each checked as ``StrategyType`` does;
    the names come back as typed."""

    name = "NAMES"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None):
        if isinstance(value, tuple):
            return value
        names = tuple(s.strip() for s in value.split(",") if s.strip())
        if len(names) < 2:
            self.fail("name at least two strategies, separated by commas", param, ctx)
        for name in names:
            StrategyType().convert(name, param, ctx)
        return names


class CardsType(click.ParamType):
    """Cards as people type them (``AS 10♠ kh``): every card known and none more than
    twice. How many a hand needs, and whether a card may repeat (two decks), is
    checked once the rules are known."""

    name = "CARDS"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None):
        from cinch_sim.cards import CardError, parse_hand

        try:
            parse_hand(value, size=None, copies=2)
        except CardError as exc:
            self.fail(str(exc), param, ctx)
        return value


def cards_argument(name: str) -> Callable:
    """A hand as one argument or as several: ``"AS KS 5S"`` quoted, or ``AS KS 5S`` as
    a player types it, joined and read as one (so a card repeated across them is
    caught)."""

    def joined(ctx: click.Context, param: click.Parameter, value: tuple[str, ...]) -> str:
        return CardsType().convert(" ".join(value), param, ctx)

    return click.argument(name, nargs=-1, required=True, callback=joined,
                          metavar=name.upper())  # fmt: skip


def dealer_option(f: Callable) -> Callable:
    """--dealer, the same in every command: a seat of the table the rules lay out,
    checked once the rules are known (a usage error, exit 2, otherwise)."""

    @functools.wraps(f)
    def checked(*args: Any, **kwargs: Any) -> Any:
        from cinch_sim.checks import InputError, seat

        if kwargs["dealer"] is None:  # the last seat: 3 at four players
            kwargs["dealer"] = kwargs["rules"].players - 1
        try:
            seat(kwargs["dealer"], kwargs["rules"].players, "dealer")
        except InputError as exc:
            raise BadInput("--dealer", exc.problem) from None
        return f(*args, **kwargs)

    return click.option(
        "--dealer",
        type=SeatNumber("dealer"),
        default=None,
        help="The dealer's seat (0 to players - 1); the seat after him is eldest hand. "
        "[default: the last seat, 3 at four players]",
    )(checked)


class Threads(AtLeast):
    """A thread count: at least 1 and at most the cores this process may use (checked
    only when given, so ``--help`` does not load numba)."""

    def __init__(self) -> None:
        super().__init__("threads", 1)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None):
        n = super().convert(value, param, ctx)
        from cinch_sim.engine.threads import max_threads

        top = max_threads()
        if n > top:
            self.fail(f"{n} is more than the {top} cores this process may use", param, ctx)
        return n


class Share(click.FloatRange):
    """A probability-like number in a range, typed as a plain ASCII number
    (``checks.from_text``): ``nan``, which compares false with every bound, ``1_0``
    and other scripts' digits are refused by name instead of slipping through."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None):
        from cinch_sim.checks import from_text

        if isinstance(value, str) and isinstance(from_text(value), str):
            self.fail(f"{value!r} is not a number", param, ctx)
        return super().convert(value, param, ctx)


def run_options(f: Callable, cluster: bool = True) -> Callable:
    """--threads and --seed; ``cluster``: the command also takes --workers and
    --scheduler (``chunk_options``), which change what --threads means."""
    in_workers = (
        "; with --workers or --scheduler: the kernel's threads in each worker, 1 unless given"
        if cluster
        else ""
    )
    f = click.option(
        "--threads",
        type=Threads(),
        default=None,
        help=f"Worker threads (results do not depend on it{in_workers}). [default: all cores]",
    )(f)
    f = click.option("--seed", type=Seed(), default=0, help=SEED_HELP)(f)
    return f


def local_run_options(f: Callable) -> Callable:
    """``run_options`` for a command that runs on this machine only."""
    return run_options(f, cluster=False)


def one_csv_table(names: list[str], chosen: tuple[str, ...] | list[str]) -> str:
    """The one table CSV prints on stdout: the one --table names, or the first.

    CSV on stdout is one table, so ``pandas.read_csv`` reads it whole; several
    tables go to ``--out DIR``, one file each. Naming more than one is a usage
    error; printing the first by default says so on stderr.
    """
    if len(chosen) > 1:
        raise BadInput(
            "--table",
            f"--format csv prints one table, and --table named {len(chosen)}; "
            "--out DIR writes every table as its own CSV file",
        )
    if chosen:
        return chosen[0]
    others = ", ".join(names[1:])
    click.echo(f"CSV of the {names[0]} table; the others with --table NAME: {others}", err=True)
    return names[0]


def csv_table_of(names: list[str], table: str | None, fmt: str) -> str | None:
    """The table a command's --format csv prints (``one_csv_table``), None for the
    other formats; --table with them is a usage error, not silently ignored (they
    print every table; ``stats`` alone prints the ones named)."""
    if fmt != "csv":
        if table is not None:
            raise BadInput(
                "--table",
                f"chooses the one table --format csv prints, not --format {fmt} "
                "(--out DIR writes every table as its own CSV file)",
            )
        return None
    return one_csv_table(names, (table,) if table else ())


def format_option(
    formats: tuple[str, ...] = ("table", "csv", "json"), help: str = "How results print on stdout."
) -> Callable[[Callable], Callable]:
    """--format, for the commands that print a result and write no --out folder."""
    return click.option(
        "--format", "fmt", type=click.Choice(list(formats)), default="table", help=help
    )


def table_option(names: tuple[str, ...]) -> Callable[[Callable], Callable]:
    """--table NAME, for a command whose results are several tables: CSV on stdout is
    one of them (``one_csv_table``); --out writes each to NAME.csv."""
    return click.option(
        "--table",
        "table",
        type=click.Choice(list(names)),
        default=None,
        help=f"With --format csv: which table to print ({names[0]} unless named); "
        "--out writes them all.",
    )


def output_options(
    formats: tuple[str, ...] = ("table", "csv", "json"),
    out_help: str = "Folder for CSV tables and run.json (refuses to overwrite without --force).",
    format_help: str = "How results print on stdout.",
    files: tuple[str, ...] = (),
) -> Callable[[Callable], Callable]:
    """--format, --out and --force, spelled the same by every command (``files``: the
    command's file options, which --force also lets replace a file)."""

    def decorate(f: Callable) -> Callable:
        f = force_option(files)(f)
        f = click.option("--out", type=click.Path(file_okay=False), default=None, help=out_help)(f)
        return format_option(formats, format_help)(f)

    return decorate


def force_option(files: tuple[str, ...] = (), out: bool = True) -> Callable[[Callable], Callable]:
    """--force, the one overwrite rule: every output (--out, --records, --write, --plot)
    refuses what stands at its path unless --force is given; the help names the
    command's own outputs."""
    parts = []
    if files:
        parts.append(f"a file at {'/'.join(files)}")
    if out:
        parts.append("an earlier run's files in --out (those its run.json lists)")
    return click.option(
        "--force", is_flag=True, help=f"Replace existing outputs: {', and '.join(parts)}."
    )


def out_folder(
    out: str | None, force: bool, resumable: bool = True, make: bool = True
) -> Path | None:
    """The --out folder, made ready before any work (nothing in it is removed yet), or
    only checked (``make=False``: the work makes it once it succeeds); one that holds
    files (without --force), holds files but no run.json of ours, or is a file is a
    usage error naming --out (``cinch_sim.outputs`` has the rules)."""
    from cinch_sim.outputs import OutputError, check_out_dir, prepare_out_dir

    if out is None:
        return None
    try:
        if not make:
            check_out_dir(out, force, resumable)
            return Path(out)
        return prepare_out_dir(out, force, resumable)
    except OutputError as exc:
        raise BadInput("--out", str(exc)) from None


def chunk_options(unit: str, fast: int, slow: int | str) -> Callable[[Callable], Callable]:
    """--chunk and --resume, for the commands that run in chunks (``cinch_sim.runs``),
    and --scheduler and --workers, which send those chunks to a Dask cluster. ``slow``:
    the default where a seat plays slowly, a number or its own words."""
    slow_text = f"{slow:,}" if isinstance(slow, int) else slow

    def decorate(f: Callable) -> Callable:
        f = click.option(
            "--workers",
            type=AtLeast("workers", 1),
            default=None,
            help="Run the chunks on a local Dask cluster of this many worker processes, "
            "one thread each (needs the [distributed] extra; --threads is then the "
            "kernel's threads in each worker, 1 unless given). Results do not depend on it.",
        )(f)
        f = click.option(
            "--scheduler",
            metavar="ADDRESS",
            default=None,
            help="Run the chunks on the Dask cluster of this scheduler (tcp://HOST:8786; "
            "needs the [distributed] extra, and cinch-sim installed on the workers). "
            "Results do not depend on it.",
        )(f)
        f = click.option(
            "--resume",
            type=click.Path(file_okay=False),
            default=None,
            help="Continue the run an earlier --out DIR saved, with the options it was "
            "given (kept in DIR; one given now that changes a setting is refused), and "
            "write its outputs there again: the result is exactly that of a run never "
            "stopped.",
        )(f)
        return click.option(
            "--chunk",
            type=AtLeast("chunk", 1),
            default=None,
            help=f"{unit.capitalize()} a chunk: the unit saved under --out, where Ctrl-C "
            f"stops and progress is shown (results do not depend on it). [default: {fast:,}; "
            f"{slow_text} where a seat plays pimc or dd, so that progress shows often]",
        )(f)

    return decorate


def run_folder(out: str | None, resume: str | None, force: bool) -> Path | None:
    """Where a chunked run writes: --out (made ready, ``out_folder``) or the --resume
    folder (checked by the run itself)."""
    if resume is not None:
        if out is not None:
            raise BadInput("--resume", "writes into the folder it resumes; leave out --out")
        return Path(resume)
    return out_folder(out, force)


# Not part of what a run is: where it writes, where it runs, and what does not resume.
NOT_RECORDED = ("out", "resume", "force", "records", "hand_data", "threads", "workers",
                "scheduler", "help")  # fmt: skip


PRINTING = ("fmt", "table", "only")  # how a sitting prints its results, not the run's work


class ResumableCommand(click.Command):
    """A chunked command whose ``--resume DIR`` alone runs it again: the options its
    ``--out`` run was given (kept in the manifest, ``runs.store``) are the defaults of
    the options not given now; one given that changes a setting is refused by the
    run's own comparison, naming it, and one that adds to it is kept."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        from cinch_sim.checks import InputError
        from cinch_sim.runs.store import stored_options

        given, _, _ = self.make_parser(ctx).parse_args(args=list(args))  # raw, as typed
        stored = {}
        if given.get("resume"):
            try:  # first: a folder with no run in it leaves compare's strategies unnamed
                stored = stored_options(given["resume"], ctx.info_name or "") or {}
            except InputError as exc:
                raise BadInput("--resume", exc.problem) from None
            ctx.default_map = {**(ctx.default_map or {}), **stored}
        typed = {k: v for k, v in given.items() if k not in NOT_RECORDED}
        # a resume keeps the run's own options, and adds to its work what it adds (stats'
        # --card-values: the next resume would drop it); a setting it changes is refused
        # by the run's comparison, and how the results print is this sitting's own
        added = {
            k: v
            for k, v in typed.items()
            if k not in stored and k not in PRINTING and isinstance(v, str | bool | tuple | list)
        }  # (an argument not given is click's own marker, not a value)
        ctx.meta["cinch_sim.options"] = {**stored, **added} if stored else typed
        return super().parse_args(ctx, args)

    def invoke(self, ctx: click.Context) -> Any:
        from cinch_sim.runs.store import recording_options

        options = dict(ctx.meta.get("cinch_sim.options", {}))
        if "seed" in options and isinstance(ctx.params.get("seed"), int):
            drawn = str(options["seed"]).strip().lower() == "random"
            options["seed"] = str(ctx.params["seed"])  # --seed random: the number drawn
            if drawn and ctx.params.get("fmt") == "csv":  # a CSV row has no place for it
                click.echo(f"seed {ctx.params['seed']} (drawn for --seed random)", err=True)
        with recording_options(ctx.info_name or "", options):
            return super().invoke(ctx)


def resume_command(out: Path) -> str:
    """The command line that resumes this run: the command and --resume DIR (the
    folder's manifest holds every other option)."""
    import shlex

    ctx = click.get_current_context(silent=True)
    command = ctx.info_name if ctx is not None and ctx.info_name else "COMMAND"
    return shlex.join(["cinch-sim", command, "--resume", str(out)])


def interrupted_line(done: int, asked: int, unit: str) -> str:
    """The first line of a text result Ctrl-C cut short: on stdout, so a table saved
    with ``> file`` says so too (the resume hint goes to stderr)."""
    from cinch_sim.views import INTERRUPTED

    return f"{INTERRUPTED}: {done:,} of {asked:,} {unit}"


def stopped(what: str, out: Path | None, per_hand: bool = False) -> None:
    """The line an interrupted run ends with: what it kept and, with a folder, how to
    resume it."""
    line = f"interrupted: kept the {what}"
    if out is not None:
        line += f"; resume with: {resume_command(out)}"
        if per_hand:
            line += " (per-hand files do not resume)"
    click.echo(line, err=True)


@contextmanager
def user_errors():
    """Turn the project's known errors into one-line messages and a non-zero exit."""
    from cinch_sim.cards import CardError
    from cinch_sim.checks import InputError
    from cinch_sim.outputs import OutputError
    from cinch_sim.policies.loading import PolicyError
    from cinch_sim.rules import RulesError
    from cinch_sim.solver.limits import OneDeckOnly

    try:
        yield
    except BrokenPipeError:
        raise  # not a user error: the command group ends quietly (cli.files.PipeSafeGroup)
    except OneDeckOnly as exc:  # two decks given to the solver's users: a usage error, exit 2
        raise BadInput(ONE_DECK_OPTIONS.get(exc.name, exc.name), exc.problem) from None
    except InputError as exc:
        if exc.name in INPUT_OPTIONS:  # a usage error: exit 2, naming the option
            raise BadInput(INPUT_OPTIONS[exc.name], exc.problem) from None
        raise click.ClickException(str(exc)) from None
    except (CardError, RulesError, PolicyError, OutputError, ValueError, OSError) as exc:
        raise click.ClickException(str(exc)) from None


# The option an API InputError is about, where the command line refuses it as usage.
INPUT_OPTIONS = {
    "resume": "--resume",
    "records": "--records",
    "hand_data": "--hand-data",
    "chunk": "--chunk",
    "scheduler": "--scheduler",
    "workers": "--workers",
    "threads": "--threads",
    "until": "--until",
    "folders": "DIRS",
    "play": "--play-policy",
    "pairing": "--pairing",
}


# The option a OneDeckOnly error is about, by the name the API gives it.
ONE_DECK_OPTIONS = {"variant": "--variant", "play": "--play-policy", "source": "FILE"}


def friendly(f: Callable) -> Callable:
    @functools.wraps(f)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with user_errors():
            return f(*args, **kwargs)

    return wrapper
