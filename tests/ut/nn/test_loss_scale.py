"""Loss scaling cells: DynamicLossScaleUpdateCell / FixedLossScaleUpdateCell arithmetic, and
TrainOneStepWithLossScaleCell skipping the update on overflow (inf in the input), in PyNative, under
``@jit`` and in GRAPH_MODE, against hand-computed SGD steps; the seeds of issue 3 under ``sporax run``."""

import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import sporax as ms
from sporax import Parameter, Tensor, nn, ops
from sporax.train.loss_scale_manager import FixedLossScaleManager

# ------------------------------------------------------------------ update cells


def _scale_param(v=1024.0):
    return Parameter(Tensor(v, ms.float32), name="scale_sense")


def test_dynamic_update_cell_halves_on_overflow_and_doubles_after_window():
    upd = nn.DynamicLossScaleUpdateCell(loss_scale_value=1024, scale_factor=2, scale_window=3)
    scale = _scale_param()
    seen = []
    for overflow in [False, False, True, False, False, False, False, False, False, True, True]:
        out = upd(scale, Tensor(overflow))
        assert bool(out) is overflow
        seen.append(float(scale.asnumpy()))
    # cur_iter starts at 1; the scale grows when cur_iter - last_overflow_iter reaches scale_window
    assert seen == [1024, 1024, 512, 512, 512, 1024, 1024, 1024, 2048, 1024, 512]
    assert upd.get_loss_scale() == 1024


def test_dynamic_update_cell_never_goes_below_one():
    upd = nn.DynamicLossScaleUpdateCell(loss_scale_value=2, scale_factor=4, scale_window=100)
    scale = _scale_param(2.0)
    for _ in range(3):
        upd(scale, Tensor(True))
    assert float(scale.asnumpy()) == 1.0


def test_fixed_update_cell_passes_the_flag_on():
    upd = nn.FixedLossScaleUpdateCell(loss_scale_value=128)
    scale = _scale_param(128.0)
    assert bool(upd(scale, Tensor(True))) is True
    assert float(scale.asnumpy()) == 128.0
    assert upd.get_loss_scale() == 128


# ------------------------------------------------------- TrainOneStepWithLossScaleCell
X = np.array([[1.0, 2.0]], np.float32)
Y = np.zeros((1, 1), np.float32)
X_BAD = np.array([[np.inf, 2.0]], np.float32)
LR = 0.125


def _sgd_step(w, b):
    """One SGD step of MSE(Dense(2,1)(X), Y), by hand."""
    pred = X @ w.T + b
    d = 2.0 * (pred - Y)  # d loss / d pred (mean over one element)
    return w - LR * d.T @ X, b - LR * d.sum(0)


def _train_cell(scale_sense):
    net = nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
    opt = nn.SGD(net.trainable_params(), learning_rate=LR)
    cell = nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(net, nn.MSELoss()), opt, scale_sense=scale_sense)
    return net, opt, cell


def _run(mode, cell, inputs):
    step = cell
    if mode == "graph":
        ms.set_context(mode=ms.GRAPH_MODE)
    elif mode == "jit":

        @ms.jit
        def step(x, y):
            return cell(x, y)

    return [step(Tensor(x), Tensor(Y)) for x in inputs]


@pytest.mark.parametrize("mode", ["pynative", "jit", "graph"])
def test_overflow_skips_update_halves_then_doubles_after_window(mode):
    upd = nn.DynamicLossScaleUpdateCell(loss_scale_value=2**10, scale_factor=2, scale_window=2)
    net, opt, cell = _train_cell(upd)
    inputs = [X, X_BAD, X, X, X]
    outs = _run(mode, cell, inputs)
    w, b = np.ones((1, 2), np.float32), np.zeros(1, np.float32)
    expected_w = []
    for x in inputs:
        if np.isfinite(x).all():
            w, b = _sgd_step(w, b)
        expected_w.append(w)
    conds = [bool(c.asnumpy()) for _, c, _ in outs]
    assert conds == [False, True, False, False, False]
    assert np.isinf(outs[1][0].asnumpy())
    # the returned scale is the scale_sense Parameter; read its history through the cell again
    np.testing.assert_allclose(net.weight.asnumpy(), expected_w[-1], rtol=1e-6)
    np.testing.assert_allclose(net.bias.asnumpy(), b, rtol=1e-6)
    assert float(cell.scale_sense.asnumpy()) == 2**10


