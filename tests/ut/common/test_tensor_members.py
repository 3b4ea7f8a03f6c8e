"""Tensor members of MindSpore's list (in-place forms, aliases, conversions, storage queries, index updates).

Each case of tools/make_tensor_members_reference.py runs here on the same inputs; where MindSpore 2.10 CPU
computed it, the result (values, dtype, shape; for in-place methods the receiver afterwards and that the
receiver itself is returned) must equal the recorded one (fixtures/tensor_members.json). Cases whose kernel
MindSpore's CPU build lacks (``log_``, ``masked_fill_``, ``index_put_``... are Ascend-only there) are checked
against NumPy below.
"""

import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest

import sporax as ms
from sporax import Tensor

ROOT = Path(__file__).resolve().parents[3]
REF = json.loads((Path(__file__).parent / "fixtures" / "tensor_members.json").read_text())
_spec = importlib.util.spec_from_file_location("tm_ref", ROOT / "tools" / "make_tensor_members_reference.py")
_tool = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_tool)
CASES = _tool.cases(Tensor, ms)


def _run(name):
    recv, method, args, kwargs = CASES[name]
    t = Tensor(recv.copy())
    res = getattr(t, method) if args is None else getattr(t, method)(*args, **kwargs)
    return t, res


def _check(enc, got):
    if "seq" in enc:
        assert isinstance(got, tuple | list) and len(got) == len(enc["seq"])
        for e, g in zip(enc["seq"], got, strict=True):
            _check(e, g)
        return
    if "py" in enc:
        assert got == (tuple(enc["py"]) if isinstance(enc["py"], list) else enc["py"])
        return
    a = got.asnumpy()
    assert str(got.dtype) == enc["dtype"] and list(a.shape) == enc["shape"]
    want = np.array(enc["value"][0]) + 1j * np.array(enc["value"][1]) if enc.get("complex") else np.array(enc["value"])
    np.testing.assert_allclose(a, want.reshape(a.shape), rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("name", sorted(k for k, v in REF.items() if "error" not in v))
def test_matches_mindspore(name):
    ref = REF[name]
    recv, method, args, _ = CASES[name]
    t, res = _run(name)
    if name == "new_empty_shape":  # values unspecified: shape and dtype only
        assert str(res.dtype) == ref["result"]["dtype"] and list(res.shape) == ref["result"]["shape"]
        return
    _check(ref["result"], res)
    if args is None:
        return
    if method.endswith("_"):  # in place: the tensor is updated and returned
        assert res is t
    else:  # the tensor is left alone (MindSpore's CPU build is not a reference here: its index_add writes it)
        np.testing.assert_array_equal(t.asnumpy(), recv)


F = np.array([[1.5, -2.0, 3.0], [0.5, 4.0, -1.0]], np.float32)
G = np.array([[2.0, 1.0, 0.5], [3.0, -2.0, 2.0]], np.float32)
SQ = np.array([[2.0, 1.0], [1.0, 3.0]], np.float32)


@pytest.mark.parametrize(
    "name,want",
    [
        ("log_", np.log(np.abs(F))),
        ("floor_", np.floor(F)),
        ("sigmoid_", 1 / (1 + np.exp(-F))),
        ("sign_", np.sign(F)),
        ("masked_fill_", np.where(F > 1, 9.0, F)),
        ("addmm_", SQ + SQ @ SQ),
        ("fill_diagonal_", np.diag([5.0, 5.0, 5.0])),
    ],
)
def test_in_place_against_numpy(name, want):
    t, res = _run(name)  # MindSpore's CPU build has no kernel for these (Ascend only)
    assert res is t and t.dtype is ms.float32
    np.testing.assert_allclose(t.asnumpy(), want, rtol=1e-6)


def test_index_updates_against_numpy():
    t, res = _run("index_add_")
    want = F.copy()
    np.add.at(want, (slice(None), [0, 2]), 2 * G[:, :2])
    assert res is t
    np.testing.assert_allclose(t.asnumpy(), want)
    t, res = _run("index_put_")
    want = F.copy()
    want[1, 1] = 7.0
    np.testing.assert_allclose(t.asnumpy(), want)
    t, res = _run("masked_scatter_")
    want = F.copy()
    want[F > 1] = np.arange(6, dtype=np.float32)[: int((F > 1).sum())]
    np.testing.assert_allclose(t.asnumpy(), want)
    t, res = _run("scatter_")
    want = F.copy()
    idx = np.array([[2, 0, 1], [0, 1, 2]])
    for r in range(2):
        want[r, idx[r]] = G[r]
    np.testing.assert_allclose(t.asnumpy(), want)
    x = Tensor(np.zeros((2, 3), np.float32))
    x.index_copy_(1, Tensor(np.array([2, 0], np.int32)), Tensor(np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)))
    np.testing.assert_allclose(x.asnumpy(), [[2.0, 0.0, 1.0], [4.0, 0.0, 3.0]])


