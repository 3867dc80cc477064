"""Start-up: a command that plays nothing never loads Numba (1-2 s to import on a loaded
machine; issue 36: "every command takes 1-2 s to start, even to print an error").

``--help``, a command's ``--help``, a bad option, and ``show``, ``export`` and ``runs`` of
a results file run in one fresh interpreter here, each through the entry point, and Numba
(and dask, matplotlib, jinja2) must still be unloaded after each.  Every search's ``--help``
is among them: the defaults and figures an option shows are ``beggar_search.tunables``'s,
which imports nothing, and the searches read the same names.
"""

import json
import subprocess
import sys

from beggar_search import driver
from beggar_search.store import Store

HEAVY = ("numba", "dask", "distributed", "matplotlib", "jinja2")
SEARCHES = ("random", "enumerate", "climb", "factory", "hunt", "resume")

# each command in the same interpreter: the first that loads a heavy module is named
PROBE = """
import json, sys
from beggar_search.console import main
loaded = {}
for args in json.loads(sys.argv[1]):
    try:
        main(args)
    except SystemExit:
        pass
    loaded[" ".join(args)] = [name for name in HEAVY if name in sys.modules]
print(json.dumps(loaded), file=sys.__stderr__)
""".replace("HEAVY", repr(HEAVY))


def loaded_by(commands, cwd):
    """The heavy modules loaded after each of ``commands``, run in turn in one interpreter."""
    done = subprocess.run([sys.executable, "-c", PROBE, json.dumps(commands)], cwd=cwd,
                          capture_output=True, text=True, timeout=300)
    return json.loads(done.stderr.strip().splitlines()[-1])


def test_help_errors_and_reading_results_load_no_numba(tmp_path):
    db = str(tmp_path / "r.sqlite")
    with Store(db) as store:
        driver.start(store, "enumerate", {"deck": "plain=5,J=2,Q=1,K=1", "players": 2,
                                          "seed": None, "top_k": 5, "max_tricks": None,
                                          "chunk_size": None, "hours": None, "start": 0,
                                          "deals": 1512}, 1, quiet=True)
    commands = [["--help"], ["--version"], ["show", "--help"], ["export", "--help"],
                ["reach", "--help"], ["search", "--help"], ["plot", "--help"], ["report", "--help"],
                *(["search", name, "--help"] for name in SEARCHES),
                ["search", "random", "--deck", "camica"],
                ["search", "random", "--deals", "many"], ["play", "-/-", "--deck", "X=1"],
                ["play", "-/-"], ["reach", "xx"], ["deal", "--deck", "camica"],
                ["show", "--db", db], ["show", "--db", db, "--json"], ["runs", "--db", db],
                ["export", "--db", db, "--what", "longest", "--out", "longest.csv"],
                ["export", "--db", db, "--what", "histogram", "--json"],
                ["show", "--db", str(tmp_path / "none.sqlite")]]
    loaded = loaded_by(commands, tmp_path)
    assert loaded == {" ".join(args): [] for args in commands}
