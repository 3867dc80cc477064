"""Start-up: a command that plays nothing never loads Numba (1-2 s to import on a loaded
machine; issue 36: "every command takes 1-2 s to start, even to print an error").

``--help``, a command's ``--help``, a bad option, and ``show``, ``export`` and ``runs`` of
a results file run in one fresh interpreter here, each through the entry point, and Numba
(and dask, matplotlib, jinja2) must still be unloaded after each.  The values the option
help reads from the searches' sources without importing them (``cli.sourced``) are checked
against the modules' own.
"""

import json
import subprocess
import sys

import pytest

from beggar_search import driver
from beggar_search.store import Store

HEAVY = ("numba", "dask", "distributed", "matplotlib", "jinja2")

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
                ["search", "random", "--deck", "camica"],
                ["search", "random", "--deals", "many"], ["play", "-/-", "--deck", "X=1"],
                ["play", "-/-"], ["reach", "xx"], ["deal", "--deck", "camica"],
                ["show", "--db", db], ["show", "--db", db, "--json"], ["runs", "--db", db],
                ["export", "--db", db, "--what", "longest", "--out", "longest.csv"],
                ["export", "--db", db, "--what", "histogram", "--json"],
                ["show", "--db", str(tmp_path / "none.sqlite")]]
    loaded = loaded_by(commands, tmp_path)
    assert loaded == {" ".join(args): [] for args in commands}


@pytest.mark.parametrize(("command", "module", "names"), [
    ("climb", "beggar_search.strategies.climb",
     ["DEFAULT_CLOSURE_STATES", "DEFAULT_DEEPEST", "DEFAULT_EXTEND"]),
    ("factory", "beggar_search.cycles.moves",
     ["MOVE_NAMES", "DEFAULT_BLOCKS", "DEFAULT_EXCHANGES"]),
    ("factory", "beggar_search.cycles.perturb",
     ["DEFAULT_KICK_MOVES", "DEFAULT_KICK_SHIFT", "DEFAULT_KICKS", "KICK_NAMES"]),
    ("factory", "beggar_search.strategies.factory",
     ["KICK_CHUNK_TRIES", "KICK_CHUNKS", "KICK_EVERY", "REACH_STATES", "SEED_CHUNK_TRIES",
      "SEED_ROUNDS"]),
    ("reach", "beggar_search.backward.reach", ["DEFAULT_MAX_STATES"]),
])
def test_the_help_reads_the_values_the_searches_use(command, module, names):
    import importlib

    source = importlib.import_module(module)
    command = importlib.import_module(f"beggar_search.cli.{command}")  # the module, not the command
    assert {name: getattr(command, name) for name in names} == {
        name: getattr(source, name) for name in names}


def test_a_name_that_is_not_a_plain_constant_is_imported():
    from beggar_search.cli.sourced import read_constants
    from beggar_search.strategies.factory import SEED_ROUNDS, FactoryStrategy

    assert read_constants("gpu.engine", "CPU", "DEVICES") == ("cpu", ("cpu", "gpu"))
    assert read_constants("strategies.factory", "SEED_ROUNDS", "FactoryStrategy") == (
        SEED_ROUNDS, FactoryStrategy)
    with pytest.raises(AttributeError):
        read_constants("strategies.factory", "NO_SUCH_NAME")
