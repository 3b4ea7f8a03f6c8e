"""Parameter members from MindSpore's C++ tensor (references: tools/make_top_reference.py extra)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import sporax as ms
from sporax import Parameter, Tensor

REF = json.loads((Path(__file__).parent / "fixtures" / "top_extra_reference.json").read_text())["parameter"]


def _p(name="w"):
    return Parameter(Tensor(np.arange(6, dtype=np.float32).reshape(2, 3)), name=name)


def test_flags_bytes_sync():
    p = _p()
    flags = [p.const_arg, p.init_flag, p.init, p.init_finished, p.symbolic_shape, p.virtual_flag,
             p.parent_tensor_, p.index_of_parent_]  # fmt: skip
    assert flags == REF["flags"]
    assert list(p.get_bytes()) == REF["bytes"]
    out = Parameter.convert_bytes_to_tensor(np.array([1, 2], np.int32).tobytes(), (2,), ms.int32)
    assert out.dtype == ms.int32 and out.asnumpy().tolist() == REF["from_bytes"]
    assert [p.data_sync(), p.wait_pipeline()] == REF["sync"]
    assert p.offload_file_path() == REF["offload_path_before"]
    p.set_init_flag(True)
    p.set_cast_dtype(ms.float16)
    assert [p.init_flag, str(p.dtype)] == REF["after_flags"]
    info = object()
    p.set_param_info(info)
    assert p.param_info is info


def test_offload(tmp_path):
    p = _p()
    path = tmp_path / "w.bin"
    assert p.offload(str(path)) is REF["offload"]
    assert list(path.read_bytes()) == REF["offload_bytes"]
    assert p.offload_file_path() == str(path)
    np.testing.assert_array_equal(p.asnumpy(), REF["offload_value"])


def test_hooks_by_id():
    r = _p("r")
    h = r.register_hook(lambda g: g * 3)
    x = Tensor(np.ones((2, 3), np.float32))

    def f(a):
        return (a * r).sum()

    np.testing.assert_array_equal(ms.grad(f, grad_position=None, weights=[r])(x)[0].asnumpy(), REF["hook_grad"][0])
    with pytest.raises(TypeError) as info:
        r.remove_hook(h)
    assert str(info.value) == REF["remove_hook_type"]["message"]
    assert isinstance(h.id, int) and r.register_hook(lambda g: g).id == h.id + 1
    r.remove_hook(h.id)
    r.remove_hook(h.id)  # an unknown id is ignored
    np.testing.assert_array_equal(ms.grad(f, grad_position=None, weights=[r])(x)[0].asnumpy(), REF["unhooked_grad"][0])


def test_assign_set_index():
    p = _p()
    p.assign_value_cpp(Tensor(np.zeros((2, 3), np.float32)))
    np.testing.assert_array_equal(p.asnumpy(), REF["assign_value_cpp"])
    q = Parameter(Tensor(np.ones(2, np.float32)), name="q")
    assert q.set_(Tensor(np.array([3.0, 4.0, 5.0], np.float32))) is q
    np.testing.assert_array_equal(q.asnumpy(), REF["set_"])
    q.set_()
    assert list(q.shape) == REF["set_empty"]
    # PyTorch's strided form: the elements at storage_offset + i*stride0 + j*stride1
    src = np.arange(12, dtype=np.float32)
    q.set_(Tensor(src), 1, (2, 2), (3, 1))
    np.testing.assert_array_equal(q.asnumpy(), np.lib.stride_tricks.as_strided(src[1:], (2, 2), (12, 4)))
    # advanced indexing by a tuple of index Tensors (MindSpore 2.10 has it on Ascend only), against NumPy
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    r = Parameter(Tensor(a), name="r")
    np.testing.assert_array_equal(r.index((Tensor([0, 1]), Tensor([2, 0]))).asnumpy(), a[[0, 1], [2, 0]])
    np.testing.assert_array_equal(r.index((Tensor([1]),)).asnumpy(), a[[1]])
    with pytest.raises(
        TypeError, match=r"index\(\): argument 'indices' \(position 1\) must be tuple of Tensor, not int."
    ):
        r.index(0)


def test_set_device_address_needs_ascend():
    with pytest.raises(RuntimeError) as info:
        _p().set_device_address(0, (2, 3), ms.float32)
    assert str(info.value).startswith(REF["set_device_address"]["message"])
