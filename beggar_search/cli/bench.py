"""``beggar-search bench``: deals per second of the fast kernel and of the card-by-card baseline.

Both kernels are compiled (or loaded from the cache) before anything is timed.
The parallel phase runs W worker processes (``spawn``); each warms up, waits at
a barrier, plays its share and reports its start and end on the system-wide
monotonic clock; throughput is all deals over the span from the first start to
the last end.
"""

from __future__ import annotations

import multiprocessing
import os
import time

import click

from .common import UserError, emit, json_option

SEED = 20240601
WARM_DEALS = 2000


def _fast(seed: int, chunk: int, n_deals: int) -> int:
    """Play ``n_deals`` random deals with the fast kernel; returns the cards laid."""
    from ..engine import batch, fast2
    from ..engine.random import chunk_stream

    recorder = fast2.random_chunk(chunk_stream(seed, chunk), n_deals, 0,
                                  batch.new_recorder(10, fast2.N_CARDS))
    return int(recorder[0][batch.C_CARDS])


def _baseline(seed: int, chunk: int, n_deals: int) -> int:
    from ..engine import baseline
    from ..engine.random import chunk_stream

    return int(baseline.random_games(chunk_stream(seed, chunk), n_deals)[0])


KERNELS = {"fast": _fast, "baseline": _baseline}


def time_one(kernel: str, n_deals: int, seed: int = SEED) -> tuple[float, int]:
    """Seconds and cards for ``n_deals`` deals in this process (warm-up untimed)."""
    play = KERNELS[kernel]
    play(seed, 1 << 30, WARM_DEALS)
    start = time.perf_counter()
    cards = play(seed, 0, n_deals)
    return time.perf_counter() - start, cards


def _worker(kernel: str, seed: int, chunk: int, n_deals: int, barrier, results) -> None:
    play = KERNELS[kernel]
    play(seed, (1 << 30) + chunk, WARM_DEALS)
    barrier.wait()
    start = time.monotonic()
    cards = play(seed, chunk, n_deals)
    results.put((chunk, start, time.monotonic(), cards))


def time_parallel(kernel: str, n_deals: int, workers: int, seed: int = SEED) -> tuple[float, int]:
    """Seconds and cards for ``n_deals`` deals per worker on ``workers`` processes."""
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(workers)
    results = context.Queue()
    processes = [context.Process(target=_worker,
                                 args=(kernel, seed, chunk, n_deals, barrier, results))
                 for chunk in range(workers)]
    for process in processes:
        process.start()
    reports = [results.get() for _ in processes]
    for process in processes:
        process.join()
        if process.exitcode != 0:
            raise RuntimeError(f"bench worker failed with exit status {process.exitcode}")
    span = max(end for _, _, end, _ in reports) - min(start for _, start, _, _ in reports)
    return span, sum(cards for *_, cards in reports)


def measure(n_deals: int, workers: int, baseline_deals: int | None = None) -> dict:
    """All figures of ``beggar-search bench`` as one dict."""
    baseline_deals = baseline_deals or max(n_deals // 4, 1)
    base_seconds, base_cards = time_one("baseline", baseline_deals)
    one_seconds, one_cards = time_one("fast", n_deals)
    base_rate = baseline_deals / base_seconds
    one_rate = n_deals / one_seconds
    data = {
        "deals": n_deals,
        "workers": workers,
        "baseline_deals_per_second": base_rate,
        "baseline_cards_per_second": base_cards / base_seconds,
        "one_worker_deals_per_second": one_rate,
        "one_worker_cards_per_second": one_cards / one_seconds,
        "ratio_to_baseline": one_rate / base_rate,
    }
    if workers > 1:
        seconds, cards = time_parallel("fast", n_deals, workers)
        data["deals_per_second"] = n_deals * workers / seconds
        data["cards_per_second"] = cards / seconds
    else:
        data["deals_per_second"] = one_rate
        data["cards_per_second"] = data["one_worker_cards_per_second"]
    data["parallel_speedup"] = data["deals_per_second"] / one_rate
    return data


def describe(data: dict) -> str:
    rows = [
        ("baseline, 1 worker", data["baseline_deals_per_second"],
         data["baseline_cards_per_second"], ""),
        ("fast, 1 worker", data["one_worker_deals_per_second"],
         data["one_worker_cards_per_second"], f"{data['ratio_to_baseline']:.2f}x baseline"),
        (f"fast, {data['workers']} workers", data["deals_per_second"], data["cards_per_second"],
         f"{data['parallel_speedup']:.2f}x one worker"),
    ]
    return "\n".join(f"{name:<20}{deals:>14,.0f} deals/s{cards:>16,.0f} cards/s  {note}".rstrip()
                     for name, deals, cards, note in rows)


@click.command()
@click.option("--deals", type=click.IntRange(min=1), default=2_000_000, show_default=True,
              metavar="N", help="Deals per worker for the fast kernel (the baseline plays N/4).")
@click.option("--workers", type=click.IntRange(min=1), default=None, metavar="W",
              help="Worker processes for the parallel figure (default: all cores).")
@json_option
def bench(deals, workers, as_json):
    """Measure deals/s of the fast kernel and of the card-by-card baseline."""
    workers = workers or os.cpu_count() or 1
    if workers > 256:
        raise UserError(f"--workers {workers} is more than this command will start")
    data = measure(deals, workers)
    emit(data, as_json, describe(data))
