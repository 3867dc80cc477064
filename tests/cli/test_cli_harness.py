"""The suite's harness (``tests/cli_harness.py``) gives main's real outcomes: exit status 2
with one line, 130 for a Ctrl-C, an exception raised (not a status 1), the environment and
the folder for the call only."""

import os

import pytest
from cli_harness import Ran, command, run

from beggar_search.cli import cli


@pytest.fixture
def failing_command():
    """A command ``fail`` that raises the error it is given, printing a line first."""
    raised = []

    @cli.command("fail")
    def fail():
        print("half a result")
        raise raised[0]

    yield raised
    cli.commands.pop("fail")


def test_a_bad_option_is_main_s_one_line_and_exit_2():
    result = run("show", "--no-such-option")
    assert isinstance(result, Ran) and result.args == ("show", "--no-such-option")
    assert result.returncode == 2 and result.stdout == ""
    assert result.error_lines == [
        "beggar-search show: error: No such option '--no-such-option'."], result.stderr


def test_a_ctrl_c_is_130_and_an_exception_main_lets_through_is_raised(failing_command):
    failing_command.append(KeyboardInterrupt())
    result = run("fail")
    assert (result.returncode, result.stdout) == (130, "half a result\n")
    assert result.stderr.strip() == "beggar-search: interrupted"
    failing_command[0] = ZeroDivisionError("a defect")
    with pytest.raises(ZeroDivisionError) as raised:
        run("fail")
    assert "half a result" in "".join(raised.value.__notes__)  # what it wrote, shown


def test_json_lines_and_the_environment_and_folder_for_the_call_only(tmp_path, monkeypatch):
    monkeypatch.setenv("BEGGAR_SEARCH_DB", "kept.sqlite")
    here = os.getcwd()
    result = run("runs", env={"BEGGAR_SEARCH_DB": "none.sqlite", "BEGGAR_SEARCH_LOCK_WAIT": "0"},
                 cwd=tmp_path)
    assert result.returncode == 2 and "none.sqlite" in result.stderr, result.output
    assert os.environ["BEGGAR_SEARCH_DB"] == "kept.sqlite" and os.getcwd() == here
    assert "BEGGAR_SEARCH_LOCK_WAIT" not in os.environ
    shown = run("deal", "--count", "--json", "--deck", "plain=14,J=2,Q=2,K=2")
    assert shown.returncode == 0 and shown.json_lines() == [shown.json()]
    assert shown.json()["deal_count"] == 3488400


def test_command_is_the_module_entry_point(tmp_path):
    argv = command("show", "--db", tmp_path / "r.sqlite")
    assert argv[1:] == ["-m", "beggar_search", "show", "--db", str(tmp_path / "r.sqlite")]
