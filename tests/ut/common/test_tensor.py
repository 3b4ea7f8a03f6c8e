"""Tensor: construction rules, printing, indexing and slice assignment, operators, every method."""

import inspect
import sys

import numpy as np
import pytest

import sporax as ms
from sporax import ops

# --------------------------------------------------------------- construction


@pytest.mark.parametrize(
    "data,dtype",
    [
        (np.array([1.0, 2.0]), ms.float64),
        (np.array([1.0], np.float32), ms.float32),
        (np.array([1], np.int32), ms.int32),
        (np.array([True]), ms.bool_),
        (1.5, ms.float32),
        (3, ms.int64),
        (True, ms.bool_),
        ([1.0, 2.0], ms.float32),
        ([1, 2], ms.int64),
        ([[1, 2.5], [3, 4]], ms.float32),
        ((1, 2), ms.int64),
        ([True, False], ms.bool_),
        (np.float64(2.0), ms.float64),
        (np.int32(2), ms.int32),
        (1 + 2j, ms.complex64),
    ],
)
def test_construction_dtype_rules(data, dtype):
    t = ms.Tensor(data)
    assert t.dtype == dtype
    np.testing.assert_array_equal(t.asnumpy(), np.asarray(data).astype(t.asnumpy().dtype))


def test_construction_with_dtype_and_from_tensor():
    assert ms.Tensor([1, 2], ms.float16).dtype == ms.float16
    assert ms.Tensor(np.ones(2), dtype=ms.int32).dtype == ms.int32
    t = ms.Tensor([1.0, 2.0])
    assert ms.Tensor(t).dtype == ms.float32
    assert ms.Tensor(t, ms.float64).dtype == ms.float64
    assert ms.Tensor([t, t]).shape == (2, 2)
    z = ms.Tensor(shape=(2, 3), dtype=ms.int32)
    assert z.shape == (2, 3) and z.dtype == ms.int32
    assert ms.tensor([1.0]).dtype == ms.float32
    assert ms.Tensor([]).shape == (0,)


def test_construction_errors():
    with pytest.raises(TypeError, match="For 'Tensor', the 'dtype' must be a sporax dtype"):
        ms.Tensor([1], np.float32)
    with pytest.raises(TypeError, match="For 'Tensor', the type of input_data"):
        ms.Tensor({"a": 1})
    with pytest.raises(ValueError, match="For 'Tensor', input_data and shape cannot both be None"):
        ms.Tensor()
    # MindSpore 2.10 raises TypeError for both (see fixtures/top_reference.json "tensor_errors")
    with pytest.raises(
        TypeError, match=r"^For Tensor, the input_data is \['a', 'b'\] that contain unsupported element\.$"
    ):
        ms.Tensor(["a", "b"])
    with pytest.raises(
        TypeError, match=r"^For Tensor, the input_data is \[\[1, 2\], \[3\]\] that contain unsupported element\.$"
    ):
        ms.Tensor([[1, 2], [3]])


def test_attributes():
    t = ms.Tensor(np.zeros((2, 3), np.float32))
    assert t.shape == (2, 3) and t.ndim == 2 and t.size == 6 and t.dim() == 2
    assert t.itemsize == 4 and t.nbytes == 24 and t.strides == (12, 4)
    assert t.T.shape == (3, 2) and t.mT.shape == (3, 2)
    assert t.is_floating_point() and not t.is_complex() and t.is_signed()
    assert len(t) == 2 and [r.shape for r in t] == [(3,), (3,)]


# ------------------------------------------------------------------- printing
def test_repr_and_str():
    t = ms.Tensor([1.0, 2.0])
    assert repr(t) == "Tensor(shape=[2], dtype=Float32, value=[1. 2.])"
    assert str(t) == str(np.array([1.0, 2.0], np.float32))
    assert repr(ms.Tensor(2.5)) == "Tensor(shape=[], dtype=Float32, value= 2.5)"
    m = ms.Tensor(np.array([[1, 2], [3, 4]], np.int32))
    assert repr(m) == "Tensor(shape=[2, 2], dtype=Int32, value=\n[[1 2]\n [3 4]])"
    assert str(m) == str(np.array([[1, 2], [3, 4]]))


def test_format():
    assert format(ms.Tensor(2.5), ">7f") == "2.500000"
    assert f"{ms.Tensor(3):04d}" == "0003"
    assert f"{ms.Tensor([0.25]):.1f}" == "0.2"
    assert format(ms.Tensor([1, 2])) == "[1 2]"


