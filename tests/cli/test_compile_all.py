"""`beggar-search compile --all` on two cores: the second share of ``ALL_PLAN`` compiles in a
helper process (``cli.compile.Helper``) beside the first; a helper that cannot go on leaves
its share to the parent, and one still compiling when the parent stops is ended."""

import pytest
from cli_harness import run

from beggar_search.cli import compile as compile_command

TINY = "plain=5,J=2,Q=1,K=1"
FIRST = ("search", "enumerate", "--deck", TINY)
SECOND = ("search", "random", "--deck", TINY, "--players", "3")


@pytest.fixture
def two_cores_tiny_plan(monkeypatch):
    """``--all`` as two tiny workloads, one a share, on a machine of two cores."""
    monkeypatch.setattr(compile_command, "ALL_WORKLOADS", (FIRST, SECOND))
    monkeypatch.setattr(compile_command, "ALL_PLAN", ((FIRST,), (SECOND,)))
    monkeypatch.setattr(compile_command, "default_workers", lambda: 2)


def said_for(text: str, workload) -> bool:
    return any(line.startswith(" ".join(workload) + ": ") for line in text.splitlines())


def test_the_second_share_compiles_in_a_helper_process(two_cores_tiny_plan, capfd):
    result = run("compile", "--all")
    assert result.returncode == 0, result.output
    assert result.stdout == ""
    assert said_for(result.stderr, FIRST)  # the parent's own line
    assert not said_for(result.stderr, SECOND)  # not said by this process...
    assert said_for(capfd.readouterr().err, SECOND)  # ...but on the same stderr, by the helper
    assert result.error_lines[-1].startswith("beggar-search: 2 workloads ready in")


def test_one_core_compiles_every_workload_here(two_cores_tiny_plan, monkeypatch):
    monkeypatch.setattr(compile_command, "default_workers", lambda: 1)
    result = run("compile", "--all")
    assert result.returncode == 0, result.output
    assert said_for(result.stderr, FIRST) and said_for(result.stderr, SECOND)
    assert result.error_lines[-1].startswith("beggar-search: 2 workloads ready in")


def test_a_helper_that_cannot_go_on_leaves_its_share_to_the_parent(two_cores_tiny_plan,
                                                                  monkeypatch):
    monkeypatch.setattr(compile_command.Helper, "finish", lambda self: None)
    result = run("compile", "--all")
    assert result.returncode == 0, result.output
    assert ("beggar-search: the second compiling process stopped; its workloads compile here"
            in result.error_lines)
    assert said_for(result.stderr, FIRST) and said_for(result.stderr, SECOND)
    assert result.error_lines[-1].startswith("beggar-search: 2 workloads ready in")


def test_a_helper_whose_workload_fails_says_so_in_place_of_its_count():
    helper = compile_command.Helper([("search", "random", "--deck", "camica")])
    try:
        assert helper.finish() is None
    finally:
        helper.stop()
    assert not helper.process.is_alive()


def test_a_helper_still_compiling_is_ended_when_the_parent_stops():
    helper = compile_command.Helper([SECOND] * 50)
    helper.stop()  # as the parent's `finally` does after a Ctrl-C
    assert not helper.process.is_alive()
    assert helper.process.exitcode is not None
