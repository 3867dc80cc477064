"""A newcomer's first hour (issue 26): compiling said and counted, `compile`, `--version`
and the commit each run stores; in this process, through ``cli.main`` (``cli_harness``)."""

import json
import os
import subprocess
import warnings

import numba
import pytest
from cli_harness import run

from beggar_search import compiling, driver, version
from beggar_search.store import Store

TINY = "plain=5,J=2,Q=1,K=1"  # 1512 deals


@pytest.fixture
def fresh_watch(monkeypatch):
    """The process's compile watch as if nothing had been compiled yet."""
    for name, value in (("done", 0), ("seconds", 0.0), ("announced", False), ("reported", 0),
                        ("reporting", True), ("quiet", False)):
        monkeypatch.setattr(compiling.WATCH, name, value)
    return compiling.WATCH


# --- versions -----------------------------------------------------------------------------

@pytest.mark.parametrize("flag", ["--version", "-V"])
def test_version_names_the_package_its_commit_and_numba(flag):
    result = run(flag)
    assert result.returncode == 0
    assert result.stdout.startswith("beggar-search 0.2.0 (commit ")
    assert f"numba {numba.__version__}" in result.stdout and "numpy " in result.stdout
    assert "Python 3." in result.stdout
    assert version.commit() in result.stdout


def test_version_json_is_one_object():
    result = run("--version", "--json")
    assert result.returncode == 0
    found = json.loads(result.stdout)
    assert found["beggar_search"] == "0.2.0" and found["numba"] == numba.__version__
    assert set(found) == {"beggar_search", "commit", "numba", "llvmlite", "numpy", "python"}


def test_the_commit_is_the_checkouts_head():
    root = os.path.dirname(os.path.dirname(version.__file__))
    head = subprocess.run(["git", "-C", root, "rev-parse", "HEAD"], capture_output=True,
                          text=True)
    if head.returncode != 0:
        pytest.skip("not a git checkout")
    assert version.commit().removesuffix("-dirty") == head.stdout.strip()


def test_an_installed_wheel_reads_the_commit_its_build_wrote(tmp_path, monkeypatch):
    package = tmp_path / "site-packages" / "beggar_search"  # no checkout above it
    package.mkdir(parents=True)
    monkeypatch.setattr(version, "PACKAGE", package)
    monkeypatch.setattr(version, "COMMIT_FILE", package / "_commit.txt")
    assert version.commit.__wrapped__() == "unknown"
    (package / "_commit.txt").write_text("58acb68b4eade279c655206db7daa730a643946b\n")
    assert version.commit.__wrapped__() == "58acb68b4eade279c655206db7daa730a643946b"


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


def test_a_warm_up_in_its_thread_hands_back_its_result():
    assert compiling.warm(divmod, 7, 2) == (3, 1)


def test_a_warm_up_in_its_thread_hands_back_its_error():
    def failing():
        raise ValueError("no such deck")

    with pytest.raises(ValueError, match="no such deck"):
        compiling.warm(failing)


# --- beggar-search compile ----------------------------------------------------------------

def test_compile_warms_a_search_and_creates_no_results_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("compile", "search", "enumerate", "--deck", TINY)
    assert result.returncode == 0 and result.stdout == ""
    lines = [line for line in result.stderr.splitlines() if "compiling the kernels" not in line]
    assert lines[0].startswith(f"search enumerate --deck {TINY}: ")
    assert lines[-1].startswith("beggar-search: 1 workload ready in ")
    assert os.listdir(tmp_path) == []


