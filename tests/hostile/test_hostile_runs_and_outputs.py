"""Hostile input and a hostile machine: nothing lost, nothing unstoppable, no traceback.

Each test reproduces one way a user or the machine could lose results, as a user would meet
it: real subprocesses, real files, real signals.
"""

import json
import os
import re
import signal
import sqlite3
import stat
import subprocess
import time
from pathlib import Path

import pytest
from cli_harness import run
from hostile_helpers import (
    SWEEP,
    alive,
    beyond_compiling,
    chunks_stored,
    command,
    damage,
    fails_in_one_line,
    intact,
    lock,
    params,
    search,
    sweep_under_way,
    two_runs,
    wait_for,
    whole_sweep_of,
    workers_of,
)
from storeview import stored

from beggar_search import driver
from beggar_search.driver import STOP_GRACE
from beggar_search.store import Store


@pytest.fixture
def results(tmp_path):
    """A results file holding two runs."""
    return two_runs(tmp_path)


@pytest.mark.parametrize(("what", "how"), [
    *((what, how) for what in ("export", "export-json")
      for how in ("same path", "symlink", "hard link", "relative path")),
    ("plot", "symlink"),  # an image needs an image suffix: a link named .png
])
def test_an_output_never_replaces_the_results_file(results, tmp_path, how, what):
    before = stored(results)
    target = {"same path": results, "relative path": results,
              "symlink": tmp_path / "link.sqlite", "hard link": tmp_path / "hard.csv"}[how]
    if how == "symlink":
        target.symlink_to(results)
    elif how == "hard link":
        os.link(results, target)
    cwd = tmp_path if how == "relative path" else None
    out = "base.sqlite" if how == "relative path" else str(target)
    if what == "plot":
        target.unlink()
        target = tmp_path / "link.png"
        target.symlink_to(results)
        out = str(target)
        args = ["plot", "lengths", "--db", str(results), "--out", out]
    else:
        args = ["export", "--db", str(results), "--run", "1", "--out", out]
        args += ["--json"] if what == "export-json" else []
    message = fails_in_one_line(run(*args, cwd=cwd))
    assert "refusing" in message
    assert intact(results) == before


def test_an_output_never_replaces_another_sqlite_database(results, tmp_path):
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE precious (x)")
        db.execute("INSERT INTO precious VALUES (42)")
    size = other.stat().st_size
    message = fails_in_one_line(run("export", "--db", str(results), "--out", str(other)))
    assert "SQLite database" in message
    assert other.stat().st_size == size
    with sqlite3.connect(other) as db:
        assert db.execute("SELECT x FROM precious").fetchall() == [(42,)]


def test_an_export_replaces_an_old_csv_whole_and_leaves_no_temporary_file(results, tmp_path):
    out = tmp_path / "longest.csv"
    out.write_text("old contents\n" * 1000)
    done = run("export", "--db", str(results), "--out", str(out))
    assert done.returncode == 0, done.stderr
    lines = out.read_text().splitlines()
    assert lines[0].startswith("rank,deal,cards") and "old contents" not in lines
    assert sorted(p.name for p in tmp_path.iterdir()) == ["base.sqlite", "longest.csv"]


def test_a_failed_export_leaves_the_old_file_as_it_was(results, tmp_path, monkeypatch):
    """A write that fails half-way (a full disk) leaves the previous export untouched."""
    from beggar_search import exports

    out = tmp_path / "loops.csv"
    out.write_text("previous export\n")

    class FullDisk:
        def __init__(self, *args, **kwargs):
            pass

        def writeheader(self):
            raise OSError(28, "No space left on device")

    monkeypatch.setattr(exports.csv, "DictWriter", FullDisk)
    message = fails_in_one_line(run("export", "--db", results, "--out", out))
    assert "No space left on device" in message
    assert out.read_text() == "previous export\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["base.sqlite", "loops.csv"]


# --- runs that must stop: --hours, Ctrl-C and SIGTERM, whatever the chunk size -------------

