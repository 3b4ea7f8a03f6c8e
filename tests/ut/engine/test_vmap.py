"""vmap: in_axes / out_axes, nesting, Cells, CellLists (model ensembling), per-sample gradients with
vmap(grad(...)), state written inside the mapped function, MindSpore's errors; every result against NumPy
or a Python loop, in PyNative, under jit and in GRAPH_MODE. Cell.recompute gives the same gradients."""

import logging

import numpy as np
import pytest

import sporax as ms
from sporax import Parameter, Tensor, nn, ops

RNG = np.random.RandomState(0)
XS = RNG.randn(5, 3).astype(np.float32)
TS = RNG.randn(5).astype(np.float32)
V = RNG.randn(3).astype(np.float32)


def _dot(a, b):
    return (a * b).sum()


def test_in_axes_none_broadcasts_an_input():
    out = ms.vmap(_dot, in_axes=(0, None))(Tensor(XS), Tensor(V))
    loop = [float(_dot(Tensor(XS[i]), Tensor(V)).asnumpy()) for i in range(5)]
    assert out.shape == (5,)
    np.testing.assert_allclose(out.asnumpy(), loop, rtol=1e-6)


def test_in_axes_and_out_axes_move_the_mapped_dimension():
    def scale_rows(a, s):
        return a * s, a.sum()

    cols = XS.T.copy()  # (3, 5): map over axis 1
    out, sums = ms.vmap(scale_rows, in_axes=(1, 0), out_axes=(1, 0))(Tensor(cols), Tensor(TS))
    assert out.shape == (3, 5) and sums.shape == (5,)
    np.testing.assert_allclose(out.asnumpy(), cols * TS[None, :], rtol=1e-6)
    np.testing.assert_allclose(sums.asnumpy(), XS.sum(1), rtol=1e-5)


def test_nested_vmap_is_an_outer_product():
    a, b = np.arange(3, dtype=np.float32), np.arange(4, dtype=np.float32) + 1
    inner = ms.vmap(lambda x, y: x * y, in_axes=(0, None))
    outer = ms.vmap(inner, in_axes=(None, 0))
    np.testing.assert_array_equal(outer(Tensor(a), Tensor(b)).asnumpy(), np.outer(b, a))


def test_nested_structures_in_in_axes():
    out = ms.vmap(lambda d, s: d["a"] * s + d["b"], in_axes=({"a": 0, "b": None}, 0))(
        {"a": Tensor(XS), "b": Tensor(V)}, Tensor(TS)
    )
    np.testing.assert_allclose(out.asnumpy(), XS * TS[:, None] + V, rtol=1e-6)


def test_vmap_over_a_cell_equals_per_sample_calls():
    net = nn.Dense(3, 2, weight_init="normal")
    out = ms.vmap(net)(Tensor(XS))
    loop = np.stack([net(Tensor(XS[i : i + 1])).asnumpy()[0] for i in range(5)])
    np.testing.assert_allclose(out.asnumpy(), loop, rtol=1e-5, atol=1e-6)


def test_per_sample_input_gradients_equal_a_loop():
    w = Parameter(Tensor(V * 0.25), "w")  # tanh away from saturation: no cancellation in 1 - tanh**2

    def loss(a, t):
        return (ops.tanh((a * w).sum()) - t) ** 2

    per_sample = ms.vmap(ms.grad(loss, 0), in_axes=(0, 0))(Tensor(XS), Tensor(TS))
    loop = np.stack([ms.grad(loss, 0)(Tensor(XS[i]), Tensor(TS[i])).asnumpy() for i in range(5)])
    np.testing.assert_allclose(per_sample.asnumpy(), loop, rtol=1e-5, atol=1e-7)


