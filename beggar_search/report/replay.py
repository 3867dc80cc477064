"""The replays and cycle states a report shows, computed with the engine's own Python face.

A replay is the run's game's ``trace`` (``games.Game``; ratscrew's slaps and all): the very
records ``beggar-search play --trace`` prints, with the hands at every trick boundary from
``trajectory`` (a deterministic game only: under odds the slaps are drawn from the run's
stream, which only ``trace`` follows, so an odds replay shows hand sizes).  A cycle's
states are ``state_cycle``'s.  Nothing here plays a card itself.
"""

from __future__ import annotations

import shlex

from .. import games

REPLAY_TRICKS = 20_000  # tricks past which a game gets no replay (a page of megabytes)


def letters_of(params: dict) -> str:
    """The card letters of a run's game, by card code."""
    return games.of(params).letters


def cap_of(params: dict) -> int | None:
    """The agreed cap a run plays under (as ``play`` would: odds without one get ODDS_CAP)."""
    return games.of(params).cap(params.get("max_tricks") or None)


def play_options(params: dict) -> str:
    """The options of ``beggar-search play`` that replay a run's deals as the run played
    them (deck, game, slaps, seed, cap), shell-quoted."""
    words = ["--deck", str(params["deck"]), *games.of(params).play_words(params)]
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
    game = games.of(params)
    deck, letters, cap = game.deck(params["deck"]), game.letters, cap_of(params)
    deal = game.deal_class.parse(deal_text, deck)
    result = game.play(deal, max_tricks=cap)
    if result.tricks > REPLAY_TRICKS:
        return None
    records, result = game.trace(deal, max_tricks=cap)
    states = game.trajectory(deal.hands, 0, cap) if game.deterministic else None
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
    game = games.of(params)
    if not game.deterministic:
        return []
    letters = game.letters
    if ":" in entry:
        hands, leader = game.parse_state(entry)
    else:
        hands, leader = [list(hand) for hand in game.deal_class.parse(
            entry, game.deck(params["deck"])).hands], 0
    states = game.state_cycle(hands, leader)
    return [{"leader": lead + 1, "hands": _hands_text(state, letters),
             "sizes": [len(hand) for hand in state]} for state, lead in states]
