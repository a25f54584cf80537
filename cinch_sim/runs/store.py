"""An ``--out`` folder's chunk store: the manifest and one file per finished chunk.

``manifest.json`` holds what was asked (the command, every setting that makes
its numbers, the chunk size, the version) and which chunks are done;
``chunks/cNNNNNN.npz`` holds one chunk's aggregate (``kinds``), written
whole or not at all (``cinch_sim.outputs``) as soon as it is done, so a killed
run leaves finished chunks and no half-written file. The manifest follows every
two seconds and when the run ends; the files are the truth: a chunk written just
before a kill, not yet in the manifest, counts as done. Chunk files are zip
archives of ``.npy`` arrays with fixed dates, so the same chunk always has the
same bytes.

A chunk file that cannot be read back (cut short, not an archive, an array
missing or of the wrong shape: ``DamagedChunk``) is played again by a resumed
run, with a warning naming it: a chunk is a pure function of (run, key), so
its replay holds the same numbers. A folder written by ``cinch-sim merge`` is
the sum of finished runs, not a run: it cannot be resumed (``resumable``).

A run started from the command line also keeps the options it was given
(``command_line``, set by ``recording_options``), so ``--resume DIR`` alone can
run it again; they are not compared on a resume (the settings are).
"""

from __future__ import annotations

import io
import json
import logging
import os
import shutil
import time
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

import numpy as np

from cinch_sim.checks import InputError
from cinch_sim.outputs import alive, remove_stale_temps, write_output
from cinch_sim.rules import CUSTOM

FORMAT = "cinch-run/1"
MANIFEST = "manifest.json"
CHUNKS = "chunks"
MANIFEST_EVERY = 2.0  # seconds between the manifest's updates while a run goes
Key = tuple[int, ...]
COMMAND_LINE = "command_line"  # the manifest's record of the options a command was given
ZIP_MAGIC = b"PK\x03\x04"  # how a chunk file (a zip archive of .npy arrays) begins
ASIDE = ".earlier-run-"  # + a process id: a replaced run's store, until the new one stands
MERGED = "merged"  # the manifest's list of the parts of a folder ``cinch-sim merge`` wrote
# settings compared before the others, whatever their place: a different command or
# preset changes many settings, and the first of those would hide what the user changed
COMPARED_FIRST = ("command", "settings.rules.preset")
LOG = logging.getLogger("cinch_sim")

_OPTIONS: ContextVar[dict[str, Any] | None] = ContextVar("command_line", default=None)


@contextmanager
def recording_options(command: str, options: dict[str, Any]) -> Iterator[None]:
    """Stores opened inside keep ``options`` (a command's raw option values, by
    parameter name) in their manifest, under ``command_line``."""
    token = _OPTIONS.set({"command": command, "options": options})
    try:
        yield
    finally:
        _OPTIONS.reset(token)


def stored_options(folder: str | os.PathLike, command: str) -> dict[str, Any] | None:
    """The options a run of ``command`` in ``folder`` was given on the command line, or
    None (another command, or a run started from Python); an InputError when the folder
    holds no readable manifest."""
    d = resumable(folder)
    kept = d.get(COMMAND_LINE)
    if not isinstance(kept, dict) or kept.get("command") != command:
        return None
    options = kept.get("options")
    return options if isinstance(options, dict) else None


def chunk_name(key: Key) -> str:
    return "c" + "-".join(f"{k:06d}" for k in key) + ".npz"


