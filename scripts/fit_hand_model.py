"""Fit the heuristic bidder's hand model for a preset: expected points of the maker's side.

Usage: python scripts/fit_hand_model.py [--variant standard] [--hands 200000] [--seed 5]
                                        [--rule NAME=VALUE ...] [--play heuristic|dd|pimc]
                                        [--write] [--games N | --borrow-margin [PRESET]]
                                        [--shifts S1,S2] [--save DIR] [--chunk N]
       python scripts/fit_hand_model.py --rescan --variant NAME [--play pimc] --games N
                                        [--shifts S1,S2] [--scan-seed 3100] [--save DIR]
       python scripts/fit_hand_model.py --left-capture --variant NAME [--hands N] [--seed S]

The eldest hand is made the maker at each trump suit in turn (contract 0, so
nothing depends on the bid) on the same deals, with the preset's default
policies bidding, naming trump and discarding and ``--play`` playing (the
heuristic by default; ``dd``, perfect play, or ``pimc`` for a bidder of strong
play: issue 31). The side's points are regressed by least squares on what the
maker was dealt in that suit, as ``heuristic.hand_features`` reads it from the
preset's tables: the five strongest trumps, the point cards outside them, the
number of trumps, a low trump. Prints the weights by slot name and the fit's
residual spread; ``--write`` stores them as the preset's model
(``cinch_sim/policies/hand_models.json``), which the heuristic then bids and names
trump with in that preset. With ``--play pimc`` they are stored as ``PRESET@pimc``,
the model a heuristic vector with ``preset_model = 2`` takes (the strategy
``pimc_fitted``); its margin is scanned as below, ``pimc_fitted`` against itself
under PIMC play, only when ``--games`` is given (a few minutes a shift in the
six-card classic games, hours in most others; the standard game's margin is
``pimc_fitted``'s own, set by the matches in results/pimc.md). Where a scan
under PIMC play costs more than a session, ``--borrow-margin`` stores the
shift the preset's heuristic-play scan found instead (``--borrow-margin
PRESET``: that preset's, one that deals the same hands), and says so in the
model's record (a choice to be measured, not a scan); ``--rescan --games N``
scans the stored model's margin later, without fitting it again, and stores the
shift found with the weights it had. ``--shifts`` narrows a scan to the shifts
named. A slot
the preset has no card for (a fourth point card in the standard game) gets
weight 0.

A least-squares fit says what a hand is worth, not how far below that to bid:
the bidder's margin was tuned in the standard game, where a hand's points
spread less than in, say, two decks. So ``--write`` then tries each shift of
the margin in ``MARGIN_SHIFTS`` against none, in duplicate games (rotations
with more than two sides) on seed ``--scan-seed``, and stores the best shift
whose 95% interval lies above an even result (else 0) as ``margin_shift``.
scripts/preset_models_match.py measures the result on other seeds.

In a game with a left card the fit also regresses, on the same features, how
many copies of the left card the maker's side takes; ``--write`` stores it as
the model's ``left_capture``, and ``--left-capture`` adds it alone to a stored
model (on the hands its command played: the same --hands and --seed). An option
that changes what the left card scores (``left_bower_points``) then moves the
model by the change in points times that regression (policies/hand_models.py).

A fit under PIMC play takes hours (two decks: about two on two cores) and
some presets' fits a day or more, so the hands are played in chunks with a
progress line at least every 10 s, and ``--save DIR`` keeps each finished
chunk there: after a Ctrl-C, a lost machine or a larger ``--hands``, the
same command reads what is there and plays only the rest. A hand is the very
hand it is in any chunk, so the weights do not depend on the chunking or on
the stops; DIR records the fit's settings and refuses another fit's. Presets
that differ only in their target (heasly and cutthroat6) play the same hands,
so one DIR serves both fits: the second reads every chunk and plays none.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import logging
import os
import re
import shlex
import sys
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cinch_sim import layout as L  # noqa: E402
from cinch_sim.api import compare  # noqa: E402
from cinch_sim.checks import InputError  # noqa: E402
from cinch_sim.cli.progress import Progress  # noqa: E402
from cinch_sim.engine.interrupts import chunk_boundaries  # noqa: E402
from cinch_sim.engine.run import Conditions, PolicySet, run_chunk, run_deals  # noqa: E402
from cinch_sim.policies.hand_models import (  # noqa: E402
    MODEL_SLOTS,
    preset_model,
    stored_model,
    write_model,
)
from cinch_sim.policies.heuristic import B_MARGIN as MARGIN_SLOT  # noqa: E402
from cinch_sim.policies.heuristic import model_columns  # noqa: E402
from cinch_sim.policies.strategies import Strategy, resolve_strategy  # noqa: E402
from cinch_sim.rules import make_rules, parse_rule_assignments  # noqa: E402

# the regression's columns, in MODEL_SLOTS order (other_points last)
N_FEATURES = len(MODEL_SLOTS)
MARGIN_SHIFTS = (-1.0, -0.5, 0.5, 1.0, 1.5, 2.0, 3.0)
# deals a chunk by play: a PIMC chunk takes about one to five minutes on two cores
DEFAULT_CHUNK = {"heuristic": 20_000, "dd": 1_000, "pimc": 25}


def _played(rules, play: str, seed: int, hands: int, chunk: int, save: Path | None) -> np.ndarray:
    """[trump, hand, 3]: the maker's trumps dealt (the kernel's count, both copies with
    two decks), its side's points and the copies of the left card its side took (0
    without one), with the eldest hand the maker at each trump suit in turn. Played
    in chunks of ``chunk`` deals; with ``save`` each finished chunk is
    a file there and a chunk already there is read, not played again (a hand is the
    very hand it is in any range, so the numbers do not depend on the chunking)."""
    policies = PolicySet.from_specs(rules.players, play=play)
    dealer, maker = rules.players - 1, 0  # the maker is eldest
    out = np.zeros((4, hands, 3), np.int64)
    side = rules.seat_teams[maker]
    left_copies = [L.H_SLOT_TEAM + L.SLOT_LEFT]
    if rules.decks == 2:
        left_copies.append(L.H2_SLOT_TEAM + L.SLOT_LEFT)
    todo = [(lo, min(lo + chunk, hands), t) for lo in range(0, hands, chunk) for t in range(4)]
    total = 4 * hands
    done = played_now = 0
    started = last = time.monotonic()
    warm = None  # (time, hands played) after the first played chunk, which loads the code
    with chunk_boundaries() as interrupts:  # Ctrl-C stops between chunks, never inside one
        for lo, hi, trump in todo:
            interrupts.check()
            path = save / f"t{trump}-{lo:08d}-{hi:08d}.npy" if save else None
            if path is not None and path.exists():
                out[trump, lo:hi] = np.load(path)
            else:
                cond = Conditions(force_maker=maker, force_trump=trump, force_bid=0)
                rows, _ = run_chunk(rules, policies, seed, lo, hi - lo, dealer, cond)
                got = np.empty((hi - lo, 3), np.int64)
                got[:, 0] = rows[:, L.H_MAKER_TRUMPS_DEALT]
                got[:, 1] = rows[:, L.H_POINTS + side]
                got[:, 2] = (rows[:, left_copies] == side).sum(axis=1)
                out[trump, lo:hi] = got
                played_now += hi - lo
                if warm is None:
                    warm = (time.monotonic(), played_now)
                if path is not None:
                    tmp = path.with_suffix(".part.npy")
                    np.save(tmp, got.astype(np.int64))
                    os.replace(tmp, path)  # a chunk's file is whole or absent
            done += hi - lo
            now = time.monotonic()
            if played_now and (now - last >= 10 or done == total):
                since, base = warm if played_now > warm[1] else (started, 0)
                left = _clock((now - since) / (played_now - base) * (total - done))
                share = f"{done:,} of {total:,} hands ({100 * done / total:.0f}%)"
                print(f"played {share}, {_clock(now - started)}, about {left} left", flush=True)
                last = now
    return out


def _clock(seconds: float) -> str:
    m = round(seconds / 60)
    return f"{seconds:.0f} s" if seconds < 90 else f"{m} min" if m < 90 else f"{m / 60:.1f} h"


def fit(variant: str, options: dict, hands: int, seed: int, play: str, chunk: int = 0,
        save: Path | None = None):  # fmt: skip
    """Weights by slot name, the residual sd, R^2 and, in a game with a left card, the
    same regression of the copies of it the maker's side takes (else None): what the
    side's points gain per point the left card is worth (``hand_models.left_capture``)."""
    rules = make_rules(variant, options)
    dealer, maker = rules.players - 1, 0
    dealt = run_deals(rules, seed, 0, hands, dealer)[:, maker].copy()
    played = _played(rules, play, seed, hands, chunk or hands, save)
    xs, ys = [], []
    for trump in range(4):
        x = model_columns(rules.to_array(), dealt, trump)
        x[:, 10] = played[trump, :, 0]  # the number of trumps from the kernel's own count
        xs.append(x)
        ys.append(played[trump, :, 1])
    x = np.vstack(xs)
    y = np.concatenate(ys).astype(float)
    used = x.std(axis=0) > 0
    used[0] = True
    coef = np.zeros(N_FEATURES)
    coef[used], *_ = np.linalg.lstsq(x[:, used], y, rcond=None)
    resid = y - x @ coef
    r2 = 1 - resid.var() / y.var()
    capture = None
    if rules.left_rank:
        took = np.concatenate([played[t, :, 2] for t in range(4)]).astype(float)
        c = np.zeros(N_FEATURES)
        c[used], *_ = np.linalg.lstsq(x[:, used], took, rcond=None)
        capture = dict(zip(MODEL_SLOTS, (float(v) for v in c), strict=True))
    weights = dict(zip(MODEL_SLOTS, (float(c) for c in coef), strict=True))
    return weights, float(resid.std()), r2, capture


