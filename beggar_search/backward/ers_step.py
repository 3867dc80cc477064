"""Backward play for Egyptian ratscrew: every trick-boundary state one trick before a given one.

As ``backward`` does for Beggar-my-neighbour, under a deterministic slap policy (``none``,
``first:P``, ``turn``; under ``odds`` a trick is not a function of the state).  A trick
ends with its taker ``W`` (the new leader) putting the pile under their hand, so the pile
is the last ``L`` cards of ``W``'s hand for some ``L``.  For each ``L``, each set of
players in at the start and each leader among them, the pile's cards are replayed to see
who laid which card; each player's laid cards then go back on top of their hand.

What the slap adds.  Whether a slap pattern shows depends on the pile's cards alone, not
on who laid them, and under a deterministic policy other than ``none`` a pattern always
ends the trick (the player who just laid a card may always slap).  So for each ``L`` the
pile either shows no pattern before its last card (otherwise there is no trick of that
length) and then: a pattern at its last card means the trick ended by that slap there,
no pattern means it ended as in Beggar-my-neighbour (a payment completed, or players ran
out).  With slap-in the taker of a slap may be a player who was out at the start, or
who went out during the trick; without it, and in a trick not ended by a slap, the
taker never goes out.  ``L >= 2`` still: a slap needs two cards on the pile.

The replay is ``backward``'s own (its ``ranked`` step: rank codes, ``ers.play_trick``);
this module holds the rule check and the list API.  Nothing of who slaps is restated:
every candidate is played forward with ``ers.play_trick`` and kept only if it gives
exactly the target state, so the replay may offer too many candidates (it does: every
slap candidate, whoever the policy names) but the answer holds only true predecessors.
The tests check the true one is always found.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cards.slaps import SlapRules
from ..engine import ers
from . import step as backward


def check_rules(slap_rules: SlapRules) -> None:
    """``ValueError`` unless a game under ``slap_rules`` is a function of its state."""
    if not slap_rules.deterministic:
        raise ValueError(f"slap policy {slap_rules.policy_spec}: a game is not a function of "
                         "the deal, so it has no backward step")


def predecessors(hands: Sequence[Sequence[int]], leader: int,
                 slap_rules: SlapRules | None = None) -> list[tuple[list[list[int]], int]]:
    """Every state one trick before ``(hands, leader)`` (rank codes, top card first,
    players from 0) under ``slap_rules`` (default: pair, policy none): a list of
    ``(hands, leader)``, each of which plays one trick into exactly ``(hands, leader)``.
    """
    slap_rules = slap_rules or SlapRules()
    check_rules(slap_rules)
    return backward.predecessor_list(hands, leader, True, ers.slaps_of(slap_rules, len(hands)))
