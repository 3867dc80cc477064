"""Pieces shared by the subcommands: options, output, errors."""

import json

import click

from ..deck import Deck, DeckError


class UserError(Exception):
    """Bad input from the user: reported as one line, exit status 2."""


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
