"""The command line: play and deal, as a user types them."""

import json
import subprocess

from cli_harness import command, run
from published import CASELLA, NESSLER


def ok(*args):
    result = run(*args)
    assert result.returncode == 0, result.output
    return result.stdout


def test_play_json_has_the_documented_keys():
    loop = json.loads(ok("play", CASELLA, "--json"))
    assert {k: loop[k] for k in ("outcome", "cards", "tricks", "winner", "preperiod_tricks",
                                 "preperiod_cards", "period_tricks", "period_cards")} == {
        "outcome": "loop", "cards": 474, "tricks": 66, "winner": 0, "preperiod_tricks": 4,
        "preperiod_cards": 34, "period_tricks": 62, "period_cards": 440}
    assert loop["hand_sizes"] == [42, 10]
    win = json.loads(ok("play", NESSLER, "--json"))
    assert (win["outcome"], win["cards"], win["tricks"], win["winner"]) == ("win", 8344, 1164, 2)
    capped = json.loads(ok("play", NESSLER, "--json", "--max-tricks", "100"))
    assert capped["outcome"] == "cap" and capped["tricks"] == 100
    assert capped["winner"] == 1 + capped["hand_sizes"].index(max(capped["hand_sizes"]))


def test_play_text_and_trace():
    text = ok("play", NESSLER)
    assert "8344" in text and "1164" in text and "player 2" in text
    trace = ok("play", CASELLA, "--trace").splitlines()
    tricks = [line for line in trace if line.startswith("trick ")]
    assert len(tricks) == 66
    assert "cycle starts" in tricks[3] and "repeats" in tricks[65]
    lines = [json.loads(line) for line in ok("play", CASELLA, "--trace", "--json").splitlines()]
    assert len(lines) == 67 and lines[-1]["outcome"] == "loop"
    assert sum(len(line["laid"]) for line in lines[:-1]) == 474


def test_play_other_decks_and_players():
    result = json.loads(ok("play", "-J--Q-K---/K--Q--J---/----------", "--deck",
                            "plain=24,J=2,Q=2,K=2", "--json"))
    assert sum(result["hand_sizes"]) == 30 and len(result["hand_sizes"]) == 3


def test_deal_index_commands():
    assert ok("deal", "--index", "0").strip() == "-" * 26 + "/" + "-" * 10 + "JJJJQQQQKKKKAAAA"
    index = ok("deal", "--rank", NESSLER).strip()
    assert ok("deal", "--index", index).strip() == NESSLER
    assert ok("deal", "--count", "--deck", "plain=14,J=2,Q=2,K=2").strip() == "3488400"


def test_module_entry_point_and_help():
    for args in (["--help"], ["play", "--help"], ["search", "random", "--help"],
                 ["search", "enumerate", "--help"], ["export", "--help"]):
        result = subprocess.run(command(*args), capture_output=True, text=True)
        assert result.returncode == 0 and "Usage" in result.stdout
