"""Host arrays onto the device (``_engine.to_device``, behind ``Tensor(numpy_array)``): the result is a copy
that later writes to the NumPy array never reach, whichever path it takes (device_put for the first arrays of a
shape, the compiled conversion once a shape keeps coming back), with the array's values and dtype."""

import numpy as np
import pytest

import sporax as ms
from sporax._engine import _device


@pytest.mark.parametrize("shape", [(), (3,), (16,), (4, 5), (2, 1, 8, 8)])
def test_tensor_from_numpy_is_a_copy_on_both_paths(shape):
    seen_before = dict(_device._seen)
    try:
        for i in range(_device._COMPILE_AFTER + 3):  # past the switch to the compiled conversion
            a = np.full(shape, float(i), np.float32)
            t = ms.Tensor(a)
            a[...] = -1.0  # written right after the call: never in the Tensor
            np.testing.assert_array_equal(t.asnumpy(), np.full(shape, float(i), np.float32))
            assert t.dtype == ms.float32 and t.shape == shape
        assert _device._seen[(shape, np.dtype(np.float32))] == _device._COMPILE_AFTER
    finally:
        _device._seen.clear()
        _device._seen.update(seen_before)


def test_first_arrays_of_a_shape_compile_nothing(monkeypatch):
    calls = []
    real = _device.jax.numpy.asarray
    monkeypatch.setattr(_device.jax.numpy, "asarray", lambda *a, **k: calls.append(1) or real(*a, **k))
    shape = (7, 3, 11)  # a shape no other test uses
    _device._seen.pop((shape, np.dtype(np.int32)), None)
    for _ in range(_device._COMPILE_AFTER):
        _device.to_device(np.zeros(shape, np.int32))
    assert not calls
    out = _device.to_device(np.ones(shape, np.int32))
    assert calls and out.dtype == np.int32 and int(out.sum()) == 7 * 3 * 11


def test_dtypes_and_layouts_are_kept():
    for arr in (
        np.arange(6, dtype=np.int64).reshape(2, 3),
        np.array([True, False]),
        np.arange(12, dtype=np.float64).reshape(3, 4)[:, ::2],  # not contiguous
        np.ones((2, 2), ms.bfloat16._np),
    ):
        out = np.asarray(_device.to_device(arr))
        assert out.dtype == arr.dtype
        np.testing.assert_array_equal(out, arr)
