"""Mixed precision: ``auto_mixed_precision``, ``custom_mixed_precision``, ``build_train_network``, the white and
black lists.

Levels, as MindSpore defines them:

- ``O0``: nothing changes.
- ``O1``: cells and primitives of the white list (Dense, convolutions, MatMul ...) compute in the low
  precision type; their outputs are cast back to float32.
- ``O2``: the network computes in the low precision type except the cells of the black list (BatchNorm,
  LayerNorm), which stay float32; the output is float32. ``build_train_network`` adds dynamic loss
  scaling (on every backend: sporax's loss-scale cell runs on CPU too).
- ``O3``: the whole network in the low precision type; no loss scaling.
- ``auto``: per operator (:mod:`._auto`): MatMul, Conv, Dense ... compute in the low precision type, Exp,
  Log, Softmax, the norms, sums and losses in float32, the rest in its inputs' type.

Low precision (O1-O3) is ``Cell.to_float``: float inputs and float Parameters are cast inside the cell, so the
Parameters themselves stay float32 (master weights) and their gradients are float32.
"""

from __future__ import annotations

import inspect
import logging
from typing import Any

from .. import _checkparam as validator
from .. import boost, nn, ops
from ..common import dtype as mstype
from ..ops.composite._multitype import mixed_precision_cast as _mixed_precision_cast
from ..ops.operations._primitive import Primitive
from ._auto import amp_auto
from ._loss_scale_manager import DynamicLossScaleManager, LossScaleManager

__all__ = ["auto_mixed_precision", "custom_mixed_precision", "build_train_network", "get_white_list", "get_black_list"]

_log = logging.getLogger("sporax")


def _existing(module: Any, names: list[str]) -> list[type]:
    # vars(), not hasattr: a missing name would run nn's lazy __getattr__ (which loads train.metrics)
    found = vars(module)
    return [found[n] for n in names if n in found]


AMP_WHITE_LIST: list[type] = _existing(
    nn,
    [
        "Conv1d",
        "Conv2d",
        "Conv3d",
        "Conv1dTranspose",
        "Conv2dTranspose",
        "Conv3dTranspose",
        "Dense",
        "LSTMCell",
        "RNNCell",
        "GRUCell",
    ],
) + _existing(
    ops,
    [
        "Conv2D",
        "Conv3D",
        "Conv2DTranspose",
        "Conv3DTranspose",
        "Conv2DBackpropInput",
        "MatMul",
        "BatchMatMul",
        "PReLU",
        "ReLU",
        "Ger",
    ],
)

