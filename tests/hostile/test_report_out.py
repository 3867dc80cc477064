"""Where ``report`` writes (issue 38: D5, C4, C5, C6, C8): ``--out .``, a symbolic link, a
folder that must stay (a mount point, its own mode), a port already taken, and run options
no page should carry verbatim."""

import json
import os
import socket
import sqlite3

import hostile_helpers as hostile
import pytest
from cli_harness import run
from hostile_helpers import fails_in_one_line


@pytest.fixture
def results(tmp_path):
    return hostile.two_runs(tmp_path)


def is_report(folder):
    return (folder / "index.html").is_file() and (folder / "data").is_dir()


def test_out_dot_in_an_empty_current_folder_writes_the_report_there(results, tmp_path):
    here = tmp_path / "empty"
    here.mkdir()
    done = run("report", "--db", results, "--out", ".", cwd=here)
    assert done.returncode == 0, done.stderr
    assert is_report(here)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["base.sqlite", "empty"]
    again = run("report", "--db", results, "--out", ".", cwd=here)  # an earlier report: replaced
    assert again.returncode == 0, again.stderr
    assert not [p for p in here.iterdir() if p.name.startswith(".old-")]


@pytest.mark.parametrize("target", ["empty folder", "earlier report"])
def test_out_through_a_symbolic_link_writes_its_target_and_keeps_the_link(results,
                                                                           tmp_path, target):
    real = tmp_path / "real"
    real.mkdir()
    if target == "earlier report":
        assert run("report", "--db", results, "--out", real).returncode == 0
    link = tmp_path / "link"
    link.symlink_to(real)
    done = run("report", "--db", results, "--out", link)
    assert done.returncode == 0, done.stderr
    assert link.is_symlink() and is_report(real)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["base.sqlite", "link", "real"]


def test_a_folder_that_is_there_is_filled_not_replaced(results, tmp_path):
    """As a mount point must be: the folder itself (its inode, mode) stays."""
    out = tmp_path / "mounted"
    out.mkdir(mode=0o700)
    before = out.stat()
    for _ in range(2):  # empty, then an earlier report
        done = run("report", "--db", results, "--out", out)
        assert done.returncode == 0, done.stderr
        after = out.stat()
        assert (after.st_ino, after.st_mode) == (before.st_ino, before.st_mode)
        assert is_report(out)
        assert sorted(p.name for p in out.iterdir() if p.name.startswith(".")) == [
            ".beggar-search-report"]


def test_serve_on_a_taken_port_names_it_and_writes_nothing(results, tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        out = tmp_path / "site"
        message = fails_in_one_line(run("report", "--db", results, "--out", out, "--serve",
                                        "--port", port))
    assert str(port) in message
    assert not out.exists()


def test_run_options_reach_the_pages_escaped_and_cut(results, tmp_path):
    with sqlite3.connect(results) as db:
        params = json.loads(db.execute("SELECT params FROM runs WHERE id = 1").fetchone()[0])
        params.update(note="a\x00b", huge="x" * 300_000)
        db.execute("UPDATE runs SET params = ? WHERE id = 1", (json.dumps(params),))
    out = tmp_path / "site"
    done = run("report", "--db", results, "--out", out)
    assert done.returncode == 0, done.stderr
    total = 0
    for page in out.glob("*.html"):
        text = page.read_bytes()
        assert b"\x00" not in text and b"\\u0000" not in text
        total += len(text)
    index = (out / "index.html").read_text()
    assert "a\\x00b" in index and "(300,000 characters)" in index
    assert total < 300_000, total
    assert os.path.getsize(out / "index.html") < 100_000