def test_compile_into_a_cache_that_keeps_nothing_does_not_call_the_kernels_ready(
        tmp_path, monkeypatch):
    """A full (or read-only) NUMBA_CACHE_DIR: `compile --all` said `compiled N kernels`
    and `N workloads ready` although nothing was saved (issue 38, seen on a 2 MB tmpfs)."""
    from beggar_search import jit

    counts = iter([0, 0, 3, 3])  # before the workloads, before and after one, at the end
    monkeypatch.setattr(jit, "unsaved_kernels", lambda: next(counts))
    monkeypatch.chdir(tmp_path)
    result = run("compile", "search", "enumerate", "--deck", TINY)
    assert result.returncode == 0 and result.stdout == ""
    lines = [line for line in result.stderr.splitlines() if "compiling the kernels" not in line]
    assert ", 3 not saved in " in lines[0], lines
    assert "workload ready" not in result.stderr, result.stderr
    assert lines[-1].startswith("beggar-search: 3 kernels of 1 workload not saved in the"
                                f" kernel cache {jit.kernels_folder()}: later commands"
                                " compile them again"), lines


def test_compile_where_names_the_cache_and_clean_empties_it(tmp_path, monkeypatch):
    from numba.core import config

    from beggar_search import jit

    monkeypatch.setattr(config, "CACHE_DIR", str(tmp_path))
    (tmp_path / "someone-elses.txt").write_text("kept")
    (jit.kernels_folder() / "engine").mkdir(parents=True)
    result = run("compile", "--where")
    assert result.returncode == 0 and result.stdout == f"{tmp_path}\n"
    assert str(jit.kernels_folder()) in result.stderr
    result = run("compile", "--clean")
    assert result.returncode == 0 and result.stdout == ""
    assert "removed the compiled kernels of 1 version" in result.stderr
    assert os.listdir(tmp_path) == ["someone-elses.txt"]


@pytest.mark.parametrize("args", [["compile", "play", "K/Q"], ["compile", "--all", "search"],
                                  ["compile", "search", "resume"], ["compile", "--where", "--all"]])
def test_compile_refuses_what_it_cannot_compile_in_one_line(args):
    result = run(*args)
    assert result.returncode == 2 and result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1 and "compile" in result.stderr


# --- the report's friction points (issue 26, must show 5) ----------------------------------

def tiny_params(**extra):
    return {"deck": TINY, "players": 2, "max_tricks": None, "top_k": 5, "chunk_size": 500,
            "hours": None, "start": 0, "deals": 1512, "seed": None, **extra}


@pytest.fixture
def census(tmp_path):
    """A results file holding one finished census of the tiny deck."""
    path = tmp_path / "census.sqlite"
    with Store(path) as store:
        driver.start(store, "enumerate", tiny_params(), 1, quiet=True)
    return path


def test_resume_of_a_finished_run_says_so_and_writes_nothing(census):
    before = census.read_bytes()
    result = run("search", "resume", "--db", census)
    assert result.returncode == 0
    assert "beggar-search: run 1 is already done: nothing to resume" in result.stderr
    assert result.stdout.startswith("run 1 (enumerate, deck plain=5,J=2,Q=1,K=1, 2 players): done")
    assert census.read_bytes() == before


def test_a_stopped_run_names_the_command_that_continues_it(tmp_path, capsys):
    from beggar_search.cli.search import say_how_to_resume

    class Held:
        path = tmp_path / "my runs.sqlite"

    say_how_to_resume({"run": 3, "status": "stopped"}, Held)
    assert capsys.readouterr().err == (
        "beggar-search: run 3 stopped; continue it with `beggar-search search resume --db"
        f" '{tmp_path}/my runs.sqlite' --run 3`\n")
    say_how_to_resume({"run": 3, "status": "done"}, Held)
    assert capsys.readouterr().err == ""


def test_human_summaries_have_no_python_values_and_right_plurals(census):
    result = run("show", "--db", census)
    assert result.returncode == 0
    first, deals, loops = result.stdout.splitlines()[:3]
    assert "seed" not in first  # an enumeration has none: not "seed None"
    assert "[" not in deals and "wins by player " in deals
    wins = deals.split("wins by player ")[1].split(" / ")
    assert sum(int(w.replace(",", "")) for w in wins) == 1512 - 12  # 12 of them loop
    assert loops == "loops      12 in 2 distinct cycles"
    assert "chunks     500 deals each" in result.stdout
    assert "reached by 6 deals" in result.stdout or "reached by" in result.stdout


