"""ops array functions: shapes, creation, indexing, scatter/gather, sorting, errors."""

import numpy as np
import pytest

import sporax as ms
from sporax import ops

RNG = np.random.default_rng(0)
A = RNG.normal(size=(2, 3, 4)).astype(np.float32)


def T(a, dtype=None):
    return ms.Tensor(a, dtype)


def eq(out, expected):
    np.testing.assert_allclose(np.asarray(out.asnumpy()), np.asarray(expected), rtol=1e-6, atol=1e-6)


SHAPE_CASES = [
    ("reshape", lambda t: ops.reshape(t, (4, -1)), lambda a: a.reshape(4, -1)),
    ("transpose", lambda t: ops.transpose(t, (2, 0, 1)), lambda a: a.transpose(2, 0, 1)),
    ("permute", lambda t: ops.permute(t, (1, 0, 2)), lambda a: a.transpose(1, 0, 2)),
    ("swapaxes", lambda t: ops.swapaxes(t, 0, 2), lambda a: a.swapaxes(0, 2)),
    ("moveaxis", lambda t: ops.moveaxis(t, 0, -1), lambda a: np.moveaxis(a, 0, -1)),
    ("expand_dims", lambda t: ops.expand_dims(t, 1), lambda a: a[:, None]),
    ("unsqueeze", lambda t: ops.unsqueeze(t, -1), lambda a: a[..., None]),
    ("squeeze", lambda t: ops.squeeze(ops.expand_dims(t, 0)), lambda a: a),
    ("flatten", lambda t: ops.flatten(t), lambda a: a.reshape(2, -1)),
    ("flatten_all", lambda t: ops.flatten(t, start_dim=0), lambda a: a.reshape(-1)),
    ("broadcast_to", lambda t: ops.broadcast_to(t[:, :1], (-1, 3, 4)), lambda a: np.broadcast_to(a[:, :1], (2, 3, 4))),
    ("tile", lambda t: ops.tile(t, (1, 2, 1)), lambda a: np.tile(a, (1, 2, 1))),
    ("flip", lambda t: ops.flip(t, (0, 2)), lambda a: np.flip(a, (0, 2))),
    ("roll", lambda t: ops.roll(t, 1, 2), lambda a: np.roll(a, 1, 2)),
    ("tril", lambda t: ops.tril(t, 1), lambda a: np.tril(a, 1)),
    ("triu", lambda t: ops.triu(t), lambda a: np.triu(a)),
    ("diagonal", lambda t: ops.diagonal(t, 0, 1, 2), lambda a: np.diagonal(a, 0, 1, 2)),
    ("narrow", lambda t: ops.narrow(t, 2, 1, 2), lambda a: a[:, :, 1:3]),
    ("slice", lambda t: ops.slice(t, (0, 1, 0), (2, -1, 3)), lambda a: a[:, 1:, :3]),
    (
        "strided_slice",
        lambda t: ops.strided_slice(t, (0, 0, 3), (2, 3, 0), (1, 2, -1)),
        lambda a: a[0:2, 0:3:2, 3:0:-1],
    ),
    (
        "strided_slice_masks",
        lambda t: ops.strided_slice(t, (1, 0, 0), (2, 2, 2), (1, 1, 1), begin_mask=2, shrink_axis_mask=1),
        lambda a: a[1, :2, 0:2],
    ),
    ("repeat_interleave", lambda t: ops.repeat_interleave(t, 2, 1), lambda a: np.repeat(a, 2, 1)),
    ("matrix_band_part", lambda t: ops.matrix_band_part(t, 1, 0), lambda a: np.tril(np.triu(a, -1))),
    ("t", lambda t: ops.t(t[0]), lambda a: a[0].T),
]


@pytest.mark.parametrize("name,fn,ref", SHAPE_CASES, ids=[c[0] for c in SHAPE_CASES])
def test_shape_ops_match_numpy(name, fn, ref):
    out = fn(T(A))
    expected = ref(A)
    assert out.shape == expected.shape
    eq(out, expected)


