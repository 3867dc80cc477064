"""``beggar-search search factory``: the closure search over cycles."""

from __future__ import annotations

from dataclasses import asdict, dataclass

import click

from ..cards.deck import MAX_CARDS, STANDARD
from ..tunables import (
    DEFAULT_BLOCKS,
    DEFAULT_EXCHANGES,
    DEFAULT_KICK_MOVES,
    DEFAULT_KICK_SHIFT,
    DEFAULT_KICKS,
    DEFAULT_MOVES,
    GROW_PATIENCE,
    KICK_CHUNK_TRIES,
    KICK_CHUNKS,
    KICK_EVERY,
    KICK_NAMES,
    MOVE_NAMES,
    RANDOM_SEEDING_CARDS,
    REACH_STATES,
    SEED_CHUNK_TRIES,
    SEED_CHUNKS,
    SEED_PATIENCE,
    SEED_ROUNDS,
)
from .common import COUNT, STATES, Hours, UserError, deck_option, open_store
from .game import GameChoice, game_options
from .gathered import gathered
from .options import search_options
from .search import launch, players_option, run_params


def _moves(ctx, param, value):
    names = [name.strip() for name in value.split(",") if name.strip()]
    unknown = [name for name in names if name not in MOVE_NAMES]
    if unknown or not names:
        raise click.BadParameter(f"expected names among {', '.join(MOVE_NAMES)}, not {value!r}")
    return names


def _kicks(ctx, param, value):
    if value.strip() == "none":
        return []
    names = [name.strip() for name in value.split(",") if name.strip()]
    unknown = [name for name in names if name not in KICK_NAMES]
    if unknown or not names:
        raise click.BadParameter(f"expected 'none' or names among {', '.join(KICK_NAMES)},"
                                 f" not {value!r}")
    return names


def _span(lowest: int, highest: int):
    """A MIN-MAX option's callback: lowest <= MIN <= MAX <= highest."""

    def check(ctx, param, value):
        low, _, high = value.partition("-")
        try:
            low, high = int(low), int(high or low)
        except ValueError:
            raise click.BadParameter(f"expected MIN-MAX such as {lowest}-{highest},"
                                     f" not {value!r}") from None
        if not lowest <= low <= high <= highest:
            raise click.BadParameter(f"expected {lowest} <= MIN <= MAX <= {highest},"
                                     f" not {value!r}")
        return [low, high]

    return check


@dataclass(frozen=True)
class KickOptions:
    """The factory's kick options (and exchange lengths), as the run's parameters name them."""

    exchanges: list
    kicks: list
    kick_moves: list
    kick_shift: int
    kick_tries: int
    kick_rounds: int | None
    kick_every: int
    until_idle: float | None


@dataclass(frozen=True)
class SeedOptions:
    """How the factory seeks first cycles: ``--seed-tries``, ``--seed-rounds``, ``--seeding``."""

    seed_tries: int | None
    seed_rounds: int | None
    seeding: str | None


# the seeding options, passed to the command as one ``SeedOptions``, ``seeding``
seed_options = gathered(SeedOptions, "seeding")


def _cycle_game(game: GameChoice, players: int):
    """The factory's ``CycleGame`` for the game chosen; ratscrew under odds is one line."""
    played = game.value(players)
    if not played.deterministic:
        raise UserError(f"search factory --game {game.game} needs a deterministic slap policy"
                        f" (none, first:P or turn): under {game.slap_policy} a game has no"
                        " cycles")
    return played.cycle_game()


# the kick options, passed to the command as one ``KickOptions``, ``kick``
kick_options = gathered(KickOptions, "kick")


@click.command("factory")
@click.option("--from", "starts", metavar="DEAL|STATE", multiple=True,
              help="Start (also) from the cycle of this looping deal or state"
                   " ('2:hands' = player 2 leads); repeatable.")
@click.option("--ignore-known", is_flag=True,
              help="Do not start from the results file's cycles nor the built-in Casella cycle.")
@click.option("--seed-tries", type=click.IntRange(0, COUNT.max), default=None,
              help="Seek first cycles with --seeding before the walk: random states to"
                   " try in each round (grow: any number above 0 runs it twice a round)"
                   " [default: 0, or"
                   f" {SEED_CHUNKS * SEED_CHUNK_TRIES:,} when there is nothing else to start"
                   " from].")
@click.option("--seed-rounds", type=click.IntRange(1, 1 << 20), default=None,
              help="Seeding rounds at most: after the first, each once the walk has closed,"
                   f" while nothing is known yet, then until {SEED_PATIENCE} rounds in a row"
                   f" (grow: {GROW_PATIENCE}; or as many as the first cycle took) meet no new"
                   " cycle (islands moves do not reach)"
                   f" [default: {SEED_ROUNDS} from nothing, else 1].")
@click.option("--seeding", type=click.Choice(["random", "grow"]), default=None,
              help="How --seed-tries finds first cycles: random states, or grow small"
                   " decks' cycles card by card and pad the plain cards in (two players)"
                   f" [default: random up to {RANDOM_SEEDING_CARDS} cards, grow above].")
@click.option("--moves", "move_names", default=",".join(DEFAULT_MOVES), show_default=True,
              callback=_moves, help="Kinds of moves, comma-separated.")