def test_plural_says_one_thing_and_many_things():
    from beggar_search.text import plural

    assert plural(1, "island") == "1 island" and plural(2576, "cycle") == "2,576 cycles"


def test_runs_has_a_header_and_an_empty_file_says_so(census, tmp_path):
    result = run("runs", "--db", census)
    header, row = result.stdout.splitlines()
    assert result.returncode == 0 and header.split()[:3] == ["run", "strategy", "status"]
    assert "started" in header and row.split()[:3] == ["1", "enumerate", "done"]
    created, updated = row.split()[-2:]  # the times under their headings
    assert header.index("started") == row.index(created)
    assert header.index("last stored") == row.rindex(updated)
    empty = tmp_path / "empty.sqlite"
    Store(empty).close()
    result = run("runs", "--db", empty)
    assert result.returncode == 0 and result.stdout == "" and "holds no runs yet" in result.stderr


def test_the_results_file_can_come_from_beggar_search_db(census, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("BEGGAR_SEARCH_DB", str(census))
    result = run("runs")
    assert result.returncode == 0 and len(result.stdout.splitlines()) == 2
    result = run("runs", "--db", "nowhere.sqlite")  # --db wins
    assert result.returncode == 2


@pytest.mark.parametrize("what", ["loops", "longest", "histogram"])
def test_fair_only_outside_cycles_is_refused_in_one_line(census, what):
    result = run("export", "--db", census, "--what", what, "--fair-only")
    assert result.returncode == 2 and result.stdout == ""
    assert len(result.error_lines) == 1 and "--fair-only is for --what cycles" in result.stderr


def test_an_export_to_a_file_says_what_it_wrote(census, tmp_path):
    out = tmp_path / "loops.csv"
    result = run("export", "--db", census, "--what", "loops", "--json", "--out", out)
    assert result.returncode == 0 and result.stderr == f"wrote 12 JSON lines to {out}\n"
    assert len(out.read_text().splitlines()) == 12


def test_recover_leaves_nothing_beside_the_file_it_reads(census, tmp_path):
    before = sorted(os.listdir(tmp_path))
    result = run("recover", "--db", census, "--out", tmp_path / "r.sqlite")
    assert result.returncode == 0
    assert sorted(os.listdir(tmp_path)) == sorted([*before, "r.sqlite"])
    assert result.stdout.startswith("copied 1 run, ") and "histogram rows" in result.stdout


@pytest.mark.parametrize(("deal", "says"), [
    ("---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA", None),
    ("--------------JJQQKK/--------------JJQQKK", "add --deck camicia"),
    ("---K---Q-KQAJ-----AAJ--J-----------Q----KQ-J-----KA", "one hand found"),
    ("79/T8", "add --game ers"),
])
def test_errors_point_to_the_fix(deal, says):
    result = run("play", deal)
    if says is None:
        assert result.returncode == 0
        return
    assert result.returncode == 2 and says in result.stderr and len(result.error_lines) == 1


def test_zero_hours_is_refused_for_what_it_is():
    result = run("search", "random", "--hours", "0")
    assert result.returncode == 2 and "greater than 0" in result.stderr


def test_help_reads_as_help():
    result = run("--help")
    assert "play     Play one deal and print how it ends." in result.stdout
    assert "compile  " in result.stdout
    result = run("search", "random", "--help")
    assert "340282366920938463463374607431768211455" not in result.stdout
    assert "4611686018427387904" not in result.stdout and "BEGGAR_SEARCH_DB" in result.stdout
    assert "2,097,152" in result.stdout  # the chunk size default is said
    result = run("search", "hunt", "--help")
    assert "Superseded by `search factory`" in result.stdout and "--game" not in result.stdout
    result = run("bench", "--help")
    assert "2<=x<=8" in result.stdout


def test_bench_says_its_rates_are_per_cpu_second():
    from beggar_search.cli.bench import describe

    row = {"deals_per_second": 2e6, "cards_per_second": 4e8}
    text = describe({"deck": "standard", "players": 2, "source": "random",
                     "fast_kernel": "bitboard", "fast": row, "general": row,
                     "deals_ratio": 1.0, "cards_ratio": 1.0})
    assert "rates per CPU second of the worker (CPU clock)" in text.splitlines()[0]


def test_plots_compare_on_one_bin_width_and_name_the_game(tmp_path):
    from beggar_search import plots

    path = tmp_path / "two.sqlite"
    with Store(path) as store:
        driver.start(store, "enumerate", tiny_params(), 1, quiet=True)
        driver.start(store, "random", {**tiny_params(), "deck": "standard", "deals": 3000,
                                       "chunk_size": 3000, "seed": 1}, 1, quiet=True)
        alone = [plots.lengths_data(store, run)["bin_width"] for run in (1, 2)]
        first, second = plots.lengths_pair(store, 1, 2)
    assert alone[0] != alone[1]  # what --vs drew before: 2.5x apart for one deck
    assert first["bin_width"] == second["bin_width"] == max(alone)
    assert first["game"] == "bmn" and first["game_label"] == "Beggar-my-neighbour"


def test_the_ratscrew_label_names_the_slap_rules():
    from beggar_search import games

    assert games.of({"game": "ers", "slap_rules": "pair", "slap_policy": "odds:0.5,0.5",
                     "slap_in": True, "players": 2}).describe() == (
        "Egyptian ratscrew, slaps pair by odds:0.5,0.5")
    assert games.of({}).describe() == "Beggar-my-neighbour"


class SlowPool:
    """Chunks in threads, each taking a second and saying so (a climb's chunk, scaled)."""

    def __init__(self, workers, name, params):
        from concurrent.futures import ThreadPoolExecutor

        from beggar_search.strategies import warm_up

        warm_up(name, params)
        self.workers = 1
        self.threads = ThreadPoolExecutor(4)

    def submit(self, job):
        import time

        from beggar_search.strategies import execute

        def slow():
            time.sleep(1.0)
            summary = execute(job)
            summary.seconds = 1.0
            return summary

        return self.threads.submit(slow)

    def wait(self, futures, timeout):
        from concurrent.futures import FIRST_COMPLETED, wait

        return wait(futures, timeout=timeout, return_when=FIRST_COMPLETED)

    def close(self):
        self.threads.shutdown(wait=True)


def test_at_the_deadline_the_chunks_in_flight_are_stored_not_dropped(tmp_path, monkeypatch,
                                                                     capsys):
    monkeypatch.setattr(driver, "STOP_GRACE", 0.2)  # far shorter than a chunk
    with Store(tmp_path / "d.sqlite") as store:
        summary = driver.start(store, "enumerate", tiny_params(chunk_size=50,
                                                               hours=2.5 / 3600), 1,
                               pool_factory=SlowPool)
        chunks = store.done_chunks(1)
    assert "dropped" not in capsys.readouterr().err
    assert summary["status"] == "done" and 2 <= len(chunks) < 1512 // 50
    assert summary["deals"] == 50 * len(chunks)


def test_every_workload_of_compile_all_is_a_command_line_its_search_takes():
    from beggar_search.cli import cli as group
    from beggar_search.cli.compile import ALL_WORKLOADS

    for workload in ALL_WORKLOADS:
        command, args, ctx = group, list(workload), None
        while hasattr(command, "resolve_command"):  # down the groups to the search itself
            ctx = command.make_context(command.name, args, parent=ctx)
            with warnings.catch_warnings():  # click 8.2-8.x: protected_args is deprecated
                warnings.simplefilter("ignore", DeprecationWarning)
                rest = [*ctx.protected_args, *ctx.args]
            _, command, args = command.resolve_command(ctx, rest)
        command.make_context(command.name, args, parent=ctx)  # its options parse and check


def test_new_cycle_lines_stop_after_the_first_twenty(census, monkeypatch, capsys):
    import time
    from types import SimpleNamespace

    met = [SimpleNamespace(cycle=f"c{i}", period_tricks=1, period_cards=2, example="--/--")
           for i in range(25)]

    class Bar:
        disable = True

        def update(self, deals):
            pass

    with Store(census) as store:
        session = driver.Session(store, store.run(1), 1)
        session.elapsed_before, session.started = 0.0, time.monotonic()
        monkeypatch.setattr(store, "add_chunk",
                            lambda *args: SimpleNamespace(record=None, new_cycles=met))
        strategy = SimpleNamespace(record=lambda job, summary: SimpleNamespace(deals=1),
                                   top_k=5)
        for _ in range(2):  # two chunks: 50 new cycles
            session._store(strategy, SimpleNamespace(deals=1), None, Bar())
    err = capsys.readouterr().err
    assert err.count("new cycle c") == driver.CYCLE_LINES == 20
    assert err.count("more new cycles: not printed past the first 20") == 1


def test_a_factory_summary_counts_tries_and_leaves_out_wins_and_caps():
    from beggar_search.cli.common import summary_text

    text = summary_text({"run": 2, "strategy": "factory", "deck": "standard", "players": 2,
                         "seed": 7, "status": "done", "deals": 37267920, "wins": [0, 0],
                         "loops": 120, "cycles": 1, "caps": 0, "fair_cycles": 1,
                         "islands": 1, "fair_islands": 1, "fair_deals": 120, "longest": None,
                         "deals_per_second": 478630.0, "seconds": 77.9, "game": "bmn"})
    assert text.splitlines() == [
        "run 2 (factory, deck standard, 2 players, seed 7): done",
        "tries      37,267,920",
        "loops      120 met, 1 new cycle stored",
        "family     1 cycle in 1 island; 1 reached by fair deals (1 island), 120 fair deals",
        "speed      478,630 tries/s over 77.9 s of search (wall clock, all workers;"
        " `bench`: per CPU second of one worker)"]


def test_a_new_cycle_line_stays_short_whatever_its_state():
    """A factory's "new cycle" lines ran past 250 characters (the whole state): a line keeps
    its example only within driver.CYCLE_LINE_WIDTH."""
    from types import SimpleNamespace

    deal = "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA"
    short = driver.cycle_line(SimpleNamespace(cycle="8311fee12fa0eca7", period_tricks=62,
                                              period_cards=440, example=deal))
    assert short.endswith(f"  {deal}") and len(short) <= driver.CYCLE_LINE_WIDTH
    state = SimpleNamespace(cycle="8311fee12fa0eca7", period_tricks=62, period_cards=440,
                            example=deal + " pile " + "A-" * 80 + " leader 2")
    line = driver.cycle_line(state)
    assert len(line) <= driver.CYCLE_LINE_WIDTH and "8311fee12fa0eca7" in line
    assert "period 62 tricks / 440 cards" in line and "export --what cycles" in line


def test_a_run_whose_workers_lose_their_cpu_says_so_once_and_when_it_is_back():
    """Chunks whose threads got a fifth of their seconds in CPU (other jobs on the machine): one
    line once a full window says so, none for the chunks after it, one when it is back;
    nothing before a full window, nor for chunks that did not measure their CPU."""
    watch = driver.CpuWatch("tries")
    window = driver.CPU_WINDOW
    assert watch.add(window / 2, None, 10**6) is None  # not measured: no reading
    said = [watch.add(window / 4, window / 4, 10**6) for _ in range(4)]  # full speed
    said += [watch.add(window / 4, window / 20, 2 * 10**5) for _ in range(8)]  # a fifth
    said += [watch.add(window / 4, window / 4, 10**6) for _ in range(8)]  # back
    lines = [line for line in said if line]
    assert said[:4] == [None] * 4 and len(lines) == 2
    assert said.index(lines[0]) == 5  # the window half slowed: 60% of the CPU
    assert lines[0].startswith("slowed: workers got 60% of their CPU over 60 s") and (
        "40.0 k tries/s each, best 66.7 k" in lines[0])
    assert lines[1].startswith("back to speed: workers got 100% of their CPU")
    assert all(len(line) <= driver.CYCLE_LINE_WIDTH for line in lines)
