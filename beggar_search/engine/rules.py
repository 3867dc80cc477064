"""The rules of the game, once: a Numba kernel for any deck and 2 to 8 players.

A game state at a trick boundary is a set of hands (ring buffers of card values,
one row per player) plus who leads.  Every hand also carries a rolling 64-bit
hash of its contents, updated in O(1) per card laid or taken, so loop detection
(Brent's algorithm over trick-boundary states) costs a few operations per trick
and no table of states; a hash match is confirmed by comparing the states.

The rules themselves, the counting convention and the reference values are
written out in docs/rules.md.

Results are int64 rows with the layout given by the ``R_*`` constants.
"""

from typing import NamedTuple

import numpy as np
from numba.extending import overload

from ..cards.deck import MAX_CARDS, MAX_PLAYERS
from ..jit import inlined_kernel, kernel

CAPACITY = MAX_CARDS  # ring buffer length per hand: a power of two holding the deck
RING = CAPACITY - 1

WIN, LOOP, CAP = 0, 1, 2
OUTCOMES = ("win", "loop", "cap")

# result row layout
R_OUTCOME = 0
R_CARDS = 1
R_TRICKS = 2
R_WINNER = 3  # player number from 1; 0 for a loop or a tie at the cap
R_PRE_TRICKS = 4
R_PRE_CARDS = 5
R_PERIOD_TRICKS = 6
R_PERIOD_CARDS = 7
R_CYCLE = 8  # a loop's cycle id: the least state fingerprint round the cycle
R_SIZES = 9  # MAX_PLAYERS hand sizes follow
RESULT_LEN = R_SIZES + MAX_PLAYERS

HASH_BASE = np.int64(0x100000001B3)
MIX = np.int64(-7046029254386353131)  # 0x9E3779B97F4A7C15 as int64


def _powers():
    values, power = [], 1
    for _ in range(CAPACITY + 1):
        values.append(power - (1 << 64) if power >= 1 << 63 else power)
        power = (power * int(HASH_BASE)) % (1 << 64)
    return np.array(values, dtype=np.int64)


POWERS = _powers()


class StateArrays(NamedTuple):
    """The kernel arrays of one trick-boundary state (see ``State``); a Numba named tuple."""

    hands: np.ndarray  # uint8 (players, CAPACITY) ring buffers
    head: np.ndarray  # int64 (players,)
    size: np.ndarray  # int64 (players,)
    hashes: np.ndarray  # int64 (players,)
    out: np.ndarray  # uint8 (players,)
    info: np.ndarray  # int64 (INFO_LEN,)


class Bmn(NamedTuple):
    """What a trick of Beggar-my-neighbour reads beyond the state: nothing.  Its type is
    the game's, in ``GameScratch.game`` (``game_trick``)."""


class GameScratch(NamedTuple):
    """Working space of ``play_game_with``: allocated once (``new_scratch``), reused per game.

    ``game`` is what a trick reads beyond the state, and by its type the game played:
    ``Bmn()`` (``new_scratch``), or Egyptian ratscrew's slap rules and random stream
    (``ers.SlapPlay``, ``ers.new_scratch``).
    """

    state: StateArrays  # the game being played
    saved: StateArrays  # Brent's saved state
    first: StateArrays  # the cycle's first state, once a loop is found
    later: StateArrays  # one period ahead of ``first``
    pile: np.ndarray  # uint8 (2, CAPACITY)
    cap_sizes: np.ndarray  # int64 (players,): hand sizes at the cap
    game: tuple  # ``Bmn()`` or ``ers.SlapPlay``


# The options of the kernels that Numba compiles from an ``overload`` (the jit policy's)
OVERLOAD_OPTIONS = {"nogil": True, "error_model": "numpy"}


