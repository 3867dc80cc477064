"""The ``Pool`` protocol (``pools.protocol``): every pool the driver plays on keeps it."""

import inspect

import pytest

from beggar_search import driver
from beggar_search.pools import dask, protocol
from beggar_search.pools.local import InlinePool, LocalPool


@pytest.mark.parametrize("pool", [InlinePool, LocalPool, dask.DaskPool])
def test_every_pool_keeps_the_protocol(pool):
    for method in ("submit", "wait", "close"):
        ours = inspect.signature(getattr(protocol.Pool, method)).parameters
        theirs = inspect.signature(getattr(pool, method)).parameters
        assert list(theirs) == list(ours), (pool.__name__, method)
    # ``workers``: set when made (a cluster's read at each submit)
    assert "workers" in protocol.Pool.__annotations__
    assert ("self.workers = " in inspect.getsource(pool.__init__)
            or isinstance(pool.workers, property))


def test_every_pool_is_made_the_same_way():
    """A ``PoolFactory``: ``(workers, strategy name, params)``."""
    made = list(inspect.signature(protocol.PoolFactory.__call__).parameters)
    assert made == ["self", "workers", "name", "params"]
    for pool in (InlinePool, LocalPool):
        assert list(inspect.signature(pool.__init__).parameters) == made


def test_the_driver_plays_on_the_protocol(tmp_path):
    """A pool that is only the protocol (no class of ours) plays a whole run."""
    from concurrent.futures import Future

    from beggar_search.store import Store
    from beggar_search.strategies import execute

    class Bare:
        def __init__(self, workers, name, params):
            self.workers = workers

        def submit(self, job):
            future = Future()
            future.set_result(execute(job))
            return future

        def wait(self, futures, timeout):
            done = {future for future in futures if future.done()}
            return done, set(futures) - done

        def close(self):
            pass

    params = {"deck": "plain=5,J=2,Q=1,K=1", "players": 2, "seed": None, "top_k": 5,
              "max_tricks": None, "chunk_size": 500, "hours": None, "deals": 1512,
              "start": 0}
    with Store(tmp_path / "b.sqlite") as store:
        summary = driver.start(store, "enumerate", params, 2, quiet=True, pool_factory=Bare)
    assert (summary["status"], summary["deals"], summary["loops"]) == ("done", 1512, 12)
