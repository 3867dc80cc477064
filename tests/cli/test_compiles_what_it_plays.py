"""A command compiles (or loads) only the kernels its work calls (issue 36, must show 1: the
quick start's `search random` waited for kernels it never called)."""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import NamedTuple

import pytest
from listed_kernels import LISTING
from published import CASELLA

# one worker: its search (searched) and its cold cache are made once
pytestmark = pytest.mark.xdist_group("compiles")

# what a command run in a fresh process compiled or loaded (``listed_kernels``)
USED = LISTING + textwrap.dedent("""
    import json
    from beggar_search.cli import main
    try:
        main(sys.argv[1:])
    except SystemExit as end:
        assert not end.code, end.code
    print(json.dumps(sorted(name for name in sys.modules if name.startswith("beggar_search."))))
    print(json.dumps(sorted(package_kernels())))
""")

# the kernel families of the other games, searches and engines
FOREIGN = ("backward.", "cycles.", "games.", "engine.ers", "engine.bitboard_multi.")
GENERAL_ENGINE = ("engine.rules.play_game", "engine.rules.play_game_with",
                  "engine.bitboard.replay_long", "engine.bitboard.play_general")
FAST_PATH = ("engine.bitboard.",)


class Used(NamedTuple):
    """What a command run in a fresh process used: its folder, the kernels it compiled or
    loaded, and the package's modules it imported."""

    folder: Path
    kernels: list[str]
    modules: list[str]