@pytest.mark.parametrize("mode", ["pynative", "jit", "graph"])
def test_scale_sequence_and_untouched_state_on_overflow(mode):
    upd = nn.DynamicLossScaleUpdateCell(loss_scale_value=2**10, scale_factor=2, scale_window=2)
    net = nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
    opt = nn.Momentum(net.trainable_params(), learning_rate=LR, momentum=0.9)
    cell = nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(net, nn.MSELoss()), opt, scale_sense=upd)
    step = cell
    if mode == "graph":
        ms.set_context(mode=ms.GRAPH_MODE)
    elif mode == "jit":
        step = ms.jit(lambda x, y: cell(x, y))
    scales, weights, moments = [], [], []
    for x in [X, X_BAD, X_BAD, X, X, X, X]:
        _, cond, scale = step(Tensor(x), Tensor(Y))
        scales.append(float(scale.asnumpy()))
        weights.append(net.weight.asnumpy().copy())
        moments.append(opt.moments[0].asnumpy().copy())
    assert scales == [1024, 512, 256, 256, 512, 512, 1024]
    for i in (1, 2):  # overflow: parameters and momentum untouched
        np.testing.assert_array_equal(weights[i], weights[0])
        np.testing.assert_array_equal(moments[i], moments[0])
    assert not np.array_equal(weights[3], weights[2])


def test_modes_agree_bit_for_bit():
    results = {}
    for mode in ("pynative", "jit", "graph"):
        ms.set_context(mode=ms.PYNATIVE_MODE)
        upd = nn.DynamicLossScaleUpdateCell(loss_scale_value=2**12, scale_factor=2, scale_window=1)
        net, _, cell = _train_cell(upd)
        outs = _run(mode, cell, [X, X_BAD, X, X])
        results[mode] = (net.weight.asnumpy(), [float(o[0].asnumpy()) for o in outs], float(cell.scale_sense.asnumpy()))
    for mode in ("jit", "graph"):
        np.testing.assert_array_equal(results[mode][0], results["pynative"][0])
        assert results[mode][1:] == results["pynative"][1:]


def test_fixed_scale_skips_overflow_and_equals_plain_step():
    net, _, cell = _train_cell(nn.FixedLossScaleUpdateCell(1024))
    ref = nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
    plain = nn.TrainOneStepCell(nn.WithLossCell(ref, nn.MSELoss()), nn.SGD(ref.trainable_params(), LR))
    for x in (X, X_BAD, X):
        loss, cond, scale = cell(Tensor(x), Tensor(Y))
        assert float(scale.asnumpy()) == 1024.0
        if np.isfinite(x).all():
            plain(Tensor(x), Tensor(Y))
    np.testing.assert_array_equal(net.weight.asnumpy(), ref.weight.asnumpy())
    np.testing.assert_array_equal(net.bias.asnumpy(), ref.bias.asnumpy())


def test_tensor_scale_sense_and_set_sense_scale():
    net, _, cell = _train_cell(Tensor([1024.0], ms.float32))
    assert cell.loss_scaling_manager is None
    assert cell.scale_sense.shape == (1,)
    cell.set_sense_scale(Tensor([4.0], ms.float32))
    _, cond, scale = cell(Tensor(X_BAD), Tensor(Y))
    assert bool(cond.asnumpy()) and scale.asnumpy().tolist() == [4.0]
    np.testing.assert_array_equal(net.weight.asnumpy(), np.ones((1, 2), np.float32))
    loss, cond, _ = cell(Tensor(X), Tensor(Y))
    assert float(loss.asnumpy()) == 9.0 and not bool(cond.asnumpy())
    w, _ = _sgd_step(np.ones((1, 2), np.float32), np.zeros(1, np.float32))
    np.testing.assert_allclose(net.weight.asnumpy(), w, rtol=1e-6)
    with pytest.raises(TypeError, match="the type of 'sens' must be Tensor"):
        cell.set_sense_scale(2.0)


def test_scale_sense_errors():
    net = nn.Dense(2, 1)
    opt = nn.SGD(net.trainable_params(), LR)
    with_loss = nn.WithLossCell(net, nn.MSELoss())
    with pytest.raises(
        TypeError,
        match="For 'TrainOneStepWithLossScaleCell', the 'scale_sense' must be Cell or Tensor, but got 'scale_sense' "
        "type: <class 'sporax.train.loss_scale_manager.FixedLossScaleManager'>.",
    ):
        nn.TrainOneStepWithLossScaleCell(with_loss, opt, FixedLossScaleManager(1024))
    with pytest.raises(TypeError, match="type: <class 'int'>"):
        nn.TrainOneStepWithLossScaleCell(with_loss, opt, 1024)
    with pytest.raises(ValueError, match="the shape of 'scale_sense' must be \\(1,\\) or \\(\\), but got \\(2,\\)"):
        nn.TrainOneStepWithLossScaleCell(with_loss, opt, Tensor(np.ones(2, np.float32)))
    two_outputs = nn.TrainOneStepWithLossScaleCell(TwoOutputs(net), opt, nn.FixedLossScaleUpdateCell(2))
    with pytest.raises(TypeError, match="the network must return one Tensor \\(the loss\\), but got tuple"):
        two_outputs(Tensor(X), Tensor(Y))


class TwoOutputs(nn.Cell):
    def __init__(self, net):
        super().__init__()
        self.net = net

    def construct(self, x, y):
        out = self.net(x)
        return ((out - y) ** 2).mean(), out