# what a store's chunks depend on: another value would mix two fits' hands (and its
# files are named by the chunk size); a store's variant and rules are for the reader
STORE_IDENTITY = ("hands", "seed", "play", "chunk", "columns")
# what a chunk's file holds per deal: trumps dealt, the side's points, left copies taken
COLUMNS = "trumps,points,left"


def hands_digest(rules) -> str:
    """What a fit's hands depend on: every rule but the target, which only games read
    (a fit plays lone hands, every score 0, the bid forced), so presets that differ in
    their target alone (heasly and cutthroat6) play the very same hands and one
    store serves the fit of each."""
    vector = rules.to_array().copy()
    vector[L.R_TARGET] = 0
    return hashlib.sha256(vector.astype("<i8").tobytes()).hexdigest()[:16]


def store_settings(variant: str, options: dict, seed: int, play: str, chunk: int) -> dict:
    """A fit's settings as its store records them (``STORE_IDENTITY`` checked)."""
    hands = hands_digest(make_rules(variant, options))
    return dict(variant=variant, rules=options, hands=hands, seed=seed, play=play, chunk=chunk,
                columns=COLUMNS)  # fmt: skip


def open_store(save: Path, settings: dict) -> None:
    """Make ``save`` the fit's chunk store, or check that it is one of a fit of the same
    hands (``STORE_IDENTITY``): ValueError."""
    if save.exists() and not save.is_dir():
        raise ValueError(f"--save {save}: not a directory")
    save.mkdir(parents=True, exist_ok=True)
    stamp = save / "settings.json"
    if stamp.exists():
        old = json.loads(stamp.read_text())
        for key in STORE_IDENTITY:
            if old.get(key) == settings[key]:
                continue
            if key == "hands":
                game = f"{old.get('variant')} with rules {old.get('rules')}"
                raise ValueError(f"--save {save} holds the hands of another game ({game}): "
                                 "use another directory")  # fmt: skip
            raise ValueError(f"--save {save} holds a fit with {key} {old.get(key)!r}, "
                             f"not {settings[key]!r}: use another directory")  # fmt: skip
    else:
        stamp.write_text(json.dumps(settings, indent=1) + "\n")