AMP_BLACK_LIST: list[type] = _existing(nn, ["BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "LayerNorm"])


# ------------------------------------------------------------------ helpers
class _AmpWrapper(nn.Cell):
    """A wrapper cell that keeps its backbone's parameter names and forwards unknown attributes to it."""

    def __init__(self, backbone: nn.Cell) -> None:
        super().__init__(auto_prefix=False)
        self._backbone = backbone

    def __getattr__(self, name: str) -> Any:
        backbone = self.__dict__.get("_backbone")
        if backbone is None or name.startswith("__"):
            raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")
        return getattr(backbone, name)


class _OutputTo16(_AmpWrapper):
    """Runs the backbone and casts its output to the low precision type (float16 or bfloat16)."""

    def __init__(self, backbone: nn.Cell, dtype: Any = mstype.float16) -> None:
        super().__init__(backbone)
        self.dtype = dtype

    def construct(self, *args: Any, **kwargs: Any) -> Any:
        return _mixed_precision_cast(self.dtype, self._backbone(*args, **kwargs))


class _OutputTo32(_AmpWrapper):
    """Runs the backbone and casts its output back to float32."""

    def construct(self, *args: Any, **kwargs: Any) -> Any:
        return _mixed_precision_cast(mstype.float32, self._backbone(*args, **kwargs))


class _CastPrimitive(Primitive):
    """A white-listed primitive computing in the low precision type, its output cast back to float32."""

    def __init__(self, prim: Primitive, dtype: Any) -> None:
        super().__init__(getattr(prim, "name", type(prim).__name__))
        self.prim = prim
        self.dtype = dtype

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        args = tuple(_mixed_precision_cast(self.dtype, a) for a in args)
        return _mixed_precision_cast(mstype.float32, self.prim(*args, **kwargs))

    def __getattr__(self, name: str) -> Any:
        prim = self.__dict__.get("prim")
        if prim is None or name.startswith("__"):
            raise AttributeError(f"'_CastPrimitive' object has no attribute '{name}'")
        return getattr(prim, name)


def _replace_child(parent: nn.Cell, name: str, new: nn.Cell) -> None:
    """Put ``new`` where the child cell ``name`` of ``parent`` was (parameter names are unchanged)."""
    parent.__dict__["_cells"][name] = new
    if name in parent.__dict__:
        object.__setattr__(parent, name, new)
    if "_order" in parent.__dict__:  # SequentialCell
        parent.__dict__["_order"] = list(parent._cells.values())


def _precision_set_by_user(cell: nn.Cell) -> bool:
    return cell.__dict__.get("_mixed_dtype") is not None


def _cast_white_list(network: nn.Cell, white_list: list[type], dtype: Any) -> nn.Cell:
    """Cells and primitives of ``white_list`` in ``network`` compute in ``dtype``, outputs in float32."""
    cell_types = tuple(t for t in white_list if issubclass(t, nn.Cell))
    if cell_types and isinstance(network, cell_types) and not _precision_set_by_user(network):
        return _OutputTo32(network.to_float(dtype))
    _cast_white_list_below(network, white_list, dtype)
    return network


def _cast_white_list_below(network: nn.Cell, white_list: list[type], dtype: Any) -> None:
    cell_types = tuple(t for t in white_list if issubclass(t, nn.Cell))
    prim_types = tuple(t for t in white_list if issubclass(t, Primitive))
    if prim_types:
        for attr, value in list(network.__dict__.items()):
            if isinstance(value, prim_types) and not isinstance(value, _CastPrimitive):
                object.__setattr__(network, attr, _CastPrimitive(value, dtype))
    for name, sub in list(network.name_cells().items()):
        if sub is network or isinstance(sub, _AmpWrapper) or _precision_set_by_user(sub):
            continue
        if cell_types and isinstance(sub, cell_types):
            _replace_child(network, name, _OutputTo32(sub.to_float(dtype)))
        else:
            _cast_white_list_below(sub, white_list, dtype)


def _auto_black_list(network: nn.Cell, black_list: list[type], dtype: Any) -> nn.Cell:
    """``network`` in ``dtype``, except the cells of ``black_list`` (float32, output cast to ``dtype``)."""
    network.to_float(dtype)
    for name, sub in list(network.name_cells().items()):
        if sub is network:
            continue
        blocked = bool(black_list) and isinstance(sub, tuple(black_list))  # (no narrowing: sub stays a Cell)
        if blocked:
            _replace_child(network, name, _OutputTo16(sub.to_float(mstype.float32), dtype))
        else:
            _auto_black_list(sub, black_list, dtype)
    return network


def _do_keep_batchnorm_fp32(network: nn.Cell, dtype: Any = mstype.float16) -> None:
    for name, sub in list(network.name_cells().items()):
        if sub is network:
            continue
        blocked = isinstance(sub, tuple(AMP_BLACK_LIST))  # (no narrowing: sub stays a Cell)
        if blocked:
            _replace_child(network, name, _OutputTo16(sub.to_float(mstype.float32), dtype))
        else:
            _do_keep_batchnorm_fp32(sub, dtype)


# ----------------------------------------------------------------- public API
def auto_mixed_precision(network: Any, amp_level: str = "O0", dtype: Any = mstype.float16) -> Any:
    """Returns a network processed with auto mixed precision.

    - ``"O0"``: do not change.
    - ``"O1"``: cells and primitives of the white list (:func:`get_white_list`) compute in `dtype`, the
      rest in full precision.
    - ``"O2"``: cells of the black list (:func:`get_black_list`) stay in full precision, the rest computes
      in `dtype`.
    - ``"O3"``: the whole network computes in `dtype`.
    - ``"auto"``: per operator, while the network runs (eagerly, under ``jit`` and in GRAPH_MODE alike).
      Operators of the auto white list (MatMul, BatchMatMul, Conv, Dense, PReLU, Einsum, and the Addmm,
      Addmv, Baddbmm, Mv built on MatMul) compute in `dtype` and their results stay in it; operators of the
      auto black list (Pow, Exp, Expm1, Log, Log1p, Log2, Log10, Reciprocal, Rsqrt, Sinh, Cosh, Tan, Asin,
      ACos, Erfinv, Softplus, Softmax, LogSoftmax, LayerNorm, BatchNorm, Cdist, Sum, Prod, CumSum, CumProd,
      LogSumExp and the losses NLLLoss, CrossEntropy, KLDivLoss, SmoothL1Loss, BCEWithLogitsLoss) compute
      in float32; BiasAdd, Concat, AddN, Addcmul, Addcdiv, Cross and Dot compute in the widest float type of
      their inputs; every other operator in the type its inputs have. A Dense or Conv cell with a bias adds
      it in float32 (as MindSpore's cells do: MatMul, then BiasAdd), so its output is float32; without a
      bias its output is in `dtype`. The network's output may be in `dtype`. Inside a cell set with
      ``to_float`` its type takes effect instead. The network is changed in place (its ``construct`` runs
      with the strategy; ``network.amp_strategy`` describes it); a function is wrapped.

    Parameters stay float32 (master weights): they are cast where they are used, and their gradients are
    float32. The outputs of converted cells (and of the network, for O2/O3) are float32.

    Args:
        network (Union[Cell, function]): Definition of the network. A function only for ``"auto"``.
        amp_level (str, optional): ``"O0"``, ``"O1"``, ``"O2"``, ``"O3"`` or ``"auto"``. Default: ``"O0"``.
        dtype (Type, optional): ``mstype.float16`` or ``mstype.bfloat16``. Default: ``mstype.float16``.

    Returns:
        Cell, the network (for O2 and O3, wrapped so its output is float32), or for ``"auto"`` the function
        wrapped.

    Raises:
        TypeError: If `network` is not a Cell (or, for ``"auto"``, a function).
        ValueError: If `dtype` is not float16 or bfloat16, or `amp_level` is not supported.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> from sporax import amp, nn, ops
        >>> class Net(nn.Cell):
        ...     def __init__(self):
        ...         super().__init__()
        ...         self.dense = nn.Dense(4, 3, has_bias=False)
        ...     def construct(self, x):
        ...         h = self.dense(x)
        ...         return h, ops.softmax(h)
        >>> net = amp.auto_mixed_precision(Net(), "auto", ms.bfloat16)
        >>> h, p = net(ms.Tensor(np.ones((2, 4), np.float32)))
        >>> print(h.dtype, p.dtype)
        BFloat16 Float32
    """
    if not isinstance(network, nn.Cell):
        if amp_level != "auto":
            raise TypeError(f"For amp_level '{amp_level}', the network type should be Cell.")
        if not (inspect.isfunction(network) or inspect.ismethod(network)):
            raise TypeError("For amp_level 'auto', the network type should be Cell or function.")
    validator.check_amp_dtype(dtype, (mstype.float16, mstype.bfloat16))
    if amp_level == "O0":
        return network
    if amp_level not in ("O1", "O2", "O3", "auto"):
        raise ValueError(f"The amp level {amp_level} is not supported")
    previous = getattr(network, "_amp_level", None)
    if previous in ("O1", "O2", "O3", "auto"):
        _log.warning(
            "The network's auto mixed-precision level is adjusted from %s to %s, and repeated calls to "
            "mixed-precision interfaces can cause performance degradation.",
            previous,
            amp_level,
        )
    if amp_level == "auto":
        network = amp_auto(network, dtype)
    elif amp_level == "O1":
        network = _cast_white_list(network, AMP_WHITE_LIST, dtype)
    elif amp_level == "O2":
        network = _OutputTo32(_auto_black_list(network, AMP_BLACK_LIST, dtype))
    else:
        network.to_float(dtype)
        network = _OutputTo32(network)
    if isinstance(network, nn.Cell):
        network.__dict__["_amp_level"] = amp_level
    else:
        network._amp_level = amp_level
    return network


def _warn_removed_from_black_list(black_list: list) -> None:
    for elem in AMP_BLACK_LIST:
        if elem not in black_list:
            _log.warning("%s is removed from internal black list.", elem)


def custom_mixed_precision(
    network: Any, *, white_list: Any = None, black_list: Any = None, dtype: Any = mstype.float16
) -> Any:
    """Mixed precision with a custom white list or black list (exactly one of them).

    - With `white_list`, the cells and primitives in it compute in `dtype` (outputs cast to float32).
    - With `black_list`, the cells not in it compute in `dtype`; the network's output is float32.

    Args:
        network (Cell): Definition of the network.

    Keyword Args:
        white_list (list[Primitive, Cell], optional): Whitelist of custom mixed precision. Default: ``None``.
        black_list (list[Cell], optional): Blacklist of custom mixed precision. Default: ``None``.
        dtype (Type, optional): ``mstype.float16`` or ``mstype.bfloat16``. Default: ``mstype.float16``.

    Returns:
        Cell, a network supporting mixed precision.

    Raises:
        TypeError: If `network` is not a Cell, or a list is not a list of Cell (or Primitive) classes.
        ValueError: If neither or both of `white_list` and `black_list` are given, or `dtype` is not float16
            or bfloat16.
    """
    if not isinstance(network, nn.Cell):
        raise TypeError("The network type should be Cell.")
    if white_list is None and black_list is None:
        raise ValueError("For custom_mixed_precision, one of white_list and black_list must be provided.")
    if white_list is not None and black_list is not None:
        raise ValueError(
            "For custom_mixed_precision, the white_list or black_list cannot be provided "
            "at the same time, please provide one or the other."
        )
    validator.check_amp_dtype(dtype, (mstype.float16, mstype.bfloat16))
    if white_list is not None:
        validator.check_amp_class_list(white_list, "white_list", nn.Cell, Primitive)
        return _cast_white_list(network, white_list, dtype)
    validator.check_amp_class_list(black_list, "black_list", nn.Cell, Primitive)
    _warn_removed_from_black_list(black_list)
    return _OutputTo32(_auto_black_list(network, black_list, dtype))


def get_white_list() -> list[type]:
    """A copy of the white list used by auto mixed precision at ``O1``: the convolution, Dense and RNN cell
    classes and the MatMul, BatchMatMul, Conv2D, PReLU, ReLU ... primitives that sporax has.

    Returns:
        list, a copy of the internal white list.
    """
    return AMP_WHITE_LIST.copy()


def get_black_list() -> list[type]:
    """A copy of the black list used by auto mixed precision at ``O2``: BatchNorm1d/2d/3d and LayerNorm.

    Returns:
        list, a copy of the internal black list.
    """
    return AMP_BLACK_LIST.copy()


# ------------------------------------------------------------ build_train_network
def _config_level(level: str) -> dict[str, Any]:
    if level == "O2":
        return {
            "keep_batchnorm_fp32": True,
            "cast_model_type": mstype.float16,
            "loss_scale_manager": DynamicLossScaleManager(),
        }
    if level == "O3":
        return {"keep_batchnorm_fp32": False, "cast_model_type": mstype.float16, "loss_scale_manager": None}
    # O0, O1 and auto (auto converts the network with auto_mixed_precision(network, "auto"): float16)
    return {"keep_batchnorm_fp32": False, "cast_model_type": mstype.float32, "loss_scale_manager": None}


def _auto_mixed_precision_process(network: nn.Cell, config: dict[str, Any], level: str) -> nn.Cell:
    cast = config["cast_model_type"]
    if cast in (mstype.float16, mstype.bfloat16):
        network.to_float(cast)
        if config["keep_batchnorm_fp32"]:
            _do_keep_batchnorm_fp32(network, cast)
    elif not config["keep_batchnorm_fp32"] and level == "O2":
        network.to_float(mstype.float16)
    elif cast == mstype.float32 and level in ("O2", "O3"):
        pass
    else:
        network = auto_mixed_precision(network, level)
    return network


class WithLossCell(nn.Cell):
    """The loss cell of mixed precision training: the network's output and the label are cast to float32
    before the loss."""

    def __init__(self, backbone: nn.Cell, loss_fn: nn.Cell) -> None:
        super().__init__(auto_prefix=False)
        self._backbone = backbone
        self._loss_fn = loss_fn

    def construct(self, data: Any, label: Any) -> Any:
        out = self._backbone(data)
        label = _mixed_precision_cast(mstype.float32, label)
        return self._loss_fn(_mixed_precision_cast(mstype.float32, out), label)

    @property
    def backbone_network(self) -> nn.Cell:
        return self._backbone


def _add_loss_network(network: nn.Cell, loss_fn: Any, cast_model_type: Any) -> nn.Cell:
    if not isinstance(loss_fn, nn.Cell):
        raise TypeError(f"The type of 'loss_fn' should be 'Cell', but got type '{type(loss_fn).__name__}'.")
    if cast_model_type in (mstype.float16, mstype.bfloat16) or getattr(network, "_amp_level", None) in (
        "O2",
        "O3",
        "auto",
    ):
        return WithLossCell(network, loss_fn)
    return nn.WithLossCell(network, loss_fn)


def _is_grad_accumulation(cell: nn.Cell) -> bool:
    return any(type(c).__name__ in ("GradAccumulationCell", "GradAccumulation") for _, c in cell.cells_and_names())


def build_train_network(
    network: Any, optimizer: Any, loss_fn: Any = None, level: str = "O0", boost_level: str = "O0", **kwargs: Any
) -> nn.Cell:
    r"""Build the mixed precision training cell.

    Args:
        network (Cell): Definition of the network.
        optimizer (:class:`mindspore.nn.Optimizer`): The optimizer.
        loss_fn (Union[None, Cell], optional): The loss function. If None, `network` includes the loss.
            Default: ``None``.
        level (str, optional): ``'O0'``, ``'O1'``, ``'O2'``, ``'O3'`` or ``'auto'`` (see
            :func:`auto_mixed_precision`). Default: ``'O0'``.

            - O2: ``cast_model_type=float16``, ``keep_batchnorm_fp32=True``,
              ``loss_scale_manager=DynamicLossScaleManager()``.
            - O3: ``cast_model_type=float16``, ``keep_batchnorm_fp32=False``, no loss scaling.
            - auto: ``cast_model_type=float32``, ``keep_batchnorm_fp32=False``, no loss scaling; the network
              is converted with ``auto_mixed_precision(network, "auto")`` (float16) and its output cast to
              float32 before `loss_fn`.

        boost_level (str, optional): ``'O0'``, ``'O1'`` or ``'O2'``: with O1/O2 the training cell is a
            :class:`mindspore.boost.BoostTrainOneStepCell` (or its loss-scale form). Default: ``'O0'``.
        \*\*kwargs: override the level's settings:

            - cast_model_type (:class:`mindspore.dtype`): ``float16``, ``bfloat16`` or ``float32``.
            - keep_batchnorm_fp32 (bool): keep BatchNorm and LayerNorm in float32.
            - loss_scale_manager (Union[None, LossScaleManager]): loss scaling. A manager whose update
              cell is not None gives a :class:`mindspore.nn.TrainOneStepWithLossScaleCell`, on every
              backend (MindSpore refuses it on CPU).

    Returns:
        Cell, the training cell.

    Raises:
        TypeError: If `optimizer` is not an Optimizer, or a keyword argument has the wrong type.
        ValueError: If `level`, `boost_level` or a keyword argument is not supported.
    """
    from ..nn.wrap.grad_accumulation import _TrainGradAccuStepCell, _TrainGradAccuWithLossScaleCell

    if not isinstance(
        optimizer, (nn.Optimizer, boost.FreezeOpt, nn.AdaSumByGradWrapCell, nn.AdaSumByDeltaWeightWrapCell)
    ):
        raise TypeError(f"The type of 'optimizer' should be 'Optimizer', but got type '{type(optimizer).__name__}'.")
    validator.check_amp_level(level, boost_level)
    enable_boost = boost_level in ("O1", "O2")
    validator.check_amp_kwargs(kwargs, (mstype.float16, mstype.bfloat16, mstype.float32), LossScaleManager)
    config = dict(_config_level(level), **kwargs)
    network = _auto_mixed_precision_process(network, config, level)
    if loss_fn:
        network = _add_loss_network(network, loss_fn, config["cast_model_type"])
    loss_scale = None
    manager = config["loss_scale_manager"]
    if manager is not None:
        loss_scale = manager.get_loss_scale()
        update_cell = manager.get_update_cell()
        if update_cell is not None:
            if _is_grad_accumulation(network):
                return _TrainGradAccuWithLossScaleCell(network, optimizer, scale_sense=update_cell).set_train()
            if enable_boost:
                return boost.BoostTrainOneStepWithLossScaleCell(network, optimizer, scale_sense=update_cell).set_train()
            return nn.TrainOneStepWithLossScaleCell(network, optimizer, scale_sense=update_cell).set_train()
    if _is_grad_accumulation(network):
        return _TrainGradAccuStepCell(network, optimizer, loss_scale).set_train()
    if enable_boost:
        return boost.BoostTrainOneStepCell(network, optimizer, loss_scale).set_train()
    return nn.TrainOneStepCell(network, optimizer, loss_scale).set_train()