def test_concat_stack_split():
    a, b = A[:, :1], A[:, 1:]
    eq(ops.concat((T(a), T(b)), 1), A)
    eq(ops.cat([T(a), T(b)], -2), A)
    assert ops.concat((T(np.ones(2, np.int32)), T(np.ones(2, np.float32)))).dtype == ms.float32
    eq(ops.stack([T(A[0]), T(A[1])], 1), np.stack([A[0], A[1]], 1))
    parts = ops.split(T(A), 2, 2)
    assert [p.shape for p in parts] == [(2, 3, 2), (2, 3, 2)]
    parts = ops.split(T(A), [1, 3], 2)
    eq(parts[1], A[:, :, 1:])
    assert [p.shape[1] for p in ops.split(T(A), 2, 1)] == [2, 1]
    assert len(ops.chunk(T(A), 2, 2)) == 2
    assert [p.shape[2] for p in ops.tensor_split(T(A), 3, 2)] == [2, 1, 1]
    us = ops.unstack(T(A), 1)
    assert len(us) == 3 and us[0].shape == (2, 4)
    eq(ops.unbind(T(A), 0)[1], A[1])
    eq(ops.hstack([T(A[0]), T(A[1])]), np.hstack([A[0], A[1]]))
    eq(ops.vstack([T(A[0]), T(A[1])]), np.vstack([A[0], A[1]]))
    eq(ops.column_stack([T(A[0, 0]), T(A[0, 1])]), np.column_stack([A[0, 0], A[0, 1]]))
    assert ops.atleast_2d(T(1.0)).shape == (1, 1)


def test_shape_errors():
    with pytest.raises(ValueError, match=r"For 'Reshape', the product of the 'input_x' shape .* but got"):
        ops.reshape(T(A), (5, -1))
    with pytest.raises(ValueError, match="For 'Reshape'"):
        ops.reshape(T(A), (-1, -1))
    with pytest.raises(ValueError, match="For 'concat', all tensors must have the same shape"):
        ops.concat((T(A), T(A[:, :2, :3])), 1)
    with pytest.raises(TypeError, match="For 'concat'"):
        ops.concat(T(A))
    with pytest.raises(ValueError, match="For 'stack'"):
        ops.stack((T(A), T(A[0])))
    with pytest.raises(ValueError, match="For 'Squeeze', the dimension at axis 1 must be 1"):
        ops.squeeze(T(A), 1)
    with pytest.raises(ValueError, match="For 'ExpandDims', the 'axis' must be in range"):
        ops.expand_dims(T(A), 5)
    with pytest.raises(ValueError, match="For 'Transpose'"):
        ops.transpose(T(A), (0, 0, 1))
    with pytest.raises(ValueError, match="For 'split'"):
        ops.split(T(A), [1, 1], 2)
    with pytest.raises(ValueError, match="For 'broadcast_to'"):
        ops.broadcast_to(T(A), (3, 3, 4))
    with pytest.raises(ValueError, match="For 'Slice'"):
        ops.slice(T(A), (0, 0, 3), (1, 1, 2))
    with pytest.raises(ValueError, match="For 'StridedSlice', the 'strides' cannot contain 0"):
        ops.strided_slice(T(A), (0,), (1,), (0,))


def test_creation_ops():
    z = ops.zeros((2, 3))
    assert z.dtype == ms.float32 and z.shape == (2, 3)
    assert ops.zeros(4, ms.int32).dtype == ms.int32
    assert ops.ones((2,), ms.float16).dtype == ms.float16
    eq(ops.fill(ms.int32, (2, 2), 7), np.full((2, 2), 7))
    assert ops.fill(ms.int32, (2, 2), 7).dtype == ms.int32
    with pytest.raises(TypeError, match="For 'Fill', the 'type'"):
        ops.fill(np.float32, (2,), 1)
    assert ops.full((2,), 1.5).dtype == ms.float32
    assert ops.full((2,), 3).dtype == ms.int64
    assert ops.full((2,), True).dtype == ms.bool_
    assert ops.zeros_like(T(A)).dtype == ms.float32
    assert ops.ones_like(T(A), dtype=ms.int8).dtype == ms.int8
    assert ops.full_like(T(A), 2).asnumpy().sum() == 2 * A.size
    assert ops.arange(5).dtype == ms.int64
    eq(ops.arange(0, 1, 0.25), np.arange(0, 1, 0.25))
    assert ops.arange(0, 1, 0.25).dtype == ms.float32
    eq(ops.range(1, 7, 2), [1, 3, 5])
    eq(ops.linspace(0.0, 1.0, 5), np.linspace(0, 1, 5))
    assert ops.linspace(0, 1, 5).dtype == ms.float32
    eq(ops.eye(3, 2), np.eye(3, 2))
    assert ops.eye(2, dtype=ms.int32).dtype == ms.int32
    assert ops.scalar_to_tensor(3).dtype == ms.float32
    assert ops.tuple_to_array((1, 2)).dtype == ms.int32  # MindSpore 2.10: Int32 for ints
    assert ops.tuple_to_array((1.0, 2)).dtype == ms.float32
    x, y = ops.meshgrid(T([1, 2, 3]), T([4, 5]), indexing="ij")
    assert x.shape == (3, 2)
    eq(x, np.meshgrid([1, 2, 3], [4, 5], indexing="ij")[0])


