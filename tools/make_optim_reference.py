"""Reference values for sporax's nn optimizers, made with real MindSpore 2.10 (CPU).

Run with MindSpore's interpreter, cwd=/tmp:
    /work/msvenv/bin/python /work/main/tools/make_optim_reference.py
Writes tests/ut/nn/fixtures/optim_reference.npz: for each case, every parameter after each of 3 steps
(key ``<case>/<step>/<param name>``), plus the optimizer state after the last step (``<case>/state/<name>``).
Parameters: fc.weight (4, 3), fc.bias (3,), bn.gamma (3,), bn.beta (3,) with fixed values; fixed gradients.
"""

import importlib.util
import os
import sys

import mindspore as ms
import numpy as np
from mindspore import Parameter, Tensor, nn

ms.set_context(mode=ms.PYNATIVE_MODE, device_target="CPU")
OUT = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "tests", "ut", "nn", "fixtures", "optim_reference.npz"
)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_spec = importlib.util.spec_from_file_location("optim_cases", os.path.join(ROOT, "tests/ut/nn/_optim_cases.py"))
_cases = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_cases)
SHAPES, grads_for, init_values = _cases.SHAPES, _cases.grads_for, _cases.init_values
CASES = _cases.cases(nn)


def make_params():
    return _cases.make_params(Parameter, Tensor)


def run_case(name, make, out):
    params = make_params()
    opt = make(params)
    for step in range(3):
        g = grads_for(step)
        if name == "momentum_lr_list":
            out[f"{name}/get_lr/{step}"] = opt.get_lr().asnumpy()  # user code calling get_lr between steps
        opt(tuple(Tensor(g[p.name]) for p in params))
        for p in params:
            out[f"{name}/{step}/{p.name}"] = p.asnumpy().copy()
    for p in opt.parameters_and_names():
        n = p[0]
        if n in SHAPES:
            continue
        out[f"{name}/state/{n}"] = p[1].asnumpy().copy()


def main():
    out = {}
    only = sys.argv[1:]
    for name, make in CASES.items():
        if only and name not in only:
            continue
        try:
            run_case(name, make, out)
            print("ok", name)
        except Exception as e:  # noqa: BLE001
            print("FAILED", name, type(e).__name__, str(e)[:300])
    if not only:
        np.savez(OUT, **out)
        print("wrote", OUT, len(out))


if __name__ == "__main__":
    main()
