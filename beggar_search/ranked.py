"""Ranked cards for Egyptian ratscrew: decks, deal notation, the deal index, the map to
Beggar-my-neighbour.

A ranked card is its rank code: 0 to 12 for ``2 3 4 5 6 7 8 9 T J Q K A`` (the letter of
code r is ``RANKS[r]``).  Its Beggar-my-neighbour value (cards owed) is ``RANK_VALUES[r]``:
0 for 2 to T, then 1 jack, 2 queen, 3 king, 4 ace.  A ranked deck is the count of cards
of each rank (``standard``: 4 of each, 52 cards).  A deal is one hand per player, top card
first, hands separated by ``/``: ``'2J9Q/KA3T'``.

Deal index: as ``deck``'s, over ranks: the hands concatenated, ranked lexicographically
among all distinct orderings of the deck (2 < 3 < ... < A).  The split is the even one.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .deck import MAX_CARDS, Deal, Deck, DeckError, check_players, multinomial, rank_sequence
from .deck import unrank_sequence as unrank_cards

RANKS = "23456789TJQKA"
N_RANKS = len(RANKS)
RANK_VALUES = (0,) * 9 + (1, 2, 3, 4)  # cards owed, per rank code
_RANK_CODE = {**{letter: code for code, letter in enumerate(RANKS)},
              **{letter.lower(): code for code, letter in enumerate(RANKS)}, "10": 8}
NAMED_RANKED_DECKS = {"standard": (4,) * N_RANKS}


@dataclass(frozen=True)
class RankedDeck:
    """Counts of cards per rank: ``counts[r]`` cards of rank ``RANKS[r]``."""

    counts: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.counts) != N_RANKS or any(c < 0 for c in self.counts):
            raise DeckError(f"a ranked deck needs {N_RANKS} non-negative counts, got {self.counts}")
        if not 2 <= self.size <= MAX_CARDS:
            raise DeckError(f"a deck holds 2 to {MAX_CARDS} cards, this one has {self.size}")

    @classmethod
    def parse(cls, spec: str | None) -> RankedDeck:
        """``standard`` (4 of each rank) or counts per rank such as ``9=2,T=2,J=2,Q=2,K=2,A=2``."""
        if spec is None:
            return STANDARD_RANKED
        text = spec.strip()
        if text.lower() in NAMED_RANKED_DECKS:
            return cls(NAMED_RANKED_DECKS[text.lower()])
        counts = [0] * N_RANKS
        seen = set()
        for part in text.split(","):
            key, sep, value = part.partition("=")
            key = key.strip()
            if not sep:
                raise DeckError(f"unknown ranked deck {spec!r}: use standard, or counts per rank "
                                "like 9=2,T=2,J=2,Q=2,K=2,A=2")
            if key not in _RANK_CODE:
                raise DeckError(f"unknown rank {key!r} in deck {spec!r}: ranks are "
                                f"{' '.join(RANKS)}")
            rank = _RANK_CODE[key]
            if rank in seen:
                raise DeckError(f"deck {spec!r} names rank {RANKS[rank]} twice")
            seen.add(rank)
            try:
                counts[rank] = int(value)
            except ValueError:
                raise DeckError(f"deck {spec!r}: {value.strip()!r} is not a count") from None
            if counts[rank] < 0:
                raise DeckError(f"deck {spec!r}: negative count for rank {RANKS[rank]}")
        return cls(tuple(counts))

    @property
    def size(self) -> int:
        """Number of cards in the deck."""
        return sum(self.counts)

    @property
    def spec(self) -> str:
        """The deck's name or its rank counts, as ``--deck`` takes them."""
        for name, counts in NAMED_RANKED_DECKS.items():
            if counts == self.counts:
                return name
        return ",".join(f"{RANKS[r]}={c}" for r, c in enumerate(self.counts) if c)

    def split(self, players: int) -> tuple[int, ...]:
        """Hand sizes of the even split (as ``Deck.split``)."""
        return self.bmn_deck.split(players)

    def count_deals(self, players: int = 2) -> int:
        """Number of distinct deals (orderings of the multiset; the split is fixed)."""
        self.split(players)
        return multinomial(self.counts)

    def sorted_cards(self) -> np.ndarray:
        """The deck's cards in rank order, as a ``uint8`` array of rank codes."""
        return np.repeat(np.arange(N_RANKS, dtype=np.uint8), self.counts)

    @property
    def bmn_deck(self) -> Deck:
        """The Beggar-my-neighbour deck of the same cards (ranks 2 to T become plain)."""
        values = [0] * 5
        for rank, count in enumerate(self.counts):
            values[RANK_VALUES[rank]] += count
        return Deck(tuple(values))


STANDARD_RANKED = RankedDeck(NAMED_RANKED_DECKS["standard"])


