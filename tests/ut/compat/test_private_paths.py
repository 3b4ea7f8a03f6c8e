"""Private names real MindSpore programs import (issue 10 item 6). Expected values were read off real
MindSpore 2.10 (quoted at each check)."""

import logging

import numpy as np
import pytest

import sporax as ms
from sporax import nn


def test_cell_graph_executor_compiles_without_running():
    from sporax.common.api import _cell_graph_executor

    net = nn.Dense(3, 2)
    phase, ok = _cell_graph_executor.compile(net, ms.Tensor(np.ones((2, 3), np.float32)))
    assert ok is True and phase.startswith("predict.") and _cell_graph_executor.has_compiled(phase)
    # MindSpore 2.10: ValueError for an input whose last dimension does not match the weight
    with pytest.raises(ValueError, match="must be 3, but got 4"):
        _cell_graph_executor.compile(net, ms.Tensor(np.ones((2, 4), np.float32)))
    bn = nn.BatchNorm2d(3)
    bn.set_train(True)
    before = bn.moving_mean.asnumpy().copy()
    _cell_graph_executor.compile(bn, ms.Tensor(np.random.rand(2, 3, 4, 4).astype(np.float32)))
    np.testing.assert_array_equal(bn.moving_mean.asnumpy(), before)  # compiling runs nothing
    out = _cell_graph_executor(net, ms.Tensor(np.ones((1, 3), np.float32)))
    np.testing.assert_allclose(out.asnumpy(), net(ms.Tensor(np.ones((1, 3), np.float32))).asnumpy())


def test_auto_parallel_context_object():
    from sporax.parallel._auto_parallel_context import auto_parallel_context

    ctx = auto_parallel_context()
    # MindSpore 2.10 defaults: stand_alone 1 False 0 False 1 False
    got = (ctx.get_parallel_mode(), ctx.get_device_num(), ctx.get_device_num_is_set(), ctx.get_global_rank())
    assert got == ("stand_alone", 1, False, 0)
    assert (ctx.get_gradients_mean(), ctx.get_pipeline_stages(), ctx.get_full_batch()) == (False, 1, False)
    ms.set_auto_parallel_context(device_num=8, gradients_mean=True)
    try:
        assert (ctx.get_device_num(), ctx.get_device_num_is_set(), ctx.get_gradients_mean()) == (8, True, True)
    finally:
        ms.reset_auto_parallel_context()
    assert ctx.get_device_num_is_set() is False
    with pytest.raises(AttributeError):
        ctx.get_no_such_key()


def test_parallel_mode_on_train_model():
    from sporax.train.model import ParallelMode

    assert ParallelMode.DATA_PARALLEL == "data_parallel"  # MindSpore 2.10 prints data_parallel


def test_calculate_fan_in_and_fan_out():
    from sporax.common.initializer import _calculate_correct_fan, _calculate_fan_in_and_fan_out, _calculate_gain

    # MindSpore 2.10: (3, 4) (12, 16) (54, 135)
    assert _calculate_fan_in_and_fan_out((4, 3)) == (3, 4)
    assert _calculate_fan_in_and_fan_out((4, 3, 2, 2)) == (12, 16)
    assert _calculate_fan_in_and_fan_out((5, 2, 3, 3, 3)) == (54, 135)
    msg = "'fan_in' and 'fan_out' can not be computed for tensor with fewer than 2 dimensions, but got dimensions 1."
    with pytest.raises(ValueError, match="^" + msg.replace("(", r"\(").replace(")", r"\)") + "$"):
        _calculate_fan_in_and_fan_out((3,))
    assert _calculate_correct_fan((4, 3), "FAN_OUT") == 4
    assert _calculate_gain("relu") == pytest.approx(2**0.5)


def test_get_cache_prim_reuses_one_instance():
    from sporax.ops._primitive_cache import _get_cache_prim

    a = _get_cache_prim(ms.ops.ReduceSum)(keep_dims=True)
    assert a is _get_cache_prim(ms.ops.ReduceSum)(keep_dims=True)
    assert a is not _get_cache_prim(ms.ops.ReduceSum)(keep_dims=False)
    np.testing.assert_array_equal(a(ms.Tensor(np.ones((2, 3), np.float32)), 1).asnumpy(), [[3.0], [3.0]])


def test_ops_primitive_module():
    from sporax.ops import primitive

    @primitive.constexpr
    def k(a, b):
        return a * b

    assert k(2, 3) == 6  # MindSpore 2.10: 6

    @primitive.constexpr(reuse_result=False)
    def shape_of(x):
        return x.shape

    @ms.jit
    def f(x):
        return ms.ops.zeros(shape_of(x), ms.float32) + x

    np.testing.assert_array_equal(f(ms.Tensor([1.0, 2.0])).asnumpy(), [1.0, 2.0])

    class Scale(primitive.PrimitiveWithInfer):
        @primitive.prim_arg_register
        def __init__(self, factor=2.0):
            pass

        def __call__(self, x):
            return x * self.attrs["factor"]

    s = Scale(3.0)
    assert s.attrs["factor"] == 3.0 and s(2.0) == 6.0
    assert primitive.SUPPORTED_TUPLE_IN_TUPLE_STRATEGY == [
        "GroupedMatmul",
        "FusedInferAttentionScore",
        "Custom",
        "Index",
    ]
    assert primitive.jit_context() is None
    assert primitive.Primitive is ms.ops.Primitive and primitive.prim_attr_register is ms.ops.prim_attr_register


def test_c_expression_names():
    from sporax._c_expression import MSContext, Tensor, typing

    assert Tensor is ms.Tensor
    assert typing.kFloat32 is ms.float32 and isinstance(ms.float32, typing.Float)
    assert typing.str_to_type("Float32") is ms.float32 and typing.type_size_in_bytes(ms.float32) == 4
    assert typing.is_subclass(ms.float32, typing.Float)
    assert MSContext.get_instance().get_param("device_target") == ms.get_context("device_target")
    assert MSContext.get_instance().get_ascend_soc_version() == ""


def test_set_cur_net_and_checkpoint_hook(caplog):
    from sporax.train.callback import _checkpoint_cb_for_save_op, _set_cur_net

    net = nn.Dense(2, 1)
    with caplog.at_level(logging.WARNING, logger="sporax"):
        assert _checkpoint_cb_for_save_op([]) is False
    assert "CUR_NET is None" in caplog.text
    _set_cur_net(net)
    params = [
        {"name": "weight", "data": ms.Tensor(np.full((1, 2), 2.0, np.float32))},
        {"name": "bias", "data": ms.Tensor(np.array([0.5], np.float32))},
    ]
    assert _checkpoint_cb_for_save_op(params) is True
    np.testing.assert_array_equal(net.weight.asnumpy(), [[2.0, 2.0]])
    np.testing.assert_array_equal(net.bias.asnumpy(), [0.5])


def test_common_tensor_is_the_module_for_imports():
    # As in MindSpore, the attribute mindspore.common.tensor is the function, and importing from the module works
    from sporax.common.tensor import Tensor

    assert Tensor is ms.Tensor
    import sys

    assert sys.modules["sporax.common.tensor"].Tensor is ms.Tensor
