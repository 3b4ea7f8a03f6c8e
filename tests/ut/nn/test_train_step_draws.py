"""The train-step cells' loss and gradient come from the same dropout masks (one forward:
ops.composite._grad.forward_and_grads, which TrainOneStepCell, TrainOneStepWithLossScaleCell and the boost
cells use), as in MindSpore 2.10: there, in GRAPH and PyNative mode, the step of ``sum(dropout(w * 1))``
returns a loss equal to its gradient w.r.t. ``w`` (checked with MindSpore: 1006 / 1006, 988 / 988, ...)."""

import importlib.util
import itertools
import json
import pathlib

import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, compat, nn


def _load_tool():
    """tools/make_train_step_draws_reference.py with `mindspore` aliased to sporax: its Cells, run here."""
    compat.alias_mindspore()
    try:
        path = pathlib.Path(__file__).resolve().parents[3] / "tools" / "make_train_step_draws_reference.py"
        spec = importlib.util.spec_from_file_location("make_train_step_draws_reference", path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
    finally:
        compat.unalias_mindspore()
    return mod


_TOOL = _load_tool()
_Net = _TOOL.Net  # sum(dropout(w * x)), w = 1, p = 0.5


def _steps(mode, n=3):
    ms.set_context(mode=mode)
    ms.set_seed(1)
    net = _Net()
    step = nn.TrainOneStepCell(net, nn.SGD(net.trainable_params(), learning_rate=0.0), return_grad=True)
    step.set_train()
    x = Tensor(np.ones((1000,), np.float32))
    out = []
    for _ in range(n):
        loss, grads = step(x)
        out.append((float(loss.asnumpy()), float(grads["w"].asnumpy()[0])))
    return out


_SCALE_CELLS = {
    "nn": lambda net, opt, scale: nn.TrainOneStepWithLossScaleCell(net, opt, scale_sense=scale),
    "boost": lambda net, opt, scale: ms.boost.BoostTrainOneStepWithLossScaleCell(net, opt, scale_sense=scale),
}


@pytest.mark.parametrize("cell", sorted(_SCALE_CELLS))
@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
def test_loss_scale_step_loss_and_gradient_share_masks(mode, cell):
    """With a fixed scale of 4 and SGD(lr=1), the update is the (unscaled) gradient: w - loss == 0 after
    one step from w = 1 means the loss (= count kept / (1 - p)) equals the gradient the update applied."""
    ms.set_context(mode=mode)
    ms.set_seed(2)
    net = _Net()
    opt = nn.SGD(net.trainable_params(), learning_rate=1.0)
    step = _SCALE_CELLS[cell](net, opt, Tensor(np.float32(4.0)))
    step.set_train()
    loss, overflow, scale = step(Tensor(np.ones((1000,), np.float32)))
    assert not bool(overflow.asnumpy())
    assert float(scale.asnumpy()) == 4.0
    assert 400 < float(loss.asnumpy()) * 0.5 < 600
    assert float(net.w.asnumpy()[0]) == 1.0 - float(loss.asnumpy())


def test_boost_step_loss_and_gradient_share_masks():
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_seed(2)
    net = _Net()
    step = ms.boost.BoostTrainOneStepCell(net, nn.SGD(net.trainable_params(), learning_rate=1.0))
    step.set_train()
    loss = step(Tensor(np.ones((1000,), np.float32)))
    assert float(net.w.asnumpy()[0]) == 1.0 - float(loss.asnumpy())


def test_loss_scale_step_needs_a_tensor_loss():
    class _Two(_Net):
        def construct(self, x):
            y = self.drop(self.w * x)
            return y.sum(), y.mean()

    ms.set_context(mode=ms.GRAPH_MODE)
    net = _Two()
    step = nn.TrainOneStepWithLossScaleCell(net, nn.SGD(net.trainable_params()), scale_sense=Tensor(np.float32(1)))
    with pytest.raises(TypeError, match="For 'TrainOneStepWithLossScaleCell', the network must return one Tensor"):
        step(Tensor(np.ones((4,), np.float32)))


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
def test_loss_is_the_loss_of_the_gradients_masks(mode):
    out = _steps(mode)
    for loss, grad in out:
        assert loss == grad  # w = 1: the loss is the gradient, when both saw one mask
        kept = loss * 0.5
        assert kept == round(kept) and 400 < kept < 600  # a count of kept elements scaled by 1 / (1 - p)
    assert len({loss for loss, _ in out}) > 1  # each step draws new masks


def test_reproducible_and_one_draw_per_step():
    """The same seed gives the same steps, in either mode; each step advances the random state by one
    forward's draws: step k draws what the k-th plain forward of a fresh seeded network draws."""
    graph = _steps(ms.GRAPH_MODE)
    assert graph == _steps(ms.GRAPH_MODE) == _steps(ms.PYNATIVE_MODE)
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_seed(1)
    net = _Net()
    net.set_train()
    x = Tensor(np.ones((1000,), np.float32))
    assert [float(net(x).asnumpy()) for _ in range(3)] == [loss for loss, _ in graph]


# A train-step Cell of the user's own (ModelZoo's form: loss = net(x); grads = grad(net, weights)(x, sens)),
# against what MindSpore 2.10 recorded (tools/make_train_step_draws_reference.py, whose step Cells run here
# with `mindspore` aliased to sporax). Equal numbers in a step mean one dropout mask.
_REF = json.loads((pathlib.Path(__file__).parent / "fixtures" / "train_step_draws_ms210.json").read_text())


@pytest.fixture(scope="module")
def ref_cells():
    return _TOOL


def _same_masks(step):
    return [a == b for a, b in itertools.combinations(step, 2)]


def _run_ref_step(mod, mode, name):
    ms.set_context(mode=ms.GRAPH_MODE if mode == "graph" else ms.PYNATIVE_MODE)
    ms.set_seed(1)
    net = mod.Net()
    net.set_train()
    step = getattr(mod, name)(net)
    x = Tensor(np.ones((1000,), np.float32))
    args = (x, Tensor(np.ones((1000,), np.float32))) if name == "StepOther" else (x,)
    return [[float(np.asarray(v.asnumpy()).reshape(-1)[0]) for v in step(*args)] for _ in range(3)]


@pytest.mark.parametrize("key", [k for k in _REF if k != "mindspore"])
def test_user_train_step_masks_as_mindspore(ref_cells, key):
    mode, name = key.split("/")
    ours = _run_ref_step(ref_cells, mode, name)
    theirs = _REF[key]
    if key == "graph/StepTwice":
        # MindSpore's graph gives both calls of the network one mask; two calls of a dropout draw two masks
        # here (as in PyNative, and as R-Drop's two forwards need); the gradient replays the latest call
        assert [_same_masks(s) for s in theirs] == [[True, True, True]] * 3
        assert [_same_masks(s) for s in ours] == [[False, False, True]] * 3
    elif key == "graph/StepOther":
        # MindSpore's graph gives a gradient on other inputs the call's mask too; here it draws its own
        assert [_same_masks(s) for s in theirs] == [[True]] * 3
        assert [_same_masks(s) for s in ours] == [[False]] * 3
    else:
        assert [_same_masks(s) for s in ours] == [_same_masks(s) for s in theirs]
    for s in ours:
        assert all(400 < v * 0.5 < 600 and v * 0.5 == round(v * 0.5) for v in s)
