"""What a stored run's strategy says of its work, by the strategy's name: its class's
``unit`` (deals, tries or games: what the run's ``deals`` counts), and the rest a
``Strategy`` class says of itself.  A name this version does not know reads as the base
``Strategy``: deals.

``show``, ``export``, ``runs`` and the report ask this of every run they read, and the
strategies' modules load the engine and Numba (1-2 s): so ``strategy_class`` answers from
``KINDS``, a copy of what each class says (``tests/strategies/test_units.py`` checks it
against the classes), and loads the class itself only for anything else (a factory's
summary figures, a climb's plan).
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module

from ..tunables import DEFAULT_CHUNK, FACTORY_CHUNK, HUNT_CHUNK

# what each strategy's class says of itself, as its class attributes (``Strategy``'s
# defaults left out); ``figures``: it adds to a run's summary (``summary_figures``)
KINDS: dict[str, dict] = {
    "random": {"sample": "all"},
    "enumerate": {"number_label": "deal index"},
    "climb": {"unit": "games", "ends_at_plan": False, "sample": "random"},
    "hunt": {"default_chunk": HUNT_CHUNK, "unit": "tries", "of_cycles": True},
    "factory": {"default_chunk": FACTORY_CHUNK, "unit": "tries", "of_cycles": True,
                "counts_caps": False, "figures": True},
}


@dataclass(frozen=True)
class Kind:
    """A strategy's class as a results file's reader sees it: its class attributes (the
    base ``Strategy``'s defaults unless ``KINDS`` says otherwise), the class itself loaded
    for anything else."""

    name: str
    default_chunk: int = DEFAULT_CHUNK
    unit: str = "deals"
    ends_at_plan: bool = True
    of_cycles: bool = False
    counts_caps: bool = True
    number_label: str = "game no."
    sample: str = "none"
    figures: bool = False

    def loaded(self):
        """The strategy's class (``Strategy`` for a name this version does not know)."""
        strategies = import_module("beggar_search.strategies")
        try:
            return strategies.class_of(self.name)
        except KeyError:
            return strategies.Strategy

    def summary_figures(self, store, run_id: int) -> dict:
        """What the strategy adds to a run's summary (a factory's family): its class's."""
        return self.loaded().summary_figures(store, run_id) if self.figures else {}

    def __call__(self, params: dict):
        """The strategy for a run with ``params`` (its class loaded)."""
        return self.loaded()(params)

    def __getattr__(self, name: str):
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.loaded(), name)


def strategy_class(name: str) -> Kind:
    """What the strategy named ``name`` says of itself; the base ``Strategy``'s for an
    unknown name."""
    return Kind(name, **KINDS.get(name, {}))


def unit_of(name: str) -> str:
    """The unit of a ``name`` run's ``deals``: ``deals``, ``tries`` or ``games``."""
    return strategy_class(name).unit
