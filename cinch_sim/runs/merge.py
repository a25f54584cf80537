"""``cinch-sim merge``: runs of the same settings and different seeds, as one.

Every folder a chunked run saved (``store``), or an earlier merge wrote, gives
its *parts*: (seed, the units it covers, its aggregate). The folders must agree
on everything that makes their numbers but the seed and how much was run
(command, rules, policies or strategies, dealer, max hands, pairing, version,
the tables' shape); a difference is refused in one line naming it, and so is
the same seed's unit twice (the same hands counted twice would look like
twice the evidence). Parts are merged in (seed, first unit) order, whatever
order the folders are named in, and each merge is exact (``kinds``), so
merging is associative and commutative to the last bit. The merged folder
holds its parts as a store of its own, so it can be merged again. A chunk file
that cannot be read back is refused in one line naming it and how to replay it
(``--resume`` plays a run's damaged chunks again).
"""

from __future__ import annotations

import json
import os
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cinch_sim.checks import InputError
from cinch_sim.policies.strategies import KINDS, Strategy
from cinch_sim.rules import make_rules
from cinch_sim.runs.driver import Ordered, span_of
from cinch_sim.runs.kinds import kind_of, read_chunk
from cinch_sim.runs.store import (
    CHUNKS,
    FORMAT,
    MANIFEST,
    DamagedChunk,
    chunk_name,
    comparable,
    first_difference,
    pack,
    ranges,
    read_manifest,
)
from cinch_sim.runs.work import HandsRun, LadderRun, MatchRun, chunk_count

# settings that say how much was run, not what: free to differ between merged runs
AMOUNTS = ("seed", "hands", "games_requested", "games_per_matchup", "merged")
NAME = "folders"  # what a refusal names: the argument (the command line: DIRS)


@dataclass
class Part:
    """What one run covered: its seed, [matchup, lo, hi) units, its aggregate."""

    seed: int
    covers: list[list[int]]
    agg: Any


def _strategy(d: dict[str, Any]) -> Strategy:
    """A strategy back from its ``describe()``."""
    specs = {k: d[k]["policy"] for k in KINDS}
    params = {k: tuple(d[k]["params"]) for k in KINDS}
    return Strategy(d["name"], **specs, params=params, description=d.get("description", ""))


def run_of(head: dict[str, Any]) -> Any:
    """The run a manifest describes (enough to read its chunks and name its results)."""
    from cinch_sim.matches.ladder import matchup_order

    s = head["settings"]
    rules = make_rules(s["rules"]["preset"], s["rules"]["options"])
    chunk = None if head["chunk"] is None else int(head["chunk"])  # None: a ladder's own
    if head["command"] in ("simulate", "stats"):
        return HandsRun(rules, s["policies"], s["seed"], s["hands"], s["dealer"], chunk)
    pairing = "swap" if s["pairing"] == "rotation" else s["pairing"]
    if head["command"] == "compare":
        a, b = _strategy(s["strategy_a"]), _strategy(s["strategy_b"])
        return MatchRun(rules, a, b, s["seed"], s["games_requested"], s["max_hands"], pairing,
                        chunk)  # fmt: skip
    strats = tuple(_strategy(d) for d in s["strategies"])
    order = tuple(matchup_order(rules, len(strats)))
    return LadderRun(rules, strats, s["seed"], s["games_per_matchup"], s["max_hands"], pairing,
                     chunk, order)  # fmt: skip


def _head(d: dict[str, Any]) -> dict[str, Any]:
    return {k: d.get(k) for k in ("format", "command", "settings", "shown", "chunk", "units")}


def _what(head: dict[str, Any]) -> dict[str, Any]:
    """What must agree between merged runs: everything but the amounts and the chunk."""
    s = {k: v for k, v in head["settings"].items() if k not in AMOUNTS}
    return comparable({"command": head["command"], "settings": s, "shown": head.get("shown")})


