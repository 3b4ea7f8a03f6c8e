"""The communication API in one process (rank 0 of 1): collectives are the identity, errors are MindSpore's.
Two-process behaviour is in tests/st/test_data_parallel.py."""

import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, nn, ops
from sporax.communication import (
    GlobalComm,
    comm_func,
    create_group,
    get_group_rank_from_world_rank,
    get_group_size,
    get_local_rank,
    get_process_group_ranks,
    get_rank,
    get_world_rank_from_group_rank,
    init,
)


def test_one_process_group():
    init()
    assert GlobalComm.INITED and GlobalComm.WORLD_COMM_GROUP == "mccl_world_group"
    assert (get_rank(), get_group_size(), get_local_rank()) == (0, 1, 0)
    assert get_process_group_ranks() == [0]
    assert get_world_rank_from_group_rank(GlobalComm.WORLD_COMM_GROUP, 0) == 0
    assert get_group_rank_from_world_rank(0, "hccl_world_group") == 0


def test_collectives_are_the_identity_with_one_rank():
    x = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    for out in (
        ops.AllReduce()(x),
        ops.AllReduce(ops.ReduceOp.MAX)(x),
        ops.AllGather()(x),
        ops.ReduceScatter()(x),
        ops.Broadcast(0)((x,))[0],
        comm_func.all_reduce(x)[0],
        comm_func.all_gather_into_tensor(x)[0],
        comm_func.broadcast(x, 0),
    ):
        np.testing.assert_array_equal(out.asnumpy(), x.asnumpy())
    out, handle = comm_func.all_reduce(x, async_op=True)
    handle.wait()
    assert comm_func.all_reduce(x)[1] is None
    comm_func.barrier()


def test_grad_reducer_means_by_degree():
    net = nn.Dense(2, 2)
    grads = tuple(ms.ops.ones_like(p) for p in net.trainable_params())
    out = nn.DistributedGradReducer(net.trainable_params(), mean=True, degree=4)(grads)
    np.testing.assert_allclose(out[0].asnumpy(), 0.25)
    out = nn.DistributedGradReducer(net.trainable_params(), mean=False)(grads)
    np.testing.assert_allclose(out[1].asnumpy(), 1.0)
    assert nn.DistributedGradReducer(net.trainable_params()).mean is False  # gradients_mean's default


def test_errors():
    with pytest.raises(ValueError, match="should large than 0 and be int, degree: 0"):
        nn.DistributedGradReducer([], degree=0)
    with pytest.raises(ValueError, match="group 'my_group' does not exist"):
        ops.AllReduce(group="my_group")
    with pytest.raises(TypeError, match="For 'AllReduce', the 'op' must be str"):
        ops.AllReduce(op=1)
    with pytest.raises(TypeError, match="For all_reduce, the input op value must be one of"):
        comm_func.all_reduce(Tensor([1.0]), op="avg")
    with pytest.raises(TypeError, match="For all_reduce, the input tensor must be tensor"):
        comm_func.all_reduce(np.ones(2))
    with pytest.raises(RuntimeError, match="Backend name gloo is not supported"):
        init("gloo")
    with pytest.raises(RuntimeError, match="not supported on GPU and CPU"):
        create_group("g", [0, 1])
    with pytest.raises(ValueError, match="must be in \\[0, 1\\), but got 3"):
        get_world_rank_from_group_rank(GlobalComm.WORLD_COMM_GROUP, 3)
    with pytest.raises(ValueError, match="AllGather', the input must have at least 1 dimension"):
        ops.AllGather()(Tensor(1.0))
