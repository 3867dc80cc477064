"""The search driver and results store: determinism, census, kill and resume, export."""

import csv
import io
import itertools
import json
import os
import signal
import sqlite3
import subprocess
import time

import pytest
from cli_harness import command, run
from naive import play_naive
from storeview import stored

from beggar_search import Deal, Deck, driver, play
from beggar_search.store import Store

pytestmark = pytest.mark.xdist_group("search")  # one worker: the uninterrupted run is made once

TINY = "plain=5,J=2,Q=1,K=1"  # 1512 deals, 12 of them loop into 2 cycles


def params(**extra):
    base = {"deck": "standard", "players": 2, "seed": 11, "top_k": 20, "max_tricks": None,
            "chunk_size": 4000, "hours": None, "deals": 20000}
    return {**base, **extra}


def test_same_seed_same_results_whatever_workers(tmp_path):
    for workers in (1, 2):
        with Store(tmp_path / f"w{workers}.sqlite") as store:
            driver.start(store, "random", params(deck=TINY, players=3), workers, quiet=True)
    one, two = stored(tmp_path / "w1.sqlite"), stored(tmp_path / "w2.sqlite")
    assert one == two
    assert one["summary"]["deals"] == 20000 and one["summary"]["loops"] > 0
    assert len(one["longest"]) == 20


def test_random_prefix_is_stable():
    """A longer run with the same seed and chunk size starts with the same deals."""
    from beggar_search.strategies import ChunkJob, execute
    small = execute(ChunkJob("random", 0, 500, params(top_k=500)))
    large = execute(ChunkJob("random", 0, 1000, params(top_k=1000)))
    small_deals = {bytes(d) for d in small.top_deals}
    assert small_deals <= {bytes(d) for d in large.top_deals}


def naive_cycle(hands):
    """The oracle's cycle of a looping deal: its set of states."""
    seen, states, leader = {}, [], 0
    hands = [list(h) for h in hands]
    from naive import trick_naive
    while True:
        key = (tuple(map(tuple, hands)), leader)
        if key in seen:
            return frozenset(states[seen[key]:])
        seen[key] = len(states)
        states.append(key)
        hands, leader, *_ = trick_naive(hands, leader)


def test_census_of_a_tiny_deck_agrees_with_brute_force(tmp_path):
    deck = Deck.parse(TINY)
    with Store(tmp_path / "c.sqlite") as store:
        driver.start(store, "enumerate", params(deck=TINY, start=0, deals=deck.count_deals(),
                                                chunk_size=300, seed=None), 2, quiet=True)
    result = stored(tmp_path / "c.sqlite")
    histogram, loops, cycles, wins = {}, [], {}, [0, 0]
    for sequence in sorted(set(itertools.permutations(deck.sorted_cards().tolist()))):
        deal = Deal.from_sequence(sequence, 2, deck)
        game = play_naive([list(h) for h in deal.hands])
        if game["outcome"] == "loop":
            loops.append(str(deal))
            cycle = naive_cycle(deal.hands)
            cycles[cycle] = cycles.get(cycle, 0) + 1
        else:
            histogram[game["cards"]] = histogram.get(game["cards"], 0) + 1
            wins[game["winner"] - 1] += 1
    assert result["summary"]["deals"] == deck.count_deals() == 1512
    assert result["summary"]["wins"] == wins
    assert sorted(g["deal"] for g in result["loops"]) == sorted(loops)
    assert result["summary"]["loops"] == len(loops) > 0
    assert result["summary"]["cycles"] == len(cycles) == 2
    assert sorted(c["deals"] for c in result["cycles"]) == sorted(cycles.values())
    assert dict(result["histogram"]) == histogram
    for game in result["loops"]:  # the index stored is the deal's index
        assert str(Deal.unrank(int(game["number"]), deck)) == game["deal"]


def wait_for_chunks(path, at_least, process, timeout=120):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert process.poll() is None, "the search ended before it could be interrupted"
        if path.exists():
            try:
                with sqlite3.connect(path, timeout=5) as db:
                    if db.execute("SELECT count(*) FROM chunks").fetchone()[0] >= at_least:
                        return
            except sqlite3.OperationalError:
                pass
        time.sleep(0.05)
    raise AssertionError("no chunk was stored in time")


SEARCH = ["search", "random", "--deck", "camicia", "--deals", "1200000", "--chunk-size",
          "10000", "--seed", "5", "--workers", "2", "--quiet", "--top", "30"]


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory):
    path = tmp_path_factory.mktemp("full") / "full.sqlite"
    subprocess.run(command(*SEARCH, "--db", str(path)), check=True, capture_output=True)
    return stored(path)


@pytest.mark.parametrize(("how", "workers"), [  # SIGINT-2: the default's real-process smoke
    pytest.param(signal.SIGKILL, "2", marks=pytest.mark.process), (signal.SIGINT, "2"),
    pytest.param(signal.SIGINT, "1", marks=pytest.mark.process)])
