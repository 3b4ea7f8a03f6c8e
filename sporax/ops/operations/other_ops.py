"""Operator classes of MindSpore's ``other_ops``/``control_ops``/embedding-cache families that have a meaning on
XLA (``ops.GeSwitch()``, ``ops.Merge()``, ``ops.PyFunc(...)``, ``ops.Morph(...)``, ``ops.ReshapeAndCache()``,
candidate samplers...). Each delegates to :mod:`..function.other_func`."""

from __future__ import annotations

from typing import Any

from ... import _checkparam as validator
from ..._checkparam import check_bool
from ..._engine import custom_vjp_call
from .. import function as F
from .._utils import check_int
from ..function import other_func as O
from ..function import patch_func as P
from ._primitive import Primitive
from .math_ops import _set_attrs

__all__ = [
    "GeSwitch",
    "Merge",
    "Reusing",
    "PyFunc",
    "Morph",
    "ReshapeAndCache",
    "DropoutGenMask",
    "DropoutDoMask",
    "SubAndFilter",
    "MapUniform",
    "UniformCandidateSampler",
    "LogUniformCandidateSampler",
]


class GeSwitch(Primitive):
    """``GeSwitch()(data, pred)`` -> ``(false_output, true_output)`` (eager only)."""

    def __call__(self, data: Any, pred: Any) -> Any:
        return O.geswitch(data, pred)


class Merge(Primitive):
    """``Merge()(inputs)`` -> ``(data, output_index)``: the live branch of a :class:`GeSwitch`."""

    def __call__(self, *args: Any) -> Any:
        return O.merge(*args)


class Reusing(Primitive):
    """``Reusing()(fn)``: ``fn`` itself (a hint not to inline it; XLA decides inlining)."""

    def __call__(self, input_x: Any) -> Any:
        if not callable(input_x):
            raise TypeError(f"For 'Reusing', the input must be a function, but got {type(input_x).__name__}.")
        return input_x


class PyFunc(Primitive):
    """``PyFunc(fn, in_types, in_shapes, out_types, out_shapes, stateful=True)(*inputs)``: ``fn`` on NumPy
    arrays, run on the host (inside compiled code through a host callback)."""

    def __init__(
        self, fn: Any, in_types: Any, in_shapes: Any, out_types: Any, out_shapes: Any, stateful: bool = True
    ) -> None:
        super().__init__()
        validator.check_callable(fn, "fn", "PyFunc")
        if len(out_types) != len(out_shapes):
            raise ValueError("For 'PyFunc', 'out_types' and 'out_shapes' must have the same length.")
        _set_attrs(
            self,
            fn=fn,
            in_types=list(in_types),
            in_shapes=[list(s) for s in in_shapes],
            out_types=list(out_types),
            out_shapes=[list(s) for s in out_shapes],
            stateful=check_bool(stateful, "stateful", self.name),
        )

    def __call__(self, *inputs: Any) -> Any:
        return O.py_func(self.fn, inputs, self.out_types, self.out_shapes)


class Morph(Primitive):
    """``Morph(fn, infer_shape, infer_dtype, bprop_fn=None)(*args)``: ``fn(*args)``, differentiated through
    ``bprop_fn(*args, out, dout)`` when given (the shape/dtype inference functions are not needed on XLA)."""

    def __init__(self, fn: Any, infer_shape: Any, infer_dtype: Any, bprop_fn: Any = None) -> None:
        super().__init__()
        validator.check_callable(fn, "fn", "Morph")
        _set_attrs(self, fn=fn, infer_shape=infer_shape, infer_dtype=infer_dtype, bprop_fn=bprop_fn)

    def __call__(self, *args: Any) -> Any:
        if self.bprop_fn is None:
            return self.fn(*args)
        return custom_vjp_call(self.fn, lambda a, out, dout: self.bprop_fn(*a, out, dout), args, [])


class ReshapeAndCache(Primitive):
    """``ReshapeAndCache()(key, value, key_cache, value_cache, slot_mapping)``: write tokens into paged KV caches."""

    def __call__(self, key: Any, value: Any, key_cache: Any, value_cache: Any, slot_mapping: Any) -> Any:
        return O.reshape_and_cache(key, value, key_cache, value_cache, slot_mapping)