def test_cast_and_metadata():
    t = ops.cast(T(A), ms.float16)
    assert t.dtype == ms.float16
    with pytest.raises(TypeError, match="For 'Cast'"):
        ops.cast(T(A), "float32")
    assert ops.shape(T(A)) == (2, 3, 4)
    assert ops.rank(T(A)) == 3 and ops.size(T(A)) == 24 and ops.numel(T(A)) == 24
    assert ops.dtype(T(A)) == ms.float32
    eq(ops.dyn_shape(T(A)), [2, 3, 4])
    assert ops.is_tensor(T(A)) and not ops.is_tensor(A)
    eq(ops.bitcast(T(np.array([1.0], np.float32)), ms.int32), np.array([1.0], np.float32).view(np.int32))


def test_gather_family():
    idx = np.array([2, 0], np.int32)
    eq(ops.gather(T(A), T(idx), 1), np.take(A, idx, 1))
    eq(ops.gather(T(A), T(idx), -1), np.take(A, idx, -1))
    bidx = np.array([[0, 1], [2, 2]], np.int64)
    eq(ops.gather(T(A), T(bidx), 1, batch_dims=1), np.stack([A[0][[0, 1]], A[1][[2, 2]]]))
    with pytest.raises(TypeError, match="For 'Gather', the 'input_indices' must be an int Tensor"):
        ops.gather(T(A), T([0.0]), 0)
    with pytest.raises(ValueError, match="For 'Gather', the 'axis'"):
        ops.gather(T(A), T(idx), 3)
    di = RNG.integers(0, 3, (2, 3, 4))
    eq(ops.gather_d(T(A), 1, T(di)), np.take_along_axis(A, di, 1))
    eq(ops.gather_elements(T(A), 1, T(di)), np.take_along_axis(A, di, 1))
    nd = np.array([[0, 1], [1, 2]])
    eq(ops.gather_nd(T(A), T(nd)), A[[0, 1], [1, 2]])
    eq(ops.index_select(T(A), 2, T(np.array([3, 1]))), A[:, :, [3, 1]])
    eq(ops.take(T(A), T(np.array([0, 5]))), A.reshape(-1)[[0, 5]])


def test_one_hot_where_select_masked():
    oh = ops.one_hot(T(np.array([0, 2])), 3, T(1.0), T(0.0))
    eq(oh, np.eye(3)[[0, 2]])
    assert oh.dtype == ms.float32
    assert ops.one_hot(T(np.array([1])), 3).dtype == ms.int64
    assert ops.one_hot(T(np.array([1, 0])), 2, axis=0).shape == (2, 2)
    cond = A > 0
    eq(ops.where(T(cond), T(A), 0.0), np.where(cond, A, 0))
    assert ops.where(T(cond), T(np.ones(3, np.int32)[None, :, None]), 1.5).dtype == ms.float32
    eq(ops.select(T(cond), T(A), T(-A)), np.abs(A))
    eq(ops.masked_fill(T(A), T(cond), -1.0), np.where(cond, -1, A))
    eq(ops.masked_select(T(A), T(cond)), A[cond])
    eq(ops.nonzero(T(np.array([[0, 1], [1, 0]]))), [[0, 1], [1, 0]])
    eq(ops.argwhere(T(np.array([0, 3, 0, 1]))), [[1], [3]])
    eq(ops.sequence_mask(T(np.array([1, 3])), 4), [[1, 0, 0, 0], [1, 1, 1, 0]])
    eq(ops.isin(T(np.array([1, 2, 3])), T(np.array([2, 9]))), [False, True, False])


def test_data_dependent_ops_refuse_jit_with_a_clear_error():
    @ms.jit(fullgraph=True)
    def f(x):
        return ops.nonzero(x)

    with pytest.raises(Exception, match="For 'nonzero', the output shape depends on the input values"):
        f(T(np.array([0, 1])))


def test_sort_topk_unique():
    x = np.array([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]], np.float32)
    v, i = ops.sort(T(x))
    eq(v, np.sort(x))
    eq(i, np.argsort(x))
    v, i = ops.sort(T(x), 0, descending=True)
    eq(v, -np.sort(-x, 0))
    eq(ops.argsort(T(x), descending=True), np.argsort(-x))
    v, i = ops.topk(T(x), 2)
    eq(v, [[3, 2], [5, 4]])
    eq(i, [[0, 2], [1, 2]])
    v, i = ops.topk(T(x), 1, dim=0, largest=False)
    eq(v, [[0, 1, 2]])
    with pytest.raises(ValueError, match="For 'TopK', the 'k'"):
        ops.topk(T(x), 4)
    u, inv = ops.unique(T(np.array([3, 1, 3, 2])))  # MindSpore 2.10: in order of first appearance
    eq(u, [3, 1, 2])
    eq(inv, [0, 1, 0, 2])
    out, idx, cnt = ops.unique_consecutive(T(np.array([1, 1, 2, 2, 3, 1])), True, True)
    eq(out, [1, 2, 3, 1])
    eq(idx, [0, 0, 1, 1, 2, 3])
    eq(cnt, [2, 2, 1, 1])
    eq(ops.searchsorted(T(np.array([1, 3, 5])), T(np.array([3, 6]))), [1, 3])
    eq(ops.searchsorted(T(np.array([1, 3, 5])), T(np.array([3])), right=True), [2])
    eq(ops.bincount(T(np.array([0, 1, 1, 3]))), [1, 2, 0, 1])


