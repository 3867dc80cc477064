"""Climb: best-first local search over deals, for long terminating games.

A chunk is a fixed budget of games, drawn from stream (seed, chunk) only, so it
is the same on any worker.  The search keeps a pool of the longest terminating
deals it has found in the chunk.  Each game is either a fresh random deal (a
share ``explore`` of them: the restarts) or a neighbour of the longest pool deal
that still has untried neighbours: the deal with two cards of different values
swapped (one of them is always a penalty card).  Every deal's swaps are tried
in an order drawn for it (an affine bijection of the swap numbers), each at most
once, so a local maximum's neighbourhood is searched in full and never twice;
a neighbour longer than the pool's shortest deal joins the pool and, being
longer, is searched next.  With a start deal (``start_deal``) the first game is
that deal and the search climbs from it.

Measured on the standard deck (benchmarks/bench_climb.py), a swap neighbour of
a long game is longer than a random deal on average (a game of 2000+ cards has
neighbours of about 430 cards on average, random deals 255), but the game from
a swapped deal departs from the parent's game at the first trick that lays a
swapped card and is much like a fresh random game from there: local structure
is weak.  With the same number of games (2 million, 4 seeds) the climber's
longest game was not longer than random search's (mean 2980 against 3153
cards), its 100th longest distinct deal a little longer (2108 against 2090).

Every game played is counted (``deals`` of the summary = games played).  The
leaderboard holds distinct deals only, each at the position where the chunk
first played it, and each looping deal is kept once per chunk.
"""

from __future__ import annotations

import math
import time

import numpy as np

from ..deck import STANDARD, Deal, Deck, DeckError
from ..engine import batch, rules
from ..engine.batch import C_LOOPS_KEPT, C_TOP_FILLED, C_TOP_MIN, ChunkSummary
from ..engine.fast2 import play_sequences as _standard_play
from ..engine.random import below, chunk_stream, next_u64, shuffle
from ..engine.rules import CAPACITY, LOOP, R_CARDS, R_OUTCOME, RESULT_LEN, WIN
from ..jit import kernel
from .base import ChunkJob, Strategy

DEFAULT_EXPLORE = 0.5  # share of games that are fresh random deals
DEFAULT_POOL = 64  # deals whose neighbourhoods are searched

_HASH_MULT = np.int64(0x100000001B3)
_MIX = np.int64(-7046029254386353131)


@kernel
def _uniform(stream):
    """A float in [0, 1)."""
    return ((next_u64(stream) >> 11) & ((np.int64(1) << 53) - 1)) * (1.0 / 9007199254740992.0)


@kernel
def _deal_hash(deal):
    h = np.int64(-3750763034362895579)
    for i in range(deal.shape[0]):
        h = (h ^ np.int64(deal[i])) * _HASH_MULT
    h = (h ^ ((h >> 29) & 0x7FFFFFFFF)) * _MIX
    return h ^ ((h >> 32) & 0xFFFFFFFF)


@kernel
def _same(a, b):
    for i in range(a.shape[0]):
        if a[i] != b[i]:
            return False
    return True


@kernel
def _on_board(deal, counts, top_deals):
    """Whether ``deal`` is already on the chunk's leaderboard."""
    for i in range(counts[C_TOP_FILLED]):
        if _same(top_deals[i], deal):
            return True
    return False


@kernel
def _loop_slot(table, deal, loop_deals):
    """The slot of ``deal`` in the open-addressing set of kept loops (or the empty slot)."""
    mask = table.shape[0] - 1
    slot = _deal_hash(deal) & mask
    while table[slot] >= 0 and not _same(loop_deals[table[slot]], deal):
        slot = (slot + 1) & mask
    return slot


@kernel
def _grown_table(table, loop_deals, kept):
    if 2 * (kept + 1) <= table.shape[0]:
        return table
    bigger = np.full(2 * table.shape[0], -1, dtype=np.int64)
    for i in range(kept):
        bigger[_loop_slot(bigger, loop_deals[i], loop_deals)] = i
    return bigger


