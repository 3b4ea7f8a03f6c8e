"""The rest of Cell's (and so Optimizer's) MindSpore 2.10 members: Cell(*args, **kwargs), backward hooks,
parameter forward hooks, state_dict / load_state_dict hooks and extra state, mixed-precision type,
to / to_empty, offload, run_construct, compile_and_run, and the bookkeeping properties."""

import inspect
import weakref

import numpy as np
import pytest

import sporax as ms
from sporax import Parameter, Tensor, nn, ops
from sporax.nn._cell_hooks import MixedPrecisionType


def test_cell_signature_and_class_attributes():
    params = inspect.signature(nn.Cell).parameters
    assert [(p.name, p.kind) for p in params.values()] == [
        ("args", inspect.Parameter.VAR_POSITIONAL),
        ("kwargs", inspect.Parameter.VAR_KEYWORD),
    ]
    assert list(inspect.signature(nn.Dense).parameters)[:2] == ["in_channels", "out_channels"]
    before = nn.Cell.total_instance_count
    cell = nn.Cell(auto_prefix=False, flags={"a": 1})  # auto_prefix and flags still work
    assert nn.Cell.total_instance_count == before + 1
    assert cell.auto_prefix is False and cell.get_flags() == {"a": 1}
    assert nn.Optimizer.total_instance_count == nn.Cell.total_instance_count
    assert "_params" in nn.Cell.IGNORE_LIST and "_cells" in nn.Optimizer.IGNORE_LIST
    assert repr(nn.Cell.T_destination) == "~T_destination" and nn.Optimizer.T_destination is nn.Cell.T_destination
    assert isinstance(nn.Cell.global_cells, weakref.WeakKeyDictionary) and len(nn.Cell.global_cells) == 0


def test_bookkeeping_properties():
    net = nn.Dense(2, 2)
    assert isinstance(net.create_time, int) and net.cell_init_args == "Dense[True, None]"
    assert net.bprop_debug is False and net.compiled is False and net.compile_phase is None
    net.bprop_debug = True
    with pytest.raises(TypeError, match="'bprop_debug' must be bool type"):
        net.bprop_debug = 1
    with pytest.raises(TypeError, match="'cell_init_args' must be string type"):
        net.cell_init_args = 3
    seq = nn.SequentialCell([nn.Dense(2, 2)])
    seq.compile_phase = "train.1"
    assert seq[0].compile_phase == "train.1"
    assert net.exist_names == set() and net.exist_objs == set() and net.phase_cache == {}
    assert net.parameter_layout_dict == {} and net.parallel_parameter_merge_net_dict == {}
    assert net.parallel_parameter_name_list == ()
    net.parameter_layout_dict = {"w": 1}
    net.parallel_parameter_name_list = ["w"]
    net.parallel_parameter_merge_net_dict = {"w": "v"}
    with pytest.raises(TypeError, match="must be dict type"):
        net.parameter_layout_dict = []
    with pytest.raises(AttributeError, match="no attribute 'pipeline_stage'"):
        _ = net.pipeline_stage
    net.pipeline_stage = 2
    assert net.pipeline_stage == 2
    with pytest.raises(ValueError, match="can not be less than 0"):
        net.pipeline_stage = -1
    with pytest.raises(TypeError, match="must be int type"):
        net.pipeline_segment = 1.5
    net.pipeline_segment = 1
    assert net.pipeline_segment == 1
    with pytest.raises(AttributeError):
        _ = net.enable_backward_hook
    out = net.compile_and_run(Tensor(np.ones((1, 2), np.float32)))
    assert out.shape == (1, 2) and net.compiled is True and "train" in net.compile_cache
    assert isinstance(net.get_func_graph_proto(), bytes)
    assert net.set_data_parallel() is net
    assert net.run_construct((Tensor(np.ones((1, 2), np.float32)),), {}).shape == (1, 2)


class HookNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.relu = nn.ReLU()

    def construct(self, x):
        return self.relu(x + x) * 5


