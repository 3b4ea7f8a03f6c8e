"""MultitypeFuncGraph dispatch, HyperMap / Map over nested sequences, partial / Partial: MindSpore 2.10's
behaviour (checked on its CPU build), in PyNative and inside compiled functions."""

import numpy as np
import pytest

import sporax as ms
from sporax import Parameter, Tensor, nn, ops
from sporax.ops import functional as F


def _kinds():
    f = ops.MultitypeFuncGraph("f")

    @f.register("Number")
    def _n(x):
        return ("Number", x)

    @f.register("Tensor")
    def _t(x):
        return ("Tensor", x.dtype)

    @f.register("Tuple")
    def _tu(x):
        return ("Tuple", len(x))

    @f.register("List")
    def _l(x):
        return ("List", len(x))

    @f.register("String")
    def _s(x):
        return ("String", x)

    @f.register("None")
    def _no(x):
        return ("None",)

    @f.register("Function")
    def _fn(x):
        return ("Function",)

    return f


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (1, ("Number", 1)),
        (2.0, ("Number", 2.0)),
        (True, ("Number", True)),
        ((1, 2), ("Tuple", 2)),
        ([1], ("List", 1)),
        ("s", ("String", "s")),
        (None, ("None",)),
    ],
)
def test_dispatch_on_python_types(value, expected):
    assert _kinds()(value) == expected


def test_dispatch_tensor_parameter_and_cells():
    f = _kinds()
    assert f(Tensor(1.0)) == ("Tensor", ms.float32)
    assert f(Parameter(Tensor(np.int32(2)), "p")) == ("Tensor", ms.int32)
    assert f(nn.ReLU()) == ("Function",)
    assert f(lambda x: x) == ("Function",)


def test_dispatch_scalar_and_tensor_dtypes():
    g = ops.MultitypeFuncGraph("g")
    g.register("Bool")(lambda x: "Bool")
    g.register("Int")(lambda x: "Int")
    g.register("Float")(lambda x: "Float")
    g.register("Tensor[Float32]")(lambda x: "Tensor[Float32]")
    g.register("Tensor[Int32]")(lambda x: "Tensor[Int32]")
    assert [g(v) for v in (True, 1, 1.5)] == ["Bool", "Int", "Float"]
    assert g(Tensor(1.0)) == "Tensor[Float32]"
    assert g(Tensor(np.int32(1))) == "Tensor[Int32]"
    with pytest.raises(ValueError, match=r"cannot find fn match given args.*Tensor\[Int64\]"):
        g(Tensor(1))
    with pytest.raises(ValueError, match="Float16"):
        g(Tensor(np.float16(1)))


def test_first_registered_match_wins_and_arity_counts():
    h = ops.MultitypeFuncGraph("h")
    h.register("Number", "Number")(lambda x, y: "nn")
    h.register("Int", "Int")(lambda x, y: "ii")
    h.register("Tensor")(lambda x: "t")
    assert h(1, 2) == "nn"
    assert h(Tensor(1.0)) == "t"
    with pytest.raises(ValueError, match="registered: \\(Number, Number\\), \\(Int, Int\\), \\(Tensor\\)"):
        h(Tensor(1.0), Tensor(2.0))


def test_single_entry_takes_any_arguments_as_mindspore_pynative():
    sq = ops.MultitypeFuncGraph("sq")

    @sq.register("Tensor", "Tensor")
    def _add(a, b):
        return a + b

    assert sq(1, 2) == 3


def test_register_errors_and_numpy_inputs():
    g = ops.MultitypeFuncGraph("g")
    with pytest.raises(TypeError, match="register only supports str or mindspore.dtype, but got 'type_input': 1"):
        g.register(1)
    with pytest.raises(RuntimeError, match="Unsupported type name: Foo!"):
        g.register("Foo")
    with pytest.raises(RuntimeError, match="Unsupported type name: Tensor\\[Foo\\]!"):
        g.register("Tensor[Foo]")
    g.register(ms.float32)(lambda x: "np f32")
    g.register("Int64")(lambda x: "int64")
    assert g(np.float32(1.0)) == "np f32"
    assert g(3) == "int64"
    with pytest.raises(TypeError, match="the input can not be numpy.ndarray"):
        g(np.ones(2))
    with pytest.raises(TypeError, match="'name' must be a str"):
        ops.MultitypeFuncGraph(3)


def test_register_returns_the_function():
    g = ops.MultitypeFuncGraph("g")

    def impl(x):
        return x * 2

    assert g.register("Number")(impl) is impl
    assert repr(g) == "MultitypeFuncGraph<g>"


def _square():
    square = ops.MultitypeFuncGraph("square")

    @square.register("Tensor")
    def _t(x):
        return ops.square(x)

    @square.register("Number")
    def _n(x):
        return x * x

    return square


def test_hypermap_over_nested_sequences():
    nest = ((Tensor(1.0), Tensor(2.0)), [Tensor(3.0), 4])
    out = ops.HyperMap()(_square(), nest)
    assert isinstance(out, tuple) and isinstance(out[1], tuple)
    assert [float(out[0][0]), float(out[0][1]), float(out[1][0])] == [1.0, 4.0, 9.0]
    assert out[1][1] == 16
    same = ops.HyperMap(_square())(nest)
    assert float(same[1][0]) == 9.0


