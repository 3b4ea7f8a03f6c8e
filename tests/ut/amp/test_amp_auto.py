"""``amp_level="auto"``: per-operator mixed precision, as MindSpore's ``AmpLevel.AmpAuto`` strategy.

The expected dtypes were checked against real MindSpore 2.10 (CPU build, PyNative and GRAPH_MODE) with
``amp.auto_mixed_precision(cell, "auto", ms.float16)`` around small cells (float32 inputs ``x``, float16
``h``); MindSpore printed:

- nn.Dense with a bias: Float32 (MatMul in float16, then BiasAdd promotes with the float32 bias); without
  a bias: Float16. nn.Conv2d alike (Float32 / Float16). ops.matmul, ops.mm, ops.bmm, ``x @ y``, MatMul and
  BatchMatMul primitives, ops.inner, ops.mv, ops.prelu, ops.conv2d: Float16, also from float64 inputs.
  ops.addmm / ops.addmv / ops.baddbmm with a float32 ``input``: Float32.
- black list, from float16 inputs: ops.exp, ops.log, ops.log1p, ops.log2, ops.expm1, ops.pow and ``**``,
  ops.reciprocal, ops.rsqrt, ops.sinh, ops.cosh, ops.tan, ops.asin, ops.acos, ops.erfinv, ops.softplus,
  ops.softmax, ops.log_softmax, ops.logsumexp, ops.sum, Tensor.sum, ops.prod, ops.cumsum, ops.cumprod,
  ops.var, ops.cdist, nn.LayerNorm, nn.BatchNorm2d, nn.CrossEntropyLoss, ops.nll_loss, ops.kl_div,
  ops.smooth_l1_loss, ops.binary_cross_entropy_with_logits: Float32 (ops.exp of float64: Float32 too).
- neither (the input's type): ops.relu, ops.sigmoid, ops.tanh, ops.sin, ops.cos, ops.atan, ops.sqrt,
  ops.square, ops.erf, ops.mean, ops.amax, ops.std, ops.norm, ops.ReduceSum(), ops.mse_loss, ops.l1_loss,
  nn.MSELoss, ``h * 2.0``, ops.stack: Float16; float16 + float32 and ops.concat / ops.bias_add of float16
  and float32 (the promote list): Float32. Integer matmul stays Int32.
- a sub-cell set with ``to_float(float32)``: MatMul Float32; with ``to_float(float16)``: Exp Float16 in
  PyNative (MindSpore's documented rule, "the accuracy specified by to_float takes effect first"; its
  GRAPH_MODE gave Float32 there; sporax follows the documented rule in both modes).
- parameters stay Float32 and so do their gradients; ``build_train_network(level="auto")`` gives a
  TrainOneStepCell over the amp WithLossCell, the backbone's ``_amp_level`` is "auto" and its
  ``amp_strategy`` reports ``AmpLevel.AmpAuto`` and Float16; a plain function is accepted and wrapped.
- errors: ``auto_mixed_precision(123, "auto")`` -> TypeError "For amp_level 'auto', the network type should
  be Cell or function."; dtype float32 -> ValueError "The dtype should be one of (mstype.float16,
  mstype.bfloat16), but got Float32.".

Differences kept on purpose: ``ops.dense(x, w, b)`` with a bias gives Float32 (MindSpore's Dense
primitive: Float16), because nn.Dense is built on it here and must give MindSpore's nn.Dense result;
nn.SoftmaxCrossEntropyWithLogits gives Float32 (MindSpore: Float16), as sporax builds it on cross_entropy.
bfloat16 is checked for the same ops (MindSpore's CPU build has no bfloat16 MatMul or Conv kernels).
"""

import numpy as np
import pytest

import sporax as ms
from sporax import Parameter, Tensor, amp, nn, ops
from sporax._engine import state
from sporax.amp._auto import AmpLevel
from sporax.amp._mixed_precision import WithLossCell as AmpWithLossCell

