"""Reach: every state whose play enters a given cycle, found by playing backwards.

From a looping deal (or any state that loops) the cycle is found by forward
play; then a breadth-first search over predecessors (``backward.step``) walks
the whole set of trick-boundary states that enter that cycle, the cycle
included.  The fair deals in that set are the deals whose game loops on it.

The search itself (packed states, the hash table, the kernel slices) is
``backward.closure``; this module finds the cycle and reads the fair deals off.

``reach`` is the call for people and the command line; a hunter that holds a
cycle state calls ``reach_state``.  Egyptian ratscrew (under a deterministic slap
policy) goes through the same search with its own backward step: ``reach_state``
with ``slap_rules``, or ``reach_ers`` from a ranked deal.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field

from ..cards.deck import Deal, Deck, DeckError, format_hands
from ..cards.params import BMN, ERS
from ..cards.ranked import RankedDeal, RankedDeck, format_ranked_hands
from ..cards.slaps import SlapRules
from ..engine import ers_game
from ..engine.game import as_deal, play_state, state_cycle
from .closure import BMN_STEP, Step, backward_closure, ers_step

DEFAULT_MAX_STATES = 20_000_000


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
    game: str = BMN  # bmn, or ers: fair deals in ranked notation

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


@dataclass(frozen=True)
class _Game:
    """What the in-tree search needs of a game: play, the cycle, the backward step, notation."""

    deck_kind: type
    play_state: Callable
    state_cycle: Callable
    step: Step
    notation: Callable
    name: str


def _game(slap_rules: SlapRules | None, players: int) -> _Game:
    if slap_rules is None:
        return _Game(Deck, play_state, state_cycle, BMN_STEP, format_hands, BMN)
    step = ers_step(slap_rules, players)  # ValueError under odds

    def play(hands, leader):
        return ers_game.play_state(hands, leader, slap_rules)

    def cycle(hands, leader):
        return ers_game.state_cycle(hands, leader, slap_rules)

    return _Game(RankedDeck, play, cycle, step, format_ranked_hands, ERS)


def reach_state(hands: Sequence[Sequence[int]], leader: int = 0,
                deck: Deck | RankedDeck | str | None = None,
                max_states: int | None = DEFAULT_MAX_STATES,
                seconds: float | None = None,
                slap_rules: SlapRules | None = None) -> ReachResult:
    """Every state whose play enters the cycle that ``(hands, leader)`` plays into.

    ``hands`` top card first, ``leader`` from 0; any split.  ``deck`` (by default
    the state's own cards) sets the even split of the fair deals.  The search
    stops when it has ``max_states`` states or has run ``seconds``; the result
    then has ``complete`` False.  Raises ``NoLoop`` when the game ends.

    The game is Beggar-my-neighbour (card values 0-4) without ``slap_rules``, Egyptian
    ratscrew (rank codes 0-12, a ``RankedDeck``, fair deals in ranked notation) under
    ``slap_rules`` (a deterministic policy: ``ValueError`` under odds).
    """
    started = time.perf_counter()
    players = len(hands)
    game = _game(slap_rules, players)
    deck = _deck_of(hands, deck, game.deck_kind)
    split = deck.split(players)
    if not 0 <= leader < players or not hands[leader]:
        raise ValueError(f"leader {leader} does not hold cards in a game of {players} players")
    result = game.play_state(hands, leader)
    cycle = game.state_cycle(hands, leader)
    if not cycle:
        raise NoLoop(f"the game ends ({result.outcome}) after {result.cards} cards and "
                     f"{result.tricks} tricks: it does not loop")
    store, complete, stopped_by = backward_closure(cycle, deck.size, max_states, seconds,
                                                   started, game.step)
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


def reach_ers(deal: RankedDeal | str | Sequence, slap_rules: SlapRules,
              deck: RankedDeck | str | None = None,
              max_states: int | None = DEFAULT_MAX_STATES,
              seconds: float | None = None) -> ReachResult:
    """``reach_state`` of Egyptian ratscrew from a ranked deal (player 1 to lead)."""
    deal = ers_game.as_ranked_deal(deal, deck)
    return reach_state(deal.hands, 0, deal.deck, max_states, seconds, slap_rules)


def reach(deal: Deal | str | Sequence, deck: Deck | str | None = None,
          max_states: int | None = DEFAULT_MAX_STATES,
          seconds: float | None = None) -> ReachResult:
    """``reach_state`` from a deal (notation or hands, player 1 to lead)."""
    deal = as_deal(deal, deck)
    return reach_state(deal.hands, 0, deal.deck, max_states=max_states, seconds=seconds)
