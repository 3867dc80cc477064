"""What a run's ``deals`` counts, by strategy: deals (random, enumerate), tries (hunt,
factory: perturbations and states tried) or games (climb: random deals and the
extension's games).  The progress bar, the summary and ``show`` name it so."""

UNITS = {"hunt": "tries", "climb": "games", "factory": "tries"}


def unit_of(strategy: str) -> str:
    """The unit of ``strategy``'s ``deals``: ``deals``, ``tries`` or ``games``."""
    return UNITS.get(strategy, "deals")
