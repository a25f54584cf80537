"""Every file the program writes goes through here, so one set of rules holds for all.

- A regular file (or a new path) is written whole or not at all: a temporary
  file beside it, fsync, then ``os.replace``. A symlink is followed, so its
  target is replaced and the link kept. The file gets the mode a plain
  ``open()`` would give it: ``0o666`` less the umask for a new file (the
  kernel applies the umask to ``os.open``), the old mode for a replaced one.
- A FIFO, a character device (``/dev/null``), any path under ``/dev`` or
  ``/proc`` (``/dev/stdout`` may stand for the file a shell redirected to) and
  ``-`` (stdout) are written straight through: renaming a file over one would
  cut off its reader, or replace a device node.
- Temporary files are named ``.NAME.cinch-tmp-PID-RANDOM``, so a later run
  knows its own: those whose process is gone (killed mid-run) are removed
  before the next write to the same folder, and every error path removes the
  current one, unlinking it before the close that fails on a full disk.
- ``check_output_file`` and ``check_out_dir`` say before any work whether a
  path can be written, in words about the user's path, never a temp name.
- An ``--out`` folder records the files a run wrote in its ``run.json``
  (``files``); with ``force`` the next run replaces exactly those, and
  removes the ones it does not write again once its own are in place.
  A folder that holds files and no run.json of ours is never cleared.
"""

from __future__ import annotations

import json
import os
import platform
import re
import secrets
import stat
import sys
from collections.abc import Iterable
from contextlib import suppress
from pathlib import Path, PurePosixPath
from typing import IO, Any

from cinch_sim.version import __version__

TEMP_MARK = ".cinch-tmp-"
# what this program writes into an --out folder (used only for a run.json written
# before run.json listed its files)
OUR_SUFFIXES = (".csv", ".png", ".svg", ".json", ".md", ".html", ".parquet", ".jsonl")
OUR_SUBFOLDERS = ("figures", "tables", "chunks")
# a chunked run's store in its --out folder (cinch_sim.runs.store: the same names)
RUN_MANIFEST = "manifest.json"
RUN_FORMAT = "cinch-run/1"
RUN_CHUNKS = "chunks"

_TEMP = re.compile(r"^\.(?P<name>.+)" + re.escape(TEMP_MARK) + r"(?P<pid>\d+)-[0-9a-f]+$")
_LEGACY_TEMP = re.compile(r"^\.(?P<name>.+)\.[A-Za-z0-9_]{8}\.tmp$")  # mkstemp's, before

# Files written (regular files, by absolute path as given) since their --out folder was
# prepared, for run.json's list; and per folder the files an earlier run listed.
_WRITTEN: set[str] = set()
_EARLIER: dict[str, list[str]] = {}


class OutputError(ValueError):
    """An output folder or file that cannot be written as asked."""


def is_stdout(path: str | os.PathLike | None) -> bool:
    return path is not None and os.fspath(path) == "-"


# ------------------------------------------------------------------ temp files
def temp_name(name: str) -> str:
    """The temporary name a write of ``name`` uses: hidden, ours, with our PID."""
    return f".{name}{TEMP_MARK}{os.getpid()}-{secrets.token_hex(4)}"


