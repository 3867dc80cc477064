"""Hostile round 4 (issue 29): a results file that travels alone, a Ctrl-C while a local
cluster starts, closed standard streams, hostile limits and environments, and the cosmetic
findings of the probe (``shared/notes/reliability-probe-4.md``).

One-line errors are checked in-process (``cli_harness.run``); real processes only where a
process is what is tested (kill -9, signals, closed file descriptors, limits).
"""

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys

import pytest
from cli_harness import run
from hostile_helpers import (
    chunks_stored,
    command,
    params,
    sweep_under_way,
    wait_for,
    whole_sweep_of,
)
from published import NESSLER
from storeview import stored

from beggar_search import driver
from beggar_search.pools.local import InlinePool
from beggar_search.store import Store


def one_line_error(*args):
    """The one stderr line of a command that must fail with exit status 2."""
    result = run(*args)
    err = result.stderr
    assert result.returncode == 2, (result.returncode, result.stdout, err)
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    return err.strip()


def killed_store(tmp_path, name="F.sqlite"):
    """A results file left as a kill -9 leaves it: a finished enumerate run stored by a process
    that never closed the file (its ``-wal`` and ``-shm`` are still beside it)."""
    path = tmp_path / name
    script = ("import os, sys\n"
              "from beggar_search import driver\n"
              "from beggar_search.store import Store\n"
              "import json\n"
              "store = Store(sys.argv[1])\n"
              "driver.start(store, 'enumerate', json.loads(sys.argv[2]), 1, quiet=True)\n"
              "os._exit(0)\n")
    subprocess.run([sys.executable, "-c", script, str(path),
                    json.dumps(params(start=0, deals=1512, seed=None))], check=True, timeout=300)
    assert (tmp_path / f"{name}-wal").exists()
    return path


# --- D1: the results file alone holds the run ---------------------------------------------

def test_a_results_file_copied_alone_while_its_search_holds_it_has_the_run(tmp_path):
    """D1: the chunks stored lived only in the -wal until SQLite's first automatic
    checkpoint; a copy of the file alone held no run."""
    path = tmp_path / "F.sqlite"
    store = Store(path)
    try:
        driver.start(store, "enumerate", params(start=0, deals=1512, seed=None), 1,
                     quiet=True)
        assert (tmp_path / "F.sqlite-wal").exists()  # the search still holds the file
        shutil.copy(path, tmp_path / "copy.sqlite")
        assert stored(tmp_path / "copy.sqlite") == stored(path)
    finally:
        store.close()


def test_a_file_killed_and_copied_alone_holds_its_run(tmp_path):
    """D1 after a real exit without closing (as kill -9): the copy alone has the run."""
    path = killed_store(tmp_path)
    (tmp_path / "elsewhere").mkdir()
    copy = tmp_path / "elsewhere" / "G.sqlite"
    shutil.copy(path, copy)
    with sqlite3.connect(copy) as db:
        assert db.execute("SELECT count(*) FROM chunks").fetchone()[0] == 4
    assert stored(copy) == stored(path)


@pytest.mark.parametrize("how", ["moved", "deleted", "emptied"])
def test_a_new_file_beside_an_orphaned_log_is_refused_and_the_log_kept(tmp_path, how):
    """D1: a search at the old name of a file moved (or deleted) without its -wal made SQLite
    delete that -wal, and with it the killed run."""
    path = killed_store(tmp_path)
    wal = tmp_path / "F.sqlite-wal"
    log = wal.read_bytes()
    if how == "moved":
        (tmp_path / "archive").mkdir()
        path.rename(tmp_path / "archive" / "F.sqlite")
    elif how == "deleted":
        path.unlink()
    else:
        path.write_bytes(b"")
    message = one_line_error("search", "random", "--deals", "100", "--db", path)
    assert "F.sqlite-wal" in message and "beside" in message, message
    assert wal.read_bytes() == log
    for command_line in (["runs", "--db", path], ["show", "--db", path]):
        assert "F.sqlite-wal" in one_line_error(*command_line)
    assert wal.read_bytes() == log


