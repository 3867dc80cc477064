"""The local pool's start: every worker started and warmed before a run's clock starts."""

import multiprocessing
import os
import signal
import subprocess
import sys
import textwrap
import time
from concurrent.futures import FIRST_COMPLETED, Future, wait
from concurrent.futures.process import BrokenProcessPool
from types import SimpleNamespace

import pytest

from beggar_search import driver
from beggar_search.errors import UserError
from beggar_search.pools.local import Beside, LocalPool, compile_beside
from beggar_search.strategies import execute


def a_pool(workers: int) -> LocalPool:
    """A LocalPool's waiting alone, on no processes."""
    pool = object.__new__(LocalPool)
    pool.workers = workers
    pool.executor = SimpleNamespace(_processes={})
    return pool


def test_the_pool_waits_until_every_worker_is_ready():
    ready = multiprocessing.get_context("spawn").Semaphore(0)
    for _ in range(2):
        ready.release()
    a_pool(2)._wait_ready(ready, [Future(), Future()])  # returns: both said ready


def test_a_worker_that_dies_while_it_starts_is_one_clear_error():
    ready = multiprocessing.get_context("spawn").Semaphore(0)
    ready.release()  # one of two workers ready, the other dead
    died = Future()
    died.set_exception(BrokenProcessPool("a process terminated abruptly"))
    with pytest.raises(UserError, match="a worker process died while it started"):
        a_pool(2)._wait_ready(ready, [Future(), died])


# in a fresh process: which kernels a strategy's warm-up leaves to the worker beside the
# parent (each listed kernel: whether it has a compiled or loaded signature, after the
# parent's part, then after the worker's)
BESIDE = textwrap.dedent("""
    import sys
    from importlib import import_module
    from beggar_search.strategies import STRATEGIES, warm_beside, warm_up

    name, deck, *kernels = sys.argv[1:]
    extra = {"hours": 0.01} if name == "factory" else {"deals": 100}
    params = STRATEGIES[name].prepare({"deck": deck, "players": 2, "seed": 1, "top_k": 5,
                                       "max_tricks": None, "chunk_size": None, "hours": None,
                                       **extra})

    def used():
        return [bool(getattr(import_module("beggar_search." + kernel.rsplit(".", 1)[0]),
                             kernel.rsplit(".", 1)[1]).signatures) for kernel in kernels]

    warm_up(name, params, beside=True)
    print(used())
    warm_beside(name, params)
    print(used())
""")


@pytest.mark.parametrize(("name", "deck", "kernels"), [
    ("random", "plain=5,J=2,Q=1,K=1", ["engine.merging.bmn_family_keys"]),
    ("climb", "plain=5,J=2,Q=1,K=1", ["backward.closure._search"]),
    ("factory", "plain=8,J=2,Q=3,K=3", ["cycles.perturb.kick_chunk_with",
                                        "backward.closure._search"]),
])
def test_a_warm_up_leaves_its_heaviest_kernels_to_the_worker_beside(tmp_path, name, deck,
                                                                      kernels):
    """The parent's warm-up neither compiles nor loads the kernels a worker compiles beside
    it meanwhile, on a second core (issue 36: a sweep's merge-family kernel, a third of its
    compile; the climber's backward search; the factory's kicks and backward search: its
    first run compiled 155 s in one process, 89 s so), and ``warm_beside`` does."""
    done = subprocess.run([sys.executable, "-c", BESIDE, name, deck, *kernels], cwd=tmp_path,
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:2] == [str([False] * len(kernels)),
                                            str([True] * len(kernels))]


# a fresh process: a worker's preparation for each strategy, then what it compiled or loaded
# (the kernels of the modules it imported that have a signature) and whether Numba is set up
PREPARE = textwrap.dedent("""
    import sys
    from numba.core.registry import cpu_target
    from beggar_search.strategies import STRATEGIES, prepare

    for name in STRATEGIES:
        extra = {"hours": 0.01} if name in ("factory", "hunt") else {"deals": 100}
        prepare(name, STRATEGIES[name].prepare(
            {"deck": "plain=5,J=2,Q=1,K=1", "players": 2, "seed": 1, "top_k": 5,
             "max_tricks": None, "chunk_size": None, "hours": None, **extra}))
    print(sorted(f"{module}.{key}" for module, held in list(sys.modules.items())
                 if module.startswith("beggar_search") for key, value in vars(held).items()
                 if getattr(value, "signatures", None)))
    print(bool(cpu_target.typing_context._registries), bool(cpu_target.target_context._registries))
""")


