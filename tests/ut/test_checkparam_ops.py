"""sporax._checkparam's ops forms (``_checkparam/_ops.py``): vmap's axes, HyperMap/Map's operation, per-dimension
ints, ints with a lower bound, enable_dynamic's declarations; their messages are those the ops gave before the
checks moved here (the ops' own tests pin them through the ops)."""

import re

import numpy as np
import pytest

import sporax as ms
from sporax import _checkparam as v


def _raises(cls, msg, fn, *args, **kwargs):
    with pytest.raises(cls, match="^" + re.escape(msg) + "$"):
        fn(*args, **kwargs)


def test_vmap_axes():
    assert v.check_vmap_axes((0, None, [1, {"a": None}]), "in_axes", False) == (0, None, [1, {"a": None}])
    assert v.check_vmap_axes(None, "in_axes", True) is None  # a CellList's inputs may all be unmapped
    _raises(RuntimeError, "For 'vmap', the 'in_axes' can only be of type int, None, tuple or list, but got 'a'.",
            v.check_vmap_axes, "a", "in_axes", False)  # fmt: skip
    _raises(RuntimeError, "For 'vmap', the 'out_axes' cannot be a single None while 'fn' is not a 'CellList'.",
            v.check_vmap_axes, None, "out_axes", False)  # fmt: skip
    _raises(RuntimeError, "For 'vmap', the axis in 'in_axes' should be None or an int, but got 1.5 in (0, 1.5).",
            v.check_vmap_axes, (0, 1.5), "in_axes", False)  # fmt: skip
    _raises(RuntimeError, "For 'vmap', the 'out_axes' cannot be all None while 'fn' is a 'CellList' (the outputs "
            "of its cells differ), but got (None, None).", v.check_vmap_axes, (None, None), "out_axes", True)  # fmt: skip


def test_map_fn_and_int_forms():
    assert v.check_map_fn(abs, "Map") is abs
    assert v.check_callable(abs, "fn", "PyFunc") is abs
    assert v.check_choice("ij", ("xy", "ij"), "indexing", "Meshgrid") == "ij"
    _raises(ValueError, "For 'qr', the 'mode' must be 'reduced' or 'complete', but got 'full'.", v.check_choice,
            "full", ("reduced", "complete"), "mode", "qr")  # fmt: skip
    _raises(ValueError, "For 'Tensor.take', the 'mode' must be 'raise', 'wrap' or 'clip', but got 'x'.",
            v.check_choice, "x", ("raise", "wrap", "clip"), "mode", "Tensor.take")  # fmt: skip
    _raises(TypeError, "For 'PyFunc', the 'fn' must be callable, but got int.", v.check_callable, 1, "fn", "PyFunc")
    _raises(TypeError, "For 'HyperMap', the operation must be a MultitypeFuncGraph or callable, but got int.",
            v.check_map_fn, 1, "HyperMap")  # fmt: skip
    assert v.check_positive_int_tuple(3, 2, "size", "interpolate") == (3, 3)
    assert v.check_positive_int_tuple([np.int64(2), 4], 2, "size", "interpolate") == (2, 4)
    _raises(ValueError, "For 'interpolate', the 'size' must be a positive int or a tuple of 2 positive ints, "
            "but got (0, 3).", v.check_positive_int_tuple, (0, 3), 2, "size", "interpolate")  # fmt: skip
    assert v.check_int_at_least(0, 0, "r", "combinations") == 0
    _raises(ValueError, "For 'Mvlgamma', the 'p' must be a positive int, but got '2'.",
            v.check_int_at_least, "2", 1, "p", "Mvlgamma", quote=True)  # fmt: skip
    _raises(ValueError, "For 'logspace', the 'steps' must be a non-negative int, but got True.",
            v.check_int_at_least, True, 0, "steps", "logspace")  # fmt: skip


def test_enable_dynamic_declarations():
    dyn = ms.Tensor(shape=[None, 3], dtype=ms.float32)
    fixed = ms.Tensor(np.ones((2, 3), np.float32))
    assert v.check_dynamic_decl(dyn, "x", ms.Tensor) is True
    assert v.check_dynamic_decl([fixed, (fixed, dyn)], "x", ms.Tensor) is True
    assert v.check_dynamic_decl(fixed, "x", ms.Tensor) is False
    assert v.check_dynamic_tensors((fixed, [dyn]), "x", ms.Tensor) == (fixed, [dyn])
    _raises(TypeError, "The decorator enable_dynamic only supports Tensor or a tuple/list of Tensor, but the "
            "argument : x is type of:<class 'int'>.", v.check_dynamic_tensors, (fixed, 1), "x", ms.Tensor)  # fmt: skip
    _raises(TypeError, "The decorator enable_dynamic only supports Tensor or a tuple/list of Tensor, but the "
            "argument : y is type of:<class 'str'>.", v.check_dynamic_decl, "s", "y", ms.Tensor)  # fmt: skip


def test_point_to_point_forms():
    assert v.check_comm_peer(1, 4, 0, "dst", "send") == 1
    _raises(ValueError, "For 'send', the argument 'dst' must not be the rank of this process (0).",
            v.check_comm_peer, 0, 4, 0, "dst", "send")  # fmt: skip
    _raises(ValueError, "For 'recv', the argument 'src' must be in [0, 2), but got 2.",
            v.check_comm_peer, 2, 2, 0, "src", "recv")  # fmt: skip
    assert v.check_comm_tag(0, "send") == 0
    _raises(TypeError, "For 'irecv', the argument 'tag' must be a non-negative int, but got True.",
            v.check_comm_tag, True, "irecv")  # fmt: skip


def test_group_and_strategy_forms():
    worlds = ("hccl_world_group", "nccl_world_group")
    assert v.check_comm_group("nccl_world_group", worlds, "AllReduce") == "nccl_world_group"
    _raises(TypeError, "For 'AllReduce', the 'group' must be str, but got int.", v.check_comm_group, 0, worlds,
            "AllReduce")  # fmt: skip
    _raises(ValueError, "For 'AllReduce', the group 'g1' does not exist: sporax communicates over the world group "
            "('hccl_world_group' / 'nccl_world_group') only.", v.check_comm_group, "g1", worlds, "AllReduce")  # fmt: skip

    class Layout:
        pass

    assert v.check_strategy_type(((1, 2), (2, 1)), "in_strategy", "MatMul", Layout) is False
    assert v.check_strategy_type((Layout(),), "in_strategy", "MatMul", Layout) is True
    assert v.check_strategy_type((), "in_strategy", "MatMul", Layout) is None
    _raises(TypeError, "in_strategy must be tuple type, but got:<class 'list'>", v.check_strategy_type, [(1,)],
            "in_strategy", "MatMul", Layout)  # fmt: skip
    _raises(TypeError, "The in_strategy: ((1.5,),) of MatMul is not valid, the value of strategy must be int type, "
            "but got:<class 'float'>", v.check_strategy_type, ((1.5,),), "in_strategy", "MatMul", Layout)  # fmt: skip
    _raises(TypeError, "in_strategy item must be all tuple type or all Layout type.", v.check_strategy_type,
            ((1,), Layout()), "in_strategy", "MatMul", Layout)  # fmt: skip
