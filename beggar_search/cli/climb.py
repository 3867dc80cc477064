"""``beggar-search search climb``: long terminating games by backward extension."""

from __future__ import annotations

import click
from click.core import ParameterSource

from ..cards.deck import DeckError
from ..tunables import (
    DEFAULT_CLOSURE_STATES,
    DEFAULT_DEEPEST,
    DEFAULT_EXTEND,
    EXTENSION_STATES,
    MOST_EXTEND,
)
from .common import COUNT, STATES, TOP, UserError, deck_option
from .game import game_options
from .options import search_options
from .search import launch, players_option, run_params


@click.command("climb")
@click.option("--deals", type=COUNT, default=None,
              help="Random deals to play in total; the games of the extension come on top "
                   "[default: until Ctrl-C or --hours].")
@click.option("--start", "start_deal", default=None, metavar="DEAL",
              help="Also extend this deal (notation as in `play`), in the first chunk.")
@deck_option
@players_option
@click.option("--extend", type=TOP, default=None,
              help=f"Longest deals of each chunk extended backwards (at most --top's limit) "
                   f"[default: {DEFAULT_EXTEND}; a run of --deals whose chunk is sized from "
                   f"them extends more, up to {MOST_EXTEND}, while the chunk's backward "
                   f"searches hold fewer than {EXTENSION_STATES:,} states].")
@click.option("--closure-states", type=STATES, default=DEFAULT_CLOSURE_STATES,
              show_default=True, help="States each backward search may hold.")
@click.option("--deepest", type=click.IntRange(0, 10**9), default=DEFAULT_DEEPEST,
              show_default=True,
              help="Fair deals played from each backward search: those whose games are "
                   "longest in tricks (0: every one found).")
@search_options
@game_options  # listed last in --help: the ratscrew options together
@click.pass_context
def climb(ctx, deals, start_deal, deck_spec, players, extend, closure_states, deepest, game,
          options):
    """Search for long games: random deals, then the longest extended backwards.

    Each chunk plays random deals, then searches backwards from the game of each
    of its --extend longest deals for fair deals whose game merges into it (its
    merge family, and the mirror family), and plays the --deepest of them whose
    games are longest.  The run's deals count every game played.

    With --game ers: Egyptian ratscrew under a deterministic --slap-policy (none,
    first:P or turn; under odds a game is not a function of the deal).
    """
    deck = game.deck(deck_spec)
    if start_deal is not None:
        try:
            deal = game.kind.deal_class.parse(start_deal, deck)
        except DeckError as error:
            raise UserError(f"--start: {error}") from None
        if deal.players != players:
            if ctx.get_parameter_source("players") != ParameterSource.DEFAULT:
                raise UserError(f"--start has {deal.players} hands but --players is {players}")
            players = deal.players
        start_deal = str(deal)
    if not game.value(players).deterministic:
        raise UserError(f"search climb: slap policy {game.slap_policy}: a game is not a "
                        "function of the deal, so it cannot be extended backwards (use none, "
                        "first:P or turn)")
    params = run_params(deck_spec, players, options, game, deals=deals, start_deal=start_deal,
                        extend=extend, closure_states=closure_states, deepest=deepest)
    launch("climb", params, options)
