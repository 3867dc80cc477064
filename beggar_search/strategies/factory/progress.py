"""How far a factory run has come, in tries: its first cycle, its last new one, its phases.

A try is counted in the run's order of chunks (chunk numbers, not the order chunks finished
in), so these figures are a pure function of the run's seed and parameters, whatever the
workers or the load: a busy machine loses time, never tries.  A cycle was met after the
tries of every chunk before its own, plus the tries of its own chunk up to the one that met
it (its place in the chunk: a try number for seeding and kicks, a move number for a walk, at
most the chunk's tries; a grown cycle, whose place is not a try, at its chunk's end).
"""

from __future__ import annotations

import bisect
from itertools import accumulate

SEEDING, WALKING, KICKING = "seeding", "walking", "kicking"
PHASES = (SEEDING, WALKING, KICKING)
NOT_FOUND = ("start", "mirror")  # cycles the run was given, or catalogued with their twin
COLUMNS = "cycle, move, state_chunk, state_position"  # what ``tries_figures`` reads


def move_phase(move: str) -> str:
    """The phase a kind of move (the ``moves`` table's) is played in: kicks, or the walk."""
    return KICKING if move.startswith("kick ") else WALKING


def met_after(row: dict, chunks: list[int], before: list[int], sizes: list[int]) -> int | None:
    """The tries until the run met the cycle of ``row`` (see the module); None when its chunk
    is not stored.  ``chunks``: the stored chunk numbers, in order; ``before``: the tries of
    the chunks before each; ``sizes``: each one's tries."""
    chunk, place = row.get("state_chunk"), row.get("state_position") or 0
    if not isinstance(chunk, int) or not isinstance(place, int):  # none, or not ours
        return None
    at = bisect.bisect_left(chunks, chunk)
    if at == len(chunks) or chunks[at] != chunk:
        return None
    size = sizes[at]
    # places are 0-based (a try number, a move number): the try that met it is the place + 1
    place = size if row.get("move") == "grown" else min(place + 1, size)
    return before[at] + place


def tries_figures(rows: list[dict], chunk_tries: list[tuple[int, int]],
                  move_stats: list[dict]) -> dict:
    """A factory run's figures in tries: ``first_cycle_tries`` (the tries until its first
    cycle, None for a run given cycles to start from or that met none),
    ``last_cycle_tries`` and ``tries_since_new_cycle`` (None before a first cycle; a run's
    starts count as met at try 0), and the
    tries of each phase (``seeding_tries``, ``walking_tries``, ``kicking_tries``).

    ``rows``: the run's cycles (``COLUMNS`` at least); ``chunk_tries``: (chunk, tries) of its
    stored chunks; ``move_stats``: its tries by kind of move (the walk's moves and the kicks;
    the seeding's tries are what is left).
    """
    chunks = [chunk for chunk, _ in chunk_tries]
    sizes = [tries for _, tries in chunk_tries]
    before = [0, *accumulate(sizes)][:-1] if sizes else []
    total = sum(sizes)
    started = any(row.get("move") == "start" for row in rows)
    met = [at for row in rows if (row.get("move") or "") not in NOT_FOUND
           for at in [met_after(row, chunks, before, sizes)] if at is not None]
    phases = dict.fromkeys(PHASES, 0)
    for stat in move_stats:
        phases[move_phase(stat["move"])] += int(stat["tries"])
    phases[SEEDING] = max(0, total - phases[WALKING] - phases[KICKING])
    last = max(met) if met else 0 if started else None  # a run's starts: known at try 0
    return {"first_cycle_tries": None if started or not met else min(met),
            "last_cycle_tries": last,
            "tries_since_new_cycle": None if last is None else total - last,
            **{f"{phase}_tries": tries for phase, tries in phases.items()}}
