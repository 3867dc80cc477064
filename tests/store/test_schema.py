"""The results format's creation and check (``store.schema``)."""

import sqlite3

import pytest

from beggar_search.store import schema


class OtherCreatesAfterFirstRead:
    """A connection that lets another search create the file just after its first statement:
    the moment at which two searches started on one new file raced."""

    def __init__(self, db, path):
        self.db, self.path, self.raced = db, path, False

    def execute(self, *args):
        cursor = self.db.execute(*args)
        if not self.raced:
            self.raced = True
            rows = cursor.fetchall()
            with sqlite3.connect(self.path, isolation_level=None) as other:
                schema.prepare(other, self.path, create=True)
            return Rows(rows)
        return cursor

    def __getattr__(self, name):
        return getattr(self.db, name)


class Rows:
    """What the first statement read, before the other search's creation."""

    def __init__(self, rows):
        self.rows = rows

    def fetchone(self):
        return self.rows[0]


def test_a_file_another_search_creates_between_the_checks_is_taken_as_ours(tmp_path):
    path = tmp_path / "shared.sqlite"
    db = sqlite3.connect(path, isolation_level=None)
    schema.prepare(OtherCreatesAfterFirstRead(db, path), path, create=True)
    assert db.execute("PRAGMA application_id").fetchone()[0] == schema.APPLICATION_ID
    assert db.execute("PRAGMA user_version").fetchone()[0] == schema.SCHEMA_VERSION
    db.close()


def test_another_programs_database_is_refused(tmp_path):
    path = tmp_path / "other.sqlite"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE t (x)")
    db = sqlite3.connect(path, isolation_level=None)
    with pytest.raises(schema.StoreError, match="not a beggar-search results file"):
        schema.prepare(db, path, create=True)
    db.close()
