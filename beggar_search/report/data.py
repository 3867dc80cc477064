"""What a report shows, read from a results file: runs, boards, the cycle catalogue,
islands, replays and cycle states, as plain lists and dicts ready to be written as JSON.

Everything comes through the store's checked readers (``Store.runs``, ``iter_games``,
``iter_cycles``, ``links``, ``histogram``), so only what beggar-search writes reaches a
page; a run that cannot be read is skipped with a warning (or refused when named).
Columns another version may add are read with ``dict.get``.
"""

from __future__ import annotations

import datetime
import json
import re
from collections import defaultdict
from dataclasses import dataclass, field

from ..store import StoreError
from ..store.cycle_families import fair_reached, islands
from . import layout, replay

GAME_COLUMNS = ("run", "rank", "cards", "tricks", "outcome", "winner", "deal", "number", "cycle",
                "preperiod_tricks", "period_tricks", "replay", "found")
CYCLE_COLUMNS = ("run", "cycle", "period_tricks", "period_cards", "preperiod_tricks", "deals",
                 "fair_deals", "fair_deals_swapped", "reach_states", "reach_complete",
                 "reach_depth", "island", "generation", "parent", "move", "mirror", "own_mirror",
                 "found", "states")
DEALS_PER_CYCLE = 1000  # deals listed on a cycle's page (the loops board holds them all)
BUCKET_CYCLES = 500  # cycles per file of cycle details


@dataclass(frozen=True)
class ReportOptions:
    """How much a report computes: replays of each run's longest games, cycles whose states
    are played out, rows per data file."""

    replays: int = 25
    cycle_pages: int = 200
    chunk_rows: int = 2000


@dataclass
class RunData:
    """One run as the report shows it."""

    info: dict
    longest: list = field(default_factory=list)  # rows as GAME_COLUMNS
    loops: list = field(default_factory=list)
    cycles: list = field(default_factory=list)  # rows as CYCLE_COLUMNS
    details: dict = field(default_factory=dict)  # cycle -> what its page adds
    states: dict = field(default_factory=dict)  # cycle -> its states over one period
    traces: dict = field(default_factory=dict)  # replay key -> game_trace
    family: dict = field(default_factory=dict)  # layout.family


def when(timestamp: float) -> str:
    """A time as ISO 8601 UTC, to the second."""
    return datetime.datetime.fromtimestamp(timestamp, datetime.UTC).isoformat(timespec="seconds")


def bucket_of(cycle: str, buckets: int) -> int:
    """The details file of a cycle among ``buckets`` (site.js computes the same)."""
    return int(cycle[-6:], 16) % buckets


def chosen_runs(store, run_ids):
    """The runs to report: those named (each must be readable), else every readable one."""
    if run_ids:
        return [store.run(run_id) for run_id in dict.fromkeys(run_ids)]
    return list(store.runs())


OPTION_CHARS = 300  # of a run option on the pages: past it, cut (every page holds them all)
CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")


def shown_option(value) -> str:
    """A run option (a key or value from the file) as the pages show it: text, control
    characters written as ``\\xNN``, and cut to ``OPTION_CHARS`` saying how long it was."""
    text = value if isinstance(value, str) else json.dumps(value)
    text = CONTROL.sub(lambda match: f"\\x{ord(match.group()):02x}", text)
    if len(text) > OPTION_CHARS:
        text = f"{text[:OPTION_CHARS]}... ({len(text):,} characters)"
    return text


def run_info(store, run) -> dict:
    """A run's figures for the index page: parameters, status, counts, rate, histogram."""
    from ..strategies.units import unit_of

    params = run.params
    elapsed = run.elapsed
    info = {
        "run": run.id, "strategy": run.strategy, "status": run.status,
        "game": run.game.name, "deck": params["deck"], "players": run.players,
        "seed": None if params.get("seed") is None else str(params["seed"]),
        "deals": run.deals, "unit": unit_of(run.strategy),  # deals, tries, games
        "loops": run.loops, "caps": run.caps, "cards": run.cards,
        "wins": run.wins, "chunks": run.chunks, "cycles": store.count_cycles(run.id),
        "seconds": round(elapsed, 3), "worker_seconds": round(run.seconds, 3),
        "rate": round(run.deals / elapsed, 1) if elapsed > 0 else None,
        "created": when(run.created), "updated": when(run.updated), "version": run.version,
        "options": {shown_option(key): shown_option(value)
                    for key, value in sorted(params.items())},
        "play_options": replay.play_options(params), **run.game.fields(),  # its rules
        "histogram": store.histogram(run.id), "moves": store.move_stats(run.id),
    }
    return info


