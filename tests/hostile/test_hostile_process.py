"""Hostile processes, peers and options: strangers on the local cluster, a port that is not
Dask, signals from a terminal that went away, no room for Numba's cache, numbers the code
cannot take.

Each test reproduces one fault as a user would meet it: real subprocesses, sockets on
127.0.0.1, signals, mounts (skipped where the machine allows none).
"""

import json
import os
import pty
import shutil
import signal
import socket
import sqlite3
import subprocess
import threading
import time

import pytest
from cli_harness import run
from hostile_helpers import (
    TINY,
    beyond_compiling,
    chunks_stored,
    command,
    fails_in_one_line,
    intact,
    params,
    two_runs,
    wait_for,
    workers_of,
)
from published import CASELLA
from storeview import stored

from beggar_search import driver
from beggar_search.driver import STOP_GRACE
from beggar_search.pools.local import InlinePool
from beggar_search.store import Store

PACKAGE = os.path.dirname(driver.__file__)
LOOPING = CASELLA


@pytest.fixture(autouse=True)
def ctrl_c_reaches_the_processes_started():
    """Processes inherit an ignored Ctrl-C (SIG_IGN survives exec): when something earlier in
    the run left it ignored in this process, the commands these tests start ignore the
    Ctrl-C they are sent (measured: the whole suite failed the bench Ctrl-C tests; each
    passed alone).  Each test starts with Python's own Ctrl-C handler."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    yield


@pytest.fixture
def results(tmp_path):
    """A results file holding two runs."""
    return two_runs(tmp_path)


def status_of(db, run=1):
    with sqlite3.connect(db, timeout=5) as connection:
        return connection.execute("SELECT status FROM runs WHERE id = ?", (run,)).fetchone()[0]


# --- 4. the local cluster is private ------------------------------------------------------

@pytest.mark.slow
@pytest.mark.distributed
def test_the_local_cluster_lets_no_stranger_in(tmp_path):
    """Another local user's plain client (or one with its own certificate) cannot connect
    to the local cluster, let alone run a task; its HTTP server serves no worker list."""
    import urllib.error
    import urllib.request

    from distributed import Client
    from distributed.security import Security

    from beggar_search.pools.dask import DaskPool

    pool = DaskPool("random", params(seed=1, deals=100), local=True, local_workers=1)
    try:
        assert pool.address.startswith("tls://127.0.0.1:")
        assert pool.client.submit(int, "41").result() == 41  # the run's own client works
        host_port = pool.address.split("://")[1]
        for address, security in [(f"tcp://{host_port}", None),
                                  (f"tls://{host_port}", Security.temporary())]:
            with pytest.raises((OSError, TypeError)):
                stranger = Client(address, timeout=5, set_as_default=False, security=security)
                stranger.submit(int, "42").result(timeout=5)  # not reached
        http = pool.cluster.scheduler.services["dashboard"]
        assert http.address == "127.0.0.1"
        for path in ("/info/main/workers.html", "/json/counts.json", "/metrics", "/status"):
            with pytest.raises(urllib.error.HTTPError):
                urllib.request.urlopen(f"http://127.0.0.1:{http.port}{path}", timeout=5)
    finally:
        pool.close()


# --- 6. a port that is not a Dask scheduler -----------------------------------------------

class FakeServer:
    """A server on 127.0.0.1 that accepts connections and then stays silent, speaks HTTP
    first, or closes them at once; stops by itself after ``lifetime`` seconds."""

    def __init__(self, behaviour: str, lifetime: float = 120.0):
        self.behaviour = behaviour
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.listener.settimeout(0.5)
        self.port = self.listener.getsockname()[1]
        self.connections = []
        self.deadline = time.monotonic() + lifetime
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self):
        while time.monotonic() < self.deadline:
            try:
                connection, _ = self.listener.accept()
            except (TimeoutError, OSError):
                continue
            if self.behaviour == "speaks first":
                connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n" * 4)
            if self.behaviour == "hangs up":
                connection.close()
            else:
                self.connections.append(connection)

    def close(self):
        self.deadline = 0
        self.thread.join()
        for connection in self.connections:
            connection.close()
        self.listener.close()


@pytest.mark.distributed
@pytest.mark.parametrize("scheme", ["tcp://", "tls://"])
@pytest.mark.parametrize("behaviour", [pytest.param("silent", marks=pytest.mark.slow),
                                       "speaks first", "hangs up"])
def test_a_port_that_is_not_a_scheduler_is_one_line_soon_and_no_run(results, behaviour,
                                                                      scheme):
    server = FakeServer(behaviour)
    before = stored(results)
    started = time.monotonic()
    try:
        message = fails_in_one_line(subprocess.run(
            command("search", "random", "--deals", "10", "--db", str(results),
                    "--scheduler", f"{scheme}127.0.0.1:{server.port}"),
            capture_output=True, text=True, timeout=120))
    finally:
        server.close()
    assert time.monotonic() - started < 30
    assert f"127.0.0.1:{server.port}" in message
    assert intact(results) == before


# --- 7. bench stops at Ctrl-C -------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("args", [["--deals", "1000000000000"],
                                  ["--deals", "1000", "--general-deals", "1000000000000"]])
def test_a_long_bench_stops_at_ctrl_c(args):
    process = subprocess.Popen(command("bench", *args), stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        time.sleep(8)  # compiled or loaded (a loaded machine may still be compiling: then
        assert process.poll() is None  # the Ctrl-C is answered once compiling ends)
        os.killpg(process.pid, signal.SIGINT)  # what Ctrl-C sends
        out, err = process.communicate(timeout=300)
    finally:  # never leave a bench of 10^12 deals running behind a failed test
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
    assert process.returncode == 130, err
    lines = err.strip().splitlines()  # a cold cache: the compile notice first
    assert lines[-1] in ("beggar-search: interrupted",
                         "beggar-search: interrupted while compiling: nothing was run"), err
    assert all(line.startswith(("beggar-search: compiling the kernels of",
                                "beggar-search: compiled ")) or not line
               for line in lines[:-1]), err
    assert out == ""


# --- 10, 14. numbers the code cannot take: refused before any run -------------------------

@pytest.mark.parametrize("args", [
    ["search", "factory", "--deck", TINY, "--blocks", "2-9223372036854775808"],
    ["search", "factory", "--deck", TINY, "--blocks", "2-65"],
    ["search", "factory", "--deck", TINY, "--reach-states", str(1 << 63)],
    ["search", "factory", "--deck", TINY, "--seed-tries", str(1 << 63)],
    ["search", "hunt", "--deck", TINY, "--reach-states", str(1 << 63)],
    ["search", "climb", "--deck", TINY, "--deals", "10", "--extend", str(10**23)],
    ["search", "climb", "--deck", TINY, "--deals", "10", "--extend", str(10**9)],
    ["search", "climb", "--deck", TINY, "--deals", "10", "--closure-states", str(10**23)],
    ["search", "random", "--deals", "10", "--top", "10001"],
    ["reach", "--deck", TINY, "--max-states", str(10**23), "-Q--K/J--J"],
    ["bench", "--deals", str(1 << 63)],
    ["bench", "--general-deals", str(1 << 63)],
    ["show", "--top", str(1 << 63)],
])
def test_numbers_the_code_cannot_take_are_one_line_and_no_run(results, args):
    before = stored(results)
    started = time.monotonic()
    db = [] if args[0] == "bench" else ["--db", str(results)]
    message = fails_in_one_line(run(*args, *db))
    assert "Invalid value for" in message  # the bound, not some other complaint
    assert time.monotonic() - started < 30
    assert intact(results) == before


# --- 11, 16. Numba's cache: not writable, or full -----------------------------------------

def read_only_package(*args, env):
    """``args`` run with the package folder mounted read-only (a private mount namespace)."""
    script = (f"mount --bind {PACKAGE} {PACKAGE} && mount -o remount,bind,ro {PACKAGE}"
              f" && exec {' '.join(args)}")
    return subprocess.run(["unshare", "--mount", "sh", "-c", script], capture_output=True,
                          text=True, env=env, timeout=600)


@pytest.fixture
def no_cache_env(tmp_path):
    """An environment with no writable cache folder but the package's own (made read-only
    by ``read_only_package``): no NUMBA_CACHE_DIR, a HOME that cannot be written."""
    if not shutil.which("unshare") or subprocess.run(
            ["unshare", "--mount", "sh", "-c", f"mount --bind {PACKAGE} {PACKAGE}"],
            capture_output=True).returncode != 0:
        pytest.skip("no private mount namespace here (needs root)")
    env = {key: value for key, value in os.environ.items()
           if key not in ("NUMBA_CACHE_DIR", "XDG_CACHE_HOME")}
    env["HOME"] = "/proc/no-home"
    env["TMPDIR"] = str(tmp_path)
    return env


@pytest.mark.process
@pytest.mark.parametrize("args", [["--version"], ["deal", "--count"],
                                  ["search", "random", "--help"]])
def test_a_command_that_loads_no_kernels_needs_no_cache_and_says_nothing(no_cache_env, tmp_path,
                                                                          args):
    """Issues 36 and 37: --version, a count of deals and a search's help (its tunables come
    from beggar_search.tunables) load no kernel module, so they need no cache and say
    nothing about one."""
    done = read_only_package(*command(*args), env=no_cache_env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip()
    assert done.stderr.strip().splitlines() == []
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow
def test_no_writable_numba_cache_falls_back_to_a_temporary_one_and_still_plays(no_cache_env,
                                                                               tmp_path):
    """A command that loads the kernels says, in one line, that it uses a temporary cache
    (named, with NUMBA_CACHE_DIR as the way out), plays, and leaves no cache behind."""
    done = read_only_package(*command("play", "--json", "--", LOOPING), env=no_cache_env)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["outcome"] == "loop"
    lines = beyond_compiling(done.stderr)
    assert len(lines) == 1 and "Numba cannot write a cache" in lines[0], done.stderr
    assert "NUMBA_CACHE_DIR" in lines[0] and str(tmp_path) in lines[0]
    assert list(tmp_path.iterdir()) == []  # the temporary cache is gone


def small_file_limit():
    import resource

    resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))


@pytest.fixture
def full_cache(tmp_path):
    """A full 1 MiB tmpfs for Numba's cache (needs root; skipped where none can be
    mounted: the file-size-limit case goes the same way)."""
    mount = tmp_path / "cache"
    mount.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mount)],
                      capture_output=True).returncode != 0:
        pytest.skip("cannot mount a tmpfs here")
    with open(mount / "filler", "wb", buffering=0) as handle:
        try:
            while True:
                handle.write(b"\0" * 65536)
        except OSError:
            pass
    yield mount
    subprocess.run(["umount", "-l", str(mount)], check=False)


@pytest.mark.slow
@pytest.mark.parametrize("how", ["full disk", "file size limit"])
def test_a_cache_that_cannot_be_written_is_named_and_the_command_goes_on(tmp_path, how,
                                                                         request):
    cache = request.getfixturevalue("full_cache") if how == "full disk" else tmp_path / "c"
    cache.mkdir(exist_ok=True)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    done = subprocess.run(command("play", "--json", "--", LOOPING), capture_output=True,
                          text=True, env=env, timeout=600,
                          preexec_fn=small_file_limit if how == "file size limit" else None)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["outcome"] == "loop"
    lines = beyond_compiling(done.stderr)
    assert len(lines) == 1, done.stderr
    assert "cannot save compiled kernels in Numba's cache" in lines[0]
    assert str(cache) in lines[0]
    assert ("No space left on device" if how == "full disk" else "File too large") in lines[0]


# --- 15. a deleted working folder ---------------------------------------------------------

@pytest.mark.process
def test_a_search_from_a_deleted_working_folder_is_one_clear_line_and_no_run(results,
                                                                            tmp_path):
    gone = tmp_path / "gone"
    gone.mkdir()
    args = " ".join(command("search", "random", "--deals", "100", "--db", str(results)))
    before = stored(results)
    message = fails_in_one_line(subprocess.run(
        ["sh", "-c", f"cd {gone} && rmdir {gone} && exec {args}"], capture_output=True,
        text=True, timeout=120))
    assert f"the working folder {gone} no longer exists" in message
    assert intact(results) == before


def test_a_run_that_fails_unexpectedly_is_not_left_running(tmp_path):
    """What a deleted working folder did before it was checked: a worker that cannot start
    (FileNotFoundError at the first chunk) left the run marked running."""

    class Unstartable(InlinePool):
        def submit(self, job):
            raise FileNotFoundError(2, "No such file or directory")

    db = tmp_path / "f.sqlite"
    with Store(db) as store, pytest.raises(FileNotFoundError):
        driver.start(store, "enumerate", params(start=0, deals=1512, seed=None), 1,
                     quiet=True, pool_factory=Unstartable)
    assert status_of(db) == "stopped"


# --- 18. SIGHUP: a dropped ssh session ----------------------------------------------------

CHUNKS = 12
SWEEP = ["--deals", str(CHUNKS * 1_000_000), "--chunk-size", "1000000", "--seed", "5",
         "--workers", "2", "--quiet", "--json"]  # chunks of about a second


def on_a_terminal(args, db):
    """``args`` as the session leader of a new pseudo-terminal (its controlling terminal,
    as a login shell's children over ssh); returns the process and the terminal's fd."""
    import fcntl
    import termios

    leader, follower = pty.openpty()

    def take_terminal():
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    process = subprocess.Popen(command("search", "random", *args, "--db", str(db)),
                               stdin=follower, stdout=follower, stderr=follower,
                               start_new_session=True, preexec_fn=take_terminal)
    os.close(follower)
    return process, leader


@pytest.mark.slow
def test_a_hang_up_stops_the_run_like_sigterm_and_resume_completes(tmp_path):
    whole = tmp_path / "whole.sqlite"
    subprocess.run(command("search", "random", *SWEEP, "--db", str(whole)), check=True,
                   capture_output=True, timeout=600)
    db = tmp_path / "hup.sqlite"
    process, terminal = on_a_terminal(SWEEP, db)
    wait_for(lambda: db.exists() and chunks_stored(db) >= 2, what="two chunks")
    os.close(terminal)  # the ssh session drops: the terminal is gone ...
    os.killpg(process.pid, signal.SIGHUP)  # ... and the shell hangs up its jobs
    process.wait(timeout=STOP_GRACE + 60)
    if chunks_stored(db) == CHUNKS:
        pytest.skip("the run ended before the signal landed")
    assert status_of(db) == "stopped"
    subprocess.run(command("search", "resume", "--db", str(db), "--quiet"), check=True,
                   capture_output=True, timeout=600)
    assert stored(db) == stored(whole)


@pytest.mark.slow
@pytest.mark.distributed
def test_a_hang_up_stops_a_local_cluster_run_gracefully(tmp_path):
    db = tmp_path / "hup.sqlite"
    args = ["--deck", "camicia", "--chunk-size", "20000", "--seed", "5", "--cluster",
            "local:2", "--quiet", "--json"]
    process = subprocess.Popen(command("search", "random", *args, "--db", str(db)),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True)
    wait_for(lambda: db.exists() and chunks_stored(db) >= 2, what="two chunks")
    os.killpg(process.pid, signal.SIGHUP)
    out, err = process.communicate(timeout=STOP_GRACE + 60)
    assert process.returncode == 128 + signal.SIGHUP, err
    assert "Traceback" not in err and "dropped" not in err
    assert json.loads(out)["status"] == "stopped" and status_of(db) == "stopped"


# --- 21. kill -9: no leaked-semaphore warnings --------------------------------------------

@pytest.mark.slow
def test_kill_9_leaves_no_warning_on_the_terminal(tmp_path):
    db = tmp_path / "k.sqlite"
    err = tmp_path / "stderr"
    with open(err, "w") as handle:
        process = subprocess.Popen(command("search", "random", "--quiet", "--workers", "2",
                                           "--db", str(db)),
                                   stdout=subprocess.DEVNULL, stderr=handle,
                                   start_new_session=True)
    wait_for(lambda: len(workers_of(process.pid)) == 2, what="the workers")
    time.sleep(1.0)
    process.kill()
    process.wait()

    def group_gone():
        return subprocess.run(["pgrep", "-g", str(process.pid)],
                              capture_output=True).returncode != 0

    wait_for(group_gone, timeout=30, what="the workers and the resource tracker to exit")
    assert "leaked" not in err.read_text() and "Traceback" not in err.read_text()


# --- 22. a long value in an error ---------------------------------------------------------

@pytest.mark.parametrize("args", [
    ["search", "factory", "--from", "-" * 120_000],
    ["search", "factory", "--blocks", "2-" + "9" * 120_000],
    ["search", "random", "--scheduler", "x" * 60_000 + "\n\x1b[2J" + "x" * 60_000],
])
def test_a_long_value_is_cut_in_the_error_line(results, args):
    before = stored(results)
    message = fails_in_one_line(run(*args, "--db", str(results)))
    assert len(message) < 1300 and "characters]" in message
    assert "\x1b" not in message
    assert intact(results) == before


# --- found in the fresh hostile pass: Ctrl-C while the kernels compile ---------------------

@pytest.mark.slow
@pytest.mark.parametrize("words", [["search", "random"], ["reach"], ["report"]])
def test_ctrl_c_while_the_kernels_compile_stops_the_command_and_creates_no_run(tmp_path,
                                                                               words):
    """A cold cache: the command says it compiles before it does; a Ctrl-C in the middle of
    compiling is answered within 2 s (Numba's compiler, which cannot be stopped half-way,
    runs in a thread), exit 130, and no run is created (a search; reach, which compiled in
    the main thread until issue 26's review, too)."""
    db = tmp_path / "c.sqlite"
    cache = tmp_path / "cache"
    cache.mkdir()
    rest = (["--deals", "100000", "--workers", "2", "--db", str(db)] if words[0] == "search"
            else [CASELLA])
    if words[0] == "report":  # a run to report on (its replays compile the game's tracer)
        from beggar_search import driver
        from beggar_search.store import Store

        db = tmp_path / "r.sqlite"
        with Store(db) as store:
            driver.start(store, "random", params(deals=2000, seed=1), 1, quiet=True)
        rest = ["--db", str(db), "--out", str(tmp_path / "site")]
    process = subprocess.Popen(command(*words, *rest),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True,
                               env={**os.environ, "NUMBA_CACHE_DIR": str(cache)})
    try:
        notice = process.stderr.readline()  # said before the first kernel compiles
        assert f"compiling the kernels of beggar-search {' '.join(words)}" in notice, notice
        assert "first run only" in notice and "Ctrl-C" in notice
        deadline = time.monotonic() + 300  # well into compiling (a loaded machine is slow)
        while len(list(cache.rglob("*.nbi"))) < 10 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert process.poll() is None, "compiled before the Ctrl-C: cannot test it"
        sent = time.monotonic()
        os.killpg(process.pid, signal.SIGINT)
        out, err = process.communicate(timeout=300)
        answered = time.monotonic() - sent
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
    assert process.returncode == 130, err
    assert answered < 2.0, f"answered {answered:.1f} s after the Ctrl-C"
    assert err.strip() == "beggar-search: interrupted while compiling: nothing was run"
    assert out == ""
    if words[0] == "search":  # the results file it created, with no run, is removed
        assert sorted(tmp_path.iterdir()) == [cache], sorted(tmp_path.iterdir())


# --- the one-line errors from a real interpreter: one case per family ----------------------
# (the families run in the test process through cli.main, tests/cli_harness.py's `run`;
# these show the same line, exit status 2 and no traceback from `python -m beggar_search`)

ONE_LINE_FAMILIES = {
    "usage (test_search)": (["search", "random", "--deck", "nonsense", "--deals", "5"], "error"),
    "a bound of the engine (test_hostile)": (["show", "--run", "99999999999999999999"], "error"),
    "a number the code cannot take": (["show", "--top", str(1 << 63)], "Invalid value for"),
    "an output onto the results file": (["export", "--out", "{db}"], "refusing"),
    "an output onto a companion (test_hostile_store)": (["export", "--out", "{db}-wal"],
                                                        "refusing"),
    "another results format": (["runs"], "results format 99"),
    "not a results file": (["runs", "--db", "/dev/null"], "not a"),
    "a long value cut": (["search", "factory", "--blocks", "2-" + "9" * 120_000],
                         "characters]"),
    "a lock given up": (["runs"], "locked by another process"),
}


@pytest.mark.process
@pytest.mark.parametrize("family", list(ONE_LINE_FAMILIES))
def test_one_line_errors_from_a_real_interpreter(results, family):
    args, says = ONE_LINE_FAMILIES[family]
    args = [a.replace("{db}", str(results)) for a in args]
    env, locker = os.environ, None
    if family == "another results format":
        with sqlite3.connect(results) as db:
            db.execute("PRAGMA user_version=99")
    if family == "a lock given up":
        from hostile_helpers import lock

        locker = lock(results, 30)
        env = {**os.environ, "BEGGAR_SEARCH_LOCK_WAIT": "1"}
    db = [] if "--db" in args else ["--db", str(results)]
    try:
        done = subprocess.run(command(*args, *db), capture_output=True, text=True, timeout=120,
                              env=env)
    finally:
        if locker:
            locker.kill()
            locker.communicate()
    if family == "a lock given up":  # a line while it waits, then the one error line
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
        assert says in done.stderr.strip().splitlines()[-1]
    else:
        assert says in fails_in_one_line(done)
