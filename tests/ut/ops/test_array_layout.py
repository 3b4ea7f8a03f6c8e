"""Array layout, creation and sort/search ops: values against NumPy and against reference values recorded
under MindSpore 2.10 (tools/make_ops_array_reference.py -> fixtures/array_reference.json), gradients against
finite differences, MindSpore's errors, the primitive-class forms and the Tensor methods."""

import json
from pathlib import Path

import numpy as np
import pytest

import sporax as ms
from sporax import ops
from sporax.ops import functional as F

REF = json.loads((Path(__file__).parent / "fixtures" / "array_reference.json").read_text())
M = np.arange(1, 13, dtype=np.float32).reshape(3, 4)
D = np.array([[1, 2, 3], [4, 5, 6]], np.float32)
S = np.arange(2 * 3 * 4 * 4, dtype=np.float32).reshape(2, 3, 4, 4)
I32 = ms.int32


def T(a, dtype=None):
    return ms.Tensor(np.asarray(a), dtype)


def eq(out, ref, **kw):
    np.testing.assert_allclose(np.asarray(out.asnumpy() if hasattr(out, "asnumpy") else out), np.asarray(ref), **kw)


def check(name, out):
    ref = REF[name]["out"]
    outs, refs = (out, ref) if isinstance(ref, list) else ((out,), (ref,))
    assert len(outs) == len(refs)
    for o, r in zip(outs, refs):
        eq(o, r["value"], rtol=1e-6, atol=1e-7)
        assert str(o.dtype) == r["dtype"], (name, o.dtype, r["dtype"])


