"""General tensor transforms (``mindspore.dataset.transforms``)."""

from __future__ import annotations

import enum
import numbers

import numpy as np

from ...common import dtype as mstype
from ..engine import _random

__all__ = [
    "TensorOperation",
    "PyTensorOperation",
    "Compose",
    "Concatenate",
    "Duplicate",
    "Fill",
    "Mask",
    "OneHot",
    "PadEnd",
    "RandomApply",
    "RandomChoice",
    "RandomOrder",
    "Relational",
    "Slice",
    "TypeCast",
    "Unique",
    "not_random",
    "Plugin",
]


def not_random(function):
    """Mark a Python function given to ``map`` as deterministic (it draws no random numbers), so the pipeline
    need not give it a per-block random state; returns ``function``."""
    function.random = False
    return function


def _np_input(x):
    """An eager input (NumPy array, Tensor, Python value) as NumPy."""
    if isinstance(x, np.ndarray):
        return x
    asnumpy = getattr(x, "asnumpy", None)
    if asnumpy is not None:
        return asnumpy()
    return np.asarray(x)


def _np_dtype(t):
    """A sporax dtype, NumPy dtype or type name -> NumPy dtype."""
    from ...common import dtype as mstype

    if isinstance(t, mstype.Type):
        return mstype.to_np(t)
    if isinstance(t, str):
        return np.dtype(t)
    return np.dtype(t)


class TensorOperation:
    """Base class of the built-in transforms. Calling one applies it eagerly to one row's value(s)."""

    #: draws random numbers
    _random = False

    def __call__(self, *args):
        if len(args) == 1:
            return self._apply(_np_input(args[0]) if not _is_pil(args[0]) else args[0])
        return self._apply_many(*args)

    def _apply(self, x):
        raise NotImplementedError

    def _apply_many(self, *args):
        raise TypeError(f"{type(self).__name__} takes one input column, but got {len(args)}.")

    def _apply_batch(self, x: np.ndarray):
        """Apply to a stack of rows ``x[i]`` at once, or return ``NotImplemented``."""
        return NotImplemented

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


PyTensorOperation = TensorOperation


def _is_pil(x) -> bool:
    return type(x).__module__.startswith("PIL.")


class TypeCast(TensorOperation):
    """Cast to ``data_type`` (a sporax dtype such as ``mstype.int32``, or a NumPy dtype).

    Args:
        data_type (Union[mindspore.dtype, numpy.dtype]): the target type.
    """

    def __init__(self, data_type) -> None:
        self.data_type = data_type
        self._np = _np_dtype(data_type)

    def _apply(self, x):
        return np.asarray(x).astype(self._np)

    def _apply_batch(self, x):
        return x.astype(self._np)


class OneHot(TensorOperation):
    """One-hot encode integer labels into ``num_classes`` columns (with ``smoothing_rate`` label smoothing).

    Args:
        num_classes (int): number of classes.
        smoothing_rate (float, optional): label smoothing. Default: 0.0.
    """

    def __init__(self, num_classes, smoothing_rate=0.0) -> None:
        if not isinstance(num_classes, numbers.Integral) or num_classes <= 0:
            raise ValueError(f"num_classes must be a positive integer, but got {num_classes}.")
        if not 0.0 <= smoothing_rate <= 1.0:
            raise ValueError(f"smoothing_rate must be in [0, 1], but got {smoothing_rate}.")
        self.num_classes = int(num_classes)
        self.smoothing_rate = float(smoothing_rate)

    def _apply(self, x):
        x = np.asarray(x)
        if x.dtype.kind not in "iu":
            raise RuntimeError(f"OneHot: the input should be of integer type, but got {x.dtype}.")
        if x.ndim > 1:
            raise RuntimeError(f"OneHot: the input should be a scalar or 1-D, but got shape {x.shape}.")
        if ((x < 0) | (x >= self.num_classes)).any():
            raise RuntimeError(f"OneHot: a label is out of range [0, {self.num_classes}).")
        out = (np.arange(self.num_classes) == x[..., None]).astype(x.dtype)
        if self.smoothing_rate:
            out = out.astype(np.float32) * (1 - self.smoothing_rate) + self.smoothing_rate / self.num_classes
        return out


