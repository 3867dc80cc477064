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

import difflib
from collections.abc import Sequence
from dataclasses import dataclass
from math import factorial
from typing import ClassVar

import numpy as np

MAX_CARDS = 64
MAX_PLAYERS = 8
N_VALUES = 5
LETTERS = "-JQKA"
KIND_NAMES = ("plain", "J", "Q", "K", "A")
# letter case does not matter (as in ratscrew's ranked deals): 'k' is a king
_CHAR_VALUE = {**{c: v for v, c in enumerate(LETTERS)},
               **{c.lower(): v for v, c in enumerate(LETTERS)},
               **{str(v): v for v in range(N_VALUES)}}
_KIND_VALUE = {
    **{name.lower(): v for v, name in enumerate(KIND_NAMES)},
    **{str(v): v for v in range(N_VALUES)},
    "-": 0,
}
RANKS = set("23456789T")  # Egyptian ratscrew's plain ranks (``ranked``): not this notation's
NAMED_DECKS = {
    "standard": (36, 4, 4, 4, 4),
    "camicia": (28, 4, 4, 4, 0),
}


class DeckError(ValueError):
    """A deck spec or a deal that does not fit its deck."""


class CardCounts:
    """A deck as counts per kind of card, shared by ``Deck`` and ``ranked.RankedDeck``.

    A subclass sets ``NAMED`` (named decks), ``LABELS`` (a kind's name in specs),
    ``KIND_WORD`` (before a label in messages), ``NOUN``, ``CARD_WORD`` and ``kind_of``.
    """

    counts: tuple[int, ...]
    NAMED: ClassVar[dict[str, tuple[int, ...]]]
    LABELS: ClassVar[Sequence[str]]
    KIND_WORD: ClassVar[str] = ""
    NOUN: ClassVar[str]
    CARD_WORD: ClassVar[str]

    def __post_init__(self) -> None:
        if len(self.counts) != len(self.LABELS) or any(c < 0 for c in self.counts):
            raise DeckError(
                f"a {self.NOUN} needs {len(self.LABELS)} non-negative counts, got {self.counts}"
            )
        if not 2 <= self.size <= MAX_CARDS:
            raise DeckError(f"a deck holds 2 to {MAX_CARDS} cards, this one has {self.size}")

    @classmethod
    def of(cls, deck):
        """``deck`` itself if it is one, else ``parse(deck)``."""
        return deck if isinstance(deck, cls) else cls.parse(deck)

    @classmethod
    def kind_of(cls, key: str, spec: str, has_count: bool) -> int:
        """The card kind (value or rank code) a deck spec key names; ``DeckError`` when none."""
        raise NotImplementedError

    @classmethod
    def parse(cls, spec: str | None):
        """A named deck (``standard`` when None: ``Deck`` also knows ``camicia``) or counts
        such as ``plain=14,J=2,Q=2,K=2`` (``Deck``) or ``9=2,T=2,J=2,Q=2,K=2,A=2`` (ranks)."""
        return cls(cls.parse_counts("standard" if spec is None else spec))

    @classmethod
    def parse_counts(cls, spec: str) -> tuple[int, ...]:
        """The counts of a named deck or of a spec of ``kind=count`` parts."""
        text = spec.strip()
        if text.lower() in cls.NAMED:
            return cls.NAMED[text.lower()]
        if "=" not in text:  # a name: a misspelt one gets the nearest (`camica`: camicia)
            near = difflib.get_close_matches(text.lower(), list(cls.NAMED), n=1, cutoff=0.6)
            if near:
                raise DeckError(f"unknown {cls.NOUN} {spec!r}: did you mean {near[0]}?")
        counts = [0] * len(cls.LABELS)
        seen = set()
        for part in text.split(","):
            key, sep, value = part.partition("=")
            kind = cls.kind_of(key.strip(), spec, bool(sep))
            name = cls.KIND_WORD + cls.LABELS[kind]
            if kind in seen:
                raise DeckError(f"deck {spec!r} names {name} twice")
            seen.add(kind)
            try:
                counts[kind] = int(value)
            except ValueError:
                raise DeckError(f"deck {spec!r}: {value.strip()!r} is not a count") from None
            if counts[kind] < 0:
                raise DeckError(f"deck {spec!r}: negative count for {name}")
        return tuple(counts)

    @property
    def size(self) -> int:
        """Number of cards in the deck."""
        return sum(self.counts)

    @property
    def spec(self) -> str:
        """The deck's name (``standard``, ``camicia``) or its counts, as ``--deck`` takes them."""
        for name, counts in self.NAMED.items():
            if counts == self.counts:
                return name
        return ",".join(f"{self.LABELS[v]}={c}" for v, c in enumerate(self.counts) if c)

    def split(self, players: int) -> tuple[int, ...]:
        """Hand sizes of the even split between ``players``."""
        raise NotImplementedError

    def count_deals(self, players: int = 2) -> int:
        """Number of distinct deals (orderings of the multiset; the split is fixed)."""
        self.split(players)
        return multinomial(self.counts)

    def sorted_cards(self) -> np.ndarray:
        """The deck's cards in kind order, as a ``uint8`` array."""
        return np.repeat(np.arange(len(self.LABELS), dtype=np.uint8), self.counts)


