"""Ctrl-C while a local Dask cluster starts (issue 38, round 4's leftover): the search stops
within seconds however loaded the machine, says so in its own words (no Dask tracebacks),
and leaves no process behind.

The Ctrl-C comes at several moments after the resource tracker appears: while the cluster
starts, while its workers compile (the moment that printed worker heartbeat tracebacks until
the nanny's 4 s timeout, after the command had said ``interrupted``), and once chunks run.
"""

import signal
import subprocess
import sys
import time

import pytest
from hostile_helpers import command, ctrl_c_to_group, wait_for


def session_processes(session):
    found = subprocess.run(["pgrep", "-s", str(session)], capture_output=True, text=True)
    return found.stdout.split()


def tracker_started(session):
    found = subprocess.run(["pgrep", "-f", "-s", str(session), "resource_tracker"],
                           capture_output=True, text=True)
    return bool(found.stdout.split())


@pytest.mark.process
@pytest.mark.distributed
@pytest.mark.parametrize("delay", [0.5, 3.0, 6.0])
def test_ctrl_c_while_a_local_cluster_starts_stops_quietly(tmp_path, delay):
    process = subprocess.Popen(
        command("search", "random", "--deals", "400000000", "--cluster", "local:2", "--quiet",
                "--db", str(tmp_path / "F.sqlite")),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    wait_for(lambda: tracker_started(process.pid) or process.poll() is not None,
             timeout=300, what="the resource tracker")
    time.sleep(delay)
    out, err, took = ctrl_c_to_group(process)
    assert process.returncode in (0, 130), err
    assert "Traceback" not in err and "distributed." not in err, err
    if "stopping:" in err:  # the cluster was up and searching: a clean stop (exit 130 since
        # a stopped sitting has its own status), its run stopped and resumable
        assert process.returncode == 130 and "search resume" in err.strip().splitlines()[-1]
    elif process.returncode == 130:
        assert err.strip().splitlines() == ["beggar-search: interrupted"], err
        assert took < 30, took
    wait_for(lambda: not session_processes(process.pid), timeout=30,
             what="every process of the search gone")


# the entry point with a thread that never ends: a shutdown that waits for ever, in small
HANGING_SHUTDOWN = """
import sys, threading, time
threading.Thread(target=time.sleep, args=(3600,), name="never-ends").start()
from beggar_search.console import main
main(sys.argv[1:])
"""


@pytest.mark.process
def test_a_stopped_command_exits_within_its_grace_even_when_its_shutdown_hangs(tmp_path):
    """.ci/run saw a Ctrl-C while a local cluster started print 'interrupted' and still run
    60 s later (the interpreter's shutdown waiting; cause not found): a command stopped by a
    signal exits with the signal's status ``SHUTDOWN_GRACE`` s after its stop at the latest."""
    from beggar_search.console import SHUTDOWN_GRACE

    db = tmp_path / "h.sqlite"
    process = subprocess.Popen(
        [sys.executable, "-c", HANGING_SHUTDOWN, "search", "random", "--deck",
         "plain=12,J=3,Q=3,K=2", "--deals", "1e12", "--chunk-size", "100000", "--workers", "1",
         "--quiet", "--db", str(db)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    wait_for(lambda: chunks_in(db) > 0 or process.poll() is not None, timeout=300,
             what="a chunk stored")
    out, err, took = ctrl_c_to_group(process, timeout=SHUTDOWN_GRACE + 50)
    assert process.returncode == 130, err
    assert "search resume" in err.strip().splitlines()[-1], err
    assert SHUTDOWN_GRACE - 1 < took < SHUTDOWN_GRACE + 30, took  # it waited, then exited


def chunks_in(db):
    import sqlite3

    try:
        with sqlite3.connect(db) as connection:
            return connection.execute("SELECT count(*) FROM chunks").fetchone()[0]
    except sqlite3.Error:
        return 0
