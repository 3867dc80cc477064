"""Every command's ``--json`` against the documented vocabulary (docs/json-schema.json).

Each command runs in-process through ``beggar_search.cli.main`` on small decks; every line it
prints must be one JSON object of a record type the schema gives for that command (each
record type refuses keys it does not list, so an undocumented key fails here), and
docs/json.md must be the schema's rendering.
"""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path

import pytest
from cli_harness import Ran, run
from published import CASELLA

jsonschema = pytest.importorskip("jsonschema")

# under pytest-xdist every test of this file runs on one worker: the module's ``printed``
# (every command run once) is made once, not once per worker
pytestmark = pytest.mark.xdist_group("json_schema")

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = json.loads((ROOT / "docs" / "json-schema.json").read_text())
VALIDATOR = jsonschema.Draft202012Validator
FORMATS = jsonschema.FormatChecker()

TINY = "plain=5,J=2,Q=1,K=1"  # 1,512 deals, two cycles: an enumeration and a factory in seconds
SMALL = "plain=8,J=2,Q=3,K=3"
ERS = "8=2,9=2,T=1,J=2,Q=1"  # 5,040 deals; 6 cycles under turn
NESSLER = "---AJ--Q---------QAKQJJ-QK/-----A----KJ-K--------A---"
ERS_DECK, ERS_LOOP = "9=4,T=4,J=2,Q=1,K=1", "T99JTT/9KTQJ9"
QUIET = ["--workers", "1", "--quiet", "--json"]
TURN = ["--game", "ers", "--slap-policy", "turn"]