def test_a_worker_prepares_while_the_parent_compiles_without_compiling_anything(tmp_path):
    """What a worker does before the parent's compile is done (``strategies.prepare``): it
    imports every strategy's modules and sets Numba up, so that loading its kernels after
    takes a tenth of a second instead of a second (a search on 2 workers starts 1.3 s
    sooner), and it neither compiles nor loads a kernel, which would race the parent."""
    done = subprocess.run([sys.executable, "-c", PREPARE], cwd=tmp_path, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:2] == ["[]", "True True"]


def test_a_compile_beside_that_fails_lets_the_workers_go_on():
    """The worker's head start is only that: when it fails, it says it compiled nothing and
    is done, so that the other workers stop waiting for it (each worker's own warm-up then
    compiles what is missing, and fails there if it cannot, as before)."""
    context = multiprocessing.get_context("spawn")
    beside = Beside(context.Lock(), context.Event(), context.Array("d", 2))
    compile_beside("no such strategy", {}, beside)
    assert beside.done.is_set()
    assert beside.figures[0] == 0 and beside.figures[1] > 0


def test_a_hunt_compiles_nothing_beside():
    """The hunt keeps no games (no families) and compiles its few kernels in the parent: its
    worker has nothing to compile beside it (it would waste a core's seconds)."""
    from beggar_search.strategies.hunt import HuntStrategy

    strategy = object.__new__(HuntStrategy)
    assert strategy.of_cycles
    strategy.game = None  # reaching the families would fail on it
    strategy.warm_beside()


class Terminal:
    """stderr as a terminal: the progress bar is shown (and counts)."""

    def __init__(self):
        self.text = []

    def write(self, text):
        self.text.append(text)
        return len(text)

    def flush(self):
        pass

    def isatty(self):
        return True


def climb_params(**extra):
    return {"deck": "plain=5,J=2,Q=1,K=1", "players": 3, "seed": 5, "top_k": 30,
            "max_tricks": None, "chunk_size": 3000, "hours": None, "deals": 6000, "extend": 3,
            "closure_states": 5000, **extra}


@pytest.fixture
def bars(monkeypatch):
    """The progress bars the driver opens, kept (a test sets a terminal on stderr, so that
    they show: pytest sets its own stderr between the fixtures and the test)."""
    made = []

    class Bar(driver.tqdm):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            made.append(self)

    monkeypatch.setattr(driver, "tqdm", Bar)
    return made


def test_the_progress_bar_counts_what_the_summary_counts(tmp_path, bars, monkeypatch):
    """A climb stores more games than its chunks are planned with (the extension's): the
    bar counts the stored ones, as the summary, its JSON and ``show`` do (issue 26)."""
    monkeypatch.setattr(driver.sys, "stderr", Terminal())
    from beggar_search.store import Store

    with Store(tmp_path / "c.sqlite") as store:
        summary = driver.start(store, "climb", climb_params(), 1)
    assert summary["deals"] > 6000  # random deals and the extension's games
    assert [bar.n for bar in bars] == [summary["deals"]]
    # in the climb's own unit, with no total: its games go past the plan
    assert [(bar.unit, bar.total) for bar in bars] == [(" games", None)]
    assert bars[0].postfix.startswith("best ")


def test_the_progress_bar_speaks_the_strategy_s_unit(tmp_path, bars, monkeypatch):
    """An enumeration's bar counts deals up to its plan; a factory's counts tries and shows
    its family (the strategy says which: ``unit``, ``ends_at_plan``, ``progress``)."""
    monkeypatch.setattr(driver.sys, "stderr", Terminal())
    from beggar_search.store import Store

    tiny = {"deck": "plain=5,J=2,Q=1,K=1", "players": 2, "seed": None, "top_k": 5,
            "max_tricks": None, "chunk_size": 500, "hours": None}
    with Store(tmp_path / "e.sqlite") as store:
        driver.start(store, "enumerate", {**tiny, "deals": 1512, "start": 0}, 1)
        driver.start(store, "factory", {**tiny, "top_k": 0, "chunk_size": 3000, "seed": 7,
                                        "starts": [], "seed_chunks": 1, "kicks": []}, 1)
    enumeration, factory = bars
    assert (enumeration.unit, enumeration.total, enumeration.n) == (" deals", 1512, 1512)
    assert enumeration.postfix.startswith("best ") and "12 loops" in enumeration.postfix
    assert (factory.unit, factory.total) == (" tries", None)
    assert " fair (" in factory.postfix and " island" in factory.postfix


