"""The communication functions of ops / mint.distributed / comm_func and the extra primitives in one
process (rank 0 of 1: every collective gives back its input), in place and out of place, with MindSpore's
errors. Two-rank values are in test_comm_two_ranks.py."""

import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, ops
from sporax.communication import comm_func, get_comm_name
from sporax.mint import distributed as dist


def t(v):
    return Tensor(np.asarray(v, np.float32))


@pytest.fixture(autouse=True)
def _inplace_default():
    ops.set_comm_ops_inplace(True)
    yield
    ops.set_comm_ops_inplace(True)


def test_process_group_queries():
    assert dist.is_available() and ops.is_available()
    dist.init_process_group()
    assert dist.is_initialized() and ops.is_initialized()
    assert (dist.get_rank(), dist.get_world_size(), ops.get_rank(), ops.get_world_size()) == (0, 1, 0, 1)
    assert dist.get_process_group_ranks() == [0] and ops.get_process_group_ranks() == [0]
    assert dist.get_global_rank(None, 0) == 0 and ops.get_group_rank(None, 0) == 0
    assert dist.get_backend() in ("mccl", "nccl") and ops.get_backend() == dist.get_backend()
    world = dist.new_group()
    assert dist.new_group([0]) == world == ops.new_group(None) and get_comm_name(world) == world
    with pytest.raises(ValueError, match="world_size is wrong"):
        dist.init_process_group(world_size=4)
    with pytest.raises(ValueError, match="'backend' must be one of hccl, nccl, mccl, but got gloo"):
        ops.init_process_group("gloo")
    with pytest.raises(TypeError, match="For 'get_rank', the argument 'group' must be type of string"):
        dist.get_rank(3)
    with pytest.raises(ValueError, match="must be in \\[0, 1\\), but got 2"):
        dist.get_global_rank(None, 2)
    dist.destroy_process_group()
    assert not dist.is_initialized()
    ops.init_process_group()
    ops.destroy_process_group(None)
    dist.init_process_group()


def test_collectives_in_place_with_one_rank():
    x = t([[1.0, 2.0], [3.0, 4.0]])
    assert dist.all_reduce(x) is None and dist.all_reduce(x, "avg") is None
    np.testing.assert_array_equal(x.asnumpy(), [[1.0, 2.0], [3.0, 4.0]])
    h = ops.all_reduce(x, op="max", async_op=True)
    h.wait()
    out = t(np.zeros((2, 2)))
    dist.all_gather_into_tensor(out, x)
    ops.all_gather_into_tensor_uneven(out, x)
    dist.reduce_scatter_tensor(out, x)
    ops.reduce_scatter_tensor_uneven(out, x, [2])
    np.testing.assert_array_equal(out.asnumpy(), x.asnumpy())
    lst = [t(np.zeros((2, 2)))]
    dist.all_gather(lst, x)
    ops.all_gather(lst, x)
    np.testing.assert_array_equal(lst[0].asnumpy(), x.asnumpy())
    dist.reduce_scatter(out, [x])
    ops.reduce_scatter(out, [x], op="min")
    dist.broadcast(out, 0)
    ops.broadcast(out, src=0)
    dist.reduce(out, 0, op="prod")
    ops.reduce(out, dst=0)
    np.testing.assert_array_equal(out.asnumpy(), x.asnumpy())
    g = [t(np.zeros((2, 2)))]
    dist.gather(x, g, dst=0)
    s = t(np.zeros((2, 2)))
    dist.scatter(s, [x], src=0)
    ops.gather_into_tensor(out, x, dst=0)
    ops.scatter_tensor(s, x, src=0)
    np.testing.assert_array_equal(g[0].asnumpy(), x.asnumpy())
    np.testing.assert_array_equal(s.asnumpy(), x.asnumpy())
    o = [t(np.zeros((2, 2)))]
    dist.all_to_all(o, [x])
    ops.all_to_all(o, [x])
    flat = t(np.zeros(4))
    dist.all_to_all_single(flat, t([1.0, 2.0, 3.0, 4.0]))
    ops.all_to_all_single(flat, t([1.0, 2.0, 3.0, 4.0]), [4], [4])
    ops.all_to_all_v_c(flat, t([5.0, 6.0, 7.0, 8.0]), [4])
    np.testing.assert_array_equal(flat.asnumpy(), [5.0, 6.0, 7.0, 8.0])
    assert dist.barrier() is None and ops.barrier(async_op=True) is not None


def test_out_of_place_when_comm_ops_inplace_is_off():
    x = t([1.0, 2.0])
    ops.set_comm_ops_inplace(False, ["all_reduce", "all_gather_into_tensor"])
    res, handle = ops.all_reduce(x, "sum")
    assert handle is None and isinstance(res, Tensor)
    res, _ = ops.all_gather_into_tensor(None, x)
    np.testing.assert_array_equal(res.asnumpy(), [1.0, 2.0])
    assert ops.broadcast(x, 0) is None  # not in the list: still in place
    with dist.__dict__["_cf"].inplace_mode(True):
        assert ops.all_reduce(x) is None
    assert dist.all_reduce(x) is None  # mint.distributed is always in place
    ops.set_comm_ops_inplace(False)
    res, _ = ops.reduce(x, dst=0)
    np.testing.assert_array_equal(res.asnumpy(), [1.0, 2.0])
    with pytest.raises(TypeError, match="'is_enable' must be type of bool"):
        ops.set_comm_ops_inplace(1)
    with pytest.raises(ValueError, match="The function name in `func_list` must be correct, but got foo."):
        ops.set_comm_ops_inplace(True, ["foo"])


