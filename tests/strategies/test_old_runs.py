"""Runs stored by older releases, resumed by this one, go on as their release would have.

The file is release c536529's own (``data/climb-c536529-stopped.sql``: a climb run stopped
after its first chunk); the figures it is held to are that release's uninterrupted run of the
same command, so a change of meaning in a stored parameter, or in what a strategy does when a
parameter is missing, shows as a chunk that differs (issue 38).
"""

import json
import sqlite3
from pathlib import Path

from cli_harness import run

DATA = Path(__file__).parent / "data"

# release c536529's uninterrupted run of the command in the fixture's header: per chunk
# (chunk, deals, loops, cards), the run's totals, and its 10 longest games
OLD_CHUNKS = [(0, 10262, 1, 313215), (1, 10213, 0, 309105), (2, 10227, 1, 307154),
              (3, 10224, 0, 314461)]
OLD_TOTALS = {"deals": 40926, "loops": 2, "caps": 0, "cards": 1243935,
              "wins": [20104, 20820], "chunks": 4}
OLD_LONGEST = [("--J----J/-Q---KQK", 302, 0, 10008), ("-Q---KQK/-J----J-", 301, 1, 10017),
               ("-J---J--/Q--KQK--", 298, 0, 10020), ("Q--KQK--/J---J---", 297, 1, 10036),
               ("J--J---Q/-KQK----", 294, 0, 10036), ("KQK-----/-J---QJ-", 291, 1, 10051),
               ("KQ------/-J--QJ-K", 290, 1, 10048), ("Q----K-J/--J-K-Q-", 284, 1, 10031),
               ("J--K-Q--/----K-JQ", 282, 0, 10039), ("---K-JQ-/-K-Q--J-", 279, 1, 10005)]


def old_file(tmp_path, name):
    """The release's results file rebuilt from its dump, in WAL mode as that release left it."""
    path = tmp_path / "old.sqlite"
    with sqlite3.connect(path) as db:
        db.executescript((DATA / name).read_text())
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA journal_mode=WAL")
    return path


def test_a_climb_run_of_release_c536529_resumes_as_that_release_ran_it(tmp_path):
    """Seen on main: chunk 1 played 10,212 deals, not the release's 10,213 (a parent inside an
    earlier parent's complete search was skipped, and with it the earlier parent's own later
    fair deals that the release, which left those out of a parent's own search, played)."""
    path = old_file(tmp_path, "climb-c536529-stopped.sql")
    with sqlite3.connect(path) as db:
        params = json.loads(db.execute("SELECT params FROM runs").fetchone()[0])
    assert "own_states" not in params and "deepest" not in params  # the release's parameters
    resumed = run("search", "resume", "--db", path, "--workers", "1", "--quiet")
    assert resumed.returncode == 0, resumed.stderr
    with sqlite3.connect(path) as db:
        chunks = db.execute("SELECT chunk, deals, loops, cards FROM chunks ORDER BY chunk")
        assert [tuple(row) for row in chunks] == OLD_CHUNKS
        row = db.execute("SELECT deals, loops, caps, cards, wins, chunks, status FROM runs")
        deals, loops, caps, cards, wins, count, status = row.fetchone()
        longest = db.execute("SELECT deal, cards, chunk, position FROM games WHERE"
                             " board = 'longest' ORDER BY cards DESC, chunk, position")
        assert [tuple(game) for game in longest] == OLD_LONGEST
    assert status == "done"
    assert {"deals": deals, "loops": loops, "caps": caps, "cards": cards,
            "wins": json.loads(wins), "chunks": count} == OLD_TOTALS
