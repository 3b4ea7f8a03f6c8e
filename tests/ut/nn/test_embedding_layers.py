"""Embedding (one-hot path), EmbeddingExt / ops.embedding, EmbeddingLookup (max_norm, CPU zero rows for
out-of-range ids), MultiFieldEmbeddingLookup (SUM/MEAN/MAX) against MindSpore 2.10 and NumPy; out-of-range
ids raise MindSpore's error naming the index."""

import numpy as np
import pytest
from _seq_ref import check_case

import sporax as ms
from sporax import Parameter, Tensor, nn, ops

CASES = [
    ("embedding_onehot", lambda: nn.Embedding(5, 3, use_one_hot=True)),
    ("embedding_lookup", lambda: nn.EmbeddingLookup(5, 3)),
    ("mfe_sum", lambda: nn.MultiFieldEmbeddingLookup(5, 3, 3, operator="SUM")),
    ("mfe_mean", lambda: nn.MultiFieldEmbeddingLookup(5, 3, 3, operator="MEAN")),
    ("mfe_max", lambda: nn.MultiFieldEmbeddingLookup(5, 3, 3, operator="MAX")),
]


@pytest.mark.parametrize("name,factory", CASES, ids=[c[0] for c in CASES])
def test_against_mindspore(name, factory):
    check_case(name, factory(), rtol=1e-5, atol=1e-6)


def test_out_of_range_ids():
    with pytest.raises(
        RuntimeError, match=r"For 'Gather', the 'input_indices' should be in the range \[0, 10\), but got 20"
    ):
        nn.Embedding(10, 4)(Tensor(np.array([[1, 3], [20, 2]], np.int32)))
    table = np.arange(40, dtype=np.float32).reshape(10, 4)
    e = nn.Embedding(10, 4, embedding_table=Tensor(table))
    np.testing.assert_array_equal(e(Tensor(np.array([-1], np.int32))).asnumpy(), table[[-1]])  # as MindSpore
    lk = nn.EmbeddingLookup(10, 4, param_init=Tensor(table))
    out = lk(Tensor(np.array([20, -1, 3], np.int32))).asnumpy()
    np.testing.assert_array_equal(out, np.stack([np.zeros(4), np.zeros(4), table[3]]))  # MindSpore's CPU kernel
    dev = nn.EmbeddingLookup(10, 4, target="DEVICE", sparse=False)
    with pytest.raises(RuntimeError, match="but got 20"):
        dev(Tensor(np.array([20], np.int32)))
    with pytest.raises(RuntimeError, match="but got 12"):
        nn.EmbeddingExt(10, 4)(Tensor(np.array([12], np.int64)))


def test_embedding_lookup_max_norm_per_row():
    # each looked-up row's L2 norm clipped to max_norm (MindSpore 2.10's ClipByNorm mixes rows here)
    table = np.array([[0.1, 0.2, 0.1], [-0.03, -0.01, 0.27], [-0.09, -0.01, -0.29], [0.5, 0.5, 0.5]], np.float32)
    lk = nn.EmbeddingLookup(4, 3, param_init=Tensor(table), max_norm=0.3)
    ids = np.array([[1, 3, 3], [0, 2, 1]], np.int32)
    rows = table[ids]
    norms = np.linalg.norm(rows, axis=-1, keepdims=True)
    np.testing.assert_allclose(lk(Tensor(ids)).asnumpy(), rows * 0.3 / np.maximum(norms, 0.3), rtol=1e-5)


def test_ops_embedding_padding_freq_and_max_norm():
    rng = np.random.RandomState(0)
    table = rng.randn(6, 3).astype(np.float32)
    ids = np.array([[1, 2, 2], [5, 1, 1]], np.int32)
    w = Parameter(Tensor(table), name="w")
    np.testing.assert_array_equal(ops.embedding(Tensor(ids), w).asnumpy(), table[ids])
    (g,) = ms.grad(lambda i: ops.embedding(i, w, padding_idx=2).sum(), None, [w])(Tensor(ids))
    want = np.zeros_like(table)
    for i in ids.ravel():
        want[i] += 1
    want[2] = 0  # no gradient through the padding row
    np.testing.assert_allclose(g.asnumpy(), want)
    (g,) = ms.grad(lambda i: ops.embedding(i, w, scale_grad_by_freq=True).sum(), None, [w])(Tensor(ids))
    np.testing.assert_allclose(g.asnumpy(), (want > 0) + (want[2] == 0) * np.eye(6, dtype=np.float32)[2][:, None])
    out = ops.embedding(Tensor(ids), w, max_norm=0.5).asnumpy()
    norms = np.linalg.norm(table[ids], axis=-1, keepdims=True)
    np.testing.assert_allclose(out, table[ids] * np.where(norms > 0.5, 0.5 / (norms + 1e-7), 1), rtol=1e-5)
    renormed = w.asnumpy()  # the rows used are renormalised in the table itself
    assert np.all(np.linalg.norm(renormed[[1, 2, 5]], axis=-1) <= 0.5 + 1e-5)
    np.testing.assert_array_equal(renormed[[0, 3, 4]], table[[0, 3, 4]])
    ext = nn.EmbeddingExt(6, 3, padding_idx=-1)
    assert np.all(ext.weight.asnumpy()[5] == 0) and ext.padding_idx == -1
    assert [p.name for p in ext.get_parameters()] == ["weight"]


ERRORS = [
    (
        lambda: nn.Embedding(10.0, 4),
        TypeError,
        "For 'Embedding', the type of 'vocab_size' should be 'int', but got type 'float'.",
    ),
    (
        lambda: nn.Embedding(10, 4, padding_idx=10),
        ValueError,
        "For 'Embedding', the 'padding_idx' must be in range of [0, 10), but got 10 with type 'int'.",
    ),
    (lambda: nn.Embedding(10, 4, dtype=ms.bool_), TypeError, "For 'Embedding', the element of 'dtype' must be one of"),
    (
        lambda: nn.EmbeddingLookup(10, 4, sparse=False),
        ValueError,
        "For 'EmbeddingLookup', 'sparse' must be True when 'target' is \"CPU\", but got 'sparse': False and 'target': CPU",
    ),
    (
        lambda: nn.EmbeddingLookup(10, 4, target="GPU"),
        ValueError,
        "For 'EmbeddingLookup', the 'target' must be str and must be in '['CPU', 'DEVICE']', but got 'GPU'.",
    ),
    (lambda: nn.EmbeddingExt(10, 4, sparse=True), ValueError, "`sparse` is True, has not be supported."),
    (lambda: nn.MultiFieldEmbeddingLookup(10, 4, 2, operator="MIN"), ValueError, "'operator' must be str"),
    (
        lambda: nn.MultiFieldEmbeddingLookup(10, 4, 2)(
            Tensor(np.ones(3, np.int32)), Tensor(np.ones((1, 3), np.float32)), Tensor(np.ones((1, 3), np.int32))
        ),
        ValueError,
        "For 'MultiFieldEmbeddingLookup', the dimension of 'input_indices' must be 2d, but got 1",
    ),
]


@pytest.mark.parametrize("fn,err,msg", ERRORS)
def test_errors(fn, err, msg):
    with pytest.raises(err) as info:
        fn()
    assert msg in str(info.value)