@pytest.mark.slow
def test_hours_are_honoured_whatever_the_chunk_size(tmp_path):
    """One chunk that would take days: --hours still ends the run within seconds."""
    db = tmp_path / "h.sqlite"
    started = time.monotonic()
    done = subprocess.run(search("--chunk-size", str(1 << 27), "--hours", "0.002",
                                 "--workers", "1", db=db), capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 3, done.stderr  # stopped without a signal (docs/search.md)
    summary = json.loads(done.stdout)
    # stopped, not done: the run ran out of time before its first chunk (round 4's C1)
    assert summary["status"] == "stopped" and summary["deals"] == 0
    assert summary["stop_signal"] is None
    assert "dropped the chunks in flight" in done.stderr
    # 7.2 s of searching plus the grace, compiling and starting: far below a chunk's minutes
    assert time.monotonic() - started < 90


def runs_created(db) -> int:
    """The runs in results file ``db`` (0 while it cannot be read)."""
    try:
        with sqlite3.connect(db, timeout=5) as connection:
            return connection.execute("SELECT count(*) FROM runs").fetchone()[0]
    except sqlite3.Error:
        return 0


@pytest.mark.slow
@pytest.mark.parametrize("workers", ["1", "2"])
@pytest.mark.parametrize("how", ["SIGTERM to the group", "SIGTERM", "two Ctrl-C"])
def test_a_stop_is_honoured_whatever_the_chunk_size(tmp_path, workers, how):
    db = tmp_path / "s.sqlite"
    process = subprocess.Popen(search("--chunk-size", str(1 << 27), "--workers", workers, db=db),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True)
    wait_for(lambda: len(workers_of(process.pid)) == int(workers), what="the workers")
    # the run is created once its workers are ready (on a loaded machine, seconds after they
    # start): a stop before that ends the command before any run exists, not this test's case
    wait_for(lambda: runs_created(db) == 1, what="the run")
    time.sleep(1.0)
    if how == "SIGTERM to the group":
        os.killpg(process.pid, signal.SIGTERM)
    elif how == "SIGTERM":
        process.send_signal(signal.SIGTERM)
    else:
        process.send_signal(signal.SIGINT)
        time.sleep(0.5)
        process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=STOP_GRACE + 30)
    # a stop before the plan's end: 128 + the signal, as shells report (docs/search.md)
    assert process.returncode == 128 + (signal.SIGTERM if "SIGTERM" in how else signal.SIGINT), err
    assert "Traceback" not in err and "failed" not in err
    summary = json.loads(out)
    assert summary["status"] == "stopped"
    assert stored(db)["summary"]["status"] == "stopped"


@pytest.mark.slow
def test_a_group_sigterm_finishes_the_chunks_in_flight_and_resume_completes(tmp_path,
                                                                            whole_sweep):
    """What `timeout`, systemd and job schedulers do: the workers are not killed by it.
    The SWEEP search: enough chunks that the run cannot end between the poll that sees two
    stored and the signal (600,000 deals, 30 chunks of 4 ms each, once did, and this test
    failed on the stderr a finished run does not write: CI, 2026-12-06)."""
    db = tmp_path / "term.sqlite"
    process = sweep_under_way(db, 2, start_new_session=True)
    os.killpg(process.pid, signal.SIGTERM)
    out, err = process.communicate(timeout=60)
    summary = json.loads(out)
    if summary["deals"] == whole_sweep["summary"]["deals"]:
        pytest.skip("the run ended before the signal landed")
    assert "stopping: finishing the chunks in flight" in err and "dropped" not in err
    assert summary["status"] == "stopped" and summary["stop_signal"] == "SIGTERM"
    assert process.returncode == 128 + signal.SIGTERM, err
    subprocess.run(command("search", "resume", "--db", str(db), "--quiet"), check=True,
                   capture_output=True, timeout=600)
    assert stored(db) == whole_sweep


@pytest.mark.slow
def test_workers_exit_when_the_parent_is_killed(tmp_path):
    db = tmp_path / "orphans.sqlite"
    process = subprocess.Popen(search("--workers", "2", db=db), stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, start_new_session=True)
    wait_for(lambda: len(workers_of(process.pid)) == 2, what="the workers")
    group = [int(p) for p in subprocess.run(["pgrep", "-g", str(process.pid)],
                                            capture_output=True, text=True).stdout.split()]
    assert len(group) >= 3  # the parent, two workers, the resource tracker
    process.kill()
    process.wait()
    others = [pid for pid in group if pid != process.pid]
    wait_for(lambda: not any(alive(pid) for pid in others), timeout=10,
             what="the workers and the resource tracker to exit")


# --- results files that cannot be written, are locked, damaged or of another version -------

