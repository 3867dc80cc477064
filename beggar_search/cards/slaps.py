"""Egyptian ratscrew's slap rules and slap policy: parsed, checked, and laid out for the
kernel (``engine.ers.Slaps``).

``--slap-rules``: ``pair`` (default) or ``pair,sandwich``.  ``--slap-policy``: ``none``,
``first:P``, ``turn`` or ``odds:p1,...,pN``.  ``--slap-in/--no-slap-in``: whether players
out of cards may slap back in.  docs/rules.md says what each one means.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .deck import DeckError

PATTERNS = ("pair", "sandwich")
POLICIES = ("none", "first", "turn", "odds")
SLAP_KEY = 0xE75  # the spawn key (0, 0, SLAP_KEY) of a run's slap key: no chunk stream has it
ODDS_TOLERANCE = 1e-9


class SlapError(DeckError):
    """Slap rules or a slap policy that cannot be used (one line for the command line)."""


def slap_key(seed: int | None) -> int:
    """The run's slap key (an int64), from its seed (0 when it has none)."""
    sequence = np.random.SeedSequence(entropy=int(seed or 0), spawn_key=(0, 0, SLAP_KEY))
    return int(sequence.generate_state(1, dtype=np.uint64).view(np.int64)[0])


@dataclass(frozen=True)
class SlapRules:
    """Which patterns may be slapped, who wins a slap, whether players out may slap back in."""

    patterns: tuple[str, ...] = ("pair",)
    policy: str = "none"
    target: int = 0  # first:P, P from 0
    odds: tuple[float, ...] = ()
    slap_in: bool = True
    key: int = 0  # the run's slap key (``slap_key``), drawn on under odds only

    @classmethod
    def parse(cls, rules: str = "pair", policy: str = "none", slap_in: bool = True,
              players: int = 2, seed: int | None = None) -> SlapRules:
        """The slap rules of ``rules`` (patterns) and ``policy`` among ``players``, keyed by the
        run's ``seed``; anything unusable is a ``SlapError``."""
        patterns = tuple(p.strip().lower() for p in rules.split(",") if p.strip())
        unknown = [p for p in patterns if p not in PATTERNS]
        if not patterns or unknown:
            raise SlapError(f"unknown slap rules {rules!r}: use pair or pair,sandwich")
        if len(set(patterns)) != len(patterns):
            raise SlapError(f"slap rules {rules!r} name a pattern twice")
        kind, _, arg = policy.strip().lower().partition(":")
        target, odds = 0, ()
        if kind not in POLICIES or (kind in ("none", "turn") and arg):
            raise SlapError(f"unknown slap policy {policy!r}: use none, first:P, turn or "
                            "odds:p1,p2,...")
        if kind == "first":
            try:
                target = int(arg) - 1
            except ValueError:
                raise SlapError(f"slap policy {policy!r}: first:P needs a player number") from None
            if not 0 <= target < players:
                raise SlapError(f"slap policy {policy!r}: there is no player {target + 1} in a "
                                f"game of {players} players")
        if kind == "odds":
            try:
                odds = tuple(float(x) for x in arg.split(","))
            except ValueError:
                raise SlapError(f"slap policy {policy!r}: odds:p1,...,pN needs numbers") from None
            if len(odds) != players:
                raise SlapError(f"slap policy {policy!r} gives {len(odds)} odds for "
                                f"{players} players")
            if any(not math.isfinite(p) or p < 0 for p in odds):
                raise SlapError(f"slap policy {policy!r}: odds must be numbers from 0 to 1")
            if abs(sum(odds) - 1.0) > ODDS_TOLERANCE:
                raise SlapError(f"slap policy {policy!r}: the odds sum to {sum(odds):g}, not 1")
        return cls(patterns, kind, target, odds, bool(slap_in), slap_key(seed))

    @classmethod
    def from_params(cls, params: dict) -> SlapRules:
        """The slap rules a run stored (``to_params``)."""
        return cls.parse(params.get("slap_rules", "pair"), params.get("slap_policy", "none"),
                         params.get("slap_in", True), int(params["players"]), params.get("seed"))

    @property
    def rules_spec(self) -> str:
        """The slap patterns as ``--slap-rules`` takes them: ``pair`` or ``pair,sandwich``."""
        return ",".join(self.patterns)

    @property
    def policy_spec(self) -> str:
        """The slap policy as ``--slap-policy`` takes it: ``none``, ``first:P``, ``turn`` or
        ``odds:p1,p2,...``."""
        if self.policy == "first":
            return f"first:{self.target + 1}"
        if self.policy == "odds":
            return "odds:" + ",".join(repr(p) for p in self.odds)
        return self.policy

    @property
    def deterministic(self) -> bool:
        """Whether a deal always plays the same game (every policy but ``odds``)."""
        return self.policy != "odds"

    def to_params(self) -> dict:
        """The rules as a run stores them in its parameters (``from_params`` reads them)."""
        return {"slap_rules": self.rules_spec, "slap_policy": self.policy_spec,
                "slap_in": self.slap_in}
