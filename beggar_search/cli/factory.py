"""``beggar-search search factory``: the closure search over cycles."""

from __future__ import annotations

import click

from ..deck import STANDARD
from ..engine.moves import DEFAULT_BLOCKS, MOVE_NAMES
from ..strategies.factory import SEED_CHUNK_TRIES, SEED_ROUNDS, StartError, start_node
from ..strategies.hunt import CASELLA
from .common import UserError, deck_option, open_store, parse_deck
from .game import bmn_only
from .options import search_options
from .search import launch, players_option, run_params


def _moves(ctx, param, value):
    names = [name.strip() for name in value.split(",") if name.strip()]
    unknown = [name for name in names if name not in MOVE_NAMES]
    if unknown or not names:
        raise click.BadParameter(f"expected names among {', '.join(MOVE_NAMES)}, not {value!r}")
    return names


def _blocks(ctx, param, value):
    low, _, high = value.partition("-")
    try:
        low, high = int(low), int(high or low)
    except ValueError:
        raise click.BadParameter(f"expected MIN-MAX such as 2-20, not {value!r}") from None
    if not 2 <= low <= high:
        raise click.BadParameter(f"expected 2 <= MIN <= MAX, not {value!r}")
    return [low, high]


@click.command("factory")
@bmn_only("search factory")
@click.option("--from", "starts", metavar="DEAL|STATE", multiple=True,
              help="Start (also) from the cycle of this looping deal or state"
                   " ('2:hands' = player 2 leads); repeatable.")
@click.option("--ignore-known", is_flag=True,
              help="Do not start from the results file's cycles nor the built-in Casella cycle.")
@click.option("--seed-tries", type=click.IntRange(min=0), default=None,
              help="Seek first cycles with --seeding before the walk: random states to"
                   " try in each round (grow: any number above 0 runs it twice a round)"
                   " [default: 0, or"
                   f" {16 * SEED_CHUNK_TRIES:,} when there is nothing else to start from].")
@click.option("--seed-rounds", type=click.IntRange(1, 1 << 20), default=None,
              help="Seeding rounds at most: after the first, each once the walk has closed,"
                   " while nothing is known yet, then until 8 rounds in a row (grow: 2; or"
                   " as many as the first cycle took) meet no new cycle (islands moves do"
                   " not reach)"
                   f" [default: {SEED_ROUNDS} from nothing, else 1].")
@click.option("--seeding", type=click.Choice(["random", "grow"]), default=None,
              help="How --seed-tries finds first cycles: random states, or grow small"
                   " decks' cycles card by card and pad the plain cards in (two players)"
                   " [default: random up to 24 cards, grow above].")
@click.option("--moves", "move_names", default=",".join(MOVE_NAMES), show_default=True,
              callback=_moves, help="Kinds of moves, comma-separated.")
@click.option("--blocks", default=f"{DEFAULT_BLOCKS[0]}-{DEFAULT_BLOCKS[1]}", show_default=True,
              callback=_blocks, metavar="MIN-MAX", help="Lengths of the blocks moved.")
@deck_option
@players_option
@click.option("--reach-states", type=click.IntRange(min=1), default=5_000_000,
              show_default=True, help="Budget of the backward search run on each cycle.")
@search_options
def factory(starts, ignore_known, seed_tries, seed_rounds, seeding, move_names, blocks,
            deck_spec, players, reach_states, options):
    """Find cycles near cycles, breadth first, until a generation finds nothing new.

    Every state of every known cycle is changed by every move (swap two cards, move
    one card or a block of cards within a hand or to another, change the leader, move
    the split); each cycle met is catalogued with its in-tree and fair deals (stored
    as looping deals), then expanded in turn.  Starts from the results file's cycles of
    this deck, the Casella cycle (standard deck), --from, and random states.
    `export --what cycles` lists the family; `plot family` draws it.
    """
    deck = parse_deck(deck_spec)
    for text in starts:  # checked before the results file is opened (or made)
        try:
            start_node(text, deck, players)
        except StartError as error:
            raise UserError(f"--from {error}") from None
    if seeding == "grow" and players != 2:
        raise UserError("--seeding grow works for two players only")
    entries = []
    if not ignore_known:
        if deck == STANDARD and players == 2:
            entries.append(CASELLA)
        with open_store(options.db_path) as store:
            entries += [entry for _, entry in sorted(store.known_cycles(deck, players).items())]
    entries = list(starts) + entries
    if seed_rounds is None:
        seed_rounds = 1 if entries else SEED_ROUNDS
    if seed_tries is None:
        seed_tries = 0 if entries else 16 * SEED_CHUNK_TRIES
    if seeding is None:
        seeding = "random" if deck.size <= 24 or players != 2 else "grow"
    params = run_params(deck_spec, players, options, starts=entries, moves=move_names,
                        blocks=blocks, seed_chunks=-(-seed_tries // SEED_CHUNK_TRIES),
                        seed_rounds=seed_rounds, seeding=seeding,
                        reach_states=reach_states)
    launch("factory", params, options)
