"""A search whose results file is deleted under it rescues what it stored to a new file,
never back to the path, where a new search may be creating its own (issue 38, U1).

The interleaving seen once by the probe, replayed step by step in one process: search A
holds the file; the user deletes it; search B starts at the same name; A notices and
writes its copy.  B's step happens just before A's copy is written, the moment the old
rescue (``VACUUM INTO`` the path, which SQLite allows onto an empty file) took over B's file.
"""

import sqlite3

import pytest
from hostile_helpers import params

from beggar_search.store import Store, StoreError
from beggar_search.store.results import rescue_target


class BeforeCopy:
    """Store A's connection, running ``step`` (search B's) just before A's copy is written."""

    def __init__(self, db, step):
        self.db, self.step = db, step

    def execute(self, sql, *args):
        if sql.startswith("VACUUM INTO") and self.step is not None:
            step, self.step = self.step, None
            step()
        return self.db.execute(sql, *args)

    def __getattr__(self, name):
        return getattr(self.db, name)


def strategies_of(path):
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        return [row[0] for row in db.execute("SELECT strategy FROM runs ORDER BY id")]


@pytest.mark.parametrize("b_step", ["empty file", "its run stored", "its lock held"])
def test_a_rescue_never_lands_on_a_new_search_at_the_same_path(tmp_path, b_step):
    path = tmp_path / "x.sqlite"
    a = Store(path)
    a.create_run("climb", params(seed=1), "0.2.0")  # step 1: search A stores its run
    for suffix in ("", "-wal", "-shm"):  # step 2: rm -f x.sqlite*
        path.with_name(path.name + suffix).unlink(missing_ok=True)
    held = []

    def search_b():  # step 3: search B starts at the same name
        if b_step == "empty file":
            path.touch()
            return
        b = Store(path)
        b.create_run("random", params(seed=2), "0.2.0")
        if b_step == "its lock held":
            b.db.execute("BEGIN IMMEDIATE")
        held.append(b)

    a.db = BeforeCopy(a.db, search_b)
    with pytest.raises(StoreError, match="deleted or replaced") as raised:  # step 4
        a.rescue_if_moved()
    a.close()
    for b in held:
        b.db.rollback()
        b.close()
    rescued = a.path
    assert rescued != path and rescued.name.startswith("x.sqlite.rescued-")
    assert str(rescued) in str(raised.value)
    assert strategies_of(rescued) == ["climb"]  # A's run, stopped, in its own file
    with sqlite3.connect(rescued) as db:
        assert db.execute("SELECT status FROM runs").fetchall() == [("stopped",)]
    if b_step == "empty file":
        assert path.stat().st_size == 0  # B's file, untouched
    else:
        assert strategies_of(path) == ["random"]  # B's run, alone in B's file


def test_a_rescue_without_anyone_at_the_path_still_goes_to_a_new_file(tmp_path):
    path = tmp_path / "x.sqlite"
    with Store(path) as a:
        a.create_run("climb", params(seed=1), "0.2.0")
        path.unlink()
        with pytest.raises(StoreError, match="written to .*rescued"):
            a.rescue_if_moved()
        assert not path.exists() and strategies_of(a.path) == ["climb"]


def test_rescue_targets_are_new_files_each_time(tmp_path):
    path = tmp_path / "x.sqlite"
    first, second = rescue_target(path), rescue_target(path)
    assert first != second and first.exists() and second.exists()
    assert first.stat().st_size == 0 and not path.exists()