def test_a_checkpoint_a_reader_held_back_is_tried_again_at_the_next_store(tmp_path):
    """The run created while another process reads an older snapshot (the forced checkpoint
    cannot copy it) reaches the file itself at the next store, not a second later: the file
    copied alone after a kill -9 then holds it (the slow test below met it once in CI)."""
    path = tmp_path / "F.sqlite"
    with Store(path) as store:
        reader = sqlite3.connect(path, isolation_level=None)
        reader.execute("BEGIN")
        reader.execute("SELECT count(*) FROM runs").fetchone()  # a snapshot before the run
        store.create_run("random", params(), "test")
        reader.execute("COMMIT")
        reader.close()
        store.checkpoint()  # what the next chunk stored calls, within CHECKPOINT_EVERY
        shutil.copy(path, tmp_path / "G.sqlite")  # the file alone, its -wal left behind
    with sqlite3.connect(tmp_path / "G.sqlite") as copied:
        assert copied.execute("SELECT count(*) FROM runs").fetchone()[0] == 1
    copied.close()


@pytest.mark.slow
def test_kill_9_then_the_file_copied_alone_resumes_to_the_uninterrupted_run(
        tmp_path, tmp_path_factory):
    """D1 as the probe met it (FK6): kill -9 after some chunks, copy the file alone, resume the
    copy: the same results as a run never interrupted."""
    whole = whole_sweep_of(tmp_path_factory)
    db = tmp_path / "F.sqlite"
    process = sweep_under_way(db, 4, start_new_session=True)
    os.killpg(process.pid, signal.SIGKILL)
    process.communicate()
    (tmp_path / "elsewhere").mkdir()
    copy = tmp_path / "elsewhere" / "G.sqlite"
    shutil.copy(db, copy)  # the file alone: its -wal stays behind
    with sqlite3.connect(copy) as copied:  # the run, and the chunks up to a second old
        assert copied.execute("SELECT count(*) FROM runs").fetchone()[0] == 1
    subprocess.run(command("search", "resume", "--quiet", "--workers", "1", "--db", str(copy)),
                   check=True, capture_output=True, timeout=600)
    assert stored(copy) == whole


# --- D3, D4, C5: closed or full standard streams --------------------------------------------

def shell(line, cwd):
    """``line`` run by sh in ``cwd``, where ``BS`` is the command (exit status, stderr)."""
    bs = " ".join(command())
    result = subprocess.run(["sh", "-c", line.replace("BS", bs)], cwd=cwd, capture_output=True,
                            text=True, timeout=300)
    return result.returncode, result.stderr


@pytest.fixture
def small_file(tmp_path):
    """A results file holding one enumerate run."""
    path = tmp_path / "r.sqlite"
    with Store(path) as results:
        driver.start(results, "enumerate", params(start=0, deals=1512, seed=None), 1,
                     quiet=True)
    return path


def test_a_search_with_stderr_closed_stores_its_run(tmp_path):
    """D3: with fd 2 closed (sys.stderr None) a search exited 1 silently, with no run."""
    status, _ = shell("BS search random --deck plain=5,J=2,Q=1,K=1 --deals 2000 --workers 1"
                      " --quiet --db e.sqlite >/dev/null 2>&-", tmp_path)
    assert status == 0
    assert stored(tmp_path / "e.sqlite")["summary"]["status"] == "done"


@pytest.mark.parametrize("what", [["export", "--what", "loops"], ["show"], ["runs"],
                                  ["export", "--what", "cycles", "--json"]])
def test_results_to_a_closed_stdout_are_one_line_and_an_exit_status(small_file, what):
    """D4: export to a closed stdout printed a 26-line traceback; C5: show said nothing and
    exited 0."""
    status, err = shell(f"BS {' '.join(what)} --db r.sqlite >&-", small_file.parent)
    assert status == 2 and err.strip() == "beggar-search: error: standard output is closed", err


def test_an_error_with_stderr_full_still_has_its_exit_status(tmp_path):
    """An error line that cannot be written (stderr on a full device) left exit status 1."""
    status, _ = shell("BS show --db missing.sqlite 2>/dev/full", tmp_path)
    assert status == 2