@dataclass(frozen=True)
class Deck(CardCounts):
    """Counts of cards per value: ``counts[v]`` cards of value ``v``."""

    counts: tuple[int, int, int, int, int]
    NAMED = NAMED_DECKS
    LABELS = KIND_NAMES
    NOUN = "deck"
    CARD_WORD = "card value"

    @classmethod
    def kind_of(cls, key: str, spec: str, has_count: bool) -> int:
        """The card value a deck spec key (``plain``, ``J``, ...) names; ``DeckError`` when none."""
        if not has_count and "=" not in spec:
            raise DeckError(
                f"unknown deck {spec!r}: use standard, camicia, or counts like "
                "plain=14,J=2,Q=2,K=2"
            )
        if not has_count:
            raise DeckError(f"deck {spec!r}: {key!r} has no count (write it as {key}=2)")
        if key.lower() not in _KIND_VALUE:
            raise DeckError(f"deck {spec!r}: unknown card value {key!r} (the values are"
                            f" {', '.join(KIND_NAMES)}; - or 0 for plain)")
        return _KIND_VALUE[key.lower()]

    def split(self, players: int) -> tuple[int, ...]:
        """Hand sizes of the even split: the first players hold one card more."""
        check_players(players, self)
        base, extra = divmod(self.size, players)
        return tuple(base + (1 if p < extra else 0) for p in range(players))


STANDARD = Deck(NAMED_DECKS["standard"])


def check_players(players: int, deck: CardCounts) -> None:
    """Raise ``DeckError`` unless ``players`` is 2 to ``MAX_PLAYERS`` and ``deck`` has a card for
    each."""
    if players == 1:
        raise DeckError("one hand found: a deal has 2 to 8 hands, separated by '/'")
    if not 2 <= players <= MAX_PLAYERS:
        raise DeckError(f"players must be 2 to {MAX_PLAYERS}, got {players}")
    if deck.size < players:
        raise DeckError(f"a deck of {deck.size} cards cannot be dealt to {players} players")