def _covered(covers: list[list[int]]) -> dict[int, int]:
    """A part's covers ([matchup, lo, hi) each) as {matchup: units}."""
    out: dict[int, int] = {}
    for m, lo, hi in covers:
        out[m] = out.get(m, 0) + hi - lo
    return out


def _damaged(folder: str | os.PathLike, head: dict[str, Any], damage: DamagedChunk,
             merged: bool) -> InputError:  # fmt: skip
    """The refusal of a chunk file that cannot be read: one line naming it, and how to
    replay it (a run's --resume plays its damaged chunks again; a merged folder's part
    is remade by merging its runs again)."""
    if merged:
        fix = "merge the runs it was merged from again"
    else:
        fix = "play it again with: " + shlex.join(["cinch-sim", str(head["command"]),
                                                   "--resume", os.fspath(folder)])  # fmt: skip
    return InputError(NAME, f"{damage}; {fix}")


def read_parts(folder: str | os.PathLike) -> tuple[dict[str, Any], Any, list[Part]]:
    """(head, run, parts) of a run folder or of a merged one; a chunk file that cannot
    be read is an InputError naming it and how to replay it."""
    d = read_manifest(folder, NAME)
    head = _head(d)
    try:  # a manifest edited by hand: its values of the wrong type or out of range
        run = run_of(head)
        run.keys()
    except (TypeError, ValueError, KeyError, AttributeError, IndexError) as exc:
        why = f"{type(exc).__name__}: {exc}" if isinstance(exc, KeyError) else str(exc)
        raise InputError(NAME, f"{os.fspath(folder)}'s {MANIFEST} does not describe a run "
                         f"({why}); was it edited?") from None  # fmt: skip
    kind = kind_of(run)
    chunks = Path(folder) / CHUNKS
    if "merged" in d:
        parts = []
        for i, p in enumerate(d["merged"]):
            try:
                agg = read_chunk(kind, chunks / chunk_name((i,)), _covered(p["covers"]))
            except DamagedChunk as damage:
                raise _damaged(folder, head, damage, merged=True) from None
            parts.append(Part(int(p["seed"]), p["covers"], agg))
        return head, run, parts
    keys = [k for k in run.keys() if (chunks / chunk_name(k)).is_file()]
    if not keys:
        raise InputError(NAME, f"{os.fspath(folder)} holds no finished chunk")
    merged = Ordered(kind, run.keys())
    covers: list[list[int]] = []
    for key in keys:
        try:
            agg = read_chunk(kind, chunks / chunk_name(key), span_of(run, key))
        except DamagedChunk as damage:
            raise _damaged(folder, head, damage, merged=False) from None
        merged.add(key, agg)
        m, (lo, hi) = run.span(key)
        if covers and covers[-1][0] == m and covers[-1][2] == lo:
            covers[-1][2] = hi
        else:
            covers.append([m, lo, hi])
    return head, run, [Part(int(head["settings"]["seed"]), covers, merged.result())]


def _overlap(a: Part, b: Part) -> list[int] | None:
    if a.seed != b.seed:
        return None
    for m, lo, hi in a.covers:
        for n, lo2, hi2 in b.covers:
            if m == n and lo < hi2 and lo2 < hi:
                return [m, max(lo, lo2), min(hi, hi2)]
    return None


@dataclass
class Merged:
    """Runs merged: the first run's head and run, every part, the merged aggregate."""

    head: dict[str, Any]
    run: Any
    parts: list[Part]
    agg: Any

    def settings(self) -> dict[str, Any]:
        """The settings a single run of all of it would record, with ``merged``: the
        seeds and units (``[matchup, first, end)``) of every part. ``seed`` is the
        first part's (the ladder's bootstrap draws from it)."""
        s = dict(self.head["settings"])
        s["seed"] = self.parts[0].seed
        covered = sum(hi - lo for p in self.parts for m, lo, hi in p.covers if m == 0)
        if "hands" in s:
            s["hands"] = covered
        if "games_requested" in s:
            s["games_requested"] = covered * self.run.per_unit
        if "games_per_matchup" in s:  # the most any matchup holds (a part cut short: less)
            by_matchup: dict[int, int] = {}
            for p in self.parts:
                for m, lo, hi in p.covers:
                    by_matchup[m] = by_matchup.get(m, 0) + hi - lo
            s["games_per_matchup"] = max(by_matchup.values()) * self.run.match(0).per_unit
        s["merged"] = [{"seed": p.seed, self.head["units"]: p.covers} for p in self.parts]
        return s


