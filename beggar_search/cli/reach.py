"""``beggar-search reach``: every state, and every fair deal, whose play enters a deal's cycle."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import click

from .. import compiling
from ..cards.deck import Deal, parse_state
from .common import STATES, UserError, deck_option, emit, json_option, open_store, parse_deck
from .game import GameChoice, game_options
from .options import db_option
from .sourced import read_constants

# read, not imported: backward.reach loads Numba, which --help does not need
(DEFAULT_MAX_STATES,) = read_constants("backward.reach", "DEFAULT_MAX_STATES")

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


def _start(text: str, deck_spec: str, db_path: str):
    """The state to search from, its leader, its deck and how to name it.

    ``text`` is a deal, or a cycle id (16 hex digits) looked up in the results file.
    """
    if re.fullmatch(r"[0-9a-f]{16}", text.strip().lower()):
        with open_store(db_path, create=False) as store:
            entry, deck = store.cycle_entry(text.strip().lower())
        if ":" in entry:
            hands, leader = parse_state(entry)
            return hands, leader, deck, f"cycle {text} (state {entry})"
        text, deck_spec = entry, deck.spec
    deck = parse_deck(deck_spec)
    deal = Deal.parse(text, deck)
    return [list(hand) for hand in deal.hands], 0, deck, str(deal)


@click.command(context_settings={"ignore_unknown_options": True})
@click.argument("deal_text", metavar="DEAL|CYCLE")
@deck_option
@db_option(help="Results file to find a CYCLE id in.")
@click.option("--max-states", type=STATES, default=DEFAULT_MAX_STATES,
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

    if game.ers:
        hands, leader, deck, source, slap_rules = _start_ers(deal_text, deck_spec, game)
    else:
        hands, leader, deck, source = _start(deal_text, deck_spec, db_path)
        slap_rules = None
    from ..backward.reach import NoLoop, reach_state  # the engine loads once the deal is good
    from ..vocabulary import reach_record

    try:
        # in the compile thread: a Ctrl-C while its kernels compile is answered at once
        result = compiling.warm(reach_state, hands, leader, deck, max_states=max_states,
                                seconds=seconds, slap_rules=slap_rules)
    except NoLoop as error:
        raise UserError(f"{source}: {error}") from None
    data = {"from": source, **result.to_dict()}
    if slap_rules is not None:
        data.update(slap_rules.to_params())
    text = summary(source, result)
    if slap_rules is not None:
        slap_in = "slap-in" if slap_rules.slap_in else "no slap-in"
        text = (f"game      ers, slaps {slap_rules.rules_spec} by {slap_rules.policy_spec}, "
                f"{slap_in}\n{text}")
    emit(reach_record(data), as_json, text)


def _start_ers(text: str, deck_spec: str, game: GameChoice):
    """``_start`` for Egyptian ratscrew: a ranked deal only, and its slap rules (one line
    under odds)."""
    from ..cards.ranked import RankedDeal

    if re.fullmatch(r"[0-9a-f]{16}", text.strip().lower()):
        raise UserError("reach --game ers takes a deal, not a cycle id")
    deal = RankedDeal.parse(text, game.deck(deck_spec))
    slap_rules = game.slaps(deal.players)
    if not slap_rules.deterministic:
        raise UserError(f"slap policy {slap_rules.policy_spec}: a game is not a function of the "
                        "deal, so it has no cycle to search backwards from (use none, first:P "
                        "or turn)")
    return [list(hand) for hand in deal.hands], 0, deal.deck, str(deal), slap_rules
