"""The one conftest of the suite. Tests mirror the package (engine/, backward/, cycles/,
store/, strategies/, cli/, cards/), the oracles and the helpers every folder imports live in
oracles/ (on pytest's path, see pyproject.toml), the hostile tests in hostile/.  A test runs
the command line through ``cli_harness`` (``run`` in this process, ``command`` for a real
one), not through a fixture.

Markers (pyproject.toml): the default run leaves out ``slow`` (today's big sizes; a small
twin runs by default), ``process`` (needs a real process: signals, kills, locks from another
process, the module entry point) and ``distributed``; ``pytest -m "slow or process or
distributed"`` runs the rest, and CI runs them all (``.ci/run``: the slow ones on two worker
processes, then the process and distributed ones on one).
"""

import os
import re
import resource

import pytest


@pytest.fixture(scope="session")
def report_results(tmp_path_factory):
    """The small results file the report tests show (``report_helpers.small_results``), made
    once for ``test_report`` and ``test_report_browser``; they copy it before altering it."""
    from report_helpers import small_results

    return small_results(tmp_path_factory.mktemp("report") / "small.sqlite")


@pytest.fixture(scope="session")
def report_site(report_results, tmp_path_factory):
    """The site of ``report_results`` (``report_helpers.write_report``): (its folder, what
    was written)."""
    from report_helpers import write_report

    out = tmp_path_factory.mktemp("site") / "site"
    return out, write_report(report_results, out)


def _cpu_seconds():
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


_cpu = {"start": None, "tests": [], "workers": []}


def pytest_sessionstart(session):
    _cpu["start"] = _cpu_seconds()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    before = sum(_cpu_seconds())
    yield
    _cpu["tests"].append((sum(_cpu_seconds()) - before, item.nodeid))


def pytest_sessionfinish(session):
    """In a pytest-xdist worker: its CPU seconds and its tests', for the controller."""
    output = getattr(session.config, "workeroutput", None)
    if output is not None and _cpu["start"] is not None:
        own, children = (now - then for now, then in zip(_cpu_seconds(), _cpu["start"],
                                                         strict=True))
        output["cpu"] = {"own": own, "children": children, "tests": _cpu["tests"]}


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    """pytest-xdist's controller: a worker's CPU seconds (``pytest_sessionfinish``)."""
    cpu = getattr(node, "workeroutput", {}).get("cpu")
    if cpu:
        _cpu["workers"].append(cpu)
        _cpu["tests"].extend(tuple(row) for row in cpu["tests"])


def pytest_terminal_summary(terminalreporter):
    """The run's CPU seconds (this process, its workers under ``-n``, and the processes they
    started, which the wall times of a shared machine inflate), and the heaviest tests."""
    if _cpu["start"] is None or not _cpu["tests"]:
        return
    own, children = (now - then for now, then in zip(_cpu_seconds(), _cpu["start"], strict=True))
    if _cpu["workers"]:  # the workers' seconds as they counted them, not as reaped children
        children = sum(worker["children"] for worker in _cpu["workers"])
        own += sum(worker["own"] for worker in _cpu["workers"])
    terminalreporter.write_sep("=", "CPU seconds")
    workers = f" ({len(_cpu['workers'])} workers)" if _cpu["workers"] else ""
    terminalreporter.write_line(f"{own + children:.1f} CPU s: {own:.1f} in pytest{workers},"
                                f" {children:.1f} in the processes it started")
    if _cpu["workers"]:  # on free cores the run takes about as long as its busiest worker
        terminalreporter.write_line("per worker: " + ", ".join(
            f"{worker['own'] + worker['children']:.1f}" for worker in _cpu["workers"]) + " CPU s")
    for seconds, nodeid in sorted(_cpu["tests"], reverse=True)[:15]:
        terminalreporter.write_line(f"{seconds:8.2f}s cpu {nodeid}")
    if os.environ.get("BEGGAR_TEST_CPU"):  # every test's CPU seconds, a TSV line each
        with open(os.environ["BEGGAR_TEST_CPU"], "w", encoding="utf-8") as table:
            table.writelines(f"{seconds:.3f}\t{nodeid}\n"
                             for seconds, nodeid in sorted(_cpu["tests"], reverse=True))


# A module that shares a costly fixture among its tests says so with one line,
# ``pytestmark = pytest.mark.xdist_group("NAME")``: under ``--dist loadgroup`` (pyproject's
# addopts) its tests then go to one worker, and the fixture is made once.  pytest-xdist 3.8
# marks a group by rewriting ``item._nodeid``, which pytest 9 no longer reads (a node's id is
# ``item._id``): the groups were lost, and test_json_schema's module fixture was made on both
# workers (84 s each), test_compiles_what_it_plays' cold compile twice.  So the controller
# reads the line itself: the group of a test is its module's.
GROUP_LINE = re.compile(r'^pytestmark = pytest\.mark\.xdist_group\("([\w.-]+)"\)', re.MULTILINE)