def test_scalar_conversion():
    assert float(ms.Tensor(2.5)) == 2.5 and int(ms.Tensor(7)) == 7 and bool(ms.Tensor([True]))
    assert ms.Tensor([[3]]).item() == 3 and ms.Tensor([1, 2]).tolist() == [1, 2]
    assert [0, 1, 2][ms.Tensor(1)] == 1
    with pytest.raises(ValueError, match="ambiguous"):
        bool(ms.Tensor([1, 2]))
    with pytest.raises(TypeError, match="Only a Tensor with one element"):
        float(ms.Tensor([1.0, 2.0]))
    with pytest.raises(ValueError, match="should have only one element"):
        ms.Tensor([1, 2]).item()
    with pytest.raises(TypeError, match="Only integer tensors can be used as an index"):
        [1, 2][ms.Tensor(1.0)]


# ------------------------------------------------------------------- indexing
A = np.arange(24, dtype=np.float32).reshape(2, 3, 4)


@pytest.mark.parametrize(
    "index",
    [
        0,
        -1,
        (1, 2),
        (slice(None), 1),
        (Ellipsis, 2),
        (None, 0),
        (slice(0, 2), slice(None, None, 2), -1),
        ([1, 0],),
        (0, [2, 0], slice(1, 3)),
        A > 10,
    ],
)
def test_getitem_matches_numpy(index):
    t = ms.Tensor(A)
    tindex = ms.Tensor(index) if isinstance(index, np.ndarray) else index
    np.testing.assert_array_equal(t[tindex].asnumpy(), A[index])


def test_getitem_with_tensor_indices_and_errors():
    t = ms.Tensor(A)
    np.testing.assert_array_equal(t[ms.Tensor(np.array([1, 0]))].asnumpy(), A[[1, 0]])
    np.testing.assert_array_equal(t[0, ms.Tensor(2)].asnumpy(), A[0, 2])
    with pytest.raises(IndexError, match="For 'Tensor.__getitem__', the index 3 is out of bounds for dimension 1"):
        t[0, 3]
    with pytest.raises(IndexError, match="For 'Tensor.__getitem__'"):
        t[0, 0, 0, 0]


def test_setitem():
    t = ms.Tensor(A.copy())
    ref = A.copy()
    t[0] = 1.0
    ref[0] = 1.0
    t[1, :, 2] = ms.Tensor(np.array([7.0, 8.0, 9.0], np.float32))
    ref[1, :, 2] = [7.0, 8.0, 9.0]
    t[t > 20] = 0
    ref[ref > 20] = 0
    t[..., 0] = 5  # an int into a float tensor keeps the tensor's dtype
    ref[..., 0] = 5
    np.testing.assert_array_equal(t.asnumpy(), ref)
    assert t.dtype == ms.float32
    with pytest.raises(IndexError, match="For 'Tensor.__setitem__'"):
        t[2] = 1.0


def test_slice_assignment_on_parameter_inside_jit():
    p = ms.Parameter(ms.Tensor(np.zeros((2, 3), np.float32)), name="p")

    @ms.jit
    def step(v):
        p[0, 1:] = v
        p[1] = p[1] + 1
        return p.sum()

    out = step(ms.Tensor(np.array([2.0, 3.0], np.float32)))
    assert float(out) == 8.0
    np.testing.assert_array_equal(p.asnumpy(), [[0, 2, 3], [1, 1, 1]])
    step(ms.Tensor(np.array([2.0, 3.0], np.float32)))
    np.testing.assert_array_equal(p.asnumpy(), [[0, 2, 3], [2, 2, 2]])


def test_inplace_operators():
    t = ms.Tensor([1.0, 2.0])
    u = t
    t += 1
    assert u is not t and u.asnumpy().tolist() == [1.0, 2.0]
    p = ms.Parameter(ms.Tensor([1.0, 2.0]), name="q")
    q = p
    p += 1
    assert q is p and p.asnumpy().tolist() == [2.0, 3.0]
    p *= 2
    assert p.dtype == ms.float32 and p.asnumpy().tolist() == [4.0, 6.0]