def test_scatter_family():
    x = np.zeros((3, 3), np.float32)
    idx = np.array([[0, 1], [2, 2]])
    upd = np.array([5.0, 7.0], np.float32)
    ref = x.copy()
    ref[0, 1], ref[2, 2] = 5, 7
    eq(ops.tensor_scatter_update(T(x), T(idx), T(upd)), ref)
    eq(ops.tensor_scatter_add(T(x + 1), T(idx), T(upd)), ref + 1)
    eq(ops.tensor_scatter_sub(T(x), T(idx), T(upd)), -ref)
    eq(ops.tensor_scatter_max(T(x + 6), T(idx), T(upd)), np.maximum(x + 6, ref))
    eq(ops.tensor_scatter_min(T(x + 6), T(idx), T(upd)), np.where(ref > 0, np.minimum(6, ref), 6))
    eq(ops.tensor_scatter_mul(T(x + 2), T(idx), T(upd)), np.where(ref > 0, 2 * ref, 2))
    eq(ops.scatter_nd(T(idx), T(upd), (3, 3)), ref)
    with pytest.raises(TypeError, match="For 'tensor_scatter_update', the 'indices' must be an int Tensor"):
        ops.tensor_scatter_update(T(x), T(idx.astype(np.float32)), T(upd))
    el = ops.tensor_scatter_elements(T(x), T(np.array([[1, 0, 2]])), T(np.array([[1.0, 2.0, 3.0]], np.float32)))
    eq(el, [[0, 2, 0], [1, 0, 0], [0, 0, 3]])
    eq(
        ops.scatter(T(x), 1, T(np.array([[2], [0]])), T(np.array([[4.0], [5.0]], np.float32))),
        [[0, 0, 4], [5, 0, 0], [0, 0, 0]],
    )
    seg = ops.unsorted_segment_sum(T(np.array([1.0, 2.0, 3.0, 4.0])), T(np.array([0, 1, 0, 1])), 2)
    eq(seg, [4, 6])
    eq(ops.unsorted_segment_max(T(np.array([1.0, 5.0, 3.0])), T(np.array([0, 0, 1])), 2), [5, 3])


def test_parameter_scatter_updates_write_in_place():
    p = ms.Parameter(T(np.zeros((3, 2), np.float32)), name="p")
    out = ops.scatter_nd_update(p, T(np.array([[1]])), T(np.array([[1.0, 2.0]], np.float32)))
    assert out is p
    eq(p, [[0, 0], [1, 2], [0, 0]])
    ops.scatter_add(p, T(np.array([0, 1])), T(np.ones((2, 2), np.float32)))
    eq(p, [[1, 1], [2, 3], [0, 0]])
    ops.assign(p, T(np.full((3, 2), 4.0, np.float32)))
    ops.assign_add(p, T(np.ones((3, 2), np.float32)))
    ops.assign_sub(p, 2.0)
    eq(p, np.full((3, 2), 3.0))
    with pytest.raises(TypeError, match="For 'Assign', the 'variable' must be a Parameter"):
        ops.assign(T(np.zeros(2)), T(np.ones(2)))
    with pytest.raises(ValueError, match="For 'Assign', the shape of 'value'"):
        ops.assign(p, T(np.ones((4,))))


def test_stop_gradient_depend_identity():
    x = T(np.array([1.0, 2.0]))
    g = ms.grad(lambda t: ops.sum(ops.mul(ops.stop_gradient(t), t)))(x)
    eq(g, [1.0, 2.0])
    assert ops.depend(x, None) is x and ops.identity(x) is x
    a, b = ops.stop_gradient((x, x))
    eq(a, x)
    eq(ops.clone(x), x)


def test_indexing_helpers():
    t = T(A)
    eq(ops.tensor_getitem(t, (0, slice(1, 3))), A[0, 1:3])
    eq(ops.tensor_getitem(t, T(np.array([1, 0]))), A[[1, 0]])
    eq(ops.tensor_setitem(t, (0, 0), 9.0)[0, 0], np.full(4, 9.0))
    with pytest.raises(IndexError, match="For 'Tensor.__getitem__'"):
        ops.tensor_getitem(t, 5)