def game_trick(game, hands, head, size, hashes, out, info, pile):
    """One trick of the game ``game`` (``GameScratch.game``) from the state of the arrays
    (as ``play_trick``, with ``pile``); returns who took the pile.  In kernels only: Numba
    resolves it from the type of ``game`` when a kernel is compiled (``Bmn``: this module's
    ``play_trick``; ``ers.SlapPlay``: Egyptian ratscrew's), so the game loop below is
    written once and each game gets its own compilation of it.  Measured on the general
    engine: a trick called through any wrapper (this one not inlined, or inlined around a
    called ``play_trick``) cost 25-30% of its speed, the scratch passed to each trick as
    much; so only the small ``game`` goes into the hot loop, and each game's trick is
    inlined into this (compiled once per game, called by the loop): as fast as before."""
    raise NotImplementedError("game_trick is called from kernels")


def plays_apart(game, scratch, flat, sizes, max_tricks, result):
    """Whether the game ``game`` plays the state just loaded (``scratch.state``) apart from
    ``play_game_with``'s loop, and has done so, its row written: Egyptian ratscrew under
    the odds policy (random, so no loops); never Beggar-my-neighbour.  In kernels only,
    resolved as ``game_trick``."""
    raise NotImplementedError("plays_apart is called from kernels")


def game_is(game, kind) -> bool:
    """Whether the Numba type ``game`` is of the named tuple class ``kind`` (typing time)."""
    return getattr(game, "instance_class", None) is kind


@overload(game_trick, jit_options=OVERLOAD_OPTIONS)
def _game_trick(game, hands, head, size, hashes, out, info, pile):
    if game_is(game, Bmn):
        def trick(game, hands, head, size, hashes, out, info, pile):
            return trick_with(game, hands, head, size, hashes, out, info, pile)[0]
        return trick
    return None


@overload(plays_apart, jit_options=OVERLOAD_OPTIONS, inline="always")
def _plays_apart(game, scratch, flat, sizes, max_tricks, result):
    if game_is(game, Bmn):
        return lambda game, scratch, flat, sizes, max_tricks, result: False
    return None


def plays_dealt(game, scratch, sequence, split, leader, max_tricks, result):
    """Whether the game ``game`` plays the deal ``sequence`` (dealt out as ``split``, with
    ``leader`` to lead) by a path of its own, and has, its row written: two players of
    Egyptian ratscrew (``ers_two``), which leaves what it does not finish to
    ``play_game_with``; never Beggar-my-neighbour.  In kernels only, resolved as
    ``game_trick``."""
    raise NotImplementedError("plays_dealt is called from kernels")


def slap_check(game):
    """What a trick of the game ``game`` reads at every card: ``game`` itself where it holds
    no array (Beggar-my-neighbour), else a tuple of numbers (ratscrew's ``SlapCheck``): an
    array read from ``game`` at every card costs its reference count (measured: ratscrew
    2.6x slower).  In kernels only, resolved as ``game_trick``."""
    raise NotImplementedError("slap_check is called from kernels")


def slap_shows(check, pile, pile_len):
    """Whether the pile of ``pile_len`` cards shows a slap pattern of the game's
    (``check``: its ``slap_check``).  In kernels only, resolved as ``game_trick``: never in
    Beggar-my-neighbour."""
    raise NotImplementedError("slap_shows is called from kernels")


def slap_taker(check, gone, players, layer):
    """Who slaps the pile just laid by ``layer`` and takes it (-1: nobody), from the numbers
    of ``check`` (the game's ``slap_check``) and ``gone`` (bit p set when player p is out),
    and ``check`` as it is after (ratscrew's odds draw from the stream it carries).  In
    kernels only, resolved as ``game_trick``."""
    raise NotImplementedError("slap_taker is called from kernels")


def slap_end(game, check):
    """The end of a trick: what ``check`` carried through it goes back to ``game``
    (ratscrew's stream under odds).  In kernels only, resolved as ``game_trick``."""
    raise NotImplementedError("slap_end is called from kernels")


