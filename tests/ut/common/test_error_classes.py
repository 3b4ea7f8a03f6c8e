"""Error classes of checks MindSpore makes in C++ (issue 10 item 8, issue 12): where MindSpore raises
RuntimeError for a bad value, sporax raises an error that is both RuntimeError and ValueError, with
MindSpore's message; a ragged nested list is a TypeError. Classes and messages recorded under MindSpore 2.10
(tools/make_top_reference.py -> fixtures/top_reference.json)."""

import json
from pathlib import Path

import numpy as np
import pytest

import sporax as ms
from sporax import _checkparam, nn

REF = json.loads((Path(__file__).parent / "fixtures" / "top_reference.json").read_text())
_CLASSES = {"TypeError": TypeError, "ValueError": ValueError, "RuntimeError": RuntimeError}


def test_combined_classes():
    assert issubclass(_checkparam.ValueRuntimeError, ValueError)
    assert issubclass(_checkparam.ValueRuntimeError, RuntimeError)
    assert issubclass(_checkparam.TypeRuntimeError, TypeError)
    assert issubclass(_checkparam.TypeRuntimeError, RuntimeError)


@pytest.mark.parametrize(
    "case,data", [("ragged", [[1, 2], [3]]), ("ragged_float", [[1.0, 2.0], [3.0]]), ("strings", ["a", "b"])]
)
def test_tensor_from_bad_nested_list(case, data):
    ref = REF["tensor_errors"][case]
    with pytest.raises(_CLASSES[ref["error"]]) as info:
        ms.Tensor(data)
    assert str(info.value) == ref["message"]


@pytest.mark.parametrize(
    "case,make,shape",
    [
        ("conv1d", lambda: nn.Conv1d(3, 4, 3), (1, 2, 5)),
        ("conv2d", lambda: nn.Conv2d(3, 4, 3), (1, 2, 5, 5)),
        ("conv2d_group", lambda: nn.Conv2d(4, 4, 3, group=2), (1, 2, 5, 5)),
        ("conv3d", lambda: nn.Conv3d(3, 4, 3), (1, 2, 5, 5, 5)),
    ],
)
def test_conv_wrong_input_channels(case, make, shape):
    ref = REF["conv_errors"][case]
    conv = make()
    with pytest.raises(_CLASSES[ref["error"]]) as info:  # MindSpore's class (RuntimeError; ValueError for 3-D)
        conv(ms.Tensor(np.ones(shape, np.float32)))
    assert isinstance(info.value, ValueError) and isinstance(info.value, RuntimeError)
    # sporax keeps its own text (it names the cell and both channel counts); MindSpore's names the primitive
    assert f"must be equal to 'in_channels': {conv.in_channels}, but got {shape[1]}" in str(info.value)
    assert ref["message"].startswith(("For 'Conv2D'", "For 'Conv3D'"))


def test_optimizer_given_fewer_gradients():
    ref = REF["optimizer_fewer_grads"]
    net = nn.Dense(3, 2)
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    with pytest.raises(_CLASSES[ref["error"]]) as info:  # RuntimeError in MindSpore (from HyperMap)
        opt((ms.Tensor(np.ones((2, 3), np.float32)),))
    assert isinstance(info.value, ValueError)
    # sporax names the optimizer and the counts; MindSpore's text is HyperMap's
    assert "the number of gradients must be equal to the number of parameters 2, but got 1" in str(info.value)