# --- D2: a Ctrl-C while a local cluster starts ----------------------------------------------

def interrupt_held(pid):
    """Whether process ``pid`` ignores or holds (blocks) Ctrl-C right now."""
    try:
        with open(f"/proc/{pid}/status") as handle:
            fields = dict(line.split(":", 1) for line in handle if ":" in line)
    except OSError:
        return False
    bit = 1 << (signal.SIGINT - 1)
    return any(int(fields[name], 16) & bit for name in ("SigIgn", "SigBlk"))


def reset_ctrl_c():
    """The launched command starts with Ctrl-C at its default, whatever this process has."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.slow
@pytest.mark.distributed
def test_ctrl_c_while_the_local_cluster_starts_is_acted_on(tmp_path):
    """D2: Ctrl-C while ``--cluster local`` started (SIGINT ignored around LocalCluster) was
    dropped, and the search ran on."""
    process = subprocess.Popen(
        command("search", "random", "--deals", "400000000", "--cluster", "local:2", "--quiet",
                "--db", str(tmp_path / "F.sqlite")),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
        preexec_fn=reset_ctrl_c)
    try:
        wait_for(lambda: interrupt_held(process.pid), timeout=300, what="Ctrl-C held")
        os.killpg(process.pid, signal.SIGINT)  # as a terminal sends it: to the whole group
        out, err = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    assert process.returncode == 130, err  # before the run or after: Ctrl-C's status
    assert "Traceback" not in err
    if "stopping" not in err:  # before the run: none was created
        assert err.strip().splitlines()[-1] == "beggar-search: interrupted"
        assert not (tmp_path / "F.sqlite").exists() or chunks_stored(tmp_path / "F.sqlite") == 0
    else:  # stopped gracefully
        assert "stopping" in err


# --- D7, C9: Numba's environment variables -----------------------------------------------

def with_env(*args, **variables):
    """``beggar-search args`` as a process with ``variables`` set: (status, stdout, stderr)."""
    result = subprocess.run(command(*args), capture_output=True, text=True, timeout=300,
                            env={**os.environ, **variables})
    return result.returncode, result.stdout, result.stderr


@pytest.mark.parametrize(("variable", "value"), [("NUMBA_NUM_THREADS", "0"),
                                                 ("NUMBA_NUM_THREADS", "abc"),
                                                 ("NUMBA_OPT", "abc")])
def test_a_numba_variable_numba_cannot_take_is_one_warning_line(variable, value):
    """D7: NUMBA_NUM_THREADS=0 crashed every command at import (a 25-line traceback); C9:
    NUMBA_OPT=abc had Numba print a warning holding a traceback.  (A command that loads
    Numba: ``--version`` no longer does.)"""
    status, out, err = with_env("play", "--max-tricks", "2", NESSLER, **{variable: value})
    assert status == 0 and "tricks" in out, err
    assert err.startswith(f"beggar-search: warning: ignored {variable}={value!r}"), err
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err


@pytest.mark.parametrize("args", [["search", "random", "--deck", "plain=5,J=2,Q=1,K=1",
                                   "--deals", "100", "--workers", "1", "--db", "x.sqlite"],
                                  ["bench", "--deck", "plain=5,J=2,Q=1,K=1", "--deals", "100"]])
def test_numba_disable_jit_is_refused_in_one_line_before_any_run(tmp_path, args):
    """D7: under NUMBA_DISABLE_JIT=1 a search ended in a 75-line traceback (cttz)."""
    result = subprocess.run(command(*args), capture_output=True, text=True, timeout=300,
                            cwd=tmp_path, env={**os.environ, "NUMBA_DISABLE_JIT": "1"})
    assert result.returncode == 2, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "NUMBA_DISABLE_JIT" in result.stderr and "Traceback" not in result.stderr
    assert list(tmp_path.iterdir()) == []  # no results file left behind (issue 26)


# --- D6: memory limits ------------------------------------------------------------------

def limited(megabytes):
    """A ``preexec_fn`` that limits the address space (``ulimit -v``)."""
    import resource

    def limit():
        reset_ctrl_c()
        size = megabytes * 1_000_000
        resource.setrlimit(resource.RLIMIT_AS, (size, size))
    return limit


def test_a_command_under_a_tiny_memory_limit_is_one_line(small_file):
    """D6: ``ulimit -v 250000; runs`` gave two tracebacks (libllvmlite.so not loaded).  Now
    ``runs`` loads no Numba (issue 36) and works there; a command that plays cannot load it
    and says so in one line, wherever it first imports Numba."""
    result = subprocess.run(command("runs", "--db", str(small_file)), capture_output=True,
                            text=True, timeout=300, preexec_fn=limited(250))
    assert result.returncode == 0 and "enumerate" in result.stdout, result.stderr
    nessler = "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA"
    result = subprocess.run(command("play", nessler),
                            capture_output=True, text=True, timeout=300, preexec_fn=limited(250))
    assert result.returncode == 2, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "memory" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.slow
def test_a_factory_under_a_memory_limit_is_one_line_and_no_run(tmp_path):
    """D6: ``ulimit -v 400000`` factory: 55 lines ending 'can't start new thread'; then, with
    the kernels cached, LLVM's abort while loading them (exit 134, 'std::bad_alloc' or 'LLVM
    ERROR: out of memory'): now refused in one line before Numba loads a kernel."""
    factory = command("search", "factory", "--deck", "plain=14,J=2,Q=2,K=2", "--from",
                      "------K-J-/-J--K-Q-Q-", "--ignore-known", "--kicks", "none",
                      "--workers", "1", "--quiet", "--db")
    # compiled and cached first: the limited run only loads its kernels
    subprocess.run([*factory, str(tmp_path / "warm.sqlite")], check=True, capture_output=True,
                   timeout=600)
    result = subprocess.run([*factory, str(tmp_path / "f.sqlite")], capture_output=True,
                            text=True, timeout=600, preexec_fn=limited(400))
    assert result.returncode == 2, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "Traceback" not in result.stderr and "ulimit -v" in result.stderr, result.stderr
    assert "load the compiled kernels" in result.stderr
    assert not (tmp_path / "f.sqlite").exists()  # refused before its run was created


