"""Mixed precision: O0-O3 with MindSpore's meaning, float16 and bfloat16 compute with float32 master weights,
white and black lists, build_train_network's cells and defaults, errors."""

import numpy as np
import pytest

import sporax as ms
from sporax import Parameter, Tensor, amp, nn, ops
from sporax.amp._mixed_precision import WithLossCell as AmpWithLossCell
from sporax.amp._mixed_precision import _OutputTo16, _OutputTo32


def _representable(x, dtype):
    """Whether every value of the float32 array x is exactly a value of the low precision dtype."""
    low = Tensor(x).astype(dtype).astype(ms.float32).asnumpy()
    return np.array_equal(low, x)


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 4, 3, pad_mode="valid", weight_init="normal")
        self.bn = nn.BatchNorm2d(4)
        self.relu = nn.ReLU()
        self.flatten = nn.Flatten()
        self.fc = nn.Dense(4 * 6 * 6, 3, weight_init="normal")
        self.matmul = ops.MatMul()
        self.w = Parameter(Tensor(np.random.RandomState(1).randn(3, 3).astype(np.float32)), "w")

    def construct(self, x):
        x = self.relu(self.bn(self.conv(x)))
        x = self.fc(self.flatten(x))
        return ops.exp(self.matmul(x, self.w) * 0.1)


X = Tensor(np.random.RandomState(0).randn(2, 1, 8, 8).astype(np.float32))


def _record(cell, store, key):
    cell.register_forward_hook(lambda c, inputs, out: store.__setitem__(key, (inputs[0].dtype, out.dtype, out)))


@pytest.mark.parametrize("dtype", [ms.float16, ms.bfloat16])
def test_o1_white_list_cells_and_primitives(dtype):
    net = Net()
    seen = {}
    _record(net.fc, seen, "fc")
    _record(net.bn, seen, "bn")
    out_net = amp.auto_mixed_precision(net, "O1", dtype)
    assert out_net is net and net._amp_level == "O1"
    assert isinstance(net.conv, _OutputTo32) and isinstance(net.fc, _OutputTo32)
    assert isinstance(net._cells["fc"], _OutputTo32)
    out = net(X)
    assert out.dtype == ms.float32
    assert seen["fc"][:2] == (dtype, dtype)  # the Dense computes in the low precision type
    assert seen["bn"][:2] == (ms.float32, ms.float32)  # BatchNorm is not on the white list
    mm = net.matmul(Tensor(np.full((1, 3), 1.0 / 3, np.float32)), net.w)
    assert mm.dtype == ms.float32 and _representable(mm.asnumpy(), dtype)
    assert all(p.dtype == ms.float32 for p in net.get_parameters())
    # parameter names are unchanged by the wrappers
    assert sorted(p.name for p in net.trainable_params()) == [
        "bn.beta",
        "bn.gamma",
        "conv.weight",
        "fc.bias",
        "fc.weight",
        "w",
    ]


@pytest.mark.parametrize("dtype", [ms.float16, ms.bfloat16])
def test_o2_keeps_batchnorm_in_float32(dtype):
    net = Net()
    seen = {}
    _record(net.bn, seen, "bn")
    _record(net.fc, seen, "fc")
    wrapped = amp.auto_mixed_precision(net, "O2", dtype)
    assert isinstance(wrapped, _OutputTo32) and wrapped._amp_level == "O2"
    assert isinstance(net.bn, _OutputTo16)
    out = wrapped(X)
    assert out.dtype == ms.float32
    assert seen["bn"][:2] == (ms.float32, ms.float32)
    assert seen["fc"][:2] == (dtype, dtype)
    assert net.bn.moving_mean.dtype == ms.float32  # attributes reach the wrapped cell
    assert wrapped.fc is net.fc


@pytest.mark.parametrize("dtype", [ms.float16, ms.bfloat16])
def test_o3_whole_network_low_precision(dtype):
    net = Net()
    seen = {}
    _record(net.bn, seen, "bn")
    wrapped = amp.auto_mixed_precision(net, "O3", dtype)
    out = wrapped(X)
    assert out.dtype == ms.float32 and _representable(out.asnumpy(), dtype)
    assert seen["bn"][:2] == (dtype, dtype)


def test_master_weights_and_float32_gradients():
    net = Net()
    wrapped = amp.auto_mixed_precision(net, "O3", ms.bfloat16)
    before = {p.name: p.asnumpy().copy() for p in net.trainable_params()}
    grads = ms.grad(lambda x: wrapped(x).sum(), None, net.trainable_params())(X)
    assert all(g.dtype == ms.float32 for g in grads)
    assert all(p.dtype == ms.float32 for p in net.get_parameters())
    ms.nn.SGD(net.trainable_params(), 1e-3)(grads)
    changed = [p for p in net.trainable_params() if not np.array_equal(p.asnumpy(), before[p.name])]
    # a float32 update smaller than a bfloat16 ulp still lands in the master weights
    assert changed and not all(_representable(p.asnumpy(), ms.bfloat16) for p in changed)