@kernel
def _play(deal, split, max_tricks, fast, flat, sequences, rows):
    """Play one deal into ``rows[0]``."""
    if fast:
        sequences[0, :] = deal
        _standard_play(sequences, max_tricks, rows)
    else:
        start = 0
        for p in range(split.shape[0]):
            for i in range(split[p]):
                flat[p, i] = deal[start + i]
            start += split[p]
        rules.play_game(flat, split, 0, max_tricks, rows[0])


@kernel
def _gcd(a, b):
    while b:
        a, b = b, a % b
    return a


@kernel
def _pool_add(deal, score, pool_deals, pool_score, pool_state, stream):
    """Put a terminating deal in the pool if it is longer than the pool's shortest."""
    size = pool_score.shape[0]
    worst = 0
    for i in range(size):
        if pool_score[i] < pool_score[worst]:
            worst = i
    if score <= pool_score[worst]:
        return
    for i in range(size):
        if pool_score[i] == score and _same(pool_deals[i], deal):
            return
    pool_deals[worst, :] = deal
    pool_score[worst] = score
    moves = deal.shape[0] * deal.shape[0]
    stride = 1 + below(stream, moves - 1)
    while _gcd(stride, moves) != 1:
        stride = 1 + below(stream, moves - 1)
    pool_state[worst, 0] = stride
    pool_state[worst, 1] = below(stream, moves)
    pool_state[worst, 2] = 0  # moves tried


@kernel
def _next_neighbour(pool_deals, pool_score, pool_state, candidate):
    """The next untried swap of the longest pool deal with swaps left; False if none."""
    n = candidate.shape[0]
    moves = n * n
    while True:
        best = -1
        for i in range(pool_score.shape[0]):
            if pool_score[i] >= 0 and pool_state[i, 2] < moves and (
                    best < 0 or pool_score[i] > pool_score[best]):
                best = i
        if best < 0:
            return False
        parent = pool_deals[best]
        stride, offset = pool_state[best, 0], pool_state[best, 1]
        while pool_state[best, 2] < moves:
            j = (stride * pool_state[best, 2] + offset) % moves
            pool_state[best, 2] += 1
            p, q = j // n, j % n
            if p < q and parent[p] != parent[q]:
                candidate[:] = parent
                candidate[p], candidate[q] = parent[q], parent[p]
                return True