def alive(pid: int) -> bool:
    """Whether process ``pid`` still runs (ours always; another user's counts as running)."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process
    except (OverflowError, ValueError, OSError):
        return False
    return True


def remove_stale_temps(folder: str | os.PathLike, name: str | None = None, legacy=False) -> int:
    """Remove our temporary files in ``folder`` (for target ``name``, or all) whose
    process is gone; with ``legacy``, also the ``.NAME.XXXXXXXX.tmp`` files earlier
    versions left. Returns how many were removed."""
    try:
        entries = os.listdir(folder)
    except OSError:
        return 0
    removed = 0
    for entry in entries:
        m = _TEMP.match(entry)
        stale = m is not None and not alive(int(m["pid"]))
        if not stale and legacy:
            m = _LEGACY_TEMP.match(entry)
            stale = m is not None
        if stale and m is not None and (name is None or m["name"] == name):
            with suppress(OSError):
                os.unlink(os.path.join(folder, entry))
                removed += 1
    return removed


# ------------------------------------------------------------------ one file
def _folder_problem(shown: str, folder: Path) -> str:
    """Why a file cannot be made in ``folder``: it is missing, or a file stands on the way."""
    probe = folder
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    if probe.exists() and not probe.is_dir():
        return f"{shown}: {probe} is a file, not a folder"
    return f"{shown}: the folder {folder} does not exist"


def _stat(path: Path, shown: str) -> os.stat_result | None:
    try:
        return os.stat(path)
    except FileNotFoundError:
        return None
    except NotADirectoryError:
        raise OutputError(_folder_problem(shown, path.parent)) from None
    except OSError as exc:
        raise OutputError(f"cannot write {shown}: {exc.strerror or exc}") from None


def _kind(st: os.stat_result | None, shown: str) -> str:
    """'new', 'file' (regular: temp and rename) or 'through' (FIFO, character device,
    or any path under /dev or /proc: /dev/stdout may stand for a file the shell opened)."""
    if shown.startswith(("/dev/", "/proc/")) and st is not None and not stat.S_ISDIR(st.st_mode):
        return "through"
    if st is None:
        return "new"
    if stat.S_ISDIR(st.st_mode):
        raise OutputError(f"{shown} is a folder; name a file")
    if stat.S_ISREG(st.st_mode):
        return "file"
    if stat.S_ISFIFO(st.st_mode) or stat.S_ISCHR(st.st_mode):
        return "through"
    raise OutputError(f"{shown} is not a file, a FIFO or a character device")


def check_output_file(path: str | os.PathLike, force: bool = False) -> None:
    """Raise :class:`OutputError` unless ``path`` can be written now: its folder
    exists and takes new files, it is not a folder, and an existing regular file
    is replaced only with ``force``. A FIFO, a character device or ``-`` needs no
    ``force``: nothing is replaced. Stale temporary files of the target go."""
    if is_stdout(path):
        return
    p = Path(path)
    shown = os.fspath(path)
    kind = _kind(_stat(p, shown), shown)
    if kind == "through":
        if not os.access(p, os.W_OK):
            raise OutputError(f"cannot write {shown}: permission denied")
        return
    if kind == "file" and not force:
        raise OutputError(f"{shown} already exists; use --force to replace it")
    target = Path(os.path.realpath(p))
    if not target.parent.is_dir():
        raise OutputError(_folder_problem(shown, p.parent if not p.is_symlink() else target.parent))
    remove_stale_temps(target.parent, target.name, legacy=force)
    _probe(target, shown)


def _probe(target: Path, shown: str) -> None:
    """Make and remove a temporary file beside ``target``: the one sure test that the
    folder takes new files (root, ACLs and read-only mounts included)."""
    tmp = target.with_name(temp_name(target.name))
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666)
    except OSError as exc:
        raise OutputError(f"cannot write {shown}: {exc.strerror or exc}") from None
    os.close(fd)
    with suppress(OSError):
        os.unlink(tmp)


class Output:
    """One output being written; ``commit()`` puts it in place, ``discard()`` drops it.

    As a context manager it commits on success and discards on any exception
    (Ctrl-C included). ``write`` takes text (written as UTF-8) or bytes;
    ``file`` is the binary file itself, for writers that need one (pyarrow).
    Errors are :class:`OutputError` naming ``path``, except a broken pipe,
    which stays a ``BrokenPipeError`` so the command line can end quietly.
    """

    def __init__(self, path: str | os.PathLike) -> None:
        self.path = path
        self.shown = os.fspath(path)
        self._tmp: Path | None = None
        self._target: Path | None = None
        self._own = True
        self._done = False
        self._text: IO[str] | None = None
        if is_stdout(path):
            sys.stdout.flush()
            self._own = False
            buffer = getattr(sys.stdout, "buffer", None)
            if buffer is None:  # a text-only stdout (a notebook's)
                self._text = sys.stdout
            self._file: IO[bytes] = buffer
            return
        p = Path(path)
        st = _stat(p, self.shown)
        if _kind(st, self.shown) == "through":
            try:
                # append: a file behind /dev/stdout keeps what the shell wrote before
                self._file = open(p, "ab")  # noqa: SIM115 (closed by commit or discard)
            except OSError as exc:
                raise OutputError(f"cannot write {self.shown}: {exc.strerror or exc}") from None
            return
        target = Path(os.path.realpath(p))
        remove_stale_temps(target.parent, target.name)
        tmp = target.with_name(temp_name(target.name))
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666)
        except (FileNotFoundError, NotADirectoryError):
            folder = p.parent if not p.is_symlink() else target.parent
            raise OutputError(_folder_problem(self.shown, folder)) from None
        except OSError as exc:
            raise OutputError(f"cannot write {self.shown}: {exc.strerror or exc}") from None
        if st is not None:  # replacing a file keeps its mode, as open() would
            with suppress(OSError):
                os.fchmod(fd, stat.S_IMODE(st.st_mode))
        self._tmp, self._target = tmp, target
        self._file = os.fdopen(fd, "wb")

    @property
    def file(self) -> IO[bytes]:
        return self._file

    def _failed(self, exc: OSError) -> OutputError:
        return OutputError(f"cannot write {self.shown}: {exc.strerror or exc}")

    def write(self, data: str | bytes) -> None:
        try:
            if self._text is not None:
                self._text.write(data if isinstance(data, str) else data.decode("utf-8"))
                return
            if not self._own:
                sys.stdout.flush()  # text echoed before stays before
            self._file.write(data.encode("utf-8") if isinstance(data, str) else data)
        except BrokenPipeError:
            raise
        except OSError as exc:
            self.discard()
            raise self._failed(exc) from None

    def commit(self) -> None:
        """Flush, fsync and rename the file into place (or flush a stream)."""
        if self._done:
            return
        try:
            if self._text is not None:
                self._text.flush()
            else:
                self._file.flush()
            if self._tmp is not None:
                os.fsync(self._file.fileno())
                self._file.close()
                os.replace(self._tmp, self._target)  # type: ignore[arg-type]
                self._tmp = None
                _sync_folder(self._target.parent)  # type: ignore[union-attr]
                _WRITTEN.add(os.path.abspath(self.path))
            elif self._own:
                self._file.close()
        except BrokenPipeError:
            self.discard()
            raise
        except OSError as exc:
            self.discard()
            raise self._failed(exc) from None
        except BaseException:
            self.discard()
            raise
        self._done = True

    def discard(self) -> None:
        """Drop the temporary file: unlinked first, so a close that fails (a full
        disk) cannot leave it behind."""
        if self._done:
            return
        self._done = True
        if self._tmp is not None:
            with suppress(OSError):
                os.unlink(self._tmp)
            self._tmp = None
        if self._own:
            with suppress(OSError):
                self._file.close()

    def __enter__(self) -> Output:
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is None:
            self.commit()
        else:
            self.discard()


def _sync_folder(folder: Path) -> None:
    """fsync a folder so the rename survives a crash (best effort)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    with suppress(OSError):
        os.fsync(fd)
    os.close(fd)