def match_rate(m) -> tuple[float, float, float, float]:
    """A match's measure of its side A: (rate, lo, hi, fair): the win rate in duplicate
    games against an even 0.5, or with more sides A's share of the wins against the
    fair share 1/players."""
    s = m.summary()
    if m.cutthroat:
        return s["a_share"], *s["a_share_ci"], s["fair_share"]
    return s["win_rate"], *s["win_rate_ci"], 0.5


def at_shift(base: Strategy, weights: dict[str, float], margin: float) -> Strategy:
    """``base`` bidding and naming trump from ``weights`` with bid margin ``margin``,
    spelled out (``preset_model`` 0), as ``PolicySet.params`` would fill them in: a
    match of it does not depend on what the models file holds when it is resumed."""
    model = {name: weights.get(name, 0.0) for name in MODEL_SLOTS}  # 0: fitted without it
    spelled = base.with_params("bid", **model, margin=margin, preset_model=0, game_fitted=1)
    return spelled.with_params("trump", **model, preset_model=0, game_fitted=1)


def scan_margin(variant: str, games: int, seed: int, strategy: str, weights: dict[str, float],
                shifts: tuple[float, ...] = MARGIN_SHIFTS,
                save: Path | None = None) -> tuple[float, list[dict]] | None:  # fmt: skip
    """The best margin shift for ``strategy`` bidding from ``weights`` (0 unless one beats
    none), and every shift's result; None when stopped (Ctrl-C). With ``save`` each
    shift's match is kept in its own folder there, and the same scan goes on from where
    it stopped."""
    rules = make_rules(variant)
    base = resolve_strategy(strategy)
    margin = base.policy("bid").params[MARGIN_SLOT]  # the strategy's own, shift 0
    zero = at_shift(base, weights, margin)
    best, best_rate, tried = 0.0, -1.0, []
    for shift in shifts:
        other = at_shift(base, weights, margin + shift).renamed(f"margin{shift:+}")
        folder = None if save is None else save / f"margin{shift:+.1f}"
        kept = dict(resume=folder) if folder is not None and folder.exists() else dict(save=folder)
        meter = Progress(games, f"margin {shift:+.1f}", unit="games", heartbeat=True)
        try:
            m = compare(other, zero, games=games, seed=seed, rules=rules, progress=meter, **kept)
        finally:
            meter.close()
        if m.interrupted:
            return None
        rate, lo, hi, fair = match_rate(m)
        tried.append(dict(shift=shift, rate=round(rate, 4), lo=round(lo, 4), hi=round(hi, 4)))
        print(f"margin {shift:+.1f}: {100 * rate:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] "
              f"(even: {100 * fair:.1f}%)", flush=True)  # fmt: skip
        if lo > fair and rate - fair > best_rate:
            best, best_rate = shift, rate - fair
    return best, tried


