"""The suite's precompile (``conftest.pytest_collection_finish``): each worker compiles its
share of ``beggar-search compile --all`` before the tests, and the shares hold every
workload once, whatever the worker count."""

from conftest import PLAN_FOR_TWO, shares

from beggar_search.cli.compile import ALL_WORKLOADS


def test_the_plan_for_two_workers_holds_every_workload_once():
    """A workload added to ``compile --all`` must go into the measured plan too (else two
    workers fall back to the costliest-first split, measured 12% slower)."""
    planned = [workload for share in PLAN_FOR_TWO for workload in share]
    assert sorted(planned) == sorted(ALL_WORKLOADS)
    assert shares(list(ALL_WORKLOADS), 2) == [list(share) for share in PLAN_FOR_TWO]


def test_any_other_count_shares_every_workload_once_in_order():
    for count in (1, 3, 4):
        chosen = shares(list(ALL_WORKLOADS), count)
        assert len(chosen) == count
        assert sorted(w for share in chosen for w in share) == sorted(ALL_WORKLOADS)
        for share in chosen:  # each in compile --all's order
            assert share == sorted(share, key=ALL_WORKLOADS.index)
