"""``beggar-search search climb``: local search for long terminating games."""

from __future__ import annotations

import click
from click.core import ParameterSource

from ..deck import Deal, DeckError
from ..strategies.climb import DEFAULT_EXPLORE, DEFAULT_POOL
from .common import UserError, deck_option, parse_deck
from .search import launch, players_option, run_params, search_options


@click.command("climb")
@click.option("--deals", type=click.IntRange(min=1), default=None,
              help="Games to play in total [default: until Ctrl-C or --hours].")
@click.option("--start", "start_deal", default=None, metavar="DEAL",
              help="Climb from this deal (notation as in `play`) [default: random deals].")
@deck_option
@players_option
@click.option("--explore", type=click.FloatRange(0, 1), default=DEFAULT_EXPLORE,
              show_default=True, help="Share of games that are fresh random deals (restarts).")
@click.option("--pool", type=click.IntRange(min=1), default=DEFAULT_POOL, show_default=True,
              help="Longest deals kept per chunk whose neighbourhoods are searched.")
@search_options
@click.pass_context
def climb(ctx, deals, start_deal, deck_spec, players, explore, pool, workers, db_path, hours,
          seed, top_k, max_tricks, chunk_size, quiet, as_json):
    """Search for long games by swapping cards of the longest deals found (best-first).

    A chunk of work is a fixed number of games; each chunk searches on its own,
    from random deals or from --start, and keeps its longest distinct deals.
    """
    deck = parse_deck(deck_spec)
    if start_deal is not None:
        try:
            deal = Deal.parse(start_deal, deck)
        except DeckError as error:
            raise UserError(f"--start: {error}") from None
        if deal.players != players:
            if ctx.get_parameter_source("players") != ParameterSource.DEFAULT:
                raise UserError(f"--start has {deal.players} hands but --players is {players}")
            players = deal.players
        start_deal = str(deal)
    params = run_params(deck_spec, players, seed, top_k, max_tricks, chunk_size, hours,
                        deals=deals, start_deal=start_deal, explore=explore, pool=pool)
    launch("climb", params, db_path, workers, quiet, as_json)