def merge_folders(folders: list[str | os.PathLike]) -> Merged:
    """The parts of every folder, checked and merged (``InputError`` naming ``dirs``)."""
    if len(folders) < 1:
        raise InputError(NAME, "name at least one folder")
    found = []
    for f in folders:
        head, run, parts = read_parts(f)
        if head["settings"].get("until"):
            why = "a sequential stop's interval holds for its own run, not for merged ones"
            raise InputError(NAME, f"{os.fspath(f)} ran with --until: {why}")
        found.append((os.fspath(f), head, run, parts))
    first_name, first_head, first_run, _ = found[0]
    every: list[tuple[str, Part]] = []
    for name, head, _, parts in found:
        diff = first_difference(_what(first_head), _what(head))
        if diff is not None:
            raise InputError(NAME, f"{name} is not a run of {first_name}'s settings: {diff}")
        for p in parts:
            for other_name, q in every:
                hit = _overlap(q, p)
                if hit is not None:
                    m, lo, hi = hit
                    where = f"matchup {m}'s " if first_head["command"] == "ladder" else ""
                    raise InputError(
                        NAME,
                        f"{other_name} and {name} both hold seed {p.seed}'s {where}"
                        f"{first_head['units']} {lo}..{hi - 1}; merge runs of different seeds "
                        "(or of different units of one)",
                    )
            every.append((name, p))
    ordered = sorted(every, key=lambda e: (e[1].seed, e[1].covers[0]))
    parts = [p for _, p in ordered]
    kind = kind_of(first_run)
    agg = kind.empty()
    for p in parts:
        agg = kind.merge(agg, p.agg)
    # the head (its chunk size, the one thing besides the amounts that may differ) of
    # the folder whose part comes first: the same whatever order the folders are named in
    heads = {name: (head, run) for name, head, run, _ in found}
    head, run = heads[ordered[0][0]]
    return Merged(head, run, parts, agg)


def save_merged(merged: Merged, folder: str | os.PathLike) -> list[str]:
    """The merged run's own store in ``folder`` (made ready by the caller): a manifest
    naming its parts and one chunk file each, so it can be merged again."""
    from cinch_sim.outputs import write_output

    folder = Path(folder)
    (folder / CHUNKS).mkdir(parents=True, exist_ok=True)
    # an earlier run's chunks there (``--force``) are not this run's: as ChunkStore.create
    for entry in os.listdir(folder / CHUNKS):
        if entry.endswith(".npz"):
            os.unlink(folder / CHUNKS / entry)
    kind = kind_of(merged.run)
    for i, p in enumerate(merged.parts):
        write_output(folder / CHUNKS / chunk_name((i,)), pack(kind.to_arrays(p.agg)))
    head = dict(merged.head, format=FORMAT, settings=merged.settings())
    keys = list(range(len(merged.parts)))
    manifest = {
        **head,
        "chunks": len(keys),
        "done": ranges(keys),
        "complete": True,
        "merged": [{"seed": p.seed, "covers": p.covers} for p in merged.parts],
    }
    write_output(folder / MANIFEST, json.dumps(manifest, indent=2, default=str) + "\n")
    return [MANIFEST] + [f"{CHUNKS}/{chunk_name((i,))}" for i in keys]


__all__ = ["Merged", "Part", "chunk_count", "merge_folders", "read_parts", "save_merged"]
