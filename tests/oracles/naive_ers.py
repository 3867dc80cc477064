"""Slow, obviously correct reference engine ("oracle") for Egyptian ratscrew.

Follows the Egyptian ratscrew section of ``docs/rules.md`` literally: Beggar-my-neighbour
play (as ``tests/oracles/naive.py``) plus slaps.  Pure Python, standard library only.

Cards are rank codes 0-12 (``2 3 4 5 6 7 8 9 T J Q K A``); a hand is a sequence of codes,
index 0 = top card.  Players are numbered from 0 here; results report the winner from 1
(0 = no winner: a loop, or a tie at the cap).

``policy`` is ``("none",)``, ``("first", P)`` (P from 0), ``("turn",)`` or
``("odds", (p_1, ..., p_N))``; ``slaps`` a set of ``"pair"`` and ``"sandwich"``.
Under odds each game draws from its own xoshiro256** stream, seeded from the run's slap
key and the game's starting hands (``game_stream``), so the oracle and the kernel draw
the same numbers.
"""

from collections import deque

from naive import play_one_trick

RANKS = "23456789TJQKA"
VALUES = (0,) * 9 + (1, 2, 3, 4)
MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def parse_ranked(text):
    return [[RANKS.index(c) for c in part] for part in text.split("/")]


def mix64(z):
    """The splitmix64 finaliser on an unsigned 64-bit integer."""
    z &= MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def game_stream(key, hands):
    """The four xoshiro256** words of a game: the slap key, then every starting card."""
    z = key & MASK
    for hand in hands:
        for card in hand:
            z = mix64(z + card + 1)
    return [mix64(z + (i + 1) * GOLDEN) for i in range(4)]


def _rotl(x, k):
    return ((x << k) | (x >> (64 - k))) & MASK


def next_u64(s):
    result = (_rotl((s[1] * 5) & MASK, 7) * 9) & MASK
    t = (s[1] << 17) & MASK
    s[2] ^= s[0]
    s[3] ^= s[1]
    s[1] ^= s[2]
    s[0] ^= s[3]
    s[2] ^= t
    s[3] = _rotl(s[3], 45)
    return result


def uniform(s):
    """A float in [0, 1) from the top 53 bits of the next draw."""
    return (next_u64(s) >> 11) * (1.0 / (1 << 53))


def slap_pattern(pile, slaps):
    """Whether the pile's top cards show a pattern of the rule set."""
    if "pair" in slaps and len(pile) >= 2 and pile[-1] == pile[-2]:
        return True
    return "sandwich" in slaps and len(pile) >= 3 and pile[-1] == pile[-3]


def choose_slapper(policy, may_slap, layer, stream):
    """The player who wins a slap, or None; ``may_slap[p]`` says who may slap."""
    count = len(may_slap)
    kind = policy[0]
    if kind == "none":
        return None
    if kind in ("first", "turn"):
        start = policy[1] if kind == "first" else (layer + 1) % count
        for step in range(count):
            player = (start + step) % count
            if may_slap[player]:
                return player
        return None
    odds = policy[1]
    u = uniform(stream)  # one draw per pattern shown
    total = sum(odds[p] for p in range(count) if may_slap[p])
    if total <= 0:
        return None
    target = u * total
    acc = 0.0
    chosen = None
    for player in range(count):
        if may_slap[player] and odds[player] > 0:
            acc += odds[player]
            chosen = player
            if target < acc:
                return player
    return chosen


def play_trick(hands, leader, slaps, policy, slap_in, stream):
    """One trick in place on ``hands`` (deques); returns (taker, cards laid, slapped).

    Beggar-my-neighbour's trick (``naive.play_one_trick``) on rank values, with a slap
    asked for after every card laid."""
    slapped = []

    def slap(pile, current, still_in):
        if not slap_pattern(pile, slaps):
            return None
        may_slap = [True] * len(hands) if slap_in else list(still_in)
        slapper = choose_slapper(policy, may_slap, current, stream)
        if slapper is not None:
            slapped.append(slapper)
        return slapper

    taker, laid = play_one_trick(hands, leader, VALUES.__getitem__, slap)
    return taker, laid, bool(slapped)


def play_ers_naive(hands, leader=0, slaps=("pair",), policy=("none",), slap_in=False,
                   max_tricks=None, key=0):
    """Play a whole game; a dict as ``naive.play_naive``'s plus ``slaps`` (slaps made).

    Under deterministic policies a repeated trick-boundary state is a loop; under odds
    nothing is a loop and ``max_tricks`` must be given.
    """
    slaps = set(slaps)
    randomised = policy[0] == "odds"
    if randomised and not max_tricks:
        raise ValueError("odds need a cap")
    stream = game_stream(key, hands) if randomised else None
    working = [deque(hand) for hand in hands]

    def result(outcome, winner, pre=(0, 0), period=(0, 0)):
        return {"outcome": outcome, "cards": cards, "tricks": tricks, "winner": winner,
                "hand_sizes": [len(h) for h in working], "preperiod_tricks": pre[0],
                "preperiod_cards": pre[1], "period_tricks": period[0],
                "period_cards": period[1], "slaps": slap_count}

    cards = tricks = slap_count = 0
    holding = [p for p, h in enumerate(working) if h]
    if len(holding) == 1:
        return result("win", holding[0] + 1)
    if not working[leader]:
        leader = min(holding, key=lambda p: (p - leader) % len(working))
    seen = {}
    if not randomised:
        seen[(tuple(tuple(h) for h in working), leader)] = (0, 0)
    while True:
        taker, laid, slapped = play_trick(working, leader, slaps, policy, slap_in, stream)
        cards += laid
        tricks += 1
        slap_count += slapped
        leader = taker
        holding = [p for p, h in enumerate(working) if h]
        if len(holding) == 1:
            return result("win", holding[0] + 1)
        if not randomised:
            state = (tuple(tuple(h) for h in working), leader)
            if state in seen:
                first_tricks, first_cards = seen[state]
                return result("loop", 0, (first_tricks, first_cards),
                              (tricks - first_tricks, cards - first_cards))
            seen[state] = (tricks, cards)
        if max_tricks and tricks == max_tricks:
            sizes = [len(h) for h in working]
            holders = [p for p, s in enumerate(sizes) if s == max(sizes)]
            return result("cap", holders[0] + 1 if len(holders) == 1 else 0)
