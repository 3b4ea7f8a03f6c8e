"""Cell: registration, MindSpore's hierarchical parameter names, queries, flags, containers, hooks."""

from collections import OrderedDict

import numpy as np
import pytest

import sporax as ms
from sporax import Parameter, Tensor, nn, ops


class Leaf(nn.Cell):
    def __init__(self):
        super().__init__()
        self.weight = Parameter(Tensor(np.ones((2, 2), np.float32)))
        self.bias = Parameter(Tensor(np.zeros(2, np.float32)), name="my_bias")
        self.stat = Parameter(Tensor(np.zeros(2, np.float32)), requires_grad=False)

    def construct(self, x):
        return ms.ops.matmul(x, self.weight) + self.bias


class Mid(nn.Cell):
    def __init__(self):
        super().__init__()
        self.leaf = Leaf()
        self.seq = nn.SequentialCell([Leaf(), nn.ReLU()])

    def construct(self, x):
        return self.seq(self.leaf(x))


class Top(nn.Cell):
    def __init__(self):
        super().__init__()
        self.backbone = Mid()

    def construct(self, x):
        return self.backbone(x)


def test_hierarchical_names():
    net = Top()
    names = [p.name for p in net.get_parameters()]
    assert names == [
        "backbone.leaf.weight",
        "backbone.leaf.bias",
        "backbone.leaf.stat",
        "backbone.seq.0.weight",
        "backbone.seq.0.bias",
        "backbone.seq.0.stat",
    ]
    assert [p.name for p in net.trainable_params()] == [n for n in names if not n.endswith("stat")]
    assert [p.name for p in net.untrainable_params()] == ["backbone.leaf.stat", "backbone.seq.0.stat"]
    assert list(net.parameters_dict()) == names
    assert [n for n, _ in net.parameters_and_names()] == names
    assert [n for n, _ in net.cells_and_names()] == [
        "",
        "backbone",
        "backbone.leaf",
        "backbone.seq",
        "backbone.seq.0",
        "backbone.seq.1",
    ]
    assert list(net.name_cells()) == ["backbone"]
    assert list(net.backbone.cells())[0] is net.backbone.leaf


def test_auto_prefix_false_keeps_names_and_update_parameters_name():
    class Wrap(nn.Cell):
        def __init__(self, inner):
            super().__init__(auto_prefix=False)
            self.network = inner

    leaf = Leaf()
    Wrap(leaf)
    assert [p.name for p in leaf.get_parameters()] == ["weight", "my_bias", "stat"]  # a given name is kept
    leaf.update_parameters_name("pre.")  # MindSpore: prefix + structural name
    assert [p.name for p in leaf.get_parameters()] == ["pre.weight", "pre.bias", "pre.stat"]


def test_insert_and_replace():
    net = nn.Cell()
    net.insert_param_to_cell("w", Parameter(Tensor(1.0)))
    net.insert_child_to_cell("child", Leaf())  # MindSpore 2.10: insert_child_to_cell never renames
    assert net.w.name == "w" and [p.name for p in net.get_parameters()][:2] == ["w", "weight"]
    with pytest.raises(KeyError):
        net.insert_param_to_cell("a.b", Parameter(Tensor(1.0)))
    with pytest.raises(TypeError, match="must be 'Cell' if not None"):
        net.insert_child_to_cell("x", 3)
    net.w = Tensor(5.0)  # assigning a Tensor to a Parameter attribute sets its data
    assert isinstance(net.w, Parameter) and float(net.w) == 5.0
    with pytest.raises(TypeError, match="Sub cell 'child' already exists in network"):
        net.child = 3
    net.child = None
    assert "child" not in net.name_cells()


def test_super_init_required():
    class Bad(nn.Cell):
        def __init__(self):
            self.w = Parameter(Tensor(1.0))

    with pytest.raises(AttributeError, match="super"):
        Bad()


def test_set_train_set_grad_apply_to_float():
    net = Top()
    assert net.training is False
    net.set_train()
    assert all(c.training for _, c in net.cells_and_names())
    net.set_train(False)
    assert not net.backbone.leaf.training
    assert net.set_grad().requires_grad
    seen = []
    net.apply(lambda c: seen.append(type(c).__name__))
    assert seen[-1] == "Top" and "Leaf" in seen

    class Echo(nn.Cell):
        def construct(self, x, n):
            return x, n

    echo = Echo().to_float(ms.float16)
    x, n = echo(Tensor(np.ones(2, np.float32)), Tensor(np.ones(2, np.int32)))
    assert x.dtype == ms.float16 and n.dtype == ms.int32  # float inputs are cast, others kept
    with pytest.raises(ValueError, match="dst_type"):
        net.to_float(ms.int32)
    net.add_flags(sink_mode=True)
    assert net.sink_mode is True and net.get_flags() == {"sink_mode": True}


def test_sequential_cell_forms_and_containers():
    d = OrderedDict([("fc", nn.Dense(2, 3)), ("act", nn.ReLU())])
    seq = nn.SequentialCell(d)
    assert [p.name for p in seq.get_parameters()] == ["fc.weight", "fc.bias"]
    assert seq(Tensor(np.ones((1, 2), np.float32))).shape == (1, 3)
    assert len(seq) == 2 and isinstance(seq[0], nn.Dense)
    seq.append(nn.Dense(3, 1))
    assert seq(Tensor(np.ones((4, 2), np.float32))).shape == (4, 1)
    cl = nn.CellList([nn.Dense(2, 2), nn.Dense(2, 2)])
    cl.append(nn.ReLU())
    assert len(cl) == 3 and [p.name for p in cl.get_parameters()] == ["0.weight", "0.bias", "1.weight", "1.bias"]
    cd = nn.CellDict({"a": nn.Dense(2, 2)})
    cd["b"] = nn.ReLU()
    assert list(cd.keys()) == ["a", "b"] and "a" in cd
    with pytest.raises(TypeError, match="must be 'Cell' if not None"):  # MindSpore 2.10's message
        nn.SequentialCell([nn.ReLU(), 3])


