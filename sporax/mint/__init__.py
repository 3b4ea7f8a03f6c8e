"""``sporax.mint`` (``mindspore.mint``). ``mint.distributed`` imports on first use."""

import importlib as _importlib


def __getattr__(name: str):
    if name == "distributed":
        return _importlib.import_module(f"{__name__}.distributed")
    raise AttributeError(f"module 'sporax.mint' has no attribute '{name}'")