def parse_shifts(text: str) -> tuple[float, ...]:
    """``--shifts``: margin shifts, comma-separated, none of them 0 (ValueError)."""
    try:
        shifts = tuple(float(x) for x in text.split(","))
    except ValueError:
        raise ValueError(f"--shifts {text!r}: give numbers separated by commas, e.g. 1,2") from None
    if 0.0 in shifts or len(set(shifts)) < len(shifts):
        raise ValueError(f"--shifts {text!r}: each shift once, and not 0 (what each is "
                         "tried against)")  # fmt: skip
    return shifts


def _model_name(variant: str, play: str) -> tuple[str, str]:
    """The stored model's name and the strategy that bids from it."""
    strong = play == "pimc"
    return (f"{variant}@pimc", "pimc_fitted") if strong else (variant, "heuristic")


def _command(argv: list[str]) -> str:
    """The command as run, less ``--save`` (where chunks were kept changes nothing)."""
    argv = list(argv)
    at = next((i for i, a in enumerate(argv) if a.startswith("--save")), None)
    if at is not None:
        del argv[at : at + (1 if "=" in argv[at] else 2)]
    return "python scripts/fit_hand_model.py " + shlex.join(argv)


def negative_shifts_joined(argv: list[str]) -> list[str]:
    """``--shifts -1,-0.5`` as ``--shifts=-1,-0.5``: argparse reads a value that starts
    with a minus sign (and is not one plain number) as an option of its own."""
    out: list[str] = []
    for arg in argv:
        if out and out[-1] == "--shifts" and re.match(r"-[\d.]", arg):
            out[-1] = f"--shifts={arg}"
        else:
            out.append(arg)
    return out


def scan_or_stop(ap: argparse.ArgumentParser, args: argparse.Namespace, games: int,
                 strategy: str, weights: dict[str, float],
                 shifts: tuple[float, ...]) -> tuple[float, list[dict]]:  # fmt: skip
    """``scan_margin`` for the command line: a ``--save`` folder holding another scan's
    match is a usage error (exit 2); a Ctrl-C says what is kept and exits 130, the
    stored model as it was."""
    try:
        scanned = scan_margin(args.variant, games, args.scan_seed, strategy, weights, shifts,
                              args.save)  # fmt: skip
    except InputError as e:
        ap.error(str(e))
    except KeyboardInterrupt:  # before a match's first chunk (a first run compiles)
        scanned = None
    if scanned is not None:
        return scanned
    if args.save is None:
        print("stopped: the scan's matches are not kept (--save DIR keeps them)", file=sys.stderr)
    else:
        print(f"stopped: each shift's games so far are kept in {args.save}; the same command "
              "goes on from there", file=sys.stderr)  # fmt: skip
    sys.exit(130)


