"""How long a command takes to start: the median wall and CPU seconds of a fresh
``python -m beggar_search`` per command, and the heavy modules it loaded (Numba, Dask,
Matplotlib, Jinja2).  The start-up table of docs/first-run.md (issue 36).

    python benchmarks/bench_startup.py                 # the package this Python imports
    PYTHONPATH=/path/to/other/tree python benchmarks/bench_startup.py   # another tree

Each command runs ``--rounds`` times (5) on a small results file made first; a wall time
taken while other jobs run is an upper bound (the load is printed before and after).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HEAVY = ("numba", "dask", "matplotlib", "jinja2")
COMMANDS = [["--help"], ["show", "--help"], ["search", "random", "--deck", "camica"],
            ["show"], ["export", "--what", "longest", "--out", "longest.csv"], ["runs"],
            ["--version"], ["search", "random", "--help"]]
PROBE = ("import runpy, sys\n"
         "sys.argv = ['beggar-search', *sys.argv[1:]]\n"
         "try:\n    runpy.run_module('beggar_search', run_name='__main__')\n"
         "except SystemExit:\n    pass\n"
         f"print('LOADED', *[m for m in {HEAVY!r} if m in sys.modules], file=sys.__stderr__)\n")


def load() -> str:
    return Path("/proc/loadavg").read_text().split()[0]


def timed(args: list[str], folder: Path, rounds: int) -> tuple[float, float, str]:
    """Median wall and CPU seconds of ``beggar-search ARGS`` and the heavy modules it loads."""
    walls, cpus = [], []
    for _ in range(rounds):
        before, started = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
        subprocess.run([sys.executable, "-m", "beggar_search", *args], cwd=folder,
                       capture_output=True)
        walls.append(time.perf_counter() - started)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    probe = subprocess.run([sys.executable, "-c", PROBE, *args], cwd=folder,
                           capture_output=True, text=True)
    loaded = [line.split()[1:] for line in probe.stderr.splitlines() if line.startswith("LOADED")]
    return statistics.median(walls), statistics.median(cpus), " ".join(loaded[-1]) or "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    rounds = parser.parse_args().rounds
    with tempfile.TemporaryDirectory(prefix="bench-startup-") as work:
        folder = Path(work)
        os.environ["BEGGAR_SEARCH_DB"] = str(folder / "small.sqlite")
        subprocess.run([sys.executable, "-m", "beggar_search", "search", "random", "--deck",
                        "plain=5,J=2,Q=1,K=1", "--deals", "2000", "--workers", "1", "--quiet"],
                       cwd=folder, check=True, capture_output=True)
        print(f"load {load()}")
        print("| command | wall | CPU | heavy modules loaded |")
        print("|---|---|---|---|")
        for args in COMMANDS:
            wall, cpu, loaded = timed(args, folder, rounds)
            print(f"| `{' '.join(args)}` | {wall:.2f} s | {cpu:.2f} s | {loaded} |", flush=True)
        print(f"load {load()}")


if __name__ == "__main__":
    main()
