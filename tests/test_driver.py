"""The local pool's start: every worker started and warmed before a run's clock starts."""

import multiprocessing
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool
from types import SimpleNamespace

import pytest

from beggar_search import driver
from beggar_search.errors import UserError


def a_pool(workers: int) -> driver.LocalPool:
    """A LocalPool's waiting alone, on no processes."""
    pool = object.__new__(driver.LocalPool)
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
