"""``beggar-search reach``: every state, and every fair deal, whose play enters a deal's cycle."""

import click

from ..deck import Deal
from ..reach import DEFAULT_MAX_STATES, NoLoop, ReachResult, reach_state
from .common import UserError, deck_option, emit, json_option, parse_deck


def summary(source: str, result: ReachResult) -> str:
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


def _start(deal_text: str, deck_spec: str) -> tuple[list[list[int]], int, str]:
    """The state to search from, its leader and how to name it.

    The one place that turns the command's argument into a state: other sources
    (a cycle id from the results store) belong here.
    """
    deal = Deal.parse(deal_text, parse_deck(deck_spec))
    return [list(hand) for hand in deal.hands], 0, str(deal)


@click.command()
@click.argument("deal_text", metavar="DEAL")
@deck_option
@click.option("--max-states", type=click.IntRange(min=1), default=DEFAULT_MAX_STATES,
              show_default=True, metavar="N", help="Stop after finding N states.")
@click.option("--seconds", type=click.FloatRange(min=0), default=None, metavar="S",
              help="Stop after S seconds.")
@json_option
def reach(deal_text, deck_spec, max_states, seconds, as_json):
    """Search backwards from the cycle DEAL loops on: every state that enters it.

    Reports how many states enter the cycle (the cycle included), the most tricks
    any of them takes to get there, and the fair deals among them: the even split
    with player 1 to lead, and (two players) with player 2 to lead, written with
    the hands swapped.  A budget that stops the search is reported as incomplete.
    """
    hands, leader, source = _start(deal_text, deck_spec)
    try:
        result = reach_state(hands, leader, parse_deck(deck_spec), max_states=max_states,
                             seconds=seconds)
    except NoLoop as error:
        raise UserError(f"{source}: {error}") from None
    emit({"from": source, **result.to_dict()}, as_json, summary(source, result))