def test_hypermap_with_partial_and_several_sequences():
    add3 = ops.MultitypeFuncGraph("add3")

    @add3.register("Tensor", "Tensor", "Tensor")
    def _add(s, a, b):
        return s * (a + b)

    out = ops.HyperMap()(ops.partial(add3, Tensor(2.0)), (Tensor(1.0), Tensor(2.0)), (Tensor(3.0), Tensor(4.0)))
    assert [float(o) for o in out] == [8.0, 12.0]
    out = ops.HyperMap()(F.partial(add3, Tensor(2.0)), (Tensor(1.0),), (Tensor(3.0),))
    assert float(out[0]) == 8.0


def test_hypermap_reverse_applies_last_first_and_keeps_order():
    calls = []

    def f(x):
        calls.append(x)
        return x + 1

    assert ops.HyperMap(f, reverse=True)((1, 2, 3)) == (2, 3, 4)
    assert calls == [3, 2, 1]


def test_hypermap_leaf_and_errors():
    assert float(ops.HyperMap()(_square(), Tensor(3.0))) == 9.0
    with pytest.raises(ValueError, match="same length, but got lengths \\[2, 1\\]"):
        ops.HyperMap()(ops.add, (Tensor(1.0), Tensor(2.0)), (Tensor(1.0),))
    with pytest.raises(TypeError, match="same structure"):
        ops.HyperMap()(ops.add, (Tensor(1.0), Tensor(2.0)), Tensor(1.0))
    with pytest.raises(TypeError, match="same structure"):
        ops.HyperMap()(ops.add, Tensor(1.0), (Tensor(1.0),))
    with pytest.raises(TypeError, match="must be a MultitypeFuncGraph or callable"):
        ops.HyperMap(3)
    with pytest.raises(TypeError, match="got no input"):
        ops.HyperMap()()
    with pytest.raises(TypeError, match="'reverse' must be a bool"):
        ops.HyperMap(None, 1)


def test_map_one_level():
    assert ops.Map()(lambda x: x * 2, [1, 2]) == (2, 4)
    assert ops.Map(lambda x, y: x + y)((1, 2), (10, 20)) == (11, 22)
    out = ops.Map()(_square(), (Tensor(1.0), Tensor(2.0), Tensor(3.0)))
    assert [float(o) for o in out] == [1.0, 4.0, 9.0]
    with pytest.raises(TypeError, match="must be tuples or lists"):
        ops.Map()(_square(), Tensor(1.0))
    with pytest.raises(ValueError, match="same length"):
        ops.Map()(ops.add, (1, 2), (1,))


def test_partial_and_partial_primitive():
    sq = ops.MultitypeFuncGraph("sq")
    sq.register("Tensor", "Tensor")(lambda a, b: a + b)
    assert float(ops.partial(sq, Tensor(1.0))(Tensor(3.0))) == 4.0
    assert float(ops.Partial()(sq, Tensor(1.0))(Tensor(3.0))) == 4.0
    with pytest.raises(TypeError, match="'func' must be callable"):
        ops.partial(3, 1)


def test_grad_scale_pattern_compiles_and_matches_pynative():
    """The loss-scale cell's pattern: HyperMap(partial(MultitypeFuncGraph, scale), grads) under jit."""
    grad_scale = ops.MultitypeFuncGraph("grad_scale")

    @grad_scale.register("Tensor", "Tensor")
    def _scale(scale, grad):
        return grad * ops.cast(ops.Reciprocal()(scale), ops.dtype(grad))

    hyper_map = ops.HyperMap()
    grads = (Tensor(np.array([2.0, 4.0], np.float32)), Tensor(np.array([8.0], np.float16)))
    scale = Tensor(4.0)

    def unscale(s, g):
        return hyper_map(ops.partial(grad_scale, s), g)

    eager = unscale(scale, grads)
    compiled = ms.jit(unscale)(scale, grads)
    for e, c, want in zip(eager, compiled, ([0.5, 1.0], [2.0])):
        assert e.dtype == c.dtype
        np.testing.assert_array_equal(e.asnumpy(), want)
        np.testing.assert_array_equal(c.asnumpy(), want)
    assert compiled[1].dtype == ms.float16


def test_exported_names():
    for name in ("MultitypeFuncGraph", "HyperMap", "Map", "partial", "Partial", "depend"):
        assert hasattr(ops, name), name
    assert ops.composite.MultitypeFuncGraph is ops.MultitypeFuncGraph
    assert hasattr(F, "depend") and hasattr(F, "partial")


def test_mixed_precision_cast():
    x = (Tensor(np.ones(2, np.float32)), [Tensor(np.ones(1, np.int32)), {"a": Tensor(np.ones(1, np.float16))}], 3.0)
    out = F.mixed_precision_cast(ms.bfloat16, x)
    assert isinstance(out, tuple) and isinstance(out[1], list) and isinstance(out[1][1], dict)
    assert out[0].dtype == ms.bfloat16 and out[1][0].dtype == ms.int32 and out[1][1]["a"].dtype == ms.bfloat16
    assert out[2] == 3.0
    assert F.mixed_precision_cast(ms.float32, Tensor(np.ones(1, np.float16))).dtype == ms.float32
