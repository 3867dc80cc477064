"""``beggar-search reach``: every state, and every fair deal, whose play enters a deal's cycle."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import click

from .. import compiling, games
from ..tunables import REACH_MAX_STATES
from .common import STATES, UserError, deck_option, emit, json_option, open_store
from .game import GameChoice, game_options
from .options import db_option

if TYPE_CHECKING:
    from ..backward.reach import ReachResult


def summary(source: str, result: ReachResult) -> str:
    """A reach ``result`` from ``source`` as lines for people: the cycle, how far the search got,
    and the fair deals that enter the cycle."""
    status = "yes" if result.complete else f"no (stopped by the {result.stopped_by} budget)"
    lines = [
        f"from      {source}",
        f"cycle     {result.cycle}",
        f"period    {result.period_tricks} tricks / {result.period_cards} cards",
        f"states    {result.states}",
        f"depth     {result.depth} tricks",
        f"complete  {status}",
        f"seconds   {result.seconds}",
        f"fair deals, player 1 leads: {len(result.fair_deals)}",
        *(f"  {deal}" for deal in result.fair_deals),
    ]
    if result.players == 2:
        swapped = result.fair_deals_swapped
        lines.append(f"fair deals, player 2 leads (hands swapped): {len(swapped)}")
        lines += [f"  {deal}" for deal in swapped]
    return "\n".join(lines)


def _start(text: str, deck_spec: str, db_path: str, game: GameChoice):
    """The state to search from, its leader, its deck, how to name it, and its game (one
    line for a game whose deal does not fix its play: ratscrew under odds).

    ``text`` is a deal, or a cycle id (16 hex digits) looked up in the results file (of the
    default game, Beggar-my-neighbour, whose cycles the store gives by id).
    """
    if re.fullmatch(r"[0-9a-f]{16}", text.strip().lower()):
        if game.game != games.DEFAULT:
            raise UserError(f"reach --game {game.game} takes a deal, not a cycle id")
        with open_store(db_path, create=False) as store:
            entry, deck = store.cycle_entry(text.strip().lower())
        if ":" in entry:
            played = game.value(len(entry.split("/")))
            hands, leader = played.parse_state(entry)
            return hands, leader, deck, f"cycle {text} (state {entry})", played
        text, deck_spec = entry, deck.spec
    deal = game.kind.deal_class.parse(text, game.deck(deck_spec))
    played = game.value(deal.players)
    if not played.deterministic:
        raise UserError(f"slap policy {game.slap_policy}: a game is not a function"
                        " of the deal, so it has no cycle to search backwards from (use none,"
                        " first:P or turn)")
    return [list(hand) for hand in deal.hands], 0, deal.deck, str(deal), played


@click.command(context_settings={"ignore_unknown_options": True})
@click.argument("deal_text", metavar="DEAL|CYCLE")
@deck_option
@db_option(help="Results file to find a CYCLE id in.")
@click.option("--max-states", type=STATES, default=REACH_MAX_STATES,
              show_default=True, metavar="N", help="Stop after finding N states.")
@click.option("--seconds", type=click.FloatRange(min=0), default=None, metavar="S",
              help="Stop after S seconds.")
@game_options
@json_option
def reach(deal_text, deck_spec, db_path, max_states, seconds, game, as_json):
    """Search backwards from the cycle DEAL loops on: every state that enters it.

    Instead of a deal, give a cycle id from the results file (`export --what cycles`).

    Reports how many states enter the cycle (the cycle included), the most tricks
    any of them takes to get there, and the fair deals among them: the even split
    with player 1 to lead, and (two players) with player 2 to lead, written with
    the hands swapped.  A budget that stops the search is reported as incomplete.

    With --game ers: a ranked DEAL (with its --deck) and a deterministic --slap-policy
    (none, first:P or turn; under odds a game is not a function of the deal).
    """
    hands, leader, deck, source, played = _start(deal_text, deck_spec, db_path, game)
    from ..backward.reach import NoLoop, reach_state  # the engine loads once the deal is good
    from ..vocabulary import reach_record

    try:
        # in the compile thread: a Ctrl-C while its kernels compile is answered at once
        result = compiling.warm(reach_state, hands, leader, deck, max_states=max_states,
                                seconds=seconds, game=played)
    except NoLoop as error:
        raise UserError(f"{source}: {error}") from None
    data = {"from": source, **result.to_dict()}
    data.update(played.fields())  # the game's rules (ratscrew's slaps) after the result's
    text = summary(source, result)
    if played.tag:  # a game other than the default one is named
        text = f"game      {played.describe()}\n{text}"
    emit(reach_record(data), as_json, text)