def test_in_place_on_a_parameter_inside_jit():
    p = ms.Parameter(Tensor(np.ones(3, np.float32)), name="p")

    @ms.jit
    def step(x):
        p.add_(x, alpha=2)
        p.mul_(2.0)
        return p + 0

    np.testing.assert_allclose(step(Tensor(np.array([1.0, 2.0, 3.0], np.float32))).asnumpy(), [6.0, 10.0, 14.0])
    np.testing.assert_allclose(p.asnumpy(), [6.0, 10.0, 14.0])


def test_queries_and_conversions_against_numpy():
    t = Tensor(np.array([3, 1, 3, 2, 1], np.int32))
    values, inverse, counts = t.unique(return_inverse=True, return_counts=True)
    np.testing.assert_array_equal(values.asnumpy(), [1, 2, 3])
    np.testing.assert_array_equal(inverse.asnumpy(), [2, 0, 2, 1, 0])
    np.testing.assert_array_equal(counts.asnumpy(), [2, 1, 2])
    v, i = Tensor(F).kthvalue(2, dim=1)
    np.testing.assert_allclose(v.asnumpy(), np.sort(F, 1)[:, 1])
    np.testing.assert_array_equal(i.asnumpy(), np.argsort(F, 1)[:, 1])
    with pytest.raises(ValueError, match="For 'kthvalue', the 'k' must be in range"):
        Tensor(F).kthvalue(4, dim=1)
    np.testing.assert_array_equal(Tensor(F).new_full((2, 2), 3).asnumpy(), np.full((2, 2), 3.0))
    assert Tensor(F).new_full((2, 2), 3).dtype is ms.float32
    assert Tensor(F).data is not None and Tensor(F).device == "CPU"
    assert not Tensor(F).is_meta and not Tensor(F).is_pinned() and not Tensor(F).is_shared()
    t = Tensor(F)
    assert t.to_(None) is t and t.pin_memory() is t
    back = Tensor.from_dlpack(Tensor(F).to_dlpack())
    np.testing.assert_array_equal(back.asnumpy(), F)
    b = Tensor(np.array([[0.0, 1.0], [1.0, 0.0]], np.float32)).bernoulli(generator=ms.Generator().manual_seed(1))
    np.testing.assert_array_equal(b.asnumpy(), [[0.0, 1.0], [1.0, 0.0]])  # probabilities 0 and 1 are certain
    with pytest.raises(ValueError, match="should have only one element"):
        Tensor(F).item()


def test_fixed_signatures():
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    t = Tensor(a)
    # MindSpore 2.10: trace() 15.0, trace(1) 18.0, trace(0, 0, 1, float64) is Float64
    assert t.trace().asnumpy() == 15.0 and t.trace(1).asnumpy() == 18.0
    assert t.trace(0, 0, 1, ms.float64).dtype is ms.float64
    assert t.softmax(1, ms.float64).dtype is ms.float64 and t.norm(dtype=ms.float64).dtype is ms.float64
    np.testing.assert_allclose(t.float_power(2).asnumpy(), a.astype(np.float64) ** 2)
    assert t.float_power(other=2).dtype is ms.float64
    # MindSpore 2.10: resize(2, 2) gives the first 4 values and leaves the tensor's shape alone
    np.testing.assert_array_equal(t.resize(2, 2).asnumpy(), [[0.0, 1.0], [2.0, 3.0]])
    np.testing.assert_array_equal(t.resize((2, 8)).asnumpy()[1], [8.0, 9.0, 10.0, 11.0, 0.0, 0.0, 0.0, 0.0])
    np.testing.assert_array_equal(t.resize(14).asnumpy()[-2:], [0.0, 0.0])
    assert t.shape == (3, 4)
    assert Tensor([[2.5]]).item() == 2.5