# (name, the schema's command, argv); the searches come first: the others read their files.
# Runs of a.sqlite: 1 random, 2 enumerate, 3 climb, 4 factory, 5 hunt; of e.sqlite: 1 random,
# 2 factory (ratscrew); of s.sqlite: 1 random (the standard deck, for show's record odds).
COMMANDS = [
    ("search random", "search random",
     ["search", "random", "--deals", "4000", "--deck", SMALL, "--db", "a.sqlite", *QUIET]),
    ("search enumerate", "search enumerate",
     ["search", "enumerate", "--deck", TINY, "--db", "a.sqlite", *QUIET]),
    ("search climb", "search climb",
     ["search", "climb", "--deals", "4000", "--chunk-size", "2000", "--deck", SMALL,
      "--db", "a.sqlite", *QUIET]),
    ("search factory", "search factory",
     ["search", "factory", "--deck", TINY, "--kicks", "none", "--seed-tries", "5000",
      "--blocks", "2-3", "--db", "a.sqlite", *QUIET]),
    ("search hunt", "search hunt",
     ["search", "hunt", "--tries", "4000", "--deck", TINY, "--db", "a.sqlite", *QUIET]),
    ("search resume", "search resume",
     ["search", "resume", "--db", "a.sqlite", "--run", "1", *QUIET]),
    ("ers search random", "search random",
     ["search", "random", *TURN, "--deals", "2000", "--deck", ERS, "--db", "e.sqlite", *QUIET]),
    ("ers search factory", "search factory",
     ["search", "factory", *TURN, "--deck", ERS, "--kicks", "none", "--seed-tries", "5000",
      "--db", "e.sqlite", *QUIET]),
    ("runs", "runs", ["runs", "--db", "a.sqlite", "--json"]),
    ("ers runs", "runs", ["runs", "--db", "e.sqlite", "--json"]),
    *[(f"show run {run}", "show", ["show", "--db", "a.sqlite", "--run", str(run), "--top", "3",
                                   "--json"]) for run in (1, 2, 3, 4, 5)],
    ("show by family", "show", ["show", "--db", "a.sqlite", "--run", "3", "--top", "3",
                                "--by-family", "--json"]),
    ("export by family", "export --what longest",
     ["export", "--db", "a.sqlite", "--run", "3", "--what", "longest", "--by-family", "--json"]),
    ("ers show", "show", ["show", "--db", "e.sqlite", "--run", "2", "--top", "3", "--json"]),
    *[(f"export {what} run {run}", f"export --what {what}",
       ["export", "--db", "a.sqlite", "--run", str(run), "--what", what, "--json"])
      for what, runs in (("longest", (1, 3)), ("loops", (2, 4)), ("cycles", (2, 4)),
                         ("histogram", (1, 2))) for run in runs],
    ("ers export cycles", "export --what cycles",
     ["export", "--db", "e.sqlite", "--run", "2", "--what", "cycles", "--json"]),
    ("reach", "reach", ["reach", "--json", CASELLA]),
    ("reach budget", "reach", ["reach", "--json", "--max-states", "100", CASELLA]),
    ("ers reach", "reach", ["reach", "--json", *TURN, "--deck", ERS_DECK, ERS_LOOP]),
    ("play loop", "play", ["play", "--json", CASELLA]),
    ("play win", "play", ["play", "--json", NESSLER]),
    ("play trace", "play --trace", ["play", "--json", "--trace", "--max-tricks", "3", NESSLER]),
    ("ers play trace", "play --trace",
     ["play", "--json", "--trace", *TURN, "--deck", ERS_DECK, ERS_LOOP, "--max-tricks", "4"]),
    ("deal count", "deal", ["deal", "--count", "--json"]),
    ("deal index", "deal", ["deal", "--index", "5", "--players", "3", "--json"]),
    ("deal rank", "deal", ["deal", "--rank", CASELLA, "--json"]),
    ("ers deal", "deal", ["deal", "--game", "ers", "--deck", ERS_DECK, "--index", "7", "--json"]),
    ("bench", "bench", ["bench", "--deck", SMALL, "--deals", "20000", "--general-deals", "2000",
                        "--workers", "2", "--json"]),
    ("ers bench", "bench", ["bench", *TURN, "--deck", ERS, "--deals", "20000",
                            "--general-deals", "2000", "--json"]),
    ("plot lengths", "plot lengths",
     ["plot", "lengths", "--db", "a.sqlite", "--run", "1", "--vs", "3", "--out", "l.png",
      "--json"]),
    ("plot game", "plot game", ["plot", "game", "--out", "g.png", "--json", CASELLA]),
    ("plot cycles", "plot cycles",
     ["plot", "cycles", "--db", "a.sqlite", "--run", "2", "--out", "c.png", "--json"]),
    ("plot family", "plot family",
     ["plot", "family", "--db", "a.sqlite", "--run", "4", "--out", "f.png", "--json"]),
    ("plot families", "plot families",
     ["plot", "families", "--db", "a.sqlite", "--run", "3", "--out", "fam.png", "--json"]),
    ("ers plot families", "plot families",
     ["plot", "families", "--db", "e.sqlite", "--run", "1", "--out", "efam.png", "--json"]),
    ("ers plot lengths", "plot lengths",
     ["plot", "lengths", "--db", "e.sqlite", "--run", "1", "--out", "el.png", "--json"]),
    ("ers plot game", "plot game",
     ["plot", "game", *TURN, "--deck", ERS_DECK, "--out", "eg.png", "--json", ERS_LOOP]),
    ("ers plot cycles", "plot cycles",
     ["plot", "cycles", "--db", "e.sqlite", "--run", "2", "--out", "ec.png", "--json"]),
    ("ers plot family", "plot family",
     ["plot", "family", "--db", "e.sqlite", "--run", "2", "--out", "ef.png", "--json"]),
    ("odds", "odds", ["odds", "--db", "a.sqlite", "--run", "1", "--cards", "120", "--deals",
                      "1e9", "--json"]),
    ("odds climb hours", "odds", ["odds", "--db", "a.sqlite", "--run", "3", "--cards", "120",
                                  "--hours", "8", "--workers", "16", "--json"]),
    ("plot tail", "plot tail", ["plot", "tail", "--db", "a.sqlite", "--run", "1", "--cards",
                                "120", "--out", "t.png", "--json"]),
    ("ers plot tail", "plot tail", ["plot", "tail", "--db", "e.sqlite", "--run", "1",
                                    "--cards", "40", "--out", "et.png", "--json"]),
    # a deck whose longest game is known: show gives the odds of beating it
    ("search random standard", "search random",
     ["search", "random", "--deals", "20000", "--db", "s.sqlite", *QUIET]),
    ("show standard", "show", ["show", "--db", "s.sqlite", "--top", "1", "--json"]),
    ("recover", "recover", ["recover", "--db", "a.sqlite", "--out", "r.sqlite", "--json"]),
    ("report", "report", ["report", "--db", "a.sqlite", "--out", "site", "--replays", "2",
                          "--cycle-pages", "2", "--json"]),
]


@pytest.fixture(scope="module")
def printed(tmp_path_factory) -> dict[str, Ran]:
    """Every command of ``COMMANDS`` run once, in order, in one folder."""
    pytest.importorskip("matplotlib")
    folder = tmp_path_factory.mktemp("json")
    outputs = {}
    for name, _, argv in COMMANDS:
        if name == "search resume":  # a run stopped after its last chunk was stored
            with sqlite3.connect(folder / "a.sqlite") as db:
                db.execute("UPDATE runs SET status = 'stopped' WHERE id = 1")
            db.close()
        outputs[name] = run(*argv, cwd=folder)
    return outputs


