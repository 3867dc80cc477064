"""``--device cpu|gpu``: where a sweep or the benchmark plays its deals (``gpu/engine.py``)."""

from __future__ import annotations

import click

from ..gpu.engine import CPU, DEVICES, GPU, check_device

device_option = click.option(
    "--device", type=click.Choice(DEVICES), default=CPU, show_default=True,
    help="Play the deals on the CPU cores, or on a CUDA GPU (2 players of Beggar-my-neighbour;"
         " needs the [gpu] extra; the same results).")


def device_params(device: str, players: int, not_on_gpu: bool) -> dict:
    """The run parameters ``--device`` adds (none for the CPU), once the device is known to
    play this workload here (else a ``UserError``: one line, exit 2); ``not_on_gpu``: the
    game is one the GPU engine does not play (``games.Game.gpu``)."""
    check_device(device, players, not_on_gpu)
    return {"device": GPU} if device == GPU else {}
