"""Helpers shared by the hostile tests (``test_hostile_runs_and_outputs``, ``test_hostile_store``,
``test_hostile_process``): commands (``command`` is ``cli_harness.command``, the one argv of a
real ``beggar-search`` process), a small results file, waits, locks and damage."""

import os
import sqlite3
import subprocess
import sys
import time

import pytest
from cli_harness import command
from storeview import stored

from beggar_search import driver
from beggar_search.store import Store

TINY = "plain=5,J=2,Q=1,K=1"


def params(**extra):
    return {"deck": TINY, "players": 2, "max_tricks": None, "top_k": 20, "chunk_size": 500,
            "hours": None, **extra}


def two_runs(tmp_path):
    """A results file holding two runs."""
    path = tmp_path / "base.sqlite"
    with Store(path) as store:
        for _ in range(2):
            driver.start(store, "enumerate", params(start=0, deals=1512, seed=None), 1,
                         quiet=True)
    return path


def beyond_compiling(stderr: str) -> list[str]:
    """The lines of ``stderr`` but the ones saying that kernels compile and have compiled
    (a command on a cold cache says so first)."""
    return [line for line in stderr.strip().splitlines()
            if not line.startswith(("beggar-search: compiling the kernels of",
                                    "beggar-search: compiled "))]


def fails_in_one_line(result):
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert len(beyond_compiling(result.stderr)) == 1, result.stderr
    assert "Traceback" not in result.stderr and "error" in result.stderr
    return result.stderr


def intact(path, runs=2):
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert db.execute("SELECT count(*) FROM runs").fetchone()[0] == runs
    return stored(path)


def search(*args, db):
    return command("search", "random", "--quiet", "--json", "--db", str(db), *args)


def wait_for(predicate, timeout=120.0, what="condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def workers_of(pid):
    found = subprocess.run(["pgrep", "-f", "-P", str(pid), "multiprocessing.spawn"],
                           capture_output=True, text=True).stdout.split()
    return [int(p) for p in found]


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as handle:  # a zombie is dead, only not yet reaped
        return handle.read().split(")")[-1].split()[0] != "Z"


def chunks_stored(db):
    try:
        with sqlite3.connect(db, timeout=5) as connection:
            return connection.execute("SELECT count(*) FROM chunks").fetchone()[0]
    except sqlite3.Error:
        return 0


# 300 chunks of about 4 ms: some 1.5 s of play after the start, so that a test that disturbs
# the run once a few chunks are stored finds it still going (at 600,000 deals the whole run
# could end between the poll and the disturbance: the full-disk test skipped in CI)
SWEEP = ["--deck", "camicia", "--deals", "6000000", "--chunk-size", "20000", "--seed", "9",
         "--workers", "2"]


def sweep_under_way(db, chunks, **popen):
    """The SWEEP search on ``db``, once it has stored ``chunks`` chunks."""
    process = subprocess.Popen(search(*SWEEP, db=db), stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, **popen)
    wait_for(lambda: db.exists() and chunks_stored(db) >= chunks, what=f"{chunks} chunks")
    return process


def whole_sweep_of(tmp_path_factory):
    """What the SWEEP search stores when nothing disturbs it."""
    db = tmp_path_factory.mktemp("whole") / "whole.sqlite"
    subprocess.run(search(*SWEEP, db=db), check=True, capture_output=True, timeout=600)
    return stored(db)


LOCKER = """
import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=60)
if sys.argv[3] == "exclusive":  # nobody may even read
    db.execute("PRAGMA locking_mode=EXCLUSIVE")
db.execute("BEGIN EXCLUSIVE")
db.execute("UPDATE runs SET updated = updated")
print("locked", flush=True)
if float(sys.argv[2]) < 0:  # until a line comes on stdin (or stdin closes)
    sys.stdin.readline()
else:
    time.sleep(float(sys.argv[2]))
db.execute("COMMIT")
"""


def lock(path, seconds, mode="exclusive"):
    """Another process holding a lock on ``path`` for ``seconds`` (a negative number: until
    ``locker.communicate("\n")``).

    ``exclusive``: nobody may read or write; ``write``: another writer in the middle of a
    transaction (readers go on, writers wait).
    """
    locker = subprocess.Popen([sys.executable, "-c", LOCKER, str(path), str(seconds), mode],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert locker.stdout.readline().strip() == "locked"
    return locker


def damage(path, offset_fraction, data):
    with open(path, "r+b") as handle:
        size = handle.seek(0, 2)
        offset = int(size * offset_fraction) // 4096 * 4096
        handle.seek(offset)
        handle.write(data)


def ctrl_c_to_group(process, timeout=60):
    """Ctrl-C as a terminal sends it (to ``process``'s whole group, which it leads), then its
    end: (stdout, stderr, seconds it took); killed when it outlives ``timeout``."""
    import signal

    try:
        os.killpg(process.pid, signal.SIGINT)
        sent = time.monotonic()
        try:
            out, err = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            alive = subprocess.run(["ps", "-o", "pid,ppid,stat,wchan:24,args", "-s",
                                    str(process.pid)], capture_output=True, text=True).stdout
            os.killpg(process.pid, signal.SIGKILL)
            out, err = process.communicate()  # its pipes closed, not left to the collector
            pytest.fail(f"still running {timeout} s after a Ctrl-C; stderr {err!r};"
                        f" its session's processes:\n{alive}")
        return out, err, time.monotonic() - sent
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