@pytest.fixture(scope="module")
def whole_sweep(tmp_path_factory):
    return whole_sweep_of(tmp_path_factory)


@pytest.fixture
def tiny_disk(tmp_path):
    """A 16 MiB tmpfs (needs root); skipped where the machine does not allow mounting.  Room
    for the whole SWEEP once the filler is gone: its -wal grows to about 4 MiB (SQLite's
    checkpoint at 1,000 pages) over its 300 chunks, and a 4 MiB disk filled again on resume."""
    mount = tmp_path / "disk"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", str(mount)],
                          capture_output=True)
    if done.returncode != 0:
        pytest.skip("cannot mount a tmpfs here (the file-size-limit case covers a full disk)")
    yield mount
    subprocess.run(["umount", "-l", str(mount)], check=False)


def fill(folder):
    """Fill the file system of ``folder``; returns the filler file.

    Unbuffered, so that closing it has nothing left to write to the full disk (a
    buffered file raised ENOSPC again on close, now and then)."""
    filler = folder / "filler"
    with open(filler, "wb", buffering=0) as handle:
        try:
            while True:
                handle.write(b"\0" * 65536)
        except OSError:
            pass
    return filler


@pytest.mark.slow
def test_a_full_disk_stops_the_run_in_one_line_and_resume_completes(tiny_disk, whole_sweep):
    db = tiny_disk / "f.sqlite"
    process = sweep_under_way(db, 3)
    try:
        filler = fill(tiny_disk)
    except BaseException:
        process.kill()
        process.communicate()
        raise
    out, err = process.communicate(timeout=300)
    if process.returncode == 0:
        pytest.skip("the run ended before the disk was full")
    assert process.returncode == 2 and len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err and "full" in err and "search resume" in err
    filler.unlink()
    kept = stored(db)
    assert kept["summary"]["status"] in ("stopped", "running") and kept["chunks"]
    resumed = subprocess.run(command("search", "resume", "--db", str(db), "--quiet"),
                             capture_output=True, text=True, timeout=600)
    assert resumed.returncode == 0, resumed.stderr
    assert stored(db) == whole_sweep


@pytest.mark.slow
def test_a_file_size_limit_stops_the_run_in_one_line_and_resume_completes(tmp_path,
                                                                          whole_sweep):
    """The same at the same call where no tmpfs can be mounted: writes past a size fail."""
    import resource

    db = tmp_path / "limited.sqlite"
    with Store(db):
        pass  # the empty results file, before the limit
    limit = db.stat().st_size + 96 * 1024

    def limited():
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    done = subprocess.run(search(*SWEEP, db=db), capture_output=True, text=True, timeout=600,
                          preexec_fn=limited)
    assert done.returncode == 2 and len(beyond_compiling(done.stderr)) == 1, done.stderr
    assert "Traceback" not in done.stderr and "search resume" in done.stderr
    # as on a full disk: the write that says "stopped" can be the one past the limit (seen
    # once in .ci/run); every chunk stored stays, and the resume completes the run
    kept = stored(db)
    assert kept["summary"]["status"] in ("stopped", "running") and kept["chunks"]
    resumed = subprocess.run(command("search", "resume", "--db", str(db), "--quiet"),
                             capture_output=True, text=True, timeout=600)
    assert resumed.returncode == 0, resumed.stderr
    assert stored(db) == whole_sweep


@pytest.fixture
def read_only(results):
    """The results file made read-only (``chattr +i`` for root, whom modes do not stop)."""
    if os.geteuid() == 0:
        if subprocess.run(["chattr", "+i", str(results)], capture_output=True).returncode:
            pytest.skip("chattr +i is not available here")
        yield results
        subprocess.run(["chattr", "-i", str(results)], check=True)
    else:
        results.chmod(0o444)
        yield results


@pytest.mark.parametrize("args", [["search", "random", "--deals", "10"],
                                  ["search", "resume", "--run", "1"]])
def test_a_read_only_results_file_is_one_line(read_only, args):
    before = read_only.read_bytes()
    message = fails_in_one_line(run(*args, "--db", str(read_only)))
    assert str(read_only) in message and "read-only" in message
    assert read_only.read_bytes() == before
    done = run("runs", "--db", str(read_only))
    assert done.returncode == 0 and len(done.stdout.splitlines()) == 3  # still readable


@pytest.mark.parametrize("args", [["runs"], ["show"], ["export"],
                                  ["search", "random", "--deals", "10"]])
