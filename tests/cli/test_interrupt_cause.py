"""Only a Ctrl-C is 'interrupted' (issue 38, D2: click turns an EOFError into Abort, and an
empty file of the kernel cache made every command say 'interrupted', exit 130)."""

import click
import pytest
from cli_harness import run

from beggar_search.cli import cli, main


@pytest.fixture
def failing_command():
    """A command ``fail`` that raises the error it is given."""
    raised = []

    @cli.command("fail")
    def fail():
        raise raised[0]

    yield raised
    cli.commands.pop("fail")


def test_an_eof_error_is_not_read_as_a_ctrl_c(failing_command, capsys):
    """main itself: the EOFError goes out of it (a traceback, in a process), so what stderr
    held is read with capsys (``cli_harness.run`` raises it as well)."""
    failing_command.append(EOFError("Ran out of input"))
    with pytest.raises(EOFError):
        main(["fail"])
    assert "interrupted" not in capsys.readouterr().err


def test_a_ctrl_c_is_interrupted_exit_130(failing_command):
    failing_command.append(KeyboardInterrupt())
    result = run("fail")
    assert result.returncode == 130
    assert result.stderr.strip() == "beggar-search: interrupted"


def test_click_turns_an_eof_error_into_abort():
    """What the test above guards against, in click itself."""
    @click.command()
    def eof():
        raise EOFError

    with pytest.raises(click.exceptions.Abort) as abort:
        eof.main([], standalone_mode=False)
    assert isinstance(abort.value.__cause__, EOFError)