# --- D8, C4: a Dask scheduler lost mid-run ------------------------------------------------

def test_a_lost_scheduler_is_one_line_naming_db_and_run(tmp_path):
    """C4: 'lost the Dask scheduler ...; continue with `beggar-search search resume`' named
    neither --db nor --run; the run must be left stopped."""
    import queue
    from concurrent.futures import Future

    from beggar_search.errors import UserError
    from beggar_search.pools.dask import DaskPool

    class SchedulerGone(InlinePool):
        """DaskPool's own wait on a cluster whose scheduler died: every future cancelled."""

        def __init__(self, workers, name, params):
            self.workers = 1
            self.dask = object.__new__(DaskPool)
            self.dask.finished, self.dask.address = queue.SimpleQueue(), "tcp://127.0.0.1:9"
            self.dask.notes = queue.SimpleQueue()  # what the cluster's log says: nothing

        def submit(self, job):
            future = Future()
            future.cancel()
            return future

        def wait(self, futures, timeout):
            return self.dask.wait(futures, timeout)

    db = tmp_path / "F.sqlite"
    with Store(db) as store, pytest.raises(UserError) as failure:
        driver.start(store, "enumerate", params(start=0, deals=1512, seed=None), 1,
                     quiet=True, pool_factory=SchedulerGone)
    message = str(failure.value)
    assert message.startswith("lost the Dask scheduler at tcp://127.0.0.1:9"), message
    assert f"search resume --db {db} --run 1" in message, message
    assert stored(db)["summary"]["status"] == "stopped"


@pytest.mark.distributed
def test_the_client_log_is_quiet_while_a_pool_holds_it(caplog):
    """D8: distributed's client logged two tracebacks (an ERROR record) before our line."""
    import logging

    from beggar_search.pools.dask import client_errors_quiet

    with client_errors_quiet():
        logging.getLogger("distributed.client").error("lost", exc_info=ValueError("x"))
    logging.getLogger("distributed.client").warning("kept")
    assert [record.getMessage() for record in caplog.records] == ["kept"]


