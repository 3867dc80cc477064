"""A worker's compile during a chunk is not search time (issue 38, C7: after a cold-cache
race a worker compiled again, and the summary counted it: 5,745 games/s over 7.3 s)."""

import time
from types import SimpleNamespace

import numba

from beggar_search import driver, strategies
from beggar_search.strategies import ChunkJob


class CompilingStrategy:
    """A strategy whose chunk compiles a kernel (never cached), then plays 0.2 s."""

    def __init__(self, params):
        self.params = params

    def run_chunk(self, job):
        started = time.perf_counter()

        @numba.njit
        def fresh(x):
            return x * 3 + 1

        assert fresh(job.chunk) == 3 * job.chunk + 1
        compiled = time.perf_counter()
        time.sleep(0.2)
        return SimpleNamespace(seconds=time.perf_counter() - started,
                               compiled_for=compiled - started)


def test_a_chunks_compile_is_counted_apart_from_its_seconds(monkeypatch):
    monkeypatch.setitem(strategies.STRATEGIES, "compiling", CompilingStrategy)
    summary = strategies.execute(ChunkJob("compiling", 1, 1, {}))
    assert summary.compile_seconds > 0.5 * summary.compiled_for > 0
    assert 0.2 <= summary.seconds < 0.2 + 0.5 * summary.compiled_for


def test_a_workers_compile_moves_the_runs_clock_and_deadline(monkeypatch):
    session = driver.Session(store=None, run=None, workers=2)
    sitting = driver.Sitting(deadline=100.0)
    session._not_search_time(sitting, 10.0)  # one of two workers compiled for 10 s
    assert session.compiled_in_search == 5.0 and sitting.deadline == 105.0
