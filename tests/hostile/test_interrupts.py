"""Ctrl-C while a local Dask cluster starts (issue 38, round 4's leftover): the search stops
within seconds however loaded the machine, says so in its own words (no Dask tracebacks),
and leaves no process behind.

The Ctrl-C comes at several moments after the resource tracker appears: while the cluster
starts, while its workers compile (the moment that printed worker heartbeat tracebacks until
the nanny's 4 s timeout, after the command had said ``interrupted``), and once chunks run.
"""

import signal
import subprocess
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
