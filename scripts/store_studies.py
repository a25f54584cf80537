"""Play a strong player's study once and store it with the package.

Usage: python scripts/store_studies.py card_values|hand_values|advice pimc|dd [--hands N]
                                       [--extend] [--variant NAME] [--threads N]

Runs the report's own study (``report.build.card_study``: what each card is worth;
``report.build.value_study``: each hand played as if its holder won the bidding, for
the safe bids) with the report's seed and dealer on ``--hands`` deals, and writes it
to the folder ``--out`` names (without it, a new temporary folder; ``--out
cinch_sim/report/stored`` updates the shipped studies, where the report finds
them: ``report.stored_studies``): bit for bit what the report would play itself.
``--extend`` plays the next ``--hands`` deals of the card study in ``--out`` and
appends them (hands 0..n then n..m are hands 0..m). Made for this release with:

    python scripts/store_studies.py card_values pimc --hands 5000 --out cinch_sim/report/stored
    python scripts/store_studies.py card_values pimc --hands 11000 --extend ...  # 16,000 in all
    python scripts/store_studies.py card_values dd --hands 50000 ...     # 80 s, 2 cores
    python scripts/store_studies.py hand_values pimc --hands 20000 ...   # 12 min
    python scripts/store_studies.py advice pimc ...     # the example hands' advice

(``...``: the same ``--out``; the first PIMC card run took 11 min on two cores.)
The ``widow`` preset's, the same with ``--variant widow``: hand_values pimc
(20,000 deals, 12 min), card_values pimc (5,000 deals) and advice pimc; the same
three for sancho, dom_pedro and all_hands (18, 18 and 5 minutes on two cores), and
for pidro (card values on 16,000 deals with --extend; under two minutes in all),
sancho_classic, dom_pedro_classic, cutthroat3 and cutthroat2 (5, 7, 11 and 1 minutes),
and auction (69 minutes on one thread: 34, 24 and 11 for the three).

(``advice``: the report's example hands, advised with every seat playing the
player, to ``report.build.PIMC_ADVICE_PRECISION``; ``--hands`` does not apply.)
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from outdir import add_out_option, out_folder  # noqa: E402

from cinch_sim import interrupts  # noqa: E402
from cinch_sim.report import build, stored_studies  # noqa: E402
from cinch_sim.rules import make_rules  # noqa: E402

DEFAULT_HANDS = {("card_values", "pimc"): 5000, ("card_values", "dd"): 50_000,
                 ("hand_values", "pimc"): 20_000}  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kind", choices=stored_studies.KINDS)
    ap.add_argument("player", choices=("pimc", "dd"))
    ap.add_argument("--hands", type=int, default=None, help="deals (defaults: see above)")
    ap.add_argument("--extend", action="store_true", help="append to a stored card study")
    ap.add_argument("--variant", default="standard")
    ap.add_argument("--threads", type=int, default=None)
    add_out_option(ap, "the stored study")
    a = ap.parse_args()
    hands = a.hands or DEFAULT_HANDS.get((a.kind, a.player), 0)
    if not hands and a.kind != "advice":
        ap.error("give --hands")
    s = build.ReportSettings(rules=make_rules(a.variant), threads=a.threads)
    made_by = "python scripts/store_studies.py " + " ".join(sys.argv[1:])
    shipped = stored_studies.study_path(a.kind, a.player, s.rules)
    path = out_folder(a.out, "stored") / shipped.name
    start = time.perf_counter()
    with interrupts.installed():
        if a.kind == "card_values":
            before = None
            if a.extend:
                question = build.card_question(s, a.player)
                stored_studies.STORED = path.parent  # extend the study in --out
                before = stored_studies.card_values(a.player, s.rules, question)
                if before is None:
                    sys.exit(f"--extend: no stored study answers the report at {path}")
            first = before.hands_played if before else 0
            cv = build.card_study(s, a.player, hands, _progress(hands, start), first)
            if cv.interrupted:
                sys.exit(f"interrupted after {cv.hands_played:,} deals: nothing stored")
            if before is not None:
                made_by = before.settings["stored"]["made_by"] + "; then " + made_by
                before.extend(cv)
                before.settings = {k: v for k, v in before.settings.items() if k != "stored"}
                before.settings["hands"] = before.hands_played
                cv = before
            stored_studies.save_card_values(cv, path, made_by)
        elif a.kind == "advice":
            advice = build.run_example_advice(s, play=a.player, progress=_progress(4, start))
            if len(advice) < len(build.example_hands(s.rules)):
                sys.exit("interrupted: nothing stored")
            stored_studies.save_advice(advice, build.advice_question(s, a.player), path, made_by)
        else:
            hv = build.value_study(s, a.player, hands, _progress(hands, start))
            question = build.value_question(s, a.player)
            policies = build.value_policies(s, a.player)
            first = stored_studies.probe(s.rules, policies, s.seed, s.dealer)
            settings = {**question, "hands": hv.hands,
                        "seconds": round(time.perf_counter() - start, 1)}  # fmt: skip
            stored_studies.save_hand_values(hv, first, settings, path, made_by)
    done = "the example hands advised" if a.kind == "advice" else f"{hands:,} deals played"
    print(f"{path}: {done}, {time.perf_counter() - start:.0f} s")


def _progress(hands: int, start: float):
    """A progress callback printing a line every 30 s."""
    last = [start]
    done = [0]

    def progress(n: int) -> None:
        done[0] += n
        now = time.perf_counter()
        if now - last[0] > 30:
            last[0] = now
            print(f"{done[0]:,} of {hands:,} deals, {now - start:.0f} s", flush=True)

    return progress


if __name__ == "__main__":
    main()