def card_value(check, card):
    """The penalty value (0 plain, 1-4 J-A) of ``card`` in the game of ``check`` (its
    ``slap_check``).  In kernels only, resolved as ``game_trick``: Beggar-my-neighbour's
    cards are values; ratscrew's are ranks."""
    raise NotImplementedError("card_value is called from kernels")


@overload(plays_dealt, jit_options=OVERLOAD_OPTIONS, inline="always")
def _plays_dealt(game, scratch, sequence, split, leader, max_tricks, result):
    if game_is(game, Bmn):
        return lambda game, scratch, sequence, split, leader, max_tricks, result: False
    return None


@overload(slap_check, jit_options=OVERLOAD_OPTIONS, inline="always")
def _slap_check(game):
    if game_is(game, Bmn):
        return lambda game: game
    return None


@overload(slap_shows, jit_options=OVERLOAD_OPTIONS, inline="always")
def _slap_shows(check, pile, pile_len):
    if game_is(check, Bmn):
        return lambda check, pile, pile_len: False
    return None


@overload(slap_taker, jit_options=OVERLOAD_OPTIONS, inline="always")
def _slap_taker(check, gone, players, layer):
    if game_is(check, Bmn):
        return lambda check, gone, players, layer: (np.int64(-1), check)
    return None


@overload(slap_end, jit_options=OVERLOAD_OPTIONS, inline="always")
def _slap_end(game, check):
    if game_is(game, Bmn):
        return lambda game, check: None
    return None


@overload(card_value, jit_options=OVERLOAD_OPTIONS, inline="always")
def _card_value(check, card):
    if game_is(check, Bmn):
        return lambda check, card: card
    return None


class State:
    """A trick-boundary state held in kernel arrays.

    ``hands[p, (head[p] + i) & RING]`` is player p's i-th card from the top;
    ``hashes[p]`` is the rolling hash of that hand; ``info`` holds the leader,
    cards laid, tricks played and players still in.
    """

    __slots__ = ("hands", "head", "size", "hashes", "out", "info")

    def __init__(self, players: int):
        self.hands = np.zeros((players, CAPACITY), dtype=np.uint8)
        self.head = np.zeros(players, dtype=np.int64)
        self.size = np.zeros(players, dtype=np.int64)
        self.hashes = np.zeros(players, dtype=np.int64)
        self.out = np.zeros(players, dtype=np.uint8)
        self.info = np.zeros(INFO_LEN, dtype=np.int64)

    def arrays(self) -> StateArrays:
        """The state's kernel arrays, as a ``StateArrays`` named tuple (shared, not copied)."""
        return StateArrays(self.hands, self.head, self.size, self.hashes, self.out, self.info)

    @classmethod
    def from_hands(cls, hands, leader: int = 0) -> "State":
        """The state of ``hands`` (card values, top first) with ``leader`` (from 0) to lead."""
        state = cls(len(hands))
        flat, sizes = pack_hands(hands)
        load_state(flat, sizes, leader, *state.arrays())
        return state

    def hand(self, player: int) -> list[int]:
        """Player ``player``'s cards, top first."""
        size, head = int(self.size[player]), int(self.head[player])
        row, end = self.hands[player], head + size
        if end <= CAPACITY:
            return row[head:end].tolist()
        return row[head:].tolist() + row[: end - CAPACITY].tolist()  # round the ring

    def hand_list(self) -> list[list[int]]:
        """Every player's cards, top first."""
        return [self.hand(p) for p in range(len(self.size))]

    @property
    def leader(self) -> int:
        """The player (from 0) who leads the next trick."""
        return int(self.info[I_LEADER])


I_LEADER, I_CARDS, I_TRICKS, I_IN = 0, 1, 2, 3
INFO_LEN = 4


