"""What this build of beggar-search is: its version, the git commit it was built from, and
the versions of what its engine rests on (Numba compiles the kernels, so its version and
llvmlite's can change results' speed, never their content).

The commit comes from the checkout the package runs from (an editable install: ``git
rev-parse``, with ``-dirty`` when files differ from it), else from ``COMMIT_FILE``, which
the wheel build writes (``hatch_build.py``), else it is ``"unknown"``.
"""

from __future__ import annotations

import functools
import platform
import subprocess
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

PACKAGE = Path(__file__).parent
COMMIT_FILE = PACKAGE / "_commit.txt"  # written into the wheel by hatch_build.py
UNKNOWN = "unknown"


def package_version() -> str:
    """The installed package's version (``0.0.0`` when run from a tree never installed)."""
    try:
        return version("beggar-search")
    except PackageNotFoundError:
        return "0.0.0"


def _git(*args: str) -> str | None:
    try:
        done = subprocess.run(["git", "-C", str(PACKAGE.parent), *args], capture_output=True,
                              text=True, timeout=5, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


@functools.cache
def commit() -> str:
    """The git commit the code comes from: a full hash (``-dirty`` when the checkout has
    changes), or ``"unknown"``."""
    if (PACKAGE.parent / ".git").exists():  # a checkout (a worktree's .git is a file)
        head = _git("rev-parse", "HEAD")
        if head:
            dirty = _git("status", "--porcelain", "--untracked-files=no", "--", str(PACKAGE))
            return head + ("-dirty" if dirty else "")
    try:
        text = COMMIT_FILE.read_text().strip()
    except OSError:
        return UNKNOWN
    return text or UNKNOWN


def versions() -> dict:
    """The versions ``--version`` prints: beggar-search, its commit, numba, llvmlite, numpy
    and Python, read from the installed packages' metadata: importing Numba would take
    longer than the rest of ``--version``."""
    return {"beggar_search": package_version(), "commit": commit(),
            **{name: installed(name) for name in ("numba", "llvmlite", "numpy")},
            "python": platform.python_version()}


def installed(distribution: str) -> str:
    """The version of the installed ``distribution``, or ``UNKNOWN``."""
    try:
        return version(distribution)
    except PackageNotFoundError:
        return UNKNOWN


def version_text(found: dict | None = None) -> str:
    """``--version`` for people: one line."""
    found = found or versions()
    return (f"beggar-search {found['beggar_search']} (commit {found['commit']}), numba"
            f" {found['numba']}, llvmlite {found['llvmlite']}, numpy {found['numpy']},"
            f" Python {found['python']}")