# --- D5: a small open-file limit and a local cluster --------------------------------------

def few_files(count):
    """A ``preexec_fn`` that limits open files (``ulimit -n``, soft and hard)."""
    import resource

    def limit():
        reset_ctrl_c()
        resource.setrlimit(resource.RLIMIT_NOFILE, (count, count))
    return limit


@pytest.mark.distributed
def test_a_local_cluster_under_a_small_open_file_limit_is_one_true_line(tmp_path):
    """D5: ``ulimit -n 48`` and ``--cluster local:2``: 158 lines of Dask tracebacks ending in
    a wrong reason ('the results file could not be used')."""
    result = subprocess.run(
        command("search", "random", "--deck", "plain=5,J=2,Q=1,K=1", "--deals", "400000",
                "--chunk-size", "200000", "--cluster", "local:2", "--quiet", "--db",
                str(tmp_path / "r.sqlite")),
        capture_output=True, text=True, timeout=300, preexec_fn=few_files(48))
    assert result.returncode == 2, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "open files" in result.stderr and "ulimit -n" in result.stderr, result.stderr
    assert not (tmp_path / "r.sqlite").exists() or chunks_stored(tmp_path / "r.sqlite") == 0


@pytest.mark.distributed
def test_closing_the_local_cluster_says_nothing(caplog):
    """C3: closing a local cluster on a loaded machine logged 'Worker process still alive
    after 4.0 seconds, killing' (twice) after the run's result."""
    import logging

    from beggar_search.pools.dask import DaskPool

    class SlowToStop:
        def close(self):
            logging.getLogger("distributed.nanny").warning("Worker process still alive")

    pool = object.__new__(DaskPool)
    pool.cluster = SlowToStop()
    pool._close_cluster()
    assert caplog.records == [] and pool.cluster is None


# --- cosmetic findings ------------------------------------------------------------------

def test_a_run_out_of_time_before_any_chunk_is_stopped_not_done(tmp_path, monkeypatch, capsys):
    """C1: a factory whose --hours ended before its first chunk (a long cycle's state) was
    marked done with nothing tried, and resume of a done run does nothing."""
    import time

    class NeverFinishes(InlinePool):
        def wait(self, futures, timeout):
            time.sleep(min(timeout, 0.05))
            return set(), set(futures)

    monkeypatch.setattr(driver, "STOP_GRACE", 0.3)
    db = tmp_path / "F.sqlite"
    with Store(db) as store:
        driver.start(store, "enumerate", params(start=0, deals=1512, seed=None, hours=5e-5), 1,
                     quiet=True, pool_factory=NeverFinishes)
    assert stored(db)["summary"]["status"] == "stopped"
    assert f"search resume --db {db} --run 1" in capsys.readouterr().err


def test_max_tricks_is_refused_where_it_has_no_effect(tmp_path):
    """C2: search factory --max-tricks 1 was accepted, stored, and changed nothing."""
    message = one_line_error("search", "factory", "--deck", "plain=5,J=2,Q=1,K=1",
                             "--max-tricks", "1", "--db", tmp_path / "f.sqlite")
    assert "--max-tricks" in message and "factory" in message
    assert not (tmp_path / "f.sqlite").exists()


def test_a_plot_of_the_wrong_kind_of_run_reads_well(small_file, tmp_path):
    """C6: 'run 1 is a enumerate run, not a factory run'."""
    message = one_line_error("plot", "family", "--db", small_file, "--out",
                             tmp_path / "f.png")
    assert "run 1 is an enumerate run, not a factory run" in message, message


def test_a_db_path_with_a_trailing_slash_is_refused(tmp_path):
    """C8: --db x.sqlite/ created x.sqlite."""
    message = one_line_error("search", "random", "--deals", "100",
                             "--db", f"{tmp_path}/x.sqlite/")
    assert "x.sqlite/" in message and "folder" in message
    assert not (tmp_path / "x.sqlite").exists()