def as_ranked_deck(deck: RankedDeck | str | None) -> RankedDeck:
    """``deck`` as a ``RankedDeck``: a spec (or ``None``, the standard deck) is parsed."""
    return deck if isinstance(deck, RankedDeck) else RankedDeck.parse(deck)


@dataclass(frozen=True)
class RankedDeal:
    """One hand of rank codes per player, top card first, with its ranked deck."""

    hands: tuple[tuple[int, ...], ...]
    deck: RankedDeck = STANDARD_RANKED

    @classmethod
    def parse(cls, text: str, deck: RankedDeck | str | None = None) -> RankedDeal:
        """The ranked deal written in ``text`` (``/`` between hands), checked against ``deck``."""
        return cls.from_hands(parse_ranked_hands(text), deck)

    @classmethod
    def from_hands(cls, hands, deck: RankedDeck | str | None = None) -> RankedDeal:
        """The ranked deal of ``hands`` (rank codes, top first), checked against ``deck``."""
        deal = cls(tuple(tuple(int(c) for c in hand) for hand in hands), as_ranked_deck(deck))
        deal.validate()
        return deal

    @classmethod
    def from_sequence(cls, cards, players: int,
                      deck: RankedDeck | str | None = None) -> RankedDeal:
        """Split a card sequence (hands concatenated) evenly between ``players``."""
        deck = as_ranked_deck(deck)
        cards = [int(c) for c in cards]
        hands, start = [], 0
        for size in deck.split(players):
            hands.append(cards[start:start + size])
            start += size
        if start != len(cards):
            raise DeckError(f"{len(cards)} cards given for a deck of {deck.size}")
        return cls.from_hands(hands, deck)

    def validate(self) -> None:
        """Raise ``DeckError`` unless the hands hold exactly the deck's cards, split evenly."""
        players = len(self.hands)
        check_players(players, self.deck.bmn_deck)
        counts = [0] * N_RANKS
        for hand in self.hands:
            for card in hand:
                if not 0 <= card < N_RANKS:
                    raise DeckError(f"rank code {card} is not 0-{N_RANKS - 1}")
                counts[card] += 1
        if tuple(counts) != self.deck.counts:
            wrong = ", ".join(f"{RANKS[r]} {counts[r]} (deck has {self.deck.counts[r]})"
                              for r in range(N_RANKS) if counts[r] != self.deck.counts[r])
            raise DeckError(f"deal does not match ranked deck {self.deck.spec}: {wrong}")
        sizes = tuple(len(h) for h in self.hands)
        if sizes != self.deck.split(players):
            raise DeckError(
                f"hands of {'/'.join(map(str, sizes))} cards are not the even split "
                f"{'/'.join(map(str, self.deck.split(players)))} for {players} players")

    @property
    def players(self) -> int:
        """Number of players (hands)."""
        return len(self.hands)

    @property
    def sequence(self) -> tuple[int, ...]:
        """The hands concatenated, player 1's first."""
        return tuple(c for hand in self.hands for c in hand)

    def __str__(self) -> str:
        return format_ranked_hands(self.hands)

    def rank(self) -> int:
        """The deal's index among the orderings of its deck (the inverse of ``unrank``)."""
        return rank_sequence(self.sequence, self.deck)

    @classmethod
    def unrank(cls, index: int, deck: RankedDeck | str | None = None,
               players: int = 2) -> RankedDeal:
        """The deal of index ``index`` among the orderings of ``deck``, split evenly between
        ``players``."""
        deck = as_ranked_deck(deck)
        return cls.from_sequence(unrank_cards(index, deck), players, deck)

    def to_bmn(self) -> Deal:
        """The Beggar-my-neighbour deal of the same cards: ranks 2 to T become ``-``."""
        return Deal.from_hands([[RANK_VALUES[c] for c in hand] for hand in self.hands],
                               self.deck.bmn_deck)


def parse_ranked_hands(text: str) -> list[tuple[int, ...]]:
    """Hands of rank codes from notation (``/`` between hands, top card first)."""
    text = text.strip()
    if not text:
        raise DeckError("empty deal: write one hand per player separated by '/'")
    hands = []
    for number, hand_text in enumerate(text.split("/"), start=1):
        hand_text = hand_text.strip()
        bad = sorted({c for c in hand_text if c not in _RANK_CODE})
        if bad:
            raise DeckError(f"hand {number} has unknown rank letters {''.join(bad)!r}: "
                            f"use {RANKS} (ranks 2 to 9, T, J, Q, K, A)")
        hands.append(tuple(_RANK_CODE[c] for c in hand_text))
    return hands


def format_ranked_hands(hands) -> str:
    """``hands`` in notation: one rank character per card, top first, ``/`` between hands."""
    return "/".join("".join(RANKS[int(c)] for c in hand) for hand in hands)


def format_ranked_state(hands, leader: int) -> str:
    """A trick-boundary state with its leader from 1: ``'2:T9/JQ'``."""
    return f"{leader + 1}:{format_ranked_hands(hands)}"
