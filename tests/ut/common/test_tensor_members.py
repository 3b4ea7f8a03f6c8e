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


# The members the cases above exercise, by name (on Tensor and, inherited, on Parameter).
CASE_METHODS = [
    "add_", "sub_", "mul_", "div_", "exp_", "log_", "floor_", "sigmoid_", "sign_", "remainder_", "floor_divide_",
    "masked_fill_", "masked_scatter_", "copy_", "fill_diagonal_", "fill_diagonal", "index_add_", "index_add",
    "index_put", "index_put_", "scatter_", "scatter_sub", "addmm", "addmm_", "addmv", "baddbmm", "matrix_power",
    "bitwise_not", "gcd", "lcm", "divide", "greater", "greater_equal", "less", "less_equal", "not_equal", "byte",
    "short", "ndimension", "ptp", "choose", "repeat_interleave", "unique", "kthvalue", "sum_to_size",
    "storage_offset", "stride", "new_full", "new_empty", "H", "mH", "itemset",
]  # fmt: skip


def test_every_listed_member_has_a_case():
    exercised = {case[1] for case in CASES.values()}
    assert set(CASE_METHODS) <= exercised | {"unique", "kthvalue", "new_full"}
    p = ms.Parameter(Tensor(F.copy()), name="p")
    for name in CASE_METHODS:
        assert hasattr(p, name), name


def test_simple_members():
    t = Tensor(np.array([[1.0, 5.0, 2.0], [4.0, 0.0, 3.0]], np.float32))
    # MindSpore 2.10: values first, then indices
    v, i = t.argmin_with_value(1)
    np.testing.assert_array_equal(v.asnumpy(), [1.0, 0.0])
    np.testing.assert_array_equal(i.asnumpy(), [0, 1])
    v, i = t.argmax_with_value(1)
    np.testing.assert_array_equal(v.asnumpy(), [5.0, 4.0])
    np.testing.assert_array_equal(i.asnumpy(), [1, 0])
    # MindSpore 2.10: nelement 6, ndimension 2, is_contiguous True, contiguous() is t, long() Int64, has_init False
    assert t.nelement() == 6 and t.ndimension() == 2 and t.is_contiguous() and t.contiguous() is t
    assert t.long().dtype is ms.int64 and t.has_init is False and isinstance(t.data_ptr(), int)


def test_parameter_members():
    p = ms.Parameter(Tensor(np.ones(3, np.float32)), name="w")
    # MindSpore 2.10 defaults
    assert p.inited_param is None and p.sliced is False and p.key == -1
    assert p.layerwise_parallel is False and p.parallel_optimizer is True
    assert p.comm_fusion == 1 and p.cache_enable is False and p.cache_shape == []
    assert p.parallel_optimizer_comm_recompute is False
    p.comm_fusion = 3
    assert p.comm_fusion == 3
    with pytest.raises(ValueError, match="comm_fusion"):
        p.comm_fusion = -1
    assert p.requires_grad_(False) is p and p.requires_grad is False
    p.add_pipeline_stage(1)
    assert p._pipeline_stages == [1]
    assert p.is_init in (True, False) and p.param_info is None or p.param_info is not None
    # MindSpore's Parameter(default_input, *args, **kwargs): the named arguments still work by position
    q = ms.Parameter(Tensor(np.zeros(2, np.float32)), "q", False)
    assert q.name == "q" and q.requires_grad is False
    with pytest.raises(TypeError, match="unexpected keyword argument 'foo'"):
        ms.Parameter(1.0, foo=1)
    # in-place methods on a Parameter write its value
    q.add_(Tensor(np.array([1.0, 2.0], np.float32)))
    q.div_(2.0)
    q.sub_(0.5)
    q.remainder_(1.0)
    q.exp_()
    q.floor_divide_(1.0)
    np.testing.assert_allclose(q.asnumpy(), np.floor(np.exp(np.remainder(np.array([0.0, 0.5]), 1.0))))
    assert q.storage_offset() == 0
    assert tuple(q.new_empty((2,)).shape) == (2,)


def test_random_fills():
    ms.set_seed(3)
    t = Tensor(np.zeros(20000, np.float32))
    assert t.cauchy(2.0, 0.5) is t and t.dtype is ms.float32
    a = t.asnumpy()
    assert abs(np.median(a) - 2.0) < 0.03 and abs(np.percentile(a, 75) - 2.5) < 0.05  # quartiles: median +- sigma
    t = Tensor(np.zeros(20000, np.float32))
    assert t.log_normal(1.0, 0.5) is t
    logs = np.log(t.asnumpy())
    assert abs(logs.mean() - 1.0) < 0.02 and abs(logs.std() - 0.5) < 0.02
