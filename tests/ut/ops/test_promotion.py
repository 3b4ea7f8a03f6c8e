"""MindSpore 2.x type promotion and broadcasting, against an independent table of its rules.

Tensor with tensor: bool < integer < floating < complex; within a kind, the wider type; a signed and an
unsigned integer give the smallest signed type holding both; float16 with bfloat16 gives float32.
Tensor with a Python number: the number adapts to the tensor (int tensor + float -> float32,
bool tensor + int -> int64, otherwise the tensor's dtype).
"""

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import mutually_broadcastable_shapes

import sporax as ms
from sporax import ops

_BITS = {
    ms.int8: 8, ms.int16: 16, ms.int32: 32, ms.int64: 64,
    ms.uint8: 8, ms.uint16: 16, ms.uint32: 32, ms.uint64: 64,
    ms.float16: 16, ms.bfloat16: 16, ms.float32: 32, ms.float64: 64,
}  # fmt: skip
_SIGNED = {8: ms.int8, 16: ms.int16, 32: ms.int32, 64: ms.int64}
_UNSIGNED = {8: ms.uint8, 16: ms.uint16, 32: ms.uint32, 64: ms.uint64}
_FLOAT = {16: ms.float16, 32: ms.float32, 64: ms.float64}

DTYPES = [ms.bool_, *_SIGNED.values(), ms.uint8, ms.uint16, ms.uint32, ms.float16, ms.bfloat16, ms.float32, ms.float64]


def _kind(t):
    if t == ms.bool_:
        return 0
    if isinstance(t, (ms.dtype.Int, ms.dtype.UInt)):
        return 1
    return 2


def expected_tensor_tensor(a, b):
    """MindSpore's result dtype for ``tensor(a) op tensor(b)``."""
    if a == b:
        return a
    ka, kb = _kind(a), _kind(b)
    if ka != kb:
        return a if ka > kb else b
    if ka == 2:
        if {a, b} == {ms.float16, ms.bfloat16}:
            return ms.float32
        return _FLOAT[max(_BITS[a], _BITS[b])] if ms.bfloat16 not in (a, b) else (a if _BITS[a] > _BITS[b] else b)
    ua, ub = isinstance(a, ms.dtype.UInt), isinstance(b, ms.dtype.UInt)
    if ua == ub:
        return (_UNSIGNED if ua else _SIGNED)[max(_BITS[a], _BITS[b])]
    u, s = (a, b) if ua else (b, a)
    return _SIGNED[max(_BITS[s], 2 * _BITS[u])]


def expected_tensor_scalar(t, scalar):
    if isinstance(scalar, bool):
        return t
    if isinstance(scalar, int):
        return ms.int64 if t == ms.bool_ else t
    return t if _kind(t) == 2 else ms.float32


def _tensor(dtype, shape):
    return ms.Tensor(np.ones(shape, np.int8), dtype)


SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(
    a=st.sampled_from(DTYPES),
    b=st.sampled_from(DTYPES),
    shapes=mutually_broadcastable_shapes(num_shapes=2, max_dims=3, max_side=3),
    op=st.sampled_from(["add", "mul", "sub", "maximum"]),
)
def test_tensor_tensor_promotion_and_broadcasting(a, b, shapes, op):
    if op == "sub" and ms.bool_ in (a, b) and a == b:
        op = "add"
    x, y = _tensor(a, shapes.input_shapes[0]), _tensor(b, shapes.input_shapes[1])
    out = getattr(ops, op)(x, y)
    assert out.dtype == expected_tensor_tensor(a, b), (a, b)
    assert out.shape == shapes.result_shape
    cmp = ops.less(x, y)
    assert cmp.dtype == ms.bool_ and cmp.shape == shapes.result_shape


@SETTINGS
@given(t=st.sampled_from(DTYPES), scalar=st.sampled_from([True, 2, -3, 0.5, 2.0]), right=st.booleans())
def test_tensor_scalar_promotion(t, scalar, right):
    if t == ms.bool_ and isinstance(scalar, bool):
        return
    x = _tensor(t, (2,))
    out = ops.mul(scalar, x) if right else ops.add(x, scalar)
    assert out.dtype == expected_tensor_scalar(t, scalar)
    op = (scalar * x) if right else (x + scalar)
    assert op.dtype == out.dtype


@SETTINGS
@given(t=st.sampled_from(DTYPES[1:]), u=st.sampled_from(DTYPES[1:]))
def test_true_division_gives_float(t, u):
    out = ops.div(_tensor(t, (2,)), _tensor(u, (2,)))
    common = expected_tensor_tensor(t, u)
    assert out.dtype == (common if _kind(common) == 2 else ms.float32)


def test_numpy_scalars_count_as_python_numbers():
    x = ms.Tensor(np.ones(2, np.float16))
    assert (x + np.float64(1.5)).dtype == ms.float16
    assert (ms.Tensor([1, 2], ms.int32) * np.int64(3)).dtype == ms.int32
    assert (ms.Tensor([1, 2], ms.int32) + np.float32(0.5)).dtype == ms.float32


def test_no_float64_from_python_numbers():
    assert ops.add(1, 2.5).dtype == ms.float32
    assert ops.add(1, 2).dtype == ms.int64
    assert (ms.Tensor([1, 2]) / 2).dtype == ms.float32
    assert ops.sqrt(ms.Tensor([4])).dtype == ms.float32
    # MindSpore 2.10: the mean of an integer Tensor keeps its dtype (truncated), ops.mean(Tensor([1, 2])) is Int64 1
    assert ops.mean(ms.Tensor([1, 2])).dtype == ms.int64
    assert ops.mean(ms.Tensor([1.0, 2.0])).dtype == ms.float32


def test_numpy_array_operand_is_a_tensor():
    out = ms.Tensor(np.ones(2, np.float32)) + np.ones(2, np.float64)
    assert out.dtype == ms.float64
