"""Reference values for sporax's optimizer-update primitives (ops.Apply*), made with real MindSpore 2.10 (CPU).

Run with MindSpore's interpreter, cwd=/tmp:
    /work/msvenv/bin/python /work/main/tools/make_optim_ops_reference.py
Writes tests/ut/nn/fixtures/optim_ops_reference.npz: for each case, every Parameter input after two calls
(``<case>/<param>``) and the outputs of the second call (``<case>/out<i>``).
"""

import importlib.util
import os

import mindspore as ms
import numpy as np
from mindspore import Parameter, Tensor, ops

ms.set_context(mode=ms.PYNATIVE_MODE, device_target="CPU")
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "ut", "nn", "fixtures")


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_spec = importlib.util.spec_from_file_location("optim_ops_cases", os.path.join(ROOT, "tests/ut/nn/_optim_ops_cases.py"))
_cases = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_cases)
CASES = _cases.cases(ops, Tensor)


def main():
    out = {}
    for name, (make, params, rest) in CASES.items():
        try:
            op = make()
            ps = [Parameter(Tensor(v), name=n) for n, v in params]
            for _ in range(2):
                res = _cases.call(name, op, ps, rest, Tensor)
            res = res if isinstance(res, tuple) else (res,)
            for i, r in enumerate(res):
                out[f"{name}/out{i}"] = r.asnumpy()
            for p in ps:
                out[f"{name}/{p.name}"] = p.asnumpy()
            print("ok", name)
        except Exception as e:  # noqa: BLE001
            print("FAILED", name, type(e).__name__, str(e)[:200])
    os.makedirs(OUT, exist_ok=True)
    np.savez(os.path.join(OUT, "optim_ops_reference.npz"), **out)


if __name__ == "__main__":
    main()
