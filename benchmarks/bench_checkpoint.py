"""What the checkpoint after stored chunks costs (issue 29, D1): one fast small-chunk random
run, timed with checkpoints never, every chunk, and every ``CHECKPOINT_EVERY`` seconds, the
three interleaved in one process (so the machine's load hits them alike).

    .venv/bin/python benchmarks/bench_checkpoint.py [rounds] [deals] [chunk]
"""

import math
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from beggar_search import driver
from beggar_search.store import Store, file_safety

SETTINGS = {"never": math.inf, "every chunk": 0.0, "every second": 1.0}


def one_run(folder: Path, every: float, deals: int, chunk: int) -> tuple[float, int]:
    file_safety.CHECKPOINT_EVERY = every  # what ResultsFile.checkpoint reads
    path = folder / f"r{time.monotonic_ns()}.sqlite"
    params = {"deck": "plain=5,J=2,Q=1,K=1", "players": 2, "max_tricks": None, "top_k": 20,
              "chunk_size": chunk, "hours": None, "deals": deals, "seed": 1}
    with Store(path) as results:
        started = time.perf_counter()
        driver.start(results, "random", params, 1, quiet=True)
        seconds = time.perf_counter() - started
        chunks = results.run().chunks
    return seconds, chunks


def main() -> None:
    """Print each setting's median time and its ratio to no checkpoints."""
    rounds, deals, chunk = (int(a) for a in (sys.argv[1:] + ["5", "200000", "500"])[:3])
    with tempfile.TemporaryDirectory() as folder:
        one_run(Path(folder), math.inf, chunk, chunk)  # compile, warm the cache
        times = {name: [] for name in SETTINGS}
        names = list(SETTINGS)
        for turn in range(rounds):  # each setting first in turn
            for name in names[turn % 3:] + names[:turn % 3]:
                every = SETTINGS[name]
                seconds, chunks = one_run(Path(folder), every, deals, chunk)
                times[name].append(seconds)
    base = statistics.median(times["never"])
    print(f"{chunks} chunks of {chunk} deals, {rounds} rounds; load {os.getloadavg()[0]:.1f}")
    for name, values in times.items():
        median = statistics.median(values)
        each = " ".join(f"{value:.2f}" for value in values)
        print(f"{name:13s} {each}; median {median:.2f} s"
              f" ({median / chunks * 1000:.2f} ms/chunk)  x{median / base:.3f}")


if __name__ == "__main__":
    main()
