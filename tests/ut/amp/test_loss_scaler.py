"""amp.StaticLossScaler / DynamicLossScaler / all_finite: MindSpore 2.10's documented values, the adjust
rule step by step, errors, and a custom train step (the seed-000 pattern) with a forced overflow in PyNative,
under ``jit`` and in GRAPH_MODE."""

import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, amp, nn, ops
from sporax.nn.wrap.cell_wrapper import run_if


def test_static_scaler_documented_values():
    scaler = amp.StaticLossScaler(scale_value=2**10)
    scaled = scaler.scale(Tensor([1.0], ms.float32))
    assert scaled.dtype == ms.float32 and scaled.asnumpy().tolist() == [1024.0]
    grads = (Tensor(np.array([1.5, 1.0]), ms.float16), Tensor(np.array([1.2]), ms.float16))
    out = scaler.unscale(grads)
    assert isinstance(out, tuple) and all(o.dtype == ms.float16 for o in out)
    np.testing.assert_array_equal(out[0].asnumpy(), np.array([1.5, 1.0], np.float16) / np.float16(1024))
    np.testing.assert_array_equal(out[1].asnumpy(), np.array([1.2], np.float16) / np.float16(1024))
    assert scaler.adjust(Tensor(False)) is False
    assert float(scaler.scale_value.asnumpy()) == 1024.0
    assert isinstance(scaler.scale_value, ms.Parameter) and scaler.scale_value.name == "scale_value"
    assert isinstance(scaler, amp.LossScaler) and not isinstance(amp.DynamicLossScaler(2, 2, 1), amp.StaticLossScaler)


def test_dynamic_scaler_documented_example():
    scaler = amp.DynamicLossScaler(scale_value=2**10, scale_factor=2, scale_window=1)
    grads = (Tensor(np.array([np.nan, 1.0]), ms.float16), Tensor(np.array([0.2]), ms.float16))
    finite = amp.all_finite(scaler.unscale(grads))
    assert finite.shape == () and finite.dtype == ms.bool_ and not bool(finite)
    assert scaler.adjust(finite) is True
    assert float(scaler.scale_value.asnumpy()) == 512.0


def test_dynamic_scaler_adjust_rule():
    scaler = amp.DynamicLossScaler(scale_value=8, scale_factor=2, scale_window=3)
    seen = []
    for finite in [True, True, True, True, False, True, True, True, False, False, False, False, False]:
        scaler.adjust(Tensor(finite))
        seen.append((float(scaler.scale_value.asnumpy()), int(scaler.counter.asnumpy())))
    assert seen == [
        (8, 1), (8, 2), (16, 0), (16, 1), (8, 0), (8, 1), (8, 2), (16, 0),
        (8, 0), (4, 0), (2, 0), (1, 0), (1, 0),
    ]  # fmt: skip


def test_dynamic_scaler_keeps_scale_when_growth_overflows():
    scaler = amp.DynamicLossScaler(scale_value=3e38, scale_factor=2, scale_window=1)
    scaler.adjust(Tensor(True))
    assert float(scaler.scale_value.asnumpy()) == np.float32(3e38)


def test_scaler_errors():
    with pytest.raises(
        TypeError, match="The type of 'scale_value' should be one of '\\['float', 'int'\\]', but got type 'str'."
    ):
        amp.StaticLossScaler("a")
    with pytest.raises(ValueError, match="The argument 'scale_value' must be > 1, but got 0.5"):
        amp.StaticLossScaler(0.5)
    with pytest.raises(TypeError, match="The 'scale_factor' must be int, but got 'float'"):
        amp.DynamicLossScaler(1024, 2.5, 10)
    with pytest.raises(ValueError, match="The 'scale_window' must be int and must > 0, but got '0' with type 'int'."):
        amp.DynamicLossScaler(1024, 2, 0)
    with pytest.raises(TypeError, match="Can't instantiate abstract class"):
        amp.LossScaler()