def test_a_command_waits_for_a_lock_says_so_and_gives_up_in_one_true_line(results, args):
    locker = lock(results, 30)
    try:
        done = run(*args, "--db", str(results),
                   env={**os.environ, "BEGGAR_SEARCH_LOCK_WAIT": "2"})
    finally:
        locker.kill()
        locker.communicate()
    assert done.returncode == 2, done.stderr
    lines = beyond_compiling(done.stderr)
    assert "waiting for a lock" in lines[0] and "another process" in lines[0]
    assert len(lines) == 2 and "locked by another process" in lines[1]
    assert "not a beggar-search results file" not in done.stderr
    assert intact(results)


def test_a_command_goes_on_once_the_lock_is_released(results):
    locker = lock(results, -1)  # held until the command says it waits, however long it starts
    process = subprocess.Popen(command("runs", "--db", str(results)), stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    said = []
    try:
        for line in process.stderr:
            said.append(line)
            if "waiting for a lock" in line:
                break
    finally:
        locker.communicate("release\n", timeout=60)
    out, err = process.communicate(timeout=120)
    assert any("waiting for a lock" in line for line in said), "".join(said) + err
    assert process.returncode == 0 and len(out.splitlines()) == 3, "".join(said) + err


@pytest.mark.slow
def test_a_search_waits_out_a_long_lock_and_drops_nothing(tmp_path, whole_sweep):
    db = tmp_path / "locked.sqlite"
    process = sweep_under_way(db, 2, env={**os.environ, "BEGGAR_SEARCH_LOCK_WAIT": "2"})
    locker = lock(db, 8, "write")  # longer than a command's patience: a search keeps waiting
    out, err = process.communicate(timeout=600)
    locker.communicate()
    assert process.returncode == 0, err
    assert json.loads(out)["status"] == "done"
    if "waiting for a lock" not in err:
        pytest.skip("the run ended before the lock was taken")
    assert stored(db) == whole_sweep


@pytest.mark.parametrize("data", [os.urandom(4096), b"\0" * 8192], ids=["random", "zeros"])
@pytest.mark.parametrize("args", [["runs"], ["show"], ["export"],
                                  ["export", "--what", "histogram", "--run", "1"],
                                  ["search", "random", "--deals", "10"],
                                  ["search", "resume", "--run", "1"]])
def test_a_damaged_file_is_refused_in_one_line_and_never_written(tmp_path, data, args):
    db = tmp_path / "damaged.sqlite"
    with Store(db) as store:  # a file of many pages, so the damage lands inside its tables
        driver.start(store, "enumerate", params(start=0, deals=1512, seed=None, top_k=2000),
                     1, quiet=True)
        driver.start(store, "random", params(deals=20000, seed=3, top_k=2000), 1, quiet=True)
    damage(db, 0.5, data)
    before = db.read_bytes()
    message = fails_in_one_line(run(*args, "--db", str(db)))
    assert "damaged" in message and "beggar-search recover" in message
    assert db.read_bytes() == before


@pytest.mark.parametrize(("version", "says"), [(99, "newer beggar-search"),
                                                (0, "does not know")])
@pytest.mark.parametrize("args", [["runs"], ["search", "random", "--deals", "10"]])
def test_another_results_format_is_named_in_one_line(results, version, says, args):
    with sqlite3.connect(results) as db:
        db.execute(f"PRAGMA user_version={version}")
    message = fails_in_one_line(run(*args, "--db", str(results)))
    assert f"results format {version}" in message and says in message
    assert "format 1 (beggar-search 0.1)" in message


# --- options the engine cannot take: refused before any run is created ---------------------

@pytest.mark.parametrize("args", [
    ["search", "random", "--deals", "10", "--max-tricks", "18446744073709551616"],
    ["search", "random", "--deals", "10", "--max-tricks", "9223372036854775807"],
    ["play", "--max-tricks", "18446744073709551616",
     "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA"],
    ["show", "--run", "99999999999999999999"],
    ["export", "--run", "99999999999999999999"],
    ["search", "resume", "--run", "99999999999999999999"],
    ["plot", "lengths", "--vs", "99999999999999999999"],
    ["search", "random", "--deals", "99999999999999999999999"],
    ["search", "random", "--deals", "10", "--seed", str(1 << 130)],
    ["search", "random", "--deals", "10", "--top", "99999999999"],
    ["search", "random", "--chunk-size", "1000000000000", "--hours", "0.0005"],
    ["search", "random", "--deals", "10", "--scheduler", "not a url"],
    ["search", "random", "--deals", "10", "--scheduler", "ftp://host:8786"],
    ["search", "random", "--deals", "10", "--scheduler", "tcp://host:99999"],
    ["search", "random", "--hours", "nan"],
    ["search", "random", "--hours", "inf"],
    ["search", "random", "--hours", "-1"],
    ["search", "random", "--deals", "10", "--workers", "1000"],
    ["search", "resume", "--workers", "1000"],
])
def test_numbers_and_addresses_out_of_range_create_no_run(results, args):
    before = stored(results)
    started = time.monotonic()
    fails_in_one_line(run(*args, "--db", str(results)))
    assert time.monotonic() - started < 30  # at once: nothing waits for a scheduler
    assert intact(results) == before


def test_scheduler_addresses_that_look_right_are_accepted():
    from beggar_search.pools.dask import check_address

    for address in ("tcp://10.0.0.5:8786", "10.0.0.5:8786", "tls://node-3.cluster:8786",
                    "tcp://[::1]:8786", "localhost"):
        assert check_address(address) == address


@pytest.mark.slow
@pytest.mark.distributed
def test_an_unreachable_scheduler_creates_no_run(results):
    before = stored(results)
    message = fails_in_one_line(subprocess.run(
        command("search", "random", "--deals", "10", "--scheduler", "tcp://127.0.0.1:9",
                "--db", str(results)), capture_output=True, text=True, timeout=180))
    assert "cannot reach the Dask scheduler" in message
    assert intact(results) == before


# --- cases found by trying it as a hostile user, beyond the list -------------------

def test_an_export_to_a_device_or_a_fifo_writes_through_and_never_replaces_it(results,
                                                                               tmp_path):
    """Once, an export to /dev/null replaced the device with a regular file (as root)."""
    done = run("export", "--db", str(results), "--out", "/dev/null")
    assert done.returncode == 0, done.stderr
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = subprocess.Popen(["cat", str(fifo)], stdout=subprocess.PIPE, text=True)
    done = run("export", "--db", str(results), "--out", str(fifo))
    assert done.returncode == 0, done.stderr
    assert reader.communicate(timeout=60)[0].startswith("rank,deal,cards")
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_a_fifo_or_a_device_as_results_file_is_one_line_at_once(tmp_path):
    fifo = tmp_path / "pipe.sqlite"
    os.mkfifo(fifo)
    for path in (fifo, "/dev/null"):
        for args in (["runs"], ["search", "random", "--deals", "10"]):
            message = fails_in_one_line(run(*args, "--db", str(path)))
            assert "not a" in message
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_a_nonsense_lock_wait_falls_back_to_the_default(results):
    done = run("runs", "--db", str(results), env={"BEGGAR_SEARCH_LOCK_WAIT": "soon"})
    assert done.returncode == 0 and len(done.stdout.splitlines()) == 3, done.stderr


@pytest.mark.slow
def test_a_results_file_deleted_during_a_search_is_written_back(tmp_path, whole_sweep):
    """`rm` of the results file while a search runs: what was stored is not lost with it.
    It goes to a new file, never back to the path (a new search may be starting there)."""
    db = tmp_path / "deleted.sqlite"
    process = sweep_under_way(db, 2)
    for suffix in ("", "-wal", "-shm"):
        db.with_name(db.name + suffix).unlink(missing_ok=True)
    out, err = process.communicate(timeout=300)
    if process.returncode == 0:
        pytest.skip("the run ended before the file was deleted")
    message = fails_in_one_line(subprocess.CompletedProcess([], process.returncode, out, err))
    assert "deleted or replaced" in message and not db.exists()
    db = Path(re.search(r"written to (\S+\.sqlite)", message).group(1))
    assert db.name.startswith("deleted.sqlite.rescued-")
    assert chunks_stored(db) >= 2
    with sqlite3.connect(db) as copy:  # nothing runs on the copy: it says so
        assert copy.execute("SELECT status FROM runs").fetchall() == [("stopped",)]
    resumed = subprocess.run(command("search", "resume", "--db", str(db), "--quiet"),
                             capture_output=True, text=True, timeout=600)
    assert resumed.returncode == 0, resumed.stderr
    assert stored(db) == whole_sweep
