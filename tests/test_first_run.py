"""A newcomer's first hour (issue 26): compiling said and counted, `compile`, `--version`
and the commit each run stores; in this process, through ``cli.main``."""

import json
import os
import subprocess

import numba
import pytest

from beggar_search import compiling, driver, version
from beggar_search.cli import main
from beggar_search.store import Store

TINY = "plain=5,J=2,Q=1,K=1"  # 1512 deals


def cli(args, capsys):
    """Run the command line in this process: (exit status, stdout, stderr)."""
    with pytest.raises(SystemExit) as exit_info:
        main(args)
    out, err = capsys.readouterr()
    return exit_info.value.code, out, err


@pytest.fixture
def fresh_watch(monkeypatch):
    """The process's compile watch as if nothing had been compiled yet."""
    for name, value in (("done", 0), ("seconds", 0.0), ("announced", False), ("reported", 0),
                        ("reporting", True), ("quiet", False)):
        monkeypatch.setattr(compiling.WATCH, name, value)
    return compiling.WATCH


# --- versions -----------------------------------------------------------------------------

@pytest.mark.parametrize("flag", ["--version", "-V"])
def test_version_names_the_package_its_commit_and_numba(flag, capsys):
    status, out, _ = cli([flag], capsys)
    assert status == 0
    assert out.startswith("beggar-search 0.2.0 (commit ")
    assert f"numba {numba.__version__}" in out and "numpy " in out and "Python 3." in out
    assert version.commit() in out


def test_version_json_is_one_object(capsys):
    status, out, _ = cli(["--version", "--json"], capsys)
    assert status == 0
    found = json.loads(out)
    assert found["beggar_search"] == "0.2.0" and found["numba"] == numba.__version__
    assert set(found) == {"beggar_search", "commit", "numba", "llvmlite", "numpy", "python"}


def test_the_commit_is_the_checkouts_head():
    root = os.path.dirname(os.path.dirname(version.__file__))
    head = subprocess.run(["git", "-C", root, "rev-parse", "HEAD"], capture_output=True,
                          text=True)
    if head.returncode != 0:
        pytest.skip("not a git checkout")
    assert version.commit().removesuffix("-dirty") == head.stdout.strip()


def test_a_run_stores_the_commit_it_ran(tmp_path):
    with Store(tmp_path / "r.sqlite") as store:
        driver.start(store, "enumerate", {"deck": TINY, "players": 2, "max_tricks": None,
                                          "top_k": 5, "chunk_size": 500, "hours": None,
                                          "start": 0, "deals": 1512, "seed": None}, 1,
                     quiet=True)
        run = store.run(1)
    assert run.params["commit"] == version.commit() and run.version == "0.2.0"


# --- compiling is said --------------------------------------------------------------------

def test_a_compile_is_said_once_before_it_starts_and_counted(fresh_watch, capsys):
    compiling.watch("beggar-search test")

    @numba.njit
    def first(x):
        return x + 1

    @numba.njit
    def second(x):
        return x * 2

    assert first(1) == 2
    err = capsys.readouterr().err
    assert err == ("beggar-search: compiling the kernels of beggar-search test (first run only:"
                   " Numba caches them; `beggar-search compile` does it ahead; Ctrl-C stops)\n")
    assert second(2) == 4
    assert capsys.readouterr().err == ""  # said once
    assert fresh_watch.done == 2 and fresh_watch.seconds > 0
    compiling.report()
    assert capsys.readouterr().err.startswith("beggar-search: compiled 2 kernels in ")
    compiling.report()
    assert capsys.readouterr().err == ""


def test_quiet_says_nothing_of_compiling(fresh_watch, capsys):
    compiling.watch("beggar-search test", quiet=True)

    @numba.njit
    def third(x):
        return x - 1

    assert third(1) == 0
    compiling.report()
    assert capsys.readouterr().err == "" and fresh_watch.done == 1


def test_a_warm_up_in_its_thread_hands_back_its_error():
    def failing():
        raise ValueError("no such deck")

    with pytest.raises(ValueError, match="no such deck"):
        compiling.warm(failing)


# --- beggar-search compile ----------------------------------------------------------------

def test_compile_warms_a_search_and_creates_no_results_file(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    status, out, err = cli(["compile", "search", "enumerate", "--deck", TINY], capsys)
    assert status == 0 and out == ""
    lines = [line for line in err.splitlines() if "compiling the kernels" not in line]
    assert lines[0].startswith(f"search enumerate --deck {TINY}: ")
    assert lines[-1].startswith("beggar-search: 1 workload ready in ")
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("args", [["compile", "play", "K/Q"], ["compile", "--all", "search"]])
def test_compile_refuses_what_it_cannot_compile_in_one_line(args, capsys):
    status, out, err = cli(args, capsys)
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "compile" in err