def pack(arrays: dict[str, Any]) -> bytes:
    """Arrays as an ``.npz`` archive that ``np.load`` reads, the same bytes each time."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as z:
        for name in sorted(arrays):
            info = zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info._compresslevel = 1  # faster than the default, nearly as small (3.13: an alias)
            with z.open(info, "w", force_zip64=True) as f:
                np.lib.format.write_array(f, np.asarray(arrays[name]), allow_pickle=False)
    return buf.getvalue()


class DamagedChunk(ValueError):
    """A chunk file that cannot be read back: cut short, not an archive, an array
    missing or of the wrong shape. ``path`` names it and ``why`` says what failed."""

    def __init__(self, path: str | os.PathLike, why: str) -> None:
        super().__init__(f"{os.fspath(path)} cannot be read ({why})")
        self.path = os.fspath(path)
        self.why = why


def failure(exc: BaseException) -> str:
    """What went wrong reading a file, short and on one line (numpy's own words, up to
    their first sentence: its advice to load pickles is not for a damaged chunk)."""
    if isinstance(exc, KeyError) and exc.args:
        return f"no array {exc.args[0]}"
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror  # the file is named already
    lines = str(exc).strip().splitlines()
    text = lines[0].split(". ")[0].strip() if lines else ""
    if not text:
        return type(exc).__name__
    return text if len(text) <= 100 else text[:97] + "..."


def unpack(path: Path) -> dict[str, np.ndarray]:
    """The arrays of a chunk file, or ``DamagedChunk`` naming it (numpy's reader fails
    in many ways on a damaged file: a bad archive, a bad header, a short stream)."""
    try:
        with open(path, "rb") as f:  # np.load takes what is not an archive for a pickle
            start = f.read(len(ZIP_MAGIC))
        if start != ZIP_MAGIC:
            raise DamagedChunk(path, "an empty file" if not start else "not an .npz archive")
        with np.load(path, allow_pickle=False) as z:
            return {k: z[k] for k in z.files}
    except DamagedChunk:
        raise
    except Exception as exc:
        raise DamagedChunk(path, failure(exc)) from None


def ranges(positions: list[int]) -> list[list[int]]:
    """Sorted positions as [lo, hi) runs: ``[0, 1, 2, 5] -> [[0, 3], [5, 6]]``."""
    out: list[list[int]] = []
    for p in sorted(positions):
        if out and out[-1][1] == p:
            out[-1][1] = p + 1
        else:
            out.append([p, p + 1])
    return out


_ABSENT = object()


def _remove_stale_asides(folder: Path) -> None:
    """Earlier runs ``ChunkStore.create`` set aside for a process that is gone: killed,
    so the new run's store stands (and can be resumed)."""
    for p in folder.glob(f"{ASIDE}*"):
        pid = p.name[len(ASIDE) :]
        if p.is_dir() and pid.isdigit() and not alive(int(pid)):
            shutil.rmtree(p, ignore_errors=True)


def _at(d: Any, dotted: str) -> Any:
    for k in dotted.split("."):
        if not isinstance(d, dict) or k not in d:
            return _ABSENT
        d = d[k]
    return d


def comparable(head: dict[str, Any]) -> dict[str, Any]:
    """A run's head as runs are compared (``resume``, ``merge``): a user policy is its
    file's name, its function and its digest (the file's text and its parameters), not
    the path typed, so ``bot.py``, ``./bot.py`` and ``/srv/bots/bot.py`` of one
    unchanged file are one policy (a Dask cluster's absolute path and a local relative
    one merge), and a changed file is named as such. Built-ins (no digest) stay as
    named."""
    out = json.loads(json.dumps(head, default=str))
    settings = out.get("settings", out)
    digests = settings.pop("policy_digests", None) if isinstance(settings, dict) else None
    if digests:  # a run of hands: each seat's spec, its digest beside, by kind
        for kind, specs in settings.get("policies", {}).items():
            found = digests.get(kind, {})
            settings["policies"][kind] = [_policy_identity(x, found.get(x)) for x in specs]

    def walk(d: Any) -> None:  # a strategy's kinds: {"policy": spec, "digest": ...}
        if isinstance(d, dict):
            if isinstance(d.get("policy"), str) and "digest" in d:
                d["policy"] = _policy_identity(d["policy"], d.pop("digest"))
            for v in d.values():
                walk(v)
        elif isinstance(d, list):
            for v in d:
                walk(v)

    walk(out)
    return out


def _policy_identity(spec: str, digest: str | None) -> str:
    """``bot.py:count_bid, file and parameters 8d53f5788bc45caa`` for ``./bots/bot.py:
    count_bid`` (the file's name, not its folder); a built-in's name as it is."""
    if digest is None:
        return spec
    where, function = spec.rsplit(":", 1)
    return f"{Path(where).name}:{function}, file and parameters {digest}"


def first_difference(old: Any, new: Any, path: str = "") -> str | None:
    """The first setting that differs, as ``name: old, not new`` (None: the same):
    those of ``COMPARED_FIRST`` first (another preset is named as such, not by the
    first of the rules it sets), then the rest in the order ``old`` has them."""
    if not path:
        found = _first_difference(old, new)
        # "shown" holds what only the tables' shape depends on: named as the argument
        return found.removeprefix("shown.") if found is not None else None
    return _first_difference(old, new, path)


def _first_difference(old: Any, new: Any, path: str = "") -> str | None:
    if not path:
        for dotted in COMPARED_FIRST:
            a, b = _at(old, dotted), _at(new, dotted)
            if a is not _ABSENT and b is not _ABSENT and a != b:
                return f"{dotted} was {_short(a)}, not {_short(b)}"
    if isinstance(old, dict) and isinstance(new, dict):
        for k in list(old) + [k for k in new if k not in old]:
            if k not in old or k not in new:
                return f"{path}{k} is set in only one of them"
            d = _first_difference(old[k], new[k], f"{path}{k}.")
            if d is not None:
                return d
        return None
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        for i, (a, b) in enumerate(zip(old, new, strict=True)):  # the first entry differing
            d = _first_difference(a, b, f"{path.rstrip('.')}[{i}].")
            if d is not None:
                return d
        return None
    if isinstance(old, list) and isinstance(new, list):  # told by count, and by name
        return f"{path.rstrip('.')} holds {_entries(old)}, not {_entries(new)}"
    if old != new:
        return f"{path.rstrip('.')} was {_short(old)}, not {_short(new)}"
    return None