def test_interrupted_then_resumed_equals_uninterrupted(tmp_path, uninterrupted, how, workers):
    path = tmp_path / "cut.sqlite"
    args = [*SEARCH[:-5], "--workers", workers, *SEARCH[-3:], "--db", str(path)]
    process = subprocess.Popen(command(*args), start_new_session=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wait_for_chunks(path, 3, process)
    os.killpg(process.pid, how)  # as a terminal's Ctrl-C does: the whole process group
    out, err = process.communicate(timeout=120)
    partial = stored(path)
    assert 3 <= len(partial["chunks"]) < 120
    if how == signal.SIGINT:
        assert process.returncode == 130 and "stopping" in err  # not a finished run's 0
        assert "deals" in out and partial["summary"]["status"] == "stopped"
        assert f"continue it with `beggar-search search resume --db {path} --run 1`" in err
    resumed = subprocess.run(command("search", "resume", "--db", str(path), "--quiet",
                                     "--json"), check=True, capture_output=True, text=True)
    assert json.loads(resumed.stdout)["deals"] == 1200000
    assert stored(path) == uninterrupted


def test_export_round_trips(tmp_path):
    path = tmp_path / "e.sqlite"
    with Store(path) as store:
        driver.start(store, "enumerate", params(deck=TINY, start=0, deals=1512, chunk_size=500,
                                                seed=None), 1, quiet=True)
    for what in ("longest", "loops"):
        result = run("export", "--what", what, "--db", path)
        assert result.returncode == 0, result.output
        rows = list(csv.DictReader(io.StringIO(result.stdout)))
        assert rows
        for row in rows:
            game = play(row["deal"], deck=TINY)
            assert (game.outcome, game.cards, game.tricks) == (
                row["outcome"], int(row["cards"]), int(row["tricks"]))
            assert game.winner == int(row["winner"])
            if game.outcome == "loop":
                assert (game.period_tricks, game.period_cards, game.cycle) == (
                    int(row["period_tricks"]), int(row["period_cards"]), row["cycle"])
                assert game.preperiod_cards == int(row["preperiod_cards"])
    out = tmp_path / "h.csv"
    result = run("export", "--what", "histogram", "--db", path, "--out", out)
    assert result.returncode == 0
    with out.open() as handle:
        counts = [int(r["count"]) for r in csv.DictReader(handle)]
    assert sum(counts) == 1512 - 12


@pytest.mark.process
def test_two_searches_on_one_file(tmp_path):
    path = tmp_path / "shared.sqlite"
    args = ["search", "random", "--deck", TINY, "--deals", "60000", "--chunk-size", "2000",
            "--workers", "1", "--quiet", "--json", "--db", str(path)]
    processes = [subprocess.Popen(command(*args, "--seed", str(seed)), stdout=subprocess.PIPE,
                                  text=True) for seed in (1, 2)]
    outputs = [json.loads(p.communicate(timeout=300)[0]) for p in processes]
    assert [o["deals"] for o in outputs] == [60000, 60000]
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert db.execute("SELECT count(*) FROM chunks").fetchone()[0] == 60
    for output in outputs:
        assert stored(path, output["run"])["summary"]["deals"] == 60000


@pytest.mark.parametrize("args", [
    ["search", "random", "--deck", "nonsense", "--deals", "5"],
    ["search", "random", "--deck", "plain=-3,J=2", "--deals", "5"],
    ["search", "enumerate", "--deck", TINY, "--start", "1512"],
    ["search", "enumerate", "--deck", TINY, "--start", "1500", "--count", "20"],
    ["deal", "--index", "1512", "--deck", TINY],
    ["deal", "--rank", "--/--"],
    ["play", "J/Q"],
    ["show", "--run", "424242"],
    ["search", "resume", "--run", "424242"],
    ["runs", "--db", "{bad}"],
    ["export", "--what", "everything"],
    ["export", "--out", "/nonexistent-folder/x.csv"],
    ["search", "random", "--deals", "5", "--db", "/nonexistent-folder/x.sqlite"],
    ["search", "random", "--deals", "-5"],
])
def test_bad_input_is_one_line_and_status_2(tmp_path, args):
    bad = tmp_path / "bad.sqlite"
    bad.write_text("not a database, just text\n" * 100)
    with Store(tmp_path / "good.sqlite") as store:
        driver.start(store, "enumerate", params(deck=TINY, start=0, deals=10, seed=None), 1,
                     quiet=True)
    args = [str(bad) if a == "{bad}" else a for a in args]
    if "--db" not in args:
        args += ["--db", str(tmp_path / "good.sqlite")] if args[0] != "deal" and args[0] != (
            "play") else []
    result = run(*args)
    assert result.returncode == 2, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "Traceback" not in result.stderr and "error" in result.stderr


@pytest.mark.process
def test_a_dead_worker_stops_the_run_cleanly_and_resume_completes(tmp_path, uninterrupted):
    path = tmp_path / "dead.sqlite"
    process = subprocess.Popen(command(*SEARCH, "--db", str(path)), start_new_session=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wait_for_chunks(path, 3, process)
    workers = [int(pid) for pid in subprocess.run(
        ["pgrep", "-f", "-P", str(process.pid), "multiprocessing.spawn"],
        capture_output=True, text=True).stdout.split()]
    os.kill(workers[0], signal.SIGKILL)
    out, err = process.communicate(timeout=120)
    if process.returncode == 0:
        pytest.skip("the run ended before the worker could be killed")
    assert process.returncode == 2 and len(err.strip().splitlines()) == 1
    assert "search resume" in err and "Traceback" not in err
    assert stored(path)["summary"]["status"] == "stopped"
    subprocess.run(command("search", "resume", "--db", str(path), "--quiet"), check=True,
                   capture_output=True)
    assert stored(path) == uninterrupted


def test_a_results_file_with_a_run_is_never_removed(tmp_path):
    """A search stopped before its run existed removes the file it created (issue 26), but
    only one with no run: a file holding a run, or with a -wal beside it, stays whole."""
    from beggar_search.cli.search import remove_if_runless

    empty, held = tmp_path / "empty.sqlite", tmp_path / "held.sqlite"
    with Store(empty):
        pass
    with Store(held) as store:
        store.create_run("random", {"deck": TINY, "players": 2, "seed": 1, "top_k": 5,
                                    "max_tricks": None, "chunk_size": 100, "hours": None,
                                    "deals": 100}, "test")
    remove_if_runless(held)
    remove_if_runless(empty)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["held.sqlite"]
    with Store(held) as store:
        assert len(store.runs()) == 1