def used_by(tmp_path, *args, cache=None) -> Used:
    env = {**os.environ, "BEGGAR_SEARCH_DB": str(tmp_path / "r.sqlite")}
    if cache is not None:
        env["NUMBA_CACHE_DIR"] = str(cache)
    result = subprocess.run([sys.executable, "-c", USED, *args], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stderr
    modules, kernels = result.stdout.splitlines()[-2:]
    return Used(tmp_path, json.loads(kernels), json.loads(modules))


def used_kernels(tmp_path, *args, cache=None) -> list[str]:
    return used_by(tmp_path, *args, cache=cache).kernels


@pytest.fixture(scope="module")
def cold_cache(tmp_path_factory):
    """An empty kernel cache: loaded from a warm one, a kernel does not load the kernels it
    calls, and the test could not see them (the quick start's search, compiled cold, is
    what the issue measured)."""
    return tmp_path_factory.mktemp("cold-cache")


SEARCH = ("search", "random", "--deals", "20000", "--workers", "1", "--quiet", "--seed", "1")
ENUMERATE = ("search", "enumerate", "--count", "20000", "--workers", "1", "--quiet")


@pytest.fixture(scope="module")
def searched(tmp_path_factory):
    """A results file holding a random search of the standard deck; the kernels it used,
    loaded from the user's kernel cache (warm in the suite: its first workloads compile
    every kernel of ``compile --all``), so the outermost ones only."""
    return used_by(tmp_path_factory.mktemp("compiles"), *SEARCH)


def test_a_random_search_of_the_standard_deck_calls_only_its_fast_path(searched):
    used = searched.kernels
    assert "engine.bitboard._random_blocks" in used
    assert not [name for name in used if name.startswith(FOREIGN + GENERAL_ENGINE)], used
    # nor imports the other searches (their modules and what they stand on)
    others = ("strategies.climb", "strategies.hunt", "strategies.factory", "cycles", "backward")
    modules = searched.modules
    assert "beggar_search.strategies.sweep" in modules
    assert not [name for name in modules if name.startswith(
        tuple(f"beggar_search.{other}" for other in others))], modules


def test_an_enumeration_of_the_standard_deck_calls_only_its_fast_path(tmp_path):
    used = used_kernels(tmp_path, *ENUMERATE)
    assert "engine.bitboard._enumerated_blocks" in used
    assert not [name for name in used if name.startswith(FOREIGN + GENERAL_ENGINE)], used


# The same searches compiled cold, which also shows the kernels the outermost ones call (17
# CPU s each, every run: in the rest of the suite, the default set keeps the checks above)
@pytest.mark.slow
def test_a_random_search_of_the_standard_deck_compiles_only_its_fast_path(tmp_path,
                                                                          cold_cache):
    used = used_kernels(tmp_path, *SEARCH, cache=cold_cache)
    assert "engine.bitboard._random_blocks" in used
    assert "engine.bitboard.fill_random" in used  # compiled cold: what it calls is seen
    assert not [name for name in used if name.startswith(FOREIGN + GENERAL_ENGINE)], used


@pytest.mark.slow
def test_an_enumeration_of_the_standard_deck_compiles_only_its_fast_path(tmp_path, cold_cache):
    used = used_kernels(tmp_path, *ENUMERATE, cache=cold_cache)  # its own kernels compiled cold
    assert "engine.bitboard._enumerated_blocks" in used
    assert "engine.bitboard.fill_enumerated" in used
    assert not [name for name in used if name.startswith(FOREIGN + GENERAL_ENGINE)], used


def test_play_uses_only_the_general_engine(tmp_path):
    used = used_kernels(tmp_path, "play", CASELLA)
    assert "engine.rules.play_game" in used
    assert not [name for name in used if name.startswith(FOREIGN + FAST_PATH)], used


@pytest.mark.parametrize("args", [["show"], ["runs"], ["export", "--what", "longest"],
                                  ["deal", "--index", "12345"], ["deal", "--count"]])
def test_commands_that_read_results_or_number_deals_use_no_kernel(searched, args):
    assert used_kernels(searched.folder, *args) == []


def test_compile_compiles_ahead_the_long_games_replay_a_search_compiles_late():
    """`beggar-search compile` (and `--all`) still fill the cache with everything a search
    may call: the general engine's replay of a long game too, with the very types a chunk
    gives it (one signature each, after both), so that an image's read-only cache has it."""
    import numpy as np

    from beggar_search.chunk_engine import Engine
    from beggar_search.engine import batch, bitboard
    from beggar_search.engine.random import chunk_stream
    from beggar_search.strategies import warm_up
    from beggar_search.strategies.sweep import EnumerateStrategy

    params = EnumerateStrategy.prepare({"deck": "plain=5,J=2,Q=1,K=1", "players": 2,
                                        "max_tricks": None, "top_k": 5, "chunk_size": 500,
                                        "hours": None, "start": 0, "deals": 1512,
                                        "seed": 1})
    warm_up("enumerate", params, whole=True)
    engine = Engine.for_run(params)
    recorder = engine.random_chunk(chunk_stream(1, 0), 3000, batch.new_recorder(5, 9))
    assert recorder.counts[batch.C_LOOPS] > 0  # long games met: replayed
    rows = engine.play_sequences(np.asarray(recorder.loop_deals[:1]))
    assert rows[0, 0] != 0
    assert len(bitboard.replay_long.signatures) == 1
    assert len(bitboard._play_long.signatures) == 1


@pytest.mark.slow
def test_the_first_worker_compiles_the_family_kernel_beside_the_parent_and_says_so(tmp_path):
    """On a cold cache the parent compiles the sweep's kernels while the first worker
    compiles the merge-family kernel (issue 36: a second core shortens the first search);
    the command counts the worker's kernels as its own, and a second run compiles nothing."""
    env = {**os.environ, "BEGGAR_SEARCH_DB": str(tmp_path / "r.sqlite"),
           "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    search = [sys.executable, "-m", "beggar_search", *SEARCH[:-3], "--seed", "1"]
    first = subprocess.run(search, cwd=tmp_path, env=env, capture_output=True, text=True,
                           timeout=900)
    assert first.returncode == 0, first.stderr
    said = [line for line in first.stderr.splitlines()
            if line.startswith("beggar-search: compiled")]
    assert len(said) == 1, first.stderr
    beside = int(said[0].split("(")[1].split()[0])  # "(N of them in a worker beside)"
    assert beside > 0 and said[0].endswith("of them in a worker beside)"), said
    assert "of them in a worker beside, first run only" in first.stdout
    again = subprocess.run(search, cwd=tmp_path, env=env, capture_output=True, text=True,
                           timeout=900)
    assert again.returncode == 0, again.stderr
    assert "compil" not in again.stderr + again.stdout