def _entries(values: list) -> str:
    """``3 entries (random, simple, greedy)``: a list's length, and its entries' names
    where they have them (strategies)."""
    names = [v.get("name") for v in values if isinstance(v, dict)]
    words = f"{len(values)} entr{'y' if len(values) == 1 else 'ies'}"
    if names and all(isinstance(n, str) for n in names) and len(names) == len(values):
        words += f" ({', '.join(names)})"
    return words


def _short(value: Any, most: int = 80) -> str:
    """A setting's value as JSON, cut to ``most`` characters (a message stays a line)."""
    text = json.dumps(value)
    return text if len(text) <= most else text[: most - 1] + "…"


def read_manifest(folder: str | os.PathLike, name: str = "resume") -> dict[str, Any]:
    """The manifest of a run folder, or an InputError naming ``name`` (one line)."""
    path = Path(folder) / MANIFEST
    try:
        d = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(name, f"{os.fspath(folder)} holds no {MANIFEST} of a cinch-sim run"
                         " (a run saves one with --out)") from None  # fmt: skip
    except (OSError, ValueError) as exc:
        raise InputError(name, f"cannot read {path}: {exc}") from None
    if not isinstance(d, dict) or d.get("format") != FORMAT:
        raise InputError(name, f"{path} is not a {FORMAT} manifest")
    return d


def resumable(folder: str | os.PathLike) -> dict[str, Any]:
    """The manifest of a run folder that ``--resume`` can go on with; an InputError
    (one line) for a folder ``cinch-sim merge`` wrote: it is the sum of finished runs,
    with no chunks left to play and no one hand count of its own."""
    d = read_manifest(folder)
    settings = d.get("settings")
    if MERGED in d or (isinstance(settings, dict) and MERGED in settings):
        raise InputError("resume", f"{os.fspath(folder)} was written by cinch-sim merge, and a "
                         "merged folder cannot be resumed (it is the sum of finished runs): "
                         "resume each run it merged, then merge them again")  # fmt: skip
    return d