def test_o0_and_errors():
    net = Net()
    assert amp.auto_mixed_precision(net, "O0") is net
    with pytest.raises(ValueError, match="The amp level O7 is not supported"):
        amp.auto_mixed_precision(Net(), "O7")
    with pytest.raises(
        ValueError, match="The dtype should be one of \\(mstype.float16, mstype.bfloat16\\), but got Float32."
    ):
        amp.auto_mixed_precision(Net(), "O2", dtype=ms.float32)
    with pytest.raises(TypeError, match="For amp_level 'O2', the network type should be Cell."):
        amp.auto_mixed_precision(lambda x: x, "O2")
    with pytest.raises(TypeError, match="For amp_level 'auto', the network type should be Cell or function."):
        amp.auto_mixed_precision(3, "auto")


def test_white_and_black_lists():
    white, black = amp.get_white_list(), amp.get_black_list()
    assert nn.Dense in white and nn.Conv2d in white and ops.MatMul in white and ops.ReLU in white
    assert black == [nn.BatchNorm1d, nn.BatchNorm2d, nn.BatchNorm3d, nn.LayerNorm]  # MindSpore's AMP_BLACK_LIST
    assert nn.LSTMCell in white and nn.RNNCell in white and nn.GRUCell in white
    white.append(nn.Flatten)
    assert nn.Flatten not in amp.get_white_list()


def test_custom_white_list():
    net = Net()
    seen = {}
    _record(net.fc, seen, "fc")
    _record(net.conv, seen, "conv")
    out = amp.custom_mixed_precision(net, white_list=[nn.Dense], dtype=ms.bfloat16)
    assert out is net
    net(X)
    assert seen["fc"][:2] == (ms.bfloat16, ms.bfloat16)
    assert seen["conv"][:2] == (ms.float32, ms.float32)
    assert type(net.matmul) is ops.MatMul
    dense = amp.custom_mixed_precision(nn.Dense(2, 2), white_list=[nn.Dense])
    assert isinstance(dense, _OutputTo32) and dense(Tensor(np.ones((1, 2), np.float32))).dtype == ms.float32


def test_custom_black_list():
    net = Net()
    seen = {}
    _record(net.fc, seen, "fc")
    _record(net.bn, seen, "bn")
    out = amp.custom_mixed_precision(net, black_list=[nn.Dense, nn.BatchNorm2d], dtype=ms.float16)
    assert isinstance(out, _OutputTo32)
    assert out(X).dtype == ms.float32
    assert seen["fc"][:2] == (ms.float32, ms.float32) and seen["bn"][:2] == (ms.float32, ms.float32)


def test_custom_mixed_precision_errors():
    with pytest.raises(ValueError, match="one of white_list and black_list must be provided"):
        amp.custom_mixed_precision(nn.Dense(2, 2))
    with pytest.raises(ValueError, match="cannot be provided at the same time"):
        amp.custom_mixed_precision(nn.Dense(2, 2), white_list=[], black_list=[])
    with pytest.raises(TypeError, match="The type of white_list should be list, but got <class 'tuple'>"):
        amp.custom_mixed_precision(nn.Dense(2, 2), white_list=(nn.Dense,))
    with pytest.raises(TypeError, match="The element in white_list should be a class"):
        amp.custom_mixed_precision(nn.Dense(2, 2), white_list=[nn.Dense(2, 2)])
    with pytest.raises(TypeError, match="The subclass of element in black_list should be one of 'Cell'"):
        amp.custom_mixed_precision(nn.Dense(2, 2), black_list=[ops.MatMul])
    with pytest.raises(TypeError, match="The network type should be Cell."):
        amp.custom_mixed_precision(1, black_list=[])
    with pytest.raises(ValueError, match="The dtype should be one of"):
        amp.custom_mixed_precision(nn.Dense(2, 2), black_list=[], dtype=ms.float32)
    with pytest.raises(TypeError):
        amp.custom_mixed_precision(nn.Dense(2, 2), [nn.Dense])  # keyword-only, as MindSpore


# ----------------------------------------------------------------- build_train_network
class BNNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(4, 8, weight_init="normal")
        self.bn = nn.BatchNorm1d(8)
        self.fc2 = nn.Dense(8, 2, weight_init="normal")

    def construct(self, x):
        return self.fc2(self.bn(self.fc1(x)))


def _opt(net):
    return nn.Momentum(net.trainable_params(), 0.01, 0.9)


def test_build_train_network_levels():
    net = BNNet()
    o0 = amp.build_train_network(net, _opt(net), nn.MSELoss())
    assert type(o0) is nn.TrainOneStepCell and type(o0.network) is nn.WithLossCell and o0.training

    net = BNNet()
    o2 = amp.build_train_network(net, _opt(net), nn.MSELoss(), level="O2")
    assert type(o2) is nn.TrainOneStepWithLossScaleCell
    assert isinstance(o2.loss_scaling_manager, nn.DynamicLossScaleUpdateCell)
    assert float(o2.scale_sense.asnumpy()) == 2**24
    assert int(o2.loss_scaling_manager.scale_window.asnumpy()) == 2000
    assert isinstance(o2.network, AmpWithLossCell) and isinstance(net.bn, _OutputTo16)
    assert net.fc1._mixed_dtype == ms.float16 and net.bn._backbone._mixed_dtype == ms.float32

    net = BNNet()
    o3 = amp.build_train_network(net, _opt(net), nn.MSELoss(), level="O3")
    assert type(o3) is nn.TrainOneStepCell and isinstance(o3.network, AmpWithLossCell)
    assert net.bn._mixed_dtype == ms.float16

    net = BNNet()
    o1 = amp.build_train_network(net, _opt(net), nn.MSELoss(), level="O1")
    assert type(o1) is nn.TrainOneStepCell and isinstance(net.fc1, _OutputTo32) and not isinstance(net.bn, _OutputTo16)


