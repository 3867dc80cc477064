"""The one conftest of the suite. Tests mirror the package (engine/, backward/, cycles/,
store/, strategies/, cli/, cards/), the oracles and the helpers every folder imports live in
oracles/ (on pytest's path, see pyproject.toml), the hostile tests in hostile/."""