CASES = {
    "matrix_diag_part_range": lambda: ops.matrix_diag_part(T(M), T([-1, 1], I32), T(0.0)),
    "matrix_diag_part_left_right": lambda: ops.matrix_diag_part(T(M), T([-1, 1], I32), T(0.0), align="LEFT_RIGHT"),
    "matrix_diag_range": lambda: ops.matrix_diag(T(D), k=T([0, 1], I32)),
    "matrix_diag_padded": lambda: ops.matrix_diag(
        T([1.0, 2.0], ms.float32), k=1, num_rows=3, num_cols=3, padding_value=9
    ),
    "matrix_set_diag_upper": lambda: ops.matrix_set_diag(
        T(M), T(np.array([[7, 7, 7], [8, 8, 0]], np.float32)), T([0, 1], I32)
    ),
    "matrix_set_diag_lower": lambda: ops.matrix_set_diag(
        T(M), T(np.array([[7, 7, 7], [8, 8, 0]], np.float32)), T([-1, 0], I32)
    ),
    "space_to_batch_nd": lambda: ops.space_to_batch_nd(T(S), (2, 2), ((0, 0), (0, 0))),
    "space_to_batch_nd_pad": lambda: ops.SpaceToBatchND((2, 2), ((0, 0), (1, 0)))(
        T(np.arange(6, dtype=np.float32).reshape(1, 1, 2, 3))
    ),
    "depth_to_space": lambda: ops.DepthToSpace(2)(T(np.arange(16, dtype=np.float32).reshape(1, 8, 1, 2))),
    "space_to_depth": lambda: ops.SpaceToDepth(2)(T(np.arange(16, dtype=np.float32).reshape(1, 2, 2, 4))),
    "reverse_sequence_seq1": lambda: ops.reverse_sequence(
        T(np.arange(12.0, dtype=np.float32).reshape(3, 4)), T([1, 2, 3]), 1
    ),
    "reverse_sequence_seq0": lambda: ops.ReverseSequence(0, 1)(
        T(np.arange(12.0, dtype=np.float32).reshape(3, 4)), T([1, 2, 3, 0])
    ),
    "fill_diagonal": lambda: ops.FillDiagonal(9.0)(T(np.zeros((5, 3), np.float32))),
    "fill_diagonal_wrap": lambda: ops.FillDiagonal(9.0, True)(T(np.zeros((7, 3), np.float32))),
    "hamming_window_5": lambda: ops.hamming_window(5),
    "hamming_window_sym": lambda: ops.HammingWindow(False, 0.5, 0.5)(T([6])),
    "unique_with_pad": lambda: ops.unique_with_pad(T([1, 2, 2, 5, 1], I32), 0),
    "unique_consecutive_dim0": lambda: ops.unique_consecutive(T([[1, 1], [1, 1], [2, 2]]), True, True, 0),
    "list_diff": lambda: ops.ListDiff()(T([1, 2, 3, 4]), T([2, 4])),
    "log_space": lambda: ops.LogSpace(3, 2)(T(0.0, ms.float32), T(2.0, ms.float32)),
    "diag_part": lambda: ops.DiagPart()(T(np.arange(16.0, dtype=np.float32).reshape(2, 2, 2, 2))),
    "population_count": lambda: ops.PopulationCount()(T([7, 255, -1], ms.int16)),
    "top_k": lambda: ops.top_k(T(M), 2),
    "aminmax": lambda: ops.aminmax(T(M), axis=1, keepdims=True),
    "range_int": lambda: ops.range(0, 5, 2),
    "lower_bound": lambda: ops.LowerBound()(T([[1, 3, 5, 5]]), T([[5, 0]])),
    "upper_bound": lambda: ops.UpperBound()(T([[1, 3, 5, 5]]), T([[5, 0]])),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_against_mindspore_reference(name):
    check(name, CASES[name]())


def test_space_batch_round_trips_and_classes():
    x = T(S)
    y = ops.SpaceToBatch(2, [[0, 0], [0, 0]])(x)
    assert y.shape == (8, 3, 2, 2)
    eq(ops.BatchToSpace(2, [[0, 0], [0, 0]])(y), S)
    eq(ops.BatchToSpaceND((2, 2), ((0, 0), (0, 0)))(y), S)
    eq(ops.BatchToSpaceNDV2()(y, T([2, 2]), T([[0, 0], [0, 0]])), S)
    eq(ops.batch_to_space_nd(ops.space_to_batch_nd(x, 2, [[0, 0], [2, 0]]), 2, [[0, 0], [2, 0]]), S)
    eq(
        ops.SpaceToDepth(2)(ops.DepthToSpace(2)(T(S[:, :0].repeat(4, 1) if False else np.ones((1, 4, 2, 2))))),
        np.ones((1, 4, 2, 2)),
    )
    with pytest.raises(ValueError, match="For 'SpaceToBatchND', the padded spatial dim 3 \\(3\\) must be divisible"):
        ops.space_to_batch_nd(T(np.zeros((1, 1, 2, 3))), (2, 2), ((0, 0), (0, 0)))
    with pytest.raises(ValueError, match="For 'DepthToSpace', the channels \\(3\\)"):
        ops.DepthToSpace(2)(T(np.zeros((1, 3, 1, 1))))


def test_matrix_ops_and_classes():
    x = T(M)
    eq(ops.MatrixDiagV3()(T(D), T([0, 1], I32), T(-1), T(-1), T(0.0)), REF["matrix_diag_range"]["out"]["value"])
    eq(
        ops.MatrixDiagPartV3(align="LEFT_RIGHT")(x, T([-1, 1], I32), T(0.0)),
        REF["matrix_diag_part_left_right"]["out"]["value"],
    )
    eq(ops.matrix_diag_part(x, 0, 0.0), np.diag(M))
    eq(ops.matrix_set_diag(x, T(np.zeros(3, np.float32))), M * (1 - np.eye(3, 4)))
    eq(ops.MatrixBandPart()(x, 0, 1), np.triu(np.tril(M, 1)))
    eq(ops.matrix_band_part(x, 1, 0), np.tril(np.triu(M, -1)))
    with pytest.raises(ValueError, match="For 'MatrixDiagV3', 'align' must be one of"):
        ops.matrix_diag(T(D), align="UP")
    with pytest.raises(ValueError, match="For 'MatrixDiagPartV3', k\\[0\\] must not be greater than k\\[1\\]"):
        ops.matrix_diag_part(x, T([1, 0], I32), 0.0)
    eq(ops.Diag()(T([1.0, 2.0])), np.diag([1.0, 2.0]))
    eq(ops.diagflat(T([1, 2]), 1), np.diagflat([1, 2], 1))
    eq(T([[1.0, 2.0]]).diagflat(-1), np.diagflat([1.0, 2.0], -1))


GRAD_CASES = [
    ("matrix_diag_part", lambda t: ops.matrix_diag_part(t, [-1, 1], 0.0)),
    ("matrix_set_diag", lambda t: ops.matrix_set_diag(t * 2, t[:, 0] * t[:, 1])),
    ("space_to_batch_nd", lambda t: ops.space_to_batch_nd(ops.reshape(t, (1, 1, 3, 4)), (1, 2), ((1, 0), (0, 2)))),
    ("reverse_sequence", lambda t: ops.reverse_sequence(t, T([1, 2, 3]), 1)),
    ("expand", lambda t: ops.expand(t[:1], (2, 4))),
    ("diagflat", lambda t: ops.diagflat(t[0], 1)),
    ("aminmax", lambda t: ops.aminmax(t, axis=0)[1]),
]


@pytest.mark.parametrize("name,fn", GRAD_CASES, ids=[g[0] for g in GRAD_CASES])
def test_gradients_match_finite_differences(name, fn):
    x = np.random.default_rng(3).standard_normal((3, 4))
    w = np.arange(1.0, 200.0)

    def loss(t):
        out = fn(t)
        return ops.sum(out * T(w[: out.size].reshape(out.shape)))

    g = ms.grad(loss)(T(x))
    compiled = ms.jit(loss)
    ref = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        d = np.zeros_like(x)
        d[i] = 1e-6
        ref[i] = (float(compiled(T(x + d)).asnumpy()) - float(compiled(T(x - d)).asnumpy())) / 2e-6
    np.testing.assert_allclose(g.asnumpy(), ref, rtol=1e-5, atol=1e-5)


def test_creation_and_shape_helpers():
    x = T(M)
    assert ops.eye(2).dtype == ms.float32 and ops.eye(2, 3, ms.int32).dtype == ms.int32
    eq(ops.range(T(1.0), T(2.0), T(0.25)), [1.0, 1.25, 1.5, 1.75])
    assert ops.range(0, 5, 2).dtype == ms.int64 and ops.range(0.0, 1.0, 0.5).dtype == ms.float32
    with pytest.raises(
        TypeError, match=r"For Range, the dtypes of inputs must be the same, but got \(Int64, Float32, Float32\)"
    ):
        ops.range(0, 1.0, 0.25)
    with pytest.raises(ValueError, match="must not exceed 'maxlen' \\(3\\)"):
        ops.range(0, 10, 1, maxlen=3)
    eq(ops.tensor_range(T(0), T(5), T(2)), [0, 2, 4])
    eq(F.tensor_range(0, 3, 1), [0, 1, 2])
    eq(ops.tensor_slice(x, (0, 1), (2, 2)), M[:2, 1:3])
    assert ops.shape_mul((2, 3, 4)) == 24
    eq(ops.transpose(x, (1, 0)), M.T)
    eq(ops.unsqueeze(x, dim=0), M[None])
    assert ops.dtype(x) == ms.float32 and F.dtype(x) == ms.float32
    assert ops.identity(x) is x
    assert ops.operations.identity()(x) is x
    assert ops.IdentityN()([x, x])[1] is x
    eq(ops.expand(T([[1], [2]]), T([2, 3])), [[1, 1, 1], [2, 2, 2]])
    eq(ops.Expand()(T([[1], [2]]), (2, -1)), [[1], [2]])
    eq(T([[1], [2]]).expand(2, 3), [[1, 1, 1], [2, 2, 2]])
    eq(ops.expand_as(T([[1], [2]]), x[:2]), [[1] * 4, [2] * 4])
    eq(ops.view_as(x, T(np.zeros((4, 3)))), M.reshape(4, 3))
    assert ops.type_as(x, T([1])).dtype == ms.int64
    eq(ops.ravel(x), M.reshape(-1))
    eq(ops.fills(x, 2.5), np.full((3, 4), 2.5))
    eq(x.fills(T(1.0)), np.ones((3, 4)))
    eq(ops.Fills()(x, 0.5), np.full((3, 4), 0.5))
    eq(ops.FillV2()((2, 2), T(3, I32)), [[3, 3], [3, 3]])
    assert ops.FillV2()((2,), T(3, I32)).dtype == ms.int32
    z = T(M.copy())
    assert ops.zero_(z) is z and z.asnumpy().sum() == 0
    z2 = T(M.copy())
    assert z2.zero_() is z2 and z2.asnumpy().sum() == 0
    c = ops.deepcopy(x)
    assert c is not x
    eq(c, M)
    assert ops.is_nonzero(T([0.5])) and not ops.is_nonzero(T(0))
    with pytest.raises(ValueError, match="For is_nonzero, the numel of input must be 1, but got 2."):
        ops.is_nonzero(T([0.5, 1.0]))
    assert ops.scalar_to_array(3).dtype == ms.int64 and ops.ScalarToArray()(2.0).dtype == ms.float32
    eq(ops.population_count(T(np.array([3], np.uint8))), [2])
    with pytest.raises(TypeError, match="For 'PopulationCount', the 'input_x' must be an int Tensor"):
        ops.population_count(x)
    eq(ops.repeat_elements(T([[1, 2]]), 2, 1), [[1, 1, 2, 2]])
    eq(ops.ConjugateTranspose()(T(np.array([[1 + 2j, 3j]])), (1, 0)), [[1 - 2j], [-3j]])
    eq(ops.TransposeView()(x, (1, 0)), M.T)
    eq(ops.TransposeExtView()(T(S), 1, 3), S.swapaxes(1, 3))
    a, b = ops.SplitV([1, -1], 1, 2)(x)
    eq(a, M[:, :1])
    eq(b, M[:, 1:])
    parts = ops.dsplit(T(S), 2)
    eq(parts[1], S[:, :, 2:])
    eq(T(S).dsplit([1])[0], S[:, :, :1])
    eq(ops.ParallelConcat()((T([[1]]), T([[2]]))), [[1], [2]])
    with pytest.raises(ValueError, match="For 'ParallelConcat', each input must have first dim 1"):
        ops.ParallelConcat()((T([1, 2]),))
    eq(ops.DynamicShape()(x), [3, 4])
    eq(ops.Pack(axis=1)((T([1, 2]), T([3, 4]))), [[1, 3], [2, 4]])
    assert [u.asnumpy().tolist() for u in ops.Unpack(axis=0)(x)][2] == M[2].tolist()
    eq(ops.CountNonZero()(T([[0, 1], [2, 0]])), 2)
    eq(ops.CountNonZero(dims=[0])(T([[0, 1], [2, 3]])), [1, 2])
    eq(x.reverse([1]), M[:, ::-1])
    eq(ops.reverse(x, [0]), M[::-1])
    eq(x.reverse_sequence(T([1, 2, 4]), 1), [M[0], M[1, [1, 0, 2, 3]], M[2, ::-1]])
    moved = ops.move_to(x, "CPU")
    eq(moved, M)
    eq(ops.MoveTo()(x, "Ascend", True), M)
    eq(x.move_to("CPU", blocking=False), M)
    with pytest.raises(ValueError, match="For 'move_to', the 'to' must be 'CPU', 'Ascend' or 'GPU'"):
        ops.move_to(x, "TPU")


def test_sort_search_helpers():
    x = T(M)
    v, i = x.top_k(1)
    eq(v, M[:, -1:])
    assert i.dtype == ms.int32
    lo, hi = x.aminmax(axis=0)
    eq(lo, M.min(0))
    eq(hi, M.max(0))
    lo, hi = ops.aminmax(x, axis=None)
    assert float(lo.asnumpy()) == 1.0 and float(hi.asnumpy()) == 12.0
    y, idx = ops.UniqueWithPad()(T([3, 3, 1]), T(-1))
    eq(y, [3, 1, -1])
    eq(idx, [0, 0, 1])
    eq(T([5, 5, 7]).unique_with_pad(0)[0], [5, 7, 0])
    out, inv, cnt = ops.UniqueConsecutive()(T([1, 1, 2, 2, 3, 1]))
    eq(out, [1, 2, 3, 1])
    assert inv.shape == () and cnt.shape == ()
    out, inv, cnt = ops.UniqueConsecutive(True, True, None)(T([1, 1, 2]))
    eq(out, [1, 2])
    eq(inv, [0, 0, 1])
    eq(cnt, [2, 1])
    eq(T([1, 1, 2]).unique_consecutive(return_inverse=True)[1], [0, 0, 1])
    eq(ops.SearchSorted()(T([1.0, 3.0, 5.0]), T([3.0])), [1])
    eq(ops.SearchSorted(right=True)(T([1.0, 3.0, 5.0]), T([3.0])), [2])


def test_sort_family_index_dtypes_and_unique_order():
    x = T(np.array([3.0, 1.0, 2.0, 3.0], np.float32))
    v, i = ops.sort(x, descending=True)
    assert i.dtype == ms.int32 and i.asnumpy().tolist() == [0, 3, 2, 1] and v.asnumpy().tolist() == [3, 3, 2, 1]
    assert ops.argsort(x).dtype == ms.int32 and ops.argsort(x).asnumpy().tolist() == [1, 2, 0, 3]
    v, i = ops.topk(T(np.array([3, 1, 2], np.uint8)), 2, largest=False)
    assert v.asnumpy().tolist() == [1, 2] and i.asnumpy().tolist() == [1, 2] and i.dtype == ms.int32
    u, inv = ops.unique(T(np.array([3, 1, 3, 2], np.int64)))
    assert u.asnumpy().tolist() == [3, 1, 2] and inv.asnumpy().tolist() == [0, 1, 0, 2] and inv.dtype == ms.int64
    assert ops.unique(T(np.array([2.0, 2.0], np.float32)))[1].dtype == ms.int32
    with pytest.raises(ValueError, match="For 'TopK', the 'k' must be in \\[1, 4\\], but got 5."):
        ops.topk(x, 5)


def test_diag_and_range_dtypes_as_mindspore():
    out = ops.diag(T(np.array([[1, 2], [3, 4]], np.float32)))
    assert out.shape == (2, 2, 2, 2)
    eq(out.reshape((4, 4)), np.diag([1, 2, 3, 4]))
    assert ops.range(T(np.int32(0)), T(np.int32(5)), T(np.int32(2))).dtype == ms.int64
    assert ops.tuple_to_array((1, 2)).dtype == ms.int32 and ops.TupleToArray()((1.0, 2.0)).dtype == ms.float32
    with pytest.raises(TypeError, match="For 'TupleToArray', all elements of 'input_x' must be have same type."):
        ops.TupleToArray()((1, 2.0))
    assert ops.bincount(T(np.array([0, 1, 1], np.int32))).dtype == ms.float32
    assert ops.range(T(np.float64(0)), T(np.float64(1)), T(np.float64(0.5))).dtype == ms.float32