@click.option("--blocks", default=f"{DEFAULT_BLOCKS[0]}-{DEFAULT_BLOCKS[1]}", show_default=True,
              callback=_span(2, MAX_CARDS), metavar="MIN-MAX", help="Lengths of the blocks moved.")
@click.option("--exchanges", default=f"{DEFAULT_EXCHANGES[0]}-{DEFAULT_EXCHANGES[1]}",
              show_default=True, callback=_span(1, 32), metavar="MIN-MAX",
              help="Lengths of the two blocks an exchange move swaps.")
@click.option("--kicks", "kicks", default=",".join(DEFAULT_KICKS), show_default=True,
              callback=_kicks,
              help="Kick kinds taken in turn by kick rounds (compound perturbations of every"
                   f" known cycle's states; among {', '.join(KICK_NAMES)}), or 'none': then"
                   " the run ends when the closure and the seeding bring nothing new.")
@click.option("--kick-moves", default=f"{DEFAULT_KICK_MOVES[0]}-{DEFAULT_KICK_MOVES[1]}",
              show_default=True, callback=_span(1, 16), metavar="MIN-MAX",
              help="Random moves a kick makes before its split shift.")
@click.option("--kick-shift", type=click.IntRange(0, 32), default=DEFAULT_KICK_SHIFT,
              show_default=True, help="A kick moves the split by up to this many cards.")
@click.option("--kick-tries", type=click.IntRange(1, 1 << 30), default=KICK_CHUNK_TRIES,
              show_default=True,
              help=f"Kicks a kick chunk plays ({KICK_CHUNKS} chunks a round).")
@click.option("--kick-rounds", type=click.IntRange(1, 1 << 40), default=None, metavar="N",
              help="Stop after N kick rounds (and the walks they lead to)"
                   " [default: no limit].")
@click.option("--kick-every", type=click.IntRange(0, 1 << 20), default=KICK_EVERY,
              show_default=True, metavar="N",
              help="Within a generation, a kick chunk after every N walk chunks, so that"
                   " kicks go on while a large island is walked (0: kicks only between"
                   " generations and once the closure is dry).")
@click.option("--until-idle", type=Hours(), default=None,
              metavar="HOURS",
              help="With kicks: stop after this many hours without a new cycle"
                   " [default: run until --hours or Ctrl-C].")
@kick_options
@seed_options
@deck_option
@players_option
@click.option("--reach-states", type=STATES, default=REACH_STATES,
              show_default=True, help="Budget of the backward search run on each cycle.")
@search_options
@game_options  # listed last in --help: the ratscrew options together
def factory(starts, ignore_known, move_names, blocks, kick, seeding, deck_spec, players,
            reach_states, game, options):
    """Find cycles near cycles, breadth first, and kick out of islands all night.

    Every state of every known cycle is changed by every move (swap two cards, move
    one card or a block of cards within a hand or to another, exchange two blocks,
    change the leader, move the split); each cycle met is catalogued with its in-tree
    and fair deals (stored as looping deals), then expanded in turn.  Kick rounds try
    compound perturbations of every known cycle's states, which cross between islands
    that single moves do not join.  Starts from the results file's cycles of this deck,
    the Casella cycle (standard deck), --from, and random states.  Runs until --hours,
    Ctrl-C or --until-idle (with --kicks none: until nothing new comes).
    `export --what cycles` lists the family; `plot family` draws it.

    With --game ers (Egyptian ratscrew, deterministic slap policies: none, first:P, turn)
    the same moves and kicks work on ranked states, played by the ratscrew kernel, and
    each cycle's in-tree and fair deals come from ratscrew's backward search; under
    first:P renaming the players is another game, so cycles have no mirrors.  --seeding
    grow is not available there.
    """
    from ..games.loops import CASELLA
    from ..strategies.factory import StartError, start_node

    if options.max_tricks is not None:
        raise UserError("--max-tricks has no effect on search factory: its games are played"
                        " until they loop or end, never cut short")
    deck = game.deck(deck_spec)
    states = _cycle_game(game, players)
    for text in starts:  # checked before the results file is opened (or made)
        try:
            start_node(text, deck, players, states)
        except StartError as error:
            raise UserError(f"--from {error}") from None
    if seeding.seeding == "grow" and (players != 2 or not states.masks):
        raise UserError("--seeding grow works for two players of Beggar-my-neighbour only")
    entries = []
    if not ignore_known:
        if deck == STANDARD and players == 2:
            entries.append(CASELLA)
        with open_store(options.db_path) as store:
            known = store.known_cycles(deck, players, game.run_params(players, None, None))
            entries += [entry for _, entry in sorted(known.items())]
    entries = list(starts) + entries
    seed_rounds = seeding.seed_rounds or (1 if entries else SEED_ROUNDS)
    seed_tries = seeding.seed_tries
    if seed_tries is None:
        seed_tries = 0 if entries else SEED_CHUNKS * SEED_CHUNK_TRIES
    how = seeding.seeding or ("random" if deck.size <= RANDOM_SEEDING_CARDS or players != 2
                              or not states.masks else "grow")
    params = run_params(deck_spec, players, options, game, starts=entries, moves=move_names,
                        blocks=blocks, seed_chunks=-(-seed_tries // SEED_CHUNK_TRIES),
                        seed_rounds=seed_rounds, seeding=how, reach_states=reach_states,
                        **asdict(kick))
    launch("factory", params, options)
