"""Record MindSpore 2.10's operator-registration outputs for tests/ut/ops/test_custom_ops.py.

Run under real MindSpore (its own venv): /work/msvenv/bin/python tools/make_custom_op_reference.py
Writes tests/ut/ops/fixtures/custom_op_reference.json: the DataType table, the get_op_info() dicts of a
few RegOp chains, and ops.Custom pyfunc outputs and gradients (with bprop).
"""

import importlib.util
import json
import pathlib

import mindspore as ms
import numpy as np
from mindspore import Tensor, ops
from mindspore.ops import DataType

_spec = importlib.util.spec_from_file_location(
    "custom_op_cases", pathlib.Path(__file__).resolve().parent.parent / "tests" / "ut" / "ops" / "_custom_op_cases.py"
)
_cases = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_cases)
OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "ut" / "ops" / "fixtures" / "custom_op_reference.json"


def main():
    ref = {"DataType": {k: list(v) for k, v in vars(DataType).items() if not k.startswith("_")}}
    ref.update({name: reg_op.get_op_info() for name, reg_op in _cases.reg_op_chains(ops).items()})

    def f(x, y):
        return x * y + np.sin(x)

    def bprop(x, y, out, dout):
        return (dout * (y + ops.cos(x)), dout * x)

    c = ops.Custom(f, lambda a, b: a, lambda a, b: a, "pyfunc", bprop=bprop)
    x = Tensor(np.array([0.5, 1.0, 2.0], np.float32))
    y = Tensor(np.array([3.0, -1.0, 0.25], np.float32))
    ref["pyfunc"] = {
        "x": x.asnumpy().tolist(),
        "y": y.asnumpy().tolist(),
        "out": c(x, y).asnumpy().tolist(),
        "grads": [g.asnumpy().tolist() for g in ms.grad(lambda a, b: c(a, b).sum(), (0, 1))(x, y)],
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(ref, indent=1, sort_keys=True) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
