"""``compile --all``'s two shares (``cli.compile.ALL_PLAN``), which the suite's precompile
uses too (``conftest.pytest_collection_finish``: each worker compiles its share before the
tests): every workload once, whatever the worker count."""

from conftest import shares

from beggar_search.cli.compile import ALL_PLAN, ALL_WORKLOADS


def test_the_plan_for_two_processes_holds_every_workload_once():
    """A workload added to ``compile --all`` must go into the measured plan too (else the
    suite's two workers fall back to the costliest-first split, measured 12% slower, and
    ``compile --all`` on two cores leaves it out)."""
    planned = [workload for share in ALL_PLAN for workload in share]
    assert sorted(planned) == sorted(ALL_WORKLOADS)
    assert shares(list(ALL_WORKLOADS), 2) == [list(share) for share in ALL_PLAN]


def test_any_other_count_shares_every_workload_once_in_order():
    for count in (1, 3, 4):
        chosen = shares(list(ALL_WORKLOADS), count)
        assert len(chosen) == count
        assert sorted(w for share in chosen for w in share) == sorted(ALL_WORKLOADS)
        for share in chosen:  # each in compile --all's order
            assert share == sorted(share, key=ALL_WORKLOADS.index)