def test_overflow_check_api_on_grads():
    _, _, cell = _train_cell(nn.FixedLossScaleUpdateCell(8))
    status, sens = cell.start_overflow_check(Tensor(1.0), cell.scale_sense)
    assert sens is cell.scale_sense and status.shape == (8,)
    finite = (Tensor(np.ones(3, np.float32)), Tensor(np.zeros((2, 2), np.float16)))
    assert bool(cell.get_overflow_status(status, finite).asnumpy()) is False
    bad = (Tensor(np.ones(3, np.float32)), Tensor(np.array([np.nan, 1.0], np.float16)))
    assert bool(cell.get_overflow_status(status, bad).asnumpy()) is True
    assert bool(cell.get_overflow_status(status, Tensor(np.array([-np.inf], np.float32))).asnumpy()) is True
    assert bool(cell.process_loss_scale(Tensor(True)).asnumpy()) is True


class _ClipLossScaleCell(nn.TrainOneStepWithLossScaleCell):
    """The seed-002 pattern, without Python control flow on the overflow flag."""

    _grad_scale = ops.MultitypeFuncGraph("grad_scale")

    def construct(self, x, y):
        weights = self.weights
        loss = self.network(x, y)
        scaling_sens = self.scale_sense
        status, scaling_sens = self.start_overflow_check(loss, scaling_sens)
        scaling_sens_filled = ops.ones_like(loss) * ops.cast(scaling_sens, ops.dtype(loss))
        grads = self.grad(self.network, weights)(x, y, scaling_sens_filled)
        grads = self.hyper_map(ops.partial(_unscale, scaling_sens), grads)
        grads = ops.clip_by_global_norm(grads, 1.0)
        grads = self.grad_reducer(grads)
        cond = self.get_overflow_status(status, grads)
        overflow = self.process_loss_scale(cond)
        loss = ops.depend(loss, nn.wrap.cell_wrapper.run_if(ops.logical_not(overflow), self.optimizer, grads))
        return loss, cond, scaling_sens


_unscale = ops.MultitypeFuncGraph("unscale")


@_unscale.register("Tensor", "Tensor")
def _tensor_unscale(scale, grad):
    return grad * ops.cast(ops.Reciprocal()(scale), ops.dtype(grad))


@pytest.mark.parametrize("mode", ["pynative", "graph"])
def test_subclass_with_clipping(mode):
    net = nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
    cell = _ClipLossScaleCell(
        nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), LR), nn.FixedLossScaleUpdateCell(64)
    )
    if mode == "graph":
        ms.set_context(mode=ms.GRAPH_MODE)
    cell(Tensor(X), Tensor(Y))
    g = np.array([6.0, 12.0, 6.0])  # d loss / d (w1, w2, b) at w = 1, b = 0
    g = g / np.linalg.norm(g)
    np.testing.assert_allclose(net.weight.asnumpy(), [[1 - LR * g[0], 1 - LR * g[1]]], rtol=1e-6)
    np.testing.assert_allclose(net.bias.asnumpy(), [-LR * g[2]], rtol=1e-6, atol=1e-7)


def test_run_if_validates_its_condition():
    from sporax.nn.wrap.cell_wrapper import run_if

    calls = []
    assert bool(run_if(Tensor([True]), calls.append, 1)) and calls == [1]
    assert not bool(run_if(False, calls.append, 2)) and calls == [1]
    with pytest.raises(ValueError, match="must have one element, but got shape \\(2,\\)"):
        run_if(Tensor([True, False]), calls.append, 3)


# ---------------------------------------------------------------------------- seeds
SEEDS = pathlib.Path(__file__).resolve().parents[3].parent / "shared" / "seed_examples"
_needs = pytest.mark.skipif(
    not SEEDS.is_dir() or not hasattr(ms, "FixedLossScaleManager"),
    reason="needs the shared seed examples and the top-level sporax.FixedLossScaleManager export",
)


def _run_seed(name, mode, tmp_path):
    env = dict(os.environ, PYTHONPATH=str(SEEDS) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    cmd = [sys.executable, "-m", "sporax", "run", "--mode", mode, str(SEEDS / f"{name}.py")]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=tmp_path, env=env)


@_needs
def test_seed_s002_passing_a_manager_is_a_clear_type_error(tmp_path):
    r = _run_seed("s002_grad_clip_lossscale", "pynative", tmp_path)
    assert r.returncode == 1
    assert (
        "TypeError: For 'TrainOneStepWithLossScaleCell', the 'scale_sense' must be Cell or Tensor, but got "
        "'scale_sense' type: <class 'sporax.train.loss_scale_manager.FixedLossScaleManager'>." in r.stderr
    )


@_needs
def test_seed_s002_fixed_runs_in_pynative(tmp_path):
    r = _run_seed("s002_grad_clip_lossscale_fixed", "pynative", tmp_path)
    assert r.returncode == 0, r.stderr[-3000:]
    lines = [ln for ln in r.stdout.splitlines() if ln.startswith("step ")]
    assert len(lines) == 5
    assert all("value=1024.0" in ln and "value= False" in ln for ln in lines)
    losses = [float(ln.split("loss = ")[1].split(",")[0]) for ln in lines]
    assert losses == sorted(losses, reverse=True)