def test_backward_hooks():
    calls = []

    def post(cell, grad_input, grad_output):
        calls.append(("post", type(cell).__name__, len(grad_input), len(grad_output)))
        return (grad_input[0] * 3,)

    def pre(cell, grad_output):
        calls.append(("pre", type(cell).__name__))
        return (grad_output[0] * 2,)

    net = HookNet()
    x = Tensor(np.array([1.0, -1.0], np.float32))
    np.testing.assert_allclose(ops.GradOperation()(net)(x).asnumpy(), [10.0, 0.0])
    h1 = net.relu.register_backward_hook(post)
    h2 = net.relu.register_backward_pre_hook(pre)
    assert net.relu.enable_backward_hook is True
    g = ops.GradOperation()(net)(x)  # 5 * 2 (pre) * relu' * 3 (post) * 2
    np.testing.assert_allclose(g.asnumpy(), [60.0, 0.0])
    assert ("post", "ReLU", 1, 1) in calls and ("pre", "ReLU") in calls
    h2.remove()
    values = []
    h3 = net.relu.register_backward_pre_hook(lambda cell, gout: values.append(gout[0].asnumpy().copy()))
    np.testing.assert_allclose(ops.GradOperation()(net)(x).asnumpy(), [30.0, 0.0])
    np.testing.assert_allclose(values[-1], [5.0, 5.0])  # PyNative: concrete gradients, as MindSpore's hooks
    h3.remove()
    ms.set_context(mode=ms.GRAPH_MODE)  # traced into the compiled step
    np.testing.assert_allclose(ops.GradOperation()(net)(x).asnumpy(), [30.0, 0.0])
    ms.set_context(mode=ms.PYNATIVE_MODE)
    h1.remove()
    np.testing.assert_allclose(ops.GradOperation()(net)(x).asnumpy(), [10.0, 0.0])
    np.testing.assert_allclose(net(x).asnumpy(), [10.0, 0.0])  # the forward is unchanged
    with pytest.raises(TypeError):
        net.register_backward_hook(3)


class Scale(nn.Cell):
    def __init__(self):
        super().__init__()
        self.weight = Parameter(Tensor(2.0, ms.float32), name="weight")

    def construct(self, x):
        return x * self.weight


def test_parameter_forward_hook():
    net = Scale()
    net.register_parameter_forward_hook([{"params": [net.weight], "hook": lambda p: p * 10}])
    out, grad = ms.value_and_grad(net)(Tensor(3.0, ms.float32))  # MindSpore's documented example
    assert float(out.asnumpy()) == 60.0 and float(grad.asnumpy()) == 20.0
    _, (gw,) = ms.value_and_grad(net, None, net.trainable_params())(Tensor(3.0, ms.float32))
    assert float(gw.asnumpy()) == 30.0  # d(x * 10 w)/dw
    net2 = Scale()
    net2.register_parameter_forward_hook(lambda p: p + 1)
    assert float(net2(Tensor(3.0, ms.float32)).asnumpy()) == 9.0
    with pytest.raises(ValueError, match="both params and hook keys"):
        net.register_parameter_forward_hook([{"params": [net.weight]}])
    with pytest.raises(TypeError, match="must be a Parameter"):
        net.register_parameter_forward_hook([{"params": [1], "hook": abs}])


