"""The options the search commands share: one object, built by one decorator, passed whole."""

import json

import click
import pytest
from cli_harness import run
from click.testing import CliRunner

from beggar_search.cli.common import COUNT, Hours
from beggar_search.cli.options import RunOptions, SearchOptions, run_options, search_options
from beggar_search.cli.search import launch, run_params
from beggar_search.pools.dask import ClusterOptions
from beggar_search.store import Store


def test_search_options_build_one_object_cluster_included():
    seen = []

    @click.command()
    @click.option("--deals", type=int)
    @search_options
    def command(deals, options):
        seen.append((deals, options))

    result = CliRunner().invoke(command, ["--deals", "5", "--db", "x.sqlite", "--seed", "3",
                                          "--top", "7", "--cluster", "local:2", "--quiet"])
    assert result.exit_code == 0, result.output
    assert seen == [(5, SearchOptions(db_path="x.sqlite", workers=None, quiet=True,
                                      as_json=False, cluster=ClusterOptions(cluster="local:2"),
                                      hours=None, seed=3, top_k=7, max_tricks=None,
                                      chunk_size=None))]


def test_run_options_keep_the_commands_own():
    seen = []

    @click.command()
    @run_options(click.option("--run", "run_id", type=int))
    def command(run_id, options):
        seen.append((run_id, options))

    assert CliRunner().invoke(command, ["--run", "4", "--json"]).exit_code == 0
    assert seen == [(4, RunOptions(as_json=True))]


def test_launch_works_outside_click(tmp_path, capsys):
    options = SearchOptions(db_path=str(tmp_path / "r.sqlite"), workers=1, quiet=True,
                            as_json=True, seed=1, top_k=5)
    launch("random", run_params("plain=8,J=2,Q=2", 2, options, deals=3000), options)
    summary = json.loads(capsys.readouterr().out)
    assert (summary["deals"], summary["status"], summary["seed"]) == (3000, "done", 1)
    with Store(tmp_path / "r.sqlite", create=False) as store:
        assert store.run().deals == 3000


def leaf_commands(command, path=()):
    """Every command under ``command`` with the words that name it."""
    if isinstance(command, click.Group):
        for name, child in sorted(command.commands.items()):
            yield from leaf_commands(child, (*path, name))
    else:
        yield path, command


def test_help_lists_the_ratscrew_cluster_and_output_options_under_their_headings():
    """The newcomer's report (item 16): the four ratscrew options sat among the general ones
    in 8 commands, and nothing was grouped."""
    from beggar_search.cli import cli
    from beggar_search.cli.helptext import ORDER, SECTIONS

    seen = set()
    for path, _command in leaf_commands(cli):
        shown = run(*path, "--help")
        assert shown.returncode == 0, shown.output
        text = shown.stdout
        headings = [line[:-1] for line in text.splitlines() if line.endswith(":")
                    and not line.startswith(" ") and not line.startswith("Usage")]
        assert headings == [h for h in ORDER if h in headings] and headings[0] == "Options", path
        for heading in headings[1:]:
            seen.add(heading)
            listed = text.split(f"\n{heading}:\n")[1].split("\n\n")[0]
            names = {word for word in listed.split() if word.startswith("--")}
            assert names and all(SECTIONS.get(name.split("/")[0]) == heading
                                 for name in names if name in SECTIONS), (path, names)
        general = text.split("\nOptions:\n")[1].split("\n\n")[0]
        assert not any(f"  {name} " in general for name in SECTIONS), path
    assert seen == set(ORDER[1:])


def test_chunk_size_help_gives_the_defaults_the_strategies_use():
    """The help is formatted from ``tunables`` without loading a strategy: each figure is the
    one the strategy's ``prepare`` fills in."""
    from beggar_search.engine.kernels import BITBOARD_PLAYERS
    from beggar_search.strategies import STRATEGIES
    from beggar_search.tunables import CLIMB_CHUNKS

    def default(name, players=2, deck="standard"):
        return STRATEGIES[name].prepare({"deck": deck, "players": players})["chunk_size"]

    result = run("search", "climb", "--help", width=2000)
    assert result.returncode == 0, result.output
    line = next(line for line in result.lines if "--chunk-size" in line)
    random, climb = default("random"), default("climb")
    assert climb == CLIMB_CHUNKS * random  # the help's "N x random's" (it once said 4, for 8)
    low, high = min(BITBOARD_PLAYERS), max(BITBOARD_PLAYERS)
    assert {default("random", players, "camicia") for players in BITBOARD_PLAYERS} == {random}
    other = default("random", high + 1)
    assert other != random
    assert f"random {random:,} with {low}-{high} players of Beggar-my-neighbour, else {other:,};" \
        in line
    assert f"enumerate {default('enumerate'):,};" in line
    assert f"climb {CLIMB_CHUNKS} x random's ({climb:,})" in line
    assert f"factory {default('factory'):,} moves; hunt {default('hunt'):,} tries]" in line


@pytest.mark.parametrize(("text", "hours"), [("8", 8.0), ("0.5", 0.5), ("8h", 8.0),
                                             ("30m", 0.5), ("1h30m", 1.5), ("90s", 0.025),
                                             ("1h 30min", 1.5)])
def test_hours_are_read_with_or_without_units(text, hours):
    assert Hours().convert(text, None, None) == pytest.approx(hours)


@pytest.mark.parametrize(("text", "count"), [("2e6", 2_000_000), ("2_000_000", 2_000_000),
                                             ("2000000", 2_000_000), ("2.0e3", 2000)])
def test_counts_are_read_in_the_forms_people_write(text, count):
    assert COUNT.convert(text, None, None) == count


@pytest.mark.parametrize(("args", "says"), [
    (["search", "random", "--deals", "2.5"], "'2.5' is not a whole number: write it as 2000000"),
    (["search", "random", "--deals", "2e6x"], "or 2e6"),
    (["search", "random", "--hours", "8x"], "write it as 8, 0.5, 8h, 30m or 1h30m"),
    (["search", "random", "--deck", "camica"], "unknown deck 'camica': did you mean camicia?"),
    (["search", "random", "--deck", "plain=14,J=2,Q=2,K=2,X=1"], "unknown card value 'X'"),
    (["search", "random", "--deck", "plain=14,J"], "'J' has no count (write it as J=2)"),
])
def test_bad_input_is_refused_naming_the_bad_part(tmp_path, args, says):
    done = run(*args, "--db", str(tmp_path / "r.sqlite"))
    assert done.returncode == 2, done.stderr
    assert says in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert not (tmp_path / "r.sqlite").exists()