class DropoutGenMask(Primitive):
    """``DropoutGenMask(Seed0=0, Seed1=0)(shape, keep_prob)``: a bit mask for :class:`DropoutDoMask`."""

    def __init__(self, Seed0: int = 0, Seed1: int = 0) -> None:  # noqa: N803  (MindSpore's names)
        super().__init__()
        _set_attrs(self, Seed0=check_int(Seed0, "Seed0", self.name), Seed1=check_int(Seed1, "Seed1", self.name))

    def __call__(self, shape: Any, keep_prob: Any) -> Any:
        seed = self.Seed0 * 1000003 + self.Seed1 + 1 if (self.Seed0 or self.Seed1) else None
        return O.dropout_gen_mask(shape, keep_prob, seed)


class DropoutDoMask(Primitive):
    """``DropoutDoMask()(input_x, mask, keep_prob)``: ``input_x * bit / keep_prob``."""

    def __call__(self, input_x: Any, mask: Any, keep_prob: Any) -> Any:
        return O.dropout_do_mask(input_x, mask, keep_prob)


class SubAndFilter(Primitive):
    """``SubAndFilter()(input_x, max_num, offset)`` -> ``(filter_res, filter_idx)`` (eager only)."""

    def __call__(self, input_x: Any, max_num: int, offset: int) -> Any:
        return O.sub_and_filter(input_x, max_num, offset)


class MapUniform(Primitive):
    """``MapUniform()(input, per_group_size, group_num)``."""

    def __call__(self, input: Any, per_group_size: int, group_num: int) -> Any:
        return O.map_uniform(input, per_group_size, group_num)


class UniformCandidateSampler(Primitive):
    """``UniformCandidateSampler(num_true, num_sampled, unique, range_max, seed=0,
    remove_accidental_hits=False)(true_classes)``."""

    def __init__(
        self,
        num_true: int,
        num_sampled: int,
        unique: bool,
        range_max: int,
        seed: int = 0,
        remove_accidental_hits: bool = False,
    ) -> None:
        super().__init__()
        _set_attrs(
            self,
            num_true=check_int(num_true, "num_true", self.name, 1),
            num_sampled=check_int(num_sampled, "num_sampled", self.name, 1),
            unique=check_bool(unique, "unique", self.name),
            range_max=check_int(range_max, "range_max", self.name, 1),
            seed=check_int(seed, "seed", self.name, 0),
            remove_accidental_hits=check_bool(remove_accidental_hits, "remove_accidental_hits", self.name),
        )

    def __call__(self, true_classes: Any) -> Any:
        return O.uniform_candidate_sampler(
            true_classes,
            self.num_true,
            self.num_sampled,
            self.unique,
            self.range_max,
            self.seed,
            self.remove_accidental_hits,
        )


class LogUniformCandidateSampler(Primitive):
    """``LogUniformCandidateSampler(num_true=1, num_sampled=5, unique=True, range_max=5, seed=0)(true_classes)``."""

    def __init__(
        self, num_true: int = 1, num_sampled: int = 5, unique: bool = True, range_max: int = 5, seed: int = 0
    ) -> None:
        super().__init__()
        _set_attrs(
            self,
            num_true=check_int(num_true, "num_true", self.name, 1),
            num_sampled=check_int(num_sampled, "num_sampled", self.name, 1),
            unique=check_bool(unique, "unique", self.name),
            range_max=check_int(range_max, "range_max", self.name, 1),
            seed=check_int(seed, "seed", self.name, 0),
        )

    def __call__(self, true_classes: Any) -> Any:
        return O.log_uniform_candidate_sampler(
            true_classes, self.num_true, self.num_sampled, self.unique, self.range_max, self.seed
        )


