"""``beggar-search play``: play one deal."""

import click

from ..deck import Deal
from ..engine import play as play_deal
from ..engine import trace
from .common import MAX_TRICKS, deck_option, emit, json_option, parse_deck


def summary(deal: Deal, result) -> str:
    lines = [f"deal      {deal}", f"outcome   {result.outcome}",
             f"cards     {result.cards}", f"tricks    {result.tricks}"]
    if result.outcome == "loop":
        lines += [
            f"pre-period {result.preperiod_tricks} tricks / {result.preperiod_cards} cards",
            f"period    {result.period_tricks} tricks / {result.period_cards} cards",
            f"cycle     {result.cycle}",
        ]
    else:
        lines.append(f"winner    {'tie' if result.winner == 0 else f'player {result.winner}'}")
    lines.append(f"hands     {'/'.join(map(str, result.hand_sizes))}")
    return "\n".join(lines)


@click.command(context_settings={"ignore_unknown_options": True})
@click.argument("deal_text", metavar="DEAL")
@deck_option
@click.option("--max-tricks", type=MAX_TRICKS, default=None, metavar="N",
              help="Agreed cap: stop after N tricks, most cards wins.")
@click.option("--trace", "show_trace", is_flag=True, help="Show the game trick by trick.")
@json_option
def play(deal_text, deck_spec, max_tricks, show_trace, as_json):
    """Play DEAL, e.g. '---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA'.

    One hand per player separated by '/', top card first, - J Q K A (or 0-4).
    """
    deal = Deal.parse(deal_text, parse_deck(deck_spec))
    if show_trace:
        records, result = trace(deal, max_tricks=max_tricks)
        for record in records:
            if as_json:
                emit({"trick": record.number, "leader": record.leader,
                      "laid": [[p, c] for p, c in record.laid], "taker": record.taker,
                      "hand_sizes": record.hand_sizes, "cards": record.cards,
                      "marks": record.marks}, True, "")
            else:
                click.echo(record.describe())
    else:
        result = play_deal(deal, max_tricks=max_tricks)
    emit({"deal": str(deal), **result.to_dict()}, as_json, summary(deal, result))
