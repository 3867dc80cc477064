"""An address-space limit (``ulimit -v``) too small for Numba's compiler, or for loading the
compiled kernels from a warm cache (issue 38, round 4's leftover): refused in one line before
LLVM starts, instead of LLVM's ``std::bad_alloc`` aborting the process (exit 134).  A warm
cache under a limit: ``test_hostile_limits_and_streams.py``'s factory (slow)."""

import os
import resource
import sqlite3
import subprocess

import pytest
from hostile_helpers import TINY, beyond_compiling, command

from beggar_search.address_space import (
    COMPILE_BYTES,
    LOAD_BYTES,
    check_compile_room,
    check_load_room,
)
from beggar_search.errors import UserError


def test_a_limit_below_what_a_compile_needs_is_refused_in_words():
    with pytest.raises(UserError, match=r"ulimit -v \d+\).*compile"):
        check_compile_room(COMPILE_BYTES - 1)
    check_compile_room(COMPILE_BYTES)
    check_compile_room(resource.RLIM_INFINITY)


def test_a_limit_below_what_loading_needs_is_refused_in_words():
    assert LOAD_BYTES < COMPILE_BYTES
    with pytest.raises(UserError, match=r"ulimit -v \d+\).*load the compiled kernels"):
        check_load_room(LOAD_BYTES - 1)
    check_load_room(LOAD_BYTES)
    check_load_room(resource.RLIM_INFINITY)


@pytest.mark.process
def test_a_warm_cache_under_a_small_limit_is_one_line_and_no_run(tmp_path):
    """Seen: `search factory` under `ulimit -v 400000` with its kernels cached aborted in LLVM
    ('LLVM ERROR: out of memory' while loading them, exit 134)."""
    args = ("search", "random", "--deck", TINY, "--deals", "2000", "--workers", "1",
            "--quiet", "--db")
    subprocess.run(command(*args, str(tmp_path / "warm.sqlite")), check=True,
                   capture_output=True, timeout=600)  # the kernels cached first

    def limited():
        resource.setrlimit(resource.RLIMIT_AS, (450_000_000, 450_000_000))

    result = subprocess.run(command(*args, str(tmp_path / "f.sqlite")), capture_output=True,
                            text=True, timeout=300, preexec_fn=limited)
    assert result.returncode == 2, result.stderr[-2000:]
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "ulimit -v" in lines[0] and "load the compiled" in lines[0]
    assert not (tmp_path / "f.sqlite").exists()


@pytest.mark.process
def test_a_cold_compile_under_a_small_limit_is_one_line_and_no_run(tmp_path):
    limit = 800_000_000  # enough to start and to load a warm cache, not to compile

    def limited():
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cold-cache")}
    result = subprocess.run(
        command("search", "factory", "--deck", TINY, "--hours", "0.001", "--workers", "1",
                "--quiet", "--db", str(tmp_path / "f.sqlite")),
        capture_output=True, text=True, timeout=300, env=env, preexec_fn=limited)
    assert result.returncode == 2, result.stderr[-2000:]
    lines = beyond_compiling(result.stderr)
    assert len(lines) == 1 and "ulimit -v" in lines[0] and "Traceback" not in result.stderr
    if (tmp_path / "f.sqlite").exists():  # factory reads its known cycles first: no run
        with sqlite3.connect(tmp_path / "f.sqlite") as db:
            assert db.execute("SELECT count(*) FROM runs").fetchone()[0] == 0
