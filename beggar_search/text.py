"""Words for counts in the lines the command prints."""

from __future__ import annotations


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """``1 kernel``, ``2 kernels``: a count with its noun, thousands separated."""
    return f"{count:,} {noun if count == 1 else (nouns or noun + 's')}"