def rescan(ap: argparse.ArgumentParser, args: argparse.Namespace, shifts) -> None:
    """``--rescan``: the stored model's margin scanned again, its weights and its fit's
    record kept (a scan that costs hours need not wait for, or repeat, the fit)."""
    if args.games is None or args.write or args.rule or args.borrow_margin is not None:
        ap.error("--rescan takes --games (and --shifts, --scan-seed, --play, --save), "
                 "not --write, --rule or --borrow-margin")  # fmt: skip
    try:
        make_rules(args.variant)
    except ValueError as e:
        ap.error(str(e))
    if args.play not in ("heuristic", "pimc"):
        ap.error("--rescan: the stored models are for heuristic or pimc play")
    name, strategy = _model_name(args.variant, args.play)
    entry = stored_model(name)
    if entry is None:
        ap.error(f"--rescan: {args.variant} has no stored model for {args.play} play to scan")
    if args.games < 1:
        ap.error("--games takes a whole number of games, 1 or more")
    warnings.simplefilter("ignore")
    stored = entry["weights"]["margin_shift"]
    shift, tried = scan_or_stop(ap, args, args.games, strategy, entry["weights"], shifts)
    fitted = {k: v for k, v in entry["fitted"].items() if k != "margin_shift_from"}
    fitted |= dict(margin_games=args.games, margin_seed=args.scan_seed, margin_scan=tried,
                   margin_command=_command(sys.argv[1:]))  # fmt: skip
    write_model(name, entry["weights"] | {"margin_shift": shift}, fitted, entry.get("left_capture"))
    print(f"stored as {name}, margin shift {shift:+.1f} (was {stored:+.1f})")