class Regressor(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(3, 4, weight_init="normal")
        self.fc2 = nn.Dense(4, 1, weight_init="normal")

    def construct(self, a, t):
        return ((self.fc2(ops.tanh(self.fc1(a.reshape(1, -1)))) - t) ** 2).sum()


def test_per_sample_weight_gradients_of_a_cell_equal_a_loop():
    net = Regressor()
    params = net.trainable_params()
    grad_fn = ms.grad(net, None, params)
    per_sample = ms.vmap(grad_fn, in_axes=(0, 0))(Tensor(XS), Tensor(TS))
    assert [g.shape for g in per_sample] == [(5, *p.shape) for p in params]
    for i in range(5):
        one = grad_fn(Tensor(XS[i]), Tensor(TS[i]))
        for g_all, g_one in zip(per_sample, one):
            np.testing.assert_allclose(g_all.asnumpy()[i], g_one.asnumpy(), rtol=1e-5, atol=1e-7)
    # the mean of the per-sample gradients is the gradient of the mean loss
    mean_grad = ms.grad(lambda a, t: ms.vmap(net)(a, t).mean(), None, params)(Tensor(XS), Tensor(TS))
    for g_all, g_mean in zip(per_sample, mean_grad):
        np.testing.assert_allclose(g_all.asnumpy().mean(0), g_mean.asnumpy(), rtol=1e-5, atol=1e-7)


def test_vmap_under_jit_equals_eager():
    net = Regressor()
    grad_fn = ms.grad(net, None, net.trainable_params())
    per_sample = ms.vmap(grad_fn, in_axes=(0, 0))
    eager = per_sample(Tensor(XS), Tensor(TS))
    compiled = ms.jit(per_sample)(Tensor(XS), Tensor(TS))
    for e, c in zip(eager, compiled):
        np.testing.assert_allclose(c.asnumpy(), e.asnumpy(), rtol=1e-5, atol=1e-7)


def test_recompute_gives_identical_gradients():
    ms.set_seed(5)
    plain = Regressor()
    ms.set_seed(5)
    remat = Regressor()
    remat.fc1.recompute()
    a, t = Tensor(XS[0]), Tensor(TS[0])
    g_plain = ms.grad(plain, None, plain.trainable_params())(a, t)
    g_remat = ms.grad(remat, None, remat.trainable_params())(a, t)
    for p, r in zip(g_plain, g_remat):
        np.testing.assert_array_equal(p.asnumpy(), r.asnumpy())


# ------------------------------------------------------------------------------ in_axes / out_axes
def _xyz(x, y, z):
    return x + y + z


def test_mindspore_docstring_example_and_negative_axes():
    x = np.array([[1, 2], [3, 4], [5, 6]], np.float32)
    y = np.array([[-3, -2, -1], [3, 2, 1]], np.float32)
    z = np.array([0, 3], np.float32)
    want = (x + y.T + z).T  # mapped over x's rows and y's columns, the mapped axis put at 1
    for ia, oa in (((0, 1, None), 1), ([-2, -1, None], -1)):
        out = ms.vmap(_xyz, in_axes=ia, out_axes=oa)(Tensor(x), Tensor(y), Tensor(z))
        np.testing.assert_array_equal(out.asnumpy(), want)


def _pair(t, c):
    return t[0] * t[1] + c


def test_nested_axes_for_tuple_and_list_arguments():
    a, b = RNG.randn(3, 2).astype(np.float32), RNG.randn(2, 3).astype(np.float32)
    c = RNG.randn(2).astype(np.float32)
    want = a * b.T + c
    for arg in ((Tensor(a), Tensor(b)), [Tensor(a), Tensor(b)]):
        for spec in (((0, 1), None), ([0, -1], None)):
            np.testing.assert_allclose(ms.vmap(_pair, in_axes=spec)(arg, Tensor(c)).asnumpy(), want, rtol=1e-6)
    # an int for a tuple argument maps each of its tensors along that axis
    out = ms.vmap(_pair, in_axes=(0, None))((Tensor(a), Tensor(b.T.copy())), Tensor(c))
    np.testing.assert_allclose(out.asnumpy(), want, rtol=1e-6)


def _with_constants(a):
    return a, 3, 2.5, True, Tensor(1.0)


def test_python_inputs_and_constant_outputs():
    out = ms.vmap(ops.mul, in_axes=(0, None))(Tensor(XS), 2.0)
    np.testing.assert_array_equal(out.asnumpy(), XS * 2)
    a, i, f, b, t = ms.vmap(_with_constants)(Tensor(XS))
    assert (i.shape, i.dtype, f.dtype, b.dtype, t.shape) == ((5,), ms.int64, ms.float32, ms.bool_, (5,))
    np.testing.assert_array_equal(i.asnumpy(), np.full(5, 3))  # a constant is broadcast along the mapped axis
    a, i, f, b, t = ms.vmap(_with_constants, out_axes=(1, None, None, None, None))(Tensor(XS))
    assert a.shape == (3, 5) and (i, f, b) == (3, 2.5, True) and t.shape == ()  # unmapped: as returned


def _single(a):
    return a * 2


def test_a_one_element_out_axes_for_a_single_output():
    np.testing.assert_array_equal(ms.vmap(_single, out_axes=(1,))(Tensor(XS)).asnumpy(), (XS * 2).T)
    out = ms.vmap(lambda a: [a, a.sum()], out_axes=[1, 0])(Tensor(XS))
    assert isinstance(out, list) and out[0].shape == (3, 5) and out[1].shape == (5,)
    (a, b), c = ms.vmap(lambda a: ([a, a * 2], a.sum()), out_axes=([1, 0], 0))(Tensor(XS))  # nested (sporax)
    np.testing.assert_array_equal(a.asnumpy(), XS.T)
    np.testing.assert_array_equal(b.asnumpy(), XS * 2)
    np.testing.assert_allclose(c.asnumpy(), XS.sum(1), rtol=1e-6)


# ------------------------------------------------------------------------------ CellList: model ensembling
class Ensemble(nn.Cell):
    def __init__(self, members, in_axes=0, out_axes=0):
        super().__init__()
        self.members = members
        self.in_axes, self.out_axes = in_axes, out_axes

    def construct(self, x):
        return ms.vmap(self.members, self.in_axes, self.out_axes)(x)


def _denses():
    return nn.CellList([nn.Dense(4, 2, weight_init="normal", bias_init="normal") for _ in range(3)])


@pytest.mark.parametrize("mode", ["pynative", "jit", "graph"])
def test_a_cell_list_runs_each_cell_on_its_slice(mode):
    cells = _denses()
    xs = RNG.randn(3, 5, 4).astype(np.float32)  # one batch per cell
    xb = xs[0]  # one batch for all cells
    per_slice = np.stack([cells[i](Tensor(xs[i])).asnumpy() for i in range(3)])
    shared = np.stack([cells[i](Tensor(xb)).asnumpy() for i in range(3)])
    if mode == "graph":
        ms.set_context(mode=ms.GRAPH_MODE)

    def run(in_axes, out_axes, x):
        if mode == "pynative":
            return ms.vmap(cells, in_axes, out_axes)(Tensor(x))
        if mode == "jit":
            return ms.jit(lambda v: ms.vmap(cells, in_axes, out_axes)(v))(Tensor(x))
        return Ensemble(cells, in_axes, out_axes)(Tensor(x))

    np.testing.assert_allclose(run(0, 0, xs).asnumpy(), per_slice, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(run(None, 0, xb).asnumpy(), shared, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(run((None,), 1, xb).asnumpy(), shared.transpose(1, 0, 2), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(run(1, 0, xs.transpose(1, 0, 2)).asnumpy(), per_slice, rtol=1e-5, atol=1e-6)


def test_gradients_reach_each_cell_of_a_cell_list():
    cells = _denses()
    params = cells.trainable_params()
    xs = Tensor(RNG.randn(3, 5, 4).astype(np.float32))

    def loss(x):
        return (ms.vmap(cells)(x) ** 2).sum()

    grads = ms.grad(loss, None, params)(xs)
    for i, cell in enumerate(cells):
        own = ms.grad(lambda x, c=cell: (c(x) ** 2).sum(), None, cell.trainable_params())(xs[i])
        for g, o in zip(grads[2 * i : 2 * i + 2], own):
            np.testing.assert_allclose(g.asnumpy(), o.asnumpy(), rtol=1e-5, atol=1e-6)


def test_each_cell_of_a_cell_list_keeps_its_own_batchnorm_statistics():
    def members():
        ms.set_seed(3)
        cells = nn.CellList([nn.SequentialCell([nn.Dense(2, 3), nn.BatchNorm1d(3)]) for _ in range(3)])
        return cells.set_train(True)

    xs = Tensor(RNG.randn(3, 4, 2).astype(np.float32))
    mapped, looped = members(), members()
    out = ms.vmap(mapped)(xs)
    loop = np.stack([looped[i](xs[i]).asnumpy() for i in range(3)])
    np.testing.assert_allclose(out.asnumpy(), loop, rtol=1e-5, atol=1e-6)
    for m, l in zip(mapped, looped):
        assert not np.allclose(m[1].moving_mean.asnumpy(), 0)
        np.testing.assert_allclose(m[1].moving_mean.asnumpy(), l[1].moving_mean.asnumpy(), rtol=1e-5, atol=1e-7)
        np.testing.assert_allclose(m[1].moving_variance.asnumpy(), l[1].moving_variance.asnumpy(), rtol=1e-5)


class Sub(nn.Dense):
    pass


def test_cell_list_errors():
    xb = Tensor(RNG.randn(5, 4).astype(np.float32))
    with pytest.raises(
        ValueError,
        match=r"For 'vmap', .*'axis_size' .* consistent with the cell size .*axis_size: 2 and the cell size: 3",
    ):
        ms.vmap(_denses())(Tensor(RNG.randn(2, 5, 4).astype(np.float32)))
    with pytest.raises(
        RuntimeError, match=r"parameter's shape and dtype in each cell should be consistent, but got 'weight' \(2, 4\)"
    ):
        ms.vmap(nn.CellList([nn.Dense(4, 2), nn.Dense(4, 3)]), in_axes=None)(xb)
    with pytest.raises(ValueError, match="the parameter size of each cell should be consistent, but got 2 and 1"):
        ms.vmap(nn.CellList([nn.Dense(4, 2), nn.Dense(4, 2, has_bias=False)]), in_axes=None)(xb)
    with pytest.raises(RuntimeError, match="same structure, but cell 0 is ReLU and cell 1 is Tanh"):
        ms.vmap(nn.CellList([nn.ReLU(), nn.Tanh()]), in_axes=None)(xb)
    with pytest.raises(RuntimeError, match="same structure, but cell 0 is Dense and cell 1 is Sub"):
        ms.vmap(nn.CellList([nn.Dense(4, 2), Sub(4, 2)]), in_axes=None)(xb)
    with pytest.raises(RuntimeError, match="size of the 'CellList' must be greater than 1, but got 1"):
        ms.vmap(nn.CellList([nn.Dense(4, 2)]), in_axes=None)(xb)
    with pytest.raises(RuntimeError, match=r"'out_axes' cannot be a single None while 'fn' is a 'CellList'"):
        ms.vmap(_denses(), in_axes=None, out_axes=None)
    with pytest.raises(RuntimeError, match=r"'out_axes' cannot be all None while 'fn' is a 'CellList'"):
        ms.vmap(_denses(), in_axes=None, out_axes=(None,))
    out = ms.vmap(nn.CellList([nn.ReLU(), nn.ReLU()]), in_axes=None)(xb)  # no Parameters: fine
    np.testing.assert_array_equal(out.asnumpy(), np.stack([np.maximum(xb.asnumpy(), 0)] * 2))


# ------------------------------------------------------------------------------ gradients, control flow
def _sq_loss(w, x, t):
    return (ops.tanh((w * x).sum()) - t) ** 2


@pytest.mark.parametrize("mode", ["pynative", "jit", "graph"])
def test_per_sample_gradients_with_unmapped_weights_equal_a_loop(mode):
    w = Tensor(V * 0.25)
    per_sample = ms.vmap(ms.grad(_sq_loss, (0, 1)), in_axes=(None, 0, 0))
    loop = [ms.grad(_sq_loss, (0, 1))(w, Tensor(XS[i]), Tensor(TS[i])) for i in range(5)]
    if mode == "jit":
        per_sample = ms.jit(per_sample)
    elif mode == "graph":
        ms.set_context(mode=ms.GRAPH_MODE)

        class PerSample(nn.Cell):
            def construct(self, w, x, t):
                return ms.vmap(ms.grad(_sq_loss, (0, 1)), in_axes=(None, 0, 0))(w, x, t)

        per_sample = PerSample()
    gw, gx = per_sample(w, Tensor(XS), Tensor(TS))
    np.testing.assert_allclose(gw.asnumpy(), np.stack([g[0].asnumpy() for g in loop]), rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(gx.asnumpy(), np.stack([g[1].asnumpy() for g in loop]), rtol=1e-5, atol=1e-7)


def _branchy(v):
    if v.sum() > 0:
        return v * 2
    return -v


def test_tensor_control_flow_inside_the_mapped_function_is_per_element(caplog):
    with caplog.at_level(logging.INFO, logger="sporax"):
        out = ms.vmap(_branchy)(Tensor(XS))
    np.testing.assert_allclose(out.asnumpy(), np.stack([_branchy(Tensor(r)).asnumpy() for r in XS]), rtol=1e-6)
    assert not caplog.records  # compiled (the `if` rewritten), no fallback


def _needs_a_number(v):
    return v * float(v.sum())


def test_a_function_that_cannot_be_traced_runs_as_a_loop(caplog):
    with caplog.at_level(logging.WARNING, logger="sporax"):
        out = ms.vmap(_needs_a_number, in_axes=1, out_axes=1)(Tensor(XS.T.copy()))
    np.testing.assert_allclose(out.asnumpy(), (XS * XS.sum(1, keepdims=True)).T, rtol=1e-6)
    assert "vmap(_needs_a_number)" in caplog.text and "once per element of the mapped axis" in caplog.text


def test_the_vmapped_function_compiles_once():
    traces = []

    def f(a):
        traces.append(1)
        return a * 2

    for _ in range(3):
        ms.vmap(f)(Tensor(XS))
    n = len(traces)
    assert n <= 2  # the discovery pass and the compiled trace
    ms.vmap(f)(Tensor(XS))
    assert len(traces) == n


# ------------------------------------------------------------------------------ state written inside
def test_dropout_masks_are_shared_along_the_mapped_axis_and_the_random_state_advances():
    drop = nn.Dropout(p=0.5)
    drop.set_train(True)
    x = Tensor(np.ones((4, 64), np.float32))
    first, second = ms.vmap(drop)(x).asnumpy(), ms.vmap(drop)(x).asnumpy()
    assert (first == first[0]).all() and (second == second[0]).all()  # MindSpore: the same random numbers
    assert set(np.unique(first)) == {0.0, 2.0} and not (first == second).all()


def test_a_parameter_written_with_one_value_is_written_back():
    count = Parameter(Tensor(np.float32(0)), "count")

    def f(a):
        ops.assign(count, count + 1)
        return a * 2

    ms.vmap(f)(Tensor(XS))
    ms.vmap(f)(Tensor(XS))
    assert float(count.asnumpy()) == 2.0  # once per call, not per element


def test_a_parameter_written_with_a_value_per_element_is_an_error():
    bn = nn.BatchNorm1d(3)
    bn.set_train(True)
    with pytest.raises(
        ValueError, match=r"For 'vmap', 'fn' writes the Parameter 'mean' .*differs along the mapped axis"
    ):
        ms.vmap(bn)(Tensor(RNG.randn(5, 4, 3).astype(np.float32)))
    bn.set_train(False)
    out = ms.vmap(bn)(Tensor(XS[:, None, :]))
    np.testing.assert_allclose(out.asnumpy(), bn(Tensor(XS)).asnumpy()[:, None, :], rtol=1e-6)


# ------------------------------------------------------------------------------ errors (MindSpore's)
def _two_out(a):
    return a, a.sum()


def _mul(a, b):
    return a * b


@pytest.mark.parametrize(
    "make, match",
    [
        (
            lambda: ms.vmap(_xyz, in_axes=(0, 1))(Tensor(XS), Tensor(XS), Tensor(V)),
            r"when 'in_axes' is a tuple or list, its size must be equal to the number of arguments of 'fn': 3, but got size: 2",
        ),
        (
            lambda: ms.vmap(_xyz, in_axes=(None, None, None)),
            r"the 'in_axes' cannot be all None while 'fn' is not a 'CellList', but got \(None, None, None\)",
        ),
        (lambda: ms.vmap(_xyz, in_axes=None), r"the 'in_axes' cannot be a single None while 'fn' is not a 'CellList'"),
        (lambda: ms.vmap(_xyz, in_axes=(0, "a", None)), r"the axis in 'in_axes' should be None or an int, but got 'a'"),
        (
            lambda: ms.vmap(_xyz, in_axes=(0, True, None)),
            r"the axis in 'in_axes' should be None or an int, but got True",
        ),
        (
            lambda: ms.vmap(_xyz, in_axes=1.5),
            r"the 'in_axes' can only be of type int, None, tuple or list, but got 1.5",
        ),
        (
            lambda: ms.vmap(_dot, in_axes=(2, None))(Tensor(XS), Tensor(V)),
            r"the axis: 2 in 'in_axes' is out of bounds for array of dimension \[-2,2\)",
        ),
        (
            lambda: ms.vmap(_dot, in_axes=(-3, None))(Tensor(XS), Tensor(V)),
            r"the axis: -3 in 'in_axes' is out of bounds",
        ),
        (
            lambda: ms.vmap(_dot, in_axes=(0, 0))(Tensor(XS), Tensor(V)),
            r"the 'axis_size' of each argument in the scope of 'vmap' should be equal, but got 5 and 3",
        ),
        (
            lambda: ms.vmap(_mul, in_axes=(0, 0))(Tensor(XS), 2.0),
            r"an input of type float is not a Tensor, so its axis in 'in_axes' must be None, but got 0",
        ),
        (
            lambda: ms.vmap(_mul, in_axes=((0, 1), None))(Tensor(XS), Tensor(V)),
            r"the axis in 'in_axes' for argument 0 \(a Tensor\) should be None or an int, but got \(0, 1\)",
        ),
        (
            lambda: ms.vmap(_pair, in_axes=((0, 1, 0), None))((Tensor(XS), Tensor(XS)), Tensor(V)),
            r"the 'in_axes' \(0, 1, 0\) for argument 0 should have as many elements as it: 2, but got size: 3",
        ),
        (lambda: ms.vmap(_single)(), r"failed to get 'axis_size' within the scope of vmap"),
        (
            lambda: ms.vmap(_two_out, out_axes=(0, 0, 0))(Tensor(XS)),
            r"the size of 'out_axes' should be equal to the number of results of 'fn': 2, but got size: 3",
        ),
        (
            lambda: ms.vmap(_two_out, out_axes=(0, 1))(Tensor(XS)),
            r"the axis: 1 in 'out_axes' is out of bounds for array of dimension \[-1,1\)",
        ),
        (
            lambda: ms.vmap(_two_out, out_axes=(None, 0))(Tensor(XS)),
            r"it is invalid that source is not None and dst is None: output 0 of 'fn'",
        ),
        (
            lambda: ms.vmap(_two_out, out_axes=None),
            r"the 'out_axes' cannot be a single None while 'fn' is not a 'CellList'",
        ),
        (
            lambda: ms.vmap(_two_out, out_axes=(None, None)),
            r"the 'out_axes' cannot be all None while 'fn' is not a 'CellList', but got \(None, None\)",
        ),
        (
            lambda: ms.vmap(lambda a: (a, None))(Tensor(XS)),
            r"the outputs of 'fn' should consist of tensors or constants, but got None",
        ),
        (lambda: ms.vmap(3), r"'fn' must be a function, a Cell or a CellList, but got int"),
        (
            lambda: ms.vmap(_mul)(Tensor(XS), b=Tensor(V)),
            r"keyword arguments are not mapped, but 'b' holds a Tensor",
        ),
    ],
)
def test_errors_in_mindspore_form(make, match):
    with pytest.raises(RuntimeError, match="For 'vmap', " + match):
        make()
