"""The climber's deals per CPU second against random search's, in one process, interleaved.

Plays ``ROUNDS`` climber chunks (the run's defaults, or ``KEY=VALUE`` settings) and, before
each, as many random-search chunks of the same deck as make one climber chunk's random
deals, and counts process CPU seconds for each (compilation excluded: both warm up first).
The ratio is what issue 25 asks for ("the climber's random deals run at the sweep's speed,
extension included"); the load average is printed beside it.

    python benchmarks/bench_climb_rate.py camicia 3
    python benchmarks/bench_climb_rate.py standard 2 chunk_size=8388608 extend=4
"""

import os
import sys
import time

from beggar_search.strategies import ChunkJob, strategy_for
from beggar_search.strategies.climb import ClimbStrategy
from beggar_search.strategies.sweep import RandomStrategy


def main() -> None:
    deck, rounds = sys.argv[1], int(sys.argv[2])
    extra = {k: int(v) for k, v in (a.split("=") for a in sys.argv[3:])}
    base = {"deck": deck, "players": 2, "seed": 7, "top_k": 100, "max_tricks": None,
            "hours": None, "deals": None}
    climb_params = ClimbStrategy.prepare({**base, **extra})
    random_params = RandomStrategy.prepare(dict(base))
    climb, sweep = strategy_for("climb", climb_params), strategy_for("random", random_params)
    climb.warm_up()
    sweep.warm_up()
    climb.run_chunk(ChunkJob("climb", 99, 100_000, climb_params))  # the closure's kernels
    totals = {"random": [0, 0.0], "climb": [0, 0.0]}
    per = climb_params["chunk_size"] // random_params["chunk_size"]
    for k in range(rounds):
        started = time.process_time()
        for j in range(per):
            job = ChunkJob("random", k * per + j, random_params["chunk_size"], random_params)
            totals["random"][0] += sweep.run_chunk(job).deals
        totals["random"][1] += time.process_time() - started
        started = time.process_time()
        job = ChunkJob("climb", k, climb_params["chunk_size"], climb_params)
        totals["climb"][0] += climb.run_chunk(job).deals
        totals["climb"][1] += time.process_time() - started
    rates = {name: deals / seconds for name, (deals, seconds) in totals.items()}
    print(f"{deck} {extra or 'defaults'}: chunk {climb_params['chunk_size']}, extend "
          f"{climb_params['extend']}: random {rates['random'] / 1e6:.2f} M deals/CPU s, climb "
          f"{rates['climb'] / 1e6:.2f} M deals/CPU s, ratio {rates['climb'] / rates['random']:.2f}"
          f" (load {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main()