def validator(record: str):
    """A validator of record type ``record`` that resolves the schema's ``$defs``."""
    return VALIDATOR({**SCHEMA, "$ref": f"#/$defs/{record}"}, format_checker=FORMATS)


def records_of(text: str) -> list[dict]:
    """The JSON objects of a command's stdout, one a line."""
    lines = text.splitlines()
    assert lines, "nothing on stdout"
    objects = [json.loads(line) for line in lines]
    assert all(isinstance(one, dict) for one in objects)
    return objects


def matches(record_types: list[str], objects: list[dict]) -> list[str]:
    """The record type of each object: the first of ``record_types`` (in the order the
    command prints them) that it is valid against; an object valid against none fails."""
    found = []
    for one in objects:
        valid = [name for name in record_types if validator(name).is_valid(one)]
        if not valid:
            errors = {name: [e.message for e in validator(name).iter_errors(one)][:3]
                      for name in record_types}
            pytest.fail(f"{json.dumps(one)[:300]} matches no record of {record_types}: {errors}")
        found.append(valid[0])
    return found


def test_the_schema_is_a_valid_json_schema():
    VALIDATOR.check_schema(SCHEMA)
    listed = {name for names in SCHEMA["x-commands"].values() for name in names}
    for name, record in SCHEMA["$defs"].items():
        assert record.get("additionalProperties") is False, name  # undocumented keys fail
        for key, prop in record["properties"].items():
            assert prop.get("description"), (name, key)  # every key has its meaning
    nested = {"longest", "game_row", "cycle_row", "timing", "plot_lengths_run", "record"}
    assert listed | nested == set(SCHEMA["$defs"])


@pytest.mark.parametrize(("name", "command", "argv"), COMMANDS, ids=[c[0] for c in COMMANDS])
def test_every_line_of_every_command_is_a_documented_record(printed, name, command, argv):
    done = printed[name]
    assert done.returncode == 0, done.stderr
    objects = records_of(done.stdout)
    kinds = matches(SCHEMA["x-commands"][command], objects)
    if command == "play --trace":
        assert kinds[-1] == "play" and set(kinds[:-1]) == {"trick"} and len(kinds) > 1
    elif command.startswith("export") or command == "runs":
        assert len(kinds) >= 1
    else:
        assert len(kinds) == 1, kinds


def test_the_vocabulary_holds_in_the_output(printed):
    """One name, one meaning: booleans are booleans, times are ISO, the unit names its count."""
    summaries = {name: records_of(printed[name].stdout)[0] for name in
                 ("search random", "search climb", "search factory", "search hunt")}
    assert summaries["search random"]["unit"] == "deals"
    assert "tries" not in summaries["search random"]
    assert summaries["search climb"]["unit"] == "games"
    assert summaries["search climb"]["games"] == summaries["search climb"]["deals"]
    for name in ("search factory", "search hunt"):
        summary = summaries[name]
        assert summary["unit"] == "tries" and summary["tries"] == summary["deals"] > 0
        assert summary["tries_per_second"] == summary["deals_per_second"]
    factory = summaries["search factory"]
    assert factory["fair_deal_count"] == factory["fair_deals"] > 0
    shown = records_of(printed["show run 4"].stdout)[0]
    cycles = records_of(printed["export cycles run 4"].stdout)
    assert len(shown["cycle_list"]) == len(cycles) == factory["cycles"] > 0
    for row in [*shown["cycle_list"], *cycles]:
        assert isinstance(row["reach_complete"], bool) and isinstance(row["own_mirror"], bool)
        assert row["fair_deal_count"] == row["fair_deals"]
        assert row["found"].endswith("+00:00")
    assert sum(row["fair_deal_count"] + row["fair_deal_swapped_count"] for row in cycles) >= (
        factory["fair_deal_count"])
    for row in records_of(printed["show run 1"].stdout)[0]["leaderboard"]:
        assert row["found"].endswith("+00:00") and isinstance(row["number"], str)
    reached = records_of(printed["reach"].stdout)[0]
    assert reached["fair_deal_count"] == len(reached["fair_deals"]) == 18  # Casella's
    assert reached["reach_states"] == reached["states"] == 2670
    assert reached["reach_complete"] is True
    assert records_of(printed["reach budget"].stdout)[0]["reach_complete"] is False
    count = records_of(printed["deal count"].stdout)[0]
    assert count["deal_count"] == count["deals"] == 653_534_134_886_878_245_000
    assert records_of(printed["deal rank"].stdout)[0]["deal"] == CASELLA
    assert records_of(printed["play loop"].stdout)[0]["game"] == "bmn"
    bench = records_of(printed["bench"].stdout)[0]
    for value in (bench["fast"]["seconds"], bench["deals_ratio"], bench["parallel_speedup"]):
        assert round(value, 3) == value


