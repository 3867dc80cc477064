"""Checks on what a results file gives back: only what beggar-search itself writes passes.

A results file may come from someone else.  Every value read back is checked against what
the tool writes (deal and state notation, cycle ids, names, whole and finite numbers)
before it is printed, exported or used, so a file cannot carry spreadsheet formulas,
terminal escape sequences or values that crash a command.  A value that fails raises
``BadValue``; the store turns it into one line naming the run.
"""

from __future__ import annotations

import json
import math
import re

from .. import games
from ..cards.deck import MAX_PLAYERS, DeckError
from ..cards.ranked import RankedDeck

CARDS = "[-JQKA]"  # the store holds deals as the tool writes them: letters
DEAL = re.compile(rf"{CARDS}*(?:/{CARDS}*)+")  # one hand per player, at least two players
STATE = re.compile(rf"[1-8]:({CARDS}*(?:/{CARDS}*)+)")  # the leader from 1, then the hands
RANKS = "[2-9TJQKA]"  # Egyptian ratscrew's deals: ranks
RANKED_DEAL = re.compile(rf"{RANKS}*(?:/{RANKS}*)+")
RANKED_STATE = re.compile(rf"[1-8]:({RANKS}*(?:/{RANKS}*)+)")
CYCLE = re.compile(r"[0-9a-f]{16}")
NAME = re.compile(r"[a-z][a-z0-9 _+-]{0,39}")  # a strategy, status, move or outcome
DECK = re.compile(r"[A-Za-z0-9=,]{1,200}")
VERSION = re.compile(r"[0-9A-Za-z][0-9A-Za-z.+_-]{0,63}")
DIGITS = re.compile(r"[0-9]{1,60}")


class BadValue(ValueError):
    """A value no beggar-search writes; ``str()`` names the field and shows the value safely."""

    def __init__(self, field: str, value):
        shown = ascii(value)
        shown = shown if len(shown) <= 60 else shown[:57] + "..."
        super().__init__(f"{field} {shown}")


def _match(pattern: re.Pattern, value, field: str, optional: bool = False):
    if value is None and optional:
        return None
    if not isinstance(value, str) or pattern.fullmatch(value) is None:
        raise BadValue(field, value)
    return value


def whole(value, field: str, optional: bool = False, low: int = 0) -> int | None:
    """A whole number (not a bool, not text) at least ``low``."""
    if value is None and optional:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise BadValue(field, value)
    return value


def finite(value, field: str, high: float = math.inf) -> float:
    """A finite number from 0 to ``high``."""
    if (not isinstance(value, int | float) or isinstance(value, bool)
            or not math.isfinite(value) or not 0 <= value <= high):
        raise BadValue(field, value)
    return value


LATEST_TIME = 32_503_680_000.0  # the year 3000: a time past it is no time a run was stored


def moment(value, field: str) -> float:
    """A time (seconds since 1970) that can be printed as a date."""
    return finite(value, field, LATEST_TIME)


def deal(value, field: str = "deal", deck=None, optional: bool = False):
    """Deal notation (hands separated by ``/``), of ``deck``'s size when given (a
    ``RankedDeck``: in ranks)."""
    if value is None and optional:
        return None
    _match(RANKED_DEAL if isinstance(deck, RankedDeck) else DEAL, value, field)
    if deck is not None and len(value) - value.count("/") != deck.size:
        raise BadValue(field, value)
    return value


def state(value, field: str = "state", optional: bool = True, deck=None):
    """A state, ``'leader:hands'`` (of a ``RankedDeck``: in ranks)."""
    return _match(RANKED_STATE if isinstance(deck, RankedDeck) else STATE, value, field,
                  optional)


def cycle(value, field: str = "cycle", optional: bool = False):
    """A cycle id (16 hex digits)."""
    return _match(CYCLE, value, field, optional)