@dataclass(frozen=True)
class HandsDeal:
    """One hand per player, top card first, with its deck: shared by ``Deal`` and
    ``ranked.RankedDeal``.  A subclass sets ``DECK`` (its deck class)."""

    hands: tuple[tuple[int, ...], ...]
    deck: CardCounts | None = None
    DECK: ClassVar[type]
    LETTERS: ClassVar[str]

    NOTATION: ClassVar[tuple]  # parse_hands's codes, bad_word and use

    @classmethod
    def parse(cls, text: str, deck=None):
        """The deal written in ``text`` (``/`` between hands), checked against ``deck``."""
        return cls.from_hands(parse_hands(text, *cls.NOTATION), deck)

    def __str__(self) -> str:
        return format_hands(self.hands, self.LETTERS)

    @classmethod
    def from_hands(cls, hands, deck=None):
        """The deal of ``hands`` (card codes, top first), checked against ``deck``."""
        deal = cls(tuple(tuple(int(c) for c in hand) for hand in hands), cls.DECK.of(deck))
        deal.validate()
        return deal

    @classmethod
    def from_sequence(cls, cards, players: int, deck=None):
        """Split a card sequence (hands concatenated) evenly between ``players``."""
        deck = cls.DECK.of(deck)
        cards = [int(c) for c in cards]
        hands, start = [], 0
        for size in deck.split(players):
            hands.append(cards[start : start + size])
            start += size
        if start != len(cards):
            raise DeckError(f"{len(cards)} cards given for a deck of {deck.size}")
        return cls.from_hands(hands, deck)

    def validate(self) -> None:
        """Raise ``DeckError`` unless 2 to ``MAX_PLAYERS`` hands hold exactly the deck's
        cards."""
        players = len(self.hands)
        check_players(players, self.deck)
        kinds = len(self.deck.LABELS)
        counts = [0] * kinds
        for hand in self.hands:
            for card in hand:
                if not 0 <= card < kinds:
                    raise DeckError(f"{self.deck.CARD_WORD} {card} is not 0-{kinds - 1}")
                counts[card] += 1
        if tuple(counts) != self.deck.counts:
            wrong = ", ".join(
                f"{self.deck.LABELS[v]} {counts[v]} (deck has {self.deck.counts[v]})"
                for v in range(kinds)
                if counts[v] != self.deck.counts[v]
            )
            named = [name for name, named_counts in self.deck.NAMED.items()
                     if named_counts == tuple(counts)]
            hint = f"; its cards are deck {named[0]}: add --deck {named[0]}" if named else ""
            raise DeckError(f"deal does not match {self.deck.NOUN} {self.deck.spec}:"
                            f" {wrong}{hint}")
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
        """The cards of every hand in order, hand 1 first, top card first."""
        return tuple(c for hand in self.hands for c in hand)

    def rank(self) -> int:
        """The deal's index among the orderings of its deck (see ``rank_sequence``)."""
        return rank_sequence(self.sequence, self.deck)

    @classmethod
    def unrank(cls, index: int, deck=None, players: int = 2):
        """The deal of index ``index`` among the orderings of ``deck``, split evenly between
        ``players``."""
        deck = cls.DECK.of(deck)
        return cls.from_sequence(unrank_sequence(index, deck), players, deck)


@dataclass(frozen=True)
class Deal(HandsDeal):
    """One hand per player, top card first, with the deck it is dealt from."""

    deck: Deck = STANDARD
    DECK = Deck
    LETTERS = LETTERS
    NOTATION = (_CHAR_VALUE, "characters", "- J Q K A or 0-4")


def parse_hands(text: str, codes: dict[str, int] = _CHAR_VALUE, bad_word: str = "characters",
                use: str = "- J Q K A or 0-4") -> list[tuple[int, ...]]:
    """Hands from notation (``/`` between hands, top card first), with no deck check;
    ``codes`` maps a letter to its card (values by default, ranks for ``ranked``)."""
    text = text.strip()
    if not text:
        raise DeckError("empty deal: write one hand per player separated by '/'")
    hands = []
    for number, hand_text in enumerate(text.split("/"), start=1):
        hand_text = hand_text.strip()
        bad = sorted({c for c in hand_text if c not in codes})
        if bad:
            hint = ("; ranks such as 2-9 and T are Egyptian ratscrew's cards (add --game ers"
                    " and a ranked --deck)" if codes is _CHAR_VALUE and set(bad) <= RANKS
                    else "")
            raise DeckError(f"hand {number} has {bad_word} {''.join(bad)!r}: use {use}{hint}")
        hands.append(tuple(codes[c] for c in hand_text))
    return hands


def format_hands(hands, letters: str = LETTERS) -> str:
    """``hands`` in notation: one letter of ``letters`` per card, top first, ``/`` between hands."""
    return "/".join("".join(letters[int(c)] for c in hand) for hand in hands)


def format_state(hands, leader: int, letters: str = LETTERS) -> str:
    """A trick-boundary state with its leader: ``'2:--J/Q--'`` (leader from 1)."""
    return f"{leader + 1}:{format_hands(hands, letters)}"


def parse_state(text: str) -> tuple[list[list[int]], int]:
    """``'2:--J/Q--'`` (leader from 1, then hands) -> (hands, 0-based leader)."""
    leader, _, hands = text.partition(":")
    return [list(hand) for hand in parse_hands(hands)], int(leader) - 1


def multinomial(counts) -> int:
    """The number of distinct orderings of a multiset with these ``counts``."""
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
