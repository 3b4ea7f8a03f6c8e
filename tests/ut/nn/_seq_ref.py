"""Load ``fixtures/nn_seq_reference.npz`` (made under MindSpore 2.10 by tools/make_nn_seq_reference.py) and
check a sporax layer against one of its cases: outputs, and gradients of ``sum(out_i * probe_i)`` with
respect to the first input and every trainable parameter."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

import sporax as ms
from sporax import Tensor

_PATH = Path(__file__).resolve().parent / "fixtures" / "nn_seq_reference.npz"
DATA = np.load(_PATH)
META = json.loads(bytes(DATA["__meta__"]).decode())


def _build(name, struct, top=True):
    if struct is None:
        return None
    if isinstance(struct, dict):
        return struct["py"]
    if isinstance(struct, list):
        items = [_build(name, s, False) for s in struct]
        return items if top else tuple(items)
    return Tensor(DATA[f"{name}/{struct}"])


def _flat(tree, prefix, out):
    if tree is None:
        return
    if isinstance(tree, (tuple, list)):
        for i, t in enumerate(tree):
            _flat(t, f"{prefix}.{i}", out)
        return
    out[prefix] = tree


def check_case(name, net, rtol=1e-5, atol=1e-5, grads=True):
    """Set the case's weights on ``net``, run it on the case's inputs, compare outputs and gradients."""
    meta = META[name]
    params = net.trainable_params()
    assert [p.name for p in params] == meta["params"]
    for p in params:
        p.set_data(Tensor(DATA[f"{name}/param/{p.name}"]))
    args = _build(name, meta["args"])
    out = {}
    _flat(net(*args), "out", out)
    assert sorted(out) == sorted(meta["outputs"])
    for k, v in out.items():
        np.testing.assert_allclose(v.asnumpy(), DATA[f"{name}/{k}"], rtol=rtol, atol=atol, err_msg=f"{name} {k}")
    if not grads:
        return
    keys = meta["outputs"]
    probes = {k: Tensor(DATA[f"{name}/probe/{k}"]) for k in keys}

    def loss_fn(x0, *rest):
        fo = {}
        _flat(net(x0, *rest), "out", fo)
        total = 0
        for k in keys:
            total = total + (fo[k] * probes[k]).sum()
        return total

    float_in = f"{name}/grad/in.0" in DATA.files
    grad_fn = ms.value_and_grad(loss_fn, grad_position=0 if float_in else None, weights=params or None)
    _, grads = grad_fn(*args)
    if params:
        gx, gw = grads if float_in else (None, grads)
    else:
        gx, gw = grads, ()
    if float_in:
        np.testing.assert_allclose(gx.asnumpy(), DATA[f"{name}/grad/in.0"], rtol=rtol, atol=atol, err_msg=f"{name} dx")
    for p, g in zip(params, gw):
        np.testing.assert_allclose(
            g.asnumpy(), DATA[f"{name}/grad/param/{p.name}"], rtol=rtol, atol=atol, err_msg=f"{name} d{p.name}"
        )
