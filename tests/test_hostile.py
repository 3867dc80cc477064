"""Hostile input and a hostile machine: nothing lost, nothing unstoppable, no traceback.

Each test reproduces one way a user or the machine could lose results, as a user would meet
it: real subprocesses, real files, real signals.
"""

import os
import sqlite3
import subprocess
import sys

import pytest
from storeview import stored

from beggar_search import driver
from beggar_search.store import Store

TINY = "plain=5,J=2,Q=1,K=1"


def command(*args):
    return [sys.executable, "-m", "beggar_search", *args]


def params(**extra):
    return {"deck": TINY, "players": 2, "max_tricks": None, "top_k": 20, "chunk_size": 500,
            "hours": None, **extra}


@pytest.fixture
def results(tmp_path):
    """A results file holding two runs."""
    path = tmp_path / "base.sqlite"
    with Store(path) as store:
        for _ in range(2):
            driver.start(store, "enumerate", params(start=0, deals=1512, seed=None), 1,
                         quiet=True)
    return path


def fails_in_one_line(result):
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "Traceback" not in result.stderr and "error" in result.stderr
    return result.stderr


def intact(path, runs=2):
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert db.execute("SELECT count(*) FROM runs").fetchone()[0] == runs
    return stored(path)


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
    message = fails_in_one_line(subprocess.run(command(*args), capture_output=True, text=True,
                                               cwd=cwd))
    assert "refusing" in message
    assert intact(results) == before


def test_an_output_never_replaces_another_sqlite_database(results, tmp_path):
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE precious (x)")
        db.execute("INSERT INTO precious VALUES (42)")
    size = other.stat().st_size
    message = fails_in_one_line(subprocess.run(
        command("export", "--db", str(results), "--out", str(other)),
        capture_output=True, text=True))
    assert "SQLite database" in message
    assert other.stat().st_size == size
    with sqlite3.connect(other) as db:
        assert db.execute("SELECT x FROM precious").fetchall() == [(42,)]


def test_an_export_replaces_an_old_csv_whole_and_leaves_no_temporary_file(results, tmp_path):
    out = tmp_path / "longest.csv"
    out.write_text("old contents\n" * 1000)
    done = subprocess.run(command("export", "--db", str(results), "--out", str(out)),
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    lines = out.read_text().splitlines()
    assert lines[0].startswith("rank,deal,cards") and "old contents" not in lines
    assert sorted(p.name for p in tmp_path.iterdir()) == ["base.sqlite", "longest.csv"]


def test_a_failed_export_leaves_the_old_file_as_it_was(results, tmp_path, monkeypatch):
    """A write that fails half-way (a full disk) leaves the previous export untouched."""
    from click.testing import CliRunner

    from beggar_search.cli import cli
    from beggar_search.cli import results as results_command

    out = tmp_path / "loops.csv"
    out.write_text("previous export\n")

    class FullDisk:
        def __init__(self, *args, **kwargs):
            pass

        def writeheader(self):
            raise OSError(28, "No space left on device")

    monkeypatch.setattr(results_command.csv, "DictWriter", FullDisk)
    result = CliRunner().invoke(cli, ["export", "--db", str(results), "--out", str(out)])
    assert result.exit_code != 0
    assert out.read_text() == "previous export\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["base.sqlite", "loops.csv"]
