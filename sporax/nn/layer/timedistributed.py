"""TimeDistributed: apply a layer to every time step of a sequence tensor."""

from __future__ import annotations

from typing import Any

from ... import _checkparam as validator
from ... import ops
from ...common.tensor import Tensor
from ...ops.operations import Primitive
from ..cell import Cell

__all__ = ["TimeDistributed"]


def _perm(axis_a: int, axis_b: int, length: int) -> tuple[int, ...]:
    perm = tuple(range(length))
    axis_a, axis_b = (axis_a, axis_b) if axis_a < axis_b else (axis_b, axis_a)
    return perm[:axis_a] + (perm[axis_b],) + perm[axis_a:axis_b] + perm[axis_b + 1 :]


class TimeDistributed(Cell):
    """Apply ``layer`` to each slice of the input along ``time_axis``. With ``reshape_with_axis`` the time axis
    is folded into that axis and ``layer`` runs once on the folded tensor (then unfolded); without it, the
    layer runs once per time step and the results are stacked (MindSpore's semantics).

    Args:
        layer (Union[Cell, Primitive]): the layer.
        time_axis (int): the time axis of the input.
        reshape_with_axis (int, optional): the axis the time axis is folded into. Default None.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> net = ms.nn.TimeDistributed(ms.nn.Dense(3, 6), time_axis=1, reshape_with_axis=0)
        >>> net(ms.Tensor(np.ones([32, 10, 3], np.float32))).shape
        (32, 10, 6)
    """

    def __init__(self, layer: Any, time_axis: int, reshape_with_axis: int | None = None) -> None:
        if not isinstance(layer, (Cell, Primitive)):
            raise TypeError(
                f"For '{type(self).__name__}', the 'layer' must be Cell or Primitive instance, but got type: "
                f"{type(layer).__name__}."
            )
        super().__init__()
        validator.check_is_int(time_axis, "time_axis", self.cls_name)
        if reshape_with_axis is not None:
            validator.check_is_int(reshape_with_axis, "reshape_with_axis", self.cls_name)
        self.layer = layer
        self.time_axis = time_axis
        self.reshape_with_axis = reshape_with_axis

    def construct(self, inputs: Tensor) -> Tensor:
        name = self.cls_name
        validator.check_tensor_io(inputs, Tensor, self.cls_name)
        nd = inputs.ndim
        if nd < 3:
            raise ValueError(f"For '{name}', the inputs shape must be at least 3D, but got {nd}.")
        time_axis = self.time_axis % nd
        if self.reshape_with_axis is not None:
            rw = self.reshape_with_axis % nd
            shape = inputs.shape
            time_axis_new = nd - 2 if rw == nd - 1 else (rw + 1 if time_axis > rw else rw - 1)
            pos = time_axis_new if time_axis_new < rw else rw
            x = ops.transpose(inputs, _perm(time_axis_new, time_axis, nd))
            new_shape = x.shape
            x = ops.reshape(x, new_shape[:pos] + (-1,) + new_shape[pos + 2 :])
            out = self.layer(x)
            validator.check_tensor_io(out, Tensor, self.cls_name)
            if pos >= out.ndim or x.shape[pos] != out.shape[pos]:
                raise ValueError(
                    f"For '{name}', the 'reshape_with_axis' is invalid in the input and output. The 'reshape_pos' "
                    "must be less than the length of 'outputs_shape', and the 'inputs_shape[reshape_pos]' must be "
                    f"equal to 'outputs_shape[reshape_pos]', but got 'reshape_pos': {pos}, 'inputs_shape': "
                    f"{x.shape}, 'outputs_shape': {out.shape}. You may try pass parameters without "
                    "'reshape_with_axis'."
                )
            out_shape = out.shape[:pos] + new_shape[pos : pos + 2]
            if pos + 1 < out.ndim:
                out_shape += out.shape[pos + 1 :]
            del shape
            return ops.reshape(out, (-1,) + out_shape[1:])
        ys = []
        for item in ops.unstack(inputs, time_axis):
            out = self.layer(item)
            validator.check_tensor_io(out, Tensor, self.cls_name)
            if time_axis > out.ndim:
                raise ValueError(
                    f"For '{name}', the value of 'time_axis' must be in range of [{-out.ndim - 1}, {out.ndim}], "
                    f"but got {time_axis}."
                )
            ys.append(out)
        return ops.stack(ys, time_axis)
