"""The repository stands on its own: nothing in it points outside it, and no script
writes over a committed file unless told to.

The project was built from specification files of its own workspace (the rules,
the record format, the benchmark workloads, the design notes), which users do
not have; what users need of them is in docs/rules.md, docs/records.md and
docs/benchmarks.md, and the code cites those (``docs/rules.md §1.6``). So no
tracked file may name those files, the workspace's shared folder or an absolute
path of the machine the project was made on.

Every script in scripts/ writes its files to the folder ``--out`` names, or to a
new temporary folder (scripts/outdir.py): none has a default output under
results/, whose files are committed.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

import cinch_sim

ROOT = Path(cinch_sim.__file__).resolve().parents[1]
# The file names and paths, spelt so this file does not match itself.
OUTSIDE = re.compile(
    r"\bBENCHMARK\.md|\bRULES\.md|\bRECORD_FORMAT\b|\bDESIGN\.md|\.\./shared|/wor[k]/|/hom[e]/"
)


def _tracked() -> list[str]:
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    out = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return [name for name in out.stdout.split("\0") if name]


def test_no_tracked_file_points_outside_the_repository():
    found = []
    for name in _tracked():
        path = ROOT / name
        if not path.is_file():
            continue  # deleted in the working tree
        data = path.read_bytes()
        if b"\0" in data:
            continue  # binary (figures, chunks)
        for n, line in enumerate(data.decode("utf-8", "replace").splitlines(), 1):
            if OUTSIDE.search(line):
                found.append(f"{name}:{n}: {line.strip()[:100]}")
    assert found == []


# ------------------------------------------------------------------ scripts
def _output_defaults(path: Path) -> list[str]:
    """The defaults of a script's arguments that name a place under results/."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "add_argument":
            for kw in node.keywords:
                if kw.arg == "default":
                    text = " ".join(
                        str(c.value)
                        for c in ast.walk(kw.value)
                        if isinstance(c, ast.Constant) and isinstance(c.value, str)
                    )
                    if re.search(r"(^|[\s/])results\b", text):
                        out.append(f"{path.name}:{node.lineno}: default {text!r}")
    return out


def test_no_script_writes_under_results_by_default():
    scripts = sorted((ROOT / "scripts").glob("*.py"))
    assert len(scripts) > 5
    assert [x for p in scripts for x in _output_defaults(p)] == []


def test_without_out_a_script_writes_to_a_new_folder(tmp_path, capsys):
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        from outdir import out_folder
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    a, b = out_folder(None, "test"), out_folder(None, "test")
    try:
        assert a != b and list(a.iterdir()) == [] and list(b.iterdir()) == []
        assert ROOT not in a.parents
        assert str(a) in capsys.readouterr().err  # said where
        named = tmp_path / "x" / "y"
        assert out_folder(named, "test") == named and named.is_dir()
    finally:
        a.rmdir()
        b.rmdir()