@kernel
def climb_chunk(stream, n_games, start_deal, sorted_cards, split, max_tricks, fast,
                explore, pool_size, recorder):
    """Play ``n_games`` games of a best-first local search drawn from ``stream``.

    The search keeps a pool of the ``pool_size`` longest terminating deals found;
    a share ``explore`` of the games are fresh random deals and the rest swap two
    cards of different values in the longest pool deal that has swaps left, each
    swap of a deal tried once, in an order drawn for that deal.  ``start_deal``
    (a card sequence, or empty) is the first game.  ``fast`` plays with the
    standard two-player kernel.  Fills ``recorder`` as ``batch.random_chunk``
    does, except that the leaderboard never holds a deal twice and a looping deal
    is kept once.
    """
    counts, histogram, top_positions, top_rows, top_deals, loop_pos, loop_rows, loop_deals = (
        recorder)
    n = sorted_cards.shape[0]
    flat = np.zeros((split.shape[0], CAPACITY), dtype=np.uint8)
    sequences = np.zeros((1, n), dtype=np.uint8)
    rows = np.zeros((1, RESULT_LEN), dtype=np.int64)
    row = rows[0]
    no_positions = np.zeros(0, dtype=np.int64)
    no_rows = np.zeros((0, RESULT_LEN), dtype=np.int64)
    no_deals = np.zeros((0, n), dtype=np.uint8)
    loop_table = np.full(64, -1, dtype=np.int64)
    pool_deals = np.zeros((max(pool_size, 1), n), dtype=np.uint8)
    pool_score = np.full(max(pool_size, 1), -1, dtype=np.int64)
    pool_state = np.zeros((max(pool_size, 1), 3), dtype=np.int64)
    candidate = sorted_cards.copy()
    k = top_positions.shape[0]
    for position in range(n_games):
        if position == 0 and start_deal.shape[0] == n:
            candidate[:] = start_deal
        elif _uniform(stream) < explore or not _next_neighbour(
                pool_deals, pool_score, pool_state, candidate):
            shuffle(candidate, stream)
        _play(candidate, split, max_tricks, fast, flat, sequences, rows)
        outcome = row[R_OUTCOME]
        cards = row[R_CARDS]
        if (outcome == WIN and k > 0
                and (counts[C_TOP_FILLED] < k or cards > top_rows[counts[C_TOP_MIN], R_CARDS])
                and not _on_board(candidate, counts, top_deals)):
            batch.record_game(position, row, candidate, counts, histogram, top_positions,
                              top_rows, top_deals)
        else:  # counted, and kept nowhere here
            batch.record_game(position, row, candidate, counts, histogram, no_positions,
                              no_rows, no_deals)
        if outcome == WIN:
            _pool_add(candidate, cards, pool_deals, pool_score, pool_state, stream)
        elif outcome == LOOP:
            kept = counts[C_LOOPS_KEPT]
            loop_table = _grown_table(loop_table, loop_deals, kept)
            slot = _loop_slot(loop_table, candidate, loop_deals)
            if loop_table[slot] < 0:
                loop_pos, loop_rows, loop_deals = batch.record_loop(
                    position, row, candidate, counts, loop_pos, loop_rows, loop_deals)
                loop_table[slot] = kept
    return (counts, histogram, top_positions, top_rows, top_deals, loop_pos, loop_rows,
            loop_deals)


def games_per_second(deck, players: int) -> float:
    """A rough speed of the walk, for sizing chunks to about a second of work."""
    if deck == STANDARD and players == 2:
        return 150_000.0
    return 60_000.0 * 52 / max(deck.size, 1)


def default_chunk_size(deck, players: int) -> int:
    """Games per chunk: about one second of work, rounded to a thousand."""
    return max(1000, int(math.ceil(games_per_second(deck, players) / 1000.0)) * 1000)


def start_sequence(text: str | None, deck, players: int) -> np.ndarray:
    """The start deal as a card sequence (empty without one); DeckError if it does not fit."""
    if not text:
        return np.zeros(0, dtype=np.uint8)
    deal = Deal.parse(text, deck)
    if deal.players != players:
        raise DeckError(f"the start deal has {deal.players} hands, the run {players} players")
    return np.array(deal.sequence, dtype=np.uint8)


class ClimbStrategy(Strategy):
    """Simulated annealing from random deals or a given one; chunk c walks stream (seed, c)."""

    name = "climb"

    @classmethod
    def prepare(cls, params: dict) -> dict:
        chunk = params.get("chunk_size") or default_chunk_size(
            Deck.parse(params["deck"]), int(params["players"]))
        return {**params, "chunk_size": chunk}

    def __init__(self, params: dict):
        super().__init__(params)
        self.explore = float(params.get("explore", DEFAULT_EXPLORE))
        self.pool = int(params.get("pool", DEFAULT_POOL))
        self.start = start_sequence(params.get("start_deal"), self.deck, self.players)
        self.fast = self.deck == STANDARD and self.players == 2

    def run_chunk(self, job: ChunkJob) -> ChunkSummary:
        begin = time.perf_counter()
        recorder = batch.new_recorder(self.top_k, self.deck.size)
        stream = chunk_stream(self.params["seed"], job.chunk)
        recorder = climb_chunk(
            stream, job.deals, self.start, self.deck.sorted_cards(),
            np.array(self.deck.split(self.players), dtype=np.int64), self.max_tricks,
            self.fast, self.explore, self.pool, recorder)
        return ChunkSummary.from_recorder(recorder, self.players, time.perf_counter() - begin)