def name(value, field: str, optional: bool = False):
    """A name beggar-search writes: a strategy, status, move or outcome."""
    return _match(NAME, value, field, optional)


def number(value, field: str = "number"):
    """A deal index or number, stored as text (it may pass 2**63)."""
    return _match(DIGITS, value, field)


def run_fields(row: dict) -> dict:
    """A ``runs`` row made ready for ``Run``: its JSON decoded and every field checked."""
    data = dict(row)
    whole(data["id"], "id", low=1)
    name(data["strategy"], "strategy")
    name(data["status"], "status")
    _match(VERSION, data["version"], "version")
    for field in ("created", "updated"):
        moment(data[field], field)
    for field in ("seconds", "elapsed"):
        finite(data[field], field)
    for field in ("deals", "loops", "caps", "cards", "chunks"):
        whole(data[field], field)
    data["params"] = _json(data["params"], "parameters", dict)
    params = data["params"]
    deck = _match(DECK, params.get("deck"), "deck")
    if params.get("game", games.DEFAULT) not in games.KINDS:
        raise BadValue("game", params.get("game"))
    kind = games.kind(params.get("game"))
    try:
        kind.deck_class.parse(params["deck"])
    except (DeckError, ValueError):
        raise BadValue("deck", deck) from None
    players = params.get("players")
    if whole(players, "players", low=2) > MAX_PLAYERS:
        raise BadValue("players", players)
    whole(params.get("seed"), "seed", optional=True)
    run_settings(params)
    data["wins"] = _json(data["wins"], "wins", list)
    if len(data["wins"]) != players:
        raise BadValue("wins", data["wins"])
    for wins in data["wins"]:
        whole(wins, "wins")
    return data


# The settings a reader or a strategy takes from a run's parameters: (lowest, highest,
# whether the tool may store None for it).  The highest is what any release let the option
# reach (``--top`` once went to 10^6) or, for the rest, what an int64 kernel argument holds.
INT64_SAFE = 1 << 62
WHOLE_SETTINGS = {
    "top_k": (0, 1_000_000, False), "chunk_size": (1, INT64_SAFE, False),
    "max_tricks": (1, INT64_SAFE, True),
    "deals": (1, None, True),  # an enumeration of every deal may pass 2**63...
    "start": (0, None, False),  # ...and so may its first deal index
    "extend": (0, INT64_SAFE, True), "closure_states": (1, INT64_SAFE, True),
    "extension_states": (0, INT64_SAFE, True), "extend_most": (0, INT64_SAFE, True),
    "deepest": (0, INT64_SAFE, True), "reach_states": (1, INT64_SAFE, False),
    "seed_chunks": (0, INT64_SAFE, True), "seed_rounds": (0, INT64_SAFE, True),
    "seed_fair_deals": (0, INT64_SAFE, True), "kick_shift": (0, INT64_SAFE, False),
    "kick_tries": (1, INT64_SAFE, False), "kick_rounds": (1, INT64_SAFE, True),
    "kick_every": (0, INT64_SAFE, True),
}
REQUIRED_SETTINGS = ("top_k", "chunk_size")  # every run holds them (its strategy's are optional)
MAX_TEXT = 200  # a deal or state of the largest deck, with its separators and leader
HOURS_SETTINGS = ("hours", "until_idle")  # None, or a finite number of hours above 0
SPAN_SETTINGS = ("blocks", "exchanges", "kick_moves")  # [low, high], whole numbers
NAMES_SETTINGS = ("moves", "kicks")  # lists of names
TEXTS_SETTINGS = ("starts", "seeds", "known")  # lists of deals, states or cycle ids