def test_objects_and_store_with_one_rank():
    objs = [None]
    dist.all_gather_object(objs, {"a": 1})
    assert objs == [{"a": 1}]
    lst = ["x", 2]
    ops.broadcast_object_list(lst, src=0)
    assert lst == ["x", 2]
    out = [None]
    dist.scatter_object_list(out, ["only"], src=0)
    assert out == ["only"]
    got = [None]
    ops.gather_object(7, got, dst=0)
    assert got == [7]
    store = ops.TCPStore("127.0.0.1", 8118, world_size=1, is_master=True)
    store.set("k", "v")
    assert store.get("k") == b"v" and store.add("n", 2) == 2 and store.add("n", 3) == 5
    assert store.delete_key("k") and not store.delete_key("k")
    with pytest.raises(ValueError, match="the 'port' must be an int in \\[0, 65535\\]"):
        ops.TCPStore("127.0.0.1", 70000)


def test_point_to_point_needs_a_peer():
    x = t([1.0])
    for call in (
        lambda: dist.send(x, dst=0),
        lambda: ops.recv(x, src=0),
        lambda: dist.isend(x, 0),
        lambda: ops.irecv(x, 0),
        lambda: comm_func.send(x, 0),
        lambda: ops.send_object_list([1], dst=0),
        lambda: ops.recv_object_list([None], src=0),
    ):
        with pytest.raises(ValueError, match="must not be the rank of this process"):
            call()
    with pytest.raises(ValueError, match="must be in \\[0, 1\\), but got 1"):
        dist.recv(x, src=1)
    with pytest.raises(ValueError, match="Expected ``op`` to be of type ``isend`` or `irecv``, but got send"):
        dist.P2POp("send", x, 0)
    op = ops.P2POp(ops.isend, x, 0)
    assert op.op == "isend"
    with pytest.raises(TypeError, match="must be a non-empty list of P2POp"):
        ops.batch_isend_irecv([])
    with pytest.raises(NotImplementedError, match="``tag`` not support yet"):
        comm_func.P2POp("irecv", (2,), 0, tag=1)
    with pytest.raises(TypeError, match="recv_dtype must be type of mindspore dtype"):
        comm_func.P2POp("irecv", (2,), 0, recv_dtype="float32")
    with pytest.raises(TypeError, match="p2p_op_list must be a non-empty list of P2POp"):
        comm_func.batch_isend_irecv([op])


def test_errors_in_mindspore_form():
    x = t([1.0, 2.0])
    with pytest.raises(TypeError, match="For all_reduce, the input tensor must be tensor"):
        dist.all_reduce(np.ones(2))
    with pytest.raises(TypeError, match="For all_reduce, the input op value must be one of sum, prod, min, max, avg"):
        ops.all_reduce(x, op="mean")
    with pytest.raises(TypeError, match="The argument 'async_op' must be a bool"):
        dist.all_reduce(x, async_op=1)
    with pytest.raises(TypeError, match="The argument 'group' must be type of string"):
        dist.broadcast(x, 0, group=1)
    with pytest.raises(ValueError, match="group 'g1' does not exist"):
        dist.barrier(group="g1")
    with pytest.raises(RuntimeError, match="user communication groups are not supported on GPU and CPU"):
        dist.new_group([0, 1])
    with pytest.raises(TypeError, match="the length of 'tensor_list' must be the group size 1"):
        dist.all_gather([x, x], x)
    with pytest.raises(ValueError, match="the output tensor shape must be \\(2,\\), but got \\(3,\\)"):
        dist.all_gather_into_tensor(t([0.0, 0.0, 0.0]), x)
    with pytest.raises(ValueError, match="'input_split_sizes' must have 1 entries summing to 2"):
        ops.all_to_all_single(x, x, None, [3])