def test_build_train_network_kwargs_override_the_level():
    net = BNNet()
    t = amp.build_train_network(
        net, _opt(net), nn.MSELoss(), level="O2", cast_model_type=ms.bfloat16, keep_batchnorm_fp32=False,
        loss_scale_manager=None,
    )  # fmt: skip
    assert type(t) is nn.TrainOneStepCell and net.bn._mixed_dtype == ms.bfloat16
    net = BNNet()
    fixed = amp.FixedLossScaleManager(64.0, drop_overflow_update=False)
    t = amp.build_train_network(net, _opt(net), nn.MSELoss(), level="O3", loss_scale_manager=fixed)
    assert type(t) is nn.TrainOneStepCell and t.sens == 64.0
    net = BNNet()
    t = amp.build_train_network(net, _opt(net), nn.MSELoss(), loss_scale_manager=amp.FixedLossScaleManager(64.0))
    assert type(t) is nn.TrainOneStepWithLossScaleCell and isinstance(
        t.loss_scaling_manager, nn.FixedLossScaleUpdateCell
    )
    net = BNNet()
    t = amp.build_train_network(net, _opt(net), nn.MSELoss(), level="O2", cast_model_type=ms.float32)
    assert net.fc1._mixed_dtype is None and type(t) is nn.TrainOneStepWithLossScaleCell


def test_build_train_network_errors():
    net = BNNet()
    opt = _opt(net)
    with pytest.raises(TypeError, match="The type of 'optimizer' should be 'Optimizer', but got type 'str'."):
        amp.build_train_network(net, "opt")
    with pytest.raises(TypeError, match="The argument `level` must be a string in"):
        amp.build_train_network(net, opt, level=1)
    with pytest.raises(
        ValueError, match="The 'level' should be in : \\['O0', 'O1', 'O2', 'O3', 'auto'\\], but got O5."
    ):
        amp.build_train_network(net, opt, level="O5")
    with pytest.raises(ValueError, match="The 'boost_level' should be in : \\['O0', 'O1', 'O2'\\], but got O5."):
        amp.build_train_network(net, opt, boost_level="O5")
    with pytest.raises(ValueError, match="Unsupported arg 'foo'"):
        amp.build_train_network(net, opt, foo=1)
    with pytest.raises(TypeError, match="'cast_model_type' should be one of"):
        amp.build_train_network(net, opt, cast_model_type=ms.int32)
    with pytest.raises(TypeError, match="The type of 'keep_batchnorm_fp32' should be 'bool', but got type 'int'."):
        amp.build_train_network(net, opt, keep_batchnorm_fp32=1)
    with pytest.raises(TypeError, match="The type of 'loss_scale_manager' should be 'LossScaleManager'"):
        amp.build_train_network(net, opt, loss_scale_manager=1)
    with pytest.raises(TypeError, match="The type of 'loss_fn' should be 'Cell', but got type 'int'."):
        amp.build_train_network(net, opt, loss_fn=1)


@pytest.mark.parametrize("mode", ["pynative", "graph"])
def test_o2_float16_overflow_is_skipped_and_the_scale_comes_down(mode):
    """float16 gradients of a loss scaled by 2**24 overflow: the steps are skipped and the scale halves until
    the gradients are finite; then the weights move (on CPU as on GPU)."""
    if mode == "graph":
        ms.set_context(mode=ms.GRAPH_MODE)
    net = nn.Dense(4, 2, weight_init="ones", bias_init="zeros")
    t = amp.build_train_network(net, nn.SGD(net.trainable_params(), 0.01), nn.MSELoss(), level="O2")
    x = Tensor(np.ones((8, 4), np.float32))
    y = Tensor(np.zeros((8, 2), np.float32))
    history = []
    for _ in range(14):
        before = net.weight.asnumpy().copy()
        loss, overflow, scale = t(x, y)
        history.append(
            (bool(overflow.asnumpy()), float(scale.asnumpy()), not np.array_equal(before, net.weight.asnumpy()))
        )
        assert loss.dtype == ms.float32
    overflows = [h[0] for h in history]
    first_ok = overflows.index(False)
    # d loss / d weight = 4 * scale per element: finite in float16 from scale 2**13 on, 11 halvings down
    assert first_ok == 11 and not any(overflows[first_ok:])
    for i, (over, scale, moved) in enumerate(history):
        assert moved is not over
        expected = 2.0**24 / 2 ** min(i + 1, first_ok)
        assert scale == expected
    assert net.weight.dtype == ms.float32
