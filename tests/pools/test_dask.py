"""Searches on a Dask cluster store exactly what the local driver stores."""

import contextlib
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from cli_harness import command, run
from storeview import stored

from beggar_search import driver
from beggar_search.pools.dask import LOST_WORKER
from beggar_search.pools.local import InlinePool
from beggar_search.store import Store

pytestmark = pytest.mark.distributed

TINY = "plain=5,J=2,Q=1,K=1"  # 1512 deals, 12 of them loop into 2 cycles
DEADLINE = 60.0  # seconds any one cluster run may take before a test gives up


@pytest.fixture(scope="module")
def scheduler():
    """A LocalCluster of 2 worker processes, one thread each; its scheduler's address."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as cluster:
        yield cluster.scheduler_address


def on_time(function, *args, seconds=DEADLINE):
    """Call ``function`` in the main thread; a watchdog interrupts it if it hangs."""
    finished = threading.Event()

    def watchdog():
        for grace in (seconds, 10.0):  # Ctrl-C, then Ctrl-C again: the driver drops its chunks
            if finished.wait(grace):
                return
            signal.raise_signal(signal.SIGINT)

    threading.Thread(target=watchdog, daemon=True).start()
    started = time.monotonic()
    try:
        return function(*args)
    finally:
        finished.set()
        assert time.monotonic() - started < seconds, "the cluster run hung"


def test_random_search_on_a_local_cluster_matches_local(tmp_path, scheduler):
    common = ["search", "random", "--deck", TINY, "--players", "3", "--seed", "5",
              "--deals", "20000", "--chunk-size", "1000", "--top", "20", "--quiet"]
    assert run(*common, "--db", str(tmp_path / "local.sqlite"), "--workers", "1").returncode == 0
    assert on_time(run, *common, "--db", str(tmp_path / "cluster.sqlite"), "--cluster",
                         "local:2").returncode == 0
    local, cluster = stored(tmp_path / "local.sqlite"), stored(tmp_path / "cluster.sqlite")
    assert cluster == local
    assert local["summary"]["deals"] == 20000 and local["summary"]["loops"] > 0
    assert len(local["chunks"]) == 20


def test_enumeration_on_a_scheduler_matches_local(tmp_path, scheduler):
    common = ["search", "enumerate", "--deck", TINY, "--chunk-size", "100", "--top", "30",
              "--quiet"]
    assert run(*common, "--db", str(tmp_path / "local.sqlite"), "--workers", "1").returncode == 0
    assert on_time(run, *common, "--db", str(tmp_path / "cluster.sqlite"), "--scheduler",
                         scheduler, "--workers", "3").returncode == 0
    local, cluster = stored(tmp_path / "local.sqlite"), stored(tmp_path / "cluster.sqlite")
    assert cluster == local
    assert local["summary"]["deals"] == 1512 and local["summary"]["loops"] == 12
    assert len(local["cycles"]) == 2


CLIMB = ["search", "climb", "--deck", "plain=12,J=3,Q=3,K=2", "--seed", "4", "--deals",
         "60000", "--top", "30", "--extend", "3", "--closure-states", "4000", "--quiet"]


# the command as a user types it: chunks sized from --deals (1,250), up to 64 parents a chunk
# within the budget of states
CLIMB_DEFAULTS = ["search", "climb", "--deck", "plain=10,J=2,Q=2,K=2", "--seed", "4",
                  "--deals", "20000", "--top", "30", "--quiet"]


@pytest.mark.parametrize("climb", [CLIMB, CLIMB_DEFAULTS], ids=["tuned", "defaults"])
def test_climb_on_a_local_cluster_matches_two_local_workers(tmp_path, scheduler, climb):
    """The climber's chunks (random deals, then the extension) are the same on a cluster:
    leaderboard, families, histograms (the random sample's too) and counts."""
    assert run(*climb, "--db", str(tmp_path / "local.sqlite"), "--workers", "2").returncode == 0
    assert on_time(run, *climb, "--db", str(tmp_path / "cluster.sqlite"), "--cluster",
                         "local:2").returncode == 0
    local, cluster = stored(tmp_path / "local.sqlite"), stored(tmp_path / "cluster.sqlite")
    assert cluster == local
    deals = int(climb[climb.index("--deals") + 1])
    assert local["summary"]["deals"] > deals and len(local["chunks"]) == 16  # deals / 16 each
    assert 0 < sum(count for _, count in local["sample_histogram"]) <= deals


def test_climb_on_a_scheduler_matches_local(tmp_path, scheduler):
    assert run(*CLIMB, "--db", str(tmp_path / "local.sqlite"), "--workers", "1").returncode == 0
    assert on_time(run, *CLIMB, "--db", str(tmp_path / "cluster.sqlite"), "--scheduler",
                         scheduler, "--workers", "2").returncode == 0
    assert stored(tmp_path / "cluster.sqlite") == stored(tmp_path / "local.sqlite")


class StopAfter(InlinePool):
    """Local worker that acts as if Ctrl-C came after a few chunks."""

    def __init__(self, workers, name, params):
        super().__init__(workers, name, params)
        self.waits = 0

    def wait(self, futures, timeout):
        self.waits += 1
        if self.waits == 4:
            signal.raise_signal(signal.SIGINT)
        return super().wait(futures, timeout)


def test_resume_on_a_cluster_completes_a_local_run(tmp_path, scheduler):
    params = {"deck": TINY, "players": 2, "seed": None, "top_k": 10, "max_tricks": None,
              "chunk_size": 100, "hours": None, "deals": 1512, "start": 0}
    with Store(tmp_path / "local.sqlite") as store:
        driver.start(store, "enumerate", params, 1, quiet=True)
    with Store(tmp_path / "resumed.sqlite") as store:
        summary = driver.start(store, "enumerate", params, 1, quiet=True, pool_factory=StopAfter)
    assert summary["status"] == "stopped" and 0 < summary["deals"] < 1512
    assert on_time(run, "search", "resume", "--db", str(tmp_path / "resumed.sqlite"),
                         "--scheduler", scheduler, "--quiet").returncode == 0
    assert stored(tmp_path / "resumed.sqlite") == stored(tmp_path / "local.sqlite")


@pytest.mark.parametrize(("strategy", "extra"), [
    ("random", {}), ("climb", {"extend": 2, "closure_states": 3000, "deepest": 16})])
def test_a_killed_worker_loses_nothing_and_counts_nothing_twice(tmp_path, scheduler,
                                                                 strategy, extra):
    from distributed import Client

    from beggar_search.pools.dask import ClusterOptions

    params = {"deck": "standard", "players": 2, "seed": 3, "top_k": 10, "max_tricks": None,
              "chunk_size": 16384, "hours": None, "deals": 30 * 16384,
              "engine": "general", **extra}  # about 0.2 s a chunk: the run lasts a few seconds
    path = tmp_path / "cluster.sqlite"
    with Client(scheduler, set_as_default=False) as client:
        pids = client.run(os.getpid)
        killed = {}

        def kill_one_worker():
            """After the first chunks land, kill a worker in the middle of a chunk."""
            deadline = time.monotonic() + DEADLINE
            while time.monotonic() < deadline:
                time.sleep(0.05)
                chunks = chunks_stored(path)
                if chunks is None or chunks < 4:
                    continue
                # a worker between two chunks holds none: kill one seen busy (a chunk
                # lasts about 0.2 s, polls are 0.05 s apart)
                for address, pid in sorted(pids.items()):
                    busy = client.processing([address])[address]
                    if busy:
                        os.kill(pid, signal.SIGKILL)
                        killed.update(address=address, pid=pid, chunks=chunks, busy=busy)
                        return

        killer = threading.Thread(target=kill_one_worker, daemon=True)
        killer.start()
        factory = ClusterOptions(scheduler=scheduler).pool_factory()
        with Store(path) as store:
            summary = on_time(driver.start, store, strategy, params, 2, True, factory)
        killer.join(timeout=5)
        assert killed, "the run ended before a worker could be killed"
        assert killed["chunks"] < 30 and killed["busy"], "the worker died with no chunk"
        assert os.getpid() not in pids.values()
        assert summary["status"] == "done"
        # the nanny restarts the worker; the cluster is whole again for the next test
        restarted = time.monotonic() + 30
        while len(client.nthreads()) < 2 and time.monotonic() < restarted:
            time.sleep(0.2)
    with Store(tmp_path / "local.sqlite") as store:
        driver.start(store, strategy, params, 1, quiet=True)
    cluster, local = stored(path), stored(tmp_path / "local.sqlite")
    assert cluster == local
    assert cluster["chunks"] == list(range(30))
    with sqlite3.connect(path) as db:
        chunks, deals = db.execute("SELECT count(*), sum(deals) FROM chunks").fetchone()
    assert chunks == 30 and deals == cluster["summary"]["deals"]
    assert deals == 30 * 16384 if strategy == "random" else deals > 30 * 16384


def chunks_stored(path: Path) -> int | None:
    """How many chunks the results file at ``path`` holds now; None while it cannot be read
    (not made yet, or locked by its writer)."""
    try:
        with sqlite3.connect(path) as db:
            return db.execute("SELECT count(*) FROM chunks").fetchone()[0]
    except sqlite3.Error:
        return None


def worker_processes(pid: int) -> list[int]:
    """The local cluster's worker processes: the children of ``pid`` that multiprocessing
    spawned (its resource tracker left out)."""
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():  # any thread's (the cluster's loop's)
        with contextlib.suppress(OSError):
            for child in (task / "children").read_text().split():
                if b"spawn_main" in Path(f"/proc/{child}/cmdline").read_bytes():
                    found.append(int(child))
    return sorted(set(found))


@pytest.mark.process
def test_a_worker_killed_on_a_local_cluster_is_one_line_of_ours(tmp_path):
    """Seen: after a `kill -9` of a worker of `--cluster local:2`, Dask's scheduler and nanny
    printed WARNING lines ('Removing worker ... will be recomputed elsewhere', 'Restarting
    worker') and ERRORs ('Couldn't gather keys') on the search's stderr."""
    args = ["search", "climb", "--deck", "plain=10,J=2,Q=2,K=2", "--deals", "1000000",
            "--chunk-size", "10000", "--seed", "7", "--quiet"]
    path = tmp_path / "cluster.sqlite"
    process = subprocess.Popen(command(*args, "--cluster", "local:2", "--db", path),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 300
        killed = None
        while killed is None and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)
            chunks = chunks_stored(path)
            workers = worker_processes(process.pid)
            if chunks is not None and chunks >= 3 and workers:
                os.kill(workers[0], signal.SIGKILL)
                killed = chunks
        out, err = process.communicate(timeout=300)
    finally:
        if process.poll() is None:
            process.kill()
    assert killed is not None and killed < 100, "the run ended before a worker was killed"
    assert process.returncode == 0, err
    assert "distributed." not in err and "WARNING" not in err and "Traceback" not in err, err
    assert err.strip().splitlines() == [LOST_WORKER], err
    subprocess.run(command(*args, "--workers", "2", "--db", tmp_path / "local.sqlite"),
                   check=True, capture_output=True, timeout=300)
    cluster = stored(path)
    assert cluster == stored(tmp_path / "local.sqlite") and cluster["chunks"] == list(range(100))


@pytest.mark.process
def test_chunks_dropped_on_a_local_cluster_leave_no_dask_lines(tmp_path):
    """Seen: a second Ctrl-C on `--cluster local:2` (the chunks in flight dropped) was followed
    by the workers' WARNINGs 'Async instruction for <Task cancelled ...> ended with
    CancelledError', after the search had said it dropped them."""
    path = tmp_path / "cluster.sqlite"
    process = subprocess.Popen(
        command("search", "climb", "--deck", "plain=12,J=3,Q=3,K=2", "--deals", "1000000000",
                "--chunk-size", "20000000", "--seed", "7", "--cluster", "local:2", "--quiet",
                "--db", path),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + 300
        chunks = 0
        while chunks < 2 and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)
            with contextlib.suppress(sqlite3.Error):
                with sqlite3.connect(path) as db:
                    chunks = db.execute("SELECT count(*) FROM chunks").fetchone()[0]
        os.killpg(process.pid, signal.SIGINT)
        time.sleep(0.5)
        os.killpg(process.pid, signal.SIGINT)
        out, err = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == 130, err
    # chunks of 2 s and more were running on the workers (chunks of 0.2 s, as this test had,
    # could all finish between the two Ctrl-Cs: nothing was left to drop, .ci/run)
    assert "dropped the chunks in flight" in err, err
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT status FROM runs").fetchall() == [("stopped",)]
    assert "distributed." not in err and "WARNING" not in err and "Traceback" not in err, err


def test_without_dask_the_cluster_options_say_what_to_install(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)
    for option in (["--scheduler", "tcp://127.0.0.1:8786"], ["--cluster", "local:2"]):
        refused = run("search", "random", "--deals", "10", "--db", tmp_path / "r.sqlite",
                      *option)
        assert refused.returncode == 2
        error = refused.stderr.strip().splitlines()
        assert len(error) == 1 and "pip install 'beggar-search[distributed]'" in error[0]
    assert not (tmp_path / "r.sqlite").exists()
    refused = run("search", "resume", "--db", tmp_path / "r.sqlite", "--cluster", "local")
    assert refused.returncode == 2
    assert "pip install 'beggar-search[distributed]'" in refused.stderr


def test_importing_the_package_imports_no_dask():
    code = ("import sys, beggar_search, beggar_search.cli, beggar_search.pools.dask;"
            " print(sorted(m for m in ('dask', 'distributed') if m in sys.modules))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True, timeout=60)
    assert result.stdout.strip() == "[]"