def test_more_primitives_with_one_rank():
    x = t([[1.0, 2.0], [3.0, 4.0]])
    for prim in (
        ops.Reduce(0),
        ops.Reduce(0, "max"),
        ops.CollectiveGather(0),
        ops.CollectiveScatter(0),
        ops.AlltoAll(1, 0, 1),
        ops.operations.AlltoAll(1, 1, 0),
    ):
        np.testing.assert_array_equal(prim(x).asnumpy(), x.asnumpy())
    f = t([1.0, 2.0, 3.0])
    np.testing.assert_array_equal(ops.AllGatherV()(f, [3]).asnumpy(), f.asnumpy())
    np.testing.assert_array_equal(ops.ReduceScatterV()(f, [3]).asnumpy(), f.asnumpy())
    np.testing.assert_array_equal(ops.AlltoAllV()(f, [3], [3]).asnumpy(), f.asnumpy())
    np.testing.assert_array_equal(ops.AlltoAllV(block_size=3)(f, [1], [1]).asnumpy(), f.asnumpy())
    np.testing.assert_array_equal(ops.AlltoAllVC()(f, [3]).asnumpy(), f.asnumpy())
    np.testing.assert_array_equal(ops.operations._AllSwap()(x, [2], [2]).asnumpy(), x.asnumpy())
    assert ops.AllGatherV()(t(np.zeros(0)), [0]).shape == ()
    assert comm_func.reduce(x, 0).shape == (2, 2) and comm_func.gather_into_tensor(x).shape == (2, 2)
    np.testing.assert_array_equal(comm_func.scatter_tensor(x).asnumpy(), x.asnumpy())
    outs, h = comm_func.all_to_all_with_output_shape([(2, 2)], [x])
    np.testing.assert_array_equal(outs[0].asnumpy(), x.asnumpy())
    out, h = comm_func.all_to_all_single_with_output_shape((3,), f, async_op=True)
    h.wait()
    np.testing.assert_array_equal(out.asnumpy(), f.asnumpy())
    dst = t(np.zeros(3))
    assert comm_func.all_to_all_v_c(dst, f, [3]) is None
    np.testing.assert_array_equal(dst.asnumpy(), f.asnumpy())
    ops.Barrier()()
    with pytest.raises(ValueError, match="the 'split_count' must be the group size 1, but got 2"):
        ops.AlltoAll(2, 0, 0)(x)
    with pytest.raises(ValueError, match="'output_split_sizes' must have 1 entries"):
        ops.AllGatherV()(f, [1, 2])
    with pytest.raises(ValueError, match="length of op_types and remote_ranks must be the same"):
        ops.BatchISendIRecv(("isend",), (0, 1))
    with pytest.raises(ValueError, match="the rank ids and shapes must have the same lengths"):
        ops.NeighborExchange([1], [1], [], [[2]], ms.float32)
    alone = ops.NeighborExchangeV2([-1] * 8, [0] * 4, [-1] * 8, [1, 0, 0, 2], "NCHW")
    img = Tensor(np.arange(4, dtype=np.float32).reshape(1, 1, 2, 2))
    out = alone(img).asnumpy()  # nothing received: the input, padded by recv_lens with zeros
    assert out.shape == (1, 1, 3, 4) and out[0, 0, 1:, :2].tolist() == [[0.0, 1.0], [2.0, 3.0]] and out.sum() == 6
    with pytest.raises(ValueError, match="the 'data_format' must be 'NCHW', but got NHWC"):
        ops.NeighborExchangeV2([-1] * 8, [0] * 4, [-1] * 8, [0] * 4, "NHWC")
    with pytest.raises(ValueError, match="the 'send_lens' must be a list of 4 ints"):
        ops.NeighborExchangeV2([-1] * 8, [0] * 3, [-1] * 8, [0] * 4, "NCHW")
    with pytest.raises(TypeError, match="the 'recv_rank_ids' must be a list"):
        ops.NeighborExchangeV2([-1] * 8, [0] * 4, (-1,) * 8, [0] * 4, "NCHW")
    with pytest.raises(ValueError, match="must not be the rank of this process"):
        ops.NeighborExchangeV2([0] + [-1] * 7, [1, 0, 0, 0], [-1] * 8, [0] * 4, "NCHW")(img)
    with pytest.raises(ValueError, match="must not be the rank of this process"):
        ops.Send(0, 0)(x)
    with pytest.raises(ValueError, match="must not be the rank of this process"):
        ops.Receive(0, 0, [2], ms.float32)()
    assert ops.NeighborExchange([], [], [], [], ms.float32)(()) == ()
    assert ops.BatchISendIRecv((), ())(()) == ()
    assert ops.operations.ReduceScatterV("max").op == "max" and ops.operations.Receive(1, 0, (2,), ms.int32).shape == [
        2
    ]


def test_communication_module_entries():
    from sporax import communication as comm

    assert comm.HCCL_WORLD_COMM_GROUP == "hccl_world_group"
    assert comm.NCCL_WORLD_COMM_GROUP == "nccl_world_group" and comm.MCCL_WORLD_COMM_GROUP == "mccl_world_group"
    assert comm.get_local_rank_size() == 1 and comm.get_comm_name() == "hccl_world_group"
    with pytest.raises(RuntimeError, match="For 'destroy_group', user communication groups are not supported"):
        comm.destroy_group("g")


def test_tensor_operator_registry():
    from sporax.ops import functional as F

    reg = ops.tensor_operator_registry
    assert F.tensor_operator_registry is reg and reg.get("add") is ops.add
    np.testing.assert_array_equal(reg.get("mul")(t([2.0]), t([3.0])).asnumpy(), [6.0])
    setattr(reg, "my_op", ops.neg)
    assert reg.get("my_op") is ops.neg
    with pytest.raises(TypeError, match="key for tensor registry must be string."):
        reg.get(1)
    with pytest.raises(AttributeError):
        reg.get("no_such_operator")
