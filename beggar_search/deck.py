"""Decks and deal notation: parse, format, validate, rank and unrank.

A trick-boundary state (any split) is written with its leader first, from 1:
``'2:--J/Q--'`` (``format_state``, ``parse_state``).

A card is its value only: 0 plain, 1 jack, 2 queen, 3 king, 4 ace (cards owed).
A deck is the count of cards of each value.  A deal is one hand per player,
top card first; player 1 leads.

Deal index (stable across versions): the deal's cards, hands concatenated in
player order, read as one sequence of values, ranked lexicographically among
all distinct orderings of the deck's multiset (value 0 < 1 < ... < 4).  The hand
split is the even split for the number of players, so a sequence and a player
count determine the deal.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import factorial

import numpy as np

MAX_CARDS = 64
MAX_PLAYERS = 8
N_VALUES = 5
LETTERS = "-JQKA"
KIND_NAMES = ("plain", "J", "Q", "K", "A")
_CHAR_VALUE = {**{c: v for v, c in enumerate(LETTERS)}, **{str(v): v for v in range(N_VALUES)}}
_KIND_VALUE = {
    **{name.lower(): v for v, name in enumerate(KIND_NAMES)},
    **{str(v): v for v in range(N_VALUES)},
    "-": 0,
}
NAMED_DECKS = {
    "standard": (36, 4, 4, 4, 4),
    "camicia": (28, 4, 4, 4, 0),
}


class DeckError(ValueError):
    """A deck spec or a deal that does not fit its deck."""


@dataclass(frozen=True)
class Deck:
    """Counts of cards per value: ``counts[v]`` cards of value ``v``."""

    counts: tuple[int, int, int, int, int]

    def __post_init__(self) -> None:
        if len(self.counts) != N_VALUES or any(c < 0 for c in self.counts):
            raise DeckError(f"a deck needs {N_VALUES} non-negative counts, got {self.counts}")
        if not 2 <= self.size <= MAX_CARDS:
            raise DeckError(f"a deck holds 2 to {MAX_CARDS} cards, this one has {self.size}")

    @classmethod
    def parse(cls, spec: str | None) -> Deck:
        """``standard``, ``camicia`` or counts such as ``plain=14,J=2,Q=2,K=2``."""
        if spec is None:
            return STANDARD
        text = spec.strip()
        if text.lower() in NAMED_DECKS:
            return cls(NAMED_DECKS[text.lower()])
        counts = [0] * N_VALUES
        seen = set()
        for part in text.split(","):
            key, sep, value = part.partition("=")
            key = key.strip().lower()
            if not sep or key not in _KIND_VALUE:
                raise DeckError(
                    f"unknown deck {spec!r}: use standard, camicia, or counts like "
                    "plain=14,J=2,Q=2,K=2"
                )
            kind = _KIND_VALUE[key]
            if kind in seen:
                raise DeckError(f"deck {spec!r} names {KIND_NAMES[kind]} twice")
            seen.add(kind)
            try:
                counts[kind] = int(value)
            except ValueError:
                raise DeckError(f"deck {spec!r}: {value.strip()!r} is not a count") from None
            if counts[kind] < 0:
                raise DeckError(f"deck {spec!r}: negative count for {KIND_NAMES[kind]}")
        return cls(tuple(counts))

    @property
    def size(self) -> int:
        """Number of cards in the deck."""
        return sum(self.counts)

    @property
    def spec(self) -> str:
        """The deck's name (``standard``, ``camicia``) or its counts, as ``--deck`` takes them."""
        for name, counts in NAMED_DECKS.items():
            if counts == self.counts:
                return name
        return ",".join(f"{KIND_NAMES[v]}={c}" for v, c in enumerate(self.counts) if c)

    def split(self, players: int) -> tuple[int, ...]:
        """Hand sizes of the even split: the first players hold one card more."""
        check_players(players, self)
        base, extra = divmod(self.size, players)
        return tuple(base + (1 if p < extra else 0) for p in range(players))

    def count_deals(self, players: int = 2) -> int:
        """Number of distinct deals (orderings of the multiset; the split is fixed)."""
        self.split(players)
        return multinomial(self.counts)

    def sorted_cards(self) -> np.ndarray:
        """The deck's cards in value order, as a ``uint8`` array."""
        return np.repeat(np.arange(N_VALUES, dtype=np.uint8), self.counts)


STANDARD = Deck(NAMED_DECKS["standard"])


def check_players(players: int, deck: Deck) -> None:
    """Raise ``DeckError`` unless ``players`` is 2 to ``MAX_PLAYERS`` and ``deck`` has a card for
    each."""
    if not 2 <= players <= MAX_PLAYERS:
        raise DeckError(f"players must be 2 to {MAX_PLAYERS}, got {players}")
    if deck.size < players:
        raise DeckError(f"a deck of {deck.size} cards cannot be dealt to {players} players")