def pack_hands(hands):
    """Hands as a (players, CAPACITY) uint8 array and their sizes."""
    flat = np.zeros((len(hands), CAPACITY), dtype=np.uint8)
    sizes = np.zeros(len(hands), dtype=np.int64)
    for p, hand in enumerate(hands):
        flat[p, : len(hand)] = hand
        sizes[p] = len(hand)
    return flat, sizes


@kernel
def push_card(hands, head, size, hashes, player, card):
    """Put ``card`` at the bottom of ``player``'s hand, updating its rolling hash."""
    hands[player, (head[player] + size[player]) & RING] = card
    size[player] += 1
    hashes[player] = hashes[player] * HASH_BASE + (np.int64(card) + 1)


@kernel
def pop_card(hands, head, size, hashes, player):
    """Take the top card off ``player``'s hand (updating its rolling hash) and return it."""
    card = np.int64(hands[player, head[player]])
    hashes[player] -= (card + 1) * POWERS[size[player] - 1]
    head[player] = (head[player] + 1) & RING
    size[player] -= 1
    return card


@kernel
def load_state(flat, sizes, leader, hands, head, size, hashes, out, info):
    """Set a state from hands laid out as rows of ``flat`` with ``sizes``."""
    players = sizes.shape[0]
    players_in = 0
    for p in range(players):
        head[p] = 0
        size[p] = 0
        hashes[p] = 0
        for i in range(sizes[p]):
            push_card(hands, head, size, hashes, p, flat[p, i])
        out[p] = 1 if sizes[p] == 0 else 0
        players_in += 1 - out[p]
    if out[leader] and players_in > 0:
        leader = next_in(out_mask(out), leader, players)
    info[I_LEADER] = leader
    info[I_CARDS] = 0
    info[I_TRICKS] = 0
    info[I_IN] = players_in


@kernel
def copy_state(src_hands, src_head, src_size, src_hashes, src_out, src_info,
               hands, head, size, hashes, out, info):
    """Copy a state, each hand laid out from position 0."""
    for p in range(src_size.shape[0]):
        for i in range(src_size[p]):
            hands[p, i] = src_hands[p, (src_head[p] + i) & RING]
        head[p] = 0
        size[p] = src_size[p]
        hashes[p] = src_hashes[p]
        out[p] = src_out[p]
    for k in range(INFO_LEN):
        info[k] = src_info[k]


@kernel
def state_hash(size, hashes, info):
    """Hash of a trick-boundary state: its leader, hand sizes and hand hashes."""
    h = info[I_LEADER] * MIX + 1
    for p in range(size.shape[0]):
        h = (h ^ hashes[p]) * MIX + size[p]
    return h


@kernel
def fingerprint(size, hashes, info):
    """A well-mixed 64-bit fingerprint of a trick-boundary state (splitmix64 finaliser)."""
    return mix64(state_hash(size, hashes, info))


@kernel
def mix64(z):
    """The splitmix64 finaliser (int64 arithmetic, logical shifts)."""
    z = (z ^ ((z >> 30) & 0x3FFFFFFFF)) * np.int64(-4658895280553007687)
    z = (z ^ ((z >> 27) & 0x1FFFFFFFFF)) * np.int64(-7723592293110705685)
    return z ^ ((z >> 31) & 0x1FFFFFFFF)


@kernel
def same_state(a_hands, a_head, a_size, a_info, b_hands, b_head, b_size, b_info):
    """Whether two trick-boundary states have the same hands and leader."""
    if a_info[I_LEADER] != b_info[I_LEADER]:
        return False
    for p in range(a_size.shape[0]):
        if a_size[p] != b_size[p]:
            return False
    for p in range(a_size.shape[0]):
        for i in range(a_size[p]):
            if a_hands[p, (a_head[p] + i) & RING] != b_hands[p, (b_head[p] + i) & RING]:
                return False
    return True


@kernel
def next_in(out_mask, player, players):
    """The next player after ``player`` still in: bit p of ``out_mask`` is set when player
    p is out (one player at least must be in).  The one statement of "next player"."""
    player = _after(player, players)
    while (out_mask >> player) & 1:
        player = _after(player, players)
    return player


