"""Every tunable default of the searches, in one place: plain constants, no imports.

The searches' modules (``strategies/``, ``cycles/``, ``backward/``, ``engine/kernels.py``) read
them from here, and so does the command line, which may not load Numba for ``--help``
(``tests/cli/test_startup.py``): an option's default and the figures its help gives are
formatted from these names, never typed again.  A value here is one that shapes what a
search plays and finds (so a run's results for a seed); what only sets a kernel's speed
(buffer sizes, batch sizes, slices) stays beside its kernel, and the numbering of moves,
kicks and random streams stays part of the stored runs.

Some of these are frozen into compiled kernels (``MOVE_NAMES`` sizes the move kernels'
tables, ``KICK_BLOCKS`` the kicks' move set): this file is digested with the kernels'
sources (``jit.DIGESTED_MODULES``), so an edit here compiles the kernels again.
"""

# --- chunks: how much work a chunk is (a run's chunk size is part of its identity) ---------

# deals per chunk of a strategy that says nothing else: enumerate's, and random's and climb's
# off the bitboard kernels (a fraction of a second of play on the general engine)
DEFAULT_CHUNK = 1 << 16
# random deals per chunk on the bitboard kernels (Beggar-my-neighbour, 2-4 players): about a
# second of play (``engine/kernels.py``'s ``chunk_size``); the general engine's is DEFAULT_CHUNK
BITBOARD_CHUNK = 1 << 21
HUNT_CHUNK = 1 << 17  # tries per chunk of ``search hunt``
FACTORY_CHUNK = 1 << 19  # move numbers per chunk of ``search factory`` (whole states)
TOP_K = 100  # ``--top``: the longest terminating games a run keeps

# --- search climb (strategies/climb.py; measurements in docs/records.md) --------------------

CLIMB_CHUNKS = 8  # random deals per chunk: this many of a random search's (docs/records.md)
# a run of ``--deals`` B is extended at least this many times: its chunk is at most B / this
# (what is extended follows the games played, not the default chunk: docs/records.md)
EXTENSION_ROUNDS = 16
SMALLEST_CHUNK = 1024  # random deals a chunk plays at the least (a budget's rounds allowing)
DEFAULT_EXTEND = 8  # parents extended per chunk
# a run of ``--deals`` B whose chunk is sized from B (smaller than the default chunk), without
# ``--extend``, extends more parents a chunk: the longest first, at least DEFAULT_EXTEND, at
# most MOST_EXTEND, and more than DEFAULT_EXTEND only while that chunk's backward searches
# hold fewer than EXTENSION_STATES states in all (a small deck's closures are small: it
# extends MOST_EXTEND; the standard deck's about 16; docs/records.md)
EXTENSION_STATES = 1 << 18
MOST_EXTEND = 64
DEFAULT_CLOSURE_STATES = 200_000  # budget of each parent's backward search
DEFAULT_DEEPEST = 64  # fair deals played per backward search: the longest in tricks

# --- search hunt (strategies/hunt.py) --------------------------------------------------------

HUNT_FOUND = 64  # new cycles kept per chunk; more are counted, not kept

# --- search factory (strategies/factory/; measurements in docs/factory.md) ------------------

SEED_CHUNK_TRIES = 1 << 16  # random states per seeding chunk
SEED_CHUNKS = 16  # seeding chunks a round of a run from nothing (``--seed-tries``' default)
RANDOM_SEEDING_CARDS = 24  # the default ``--seeding``: random up to this many cards, grow above
SEED_FOUND = 64  # cycles a seeding chunk keeps
SEED_ROUNDS = 64  # seeding rounds of a run from nothing, at most
GROW_CHUNKS = 2  # skeleton-and-pad chunks a round (each its own stream), for two workers
SEED_PATIENCE = 8  # rounds in a row meeting nothing new that end the seeding, at least
GROW_PATIENCE = 2  # the same for skeleton-and-pad rounds (minutes each on a large deck)
GROW_CHUNK_TRIES = 1 << 21  # pad tries of a skeleton-and-pad piece (seconds on one core)
GROW_STAGE = 4  # pieces of each lineage planned together, before the cycles are read back
# random fair deals a random seeding chunk also plays (the fast kernels play them about
# four times as fast as the general engine plays random states)
SEED_CHUNK_FAIR = 4 * SEED_CHUNK_TRIES
KICK_CHUNK_TRIES = 1 << 21  # kicks a kick chunk plays
KICK_CHUNKS = 4  # kick chunks a kick round (kinds in turn)
KICK_FOUND = 64  # new cycles a kick chunk keeps
# a kick chunk after every this many walk chunks of a generation (docs/results.md: new cycles
# met by kicks 6.3 and 4.9 per million kicks, against 1.3 and 0.5 between generations only)
KICK_EVERY = 32
KICK_STATES = 8192  # states a kick chunk draws its kicks from, at most (a random sample)
REACH_STATES = 5_000_000  # budget of the backward search on each cycle catalogued (and hunt's)

# --- the factory's skeleton-and-pad seeding (strategies/factory/seeding.py) -----------------

GROW_MAX_CYCLES = 500  # cycles kept per deck size while growing
GROW_MAX_STATES = 40_000  # states a growth step (or the padding) starts from
SMALL_DECK = (8, 2, 3, 3, 3)  # the small deck: at most so many cards of each value
SMALL_DECK_TRIES = 1 << 20  # random states of the small deck
PAD_BUDGET = 50_000_000  # pad tries of a skeleton and pad, at most
PAD_WANT = 16  # full-size cycles a padding (or a piece of one) keeps

# --- the factory's moves (cycles/moves.py) ---------------------------------------------------

# the move kinds, numbered in this order (a stored move number keeps its meaning: a new kind
# goes last, and cycles/moves.py numbers its kernels' kinds from this)
MOVE_NAMES = ("swap", "card", "block", "leader", "split", "exchange")
DEFAULT_MOVES = MOVE_NAMES  # ``--moves``
DEFAULT_BLOCKS = (2, 20)  # ``--blocks``: lengths of the blocks a block move moves
DEFAULT_EXCHANGES = (2, 6)  # ``--exchanges``: lengths of the two blocks an exchange swaps

# --- the factory's kicks (cycles/perturb.py) -------------------------------------------------

KICK_NAMES = ("swaps", "cards", "blocks", "exchanges", "mixed")  # kick kinds: what a kick moves
DEFAULT_KICKS = ("swaps", "mixed")  # ``--kicks``
DEFAULT_KICK_MOVES = (2, 3)  # ``--kick-moves``: random moves a kick makes
DEFAULT_KICK_SHIFT = 2  # ``--kick-shift``: the largest shift of the split after them
KICK_BLOCKS = (2, 6)  # lengths of the blocks a kick moves or exchanges (frozen in the kernels)

# --- reach (backward/reach.py) ---------------------------------------------------------------

REACH_MAX_STATES = 20_000_000  # ``reach --max-states``: states a backward search finds at most