def test_the_same_key_has_the_same_type_everywhere():
    """A key's JSON type is the same in every record that has it (deprecated keys, kept for
    their old meaning, are the only exceptions)."""
    seen: dict[str, tuple[str, object]] = {}
    for name, record in SCHEMA["$defs"].items():
        for key, prop in record["properties"].items():
            if prop.get("deprecated"):
                continue
            kind = prop.get("$ref") or prop.get("type") or [c.get("$ref") or c.get("type")
                                                            for c in prop.get("anyOf", ())]
            kind = sorted(k for k in (kind if isinstance(kind, list) else [kind]) if k != "null")
            if key in seen:
                assert seen[key][1] == kind, (key, seen[key][0], name)
            else:
                seen[key] = (name, kind)


def test_json_md_is_rendered_from_the_schema():
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import json_docs
    finally:
        sys.path.pop(0)
    page = (ROOT / "docs" / "json.md").read_text()
    assert json_docs.page(SCHEMA, page) == page, "run python scripts/json_docs.py"
    for record in SCHEMA["$defs"].values():
        for key in record["properties"]:
            assert f"`{key}`" in page


def keys_seen(printed) -> dict[str, set[str]]:
    """Every key each record type showed in the commands' output (nested records too)."""
    seen: dict[str, set[str]] = {name: set() for name in SCHEMA["$defs"]}

    def visit(record: str, one: dict):
        seen[record] |= set(one)
        for key, value in one.items():
            prop = SCHEMA["$defs"][record]["properties"][key]
            target = (prop.get("$ref") or prop.get("items", {}).get("$ref")
                      or next((c["$ref"] for c in prop.get("anyOf", ()) if "$ref" in c), None))
            if target and value is not None:
                for item in value if isinstance(value, list) else [value]:
                    visit(target.rsplit("/", 1)[1], item)

    for name, command, _ in COMMANDS:
        objects = records_of(printed[name].stdout)
        for kind, one in zip(matches(SCHEMA["x-commands"][command], objects), objects,
                             strict=True):
            visit(kind, one)
    return seen


def test_every_documented_key_is_printed_by_some_command(printed):
    """The schema lists no key that no command prints (the `x-device` keys are `--device gpu`'s,
    checked in tests/test_gpu.py under the simulator; ``plot_game``'s loop keys come from a
    loop, ``slapper`` from a ratscrew trace, ``fast_parallel`` from ``bench --workers 2``)."""
    seen = keys_seen(printed)
    missing = {name: sorted({key for key, prop in record["properties"].items()
                             if not prop.get("x-device")} - seen[name])
               for name, record in SCHEMA["$defs"].items()}
    missing = {name: keys for name, keys in missing.items() if keys}
    total = sum(len(record["properties"]) for record in SCHEMA["$defs"].values())
    print(f"\n{len(COMMANDS)} command lines, {len(SCHEMA['$defs'])} record types, "
          f"{sum(map(len, seen.values()))} of {total} documented keys printed")
    assert not missing, missing


def json_commands(group, path=()) -> list[str]:
    """Every command under ``group`` that takes ``--json``, as its command path."""
    import click

    found = []
    for name, command in group.commands.items():
        if isinstance(command, click.Group):
            found += json_commands(command, (*path, name))
        elif any("--json" in option.opts for option in command.params
                 if isinstance(option, click.Option)):
            found.append(" ".join((*path, name)))
    return found


def test_every_command_with_json_is_in_the_schema_and_in_this_test():
    """A new command with --json needs its records in docs/json-schema.json and a line here."""
    from beggar_search.cli import cli

    documented = {" ".join(key.split(" --")[0].split()) for key in SCHEMA["x-commands"]}
    tested = {command.split(" --")[0] for _, command, _ in COMMANDS}
    commands = json_commands(cli)
    assert len(commands) >= 17
    assert set(commands) <= documented, sorted(set(commands) - documented)
    assert set(commands) <= tested, sorted(set(commands) - tested)
