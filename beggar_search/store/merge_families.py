"""A run's longest games by merge family: the best game of each family and the family's size.

A family (``engine.merging``) is the set of terminating games that merge into one
trajectory, named by its last state before the end; between two players each family has
a mirror family of the same lengths.  Grouping reads the leaderboard best first, so each
family's first game is its best; ``members`` counts the family's games on the board (the
board holds the run's longest games only, so a family's shorter members may be missing).
Games stored before families were (``family`` NULL in an older results file) get theirs
computed here from the deal.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from .. import games

FAMILY_KEYS = ("family", "members", "mirror_family", "mirror_members")  # what grouping adds


def _families_of(rows_of: list[dict], params: dict):
    """The ``engine.merging.Family`` of each game (a terminating game row of the run)."""
    from ..engine.rules import R_TRICKS, RESULT_LEN

    game = games.of(params)
    deck, players = game.deck(params["deck"]), int(params["players"])
    sequences = np.array([game.deal_class.parse(g["deal"], deck).sequence for g in rows_of],
                         dtype=np.uint8).reshape(len(rows_of), deck.size)
    rows = np.zeros((len(rows_of), RESULT_LEN), dtype=np.int64)
    rows[:, R_TRICKS] = [g["tricks"] for g in rows_of]
    return game.families(sequences, rows, deck.split(players))


def by_family(games: Iterable[dict], params: dict, limit: int | None = None) -> list[dict]:
    """The best game of each family among ``games`` (a run's leaderboard, best first, with
    the run's ``params``), best family first, at most ``limit``: each the game's row with
    ``family``, ``members`` (its games among ``games``), ``mirror_family`` (None beyond two
    players) and ``mirror_members`` (the mirror family's games among them) added."""
    games = list(games)
    missing = [g for g in games if g.get("family") is None]
    for game, found in zip(missing, _families_of(missing, params) if missing else [],
                           strict=True):
        game["family"] = found.family
    groups: dict[str, list[dict]] = {}
    for game in games:
        groups.setdefault(game["family"], []).append(game)
    best = [group[0] for group in groups.values()][:limit]
    mirrors = _families_of(best, params) if best else []
    return [{**game, "members": len(groups[game["family"]]), "mirror_family": found.mirror,
             "mirror_members": len(groups.get(found.mirror, []))}
            for game, found in zip(best, mirrors, strict=True)]