def check_capture_args(ap: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """``--left-capture``: a preset with a left card and a stored heuristic-play model,
    refitted on its own hands (its command's --hands and --seed), nothing else."""
    if args.write or args.rule or args.games is not None or args.play != "heuristic":
        ap.error("--left-capture goes alone with --variant (and --hands, --seed, --save)")
    try:
        rules = make_rules(args.variant)
    except ValueError as e:
        ap.error(str(e))
    entry = stored_model(args.variant)
    if entry is None or not rules.left_rank:
        ap.error(f"--left-capture: {args.variant} needs a stored model and a left card")
    fitted = entry["fitted"]
    if (fitted["hands_per_suit"], fitted["seed"]) != (args.hands, args.seed):
        ap.error(f"--left-capture: {args.variant}'s model was fitted with --hands "
                 f"{fitted['hands_per_suit']} --seed {fitted['seed']}: give the same")  # fmt: skip


def add_capture(args: argparse.Namespace, weights: dict, capture: dict) -> None:
    """Store ``capture`` beside the preset's model, which stays as it is: the refit's
    weights are shown beside the stored ones (equal where the players are unchanged
    since the fit)."""
    entry = stored_model(args.variant)
    worst = max(abs(weights[k] - entry["weights"][k]) for k in MODEL_SLOTS if k in entry["weights"])
    print(f"the refit's weights differ from the stored ones by {worst:.4f} at most")
    fitted = entry["fitted"] | {"left_capture_command": _command(sys.argv[1:])}
    write_model(args.variant, entry["weights"], fitted, capture)
    print(f"stored the left card's capture regression in {args.variant}'s model")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0], allow_abbrev=False)
    ap.add_argument("--variant", default="standard", help="the preset (default standard)")
    ap.add_argument("--hands", type=int, default=200_000, help="deals per trump suit")
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--play", default="heuristic", help="every seat's play policy")
    ap.add_argument("--write", action="store_true", help="store as the preset's model")
    games_help = "games a margin shift (--write; 10,000, none with --play pimc)"
    ap.add_argument("--games", type=int, default=None, help=games_help)
    ap.add_argument("--scan-seed", type=int, default=3100, help="seed of the margin scan")
    borrow_help = ("--play pimc --write: store the heuristic-play model's margin shift (of "
                   "PRESET if named), no scan")  # fmt: skip
    ap.add_argument("--borrow-margin", nargs="?", const="", default=None, metavar="PRESET",
                    help=borrow_help)  # fmt: skip
    shifts_help = f"margin shifts to scan (default {','.join(f'{x:g}' for x in MARGIN_SHIFTS)})"
    ap.add_argument("--shifts", default=None, metavar="S1,S2", help=shifts_help)
    rescan_help = ("scan the stored model's margin again (--games, no fit) and store the shift "
                   "found with its weights")  # fmt: skip
    ap.add_argument("--rescan", action="store_true", help=rescan_help)
    chunk_help = "deals a chunk (default 20,000 under heuristic play, 1,000 dd, 25 else)"
    ap.add_argument("--chunk", type=int, default=None, help=chunk_help)
    save_help = ("keep each finished chunk (and each margin shift's match) in DIR; the same "
                 "command goes on from there")  # fmt: skip
    ap.add_argument("--save", type=Path, default=None, metavar="DIR", help=save_help)
    capture_help = ("store only the left card's capture regression in the preset's stored "
                    "model, fitted on the hands it was (no margin scan)")  # fmt: skip
    ap.add_argument("--left-capture", action="store_true", help=capture_help)
    args = ap.parse_args(negative_shifts_joined(sys.argv[1:]))
    notices = logging.getLogger("cinch_sim")  # "compiling ...": a first run's minutes said
    if not notices.handlers:
        notices.addHandler(logging.StreamHandler())
        notices.setLevel(logging.INFO)
    try:
        shifts = MARGIN_SHIFTS if args.shifts is None else parse_shifts(args.shifts)
    except ValueError as e:
        ap.error(str(e))
    if args.rescan:
        rescan(ap, args, shifts)
        return
    if args.left_capture:
        check_capture_args(ap, args)
    if args.write and (args.play not in ("heuristic", "pimc") or args.rule):
        ap.error("--write stores a preset's model for heuristic or pimc play, without --rule")
    borrowing = args.borrow_margin is not None
    if borrowing and not (args.write and args.play == "pimc" and args.games is None):
        ap.error("--borrow-margin goes with --play pimc --write, without --games")
    lender_name = args.borrow_margin or args.variant
    lender = preset_model(lender_name) if borrowing else {}
    if lender is None:
        ap.error(f"--borrow-margin: {lender_name} has no heuristic-play model to borrow from")
    if args.hands < 1 or (args.chunk is not None and args.chunk < 1):
        ap.error("--hands and --chunk take a whole number of deals, 1 or more")
    warnings.simplefilter("ignore")
    try:
        options = parse_rule_assignments(args.rule)
        make_rules(args.variant, options)
    except ValueError as e:
        ap.error(str(e))
    chunk = args.chunk or DEFAULT_CHUNK.get(args.play, DEFAULT_CHUNK["pimc"])
    if args.save is not None:
        settings = store_settings(args.variant, options, args.seed, args.play, chunk)
        try:
            open_store(args.save, settings)
        except (ValueError, OSError) as e:
            ap.error(str(e))
    try:
        weights, sd, r2, capture = fit(args.variant, options, args.hands, args.seed, args.play,
                                       chunk, args.save)  # fmt: skip
    except KeyboardInterrupt:
        if args.save is None:
            print("stopped: nothing kept (--save DIR keeps each finished chunk)", file=sys.stderr)
        else:
            kept = f"{args.save}: the same command goes on from there"
            print(f"stopped: the chunks finished are kept in {kept}", file=sys.stderr)
        sys.exit(130)
    for name in MODEL_SLOTS:
        left = f"   left card taken {capture[name]:+.4f}" if capture else ""
        print(f"{name:13s} {weights[name]:+.3f}{left}")
    print(f"residual sd {sd:.2f} points; R^2 {r2:.3f}")
    if args.left_capture:
        add_capture(args, weights, capture)
        return
    if args.write:
        command = _command(sys.argv[1:])
        fitted = dict(command=command, hands_per_suit=args.hands, seed=args.seed,
                      residual_sd=round(sd, 3), r2=round(r2, 4))  # fmt: skip
        strong = args.play == "pimc"
        name, strategy = _model_name(args.variant, args.play)
        default_games = None if strong else 10_000  # PIMC play: a scan only when asked
        games = default_games if args.games is None else args.games
        if strong:
            fitted["play"] = "pimc"
        if borrowing:
            shift = lender["margin_shift"]
            fitted["margin_shift_from"] = f"{lender_name}'s heuristic-play scan ({shift:+.1f})"
            write_model(name, weights | {"margin_shift": shift}, fitted, capture)
            print(f"stored as {name}, margin shift {shift:+.1f} borrowed, not scanned")
            return
        write_model(name, weights | {"margin_shift": 0.0}, fitted, capture)
        if games is None:
            print(f"stored as {name} (the model preset_model = 2 takes), margin not scanned")
            return
        shift, tried = scan_or_stop(ap, args, games, strategy, weights, shifts)
        fitted |= dict(margin_games=games, margin_seed=args.scan_seed, margin_scan=tried)
        write_model(name, weights | {"margin_shift": shift}, fitted, capture)
        print(f"stored as {name}, margin shift {shift:+.1f}")


if __name__ == "__main__":
    main()
