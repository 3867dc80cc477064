"""Where the family graph draws things: islands as circles on a shelf, and, inside an island,
its cycles in layers by generation, each child under its parent.

Computed once when the site is written, so the page only draws (an island of thousands of
cycles opens at once).  Coordinates are abstract units; the page scales them.
"""

from __future__ import annotations

import math
from collections import defaultdict

SHELF_WIDTH = 1200.0  # units across the overview of islands
ISLAND_FILE_CYCLES = 2000  # cycles per file of island layouts
OVERVIEW_ISLANDS = 3000  # islands of two cycles or more drawn in the overview, biggest first
NODE_GAP = 14.0
LAYER_GAP = 48.0


def island_radius(size: int) -> float:
    """An island's circle: its area grows with its cycles."""
    return 6.0 + 4.0 * math.sqrt(size)


def shelf(sizes: list[int]) -> list[tuple[float, float, float]]:
    """Circles for islands of ``sizes`` (biggest first), packed in rows about twice as wide
    as the whole is tall: (x, y, r) each."""
    area = sum((2 * island_radius(size) + 8.0) ** 2 for size in sizes)
    width = max(SHELF_WIDTH, 1.5 * math.sqrt(area), 2 * island_radius(sizes[0]) if sizes else 0)
    placed, x, y, row_height = [], 0.0, 0.0, 0.0
    for size in sizes:
        r = island_radius(size)
        if x + 2 * r > width and x > 0:
            x, y, row_height = 0.0, y + row_height + 8.0, 0.0
        placed.append((round(x + r, 1), round(y + r, 1), round(r, 1)))
        x += 2 * r + 8.0
        row_height = max(row_height, 2 * r)
    return placed


def island_layout(members: list[dict], links) -> dict:
    """One island's cycles in layers (generation, else 0), children in their parents' order;
    edges by node index: parent to child ('p'), mirrors ('m'), moves into known cycles ('l')."""
    index = {row["cycle"]: number for number, row in enumerate(members)}
    layers = defaultdict(list)
    low = min((row.get("generation") or 0) for row in members)
    for row in members:
        layers[(row.get("generation") or 0) - low].append(row)
    x_of = {}
    nodes = [None] * len(members)
    for depth in sorted(layers):
        row_list = sorted(layers[depth], key=lambda r: (x_of.get(r.get("parent"), -1.0),
                                                        index[r["cycle"]]))
        width = (len(row_list) - 1) * NODE_GAP
        for place, row in enumerate(row_list):
            x = round(place * NODE_GAP - width / 2, 1)
            x_of[row["cycle"]] = x
            nodes[index[row["cycle"]]] = [row["cycle"], x, depth * LAYER_GAP,
                                          int(bool(row.get("deals") or row.get("fair_deals"))),
                                          row.get("generation")]
    edges = []
    for row in members:
        here = index[row["cycle"]]
        if row.get("parent") in index:
            edges.append([index[row["parent"]], here, "p"])
        mirror = row.get("mirror")
        if mirror in index and index[mirror] > here:
            edges.append([here, index[mirror], "m"])
    edges += [[index[s], index[t], "l"] for s, t in links if s in index and t in index]
    return {"nodes": nodes, "edges": edges}


def family(cycles: list[dict], island: dict[str, int], links) -> dict:
    """The family graph of a run: ``islands`` rows [number, cycles, fair cycles, x, y, r,
    file] for the overview (two cycles or more, biggest first, at most OVERVIEW_ISLANDS),
    ``files``: island number -> layout, grouped into files of about ISLAND_FILE_CYCLES
    cycles, and how many islands are left out of the overview."""
    members = defaultdict(list)
    for row in cycles:
        members[island[row["cycle"]]].append(row)
    by_link = defaultdict(list)
    for source, target in links:
        if source in island:
            by_link[island[source]].append((source, target))
    order = sorted(members, key=lambda n: (-len(members[n]), n))
    shown = [n for n in order if len(members[n]) > 1][:OVERVIEW_ISLANDS]
    files, current, filled = [], {}, 0
    rows = []
    for number, (x, y, r) in zip(shown, shelf([len(members[n]) for n in shown]), strict=True):
        group = members[number]
        if current and filled + len(group) > ISLAND_FILE_CYCLES:
            files.append(current)
            current, filled = {}, 0
        current[str(number)] = island_layout(group, by_link[number])
        filled += len(group)
        fair = sum(1 for row in group if row.get("deals") or row.get("fair_deals"))
        rows.append([number, len(group), fair, x, y, r, len(files)])
    if current:
        files.append(current)
    return {"islands": rows, "files": files, "total": len(members),
            "left_out": len(members) - len(shown),
            "single": sum(1 for n in members if len(members[n]) == 1)}
