"""nn wrappers of issue 14: AdaSumByGradWrapCell / AdaSumByDeltaWeightWrapCell (the AdaSum rule against
NumPy), GetNextSingleOp (reads a Dataset.device_que queue), ParameterUpdate, OptTFTWrapper, WithGradCell."""

import numpy as np
import pytest

import sporax as ms
from sporax import Parameter, Tensor, context, nn
from sporax.nn.optim.adasum import adasum_combine, adasum_rounds


def np_adasum(a, b, scaled):
    s = (a.max() + 1e-12) if scaled else 1.0
    sa, sb = a / s, b / s
    dot = (sa * sb).sum() + 1e-12
    return (1 - dot / (2 * ((sa * sa).sum() + 1e-12))) * a + (1 - dot / (2 * ((sb * sb).sum() + 1e-12))) * b


@pytest.mark.parametrize("scaled", [False, True])
def test_adasum_rule_against_numpy(scaled):
    rng = np.random.default_rng(0)
    ups = [rng.standard_normal((3, 4)).astype(np.float32) for _ in range(8)]
    got = adasum_rounds([Tensor(u) for u in ups], [3, 4], scaled).asnumpy()
    pairs = [np_adasum(ups[i], ups[i + 1], scaled) for i in range(0, 8, 2)]
    quads = [np_adasum(pairs[0], pairs[1], scaled), np_adasum(pairs[2], pairs[3], scaled)]
    np.testing.assert_allclose(got, np_adasum(quads[0], quads[1], scaled), rtol=1e-4, atol=1e-5)
    a, b = Tensor(ups[0]), Tensor(ups[1])
    np.testing.assert_allclose(adasum_combine(a, b, scaled).asnumpy(), np_adasum(ups[0], ups[1], scaled), rtol=1e-5)


@pytest.fixture
def data_parallel_8():
    context.set_auto_parallel_context(parallel_mode="data_parallel", device_num=8)
    yield
    context.reset_auto_parallel_context()


def test_adasum_wrap_cells_one_group(data_parallel_8):
    net = nn.Dense(3, 2)
    w0 = [p.asnumpy().copy() for p in net.trainable_params()]
    grads = tuple(Tensor(np.full(p.shape, 0.5, np.float32)) for p in net.trainable_params())
    by_grad = nn.AdaSumByGradWrapCell(nn.SGD(net.trainable_params(), 0.1))
    assert by_grad.adasum.calc_times == 0  # 8 devices: one group, the gradients pass unchanged
    by_grad(grads)
    for p, w in zip(net.trainable_params(), w0):
        np.testing.assert_allclose(p.asnumpy(), w - 0.05, rtol=1e-6, atol=1e-7)
    by_delta = nn.AdaSumByDeltaWeightWrapCell(nn.SGD(net.trainable_params(), 0.1))
    out = by_delta(grads)
    for p, w in zip(out, w0):
        np.testing.assert_allclose(p.asnumpy(), w - 0.1, rtol=1e-6, atol=1e-7)
    with pytest.raises(TypeError):
        nn.AdaSumByGradWrapCell(net)


def test_adasum_wrap_cells_refuse_stand_alone():
    net = nn.Dense(3, 2)
    for cls in (nn.AdaSumByGradWrapCell, nn.AdaSumByDeltaWeightWrapCell):
        with pytest.raises(RuntimeError, match="Stand alone mode is not supported to apply adasum."):
            cls(nn.SGD(net.trainable_params(), 0.1))