@inlined_kernel
def _after(player, players):
    """The seat after ``player``: ``(player + 1) % players`` without a division (a division
    by a count known only at run time costs some 25 cycles, twice a card in a trick)."""
    player += 1
    return player if player < players else player - players


@kernel
def out_mask(out):
    """The players out, as the bit mask ``next_in`` takes."""
    mask = np.int64(0)
    for p in range(out.shape[0]):
        if out[p]:
            mask |= np.int64(1) << p
    return mask


@kernel
def play_trick(hands, head, size, hashes, out, info, pile):
    """Play one trick from a trick boundary; return who took the pile.

    Updates the hands, the leader, the cards and tricks counters and the
    players still in (``info[I_IN] == 1`` means the game is over).  ``pile``
    is scratch space (2, CAPACITY); on return ``pile[0, :n]`` holds the n cards
    of the pile as laid and ``pile[1, :n]`` who laid each.
    """
    return trick_with(Bmn(), hands, head, size, hashes, out, info, pile)[0]


@inlined_kernel
def trick_with(game, hands, head, size, hashes, out, info, pile):
    """One trick of the game ``game`` (``GameScratch.game``), written once for both games:
    after each card laid, ``slap_shows`` says whether the pile may be slapped (never in
    Beggar-my-neighbour) and ``slap_taker`` who slaps and takes it (-1: nobody), and
    ``card_value`` reads the card's penalty value (a Beggar-my-neighbour card is its value;
    a ratscrew card a rank), from what ``slap_check`` read once a trick (numbers only; the
    taker may change what it carries, which ``slap_end`` puts back).  All are resolved
    from the type of ``game`` when a kernel compiles and inlined, so Beggar-my-neighbour's
    trick compiles to what it was before.  Returns (who took the pile, whether by a slap)."""
    current, players_in, players, gone = trick_start(out, info)
    check = slap_check(game)  # read once a trick: not an array taken from ``game`` a card
    pile_len = 0
    owed = 0
    last_penalty = -1
    winner = -1
    slapped = False
    while True:
        if size[current] == 0:
            gone, players_in, winner, current = drop_out(out, gone, current, players_in,
                                                         last_penalty, players)
            if winner >= 0:
                break
            continue
        card = lay_card(hands, head, size, hashes, pile, pile_len, current)
        pile_len += 1
        if slap_shows(check, pile, pile_len):
            slapper, check = slap_taker(check, gone, players, current)
            if slapper >= 0:
                winner = slapper
                out[slapper] = 0
                slapped = True
                break
        owed, last_penalty, current, winner = after_card(card_value(check, card), owed,
                                                         last_penalty, current, gone, players)
        if winner >= 0:
            break
    slap_end(game, check)
    take_pile(hands, head, size, hashes, out, info, pile, pile_len, winner)
    return winner, slapped


@inlined_kernel
def trick_start(out, info):
    """Who leads, how many players are in, how many play and the mask of those out."""
    return info[I_LEADER], info[I_IN], out.shape[0], out_mask(out)


@inlined_kernel
def drop_out(out, gone, current, players_in, last_penalty, players):
    """``current`` must lay a card and has none: out.  Returns the mask of players out,
    the players still in, who takes the pile (-1: the trick goes on) and who plays next."""
    out[current] = 1
    gone |= np.int64(1) << current
    players_in -= 1
    if last_penalty >= 0:
        return gone, players_in, last_penalty, current
    if players_in == 1:
        return gone, players_in, next_in(gone, current, players), current
    return gone, players_in, np.int64(-1), next_in(gone, current, players)


@inlined_kernel
def lay_card(hands, head, size, hashes, pile, pile_len, current):
    """``current`` lays their top card on the pile (at ``pile_len``); returns it."""
    card = pop_card(hands, head, size, hashes, current)
    pile[0, pile_len] = card
    pile[1, pile_len] = current
    return card