# ------------------------------------------------------------------ operators
def test_operators_delegate_to_ops():
    x = ms.Tensor(np.array([1.0, -2.0, 3.0], np.float32))
    y = ms.Tensor(np.array([2.0, 2.0, -1.0], np.float32))
    xn, yn = x.asnumpy(), y.asnumpy()
    cases = [
        (x + y, xn + yn), (x - y, xn - yn), (x * y, xn * yn), (x / y, xn / yn), (x // y, xn // yn),
        (x % y, xn % yn), (x**2, xn**2), (2**x, 2**xn), (-x, -xn), (abs(x), abs(xn)), (+x, xn),
        (1 - x, 1 - xn), (3 / y, 3 / yn), (x == y, xn == yn), (x != y, xn != yn), (x < y, xn < yn),
        (x <= y, xn <= yn), (x > y, xn > yn), (x >= y, xn >= yn),
    ]  # fmt: skip
    for out, ref in cases:
        np.testing.assert_allclose(out.asnumpy(), ref, rtol=1e-6)
    m = ms.Tensor(np.eye(2, dtype=np.float32))
    np.testing.assert_array_equal((m @ m).asnumpy(), np.eye(2))
    i = ms.Tensor(np.array([6, 3], np.int32))
    np.testing.assert_array_equal((i & 3).asnumpy(), [2, 3])
    np.testing.assert_array_equal((i | 1).asnumpy(), [7, 3])
    np.testing.assert_array_equal((i ^ 1).asnumpy(), [7, 2])
    np.testing.assert_array_equal((~i).asnumpy(), [-7, -4])
    np.testing.assert_array_equal((i << 1).asnumpy(), [12, 6])
    np.testing.assert_array_equal((i >> 1).asnumpy(), [3, 1])
    np.testing.assert_array_equal((~ms.Tensor([True, False])).asnumpy(), [False, True])


# ------------------------------------------------------------- every method
F2 = np.array([[0.5, 0.25], [0.75, 0.6]], np.float32)


def _f():
    return ms.Tensor(F2)


def _i():
    return ms.Tensor(np.array([[1, 2], [3, 0]], np.int64))


V = ms.Tensor(np.array([1.0, 2.0, 3.0], np.float32))
ARGS = {
    "assign_value_cpp": (np.ones((2, 2)),),
    "convert_bytes_to_tensor": (np.ones(2, np.float32).tobytes(), (2,), ms.float32),
    "index": ((ms.Tensor([0, 1]),),),
    "astype": (ms.float16,),
    "type_as": (ms.Tensor([1], ms.int32),),
    "set_dtype": (ms.float64,),
    "assign_value": (np.ones((2, 2)),),
    "view_as": (ms.Tensor(np.zeros(4)),),
    "reshape_as": (ms.Tensor(np.zeros((4, 1))),),
    "swapaxes": (0, 1),
    "moveaxis": (0, 1),
    "expand_dims": (0,),
    "unsqueeze": (1,),
    "broadcast_to": ((3, 2, 2),),
    "expand_as": (ms.Tensor(np.zeros((2, 2, 2))),),
    "repeat": (2,),
    "tile": ((2, 1),),
    "fill": (1.0,),
    "fill_": (2.0,),
    "narrow": (1, 0, 1),
    "split": (1,),
    "chunk": (2,),
    "gather": (ms.Tensor(np.array([1, 0])), 0),
    "gather_elements": (1, ms.Tensor(np.array([[0], [1]]))),
    "take": (ms.Tensor(np.array([0, 3])),),
    "masked_fill": (ms.Tensor(np.array([[True, False], [False, True]])), 0.0),
    "where": (ms.Tensor(np.array([[True, False], [False, True]])), 0.0),
    "index_select": (0, ms.Tensor(np.array([1]))),
    "flip": ((0,),),
    "roll": (1,),
    "topk": (1,),
    "cumprod": (0,),
    "logsumexp": (1,),
    "lerp": (_f(), 0.5),
    "allclose": (_f(),),
    "addcmul": (_f(), _f()),
    "addcdiv": (_f(), _f()),
    "cummax": (0,),
    "cummin": (0,),
    "logcumsumexp": (1,),
    "outer": (_f(),),
    "cross": (_f(),),
    "swapdims": (0, 1),
    "movedim": (1, 0),
    "tensor_split": (2,),
    "hsplit": (2,),
    "vsplit": (2,),
    "masked_select": (ms.Tensor(np.array([[True, False], [False, True]])),),
    "masked_scatter": (ms.Tensor(np.array([[True, False], [False, True]])), ms.Tensor(np.zeros(2, np.float32))),
    "searchsorted": (ms.Tensor(np.array([0.5])),),
    "scatter": (1, ms.Tensor(np.array([[1], [0]])), 9.0),
    "gather_nd": (ms.Tensor(np.array([[0, 1]])),),
    "isin": (ms.Tensor(np.array([0.5])),),
    "new_zeros": ((3,),),
    "new_ones": ((3,),),
    "multinomial": (1,),
    "clip": (0.3, 0.6),
    "clamp": (0.3,),
    "clamp_": (0.3,),
    "expand": (2, 2, 2),
    "permute": (1, 0),
    "reshape": (4,),
    "view": (1, 4),
    "from_numpy": (np.ones(2, np.float32),),
    "softmax": (1,),
}
INT_METHODS = {"bitwise_and", "bitwise_or", "bitwise_xor", "bincount", "gcd", "lcm"}
SKIP = {"cross", "set_device_address"}  # cross needs a dimension of size 3: covered below; set_device_address
# raises as MindSpore's off Ascend (tests/ut/common/test_parameter_members.py)
BINARY_SELF = {
    "logical_and", "logical_or", "logical_xor", "pow", "add", "sub", "mul", "div", "matmul", "maximum", "minimum",
    "equal", "ne", "eq", "gt", "ge", "lt", "le", "isclose", "true_divide", "floor_divide", "remainder", "fmod",
    "float_power", "xlogy", "atan2", "hypot", "logaddexp", "mm", "dot", "inner", "kron", "bmm",
}  # fmt: skip


def _methods():
    # every public method of Tensor and of its general ops-delegating mixin; the op-family mixins
    # (_tensor_array_methods, _tensor_math_methods, _tensor_top_methods) are checked by their own test files
    own = ("sporax.common.tensor", "sporax.common._tensor_methods")
    names = {
        n for klass in ms.Tensor.__mro__[:-1] if klass.__module__ in own for n, v in vars(klass).items() if callable(v)
    }
    return sorted(n for n in names if not n.startswith("_"))


@pytest.mark.parametrize("name", _methods())
def test_every_method_runs(name):
    if name in SKIP:
        return
    t = _i() if name in INT_METHODS else _f()
    if name == "bincount":
        t = ms.Tensor(np.array([1, 2, 2]))
    if name == "bmm":
        t = ms.Tensor(np.ones((1, 2, 2), np.float32))
    if name == "searchsorted":
        t = V
    if name == "item":
        t = ms.Tensor([2.5])
    if name in ("det", "inverse"):
        t = ms.Tensor(np.array([[2.0, 1.0], [1.0, 3.0]], np.float32))
    if name in BINARY_SELF or name in INT_METHODS - {"bincount"}:
        args = (t,)
    else:
        args = ARGS.get(name, ())
    out = getattr(t, name)(*args)
    assert out is not NotImplemented


def test_methods_use_only_existing_ops():
    import re

    import sporax.common._tensor_top_methods as top

    src = inspect.getsource(sys.modules["sporax.common.tensor"]) + inspect.getsource(top)
    for name in sorted(set(re.findall(r"_ops\(\)\.(\w+)", src))):
        assert hasattr(ops, name), name


def test_method_values():
    t = _f()
    np.testing.assert_allclose(t.sum(1).asnumpy(), F2.sum(1))
    np.testing.assert_allclose(t.mean(keep_dims=True).asnumpy(), F2.mean(keepdims=True))
    np.testing.assert_allclose(t.max().asnumpy(), F2.max())
    v, i = t.max(0, return_indices=True)
    np.testing.assert_array_equal(i.asnumpy(), F2.argmax(0))
    val, idx = t.argmax_with_value(1)  # MindSpore 2.10: (values, indices)
    np.testing.assert_array_equal(idx.asnumpy(), F2.argmax(1))
    np.testing.assert_allclose(t.reshape(4).asnumpy(), F2.reshape(4))
    np.testing.assert_allclose(t.reshape(1, 4).asnumpy(), F2.reshape(1, 4))
    np.testing.assert_allclose(t.transpose().asnumpy(), F2.T)
    np.testing.assert_allclose(t.flatten().asnumpy(), F2.reshape(-1))
    np.testing.assert_allclose(t.std(ddof=1).asnumpy(), F2.std(ddof=1), rtol=1e-6)
    np.testing.assert_allclose(t.round(decimals=1).asnumpy(), np.round(F2, 1))
    assert t.astype(ms.int32).dtype == ms.int32 and t.int().dtype == ms.int32 and t.half().dtype == ms.float16
    assert t.view(ms.int32).dtype == ms.int32
    assert t.type() == "Float32"
    c = ms.Tensor(np.eye(3, dtype=np.float32)).cross(ms.Tensor(np.ones((3, 3), np.float32)))
    np.testing.assert_allclose(c.asnumpy(), np.cross(np.eye(3), np.ones((3, 3)), axis=0))
    z = t.copy()
    z.fill_(3.0)
    assert z.asnumpy().tolist() == [[3, 3], [3, 3]] and t.asnumpy()[0, 0] == 0.5
    np.testing.assert_allclose(t.clip(0.3, 0.6).asnumpy(), np.clip(F2, 0.3, 0.6))