class Fill(TensorOperation):
    """Fill the input with ``fill_value`` (same shape and type).

    Args:
        fill_value (Union[str, bytes, int, float, bool]): the value.
    """

    def __init__(self, fill_value) -> None:
        self.fill_value = fill_value

    def _apply(self, x):
        x = np.asarray(x)
        return np.full_like(x, self.fill_value)

    def _apply_batch(self, x):
        return np.full_like(x, self.fill_value)


class Concatenate(TensorOperation):
    """Concatenate a 1-D input with ``prepend`` and ``append`` along ``axis``.

    Args:
        axis (int, optional): the axis. Default: 0.
        prepend (numpy.ndarray, optional): before. Default: ``None``.
        append (numpy.ndarray, optional): after. Default: ``None``.
    """

    def __init__(self, axis=0, prepend=None, append=None) -> None:
        self.axis = axis
        self.prepend = None if prepend is None else np.asarray(prepend)
        self.append = None if append is None else np.asarray(append)

    def _apply(self, x):
        return self._apply_many(x)

    def _apply_many(self, *xs):
        parts = (
            ([self.prepend] if self.prepend is not None else [])
            + [_np_input(x) for x in xs]
            + ([self.append] if self.append is not None else [])
        )
        return np.concatenate(parts, axis=self.axis)


class Duplicate(TensorOperation):
    """Output the input twice (two columns): ``map(Duplicate(), ["x"], ["x", "y"])``."""

    def _apply(self, x):
        return x, np.array(x, copy=True)


class Relational(enum.IntEnum):
    """Comparison of :class:`Mask`."""

    EQ = 0
    NE = 1
    GT = 2
    GE = 3
    LT = 4
    LE = 5


_REL = {
    Relational.EQ: np.equal,
    Relational.NE: np.not_equal,
    Relational.GT: np.greater,
    Relational.GE: np.greater_equal,
    Relational.LT: np.less,
    Relational.LE: np.less_equal,
}


class Mask(TensorOperation):
    """``operator(x, constant)`` element-wise, as ``dtype`` (default bool).

    Args:
        operator (Relational): the comparison.
        constant (Union[str, int, float, bool]): the other operand.
        dtype (mindspore.dtype, optional): output type. Default: ``mstype.bool_``.
    """

    def __init__(self, operator, constant, dtype=mstype.bool_) -> None:
        self.operator = Relational(operator)
        self.constant = constant
        self._np = np.dtype(np.bool_) if dtype is None else _np_dtype(dtype)

    def _apply(self, x):
        return _REL[self.operator](np.asarray(x), self.constant).astype(self._np)

    def _apply_batch(self, x):
        return _REL[self.operator](x, self.constant).astype(self._np)


class Slice(TensorOperation):
    """Slice the input: ``Slice(slice(1, 3))``, ``Slice([0, 2])``, ``Slice(1)``, one argument per dimension.

    Args:
        *slices (Union[int, list[int], slice, None, Ellipsis]): per-dimension selection.
    """

    def __init__(self, *slices) -> None:
        self.slices = slices

    def _apply(self, x):
        x = np.asarray(x)
        idx = []
        for s in self.slices:
            if s is None:
                idx.append(slice(None))
            elif isinstance(s, numbers.Integral):
                idx.append([int(s)])
            elif isinstance(s, (list, tuple)):
                idx.append(list(s))
            else:
                idx.append(s)
        out = x
        for d, s in enumerate(idx):
            if s is Ellipsis:
                break
            out = out[(slice(None),) * d + (s,)]
        return out


class PadEnd(TensorOperation):
    """Pad the end of each dimension to ``pad_shape`` with ``pad_value``.

    Args:
        pad_shape (list[int]): target shape (``None`` keeps a dimension).
        pad_value (Union[str, bytes, int, float, bool], optional): the value. Default: 0.
    """

    def __init__(self, pad_shape, pad_value=None) -> None:
        self.pad_shape = list(pad_shape)
        self.pad_value = 0 if pad_value is None else pad_value

    def _apply(self, x):
        x = np.asarray(x)
        if len(self.pad_shape) != x.ndim:
            raise RuntimeError(f"PadEnd: pad_shape {self.pad_shape} does not match the input rank {x.ndim}.")
        shape = [x.shape[d] if s is None else s for d, s in enumerate(self.pad_shape)]
        out = np.full(shape, self.pad_value, dtype=x.dtype)
        sl = tuple(slice(0, min(a, b)) for a, b in zip(x.shape, shape))
        out[sl] = x[sl]
        return out