def test_all_finite():
    assert bool(amp.all_finite([Tensor([1.0, 2.0]), Tensor([1.0])]))
    assert not bool(amp.all_finite([Tensor([1.0, np.inf]), Tensor([1.0])]))
    assert not bool(amp.all_finite((Tensor([1.0]), (Tensor(np.array([np.nan], np.float16)),))))
    assert bool(amp.all_finite(Tensor(np.ones((2, 3), np.float32))))
    assert bool(amp.all_finite(Tensor(np.array([1, 2], np.int32))))
    assert bool(amp.all_finite(()))
    out = ms.jit(amp.all_finite)((Tensor([1.0]), Tensor([np.inf])))
    assert out.shape == () and not bool(out)
    with pytest.raises(TypeError, match="the inputs must be Tensors"):
        amp.all_finite([1.0])


class MyTrainStep(nn.Cell):
    """Seed 000's MyTrainStep with a dynamic scaler; the conditional update without Python control flow."""

    def __init__(self, network, optimizer):
        super().__init__(auto_prefix=False)
        self.network = network
        self.optimizer = optimizer
        self.grad_fn = ops.GradOperation(get_by_list=True, sens_param=True)(network, optimizer.parameters)
        self.scaler = amp.DynamicLossScaler(scale_value=2**8, scale_factor=2, scale_window=2)

    def construct(self, *inputs):
        loss = self.network(*inputs)
        sens = ops.fill(loss.dtype, loss.shape, self.scaler.scale_value)
        grads = self.grad_fn(*inputs, sens)
        unscaled = self.scaler.unscale(grads)
        finite = amp.all_finite(unscaled)
        self.scaler.adjust(finite)
        run_if(finite, self.optimizer, unscaled)
        return loss, ops.logical_not(finite)


@pytest.mark.parametrize("mode", ["pynative", "jit", "graph"])
def test_custom_step_with_dynamic_scaler(mode):
    net = nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
    step = MyTrainStep(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.125))
    call = step
    if mode == "graph":
        ms.set_context(mode=ms.GRAPH_MODE)
    elif mode == "jit":
        call = ms.jit(step)
    x, y = np.array([[1.0, 2.0]], np.float32), np.zeros((1, 1), np.float32)
    bad = np.array([[np.nan, 2.0]], np.float32)
    flags, scales = [], []
    for data in (x, bad, x, x):
        _, overflow = call(Tensor(data), Tensor(y))
        flags.append(bool(overflow.asnumpy()))
        scales.append(float(step.scaler.scale_value.asnumpy()))
    assert flags == [False, True, False, False]
    assert scales == [256, 128, 128, 256]
    w, b = np.ones((1, 2), np.float32), np.zeros(1, np.float32)
    for _ in range(3):  # three finite steps of SGD on MSE: d/dw = 2 (x.w + b) x, d/db = 2 (x.w + b)
        d = 2 * (x @ w.T + b)
        w, b = w - 0.125 * d * x, b - 0.125 * d[0]
    np.testing.assert_allclose(net.weight.asnumpy(), w, rtol=1e-6)
    np.testing.assert_allclose(net.bias.asnumpy(), b, rtol=1e-6)


SEEDS = pathlib.Path(__file__).resolve().parents[3].parent / "shared" / "seed_examples"


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the shared seed examples are not beside this checkout")
def test_seed_s000_mytrainstep_scaler_fixed_runs_in_pynative(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(SEEDS) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    cmd = [sys.executable, "-m", "sporax", "run", "--mode", "pynative", str(SEEDS / "s000_mytrainstep_scaler_fixed.py")]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=tmp_path, env=env)
    assert r.returncode == 0, r.stderr[-3000:]
    lines = [ln for ln in r.stdout.splitlines() if ln.startswith("loss:")]
    assert len(lines) == 10 and all("is_overflow: False" in ln for ln in lines)
    losses = [float(ln.split()[1].rstrip(",")) for ln in lines]
    assert losses[-1] < losses[0]
