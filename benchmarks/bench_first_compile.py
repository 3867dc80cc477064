"""What each command compiles from an empty kernel cache: the functions Numba compiled
(its ``numba:compile`` events: a count the load does not change), the kernels the command
called (outermost compiles), its CPU and wall seconds, and the load.  The table of
docs/first-run.md.

    python benchmarks/bench_first_compile.py            # every command below, in turn
    python benchmarks/bench_first_compile.py random play

Each command runs in a fresh process with its own empty ``NUMBA_CACHE_DIR``; the results
file comes from the random search (run it first).  On a 2-core machine run it alone: a
wall time taken while others run is not valid (the load is printed beside it).
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

from beggar_search.games.loops import CASELLA

COMMANDS = {
    "random": ["search", "random", "--deals", "2000000", "--quiet"],
    "enumerate": ["search", "enumerate", "--count", "2000000", "--quiet"],
    "play": ["play", CASELLA],
    "deal": ["deal", "--index", "12345"],
    "show": ["show"],
    "export": ["export", "--what", "longest", "--out", "longest.csv"],
    "runs": ["runs"],
    "report": ["report", "--out", "site"],
}

COUNTING = textwrap.dedent("""
    import sys
    from numba.core import event

    depth, counts = [0], [0, 0]

    class Count(event.Listener):
        def on_start(self, ev):
            counts[0] += 1
            counts[1] += depth[0] == 0
            depth[0] += 1

        def on_end(self, ev):
            depth[0] -= 1

    event.register("numba:compile", Count())
    if __name__ == "__main__":
        from beggar_search.cli import main
        try:
            main(sys.argv[1:])
        except SystemExit as end:
            from beggar_search.compiling import WATCH  # a worker's compiles beside this one
            print(f"COMPILES {counts[0] + WATCH.beside} {counts[1]}", file=sys.stderr)
            raise
""")


def load() -> str:
    return Path("/proc/loadavg").read_text().split()[0]


def measure(name: str, folder: Path, script: Path) -> str:
    with tempfile.TemporaryDirectory(prefix="bench-first-compile-") as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache,
               "BEGGAR_SEARCH_DB": str(folder / "results.sqlite")}
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        load_before, started = load(), time.monotonic()
        done = subprocess.run([sys.executable, str(script), *COMMANDS[name]], cwd=folder,
                              env=env, capture_output=True, text=True)
        wall = time.monotonic() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    line = next((line for line in done.stderr.splitlines() if line.startswith("COMPILES ")),
                "COMPILES ? ?")
    functions, kernels = line.split()[1:]
    return (f"| `{' '.join(COMMANDS[name][:2])}` | {functions} | {kernels} | {cpu:.1f} s |"
            f" {wall:.1f} s | {load_before}-{load()} | rc {done.returncode} |")


def main(names: list[str]) -> None:
    with tempfile.TemporaryDirectory(prefix="bench-first-compile-run-") as work:
        folder = Path(work)
        script = folder / "counting.py"
        script.write_text(COUNTING)
        print("| command | functions compiled | kernels called | CPU | wall | load | |")
        print("|---|---|---|---|---|---|---|")
        for name in names or list(COMMANDS):
            print(measure(name, folder, script), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
