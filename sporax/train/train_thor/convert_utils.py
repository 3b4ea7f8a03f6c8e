"""``ConvertModelUtils``: a ``Model`` whose optimizer is THOR becomes a ``ModelThor`` (as MindSpore 2.10)."""

from __future__ import annotations

from typing import Any

from ... import nn
from ...nn.optim.thor import ConvertNetUtils, ThorGpu

__all__ = ["ConvertNetUtils", "ConvertModelUtils"]


class ConvertModelUtils:
    """Convert a Model to its THOR form."""

    @staticmethod
    def convert_to_thor_model(
        model: Any,
        network: Any,
        loss_fn: Any = None,
        optimizer: Any = None,
        metrics: Any = None,
        amp_level: str = "O0",
        loss_scale_manager: Any = None,
        keep_batchnorm_fp32: bool = False,
    ) -> Any:
        """A ``ModelThor`` over the same pieces when ``optimizer`` is THOR (``nn.thor``); else ``model``.

        Args:
            model (Model): the model to convert. network (Cell): its network (or a TrainOneStepCell).
            loss_fn (Cell), optimizer (Cell), metrics (Union[dict, set]), amp_level (str),
            loss_scale_manager, keep_batchnorm_fp32 (bool): as for ``Model``.
        """
        if not isinstance(optimizer, ThorGpu):
            return model
        from .model_thor import ModelThor

        if isinstance(network, nn.TrainOneStepCell):
            return ModelThor(network=network)
        kwargs = {"keep_batchnorm_fp32": keep_batchnorm_fp32}
        if loss_scale_manager is not None:
            kwargs["loss_scale_manager"] = loss_scale_manager
        return ModelThor(network, loss_fn, optimizer, metrics, amp_level=amp_level, **kwargs)