class Unique(TensorOperation):
    """The unique values of a 1-D input, the index of each input element in them, and their counts."""

    def _apply(self, x):
        x = np.asarray(x)
        if x.ndim != 1:
            raise RuntimeError(f"Unique: the input must be 1-D, but got shape {x.shape}.")
        vals, first, inv, counts = np.unique(x, return_index=True, return_inverse=True, return_counts=True)
        order = np.argsort(first, kind="stable")
        rank = np.empty_like(order)
        rank[order] = np.arange(len(order))
        return vals[order], rank[inv].astype(np.int32), counts[order].astype(np.int32)


def _call_chain(ops, args):
    for op in ops:
        r = op(*args)
        args = r if isinstance(r, tuple) else (r,)
    return args[0] if len(args) == 1 else args


class Compose(TensorOperation):
    """Apply ``transforms`` in sequence, as one operation.

    Args:
        transforms (list): transforms or callables.
    """

    def __init__(self, transforms) -> None:
        if not isinstance(transforms, (list, tuple)) or not transforms:
            raise TypeError("transforms must be a non-empty list of callables.")
        self.transforms = list(transforms)
        self._random = any(getattr(t, "_random", False) or not isinstance(t, TensorOperation) for t in self.transforms)

    def __call__(self, *args):
        return _call_chain(self.transforms, args)

    def _apply_batch(self, x):
        for t in self.transforms:
            if not isinstance(t, TensorOperation):
                return NotImplemented
        out = x
        for t in self.transforms:
            out = t._apply_batch(out)
            if out is NotImplemented:
                return NotImplemented
        return out

    @staticmethod
    def reduce(operations):
        return operations


class RandomApply(TensorOperation):
    """Apply ``transforms`` in sequence with probability ``prob``.

    Args:
        transforms (list): the transforms.
        prob (float, optional): probability. Default: 0.5.
    """

    _random = True

    def __init__(self, transforms, prob=0.5) -> None:
        if not 0.0 <= prob <= 1.0:
            raise ValueError(f"prob must be in [0, 1], but got {prob}.")
        self.transforms = list(transforms)
        self.prob = prob

    def __call__(self, *args):
        if _random.rng().random() < self.prob:
            return _call_chain(self.transforms, args)
        return args[0] if len(args) == 1 else args


class RandomChoice(TensorOperation):
    """Apply one of ``transforms``, picked uniformly at random."""

    _random = True

    def __init__(self, transforms) -> None:
        self.transforms = list(transforms)
        if not self.transforms:
            raise ValueError("transforms must not be empty.")

    def __call__(self, *args):
        t = self.transforms[int(_random.rng().integers(len(self.transforms)))]
        return _call_chain([t], args)


class RandomOrder(TensorOperation):
    """Apply all ``transforms``, in a random order."""

    _random = True

    def __init__(self, transforms) -> None:
        self.transforms = list(transforms)

    def __call__(self, *args):
        order = _random.rng().permutation(len(self.transforms))
        return _call_chain([self.transforms[i] for i in order], args)


class Plugin(TensorOperation):
    """Run a function of a native plugin library (MindSpore's ``.so`` plugins): ``lib_path`` must name a Python
    module file defining ``func_name``, called with each row's columns (sporax has no C++ plugin ABI).

    Args:
        lib_path (str): path of the module file.
        func_name (str): the function.
        user_args (str, optional): handed to the function as a keyword ``user_args``. Default: ``None``.
    """

    def __init__(self, lib_path, func_name, user_args=None) -> None:
        import importlib.util
        import os

        if not isinstance(lib_path, str) or not os.path.isfile(lib_path):
            raise ValueError(f"Invalid file path, {lib_path} does not exist.")
        if not isinstance(func_name, str) or not func_name:
            raise TypeError("func_name should be a non-empty str.")
        self.lib_path, self.func_name, self.user_args = lib_path, func_name, user_args
        spec = importlib.util.spec_from_file_location("_sporax_plugin", lib_path)
        if spec is None or spec.loader is None:
            raise RuntimeError(f"Plugin: {lib_path} is not a loadable Python module (C++ plugins are not supported).")
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        self._fn = getattr(mod, func_name)

    def __call__(self, *args):
        return self._fn(*args) if self.user_args is None else self._fn(*args, user_args=self.user_args)