@inlined_kernel
def after_card(value, owed, last_penalty, current, gone, players):
    """The count after ``current`` laid a card worth ``value`` (cards owed).  Returns the
    cards still owed, who laid the last penalty card, who plays next and who takes the
    pile (-1: the trick goes on)."""
    if value > 0:
        return value, current, next_in(gone, current, players), np.int64(-1)
    if last_penalty >= 0:
        owed -= 1
        if owed == 0:
            return owed, last_penalty, current, last_penalty
        return owed, last_penalty, current, np.int64(-1)
    return owed, last_penalty, next_in(gone, current, players), np.int64(-1)


@inlined_kernel
def take_pile(hands, head, size, hashes, out, info, pile, pile_len, winner):
    """The end of a trick: ``winner`` takes the ``pile_len`` cards of ``pile``, players
    with no cards left are out, and ``info`` counts the trick."""
    for i in range(pile_len):
        push_card(hands, head, size, hashes, winner, pile[0, i])
    players_in = 0
    for p in range(size.shape[0]):
        if out[p] == 0 and size[p] == 0:
            out[p] = 1
        players_in += 1 - out[p]
    info[I_LEADER] = winner
    info[I_CARDS] += pile_len
    info[I_TRICKS] += 1
    info[I_IN] = players_in


@kernel
def new_pile():
    """Scratch for ``play_trick``'s pile: the cards laid and who laid each."""
    return np.zeros((2, CAPACITY), dtype=np.uint8)


@kernel
def _trick(game, state, pile):
    return game_trick(game, state.hands, state.head, state.size, state.hashes, state.out,
                      state.info, pile)


@kernel
def load_into(flat, sizes, leader, state):
    """Load a state (``flat`` hands, ``sizes``, ``leader``) into a ``new_state`` bundle."""
    load_state(flat, sizes, leader, state.hands, state.head, state.size, state.hashes, state.out,
               state.info)


@kernel
def _hash(state):
    return state_hash(state.size, state.hashes, state.info)


@kernel
def _same(a, b):
    return same_state(a.hands, a.head, a.size, a.info, b.hands, b.head, b.size, b.info)


@kernel
def same_states(a, b):
    """Whether two states (``StateArrays``) are the same: hashes first, then the cards."""
    return _hash(a) == _hash(b) and _same(a, b)


@kernel
def _copy(src, dst):
    copy_state(src.hands, src.head, src.size, src.hashes, src.out, src.info,
               dst.hands, dst.head, dst.size, dst.hashes, dst.out, dst.info)


@kernel
def new_state(players):
    """Empty kernel arrays for one state of ``players`` players."""
    return StateArrays(np.zeros((players, CAPACITY), dtype=np.uint8),
                       np.zeros(players, dtype=np.int64), np.zeros(players, dtype=np.int64),
                       np.zeros(players, dtype=np.int64), np.zeros(players, dtype=np.uint8),
                       np.zeros(INFO_LEN, dtype=np.int64))


@kernel
def new_scratch(players):
    """A ``GameScratch`` for games of Beggar-my-neighbour between ``players`` players."""
    return GameScratch(new_state(players), new_state(players), new_state(players),
                       new_state(players), new_pile(), np.zeros(players, dtype=np.int64),
                       Bmn())


@kernel
def _write_loop(flat, sizes, leader, period, scratch, result):
    """A loop of ``period`` tricks: find where its cycle starts (Brent's second phase: the
    first trick index mu with S(mu) == S(mu + period), replayed from the deal on
    ``scratch.first`` and ``scratch.later``) and write the row."""
    a, b, pile, game = scratch.first, scratch.later, scratch.pile, scratch.game
    load_into(flat, sizes, leader, a)
    load_into(flat, sizes, leader, b)
    for _ in range(period):  # the game loops: it does not end on the way
        _trick(game, b, pile)
    mu = 0
    while not same_states(a, b):
        _trick(game, a, pile)
        _trick(game, b, pile)
        mu += 1
    write_loop_row(mu, period, a, b, sizes.shape[0], result)
    least = fingerprint(b.size, b.hashes, b.info)
    for _ in range(period - 1):
        _trick(game, b, pile)
        least = min(least, fingerprint(b.size, b.hashes, b.info))
    result[R_CYCLE] = least


