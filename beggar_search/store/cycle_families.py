"""A factory run's cycles as a family: who was found from whom, and the islands.

An island is a set of cycles joined by moves: the parent-child links of the
catalogue, each cycle's link to its mirror, and the links of a cycle to the known
cycles its moved states entered, all taken both ways.  A cycle met by a kick (a
compound perturbation, ``move`` 'kick ...') is not joined to the cycle kicked: kicks
cross between islands.
"""

from __future__ import annotations


def islands(rows: list[dict], links=()) -> dict[str, int]:
    """Island number (from 1, in the order of ``rows``) of every cycle in ``rows``."""
    parent: dict[str, str] = {}

    def find(cycle: str) -> str:
        parent.setdefault(cycle, cycle)
        while parent[cycle] != cycle:
            parent[cycle] = parent[parent[cycle]]
            cycle = parent[cycle]
        return cycle

    names = {row["cycle"] for row in rows}
    for row in rows:
        find(row["cycle"])
        kicked = (row.get("move") or "").startswith("kick")
        for other in (None if kicked else row.get("parent"), row.get("mirror")):
            if other in names:
                parent[find(other)] = find(row["cycle"])
    for source, target in links:
        if source in names and target in names:
            parent[find(source)] = find(target)
    numbers: dict[str, int] = {}
    result = {}
    for row in rows:
        root = find(row["cycle"])
        numbers.setdefault(root, len(numbers) + 1)
        result[row["cycle"]] = numbers[root]
    return result


def figures(rows: list[dict], links=(), fair_deals: int = 0) -> dict:
    """A factory run's family in numbers: cycles (mirrors count apart), those reached by a
    fair deal, fair deals, islands, and islands that hold a fair-reachable cycle."""
    island = islands(rows, links)
    fair = [row for row in rows if fair_reached(row)]
    return {"cycles": len(rows), "fair_cycles": len(fair), "fair_deals": fair_deals,
            "islands": len(set(island.values())),
            "fair_islands": len({island[row["cycle"]] for row in fair})}


def fair_reached(row: dict) -> bool:
    """Whether a fair deal reaches a catalogued cycle (player 1 leading; player 2 leading
    counts for its mirror)."""
    return bool(row.get("deals") or row.get("fair_deals"))