@pytest.hookimpl(optionalhook=True, tryfirst=True)
def pytest_xdist_make_scheduler(config, log):
    """``--dist loadgroup``, grouping by the module's ``xdist_group`` line (``GROUP_LINE``)."""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadGroupScheduling

    groups: dict[str, str | None] = {}

    def group_of(path: str) -> str | None:
        if path not in groups:
            try:
                found = GROUP_LINE.search((config.rootpath / path).read_text(encoding="utf-8"))
            except OSError:
                found = None
            groups[path] = found.group(1) if found else None
        return groups[path]

    class ModuleGroups(LoadGroupScheduling):
        def _split_scope(self, nodeid: str) -> str:
            if "@" in nodeid:  # an xdist that still marks the group in the node id
                return super()._split_scope(nodeid)
            return group_of(nodeid.split("::", 1)[0]) or nodeid

    return ModuleGroups(config, log)


# the modules whose tests take seconds each (a factory run on 1 and 2 workers and resumed, the
# simulated GPU, a cold compile, a docs example): collected first, so that pytest-xdist hands
# them out first (its groups go first anyway, the biggest first) and the two workers end
# together instead of one finishing a long test alone (BEGGAR_TEST_CPU lists every test's
# CPU seconds)
HEAVY_FIRST = ("tests/strategies/test_factory.py", "tests/gpu/test_gpu.py",
               "tests/test_kernel_cache.py", "tests/test_docs.py",
               "tests/strategies/test_ers_factory.py", "tests/strategies/test_climb.py",
               "tests/benchmarks/test_bench_loops_and_gpu_host.py",
               "tests/strategies/test_hunt.py", "tests/hostile/test_hostile_limits_and_streams.py")


# Every workload of ``beggar-search compile --all`` compiled first, when a run is the suite (at
# least ``PRECOMPILE_FROM`` tests): on a cold kernel cache the tests compiled on first use, one
# worker's module fixture alone 169 CPU s (test_json_schema's commands) while the other
# compiled some of the same kernels, and the two workers together spent 300 CPU s compiling
# what ``compile --all`` compiles in 228.  Here each worker compiles its share, the workers in
# parallel; on a warm cache each loads its share (about 1.5 s).  ``BEGGAR_TEST_PRECOMPILE=0``
# leaves it to the tests.
PRECOMPILE_FROM = 300
# seconds of each workload on a cold cache, one after the other (compile --all, quiet, one
# core): to share them out evenly
WORKLOAD_SECONDS = {"search random": 37, "search random --players 3": 16,
                    "search random --players 5": 6, "search random --game ers": 15,
                    "search climb": 34, "search climb --game ers --slap-policy turn": 8,
                    "search factory --ignore-known": 70}


def shares(workloads, count: int) -> list[list]:
    """``workloads`` shared out among ``count`` workers: for two, ``compile --all``'s own two
    shares (``cli.compile.ALL_PLAN``: the pair 143.2 s in a fresh cache, against 162.6 s
    for the split below) when they hold them all; else the costliest first to the least
    loaded (``WORKLOAD_SECONDS``, 40 s for a workload not in it: factory's other game),
    each share in ``workloads``' order (a share's later workloads reuse its earlier
    kernels)."""
    from beggar_search.cli.compile import ALL_PLAN

    planned = [list(share) for share in ALL_PLAN]
    if count == 2 and sorted(w for share in planned for w in share) == sorted(workloads):
        return planned
    loads, chosen = [0.0] * count, [[] for _ in range(count)]
    cost = {workload: WORKLOAD_SECONDS.get(" ".join(workload), 40 if "factory" in workload
                                           else 3) for workload in workloads}
    for workload in sorted(workloads, key=lambda w: -cost[w]):
        least = loads.index(min(loads))
        loads[least] += cost[workload]
        chosen[least].append(workload)
    return [sorted(share, key=workloads.index) for share in chosen]


def pytest_collection_finish(session):
    """Compile this worker's share of ``compile --all`` (see ``PRECOMPILE_FROM``)."""
    if (len(session.items) < PRECOMPILE_FROM or session.config.option.collectonly
            or os.environ.get("BEGGAR_TEST_PRECOMPILE") == "0"):
        return
    from cli_harness import run

    from beggar_search.cli.compile import ALL_WORKLOADS

    worker = getattr(session.config, "workerinput", None)
    index, count = ((int(worker["workerid"].removeprefix("gw")), worker["workercount"])
                    if worker else (0, 1))
    for workload in shares(list(ALL_WORKLOADS), count)[index]:
        ran = run("compile", *workload)
        assert ran.returncode == 0, ran.output


def pytest_collection_modifyitems(config, items):
    """Collect the ``HEAVY_FIRST`` modules' tests first (a stable sort: else as collected)."""
    rank = {path: number for number, path in enumerate(HEAVY_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::", 1)[0], len(rank)))