F16, F32 = ms.float16, ms.float32
RS = np.random.RandomState(0)
X = Tensor(RS.rand(2, 4).astype(np.float32))
H = Tensor(RS.rand(2, 8).astype(np.float16))
IMG = Tensor(RS.rand(2, 1, 5, 5).astype(np.float32))
LAB = Tensor(np.array([1, 2]), ms.int32)


class Run(nn.Cell):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def construct(self):
        return self.fn()


def _auto_dtype(fn, dtype=F16):
    out = amp.auto_mixed_precision(Run(fn), "auto", dtype)()
    return (out[0] if isinstance(out, tuple) else out).dtype


LOW = "low"  # the amp dtype

# (name, op, expected): the MindSpore 2.10 results listed in the module docstring
CASES = [
    ("Dense no bias", lambda: nn.Dense(4, 8, has_bias=False)(X), LOW),
    ("Dense bias", lambda: nn.Dense(4, 8)(X), F32),
    ("Conv2d no bias", lambda: nn.Conv2d(1, 2, 3, pad_mode="valid")(IMG), LOW),
    ("Conv2d bias", lambda: nn.Conv2d(1, 2, 3, pad_mode="valid", has_bias=True)(IMG), F32),
    ("Conv1d", lambda: nn.Conv1d(1, 2, 3)(IMG[:, :, 0]), LOW),
    ("ops.conv2d", lambda: ops.conv2d(IMG, Tensor(np.ones((2, 1, 3, 3), np.float32))), LOW),
    ("Conv2D prim", lambda: ops.Conv2D(2, 3)(IMG, Tensor(np.ones((2, 1, 3, 3), np.float32))), LOW),
    ("matmul", lambda: ops.matmul(X, X.T), LOW),
    ("matmul mixed", lambda: ops.matmul(H, Tensor(np.ones((8, 3), np.float32))), LOW),
    ("matmul float64", lambda: ops.matmul(Tensor(np.ones((2, 2))), Tensor(np.ones((2, 2)))), LOW),
    (
        "matmul int32",
        lambda: ops.matmul(Tensor(np.ones((2, 2), np.int32)), Tensor(np.ones((2, 2), np.int32))),
        ms.int32,
    ),
    ("mm", lambda: ops.mm(X, X.T), LOW),
    ("bmm", lambda: ops.bmm(X[None], X.T[None]), LOW),
    ("Tensor @", lambda: X @ X.T, LOW),
    ("MatMul prim", lambda: ops.MatMul()(X, X.T), LOW),
    ("BatchMatMul prim", lambda: ops.BatchMatMul()(X[None], X.T[None]), LOW),
    ("inner", lambda: ops.inner(X, X), LOW),
    ("mv", lambda: ops.mv(X, Tensor(np.ones(4, np.float32))), LOW),
    ("addmm", lambda: ops.addmm(Tensor(np.ones((2, 2), np.float32)), X, X.T), F32),
    ("baddbmm", lambda: ops.baddbmm(Tensor(np.ones((1, 2, 2), np.float32)), X[None], X.T[None]), F32),
    ("prelu", lambda: ops.prelu(X, Tensor(np.ones(4, np.float32))), LOW),
    ("nn.PReLU", lambda: nn.PReLU(4)(X), LOW),
    ("ops.dense no bias", lambda: ops.dense(X, X), LOW),
    ("einsum", lambda: ops.einsum("ij,kj->ik", X, X), LOW),
    ("exp", lambda: ops.exp(H), F32),
    ("exp float64", lambda: ops.exp(Tensor(np.ones((2, 2)))), F32),
    ("Tensor.exp", lambda: H.exp(), F32),
    ("Exp prim", lambda: ops.Exp()(H), F32),
    ("log", lambda: ops.log(H), F32),
    ("log1p", lambda: ops.log1p(H), F32),
    ("log2", lambda: ops.log2(H), F32),
    ("expm1", lambda: ops.expm1(H), F32),
    ("pow", lambda: ops.pow(H, 2), F32),
    ("**", lambda: H**2, F32),
    ("reciprocal", lambda: ops.reciprocal(H), F32),
    ("rsqrt", lambda: ops.rsqrt(H), F32),
    ("sinh", lambda: ops.sinh(H), F32),
    ("cosh", lambda: ops.cosh(H), F32),
    ("tan", lambda: ops.tan(H), F32),
    ("asin", lambda: ops.asin(H * 0), F32),
    ("erfinv", lambda: ops.erfinv(H * 0), F32),
    ("softplus", lambda: ops.softplus(H), F32),
    ("softmax", lambda: ops.softmax(H), F32),
    ("nn.Softmax", lambda: nn.Softmax()(H), F32),
    ("Softmax prim", lambda: ops.Softmax()(H), F32),
    ("log_softmax", lambda: ops.log_softmax(H), F32),
    ("logsumexp", lambda: ops.logsumexp(H, 1), F32),
    ("ops.sum", lambda: ops.sum(H), F32),
    ("Tensor.sum", lambda: H.sum(), F32),
    ("ReduceSum prim", lambda: ops.ReduceSum()(H), F16),
    ("prod", lambda: ops.prod(H, 1), F32),
    ("ReduceProd prim", lambda: ops.ReduceProd()(H), F32),
    ("cumsum", lambda: ops.cumsum(H, 1), F32),
    ("CumSum prim", lambda: ops.CumSum()(H, 1), F32),
    ("cumprod", lambda: ops.cumprod(H, 1), F32),
    ("var", lambda: ops.var(H), F32),
    ("cdist", lambda: ops.cdist(X, X), F32),
    ("nn.LayerNorm", lambda: nn.LayerNorm((8,))(H), F32),
    ("layer_norm", lambda: ops.layer_norm(H, (8,)), F32),
    ("nn.BatchNorm2d", lambda: nn.BatchNorm2d(2)(Tensor(RS.rand(2, 2, 3, 3).astype(np.float16))), F32),
    ("nn.CrossEntropyLoss", lambda: nn.CrossEntropyLoss()(H, LAB), F32),
    ("nll_loss", lambda: ops.nll_loss(H, LAB), F32),
    ("kl_div", lambda: ops.kl_div(H, H), F32),
    ("smooth_l1_loss", lambda: ops.smooth_l1_loss(H, H), F32),
    ("bce_with_logits", lambda: ops.binary_cross_entropy_with_logits(H, H, H, H), F32),
    ("relu", lambda: ops.relu(H), F16),
    ("sigmoid", lambda: ops.sigmoid(H), F16),
    ("tanh", lambda: ops.tanh(H), F16),
    ("sin", lambda: ops.sin(H), F16),
    ("sqrt", lambda: ops.sqrt(H), F16),
    ("square", lambda: ops.square(H), F16),
    ("mean", lambda: ops.mean(H), F16),
    ("std", lambda: ops.std(H), F16),
    ("norm", lambda: ops.norm(H), F16),
    ("amax", lambda: ops.amax(H), F16),
    ("mse_loss", lambda: ops.mse_loss(H, H), F16),
    ("nn.MSELoss", lambda: nn.MSELoss()(H, H), F16),
    ("l1_loss", lambda: ops.l1_loss(H, H), F16),
    ("mul scalar", lambda: H * 2.0, F16),
    ("stack", lambda: ops.stack((H, H)), F16),
    ("add mixed", lambda: H + X.sum(1, keepdims=True), F32),
    ("concat mixed", lambda: ops.concat((H, X), 1), F32),
    ("bias_add mixed", lambda: ops.bias_add(H, Tensor(np.ones(8, np.float32))), F32),
    ("addn mixed", lambda: ops.addn([H[0, :3], X[0, :3]]), F32),
]


