"""Math ops replayed against MindSpore 2.10's own outputs (tools/make_ops_math_reference.py made the fixture
under real MindSpore): values, dtypes and the error class where MindSpore refuses the input."""

import json
from pathlib import Path

import numpy as np
import pytest

import sporax as ms
from sporax import ops

CASES = json.loads((Path(__file__).parent / "fixtures" / "ops_math_reference.json").read_text())["cases"]


def _arg(kind, value):
    if kind == "py":
        return value
    if kind == "dtype":
        return getattr(ms, value)
    return ms.Tensor(np.asarray(value, dtype=kind))


def _check(out, expected, name):
    if isinstance(expected, list):
        assert isinstance(out, (tuple, list)) and len(out) == len(expected), name
        for o, e in zip(out, expected, strict=True):
            _check(o, e, name)
        return
    assert str(out.dtype) == expected["dtype"], (name, out.dtype, expected["dtype"])
    want = np.array(expected["values"], dtype=object)
    want = np.where(want == None, np.nan, want)  # noqa: E711 - NaN is stored as null
    want = np.array([{"inf": np.inf, "-inf": -np.inf}.get(v, v) for v in want.reshape(-1)], np.float64)
    got = out.asnumpy().astype(np.float64).reshape(-1)
    assert list(out.shape) == expected["shape"], name
    np.testing.assert_allclose(got, want, rtol=2e-5, atol=1e-6, equal_nan=True, err_msg=name)


def _resolve(op):
    """``"sum"`` is ops.sum, ``"ReduceSum()"`` an instance of the primitive, ``"Tensor.cumsum"`` the method on
    the first argument (as tools/make_ops_math_reference.py resolves them)."""
    if op.endswith("()"):
        return getattr(ops, op[:-2])()
    if op.startswith("Tensor."):
        return lambda x, *a, **k: getattr(x, op[len("Tensor.") :])(*a, **k)
    return getattr(ops, op)


# Where sporax deliberately differs from MindSpore 2.10's CPU build (each also named in docs/ops_math.md):
KNOWN_DIFFERENCES = {
    "round_decimals": "MindSpore's CPU kernel refuses decimals; sporax rounds to them",
    "xlogy_zero": "MindSpore documents 0 where x == 0, its CPU kernel gives NaN; sporax gives 0",
    "addcdiv_int": "MindSpore refuses integer inputs; sporax computes them",
    "atan2_int": "MindSpore refuses integer inputs; sporax computes in Float32",
    "logaddexp_int": "MindSpore refuses integer inputs; sporax computes in Float32",
    "hypot_int": "MindSpore refuses integer inputs; sporax computes in Float32",
}


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_matches_mindspore(case):
    if case["name"] in KNOWN_DIFFERENCES:
        pytest.skip(KNOWN_DIFFERENCES[case["name"]])
    fn = _resolve(case["op"])
    args = [_arg(k, v) for k, v in case["args"]]
    case = dict(case, kwargs={k: _arg(*v) if isinstance(v, list) else v for k, v in case["kwargs"].items()})
    if "error" in case:
        with pytest.raises(getattr(__builtins__, case["error"], None) or Exception):
            fn(*args, **case["kwargs"])
        return
    _check(fn(*args, **case["kwargs"]), case["output"], case["name"])