def test_get_next_single_op_reads_the_device_queue():
    data = np.arange(6, dtype=np.float32).reshape(3, 2)
    ds = ms.dataset.NumpySlicesDataset({"a": data, "b": np.arange(3, dtype=np.int32)}, shuffle=False)
    queue = ds.device_que(queue_name="nn_get_next_q")
    get_next = nn.GetNextSingleOp([ms.float32, ms.int32], [(2,), ()], "nn_get_next_q")
    ms.set_context(mode=ms.GRAPH_MODE)  # each call reads the next row (GRAPH_MODE too)
    for i in range(3):
        a, b = get_next()
        np.testing.assert_array_equal(a.asnumpy(), data[i])
        assert int(b.asnumpy()) == i
    ms.set_context(mode=ms.PYNATIVE_MODE)
    assert queue.get_queue_name() == "nn_get_next_q"
    with pytest.raises(RuntimeError, match="no data queue named 'missing'"):
        nn.GetNextSingleOp([ms.float32], [(2,)], "missing")()
    bad = ms.dataset.NumpySlicesDataset({"a": data}, shuffle=False).device_que(queue_name="nn_get_next_bad")
    with pytest.raises(RuntimeError, match="types and shapes"):
        nn.GetNextSingleOp([ms.int32], [(2,)], "nn_get_next_bad")()
    assert bad is not None
    with pytest.raises(ValueError, match="length of 'types'"):
        nn.GetNextSingleOp([ms.float32], [], "q")


def test_parameter_update():
    network = nn.Dense(3, 4)
    param = network.parameters_dict()["weight"]
    update = nn.ParameterUpdate(param)
    update.phase = "update_param"
    weight = Tensor(np.arange(12).reshape((4, 3)), ms.float32)
    out = update(weight)
    np.testing.assert_array_equal(out.asnumpy(), weight.asnumpy())
    np.testing.assert_array_equal(network.weight.asnumpy(), weight.asnumpy())
    with pytest.raises(TypeError, match="'param' must be 'Parameter'"):
        nn.ParameterUpdate(weight)


def test_opt_tft_wrapper(monkeypatch):
    net = nn.Dense(3, 2)
    params = net.trainable_params()
    with pytest.raises(ValueError, match="MS_ENABLE_TFT"):
        nn.OptTFTWrapper(nn.Momentum(params, 0.1, 0.9))
    with pytest.raises(TypeError, match="must be Optimizer type"):
        nn.OptTFTWrapper(net)
    monkeypatch.setenv("MS_ENABLE_TFT", "{TTP:1,UCE:1}")
    w0 = [p.asnumpy().copy() for p in params]
    opt = nn.OptTFTWrapper(nn.Momentum(params, 0.1, 0.9))
    assert opt.parameters is opt.opt.parameters and opt.global_step is opt.opt.global_step
    grads = tuple(Tensor(np.ones(p.shape, np.float32)) for p in params)
    opt(grads)
    opt(grads)
    for p, w in zip(params, w0):  # momentum: 0.1 * 1, then 0.1 * (0.9 + 1)
        np.testing.assert_allclose(p.asnumpy(), w - 0.1 - 0.19, rtol=1e-5, atol=1e-6)
    assert int(opt.tft_g_one_flag.asnumpy()[0]) == 1


def test_with_grad_cell_against_numpy():
    net = nn.Dense(3, 2)
    x = np.random.default_rng(1).standard_normal((4, 3)).astype(np.float32)
    y = np.random.default_rng(2).standard_normal((4, 2)).astype(np.float32)
    w, b = net.weight.asnumpy(), net.bias.asnumpy()
    d = 2 * (x @ w.T + b - y) / y.size
    grads = nn.WithGradCell(net, nn.MSELoss())(Tensor(x), Tensor(y))
    np.testing.assert_allclose(grads[0].asnumpy(), d.T @ x, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(grads[1].asnumpy(), d.sum(0), rtol=1e-5, atol=1e-6)
    sens = Tensor(np.ones((4, 2), np.float32))
    g2 = nn.WithGradCell(net, None, sens)(Tensor(x))  # no loss: the network's output with cotangent sens
    np.testing.assert_allclose(g2[0].asnumpy(), np.ones((4, 2)).T @ x, rtol=1e-5, atol=1e-6)
    with pytest.raises(TypeError):
        nn.WithGradCell(Parameter(Tensor(1.0), name="p"))