def game_rows(store, run, board: str) -> list[list]:
    """A board's games as rows of ``GAME_COLUMNS`` (the replay key filled in later)."""
    return [[run.id, rank, g["cards"], g["tricks"], g["outcome"], g["winner"], g["deal"],
             str(g["number"]), g["cycle"], g["preperiod_tricks"], g["period_tricks"], None,
             when(g["found"])]
            for rank, g in enumerate(store.iter_games(run.id, board), start=1)]


def read_run(store, run, options: ReportOptions) -> RunData:
    """Everything the report shows of one run."""
    data = RunData(run_info(store, run))
    params = run.params
    data.longest = game_rows(store, run, "longest")
    data.loops = game_rows(store, run, "loops")
    reaching = defaultdict(list)  # cycle -> deals of the loops board entering it
    first = {}  # cycle -> its first loop's pre-period
    for row in data.loops:
        reaching[row[8]].append(row[6])
        first.setdefault(row[8], row[9])
    cycles = list(store.iter_cycles(run.id))
    links = store.links(run.id)
    island = islands(cycles, links)
    children = defaultdict(list)
    for cycle in cycles:
        if cycle.get("parent"):
            children[cycle["parent"]].append(cycle["cycle"])
    linked = defaultdict(list)
    for source, target in links:
        linked[source].append(target)
    worth = sorted(cycles, key=lambda c: (-(c.get("deals") or 0) - (c.get("fair_deals") or 0)
                                          - (c.get("fair_deals_swapped") or 0),
                                          c["period_tricks"]))
    chosen = {c["cycle"] for c in worth[:options.cycle_pages]
              if c["period_tricks"] <= replay.REPLAY_TRICKS}
    for cycle in cycles:
        name = cycle["cycle"]
        entry = cycle.get("state") or cycle.get("example")
        if name in chosen and entry:
            data.states[name] = replay.cycle_states(params, entry)
        row = [
            run.id, name, cycle["period_tricks"], cycle["period_cards"], first.get(name),
            cycle.get("deals"), cycle.get("fair_deals"), cycle.get("fair_deals_swapped"),
            cycle.get("reach_states"), cycle.get("reach_complete"), cycle.get("reach_depth"),
            island[name], cycle.get("generation"), cycle.get("parent"), cycle.get("move"),
            cycle.get("mirror"), cycle.get("own_mirror"), when(cycle["found"]),
            name in data.states]
        data.cycles.append(row)
        deals = reaching.get(name, [])
        data.details[name] = {
            "example": cycle.get("example") or None, "state": cycle.get("state"),
            "children": children.get(name, []), "links": linked.get(name, []),
            "deals": deals[:DEALS_PER_CYCLE], "deals_listed": len(deals),
            "fair": fair_reached(cycle), "row": row}
    data.family = layout.family(cycles, island, links)
    add_replays(data, params, options)
    return data


def add_replays(data: RunData, params: dict, options: ReportOptions) -> None:
    """Trace the run's longest games and the first deal into each cycle with a page."""
    wanted = list(data.longest[:options.replays])
    seen = {}
    cycles_with_pages = set(data.states)
    for row in data.loops:
        if row[8] in cycles_with_pages and row[8] not in seen:
            seen[row[8]] = row
    wanted += list(seen.values())
    traced = {}
    for row in wanted:
        deal = row[6]
        if deal not in traced:
            trace = replay.game_trace(params, deal)
            key = f"{data.info['run']}-{len(data.traces) + 1}" if trace else None
            if trace:
                trace["run"] = data.info["run"]
                data.traces[key] = trace
            traced[deal] = key
        row[11] = traced[deal]
    for name, row in seen.items():
        data.details[name]["replay"] = row[11]


def read_report(store, run_ids, options: ReportOptions, warn) -> list[RunData]:
    """Every chosen run's ``RunData``; a run whose rows cannot be read is skipped (``warn``)
    unless it was named in ``run_ids``."""
    runs = []
    for run in chosen_runs(store, run_ids):
        try:
            runs.append(read_run(store, run, options))
        except StoreError as error:
            if run_ids:
                raise
            warn(f"{error}; run {run.id} left out of the report")
    return runs
