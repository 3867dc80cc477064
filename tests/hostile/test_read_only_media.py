"""A results file on a file system mounted read-only (an image, a read-only share): the
readers read it (before: 'unable to open database file', as SQLite could make no -shm for a
file in WAL mode), and a search or resume is refused in one line."""

import os
import shutil
import subprocess

import hostile_helpers as hostile
import pytest
from cli_harness import run
from hostile_helpers import fails_in_one_line


@pytest.fixture
def read_only_copy(tmp_path):
    """The two-run results file (in WAL mode, as a search leaves it) under a read-only bind
    mount; needs root (skipped otherwise)."""
    source = hostile.two_runs(tmp_path)
    folder = tmp_path / "ro"
    folder.mkdir()
    shutil.copy(source, folder / "r.sqlite")  # the file alone: no -wal, no -shm
    if os.geteuid() != 0 or subprocess.run(["mount", "--bind", folder, folder],
                                           capture_output=True).returncode != 0:
        pytest.skip("a read-only mount needs root")
    try:
        subprocess.run(["mount", "-o", "remount,ro,bind", folder], check=True)
        yield folder / "r.sqlite"
    finally:
        subprocess.run(["umount", folder], check=True)


def test_a_results_file_on_read_only_media_is_read(read_only_copy, tmp_path):
    done = run("runs", "--db", read_only_copy)
    assert done.returncode == 0, done.stderr
    assert [line.split()[0] for line in done.stdout.splitlines()[1:]] == ["1", "2"]
    assert run("show", "--run", "1", "--db", read_only_copy).returncode == 0
    assert run("report", "--db", read_only_copy, "--out", tmp_path / "site").returncode == 0
    message = fails_in_one_line(run("search", "resume", "--run", "1", "--db", read_only_copy))
    assert "read-only" in message
