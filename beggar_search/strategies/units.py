"""What a run's ``deals`` counts, by strategy: deals (random, enumerate), tries (hunt,
factory: perturbations and states tried) or games (climb: random deals and the
extension's games).  The progress bar, the summary and ``show`` name it so."""

UNITS = {"hunt": "tries", "climb": "games", "factory": "tries"}
BEYOND_PLAN = {"climb"}  # stores more than its chunks are planned with (the extension's games)


def unit_of(strategy: str) -> str:
    """The unit of ``strategy``'s ``deals``: ``deals``, ``tries`` or ``games``."""
    return UNITS.get(strategy, "deals")


def counts_plan(strategy: str) -> bool:
    """Whether ``strategy``'s ``deals`` end at its planned total (a climb's go past it)."""
    return strategy not in BEYOND_PLAN
