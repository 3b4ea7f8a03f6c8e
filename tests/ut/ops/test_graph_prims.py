"""MindSpore's graph-syntax primitives (``F.tuple_getitem``, ``F.make_range``, ``F.typeof``, ``F.hastype``...)
as the Python operations they stand for. Expected values are MindSpore 2.10's where its PyNative runs them
(quoted); those it only runs inside graphs (``bool_and``, ``string_eq``...) are checked against Python."""

import numpy as np

import sporax as ms
from sporax import ops
from sporax.ops import functional as F

T = ms.Tensor(np.ones(2, np.float32))


def test_sequences_and_dicts():
    # MindSpore 2.10: (1, 9, 3) [5, 2] True (3, 2, 1) 2 (0, 1, 2) (1, 3) slice(1, 5, 2) (2, 2)
    assert F.tuple_setitem((1, 2, 3), 1, 9) == (1, 9, 3) and F.list_setitem([1, 2], 0, 5) == [5, 2]
    assert F.tuple_equal((1, 2), (1, 2)) and F.tuple_reversed((1, 2, 3)) == (3, 2, 1) and F.list_len([1, 2]) == 2
    assert F.make_range(3) == (0, 1, 2) and F.make_range(1, 5, 2) == (1, 3) and F.make_slice(1, 5, 2) == slice(1, 5, 2)
    assert F.tuple_div((4, 6), (2, 3)) == (2, 2)
    assert F.tuple_len((1, 2, 3)) == 3 and F.tuple_getitem((1, 2, 3), 1) == 2 and F.list_getitem([1, 2], 0) == 1
    assert F.make_tuple(1, 2) == (1, 2) and F.make_list(1, 2) == [1, 2] and not F.list_equal([1], [2])
    d = {"a": 1}
    assert F.dict_getitem(d, "a") == 1 and F.in_dict("a", d) and not F.not_in_dict("a", d)
    assert F.dict_setitem(d, "b", 2) == {"a": 1, "b": 2} and d == {"a": 1}
    assert F.make_dict(("a", "b"), (1, 2)) == {"a": 1, "b": 2}
    assert ops.tuple_getitem is F.tuple_getitem and ops.make_range is F.make_range


def test_scalars_strings_identity_switch():
    assert F.bool_and(True, False) is False and F.bool_or(True, False) is True and F.bool_not(True) is False
    assert F.bool_eq(True, True) and F.string_eq("a", "a") and F.string_concat("a", "b") == "ab"
    assert F.scalar_ne(1, 2) and F.is_(None, None) and F.is_not(1, None)  # MindSpore 2.10: True True
    assert F.switch(True, 1, 2) == 1 and F.switch(False, 1, 2) == 2  # MindSpore 2.10: 1


def test_typeof_hastype():
    # MindSpore 2.10: typeof(Tensor) mindspore.tensor[float32], 1 mindspore.int64, 1.5 mindspore.float32,
    # True mindspore.bool, (1, 2) Tuple, [1] List, 'x' mindspore.string_, None mindspore.type_none
    assert repr(F.typeof(T)) == "mindspore.tensor[float32]" and str(F.typeof(T)) == "Tensor[Float32]"
    assert F.typeof(1) is ms.int64 and F.typeof(1.5) is ms.float32 and F.typeof(True) is ms.bool_
    assert F.typeof((1, 2)) is ms.tuple_ and F.typeof([1]) is ms.list_
    assert F.typeof("x") is ms.string and F.typeof(None) is ms.type_none
    # MindSpore 2.10: hastype(t, tensor_type) True, hastype(1, int64) True, hastype(1, number) True,
    # hastype((1, 2), tuple_) True, hastype(1.0, float32) True, hastype(t, float32) False
    assert F.hastype(T, ms.tensor_type) and F.hastype(1, ms.int64) and F.hastype(1, ms.number)
    assert F.hastype((1, 2), ms.tuple_) and F.hastype(1.0, ms.float32) and not F.hastype(T, ms.float32)


def test_broadcast_gradient_args_and_stop_gradient_():
    assert F.broadcast_gradient_args((2, 1, 3), (4, 3)) == ((1,), (0,))  # MindSpore 2.10
    assert F.broadcast_gradient_args((3,), (3,)) == ((), ())
    x = ms.Tensor(np.array([1.0, 2.0], np.float32))

    def f(a):
        b = a * 2
        assert F.stop_gradient_(b) is None  # in place, returns None (MindSpore 2.10)
        return (b * a).sum()

    np.testing.assert_array_equal(ms.grad(f)(x).asnumpy(), [2.0, 4.0])  # b is a constant: d(b*a)/da = b
