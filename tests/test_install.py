"""A regular install, a command, then an editable reinstall: the package still imports.

numba used to keep the compiled kernel beside the installed sources, so after
``pip install .`` and one command, ``pip install -e .`` left that cache folder in
site-packages, where it shadowed the editable package as an empty namespace
package (``cannot import name '__version__' from 'cinch_sim' (unknown
location)``). The cache now lives in a per-user folder, outside the package.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _run(cmd, env, cwd):
    p = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, f"{cmd}: {p.stdout[-1500:]}{p.stderr[-1500:]}"
    return p.stdout


def _venv_seeing_ours(env_dir: Path) -> str:
    """A new venv whose own site-packages comes first, then the packages of the Python
    running the tests (numba, pip, wheel: the test extra's, never downloaded). A
    venv's ``system_site_packages`` would show the base Python's instead, which in a
    user's venv has no ``wheel`` (``invalid command 'bdist_wheel'``). A path line in a
    .pth file adds the folder without running its own .pth files, so our editable
    install's finder stays out and the venv's install of the copy is what imports."""
    venv.EnvBuilder(with_pip=False).create(env_dir)
    py = env_dir / "bin" / "python"
    site = subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                          capture_output=True, text=True, check=True).stdout.strip()  # fmt: skip
    ours = {sysconfig.get_path("purelib"), sysconfig.get_path("platlib")}
    (Path(site) / "outer-site.pth").write_text("".join(f"{p}\n" for p in sorted(ours)))
    return str(py)


@pytest.mark.slow  # two pip installs into a new venv: 16-20 s of one core
@pytest.mark.skipif(sys.platform == "win32", reason="POSIX venv layout")
def test_regular_install_then_editable_reinstall_imports(tmp_path):
    src = tmp_path / "src"  # a copy of the checkout: the install touches no real file
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(".git", "__pycache__", "*.egg-info"))
    py = _venv_seeing_ours(tmp_path / "venv")
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "PYTHONPATH")}
    env["XDG_CACHE_HOME"] = str(tmp_path / "user-cache")  # where the kernel cache must go
    pip = [py, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation"]
    elsewhere = tmp_path  # not the source folder, so nothing imports from it by accident
    _run([*pip, str(src)], env, elsewhere)
    out = _run([py, "-m", "cinch_sim", "variants", "--format", "csv"], env, elsewhere)
    assert out.startswith("variant,")
    # the random policies compile in seconds, into the cache, as the kernel would
    _run([py, "-c", "from cinch_sim.policies import random"], env, elsewhere)
    site = Path(_run([py, "-c", "import cinch_sim, os; print(os.path.dirname(cinch_sim.__file__))"],
                     env, elsewhere).strip())  # fmt: skip
    # the web page's files ship in the package (no CDN, no network)
    assert {p.name for p in (site / "web" / "static").iterdir()} >= {"advisor.html", "style.css"}
    # and so do the stored studies the report takes (report/stored_studies.py)
    stored = {p.name for p in (site / "report" / "stored").iterdir()}
    assert stored >= {"card_values_pimc_standard.npz", "hand_values_pimc_standard.npz"}
    cached = [p for p in site.rglob("*") if p.suffix in (".nbi", ".nbc")]
    assert cached == []  # nothing compiled landed inside the installed package
    assert list((tmp_path / "user-cache" / "cinch-sim").rglob("*.nbi"))  # it went here
    _run([*pip, "-e", str(src)], env, elsewhere)
    version = _run([py, "-c", "import cinch_sim; print(cinch_sim.__version__)"], env, elsewhere)
    assert version.strip() == __import__("cinch_sim").__version__


def test_the_cache_folder_holds_even_when_numba_was_imported_first(tmp_path):
    # numba reads NUMBA_CACHE_DIR when it is imported; cinch_sim then reloads its settings
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["XDG_CACHE_HOME"] = str(tmp_path)
    code = "import numba, cinch_sim; from numba.core import config; print(config.CACHE_DIR)"
    out = _run([sys.executable, "-c", code], env, ROOT)
    assert out.strip() == str(tmp_path / "cinch-sim")