def test_forward_hooks_and_repr():
    net = Leaf()
    calls = []
    h = net.register_forward_pre_hook(lambda cell, inputs: calls.append("pre"))
    net.register_forward_hook(lambda cell, inputs, out: out * 0)
    out = net(Tensor(np.ones((1, 2), np.float32)))
    assert calls == ["pre"] and float(out.sum()) == 0.0
    h.remove()
    net(Tensor(np.ones((1, 2), np.float32)))
    assert calls == ["pre"]
    r = repr(nn.SequentialCell([nn.Dense(2, 3), nn.ReLU()]))
    assert r == "SequentialCell(\n  (0): Dense(input_channels=2, output_channels=3, has_bias=True)\n  (1): ReLU()\n)"


def test_construct_missing():
    with pytest.raises(NotImplementedError, match="construct"):
        nn.Cell()(1)


def test_to_float_casts_parameters_inside_the_cell_and_keeps_master_weights():
    net = Top()
    net.to_float(ms.float16)
    net.backbone.seq.to_float(ms.float32)  # a sub-cell kept in float32 (as amp does for BatchNorm)
    out = net(Tensor(np.ones((1, 2), np.float32)))
    assert out.dtype == ms.float32  # leaf ran in float16, then seq cast its input back to float32
    assert net.backbone.leaf.weight.dtype == ms.float32  # outside the cell: the stored float32 value
    grads = ms.grad(net, None, net.trainable_params())(Tensor(np.ones((1, 2), np.float32)))
    assert all(g.dtype == ms.float32 for g in grads)
    net.backbone.leaf.to_float(ms.float16)
    h = net.backbone.leaf(Tensor(np.ones((1, 2), np.float32)))
    assert h.dtype == ms.float16


def test_with_eval_cell_add_cast_fp32_keeps_integer_labels():
    net = nn.Dense(2, 3).to_float(ms.float16)
    cell = nn.WithEvalCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"), add_cast_fp32=True)
    loss, out, label = cell(Tensor(np.ones((4, 2), np.float32)), Tensor(np.array([0, 1, 2, 0], np.int32)))
    assert out.dtype == ms.float32 and label.dtype == ms.int32 and loss.dtype == ms.float32


class _SquaredError(nn.Cell):
    """A loss written with Tensor operators, as users write it (the square is FMA-contracted when compiled)."""

    def __init__(self):
        super().__init__()
        self.head = nn.Dense(8, 8, weight_init="ones", bias_init="zeros")

    def construct(self, x, y):
        return ((self.head(x) / 4.0 - y) ** 2).mean()


class _MyStep(nn.TrainOneStepCell):
    def construct(self, x, y):
        loss = self.network(x, y)
        grads = self.grad(self.network, self.weights)(x, y, ops.ones_like(loss))
        self.optimizer(grads)
        return loss


def _train_losses(mode, steps=5):
    ms.set_context(mode=mode)
    rng = np.random.RandomState(0)  # with these shapes, op-by-op and compiled losses differ in 4 of 5 steps
    x, y = Tensor(rng.rand(16, 8).astype(np.float32)), Tensor(rng.rand(16, 8).astype(np.float32))
    net = _SquaredError()
    step = _MyStep(net, nn.Momentum(net.trainable_params(), 0.01, 0.9))
    losses = [step(x, y).asnumpy().tobytes() for _ in range(steps)]
    ms.set_context(mode=ms.PYNATIVE_MODE)
    return losses, net.head.weight.asnumpy()


def test_train_step_subclass_gives_the_same_bits_in_pynative_and_graph_mode():
    py_losses, py_w = _train_losses(ms.PYNATIVE_MODE)
    graph_losses, graph_w = _train_losses(ms.GRAPH_MODE)
    assert py_losses == graph_losses
    np.testing.assert_array_equal(py_w, graph_w)


def test_train_step_that_cannot_compile_runs_op_by_op_in_pynative_with_a_log_line(caplog, recwarn):
    class Eager(nn.TrainOneStepCell):
        def construct(self, x, y):
            loss = self.network(x, y)
            self.seen.append(float(loss))  # needs the value now: not compilable
            grads = self.grad(self.network, self.weights)(x, y, ops.ones_like(loss))
            self.optimizer(grads)
            return loss

    net = _SquaredError()
    step = Eager(net, nn.SGD(net.trainable_params(), 0.1))
    step.seen = []
    x, y = Tensor(np.ones((4, 8), np.float32)), Tensor(np.zeros((4, 8), np.float32))
    with caplog.at_level("INFO", logger="sporax"):
        losses = [float(step(x, y).asnumpy()) for _ in range(3)]
    assert step.seen == losses and losses[2] < losses[0]
    assert "could not compile 'Eager.construct'" in caplog.text
    assert not [w for w in recwarn if issubclass(w.category, RuntimeWarning)]
