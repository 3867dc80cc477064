"""``beggar-search search hunt``: the loop hunter."""

from __future__ import annotations

import click

from ..cards.deck import STANDARD
from ..tunables import REACH_STATES
from .common import COUNT, STATES, deck_option, open_store, parse_deck
from .game import bmn_only
from .options import search_options
from .search import launch, players_option, run_params


@click.command("hunt")
@bmn_only("search hunt", " (its perturbation kernel and its seed cycles are that game's)")
@click.option("--tries", "deals", type=COUNT, default=None,
              help="States to try in total [default: until Ctrl-C or --hours].")
@deck_option
@players_option
@click.option("--reach-states", type=STATES, default=REACH_STATES,
              show_default=True, help="Budget of the backward search run on each new cycle.")
@search_options
def hunt(deals, deck_spec, players, reach_states, options):
    """Superseded by `search factory`: hunt loops near known cycles, with their fair deals.

    `search factory` finds the same cycles and more (moves, kicks, both games); hunt stays
    for the runs it made.  Beggar-my-neighbour only.
    It starts from the Casella cycle (standard deck, 2 players) and every cycle of this
    deck already in the results file; with none, it tries random states.  Each new
    cycle is stored with the fair deals found reaching it (`export --what cycles|loops`).
    Run it again to start from the cycles it found.
    """
    from ..games.loops import CASELLA
    from ..strategies.hunt import starting_points

    deck = parse_deck(deck_spec)
    with open_store(options.db_path) as store:
        entries = list(store.known_cycles(deck, players).values())
    if deck == STANDARD and players == 2:
        entries.insert(0, CASELLA)
    seeds, known = starting_points(entries, deck, players)
    params = run_params(deck_spec, players, options, deals=deals, seeds=seeds, known=known,
                        reach_states=reach_states)
    launch("hunt", params, options)
