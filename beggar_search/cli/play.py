"""``beggar-search play``: play one deal."""

import click

from .. import compiling
from ..cards.deck import Deal
from .common import MAX_TRICKS, SEED, UserError, deck_option, emit, json_option, parse_deck
from .game import GameChoice, game_options


def summary(deal: Deal, result) -> str:
    """One played ``deal`` and its ``result`` as lines for people: outcome, length, the cycle of a
    loop or the winner, and the final hand sizes."""
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
@game_options
@click.option("--seed", type=SEED, default=None,
              help="ers with odds: the seed the slaps are drawn from, as a run's [default: 0].")
@json_option
def play(deal_text, deck_spec, max_tricks, show_trace, game, seed, as_json):
    """Play one deal and print how it ends.

    DEAL: e.g. '---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA', one hand per
    player separated by '/', top card first, - J Q K A (or 0-4).
    With --game ers: ranks 23456789TJQKA, e.g. '2J9Q/KA3T' (with a --deck of those cards).
    """
    if game.ers:
        play_ers(deal_text, game.deck(deck_spec), max_tricks, show_trace, game, seed, as_json)
        return
    if seed is not None:
        raise UserError("--seed is for --game ers")
    deal = Deal.parse(deal_text, parse_deck(deck_spec))
    from ..engine import play as play_deal  # the engine loads once the deal is known good
    from ..engine import trace

    if show_trace:  # in a thread: a Ctrl-C while the kernels compile stops it at once
        records, result = compiling.warm(trace, deal, max_tricks=max_tricks)
        for record in records:
            if as_json:
                emit({"trick": record.number, "leader": record.leader,
                      "laid": [[p, c] for p, c in record.laid], "taker": record.taker,
                      "hand_sizes": record.hand_sizes, "cards": record.cards,
                      "marks": record.marks}, True, "")
            else:
                click.echo(record.describe())
    else:
        result = compiling.warm(play_deal, deal, max_tricks=max_tricks)
    emit({"deal": str(deal), "game": "bmn", **result.to_dict()}, as_json, summary(deal, result))


def play_ers(deal_text, deck, max_tricks, show_trace, game: GameChoice, seed, as_json):
    """``play --game ers``: a ranked deal, its slaps traced."""
    from ..cards.ranked import RankedDeal
    from ..engine import ers_game
    from ..engine.ers import ODDS_CAP

    deal = RankedDeal.parse(deal_text, deck)
    slaps = game.slaps(deal.players, seed)
    if not slaps.deterministic and not max_tricks:
        max_tricks = ODDS_CAP
    if show_trace:
        records, result = compiling.warm(ers_game.trace, deal, slaps, max_tricks=max_tricks)
        for record in records:
            if as_json:
                emit({"trick": record.number, "leader": record.leader,
                      "laid": [[p, c] for p, c in record.laid], "taker": record.taker,
                      "slapper": record.slapper, "hand_sizes": record.hand_sizes,
                      "cards": record.cards, "marks": record.marks}, True, "")
            else:
                click.echo(record.describe())
    else:
        result = compiling.warm(ers_game.play, deal, slaps, max_tricks=max_tricks)
    data = {"deal": str(deal), "game": "ers", **slaps.to_params(), **result.to_dict()}
    emit(data, as_json, summary(deal, result))
