"""``beggar-search bench``: the fast path and the general engine side by side, in one run.

One worker's figures are per second of its CPU time; with ``--workers W`` the fast
path also runs on W processes, and their wall-clock rate is compared with one worker's
wall-clock rate.
"""

from __future__ import annotations

import os

import click

from ..cards.deck import DeckError
from ..vocabulary import bench_record
from .common import BENCH_DEALS, UserError, deck_option, emit, json_option, parse_deck
from .device import device_option, device_params
from .game import GameChoice, game_options


def measure(deck: str, players: int, source: str, n_deals: int, general_deals: int,
            workers: int, device: str = "cpu") -> dict:
    """All figures of ``beggar-search bench`` as one dict (``device`` gpu: the GPU engine
    too, on the same deals as the fast path, per second of the wall clock)."""
    from ..bench.speed import Workload, time_one, time_parallel
    from ..engine.kernels import kernel_name

    workload = Workload(deck, players, source)
    fast = time_one(workload, "fast", n_deals)
    general = time_one(workload, "general", general_deals)
    data = {
        "deck": parse_deck(deck).spec, "players": players, "source": source,
        "fast_kernel": kernel_name(players),
        "fast": fast.as_dict(), "general": general.as_dict(),
        "deals_ratio": fast.deals_per_second / general.deals_per_second,
        "cards_ratio": fast.cards_per_second / general.cards_per_second,
        "workers": workers,
    }
    if workers > 1:
        parallel = time_parallel(workload, "fast", n_deals, workers)
        data["fast_parallel"] = parallel.as_dict()
        data["parallel_speedup"] = parallel.cards_per_second * fast.wall / fast.cards
    if device == "gpu":
        on_gpu = time_one(workload, "gpu", n_deals)
        data["gpu"] = on_gpu.as_dict()
        cpu = parallel if workers > 1 else fast
        data["gpu_ratio"] = on_gpu.deals_per_second / cpu.deals_per_second
    return data


def describe(data: dict) -> str:
    """The benchmark ``data`` as lines for people: deals and cards per second of the fast path and
    of the general engine, and their ratio."""
    rows = [(f"fast path ({data['fast_kernel']})", data["fast"], ""),
            ("general engine", data["general"], "")]
    if "fast_parallel" in data:
        rows.append((f"fast path, {data['workers']} workers", data["fast_parallel"],
                     f"{data['parallel_speedup']:.2f}x one worker"))
    if "gpu" in data:
        cpu = f"{data['workers']} workers" if data["workers"] > 1 else "one worker"
        rows.append(("gpu engine (wall clock)", data["gpu"], f"{data['gpu_ratio']:.2f}x {cpu}"))
    lines = [f"{data['deck']}, {data['players']} players, {data['source']} deals, 1 worker"
             " (rates per second of its CPU time; of wall time with workers)"]
    lines += [f"{name:<28}{row['deals_per_second']:>14,.0f} deals/s"
              f"{row['cards_per_second']:>17,.0f} cards/s  {note}".rstrip()
              for name, row, note in rows]
    lines.append(f"{'fast / general':<28}{data['deals_ratio']:>13.2f}x deals/s"
                 f"{data['cards_ratio']:>16.2f}x cards/s")
    return "\n".join(lines)


def measure_ers(deck_spec: str, players: int, n_deals: int, general_deals: int,
                game: GameChoice) -> dict:
    """``bench --game ers``: the ratscrew kernel and the general engine, in one run."""
    from ..bench.speed import Workload, time_ers, time_one

    deck = game.deck(deck_spec)
    try:
        deck.split(players)
    except DeckError as error:
        raise UserError(str(error)) from None
    slaps = game.slaps(players)
    ers = time_ers(deck, players, slaps, n_deals)
    general = time_one(Workload(deck.bmn_deck.spec, players, "random"), "general",
                       general_deals)
    return {"game": "ers", "deck": deck.spec, "players": players, "source": "random",
            **slaps.to_params(), "ers": ers.as_dict(), "general": general.as_dict(),
            "deals_ratio": ers.deals_per_second / general.deals_per_second,
            "cards_ratio": ers.cards_per_second / general.cards_per_second}


def describe_ers(data: dict) -> str:
    """The Egyptian ratscrew benchmark ``data`` as lines for people: deals and cards per second of
    the ERS kernel and of the general engine, and their ratio."""
    lines = [f"Egyptian ratscrew, deck {data['deck']}, {data['players']} players, slaps "
             f"{data['slap_rules']} by {data['slap_policy']}, random deals, 1 worker (rates"
             " per second of its CPU time)"]
    for name, row in ((f"ers kernel ({data['slap_policy']})", data["ers"]),
                      ("bmn general engine", data["general"])):
        lines.append(f"{name:<28}{row['deals_per_second']:>14,.0f} deals/s"
                     f"{row['cards_per_second']:>17,.0f} cards/s")
    lines.append(f"{'ers / general':<28}{data['deals_ratio']:>13.2f}x deals/s"
                 f"{data['cards_ratio']:>16.2f}x cards/s")
    return "\n".join(lines)


@click.command()
@deck_option
@click.option("--players", type=click.IntRange(2, 8), default=2, show_default=True,
              help="Number of players.")
@click.option("--source", type=click.Choice(["random", "enumerate"]), default="random",
              show_default=True, help="Random deals, or consecutive deal indices.")
@click.option("--deals", type=BENCH_DEALS, default=2_000_000, show_default=True,
              metavar="N", help="Deals for the fast path (per worker).")
@click.option("--general-deals", type=BENCH_DEALS, default=None, metavar="N",
              help="Deals for the general engine [default: N/10].")
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True,
              metavar="W", help="Also time the fast path on W worker processes.")
@game_options
@device_option
@json_option
def bench(deck_spec, players, source, deals, general_deals, workers, game, device, as_json):
    """Deals/s and cards/s of the fast path and of the general engine, side by side.

    With --game ers: the Egyptian ratscrew kernel against the Beggar-my-neighbour general
    engine on the same cards (ranks 2 to T plain), random deals, one worker.  With
    --device gpu: the GPU engine too, on the fast path's deals.  Against the reference C
    engine, in the same run: benchmarks/bench_yardstick.py (docs/bench.md).
    """
    device_params(device, players, game.ers)
    if game.ers:
        if source != "random" or workers != 1:
            raise UserError("bench --game ers times random deals on one worker: drop --source"
                            " and --workers")
        data = measure_ers(deck_spec, players, deals, general_deals or max(deals // 10, 1), game)
        emit(bench_record(data), as_json, describe_ers(data))
        return
    deck = parse_deck(deck_spec)
    try:
        deck.split(players)
    except DeckError as error:
        raise UserError(str(error)) from None
    if workers > (os.cpu_count() or 1) * 4:
        raise UserError(f"--workers {workers} is more than this command will start")
    data = measure(deck.spec, players, source, deals, general_deals or max(deals // 10, 1),
                   workers, device)
    emit(bench_record(data), as_json, describe(data))
