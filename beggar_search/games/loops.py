"""What the loop searches (the hunter, the factory and its seeding) share: the Casella
start, the players renamed, and a fair looping deal recorded as a chunk's loop."""

from __future__ import annotations

import numpy as np

from ..cards.deck import Deal

CASELLA = "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA"  # the first known loop (2024)


def rotations(hands, leader: int):
    """The state under every renaming of the players that keeps their order of play."""
    players = len(hands)
    for k in range(players):
        yield [hands[(p + k) % players] for p in range(players)], (leader - k) % players


def record_loop(recorder, position: int, deal: Deal):
    """Add a looping deal (played again for its figures) to a chunk's recorder."""
    from ..engine import rules

    flat, sizes = rules.pack_hands(deal.hands)
    row = np.zeros(rules.RESULT_LEN, dtype=np.int64)
    rules.play_game(flat, sizes, 0, 0, row)
    return record_row(recorder, position, row, deal.sequence)


def record_row(recorder, position: int, row: np.ndarray, sequence):
    """Add a looping deal, its card ``sequence`` and its game's result ``row`` (either
    game's), to a chunk's recorder."""
    from ..engine import batch

    positions, rows, deals = batch.record_loop(
        position, row, np.array(sequence, dtype=np.uint8), recorder.counts,
        recorder.loop_positions, recorder.loop_rows, recorder.loop_deals)
    return recorder._replace(loop_positions=positions, loop_rows=rows, loop_deals=deals)
