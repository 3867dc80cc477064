"""Words for counts in the lines the command prints."""

from __future__ import annotations


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """``1 kernel``, ``2 kernels``: a count with its noun, thousands separated."""
    return f"{count:,} {noun if count == 1 else (nouns or noun + 's')}"


def short(count: float) -> str:
    """A count in a few characters: ``1,234``, ``12.3 k``, ``4.5 M``, ``6.7 G``."""
    for least, scale, suffix in ((1e9, 1e9, " G"), (1e6, 1e6, " M"), (1e4, 1e3, " k")):
        if count >= least:
            return f"{count / scale:.1f}{suffix}"
    return f"{round(count):,}"
