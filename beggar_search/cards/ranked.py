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

from .deck import (
    CardCounts,
    Deal,
    Deck,
    DeckError,
    HandsDeal,
    format_hands,
    format_state,
    parse_hands,
)

RANKS = "23456789TJQKA"
N_RANKS = len(RANKS)
RANK_VALUES = (0,) * 9 + (1, 2, 3, 4)  # cards owed, per rank code
_RANK_CODE = {**{letter: code for code, letter in enumerate(RANKS)},
              **{letter.lower(): code for code, letter in enumerate(RANKS)}, "10": 8}
NAMED_RANKED_DECKS = {"standard": (4,) * N_RANKS}


@dataclass(frozen=True)
class RankedDeck(CardCounts):
    """Counts of cards per rank: ``counts[r]`` cards of rank ``RANKS[r]``."""

    counts: tuple[int, ...]
    NAMED = NAMED_RANKED_DECKS
    LABELS = RANKS
    KIND_WORD = "rank "
    NOUN = "ranked deck"
    CARD_WORD = "rank code"

    @classmethod
    def kind_of(cls, key: str, spec: str, has_count: bool) -> int:
        """The rank code a deck spec key (``2``..``A``) names; ``DeckError`` when none."""
        if not has_count:
            raise DeckError(f"unknown ranked deck {spec!r}: use standard, or counts per rank "
                            "like 9=2,T=2,J=2,Q=2,K=2,A=2")
        if key not in _RANK_CODE:
            raise DeckError(f"unknown rank {key!r} in deck {spec!r}: ranks are "
                            f"{' '.join(RANKS)}")
        return _RANK_CODE[key]

    def split(self, players: int) -> tuple[int, ...]:
        """Hand sizes of the even split (as ``Deck.split``)."""
        return self.bmn_deck.split(players)

    @property
    def bmn_deck(self) -> Deck:
        """The Beggar-my-neighbour deck of the same cards (ranks 2 to T become plain)."""
        values = [0] * 5
        for rank, count in enumerate(self.counts):
            values[RANK_VALUES[rank]] += count
        return Deck(tuple(values))


STANDARD_RANKED = RankedDeck(NAMED_RANKED_DECKS["standard"])


@dataclass(frozen=True)
class RankedDeal(HandsDeal):
    """One hand of rank codes per player, top card first, with its ranked deck."""

    deck: RankedDeck = STANDARD_RANKED
    DECK = RankedDeck
    LETTERS = RANKS
    NOTATION = (_RANK_CODE, "unknown rank letters", f"{RANKS} (ranks 2 to 9, T, J, Q, K, A)")

    def to_bmn(self) -> Deal:
        """The Beggar-my-neighbour deal of the same cards: ranks 2 to T become ``-``."""
        return Deal.from_hands([[RANK_VALUES[c] for c in hand] for hand in self.hands],
                               self.deck.bmn_deck)


def parse_ranked_hands(text: str) -> list[tuple[int, ...]]:
    """Hands of rank codes from notation (``/`` between hands, top card first)."""
    return parse_hands(text, *RankedDeal.NOTATION)


def format_ranked_hands(hands) -> str:
    """``hands`` in ranked notation (``23456789TJQKA``), ``/`` between hands."""
    return format_hands(hands, RANKS)


def format_ranked_state(hands, leader: int) -> str:
    """A trick-boundary state with its leader from 1: ``'2:T9/JQ'``."""
    return format_state(hands, leader, RANKS)


def parse_ranked_state(text: str) -> tuple[list[list[int]], int]:
    """``'2:T9/JQ'`` (leader from 1, then hands of ranks) -> (hands, 0-based leader)."""
    leader, _, hands = text.partition(":")
    return [list(hand) for hand in parse_ranked_hands(hands)], int(leader) - 1