@kernel
def write_loop_row(mu, period, a, b, players, result):
    """A loop's row but its cycle id: ``a`` at the cycle's first state (after ``mu``
    tricks), ``b`` one period of ``period`` tricks later."""
    result[R_OUTCOME] = LOOP
    result[R_CARDS] = b.info[I_CARDS]
    result[R_TRICKS] = b.info[I_TRICKS]
    result[R_WINNER] = 0
    result[R_PRE_TRICKS] = mu
    result[R_PRE_CARDS] = a.info[I_CARDS]
    result[R_PERIOD_TRICKS] = period
    result[R_PERIOD_CARDS] = b.info[I_CARDS] - a.info[I_CARDS]
    for p in range(players):
        result[R_SIZES + p] = a.size[p]


@kernel
def write_end(outcome, state, winner, result):
    """A row of a game ended by ``outcome`` (a win or the cap) in ``state``."""
    result[R_OUTCOME] = outcome
    result[R_CARDS] = state.info[I_CARDS]
    result[R_TRICKS] = state.info[I_TRICKS]
    result[R_WINNER] = winner
    for p in range(state.size.shape[0]):
        result[R_SIZES + p] = state.size[p]


@kernel
def cap_winner(size):
    """The player holding most cards, from 1; 0 on a tie."""
    best = -1
    winner = 0
    for p in range(size.shape[0]):
        if size[p] > best:
            best = size[p]
            winner = p + 1
        elif size[p] == best:
            winner = 0
    return winner


@kernel
def _period_from(game, state, start, pile, limit):
    """Tricks until ``state`` comes back to itself, at most ``limit``; 0 if it does not.

    ``start`` is scratch space for the state it starts from.
    """
    _copy(state, start)
    target = _hash(state)
    for step in range(1, limit + 1):
        _trick(game, state, pile)
        if state.info[I_IN] <= 1:
            return 0
        if _hash(state) == target and _same(state, start):
            return step
    return 0


@kernel
def play_game(flat, sizes, leader, max_tricks, result):
    """``play_game_with`` for one game: allocates its own scratch space."""
    play_game_with(flat, sizes, leader, max_tricks, result, new_scratch(sizes.shape[0]))