def test_a_sitting_stops_on_the_first_signal_and_drops_on_the_second():
    sitting = driver.Sitting()
    sitting.note_stopping(100.0)
    assert sitting.stopping_since is None and not sitting.dropping  # no stop, no deadline
    sitting.stops.append(2)
    sitting.interrupted = True
    sitting.note_stopping(100.0)
    assert sitting.stopping_since == 100.0 and not sitting.dropping
    assert sitting.grace() == driver.STOP_GRACE  # a stop's grace, however long chunks take
    sitting.chunk_finished(60.0)
    assert sitting.grace() == driver.STOP_GRACE
    assert not sitting.out_of_grace(100.0 + driver.STOP_GRACE)
    assert sitting.out_of_grace(100.5 + driver.STOP_GRACE)
    sitting.stops.append(2)
    assert sitting.dropping


def test_at_its_deadline_a_sitting_gives_the_chunks_in_flight_a_chunk_s_time():
    sitting = driver.Sitting(deadline=50.0)
    sitting.note_stopping(49.0)
    assert sitting.stopping_since is None
    sitting.chunk_finished(0.0)
    assert sitting.chunk_time > 0  # a chunk has finished, however fast
    sitting.chunk_finished(40.0)
    sitting.note_stopping(50.0)
    assert sitting.stopping_since == 50.0
    assert sitting.grace() == 60.0  # 1.5 chunk-times: a climb's chunk takes tens of seconds
    assert not sitting.out_of_grace(109.0) and sitting.out_of_grace(111.0)
    assert not driver.Sitting().out_of_time()  # no deadline
    assert driver.Sitting(deadline=1e18, out_of_plan=True).out_of_time()


class SlowPool:
    """One worker whose chunks each take ``SLOW`` seconds more, in a thread: a climb's long
    chunks, in small."""

    SLOW = 1.0

    def __init__(self, workers, name, params):
        from concurrent.futures import ThreadPoolExecutor

        from beggar_search.strategies import warm_up

        warm_up(name, params)  # compiled before the run's clock, as a real pool does
        self.workers = 1
        self.executor = ThreadPoolExecutor(max_workers=1)
        self.started = []

    def submit(self, job):
        def slow():
            self.started.append(job.chunk)
            time.sleep(self.SLOW)
            summary = execute(job)
            summary.seconds += self.SLOW  # the time the chunk took
            return summary

        return self.executor.submit(slow)

    def wait(self, futures, timeout):
        return wait(futures, timeout=timeout, return_when=FIRST_COMPLETED)

    def close(self):
        self.executor.shutdown(wait=True, cancel_futures=True)


def test_hours_starts_no_chunk_that_cannot_finish_by_the_deadline(tmp_path):
    """``--hours`` with long chunks (a climb's take tens of seconds): before any chunk had
    finished, two a worker were handed out, and the second, started with too little time
    left, ran on past the deadline (``climb --hours 0.01``: 54.8 s for 36) (issue 26).
    Until a chunk's time is known, one a worker; then none that cannot finish in time."""
    from beggar_search.store import Store

    params = {"deck": "plain=5,J=2,Q=1,K=1", "players": 2, "seed": 5, "top_k": 10,
              "max_tricks": None, "chunk_size": 100, "hours": 1.6 / 3600, "deals": None}
    with Store(tmp_path / "h.sqlite") as store:
        summary = driver.start(store, "random", params, 1, quiet=True, pool_factory=SlowPool)
    assert summary["status"] == "done"
    assert summary["deals"] == 100  # one chunk: a second could not have finished in time
    assert summary["seconds"] < 1.6


class PoolInterruptedAsItCloses(SlowPool):
    """A pool whose workers are still closing when a Ctrl-C comes: the second Ctrl-C of
    `--cluster local:2` when the chunks in flight had just finished (.ci/run)."""

    SLOW = 0.0

    def close(self):
        super().close()
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.2)  # the signal is handled here, in the main thread


def test_a_stop_signal_while_the_pool_closes_is_heard_and_the_run_is_not_left_running(
        tmp_path):
    """It was a KeyboardInterrupt out of ``pool.close()``: the run's end never written (it
    read `running`) and the command said only 'interrupted'."""
    from beggar_search.store import Store

    params = {"deck": "plain=5,J=2,Q=1,K=1", "players": 2, "seed": 5, "top_k": 10,
              "max_tricks": None, "chunk_size": 100, "hours": None, "deals": 300}
    with Store(tmp_path / "c.sqlite") as store:
        summary = driver.start(store, "random", params, 1, quiet=True,
                               pool_factory=PoolInterruptedAsItCloses)
        assert store.run(summary["run"]).status == summary["status"] == "done"
    assert summary["deals"] == 300 and summary["stop_signal"] == "SIGINT"
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # restored after