class Im2Col(Primitive):
    """``Im2Col(ksizes, strides=1, dilations=1, pads=0)(x)``: patches as ``(N, C, kh*kw, L)``."""

    def __init__(self, ksizes: Any, strides: Any = 1, dilations: Any = 1, pads: Any = 0) -> None:
        super().__init__()
        _set_attrs(self, ksizes=ksizes, strides=strides, dilations=dilations, pads=pads)

    def __call__(self, x: Any) -> Any:
        cols = P.unfold(x, self.ksizes, self.dilations, self.pads, self.strides)
        n, c = x.shape[0], x.shape[1]
        return cols.reshape((n, c, cols.shape[1] // c, cols.shape[2]))


class Col2Im(Primitive):
    """``Col2Im(kernel_size, dilation=1, padding=0, stride=1)(x, output_size)``: the adjoint of :class:`Im2Col`."""

    def __init__(self, kernel_size: Any, dilation: Any = 1, padding: Any = 0, stride: Any = 1) -> None:
        super().__init__()
        _set_attrs(self, kernel_size=kernel_size, dilation=dilation, padding=padding, stride=stride)

    def __call__(self, x: Any, output_size: Any) -> Any:
        return P.fold(x, output_size, self.kernel_size, self.dilation, self.padding, self.stride)


class AffineGrid(Primitive):
    """``AffineGrid(align_corners=False)(theta, output_size)``."""

    def __init__(self, align_corners: bool = False) -> None:
        super().__init__()
        _set_attrs(self, align_corners=check_bool(align_corners, "align_corners", self.name))

    def __call__(self, theta: Any, output_size: Any) -> Any:
        return P.affine_grid(theta, output_size, self.align_corners)


class CeLU(Primitive):
    """``CeLU(alpha=1.0)(input_x)``: ``max(0, x) + min(0, alpha * (exp(x / alpha) - 1))``."""

    def __init__(self, alpha: float = 1.0) -> None:
        super().__init__()
        if isinstance(alpha, bool) or not isinstance(alpha, (int, float)) or alpha == 0:
            raise ValueError(f"For 'CeLU', the 'alpha' must be a non-zero float, but got {alpha!r}.")
        _set_attrs(self, alpha=float(alpha))

    def __call__(self, input_x: Any) -> Any:
        return F.celu(input_x, self.alpha)


__all__ += ["Im2Col", "Col2Im", "AffineGrid", "CeLU"]


class ExtractVolumePatches(Primitive):
    """``ExtractVolumePatches(kernel_size, strides, padding)(input_x)``: NCDHW patches."""

    def __init__(self, kernel_size: Any, strides: Any, padding: str) -> None:
        super().__init__()
        _set_attrs(self, kernel_size=tuple(kernel_size), strides=tuple(strides), padding=padding)

    def __call__(self, input_x: Any) -> Any:
        return P.extract_volume_patches(input_x, self.kernel_size, self.strides, self.padding)


class ConfusionMatrix(Primitive):
    """``ConfusionMatrix(num_classes, dtype='int32')(labels, predictions, weights=None)``."""

    def __init__(self, num_classes: int, dtype: str = "int32") -> None:
        super().__init__()
        _set_attrs(self, num_classes=check_int(num_classes, "num_classes", self.name, 1), dtype=dtype)

    def __call__(self, labels: Any, predictions: Any, weights: Any = None) -> Any:
        import numpy as np

        return P.confusion_matrix(labels, predictions, self.num_classes, weights, np.dtype(self.dtype))


__all__ += ["ExtractVolumePatches", "ConfusionMatrix"]


class EditDistance(Primitive):
    """``EditDistance(normalize=True)(hypothesis_indices, hypothesis_values, hypothesis_shape, truth_indices,
    truth_values, truth_shape)``: Levenshtein distances of sparse sequences (eager only)."""

    def __init__(self, normalize: bool = True) -> None:
        super().__init__()
        _set_attrs(self, normalize=check_bool(normalize, "normalize", self.name))

    def __call__(
        self,
        hypothesis_indices: Any,
        hypothesis_values: Any,
        hypothesis_shape: Any,
        truth_indices: Any,
        truth_values: Any,
        truth_shape: Any,
    ) -> Any:
        return O.edit_distance(
            hypothesis_indices,
            hypothesis_values,
            hypothesis_shape,
            truth_indices,
            truth_values,
            truth_shape,
            self.normalize,
        )


__all__ += ["EditDistance"]