@pytest.mark.parametrize("dtype", [F16, ms.bfloat16])
@pytest.mark.parametrize("name, fn, want", CASES, ids=[c[0] for c in CASES])
def test_operator_lists_match_mindspore(name, fn, want, dtype):
    expected = dtype if want == LOW else want  # F16: float16 inputs keep their type, whatever the amp dtype
    assert _auto_dtype(fn, dtype) == expected


def test_operators_unchanged_without_amp():
    assert ops.matmul(X, X.T).dtype == F32
    assert ops.exp(H).dtype == F16
    assert nn.Dense(4, 8, has_bias=False)(X).dtype == F32
    with pytest.raises(TypeError, match="For 'Dense', the dtype of 'x' must be the same as the dtype of 'weight'"):
        nn.Dense(8, 2)(H)
    with pytest.raises(TypeError, match="For 'MatMul', the dtypes of the inputs must be the same"):
        ops.matmul(H, Tensor(np.ones((8, 3), np.float32)))


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.d1 = nn.Dense(4, 8)
        self.d_nb = nn.Dense(4, 8, has_bias=False)
        self.conv_nb = nn.Conv2d(1, 2, 3, pad_mode="valid")
        self.bn = nn.BatchNorm2d(2)
        self.ln = nn.LayerNorm((8,))

    def construct(self, x, img):
        h = self.d_nb(x)
        c = self.conv_nb(img)
        return (
            self.d1(x),
            h,
            ops.relu(h),
            ops.exp(h),
            ops.softmax(h),
            ops.sum(h),
            ops.mean(h),
            self.ln(h),
            c,
            self.bn(c),
            ops.matmul(x, x.T),
            h + x.sum(1, keepdims=True),
            ops.log_softmax(h),
            h**2,
        )


