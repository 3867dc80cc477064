"""Pieces shared by the subcommands: options, output, errors."""

import json

import click

from ..deck import Deck, DeckError
from ..errors import UserError


def deck_option(function):
    return click.option(
        "--deck", "deck_spec", default="standard", show_default=True, metavar="SPEC",
        help="standard, camicia, or counts such as plain=14,J=2,Q=2,K=2 (at most 64 cards).",
    )(function)


def json_option(function):
    return click.option("--json", "as_json", is_flag=True,
                        help="Print one JSON object per line.")(function)


def parse_deck(spec: str) -> Deck:
    try:
        return Deck.parse(spec)
    except DeckError as error:
        raise UserError(str(error)) from None


def emit(data: dict, as_json: bool, text: str) -> None:
    """Print a result: one JSON object per line, or text for people."""
    click.echo(json.dumps(data, sort_keys=False) if as_json else text)


def open_store(path, create: bool = True):
    """The results store at ``path``; a file that is not one is a user error."""
    from ..store import Store, StoreError

    try:
        return Store(path, create=create)
    except StoreError as error:
        raise UserError(str(error)) from None


UNITS = {"hunt": "tries", "climb": "games"}  # what a run's ``deals`` counts, by strategy


def summary_text(summary: dict) -> str:
    lines = [f"run {summary['run']} ({summary['strategy']}, deck {summary['deck']}, "
             f"{summary['players']} players, seed {summary['seed']}): {summary['status']}",
             f"{UNITS.get(summary['strategy'], 'deals'):10s} {summary['deals']:,}"
             f"   wins by player {summary['wins']}",
             (f"loops      {summary['loops']:,} met, {summary['cycles']} new cycles stored"
              if summary["strategy"] == "hunt" else
              f"loops      {summary['loops']:,} in {summary['cycles']} distinct cycles"),
             f"caps       {summary['caps']:,}"]
    if summary["longest"]:
        longest = summary["longest"]
        lines.append(f"longest    {longest['cards']} cards, {longest['tricks']} tricks  "
                     f"{longest['deal']}")
    if summary["deals_per_second"]:
        lines.append(f"speed      {summary['deals_per_second']:,.0f} "
                     f"{UNITS.get(summary['strategy'], 'deals')}/s over "
                     f"{summary['seconds']:.1f} s")
    return "\n".join(lines)


def print_summary(summary: dict, as_json: bool) -> None:
    emit(summary, as_json, summary_text(summary))
