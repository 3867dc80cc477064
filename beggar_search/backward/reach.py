"""Reach: every state whose play enters a given cycle, found by playing backwards.

From a looping deal (or any state that loops) the cycle is found by forward
play; then a breadth-first search over predecessors (``backward.step``) walks
the whole set of trick-boundary states that enter that cycle, the cycle
included.  The fair deals in that set are the deals whose game loops on it.

The search itself (packed states, the hash table, the kernel slices) is
``backward.closure``; this module finds the cycle and reads the fair deals off.

``reach_state`` searches from a state of any game, given as its ``games.Game`` value
(``game``: its deck class, play, cycle, backward step and notation); Egyptian ratscrew
(under a deterministic slap policy) goes through the same search with its own backward
step.  ``reach`` is the call for people: a deal of the game (Beggar-my-neighbour's by
default, ``games.BMN``).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field

from ..cards.deck import DeckError
from ..tunables import REACH_MAX_STATES
from .closure import backward_closure


@dataclass
class ReachResult:
    """The set of states that enter one cycle, as far as the search got."""

    cycle: str  # the cycle id, as Result.cycle of any deal that reaches it
    period_tricks: int
    period_cards: int
    states: int  # states found that enter the cycle, the cycle's own included
    depth: int  # most tricks from a state found to the cycle
    complete: bool  # False: a budget stopped the search and the counts are lower bounds
    stopped_by: str | None  # None, "states" or "seconds"
    seconds: float
    deck: str
    players: int
    fair_deals: list[str] = field(default_factory=list)  # even split, player 1 leads
    fair_deals_swapped: list[str] = field(default_factory=list)  # even split, player 2 leads
    game: str = "bmn"  # the game's name (``games.Game.name``): the notation of the deals

    def to_dict(self) -> dict:
        """The result as a plain dict (for ``--json``)."""
        return asdict(self)


class NoLoop(ValueError):
    """The game given ends (or stops at a cap): there is no cycle to reach."""


def _deck_of(hands, deck, kind):
    """The deck (of class ``kind``: ``Deck`` or ``RankedDeck``) of the state's cards, or
    ``deck`` checked against them."""
    counts = [0] * len(kind.LABELS)
    for hand in hands:
        for card in hand:
            counts[int(card)] += 1
    if deck is None:
        return kind(tuple(counts))
    deck = deck if isinstance(deck, kind) else kind.parse(deck)
    if tuple(counts) != deck.counts:
        raise DeckError(f"the state's cards do not match deck {deck.spec}")
    return deck


def reach_state(hands: Sequence[Sequence[int]], leader: int = 0,
                deck=None,
                max_states: int | None = REACH_MAX_STATES,
                seconds: float | None = None, *, game) -> ReachResult:
    """Every state whose play enters the cycle that ``(hands, leader)`` plays into.

    ``hands`` top card first, ``leader`` from 0; any split.  ``deck`` (by default
    the state's own cards) sets the even split of the fair deals.  The search
    stops when it has ``max_states`` states or has run ``seconds``; the result
    then has ``complete`` False.  Raises ``NoLoop`` when the game ends.

    ``game``: the ``games.Game`` whose state it is (its cards, its deck class, its backward
    step, the notation of the fair deals): Beggar-my-neighbour (card values 0-4), Egyptian
    ratscrew under its slap rules (rank codes 0-12; a ``ValueError`` under odds).
    """
    started = time.perf_counter()
    players = len(hands)
    step = game.backward_step(players)  # ValueError where a deal does not fix the game
    deck = _deck_of(hands, deck, game.deck_class)
    split = deck.split(players)
    if not 0 <= leader < players or not hands[leader]:
        raise ValueError(f"leader {leader} does not hold cards in a game of {players} players")
    result = game.play_state(hands, leader)
    cycle = game.state_cycle(hands, leader)
    if not cycle:
        raise NoLoop(f"the game ends ({result.outcome}) after {result.cards} cards and "
                     f"{result.tricks} tricks: it does not loop")
    store, complete, stopped_by = backward_closure(cycle, deck.size, max_states, seconds,
                                                   started, step)
    fair = sorted(game.notation(h) for h in store.with_header(split, 0))
    swapped = []
    if players == 2:
        swapped = sorted(game.notation(h[::-1]) for h in store.with_header(split, 1))
    return ReachResult(
        cycle=result.cycle,
        period_tricks=result.period_tricks,
        period_cards=result.period_cards,
        states=store.count,
        depth=int(store.depth[: store.count].max()) if store.count else 0,
        complete=complete,
        stopped_by=stopped_by,
        seconds=round(time.perf_counter() - started, 3),
        deck=deck.spec,
        players=players,
        fair_deals=fair,
        fair_deals_swapped=swapped,
        game=game.name,
    )


def reach(deal, deck=None, max_states: int | None = REACH_MAX_STATES,
          seconds: float | None = None, *, game) -> ReachResult:
    """``reach_state`` from a deal of ``game`` (notation, hands or its ``deal_class``; player
    1 to lead)."""
    if isinstance(deal, str):
        deal = game.deal_class.parse(deal, deck)
    elif not isinstance(deal, game.deal_class):
        deal = game.deal_class.from_hands(deal, deck)
    return reach_state(deal.hands, 0, deal.deck, max_states, seconds, game=game)