# MindSpore 2.10, PyNative and GRAPH_MODE alike (float16):
NET_DTYPES = [F32, LOW, LOW, F32, F32, F32, LOW, F32, LOW, F32, LOW, F32, F32, F32]


@pytest.mark.parametrize("mode", ["pynative", "jit", "graph"])
@pytest.mark.parametrize("dtype", [F16, ms.bfloat16])
def test_intermediate_dtypes_in_every_mode(mode, dtype):
    net = amp.auto_mixed_precision(Net(), "auto", dtype)
    call = net
    if mode == "graph":
        ms.set_context(mode=ms.GRAPH_MODE)
    elif mode == "jit":
        call = ms.jit(lambda x, img: net(x, img))
    outs = call(X, IMG)
    assert [o.dtype for o in outs] == [dtype if d == LOW else d for d in NET_DTYPES]
    ref = Net()
    ms.load_param_into_net(ref, {p.name: Parameter(Tensor(p.asnumpy()), p.name) for p in net.get_parameters()})
    ms.set_context(mode=ms.PYNATIVE_MODE)
    tol = 2e-2 if dtype == F16 else 1e-1
    for got, exp in zip(outs, ref(X, IMG)):
        np.testing.assert_allclose(got.astype(F32).asnumpy(), exp.asnumpy(), rtol=tol, atol=tol)
    assert state.amp_dtype() is None