class ChunkStore:
    """One run's manifest and chunk files in ``folder``."""

    def __init__(self, folder: Path, head: dict[str, Any], keys: list[Key]) -> None:
        self.folder = Path(folder)
        self.head = head
        self.keys = keys
        self.position = {k: i for i, k in enumerate(keys)}
        self.chunks = self.folder / CHUNKS
        self._done: set[Key] = set()
        self._written = time.monotonic()
        self._opened = self._written
        self.earlier_seconds = 0.0  # the play of the sittings before (a resumed run)
        self._played_here = False  # a chunk saved in this sitting
        self.command_line = _OPTIONS.get()
        self._aside: Path | None = None  # an earlier run's store (``create``)

    @classmethod
    def create(cls, folder: str | os.PathLike, head: dict[str, Any], keys: list[Key]):
        """A new store (the folder was checked and made by ``outputs.prepare_out_dir``);
        an earlier run's store there is set aside until this run stands (``settle``)."""
        store = cls(Path(folder), head, keys)
        store._set_aside()
        store.chunks.mkdir(parents=True, exist_ok=True)
        store._write_manifest()
        return store

    def _set_aside(self) -> None:
        """Move an earlier run's manifest and chunks into a hidden folder (``ASIDE``
        and our process id), not delete them: a new run that fails before it saved a
        chunk puts them back. Such folders a killed process left are removed here."""
        _remove_stale_asides(self.folder)
        held = [p for p in (self.folder / MANIFEST, self.chunks) if p.exists()]
        if not held:
            return
        aside = self.folder / f"{ASIDE}{os.getpid()}"
        shutil.rmtree(aside, ignore_errors=True)  # a store of ours made here, never run
        aside.mkdir()
        for p in held:
            os.replace(p, aside / p.name)
        self._aside = aside

    def settle(self, failed: bool) -> None:
        """The run's end: an earlier run set aside is put back when this one failed
        before it saved a chunk (it leaves nothing worth resuming; the earlier run is
        whole again), and removed otherwise (the new run stands, or can be resumed)."""
        aside, self._aside = self._aside, None
        if aside is None:
            return
        if failed and not self._played_here:
            shutil.rmtree(self.chunks, ignore_errors=True)
            (self.folder / MANIFEST).unlink(missing_ok=True)
            for p in aside.iterdir():
                os.replace(p, self.folder / p.name)
            aside.rmdir()
        else:
            shutil.rmtree(aside, ignore_errors=True)

    @classmethod
    def resume(cls, folder: str | os.PathLike, head: dict[str, Any], keys: list[Key]):
        """The store of an earlier run with exactly these settings; any difference is an
        InputError naming it (``resume: DIR was run with seed ...``)."""
        d = resumable(folder)
        new = json.loads(json.dumps(head, default=str))  # as the manifest holds it
        old = {k: d.get(k) for k in new}
        diff = first_difference(comparable(old), comparable(new))
        if diff is not None:
            raise InputError("resume", f"{os.fspath(folder)} holds another run: {diff}")
        store = cls(Path(folder), head, keys)
        store.earlier_seconds = float(d.get("seconds", 0.0))
        if store.command_line is None:  # resumed from Python: the command line's stay
            store.command_line = d.get(COMMAND_LINE)
        store.chunks.mkdir(exist_ok=True)
        remove_stale_temps(store.chunks)  # a write a kill cut short
        _remove_stale_asides(store.folder)  # a --force run killed: it stands
        store._done = {k for k in keys if (store.chunks / chunk_name(k)).is_file()}
        return store

    def seconds(self) -> float:
        """The run's time over every sitting: the earlier ones' (a resumed run's
        manifest keeps them) and this one's since the store was opened, where it
        played a chunk (resuming a finished run to print its tables again adds none)."""
        here = time.monotonic() - self._opened if self._played_here else 0.0
        return self.earlier_seconds + here

    def done(self) -> set[Key]:
        return set(self._done)

    def path(self, key: Key) -> Path:
        return self.chunks / chunk_name(key)

    def load(self, key: Key) -> dict[str, np.ndarray]:
        """The arrays of a finished chunk (``DamagedChunk`` where its file cannot be read)."""
        return unpack(self.path(key))

    def replay(self, damage: DamagedChunk, key: Key) -> None:
        """A chunk whose file cannot be read is not done: the run plays it again (its
        numbers are a pure function of the run and the key) and writes its file anew.
        One line on stderr names the file (the ``cinch_sim`` logger's warning)."""
        self._done.discard(key)
        LOG.warning("warning: %s cannot be read (%s): playing its chunk again", damage.path,
                    damage.why)  # fmt: skip

    def save(self, key: Key, arrays: dict[str, Any]) -> None:
        """The chunk's file, whole; the manifest that names it at most every
        ``MANIFEST_EVERY`` seconds (each write waits for the disk, about 10 ms) and
        at ``close``."""
        write_output(self.chunks / chunk_name(key), pack(arrays))
        self._done.add(key)
        self._played_here = True
        if time.monotonic() - self._written >= MANIFEST_EVERY:
            self._write_manifest()

    def close(self) -> None:
        """The manifest as the run ends (done, stopped or failed)."""
        self._write_manifest()

    def manifest(self) -> dict[str, Any]:
        done = [self.position[k] for k in self._done]
        kept = {COMMAND_LINE: self.command_line} if self.command_line is not None else {}
        return {
            **self.head,
            **kept,
            "chunks": len(self.keys),
            "done": ranges(done),
            "complete": len(done) == len(self.keys),
            "seconds": round(self.seconds(), 3),
        }

    def _write_manifest(self) -> None:
        text = json.dumps(self.manifest(), indent=2, default=str) + "\n"
        write_output(self.folder / MANIFEST, text)
        self._written = time.monotonic()

    def files(self) -> list[str]:
        """The store's files, relative to the folder (what run.json lists)."""
        return [MANIFEST] + [f"{CHUNKS}/{chunk_name(k)}" for k in sorted(self._done)]


def open_store(
    head: dict[str, Any],
    keys: list[Key],
    save: str | os.PathLike | None = None,
    resume: str | os.PathLike | None = None,
    force: bool = False,
) -> ChunkStore | None:
    """A run's store: a new one in ``save`` (an empty or new folder, or with ``force``
    one an earlier run of ours wrote), the earlier one in ``resume``, or None."""
    from cinch_sim.outputs import prepare_out_dir, prepare_resume_dir

    if save is not None and resume is not None:
        raise InputError("resume", "give a folder to save a new run in or one to resume, "
                         "not both")  # fmt: skip
    if save is not None:
        if _at(head, "settings.rules.preset") == CUSTOM:
            raise InputError(
                "save",
                "a custom game (rules built field by field to no preset's structure) cannot "
                "be saved to resume or merge: the folder would name no game to play again",
            )
        prepare_out_dir(save, force)
        return ChunkStore.create(save, head, keys)
    if resume is not None:
        store = ChunkStore.resume(resume, head, keys)
        prepare_resume_dir(resume)
        return store
    return None
