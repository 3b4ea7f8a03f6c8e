"""The two dialect examples run at tiny sizes: per-sample gradients with mindspore.numpy, and a mint model
trained with a jit step."""

import importlib.util
import pathlib

import numpy as np

from sporax import compat

EXAMPLES = pathlib.Path(__file__).resolve().parents[3] / "examples"


def _load(name):
    compat.alias_mindspore()
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_numpy_per_sample_grads():
    losses, w_grads, b_grads = _load("numpy_per_sample_grads").main(4, 3)
    assert losses.shape == (4,) and w_grads.shape == (4, 3, 1) and b_grads.shape == (4, 1)


def test_mint_mlp_trains():
    losses, acc = _load("mint_mlp").main(steps=15, batch=16, in_features=8, classes=3)
    assert np.isfinite(losses).all() and losses[-1] < 0.5 * losses[0]
    assert acc >= 0.9
