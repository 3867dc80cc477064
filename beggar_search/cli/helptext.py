"""``--help`` with its options in sections: the general ones first, then the Egyptian
ratscrew options, the cluster options and the output options, each under its heading (as
Typer's and rich-click's panels group them), so that no command mixes them in one list."""

from __future__ import annotations

import types

import click

# option -> section; every other option is in the first, "Options"
SECTIONS = {
    "--game": "Game (Egyptian ratscrew: --game ers)",
    "--slap-rules": "Game (Egyptian ratscrew: --game ers)",
    "--slap-policy": "Game (Egyptian ratscrew: --game ers)",
    "--slap-in": "Game (Egyptian ratscrew: --game ers)",
    "--workers": "Workers and clusters",
    "--scheduler": "Workers and clusters",
    "--cluster": "Workers and clusters",
    "--device": "Workers and clusters",
    "--quiet": "Output",
    "--json": "Output",
}
ORDER = ["Options", "Game (Egyptian ratscrew: --game ers)", "Workers and clusters", "Output"]


def section_of(param: click.Parameter) -> str:
    """The heading ``param`` is listed under."""
    return next((SECTIONS[name] for name in param.opts if name in SECTIONS), "Options")


def format_options(self, ctx, formatter):
    """``click.Command.format_options``, one section per heading of ``ORDER``."""
    sections: dict[str, list] = {}
    for param in self.get_params(ctx):
        record = param.get_help_record(ctx)
        if record is not None:
            sections.setdefault(section_of(param), []).append(record)
    for heading in ORDER:
        if sections.get(heading):
            with formatter.section(heading):
                formatter.write_dl(sections[heading])


def group_options(command: click.Command) -> None:
    """Give ``command`` and every command under it sectioned option help."""
    if isinstance(command, click.Group):
        for child in command.commands.values():
            group_options(child)
        return
    command.format_options = types.MethodType(format_options, command)
