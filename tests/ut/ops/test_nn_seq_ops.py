"""Small ops against MindSpore 2.10 reference values (tools/make_nn_seq_reference.py): intopk/InTopK,
check_valid/CheckValid, pdist/Pdist, NthElement, NuclearNorm, DataFormatDimMap/VecPermute, SeLU, Dense, msort,
fliplr/flipud, bias_add, logsumexp(dim, keepdim), MaskedSelect; plus is_floating_point, clamp_, the Tensor
methods, TensorToTuple and the primitive instances reshape_/shape_/isconstant/mixed_precision_cast."""

from pathlib import Path

import numpy as np
import pytest

import sporax as ms
import sporax.ops.functional as F
from sporax import Parameter, Tensor, ops

DATA = np.load(Path(__file__).resolve().parents[1] / "nn" / "fixtures" / "nn_seq_reference.npz")

CASES = [
    ("O.intopk", lambda a, b: ops.intopk(a, b, 2)),
    ("O.check_valid", lambda a, b: ops.check_valid(a, b)),
    ("O.check_valid_ratio", lambda a, b: ops.CheckValid()(a, b)),
    ("O.pdist", lambda a: ops.pdist(a, 2.0)),
    ("O.pdist_p1", lambda a: ops.Pdist(1.0)(a)),
    ("O.nth_element", lambda a: ops.NthElement()(a, 2)),
    ("O.nth_element_rev", lambda a: ops.NthElement(reverse=True)(a, 0)),
    ("O.nuclear_norm", lambda a: ops.NuclearNorm(dim=[0, 2], keepdim=True)(a)),
    ("O.nuclear_norm_default", lambda a: ops.NuclearNorm()(a)),
    ("O.dim_map", lambda a: ops.DataFormatDimMap()(a)),
    ("O.vec_permute", lambda a: ops.DataFormatVecPermute("NCHW", "NHWC")(a)),
    ("O.selu", lambda a: ops.SeLU()(a)),
    ("O.dense", lambda a, w, b: ops.Dense()(a, w, b)),
    ("O.msort", lambda a: ops.msort(a)),
    ("O.fliplr", lambda a: ops.fliplr(a)),
    ("O.flipud", lambda a: ops.flipud(a)),
    ("O.bias_add", lambda a, b: ops.bias_add(a, b)),
    ("O.logsumexp", lambda a: ops.logsumexp(a, dim=1, keepdim=True)),
    ("O.masked_select", lambda a, m: ops.MaskedSelect()(a, m)),
]


@pytest.mark.parametrize("name,fn", CASES, ids=[c[0] for c in CASES])
def test_against_mindspore(name, fn):
    n_in = sum(1 for k in DATA.files if k.startswith(f"{name}/in."))
    args = [Tensor(DATA[f"{name}/in.{i}"]) for i in range(n_in)]
    out = fn(*args)
    want = DATA[f"{name}/out.0"]
    assert out.shape == want.shape and out.asnumpy().dtype == want.dtype
    np.testing.assert_allclose(out.asnumpy(), want, rtol=1e-5, atol=1e-5)
    if f"{name}/grad/in.0" in DATA.files:
        probe = Tensor(DATA[f"{name}/probe/out.0"])
        g = ms.grad(lambda *xs: (fn(*xs) * probe).sum(), grad_position=0)(*args)
        np.testing.assert_allclose(g.asnumpy(), DATA[f"{name}/grad/in.0"], rtol=1e-4, atol=1e-5)


def test_selu_gradient_analytic():
    x = np.array([-1.5, -0.2, 0.3, 2.0], np.float32)
    g = ms.grad(lambda t: ops.SeLU()(t).sum())(Tensor(x)).asnumpy()
    scale, alpha = 1.0507009873554805, 1.6732632423543772
    np.testing.assert_allclose(g, np.where(x > 0, scale, scale * alpha * np.exp(x)), rtol=1e-5)


def test_inplace_predicates_methods_and_instances():
    x = Tensor(np.array([[3.0, -1.0], [2.0, 5.0]], np.float32))
    assert ops.is_floating_point(x) and not ops.is_floating_point(Tensor(np.array([1], np.int32)))
    np.testing.assert_array_equal(x.msort().asnumpy(), [[2.0, -1.0], [3.0, 5.0]])
    np.testing.assert_array_equal(x.fliplr().asnumpy(), [[-1.0, 3.0], [5.0, 2.0]])
    np.testing.assert_array_equal(x.flipud().asnumpy(), [[2.0, 5.0], [3.0, -1.0]])
    y = x.copy()
    assert y.clamp_(0, 4) is y
    np.testing.assert_array_equal(y.asnumpy(), [[3.0, 0.0], [2.0, 4.0]])
    p = Parameter(Tensor(np.array([3.0, -1.0], np.float32)), name="p")
    ops.clamp_(p, max=1.0)
    np.testing.assert_array_equal(p.asnumpy(), [1.0, -1.0])
    assert ops.TensorToTuple()(Tensor(np.array([1, 2], np.int32))) == (1, 2)
    assert ops.reshape_(x, (4,)).shape == (4,) and ops.shape_(x) == (2, 2)
    assert ops.function.reshape_ is ops.reshape_ and F.shape_ is ops.shape_
    assert not ops.isconstant(x) and ops.isconstant(3)
    half = ops.mixed_precision_cast(ms.float16, (x, [x], 1))
    assert half[0].dtype == ms.float16 and half[1][0].dtype == ms.float16 and half[2] == 1
    assert F.mixed_precision_cast(ms.float16, x).dtype == ms.float16
    out, rstd = ops.RmsNorm(1e-5)(x, Tensor(np.ones(2, np.float32)))
    np.testing.assert_allclose(rstd.asnumpy()[:, 0], 1 / np.sqrt((x.asnumpy() ** 2).mean(-1) + 1e-5), rtol=1e-5)


ERRORS = [
    (
        lambda: ops.pdist(Tensor(np.ones((1, 2, 3), np.float32))),
        ValueError,
        "For primitive[Pdist], the x dim must be equal to 2, but got 3.",
    ),
    (
        lambda: ops.NuclearNorm()(Tensor(np.ones((1, 2, 3), np.float32))),
        ValueError,
        "For 'NuclearNorm', when dim is not set, or dim is None, the input_size must be equal to 2, but got 3.",
    ),
    (lambda: ops.fliplr(Tensor(np.ones(3, np.float32))), ValueError, "the dimension of 'input' must be >= 2"),
    (lambda: ops.DataFormatDimMap("NHWC", "NDHWC"), ValueError, "'dst_format' must be str and must be in"),
    (
        lambda: ops.intopk(Tensor(np.ones((2, 3), np.int32)), Tensor(np.ones(2, np.int32)), 1),
        TypeError,
        "For 'InTopK', the 'x1' should be one of",
    ),
    (
        lambda: ops.bias_add(Tensor(np.ones((2, 3), np.float32)), Tensor(np.ones(2, np.float32))),
        ValueError,
        "For 'BiasAdd', the 'bias' shape[0] must be equal to the channel number of 'input_x'",
    ),
]


@pytest.mark.parametrize("fn,err,msg", ERRORS)
def test_errors(fn, err, msg):
    with pytest.raises(err) as info:
        fn()
    assert msg in str(info.value)