@kernel
def play_game_with(flat, sizes, leader, max_tricks, result, scratch):
    """Play a game from hands ``flat[p, :sizes[p]]`` with ``leader`` to lead.

    ``max_tricks`` > 0 stops the game at that trick boundary (outcome CAP, the
    player holding most cards wins, 0 on a tie) unless it has ended or a state
    has repeated by then.  Writes a result row (``R_*`` layout) into ``result``.
    ``scratch`` is a ``GameScratch`` (``new_scratch``) for this many players,
    allocated once per chunk: the game played is its ``game`` (``game_trick``,
    ``plays_apart``).
    """
    state, saved, pile, game = scratch.state, scratch.saved, scratch.pile, scratch.game
    # the hot loop works on the arrays themselves, not through the named tuples
    hands, head, size, hashes, out, info = state
    load_state(flat, sizes, leader, hands, head, size, hashes, out, info)
    for k in range(RESULT_LEN):
        result[k] = 0
    if info[I_IN] <= 1:  # nothing to play: the one player holding cards has won
        write_end(WIN, state, info[I_LEADER] + 1, result)
        return
    if plays_apart(game, scratch, flat, sizes, max_tricks, result):
        return
    s_hands, s_head, s_size, s_hashes, s_out, s_info = saved
    copy_state(hands, head, size, hashes, out, info, s_hands, s_head, s_size, s_hashes, s_out,
               s_info)
    saved_hash = state_hash(size, hashes, info)
    power = 1
    lam = 0
    while True:
        winner = game_trick(game, hands, head, size, hashes, out, info, pile)
        if info[I_IN] <= 1:
            write_end(WIN, state, winner + 1, result)
            return
        lam += 1
        current_hash = state_hash(size, hashes, info)
        if current_hash == saved_hash and same_state(hands, head, size, info, s_hands, s_head,
                                                     s_size, s_info):
            _write_loop(flat, sizes, leader, lam, scratch, result)
            return
        if lam == power:
            copy_state(hands, head, size, hashes, out, info, s_hands, s_head, s_size, s_hashes,
                       s_out, s_info)
            saved_hash = current_hash
            power *= 2
            lam = 0
        if max_tricks > 0 and info[I_TRICKS] >= max_tricks:
            break
    # the cap: a repeat by now means this state is on a cycle of at most max_tricks
    cap_tricks, cap_cards = hold_cap(state, scratch.cap_sizes)
    period = _period_from(game, state, saved, pile, max_tricks)
    if period > 0:
        _write_loop(flat, sizes, leader, period, scratch, result)
        if result[R_TRICKS] <= max_tricks:
            return
    write_cap(scratch.cap_sizes, cap_tricks, cap_cards, result)


@kernel
def hold_cap(state, cap_sizes):
    """At the cap: the hand sizes into ``cap_sizes``; returns (tricks, cards) so far."""
    for p in range(state.size.shape[0]):
        cap_sizes[p] = state.size[p]
    return state.info[I_TRICKS], state.info[I_CARDS]


@kernel
def write_cap(cap_sizes, cap_tricks, cap_cards, result):
    """The row of a game stopped at the cap, with ``hold_cap``'s figures."""
    for k in range(RESULT_LEN):
        result[k] = 0
    result[R_OUTCOME] = CAP
    result[R_CARDS] = cap_cards
    result[R_TRICKS] = cap_tricks
    for p in range(cap_sizes.shape[0]):
        result[R_SIZES + p] = cap_sizes[p]
    result[R_WINNER] = cap_winner(cap_sizes)


@kernel
def deal_out(sequence, sizes, flat):
    """Lay a card sequence out as hands of ``sizes`` cards: rows of ``flat``, top first."""
    start = 0
    for p in range(sizes.shape[0]):
        for i in range(sizes[p]):
            flat[p, i] = sequence[start + i]
        start += sizes[p]


@kernel
def play_sequences(sequences, split, leader, max_tricks, results):
    """Play many deals: row i of ``sequences`` is dealt out as ``split`` hand sizes."""
    play_sequences_with(sequences, split, leader, max_tricks, results,
                        new_scratch(split.shape[0]))


@inlined_kernel
def play_sequences_with(sequences, split, leader, max_tricks, results, scratch):
    """``play_sequences`` of the game of ``scratch`` (see ``play_game_with``)."""
    flat = np.zeros((split.shape[0], CAPACITY), dtype=np.uint8)
    for d in range(sequences.shape[0]):
        play_dealt(sequences[d], split, flat, leader, max_tricks, results[d], scratch)


@inlined_kernel
def play_dealt(sequence, split, flat, leader, max_tricks, result, scratch):
    """Play the deal ``sequence``: by the game's own path where it has one
    (``plays_dealt``), else dealt out as ``split`` into ``flat`` and played by
    ``play_game_with``.  Every chunk kernel plays its deals through this."""
    if plays_dealt(scratch.game, scratch, sequence, split, leader, max_tricks, result):
        return
    deal_out(sequence, split, flat)
    play_game_with(flat, split, leader, max_tricks, result, scratch)

