"""A run's stored parameters that no beggar-search writes (issue 38, D3 and D4): every
setting a reader or a strategy takes from them is checked on reading, so ``show``,
``report`` and ``search resume`` name the run in one line instead of a traceback."""

import json
import sqlite3

import hostile_helpers as hostile
import pytest
from cli_harness import run
from hostile_helpers import fails_in_one_line

from beggar_search.store import readback

INFINITY = "1e400"  # what JSON reads back as float infinity


@pytest.fixture
def results(tmp_path):
    return hostile.two_runs(tmp_path)


def set_parameter(path, field, value):
    """Run 1 of ``path`` holding ``value`` (JSON text) for ``field``, and stopped."""
    with sqlite3.connect(path) as db:
        params = json.loads(db.execute("SELECT params FROM runs WHERE id = 1").fetchone()[0])
        params[field] = "@@"
        text = json.dumps(params).replace('"@@"', value)
        db.execute("UPDATE runs SET params = ?, status = 'stopped' WHERE id = 1", (text,))


BAD = [("max_tricks", '"abc"'), ("max_tricks", "[1, 2]"), ("max_tricks", INFINITY),
       ("max_tricks", "-5"), ("top_k", '"abc"'), ("chunk_size", '"x"'), ("chunk_size", "0"),
       ("extend", '"y"'), ("closure_states", "-1"), ("deepest", "-1"), ("deals", "2.5"),
       ("hours", '"abc"'), ("hours", INFINITY), ("hours", "-1"), ("reach_states", "null"),
       ("kick_moves", "[3, 2]"), ("blocks", '"2-20"'), ("moves", '["swap", 7]'),
       ("starts", "[[1]]"), ("top_k", "true"), ("start_deal", "[1]"),
       ("extension_states", "-1"), ("extend_most", '"64"')]


@pytest.mark.parametrize(("field", "value"), BAD)
def test_a_bad_setting_names_the_run_in_show_resume_and_report(results, tmp_path, field,
                                                               value):
    set_parameter(results, field, value)
    for args in (["show", "--run", "1"], ["search", "resume", "--run", "1", "--quiet"]):
        message = fails_in_one_line(run(*args, "--db", results))
        assert "run 1" in message and field in message and "unreadable" in message
    site = tmp_path / "site"
    done = run("report", "--db", results, "--out", site)
    assert done.returncode == 0, done.stderr
    assert "run 1" in done.stderr and field in done.stderr and "Traceback" not in done.stderr
    assert (site / "index.html").exists()
    with sqlite3.connect(results) as db:  # the run stays stopped: a fixed file resumes it
        assert db.execute("SELECT status FROM runs WHERE id = 1").fetchone()[0] == "stopped"


def test_the_settings_the_tool_writes_pass():
    good = {"top_k": 0, "chunk_size": 1, "max_tricks": None, "deals": 10**30, "start": 10**25,
            "hours": 0.5, "until_idle": None, "kick_moves": [2, 3], "moves": ["swap", "card"],
            "starts": ["KK-----J/---Q-QJ-"], "extend": 0, "deepest": 0,
            "extension_states": 262_144, "extend_most": 64}
    readback.run_settings(good)
    readback.run_settings({"top_k": 100, "chunk_size": 500})  # a run without the rest


def test_a_missing_setting_that_strategies_index_is_named():
    with pytest.raises(readback.BadValue, match="chunk_size"):
        readback.run_settings({"top_k": 100})