def run_settings(params: dict) -> None:
    """Check the settings of ``params`` that readers and strategies use (``WHOLE_SETTINGS``
    and the rest): each of the type and range the tool stores, or ``BadValue``.  A
    setting a run does not hold is left to its strategy's default."""
    for field, (low, high, nullable) in WHOLE_SETTINGS.items():
        if field in params or field in REQUIRED_SETTINGS:
            value = whole(params.get(field), field, nullable, low)
            if value is not None and high is not None and value > high:
                raise BadValue(field, value)
    for field in HOURS_SETTINGS:
        value = params.get(field)
        if value is not None and (finite(value, field) == 0):
            raise BadValue(field, value)
    for field in SPAN_SETTINGS:
        if field in params:
            span = params[field]
            if not isinstance(span, list) or len(span) != 2:
                raise BadValue(field, span)
            if whole(span[0], field) > whole(span[1], field):
                raise BadValue(field, span)
    start = params.get("start_deal")  # the climber's start deal (parsed by the strategy)
    if start is not None and (not isinstance(start, str) or len(start) > MAX_TEXT):
        raise BadValue("start_deal", start)
    for field in NAMES_SETTINGS + TEXTS_SETTINGS:
        if field in params:
            values = params[field]
            if not isinstance(values, list):
                raise BadValue(field, values)
            for value in values:
                if field in NAMES_SETTINGS:
                    name(value, field)
                elif not isinstance(value, str) or len(value) > MAX_TEXT:
                    raise BadValue(field, value)


def _json(text, field: str, kind: type):
    try:
        value = json.loads(text) if isinstance(text, str) else None
    except (ValueError, RecursionError):
        value = None
    if not isinstance(value, kind):
        raise BadValue(f"{field} (not the JSON beggar-search writes)", text)
    return value


GAME_INTS = ("chunk", "position", "cards", "tricks", "preperiod_tricks", "preperiod_cards",
             "period_tricks", "period_cards")


def game(row: dict, deck) -> dict:
    """A leaderboard or loops row (see ``store.GAME_COLUMNS``) of a run of ``deck``."""
    deal(row["deal"], deck=deck)
    number(row["number"])
    name(row["outcome"], "outcome")
    for field in GAME_INTS:  # the common case at once; ``whole`` says which one is wrong
        value = row[field]
        if type(value) is not int or value < 0:
            whole(value, field)
    whole(row["winner"], "winner", low=-1)
    cycle(row["cycle"], optional=True)
    cycle(row.get("family"), "family", optional=True)
    moment(row["found"], "found")
    return row


CYCLE_INTS = ("period_tricks", "period_cards", "deals", "reach_states", "reach_complete",
              "generation", "own_mirror", "reach_depth", "fair_deals", "fair_deals_swapped")


def cycle_row(row: dict, deck) -> dict:
    """A ``cycles`` row (any of the columns ``store.cycles`` reads)."""
    cycle(row["cycle"])
    for field in ("parent", "mirror"):
        if field in row:
            cycle(row[field], field, optional=True)
    if "example" in row and row["example"] != "":
        # a deal, or (the hunter, the factory) the state the cycle was met at
        if row["example"] is not None and ":" in row["example"]:
            state(row["example"], "example", optional=False, deck=deck)
        else:
            deal(row["example"], "example", deck)
    state(row.get("state"), deck=deck)
    if row.get("move") is not None:
        name(row["move"], "move")
    for field in CYCLE_INTS:
        if field in row:
            whole(row[field], field, optional=field not in ("period_tricks", "period_cards"))
    if "found" in row:
        moment(row["found"], "found")
    return row


def link(pair: tuple) -> tuple:
    """A link between two cycles: a pair of cycle ids."""
    cycle(pair[0], "link")
    cycle(pair[1], "link")
    return pair


def histogram_bin(pair: tuple) -> tuple:
    """A histogram bin: a game length in cards and its count, both whole numbers."""
    whole(pair[0], "histogram length")
    whole(pair[1], "histogram count")
    return pair


def ascii_text(value) -> str:
    """``value`` as text with anything unprintable escaped (for ids read from a file)."""
    return str(value) if isinstance(value, int) and not isinstance(value, bool) else ascii(value)
