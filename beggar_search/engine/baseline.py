"""The straightforward card-by-card kernel: the yardstick ``beggar-search bench`` compares with.

What the usual C++ and Rust players do, written plainly in Numba: a Fisher-Yates
shuffle of the 52 cards (``random.shuffle``, from the same xoshiro256** streams),
hands as ring buffers of card values, one card laid at a time, the pile copied
card by card under the winner's hand.  Standard deck, 2 players, player 1 leads.
No loop detection: a game still going after ``MAX_TRICKS`` tricks is stopped and
counted as unfinished (random deals practically never get there).

Not used by the search; kept in the package so the installed ``bench`` command
can measure it in the same run as the fast kernel; tests/engine/test_baseline.py checks it
against the oracle like every other kernel.
"""

import numpy as np

from ..cards.deck import STANDARD
from ..jit import kernel
from .random import shuffle

STANDARD_CARDS = STANDARD.sorted_cards()  # the deal sequence before the first shuffle
N_CARDS = STANDARD.size
HAND = N_CARDS // 2

RING = 63  # ring buffers of 64 cards
MAX_TRICKS = 100_000


@kernel
def play_cards(hands, head, size, pile):
    """Play one game from ``hands`` (2, 64) ring buffers; returns (cards, tricks, winner).

    ``winner`` is 1 or 2, or 0 when the game was stopped after ``MAX_TRICKS``.
    """
    current = 0
    cards = 0
    tricks = 0
    while tricks < MAX_TRICKS:
        pile_len = 0
        owed = 0
        holder = -1
        while True:
            if size[current] == 0:  # must lay a card and has none
                taker = 1 - current
                for i in range(pile_len):
                    hands[taker, (head[taker] + size[taker]) & RING] = pile[i]
                    size[taker] += 1
                return cards + pile_len, tricks + 1, taker + 1
            card = hands[current, head[current]]
            head[current] = (head[current] + 1) & RING
            size[current] -= 1
            pile[pile_len] = card
            pile_len += 1
            if card > 0:
                holder = current
                owed = card
                current = 1 - current
            elif holder >= 0:
                owed -= 1
                if owed == 0:
                    break
            else:
                current = 1 - current
        for i in range(pile_len):
            hands[holder, (head[holder] + size[holder]) & RING] = pile[i]
            size[holder] += 1
        cards += pile_len
        tricks += 1
        if size[1 - holder] == 0:
            return cards, tricks, holder + 1
        current = holder
    return cards, tricks, 0


@kernel
def random_games(stream, n_deals):
    """Shuffle and play ``n_deals`` random standard deals.

    Returns (cards laid in all, games won by player 1, games won by player 2).
    """
    deck = STANDARD_CARDS.copy()
    hands = np.zeros((2, RING + 1), dtype=np.uint8)
    head = np.zeros(2, dtype=np.int64)
    size = np.zeros(2, dtype=np.int64)
    pile = np.zeros(N_CARDS, dtype=np.uint8)
    total = 0
    wins1 = 0
    wins2 = 0
    for _ in range(n_deals):
        shuffle(deck, stream)
        for p in range(2):
            for i in range(HAND):
                hands[p, i] = deck[HAND * p + i]
            head[p] = 0
            size[p] = HAND
        cards, tricks, winner = play_cards(hands, head, size, pile)
        total += cards
        if winner == 1:
            wins1 += 1
        elif winner == 2:
            wins2 += 1
    return total, wins1, wins2
