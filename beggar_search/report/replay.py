"""The replays and cycle states a report shows, computed with the engine's own Python face.

A replay is ``engine.trace`` (or ``ers_game.trace``, slaps and all): the very records
``beggar-search play --trace`` prints, with the hands at every trick boundary from
``trajectory`` (a deterministic game only: under odds the slaps are drawn from the run's
stream, which only ``trace`` follows, so an odds replay shows hand sizes).  A cycle's
states are ``state_cycle``'s.  Nothing here plays a card itself.
"""

from __future__ import annotations

import shlex

from ..cards.deck import LETTERS, Deal, parse_state
from ..cards.params import ERS, deck_of, game_of
from ..cards.ranked import RANKS, RankedDeal, parse_ranked_state
from ..cards.slaps import SlapRules
from ..engine import ers_game, game
from ..engine.ers import ODDS_CAP

REPLAY_TRICKS = 20_000  # tricks past which a game gets no replay (a page of megabytes)


def letters_of(params: dict) -> str:
    """The card letters of a run's game, by card code."""
    return RANKS if game_of(params) == ERS else LETTERS


def slaps_of(params: dict) -> SlapRules | None:
    """A ratscrew run's slap rules (None for Beggar-my-neighbour)."""
    return SlapRules.from_params(params) if game_of(params) == ERS else None


def cap_of(params: dict) -> int | None:
    """The agreed cap a run plays under (as ``play`` would: odds without one get ODDS_CAP)."""
    cap = params.get("max_tricks") or None
    slaps = slaps_of(params)
    if slaps is not None and not slaps.deterministic and not cap:
        cap = ODDS_CAP
    return int(cap) if cap else None


def play_options(params: dict) -> str:
    """The options of ``beggar-search play`` that replay a run's deals as the run played
    them (deck, game, slaps, seed, cap), shell-quoted."""
    words = ["--deck", str(params["deck"])]
    slaps = slaps_of(params)
    if slaps is not None:
        words += ["--game", "ers", "--slap-rules", slaps.rules_spec, "--slap-policy",
                  slaps.policy_spec]
        if not slaps.slap_in:
            words.append("--no-slap-in")
        if not slaps.deterministic:
            words += ["--seed", str(int(params.get("seed") or 0))]
    if params.get("max_tricks"):
        words += ["--max-tricks", str(int(params["max_tricks"]))]
    return " ".join(shlex.quote(word) for word in words)


def play_command(params: dict, deal: str) -> str:
    """The command that replays ``deal`` of a run trick by trick."""
    return f"beggar-search play {shlex.quote(deal)} {play_options(params)} --trace"


def _hands_text(hands, letters: str) -> list[str]:
    return ["".join(letters[int(c)] for c in hand) for hand in hands]


def game_trace(params: dict, deal_text: str) -> dict | None:
    """A deal of a run played trick by trick, as a replay page steps through it.

    ``tricks``: one entry per trick with its leader, the cards laid (``cards``, the letters)
    and who laid each (``by``, players from 1), the taker, the slapper (ratscrew; 0: the
    pile was paid for), hand sizes, cards so far, ``play --trace``'s marks and the hands
    after it (None under odds).  None when the game is longer than ``REPLAY_TRICKS``.
    """
    deck, letters, cap = deck_of(params), letters_of(params), cap_of(params)
    slaps = slaps_of(params)
    if slaps is None:
        deal = Deal.parse(deal_text, deck)
        result = game.play(deal, max_tricks=cap)
        if result.tricks > REPLAY_TRICKS:
            return None
        records, result = game.trace(deal, max_tricks=cap)
        states = game.trajectory(deal.hands, 0, cap)
    else:
        deal = RankedDeal.parse(deal_text, deck)
        result = ers_game.play(deal, slaps, max_tricks=cap)
        if result.tricks > REPLAY_TRICKS:
            return None
        records, result = ers_game.trace(deal, slaps, max_tricks=cap)
        states = ers_game.trajectory(deal.hands, 0, slaps, cap) if slaps.deterministic \
            else None
    if states is not None and result.outcome == "loop":  # the repeat closes the trace
        states = [*states, states[result.preperiod_tricks]]
    tricks = [{
        "leader": record.leader, "taker": record.taker,
        "slapper": getattr(record, "slapper", 0),
        "cards": "".join(letters[card] for _, card in record.laid),
        "by": [player for player, _ in record.laid],
        "sizes": list(record.hand_sizes), "total": record.cards, "marks": list(record.marks),
        "hands": None if states is None else _hands_text(states[record.number][0], letters),
    } for record in records]
    return {"deal": str(deal), "start": _hands_text(deal.hands, letters),
            "result": {"deal": str(deal), **result.to_dict()}, "tricks": tricks,
            "command": play_command(params, str(deal))}


def cycle_states(params: dict, entry: str) -> list[dict]:
    """The trick-boundary states of the cycle a deal or state (``'leader:hands'``) enters:
    each its leader (from 1), hands and hand sizes, over one period ([] when it enters
    none, or under odds, where no state fixes the game)."""
    slaps = slaps_of(params)
    if slaps is not None and not slaps.deterministic:
        return []
    letters = letters_of(params)
    if ":" in entry:
        hands, leader = (parse_ranked_state if slaps else parse_state)(entry)
    else:
        hands, leader = [list(hand) for hand in (
            RankedDeal if slaps else Deal).parse(entry, deck_of(params)).hands], 0
    states = (ers_game.state_cycle(hands, leader, slaps) if slaps
              else game.state_cycle(hands, leader))
    return [{"leader": lead + 1, "hands": _hands_text(state, letters),
             "sizes": [len(hand) for hand in state]} for state, lead in states]
