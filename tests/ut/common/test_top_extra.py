"""Top-level helpers against MindSpore 2.10 (references: tools/make_top_reference.py extra):
_no_grad, _Function, saved_tensors_hooks / register_saved_tensors_hooks, enable_dynamic, flops_collection,
ms_memory_recycle, set_dump, UntypedStorage, DeviceCtx, mindio_preload / set_mindio_server_info, _NullType."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, nn, ops
from sporax.common import _Function

REF = json.loads((Path(__file__).parent / "fixtures" / "top_extra_reference.json").read_text())


def _raises(ref, fn):
    cls = {"ValueError": ValueError, "TypeError": TypeError}[ref["error"]]
    with pytest.raises(cls) as info:
        fn()
    assert str(info.value).split("\n")[0] == ref["message"]


X = np.array([1.0, 3.0], np.float32)


def test_no_grad_context_and_decorator():
    def f(a):
        with ms._no_grad():
            b = a * 2
        return b * a

    @ms.common._no_grad()
    def g(a):
        return a * a

    np.testing.assert_allclose(ms.grad(f)(Tensor(X)).asnumpy(), REF["no_grad"]["with"])
    np.testing.assert_allclose(ms.grad(lambda a: g(a) + a)(Tensor(X)).asnumpy(), REF["no_grad"]["decorator"])
    # the state is restored on exit, also under jit
    np.testing.assert_allclose(ms.jit(ms.grad(f))(Tensor(X)).asnumpy(), REF["no_grad"]["with"])
    np.testing.assert_allclose(ms.grad(lambda a: a * a)(Tensor(X)).asnumpy(), 2 * X)


class Square(_Function):
    @staticmethod
    def forward(ctx, a, k):
        ctx.save_for_backward(a)
        ctx.k = k
        return a * a * k

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return grad * 2 * a * ctx.k * 10, None


def test_function_apply_custom_backward():
    np.testing.assert_allclose(Square.apply(Tensor(X), 3).asnumpy(), REF["function"]["out"])
    for grad in (ms.grad(lambda a: Square.apply(a, 3)), ms.jit(ms.grad(lambda a: Square.apply(a, 3)))):
        np.testing.assert_allclose(grad(Tensor(X)).asnumpy(), REF["function"]["grad"])

    class NoBackward(_Function):
        @staticmethod
        def forward(ctx, a):
            return a

    with pytest.raises(NotImplementedError, match="backward function should be customized."):
        ms.grad(NoBackward.apply)(Tensor(X))


def test_saved_tensors_hooks_decorators():
    def mul(a, b):
        return a * b

    y = Tensor(np.array([2.0, 5.0], np.float32))
    want_out, (want_gx, want_gy) = REF["saved_tensors_hooks"]
    for deco in (
        ms.register_saved_tensors_hooks(lambda t: t + 1, lambda t: t * 2),
        ms.saved_tensors_hooks(lambda t: t + 1, lambda t: t * 2),
    ):
        fn = deco(mul)
        for run in (ms.value_and_grad(fn, grad_position=(0, 1)), ms.jit(ms.value_and_grad(fn, grad_position=(0, 1)))):
            out, (gx, gy) = run(Tensor(X), y)
            np.testing.assert_allclose(out.asnumpy(), want_out)
            np.testing.assert_allclose(gx.asnumpy(), want_gx)
            np.testing.assert_allclose(gy.asnumpy(), want_gy)

    # the with form: each operator inside keeps pack(input) and differentiates at unpack(kept)
    packed = []

    def pack(t):
        packed.append(t.shape)
        return t + 1

    def with_hooks(a, b):
        with ms.saved_tensors_hooks(pack, lambda t: t * 2):
            out = a * b + a
        return out.sum()

    want_v, (want_ga, want_gb) = REF["saved_tensors_hooks_with"]
    for run in (
        ms.value_and_grad(with_hooks, grad_position=(0, 1)),
        ms.jit(ms.value_and_grad(with_hooks, grad_position=(0, 1))),
    ):
        v, (ga, gb) = run(Tensor(X), y)
        np.testing.assert_allclose(v.asnumpy(), want_v)
        np.testing.assert_allclose(ga.asnumpy(), want_ga)
        np.testing.assert_allclose(gb.asnumpy(), want_gb)
    assert packed and not hasattr(ops.mul, "__wrapped__")  # packed in the forward pass; operators restored


def test_enable_dynamic():
    ref = REF["enable_dynamic"]
    assert [
        list(Tensor(shape=[None, 3], dtype=ms.float32).shape),
        list(Tensor(shape=None, dtype=ms.float32).shape),
    ] == ref["placeholder_shapes"]

    @ms.enable_dynamic(b=Tensor(shape=[None, 3], dtype=ms.float32))
    @ms.jit
    def dyn(a, b):
        return a + 1, b * 2

    a23 = Tensor(np.ones((2, 3)), ms.float32)
    np.testing.assert_allclose(dyn(a23, Tensor(np.ones((5, 3)), ms.float32))[1].asnumpy(), ref["ok"])
    np.testing.assert_allclose(dyn(a23, b=Tensor(np.ones((1, 3)), ms.float32))[1].asnumpy(), 2 * np.ones((1, 3)))
    _raises(ref["dim"], lambda: dyn(a23, Tensor(np.ones((2, 4)), ms.float32)))
    _raises(ref["rank"], lambda: dyn(a23, Tensor(np.ones((2, 3, 1)), ms.float32)))
    _raises(ref["dtype"], lambda: dyn(a23, Tensor(np.ones((2, 3)), ms.int32)))
    _raises(ref["empty"], ms.enable_dynamic)
    _raises(ref["not_tensor"], lambda: ms.enable_dynamic(b=1))
    _raises(ref["static"], lambda: ms.enable_dynamic(b=Tensor(np.ones(3), ms.float32)))
    _raises(ref["zero_dim"], lambda: ms.enable_dynamic(b=Tensor(shape=[0, None], dtype=ms.float32)))
    _raises(ref["not_function"], lambda: ms.enable_dynamic(b=Tensor(shape=None, dtype=ms.float32))(3))


def test_flops_collection_and_memory_recycle():
    dense = nn.Dense(4, 3, has_bias=False)
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        dense(Tensor(np.ones((2, 4), np.float32)))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    # a matmul only: XLA's count equals MindSpore's (2*M*N*K)
    assert list(ms.flops_collection("train")) == REF["flops_dense"]
    with pytest.raises(RuntimeError, match="no compiled program of phase 'nothing'"):
        ms.flops_collection("nothing")
    ms.ms_memory_recycle()
    with pytest.raises(RuntimeError, match="no compiled program"):
        ms.flops_collection("train")
    out = dense(Tensor(np.ones((2, 4), np.float32)))  # still runs after the caches are gone
    np.testing.assert_allclose(out.asnumpy(), np.ones((2, 4), np.float32) @ dense.weight.asnumpy().T, rtol=1e-6)


def test_flops_of_a_program_built_before_its_cell_switched_to_training():
    """The cost analysis lowers the trace made when the program was built: an eval-mode forward compiled
    before set_train(True) is not traced again with dropout on (which reads state the program never bound)."""
    from sporax.common._runtime_api import flops_of

    net = nn.SequentialCell([nn.Dense(4, 4, has_bias=False), nn.Dropout(p=0.5)])
    net.set_train(False)
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        net(Tensor(np.ones((2, 4), np.float32)))
        net.set_train(True)
        assert flops_of(net) in (2 * 2 * 4 * 4, 2 * 2 * 4 * 4 + 1)  # +1: the index-check record's update
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_set_dump(tmp_path, monkeypatch):
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc = nn.Dense(2, 2)

        def construct(self, x):
            return ops.relu(self.fc(x))

    net = Net()
    with pytest.raises(ValueError, match='The "target" parameter must be an instance of Cell or Primitive'):
        ms.set_dump(1)
    with pytest.raises(ValueError, match='The "enabled" parameter must be bool.'):
        ms.set_dump(net, 1)
    x = Tensor(np.array([[1.0, -2.0]], np.float32))
    ms.set_dump(net)
    assert net.dump and net.fc.dump
    net(x)  # no dump configured: nothing written
    assert not os.listdir(tmp_path)
    cfg = tmp_path / "dump.json"
    out_dir = tmp_path / "out"
    cfg.write_text(
        json.dumps({"common_dump_settings": {"dump_mode": 2, "path": str(out_dir), "net_name": "N", "input_output": 2}})
    )
    monkeypatch.setenv("MINDSPORE_DUMP_CONFIG", str(cfg))
    want = net(x).asnumpy()
    files = sorted(os.listdir(out_dir / "rank_0" / "N"))
    assert files == ["Dense.fc.output.0_float32_0.npy", "Net.root.output.0_float32_0.npy"]
    np.testing.assert_allclose(np.load(out_dir / "rank_0" / "N" / files[1]), want)
    ms.set_dump(net.fc, False)
    assert not net.fc.dump
    prim = ops.ReLU()
    ms.set_dump(prim)
    assert prim.attrs["dump"] == "true"


def test_untyped_storage():
    ref = REF["storage"]
    t = Tensor(np.arange(4, dtype=np.float32))
    st = t.untyped_storage()
    assert (st.nbytes(), st.size(), st.element_size(), str(st.dtype), st.is_shared()) == (
        ref["nbytes"], ref["size"], ref["element_size"], ref["dtype"], ref["shared"]
    )  # fmt: skip
    assert st.device == "CPU" and st.data_ptr() != 0
    st.resize_(0)
    assert st.nbytes() == ref["released_nbytes"] and t.shape == (4,)
    st.resize_(16)
    st.copy_(Tensor(np.array([5, 6, 7, 8], np.float32)).untyped_storage())
    # the copy is the source's bytes (MindSpore 2.10's CPU resize_ + copy_ leaves the tensor uninitialised:
    # its recorded value is not compared)
    np.testing.assert_array_equal(t.asnumpy(), [5, 6, 7, 8])
    _raises(ref["ctor"], ms.UntypedStorage)
    p = ms.Parameter(Tensor(np.ones(3, np.float32)), name="p")
    assert p.untyped_storage().nbytes() == 12 and p.storage().nbytes() == 12


def test_device_ctx():
    ref = REF["device_ctx"]

    def enter(ctx):
        with ctx:
            pass

    _raises(ref["bad_name"], lambda: enter(ms.DeviceCtx("NPU")))
    _raises(ref["bad_id"], lambda: enter(ms.DeviceCtx("CPU", -1)))
    before = ms.get_context("device_target")
    with ms.DeviceCtx("CPU", 0):
        assert ms.get_context("device_target") == "CPU"
        t = Tensor(np.ones(2, np.float32)) + 1
        assert t.untyped_storage().device == "CPU"
    assert ms.get_context("device_target") == before


def test_mindio_and_null_type():
    ref = REF["mindio"]
    assert ms.mindio_preload("x.ckpt") is ref["preload"]
    _raises(ref["preload_type"], lambda: ms.mindio_preload(1))
    _raises(ref["server_info"], lambda: ms.set_mindio_server_info(0))
    ms.set_mindio_server_info(8)
    from sporax.common import _runtime_api

    assert _runtime_api.mindio_server_info["memfs.data_block_pool_capacity_in_gb"] == "8"
    ms.set_mindio_server_info()
    assert type(ms.common.dtype._null) is ms._NullType and type(ms._NullType).__name__ != "" and ms.common._NullType
    assert repr(ms.common.dtype._null).endswith("Null")