def test_graph_mode_control_flow_in_auto_network():
    class Branchy(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc = nn.Dense(4, 3, has_bias=False)

        def construct(self, x):
            y = self.fc(x)
            if y.sum() > 0:
                z = ops.exp(y)
            else:
                z = ops.exp(-y)
            return y, z

    ms.set_context(mode=ms.GRAPH_MODE)
    net = amp.auto_mixed_precision(Branchy(), "auto", ms.bfloat16)
    y, z = net(X)
    assert (y.dtype, z.dtype) == (ms.bfloat16, F32)  # exp (black list) in both branches of a tensor condition
    yv = y.astype(F32).asnumpy()
    np.testing.assert_allclose(z.asnumpy(), np.exp(yv if yv.sum() > 0 else -yv), rtol=1e-6)


def test_to_float_takes_precedence():
    class Sub(nn.Cell):
        def construct(self, x):
            return ops.matmul(x, x.T), ops.exp(x)

    class Outer(nn.Cell):
        def __init__(self):
            super().__init__()
            self.s32 = Sub().to_float(F32)
            self.s16 = Sub().to_float(F16)
            self.s = Sub()

        def construct(self, x):
            return self.s32(x) + self.s16(x) + self.s(x)

    for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
        ms.set_context(mode=mode)
        outs = amp.auto_mixed_precision(Outer(), "auto", F16)(X)
        assert [o.dtype for o in outs] == [F32, F32, F16, F16, F16, F32]


def test_function_network_and_jit_cache():
    @ms.jit
    def f(x):
        return ops.matmul(x, x.T), ops.exp(x)

    assert [o.dtype for o in f(X)] == [F32, F32]
    g = amp.auto_mixed_precision(f, "auto", ms.bfloat16)
    assert g._amp_level == "auto" and f.amp_strategy.get_amp_dtype() == ms.bfloat16
    assert [o.dtype for o in g(X)] == [ms.bfloat16, F32]
    # the same compiled function, called without amp again: its program without the casts
    assert [o.dtype for o in f(X)] == [F32, F32]
    # compiled ops (the losses) called eagerly inside and outside the scope
    h = amp.auto_mixed_precision(lambda a: ops.nll_loss(a, LAB), "auto")
    assert h(H).dtype == F32 and ops.nll_loss(H, LAB).dtype == F16


def test_scopes_nest_and_restore():
    inner = amp.auto_mixed_precision(lambda x: ops.matmul(x, x.T), "auto", ms.bfloat16)

    def outer_fn(x):
        return ops.matmul(x, x.T), inner(x), ops.matmul(x, x.T)

    outer = amp.auto_mixed_precision(outer_fn, "auto", F16)
    assert [o.dtype for o in outer(X)] == [F16, ms.bfloat16, F16]
    assert state.amp_dtype() is None

    def boom(x):
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        amp.auto_mixed_precision(boom, "auto")(X)
    assert state.amp_dtype() is None


def test_network_changed_in_place_with_strategy():
    net = Net()
    assert amp.auto_mixed_precision(net, "auto", ms.bfloat16) is net
    assert net._amp_level == "auto"
    strategy = net.amp_strategy
    assert strategy.get_amp_level() is AmpLevel.AmpAuto and strategy.get_amp_dtype() == ms.bfloat16
    assert ("MatMul", []) in strategy.get_white_list() and ("Softmax", []) in strategy.get_black_list()
    assert len(strategy.get_white_list()) == 20 and len(strategy.get_black_list()) == 46
    assert [p.name for p in net.trainable_params()][:2] == ["d1.weight", "d1.bias"]


def test_deepcopy_of_converted_network_runs_its_own_parameters():
    import copy

    net = amp.auto_mixed_precision(nn.Dense(4, 3, has_bias=False), "auto", ms.bfloat16)
    twin = copy.deepcopy(net)
    twin.weight.set_data(Tensor(np.zeros((3, 4), np.float32)))
    out = twin(X)
    assert out.dtype == ms.bfloat16 and not out.asnumpy().any()
    assert net(X).asnumpy().any()


def test_master_weights_and_gradients_float32():
    net = amp.auto_mixed_precision(Net(), "auto", ms.bfloat16)
    net.set_train()

    def loss_fn(x, img):
        out = net(x, img)
        return ops.mean(out[0]) + ops.mean(out[9].astype(F32))

    grad_fn = ms.value_and_grad(loss_fn, None, net.trainable_params())
    loss, grads = grad_fn(X, IMG)
    assert loss.dtype == F32
    assert [g.dtype for g in grads] == [F32] * len(grads)
    assert all(p.dtype == F32 for p in net.get_parameters())
    assert any(np.abs(g.asnumpy()).sum() > 0 for g in grads)


class LeNet5(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5, pad_mode="valid")
        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
        self.fc1 = nn.Dense(16 * 4 * 4, 120)
        self.fc2 = nn.Dense(120, 84)
        self.fc3 = nn.Dense(84, 10)
        self.relu = nn.ReLU()
        self.pool = nn.MaxPool2d(2, 2)
        self.flatten = nn.Flatten()

    def construct(self, x):
        x = self.pool(self.relu(self.conv1(x)))
        x = self.pool(self.relu(self.conv2(x)))
        x = self.flatten(x)
        return self.fc3(self.relu(self.fc2(self.relu(self.fc1(x)))))


def _train_lenet(level, dtype=None, steps=12):
    ms.set_seed(1)
    net = LeNet5()
    if dtype is not None:
        net = amp.auto_mixed_precision(net, level, dtype)
        level = "O0"
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.Momentum(net.trainable_params(), 0.05, 0.9)
    step = amp.build_train_network(net, opt, loss_fn, level=level)
    rs = np.random.RandomState(3)
    x = Tensor(rs.rand(16, 1, 28, 28).astype(np.float32))
    y = Tensor(rs.randint(0, 10, 16).astype(np.int32))
    losses = [float(step(x, y).asnumpy()) for _ in range(steps)]
    return losses, net


def test_lenet_trains_under_auto_bfloat16_close_to_o0():
    ref, _ = _train_lenet("O0")
    got, net = _train_lenet("auto", ms.bfloat16)
    assert got[-1] < got[0] - 0.05 and ref[-1] < ref[0] - 0.05
    np.testing.assert_allclose(got, ref, rtol=1e-2)
    assert all(p.dtype == F32 for p in net.get_parameters())


def test_build_train_network_auto_uses_float16_and_float32_loss():
    net = LeNet5()
    opt = nn.Momentum(net.trainable_params(), 0.05, 0.9)
    step = amp.build_train_network(
        net, opt, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"), level="auto"
    )
    assert type(step) is nn.TrainOneStepCell
    assert isinstance(step.network, AmpWithLossCell)
    backbone = step.network.backbone_network
    assert backbone is net and net._amp_level == "auto" and net.amp_strategy.get_amp_dtype() == F16
    x = Tensor(np.random.RandomState(3).rand(4, 1, 28, 28).astype(np.float32))
    assert net(x).dtype == F32  # fc3 has a bias
    loss = step(x, Tensor(np.array([1, 2, 3, 4], np.int32)))
    assert loss.dtype == F32 and np.isfinite(loss.asnumpy())
    assert all(p.dtype == F32 for p in net.get_parameters())


def test_model_amp_level_auto_trains():
    from sporax import dataset as ds

    rs = np.random.RandomState(5)
    data = ds.NumpySlicesDataset(
        {"image": rs.rand(32, 1, 28, 28).astype(np.float32), "label": rs.randint(0, 10, 32).astype(np.int32)},
        shuffle=False,
    ).batch(16)
    net = LeNet5()
    model = ms.Model(
        net,
        nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
        nn.Momentum(net.trainable_params(), 0.05, 0.9),
        metrics={"acc"},
        amp_level="auto",
    )
    model.train(2, data)
    assert net._amp_level == "auto"
    assert np.isfinite(model.eval(data)["acc"])


def test_errors():
    with pytest.raises(TypeError, match="For amp_level 'auto', the network type should be Cell or function."):
        amp.auto_mixed_precision(123, "auto")
    with pytest.raises(TypeError, match="For amp_level 'auto', the network type should be Cell or function."):
        amp.auto_mixed_precision(nn.Dense, "auto")
    with pytest.raises(
        ValueError, match="The dtype should be one of \\(mstype.float16, mstype.bfloat16\\), but got Float32."
    ):
        amp.auto_mixed_precision(Net(), "auto", F32)
    with pytest.raises(TypeError, match="For amp_level 'O1', the network type should be Cell."):
        amp.auto_mixed_precision(lambda x: x, "O1")
    with pytest.raises(ValueError, match="The amp level auto2 is not supported"):
        amp.auto_mixed_precision(Net(), "auto2")
    with pytest.raises(ValueError, match="For 'Model', the 'amp_level' must be one of"):
        ms.Model(Net(), amp_level="Auto")


def test_decorated_ops_keep_their_signatures():
    import inspect

    assert str(inspect.signature(ops.sum)) == str(inspect.signature(ops.sum.__wrapped__))
    assert ops.exp.__name__ == "exp" and ops.matmul.__doc__ == ops.matmul.__wrapped__.__doc__
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'other'"):
        ops.matmul(X)
    assert ops.sum(H, dtype=F32).dtype == F32 and ops.sum(H, 1, True).shape == (2, 1)