def test_an_output_name_that_is_not_utf8_is_shown_escaped(small_file, tmp_path):
    """C8: an invalid-UTF-8 output name was echoed as 'wrote 100 rows to \\udcff.csv'."""
    out = os.path.join(os.fsencode(tmp_path), b"\xff.csv").decode("utf-8", "surrogateescape")
    result = run("export", "--db", small_file, "--what", "loops", "--out", out)
    err = result.stderr
    assert result.returncode == 0 and "\\xff.csv" in err and "\\udcff" not in err, err


def test_lowercase_deals_are_read_in_both_games(tmp_path):
    """C7: ratscrew deals and decks accepted lowercase ranks; Beggar-my-neighbour deals
    refused them: one rule for both now (letter case does not matter)."""
    upper = run("play", "--deck", "plain=5,J=2,Q=1,K=1", "--json", "--", "-K-J-/-JQ-")
    lower = run("play", "--deck", "plain=5,J=2,Q=1,K=1", "--json", "--", "-k-j-/-jq-")
    # the same status and result (stderr may hold the compile notice of a first run)
    assert upper.returncode == 0
    assert (lower.returncode, lower.stdout) == (upper.returncode, upper.stdout)


def test_a_ratscrew_cycle_id_in_reach_says_what_works(tmp_path):
    """C6: reach of a ratscrew cycle id said 'only Beggar-my-neighbour cycles can be searched
    backwards', though reach --game ers DEAL works."""
    from beggar_search.store import StoreError

    db = tmp_path / "e.sqlite"
    result = run("search", "enumerate", "--game", "ers", "--slap-policy", "turn", "--deck",
                 "8=2,9=2,T=2,J=2,Q=1,K=1", "--workers", "1", "--quiet", "--json", "--db", db)
    assert result.returncode == 0, result.stderr
    with Store(db, create=False) as store:
        cycle = store.cycles(1)[0]["cycle"]
        with pytest.raises(StoreError) as refusal:
            store.cycle_entry(cycle)
    assert "--game ers" in str(refusal.value) and "deal" in str(refusal.value)
    assert "only Beggar-my-neighbour cycles can be searched backwards" not in str(refusal.value)


def test_a_ratscrew_enumeration_under_odds_records_the_seed_its_slaps_use(tmp_path):
    """C10: a ratscrew enumeration under odds had seed null (its slaps are drawn from 0)."""
    result = run("search", "enumerate", "--game", "ers", "--slap-policy", "odds:0.3,0.7",
                 "--deck", "8=2,9=2,T=2,J=2,Q=1,K=1", "--count", "200", "--workers", "1",
                 "--quiet", "--json", "--db", tmp_path / "e.sqlite")
    assert result.returncode == 0, result.stderr
    assert result.json()["seed"] == 0


def test_runs_of_a_file_with_no_runs_says_so(tmp_path):
    """D1's probe: `runs` of the file copied without its -wal exited 0 and printed nothing."""
    Store(tmp_path / "empty.sqlite").close()
    result = run("runs", "--db", tmp_path / "empty.sqlite")
    assert result.returncode == 0 and result.stdout == ""
    assert result.stderr.strip() == f"beggar-search: {tmp_path / 'empty.sqlite'} holds no runs yet"


def test_a_refused_search_keeps_a_results_file_that_existed_before(tmp_path):
    """Only a results file the refused command created (with no run) is removed (issue 26):
    one that existed before, even with no run in it, is kept."""
    from beggar_search.store import Store

    with Store(tmp_path / "x.sqlite"):
        pass
    result = subprocess.run(command("search", "random", "--deck", "plain=5,J=2,Q=1,K=1",
                                    "--deals", "100", "--workers", "1", "--db", "x.sqlite"),
                            capture_output=True, text=True, timeout=300, cwd=tmp_path,
                            env={**os.environ, "NUMBA_DISABLE_JIT": "1"})
    assert result.returncode == 2, result.stderr
    assert (tmp_path / "x.sqlite").exists()