@dataclass(frozen=True)
class Deal:
    """One hand per player, top card first, with the deck it is dealt from."""

    hands: tuple[tuple[int, ...], ...]
    deck: Deck = STANDARD

    @classmethod
    def parse(cls, text: str, deck: Deck | str | None = None) -> Deal:
        """The deal written in ``text`` (``/`` between hands), checked against ``deck``."""
        return cls.from_hands(parse_hands(text), deck)

    @classmethod
    def from_hands(cls, hands, deck: Deck | str | None = None) -> Deal:
        """The deal of ``hands`` (card values, top first), checked against ``deck``."""
        deck = deck if isinstance(deck, Deck) else Deck.parse(deck)
        deal = cls(tuple(tuple(int(c) for c in hand) for hand in hands), deck)
        deal.validate()
        return deal

    @classmethod
    def from_sequence(cls, cards, players: int, deck: Deck | str | None = None) -> Deal:
        """Split a card sequence (hands concatenated) evenly between ``players``."""
        deck = deck if isinstance(deck, Deck) else Deck.parse(deck)
        cards = [int(c) for c in cards]
        hands, start = [], 0
        for size in deck.split(players):
            hands.append(cards[start : start + size])
            start += size
        if start != len(cards):
            raise DeckError(f"{len(cards)} cards given for a deck of {deck.size}")
        return cls.from_hands(hands, deck)

    def validate(self) -> None:
        """Raise ``DeckError`` unless the hands hold exactly the deck's cards, split evenly."""
        players = len(self.hands)
        check_players(players, self.deck)
        counts = [0] * N_VALUES
        for hand in self.hands:
            for card in hand:
                if not 0 <= card < N_VALUES:
                    raise DeckError(f"card value {card} is not 0-4")
                counts[card] += 1
        if tuple(counts) != self.deck.counts:
            wrong = ", ".join(
                f"{KIND_NAMES[v]} {counts[v]} (deck has {self.deck.counts[v]})"
                for v in range(N_VALUES)
                if counts[v] != self.deck.counts[v]
            )
            raise DeckError(f"deal does not match deck {self.deck.spec}: {wrong}")
        sizes = tuple(len(h) for h in self.hands)
        if sizes != self.deck.split(players):
            raise DeckError(
                f"hands of {'/'.join(map(str, sizes))} cards are not the even split "
                f"{'/'.join(map(str, self.deck.split(players)))} for {players} players"
            )

    @property
    def players(self) -> int:
        """Number of players (hands)."""
        return len(self.hands)

    @property
    def sequence(self) -> tuple[int, ...]:
        """The hands concatenated, player 1's first."""
        return tuple(c for hand in self.hands for c in hand)

    def __str__(self) -> str:
        return format_hands(self.hands)

    def rank(self) -> int:
        """The deal's index among the orderings of its deck (the inverse of ``unrank``)."""
        return rank_sequence(self.sequence, self.deck)

    @classmethod
    def unrank(cls, index: int, deck: Deck | str | None = None, players: int = 2) -> Deal:
        """The deal of index ``index`` among the orderings of ``deck``, split evenly between
        ``players``."""
        deck = deck if isinstance(deck, Deck) else Deck.parse(deck)
        return cls.from_sequence(unrank_sequence(index, deck), players, deck)


def parse_hands(text: str) -> list[tuple[int, ...]]:
    """Hands from notation (``/`` between hands, top card first), with no deck check."""
    text = text.strip()
    if not text:
        raise DeckError("empty deal: write one hand per player separated by '/'")
    hands = []
    for number, hand_text in enumerate(text.split("/"), start=1):
        hand_text = hand_text.strip()
        bad = sorted({c for c in hand_text if c not in _CHAR_VALUE})
        if bad:
            raise DeckError(f"hand {number} has characters {''.join(bad)!r}: use - J Q K A or 0-4")
        hands.append(tuple(_CHAR_VALUE[c] for c in hand_text))
    return hands


def format_hands(hands) -> str:
    """``hands`` in notation: one letter per card, top first, ``/`` between hands."""
    return "/".join("".join(LETTERS[int(c)] for c in hand) for hand in hands)


def format_state(hands, leader: int) -> str:
    """A trick-boundary state with its leader: ``'2:--J/Q--'`` (leader from 1)."""
    return f"{leader + 1}:{format_hands(hands)}"


def parse_state(text: str) -> tuple[list[list[int]], int]:
    """``'2:--J/Q--'`` (leader from 1, then hands) -> (hands, 0-based leader)."""
    leader, _, hands = text.partition(":")
    return [list(hand) for hand in parse_hands(hands)], int(leader) - 1


def multinomial(counts) -> int:
    """Number of distinct orderings of a multiset with these ``counts``."""
    result = factorial(sum(counts))
    for c in counts:
        result //= factorial(c)
    return result


def rank_sequence(sequence, deck: Deck) -> int:
    """Lexicographic rank of ``sequence`` among the orderings of ``deck`` (any deck with
    ``counts``, ``sorted_cards`` and ``spec``: a ranked deck too)."""
    remaining = list(deck.counts)
    if sorted(int(c) for c in sequence) != list(deck.sorted_cards()):
        raise DeckError(f"sequence does not match deck {deck.spec}")
    total = multinomial(remaining)
    left = len(sequence)
    index = 0
    for card in sequence:
        card = int(card)
        # orderings of the rest with value v first = total * remaining[v] / left
        for value in range(card):
            index += total * remaining[value] // left
        total = total * remaining[card] // left
        remaining[card] -= 1
        left -= 1
    return index


def unrank_sequence(index: int, deck: Deck) -> np.ndarray:
    """The card sequence with lexicographic rank ``index`` (inverse of rank_sequence)."""
    total = multinomial(deck.counts)
    if not 0 <= index < total:
        raise DeckError(f"index {index} out of range: deck {deck.spec} has {total} deals "
                        f"(0 to {total - 1})")
    remaining = list(deck.counts)
    left = deck.size
    out = np.empty(left, dtype=np.uint8)
    for position in range(deck.size):
        for value in range(len(remaining)):
            block = total * remaining[value] // left
            if index < block:
                out[position] = value
                total = block
                remaining[value] -= 1
                left -= 1
                break
            index -= block
    return out