def write_output(path: str | os.PathLike, data: str | bytes) -> None:
    """Write a whole output (text as UTF-8, or bytes) by the rules above."""
    with Output(path) as out:
        out.write(data)


# the names the writers had first
atomic_write_text = write_output
atomic_write_bytes = write_output


# ------------------------------------------------------------------ --out folders
def _safe_name(name: object) -> bool:
    """A relative path inside the folder: no root, no '..'."""
    if not isinstance(name, str) or not name:
        return False
    p = PurePosixPath(name)
    return not p.is_absolute() and ".." not in p.parts and p.parts[:1] != (".",)


def earlier_files(out: str | os.PathLike) -> list[str] | None:
    """The files an earlier run of this program wrote into ``out``, as its run.json
    lists them (None: no run.json of ours). A run.json from before the list was kept
    stands for the files of the kinds this program writes."""
    out = Path(out)
    try:
        d = json.loads((out / "run.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        d = None
    versions = d.get("versions") if isinstance(d, dict) else None
    if not isinstance(versions, dict) or "cinch_sim" not in versions:
        store = store_files(out)  # a chunked run killed before its run.json
        return store or None
    files = d.get("files")
    if files is None:
        return _files_of_our_kinds(out)
    if not isinstance(files, list):
        return None
    return [f for f in files if _safe_name(f)]


def _run_manifest(out: str | os.PathLike) -> dict[str, Any] | None:
    """The manifest of a chunked run of ours in ``out``, None where none is readable."""
    try:
        d = json.loads((Path(out) / RUN_MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return d if isinstance(d, dict) and d.get("format") == RUN_FORMAT else None


def store_files(out: str | os.PathLike) -> list[str]:
    """A chunked run's manifest and chunk files in ``out`` (none without a manifest of
    ours), relative to it, sorted."""
    if _run_manifest(out) is None:
        return []
    found = [RUN_MANIFEST]
    with suppress(OSError):
        for entry in os.scandir(Path(out) / RUN_CHUNKS):
            if entry.is_file(follow_symlinks=False) and entry.name.endswith(".npz"):
                found.append(f"{RUN_CHUNKS}/{entry.name}")
    return sorted(found)


def unfinished_run(out: str | os.PathLike) -> str | None:
    """The command of the unfinished chunked run saved in ``out`` (its ``--resume``
    goes on with it), None where none is, or where it saved no chunk: nothing to go on
    with (a run whose policy failed at once: a review was pointed to --resume, which
    its mended policy file's digest then refused)."""
    d = _run_manifest(out)
    if d is None or d.get("complete") or not isinstance(d.get("command"), str):
        return None
    return d["command"] if len(store_files(out)) > 1 else None  # the manifest and a chunk


def _files_of_our_kinds(out: Path) -> list[str]:
    found = []
    for folder in (out, *(out / s for s in OUR_SUBFOLDERS)):
        with suppress(OSError):
            for entry in os.scandir(folder):
                if entry.is_file(follow_symlinks=False) and entry.name.endswith(OUR_SUFFIXES):
                    found.append(Path(entry.path).relative_to(out).as_posix())
    return sorted(found)


def check_out_dir(out: str | os.PathLike, force: bool, resumable: bool = True) -> list[str]:
    """Raise :class:`OutputError` unless ``out`` can take a run's files: a folder
    (or a path where one can be made) that is empty or, with ``force``, holds an
    earlier run's outputs. Returns those (what ``force`` will replace). Stale
    temporary files of ours are removed first: a killed run does not block the next.
    ``resumable``: the command can resume a run there (merge cannot)."""
    out = Path(out)
    shown = os.fspath(out)
    if out.exists() and not out.is_dir():
        raise OutputError(f"{shown} is a file, not a folder")
    if not out.exists():
        probe = out.absolute()
        while not probe.exists():
            probe = probe.parent
        if not probe.is_dir():
            raise OutputError(f"cannot make the folder {shown}: {probe} is a file")
        return []
    folders = (out, *(out / s for s in OUR_SUBFOLDERS))
    for folder in folders:
        remove_stale_temps(folder)
    try:
        entries = os.listdir(out)
    except OSError as exc:
        raise OutputError(f"cannot read the folder {shown}: {exc.strerror or exc}") from None
    if not entries:
        return []
    earlier = earlier_files(out)
    if earlier is None:  # not a run's folder: --force would not help, so never offered
        raise OutputError(
            f"{shown} holds files and no run.json of cinch-sim's, so --force will not "
            "replace them; name an empty or new folder"
        )
    if not force:
        command = unfinished_run(out) if resumable else None
        more = f" (or go on with its unfinished run: cinch-sim {command} --resume {shown})"
        more = more if command else ""
        raise OutputError(f"{shown} already holds files; use --force to replace them{more}")
    for folder in folders:  # a folder of ours: earlier versions' temporary files go too
        remove_stale_temps(folder, legacy=True)
    return earlier


def prepare_out_dir(out: str | os.PathLike, force: bool, resumable: bool = True) -> Path:
    """Check ``out`` (``check_out_dir``) and make it; nothing of an earlier run is
    removed until ``write_run_json`` ends the new one."""
    earlier = check_out_dir(out, force, resumable)
    out = Path(out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"cannot make the folder {out}: {exc.strerror or exc}") from None
    _probe(out / "run.json", os.fspath(out))
    key = os.path.abspath(out)
    for name in [n for n in _WRITTEN if _inside(n, key)]:
        _WRITTEN.discard(name)
    _EARLIER[key] = earlier
    return out


def prepare_resume_dir(out: str | os.PathLike) -> Path:
    """A chunked run's folder, to be written again by the run that resumes it: the
    files it lists now are replaced, or removed by ``write_run_json`` if not
    written again (as ``prepare_out_dir`` with ``force``)."""
    out = Path(out)
    key = os.path.abspath(out)
    for folder in (out, *(out / s for s in OUR_SUBFOLDERS)):
        remove_stale_temps(folder)
    for name in [n for n in _WRITTEN if _inside(n, key)]:
        _WRITTEN.discard(name)
    _EARLIER[key] = earlier_files(out) or []
    return out


def _inside(path: str, folder: str) -> bool:
    return path.startswith(folder.rstrip(os.sep) + os.sep)


def _remove_earlier(out: Path, names: Iterable[str], keep: set[str]) -> None:
    """Remove an earlier run's files (regular files and links only, never a folder's
    content it did not list) and the subfolders they leave empty."""
    for name in names:
        if name in keep:
            continue
        p = out / name
        try:
            mode = os.lstat(p).st_mode
        except OSError:
            continue
        if stat.S_ISREG(mode) or stat.S_ISLNK(mode):
            with suppress(OSError):
                os.unlink(p)
            parent = p.parent
            while parent != out and _inside(os.path.abspath(parent), os.path.abspath(out)):
                try:
                    parent.rmdir()  # only when empty
                except OSError:
                    break
                parent = parent.parent


def versions() -> dict[str, str]:
    from importlib.metadata import PackageNotFoundError, version

    out = {"cinch_sim": __version__, "python": platform.python_version()}
    for package in (
        "numpy",
        "numba",
        "llvmlite",
        "pandas",
        "scipy",
        "click",
        "matplotlib",
        "platformdirs",
        "pyarrow",
    ):
        try:
            out[package] = version(package)
        except PackageNotFoundError:
            out[package] = "not installed"
    return out


def write_run_json(out: Path, settings: dict[str, Any]) -> None:
    """Record every setting beside the outputs, so any table can be reproduced, and
    the files this run wrote (``files``), so a later ``--force`` replaces exactly
    those; then remove the earlier run's files this run did not write again."""
    out = Path(out)
    key = os.path.abspath(out)
    files = {Path(n).relative_to(key).as_posix() for n in _WRITTEN if _inside(n, key)}
    if RUN_MANIFEST in files:  # this run's store: its chunks, also those a sitting before saved
        files.update(store_files(out))
    files.add("run.json")
    payload = dict(settings)
    payload["versions"] = versions()
    payload["files"] = sorted(files)
    write_output(out / "run.json", json.dumps(payload, indent=2, default=str) + "\n")
    _remove_earlier(out, _EARLIER.pop(key, []), files)
