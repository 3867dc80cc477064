"""``beggar-search deal``: a deal from its index, or the index of a deal."""

import click

from .. import compiling, games
from .common import UserError, deck_option, emit, json_option
from .game import GameChoice


@click.command()
@click.option("--index", type=int, default=None, metavar="I", help="Print deal number I.")
@click.option("--rank", "rank_text", default=None, metavar="DEAL", help="Print DEAL's index.")
@click.option("--players", type=click.IntRange(2, 8), default=2, show_default=True,
              help="Players (with --index).")
@click.option("--count", "show_count", is_flag=True, help="Print how many deals the deck has.")
@deck_option
@click.option("--game", type=click.Choice(tuple(games.KINDS)), default=games.DEFAULT,
              show_default=True,
              help="ers: ranked deals (23456789TJQKA), over a ranked --deck.")
@json_option
def deal(index, rank_text, players, show_count, deck_spec, game, as_json):
    """Deal numbering: every deal of a deck has an index from 0 to (deals - 1).

    The index ranks the deal's cards (hands in order) lexicographically among all
    orderings of the deck (- < J < Q < K < A; with --game ers 2 < 3 < ... < A); it is
    stable across versions.
    """
    choice = GameChoice(game)
    deck = choice.deck(deck_spec)
    kind = choice.kind.deal_class
    if sum(x is not None and x is not False for x in (index, rank_text, show_count or None)) != 1:
        raise UserError("give exactly one of --index I, --rank DEAL or --count")
    if show_count:
        total = deck.count_deals(players)
        # deal_count: the deck's deals; deals (deprecated): the same number
        emit({"game": game, "deck": deck.spec, "players": players, "deal_count": total,
              "deals": total}, as_json, str(total))
    elif index is not None:
        found = compiling.warm(kind.unrank, index, deck, players)  # Ctrl-C while compiling
        emit({"game": game, "deck": deck.spec, "players": players, "index": index,
              "deal": str(found)}, as_json, str(found))
    else:
        found = kind.parse(rank_text, deck)
        rank = compiling.warm(found.rank)
        emit({"game": game, "deck": deck.spec, "players": len(found.hands), "index": rank,
              "deal": str(found)}, as_json, str(rank))
