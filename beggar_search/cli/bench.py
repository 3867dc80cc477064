"""``beggar-search bench``: the fast path and the general engine side by side, in one run.

One worker's figures are per second of its CPU time (the CPU clock), the median of
``--rounds`` interleaved rounds with their spread; with ``--workers W`` the fast path also
runs on W processes, and their wall-clock rate is compared with one worker's wall-clock
rate.  A load average above the cores is warned of on stderr, as hyperfine does.
"""

from __future__ import annotations

import os
import statistics

import click

from ..cards.deck import DeckError
from .common import (
    BENCH_DEALS,
    UserError,
    deck_option,
    emit,
    json_option,
    parse_deck,
    say,
)
from .device import device_option, device_params
from .game import game_options


def median_round(timings: list):
    """The round of ``timings`` with the median deals/s (the lower middle of an even count),
    and the spread of their deals/s: the sample standard deviation over the mean (0 for one
    round), as hyperfine gives mean +- sigma."""
    ordered = sorted(timings, key=lambda timing: timing.deals_per_second)
    rates = [timing.deals_per_second for timing in ordered]
    spread = statistics.stdev(rates) / statistics.fmean(rates) if len(rates) > 1 else 0.0
    return ordered[(len(ordered) - 1) // 2], spread


def load_and_cores() -> dict:
    """The 1-minute load average (None where the system has none) and the cores."""
    try:
        load = round(os.getloadavg()[0], 2)
    except OSError:
        load = None
    return {"load": load, "cores": os.cpu_count() or 1}


def warn_if_loaded(data: dict) -> None:
    """On stderr, when the load was above the cores: the rates are low and spread."""
    if data["load"] is not None and data["load"] > data["cores"]:
        say(f"beggar-search: warning: the load average ({data['load']:.1f}) is above the"
            f" {data['cores']} cores: other processes took CPU time, so these rates are low"
            " and spread (measure at a quiet moment; docs/bench.md)", err=True)


def measure(deck: str, players: int, source: str, n_deals: int, general_deals: int,
            workers: int, device: str = "cpu", rounds: int = 1) -> dict:
    """All figures of ``beggar-search bench`` as one dict (``device`` gpu: the GPU engine
    too, on the same deals as the fast path, per second of the wall clock).  The fast path
    and the general engine play ``rounds`` interleaved rounds: each row is the median
    round's, with the spread of the rounds (``fast_spread``, ``general_spread``)."""
    from ..bench.speed import Workload, time_one, time_parallel
    from ..engine.kernels import kernel_name

    workload = Workload(deck, players, source)
    fasts, generals = [], []
    for _ in range(rounds):
        fasts.append(time_one(workload, "fast", n_deals))
        generals.append(time_one(workload, "general", general_deals))
    fast, fast_spread = median_round(fasts)
    general, general_spread = median_round(generals)
    data = {
        "deck": parse_deck(deck).spec, "players": players, "source": source,
        "fast_kernel": kernel_name(players),
        "fast": fast.as_dict(), "general": general.as_dict(),
        "deals_ratio": fast.deals_per_second / general.deals_per_second,
        "cards_ratio": fast.cards_per_second / general.cards_per_second,
        "workers": workers, "rounds": rounds,
        "fast_spread": round(fast_spread, 4), "general_spread": round(general_spread, 4),
        **load_and_cores(),
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
    def spread(key):
        return f"+-{100 * data[key]:.1f}%" if data.get("rounds", 1) > 1 else ""

    rows = [(f"fast path ({data['fast_kernel']})", data["fast"], spread("fast_spread")),
            ("general engine", data["general"], spread("general_spread"))]
    if "fast_parallel" in data:
        rows.append((f"fast path, {data['workers']} workers", data["fast_parallel"],
                     f"{data['parallel_speedup']:.2f}x one worker"))
    if "gpu" in data:
        cpu = f"{data['workers']} workers" if data["workers"] > 1 else "one worker"
        rows.append(("gpu engine (wall clock)", data["gpu"], f"{data['gpu_ratio']:.2f}x {cpu}"))
    rounds = data.get("rounds", 1)
    of_rounds = (f", the median of {rounds} rounds (+- their standard deviation)"
                 if rounds > 1 else "")
    lines = [f"{data['deck']}, {data['players']} players, {data['source']} deals, 1 worker:"
             f" rates per CPU second of the worker (CPU clock){of_rounds}; with workers, per"
             " second of the wall clock"]
    lines += [f"{name:<28}{row['deals_per_second']:>14,.0f} deals/s"
              f"{row['cards_per_second']:>17,.0f} cards/s  {note}".rstrip()
              for name, row, note in rows]
    lines.append(f"{'fast / general':<28}{data['deals_ratio']:>13.2f}x deals/s"
                 f"{data['cards_ratio']:>16.2f}x cards/s")
    return "\n".join(lines)


def measure_game(deck, players: int, n_deals: int, general_deals: int, played,
                 against: str) -> dict:
    """``bench --game NAME`` for a game with its own kernel (``played``: its ``games.Game``):
    that kernel and the general engine on the Beggar-my-neighbour deck ``against``, in one
    run; the kernel's timing under the game's name."""
    from ..bench.speed import Workload, time_game, time_one

    own = time_game(deck, players, played, n_deals)
    general = time_one(Workload(against, players, "random"), "general", general_deals)
    return {**played.fields(), "deck": deck.spec, "players": players, "source": "random",
            played.name: own.as_dict(), "general": general.as_dict(),
            "deals_ratio": own.deals_per_second / general.deals_per_second,
            "cards_ratio": own.cards_per_second / general.cards_per_second,
            **load_and_cores()}


def describe_game(data: dict, played) -> str:
    """The benchmark ``data`` of a game with its own kernel (``played``, e.g. Egyptian
    ratscrew) as lines for people: deals and cards per second of its kernel and of the
    general engine, and their ratio."""
    rules = f" ({data['slap_policy']})" if "slap_policy" in data else ""
    lines = [f"{played.describe()}; deck {data['deck']}, {data['players']} players, random"
             " deals, 1 worker (rates per second of its CPU time)"]
    for name, row in ((f"{played.name} kernel{rules}", data[played.name]),
                      ("bmn general engine", data["general"])):
        lines.append(f"{name:<28}{row['deals_per_second']:>14,.0f} deals/s"
                     f"{row['cards_per_second']:>17,.0f} cards/s")
    lines.append(f"{played.name + ' / general':<28}{data['deals_ratio']:>13.2f}x deals/s"
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
@click.option("--rounds", type=click.IntRange(1, 100), default=3, show_default=True,
              metavar="R", help="Interleaved rounds of the fast path and the general engine:"
                                " the median round is shown, with the rounds' spread.")
@game_options
@device_option
@json_option
def bench(deck_spec, players, source, deals, general_deals, workers, rounds, game, device,
          as_json):
    """Deals/s and cards/s of the fast path and of the general engine, side by side.

    With --game ers: the Egyptian ratscrew kernel against the Beggar-my-neighbour general
    engine on the same cards (ranks 2 to T plain), random deals, one worker.  With
    --device gpu: the GPU engine too, on the fast path's deals.  Against the reference C
    engine, in the same run: benchmarks/bench_yardstick.py (docs/bench.md).
    """
    from ..vocabulary import bench_record

    device_params(device, players, not game.kind.gpu)
    deck = game.deck(deck_spec)
    played = game.value(players)
    against = played.bench_against(deck)
    if against is not None:  # the game's own kernel against the general engine
        if source != "random" or workers != 1:
            raise UserError(f"bench --game {played.name} times random deals on one worker:"
                            " drop --source and --workers")
        try:
            deck.split(players)
        except DeckError as error:
            raise UserError(str(error)) from None
        data = measure_game(deck, players, deals, general_deals or max(deals // 10, 1), played,
                            against)
        warn_if_loaded(data)
        emit(bench_record(data), as_json, describe_game(data, played))
        return
    try:
        deck.split(players)
    except DeckError as error:
        raise UserError(str(error)) from None
    if workers > (os.cpu_count() or 1) * 4:
        raise UserError(f"--workers {workers} is more than this command will start")
    data = measure(deck.spec, players, source, deals, general_deals or max(deals // 10, 1),
                   workers, device, rounds)
    warn_if_loaded(data)
    emit(bench_record(data), as_json, describe(data))