class Extra(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(2, 1)
        self.count = 0

    def get_extra_state(self):
        return {"count": self.count}

    def set_extra_state(self, state):
        self.count = state["count"]


def test_state_dict_hooks_and_extra_state():
    net = Extra()
    net.count = 7
    calls = []
    h1 = net.register_state_dict_pre_hook(lambda cell, prefix, keep_vars: calls.append(("pre", prefix)))
    h2 = net.fc.register_state_dict_post_hook(lambda cell, sd, prefix, meta: calls.append(("post", prefix, len(sd))))
    sd = net.state_dict()
    assert sd["_extra_state"] == {"count": 7} and "fc.weight" in sd
    assert calls == [("pre", ""), ("post", "fc.", 3)]  # the parent's extra state, then fc's two entries
    h1.remove()
    h2.remove()
    other = Extra()
    seen = []
    other.register_load_state_dict_pre_hook(
        lambda cell, state_dict, prefix, meta, strict, missing, unexpected, errors: seen.append(sorted(state_dict))
    )

    def post(cell, keys):
        seen.append((list(keys.missing_keys), list(keys.unexpected_keys)))
        keys.unexpected_keys.clear()  # a post hook may forgive keys

    other.register_load_state_dict_post_hook(post)
    sd["junk"] = Tensor(1.0)
    other.load_state_dict(sd)
    assert other.count == 7
    np.testing.assert_array_equal(other.fc.weight.asnumpy(), net.fc.weight.asnumpy())
    assert seen[1] == ([], ["junk"])
    with pytest.raises(RuntimeError, match="never be called"):
        nn.Dense(1, 1).get_extra_state()
    with pytest.raises(RuntimeError, match="never be called"):
        nn.Dense(1, 1).set_extra_state({})


def test_mixed_precision_type_and_to():
    net = nn.SequentialCell([nn.Dense(2, 2), nn.ReLU()])
    assert net.get_mixed_precision_type() == MixedPrecisionType.NOTSET
    net.to_float(ms.float16)
    assert net[0].get_mixed_precision_type() == MixedPrecisionType.FP16
    net[0].set_mixed_precision_type(MixedPrecisionType.FP32)
    assert net[0].get_mixed_precision_type() == MixedPrecisionType.FP32
    assert net[1].get_mixed_precision_type() == MixedPrecisionType.FP16
    x = Tensor(np.ones((1, 2), np.float32))
    assert net[0](x).dtype == ms.float32
    with pytest.raises(TypeError):
        net.set_mixed_precision_type("fp16")
    d = nn.Dense(2, 2)
    w = d.weight.asnumpy()
    assert d.to(ms.float16) is d and d.weight.dtype == ms.float16 and d.bias.dtype == ms.float16
    np.testing.assert_allclose(d.weight.asnumpy(), w.astype(np.float16))
    d.to("CPU", dtype=ms.float32)
    assert d.weight.dtype == ms.float32
    with pytest.raises(TypeError, match="floating point dtypes"):
        d.to(ms.int32)
    assert d.to_empty(device="CPU") is d and d.weight.shape == (2, 2)


def test_offload_and_saved_tensors_hooks():
    net = nn.Dense(2, 2)
    net.offload()
    net.offload(backward_prefetch=2)
    with pytest.raises(ValueError):
        net.offload(backward_prefetch="Soon")
    x = Tensor(np.ones((1, 2), np.float32))
    g = ms.grad(lambda v: net(v).sum())(x)
    np.testing.assert_allclose(g.asnumpy(), net.weight.asnumpy().sum(0, keepdims=True), rtol=1e-6)

    class Mul(nn.Cell):
        def construct(self, a, b):
            return a * b

    mul = Mul()
    mul.register_saved_tensors_hooks(lambda t: t + 1, lambda t: t * 2)
    a = Tensor(np.array([1.0, 3.0], np.float32))
    b = Tensor(np.array([2.0, 5.0], np.float32))
    out, (ga, gb) = ms.value_and_grad(mul, grad_position=(0, 1))(a, b)
    np.testing.assert_allclose(out.asnumpy(), [2.0, 15.0])  # the forward is unchanged
    np.testing.assert_allclose(ga.asnumpy(), [6.0, 12.0])  # at unpack(pack(b)) = 2 (b + 1)
    np.testing.assert_allclose(gb.asnumpy(), [4.0, 8.0])  # at 2 (a + 1)


def test_optimizer_members_are_cell_members():
    net = nn.Dense(2, 2)
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    assert isinstance(opt.create_time, int) and opt.compiled is False
    opt.pipeline_stage = 0
    assert opt.pipeline_stage == 0 and opt.get_mixed_precision_type() == MixedPrecisionType.NOTSET
    seen = []
    opt.register_state_dict_pre_hook(lambda cell, prefix, keep_vars: seen.append(type(cell).__name__))
    sd = opt.state_dict()
    assert seen == ["Momentum"] and "learning_rate" in sd and "momentum" in sd
    grads = tuple(Tensor(np.ones(p.shape, np.float32)) for p in net.trainable_params())
    w0 = net.weight.asnumpy().copy()
    opt.compile_and_run(grads)  # the optimizer's compiled step
    np.testing.assert_allclose(net.weight.asnumpy(), w0 - 0.1, rtol=1e-6)
    assert opt.compiled is True
