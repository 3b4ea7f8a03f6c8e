"""Loss scale managers: ``LossScaleManager``, ``FixedLossScaleManager``, ``DynamicLossScaleManager``.

A manager describes a loss scale policy; ``get_update_cell()`` gives the Cell that
:class:`~sporax.nn.TrainOneStepWithLossScaleCell` calls every step, and ``update_loss_scale`` is the
host-side update ``Model`` uses.
"""

from __future__ import annotations

from typing import Any

__all__ = ["LossScaleManager", "FixedLossScaleManager", "DynamicLossScaleManager"]


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class LossScaleManager:
    """Loss scale manager abstract class.

    `get_loss_scale` returns the current loss scale, `update_loss_scale` updates it from an overflow flag,
    and `get_update_cell` returns the :class:`mindspore.nn.Cell` that updates it during training.
    """

    def get_loss_scale(self) -> Any:
        """Get the value of loss scale, which is the amplification factor of the gradients."""

    def update_loss_scale(self, overflow: Any) -> None:
        """Update the loss scale value according to `overflow`.

        Args:
            overflow (bool): Whether the overflow occurs during the training.
        """

    def get_update_cell(self) -> Any:
        """Get the :class:`mindspore.nn.Cell` instance that updates the loss scale."""


class FixedLossScaleManager(LossScaleManager):
    """Loss scale manager with a fixed loss scale value.

    Args:
        loss_scale (float, optional): Magnification factor of gradients. If `drop_overflow_update` is
            ``False``, the optimizer's `loss_scale` should be set to the same value. Default: ``128.0``.
        drop_overflow_update (bool, optional): Skip the optimizer update on a step whose gradients overflow.
            Default: ``True``.

    Examples:
        >>> loss_scale_manager = amp.FixedLossScaleManager(1024.0, False)
        >>> optim = nn.Momentum(net.trainable_params(), 0.1, 0.9, loss_scale=1024.0)
        >>> model = ms.Model(net, loss_scale_manager=loss_scale_manager, optimizer=optim)
    """

    def __init__(self, loss_scale: float = 128.0, drop_overflow_update: bool = True) -> None:
        if loss_scale < 1:
            raise ValueError(f"The argument 'loss_scale' must be >= 1, but got {loss_scale}")
        self._loss_scale = loss_scale
        self._drop_overflow_update = drop_overflow_update

    def get_loss_scale(self) -> Any:
        """Get the loss scale value.

        Returns:
            float, `loss_scale`.
        """
        return self._loss_scale

    def get_drop_overflow_update(self) -> bool:
        """Whether the optimizer update of a step is dropped when it overflows.

        Returns:
            bool, `drop_overflow_update`.
        """
        return self._drop_overflow_update

    def update_loss_scale(self, overflow: Any) -> None:
        """Update the loss scale value: nothing to do for a fixed loss scale.

        Args:
            overflow (bool): Whether it overflows.
        """

    def get_update_cell(self) -> Any:
        """The Cell :class:`mindspore.nn.TrainOneStepWithLossScaleCell` calls to update the loss scale.

        Returns:
            :class:`mindspore.nn.FixedLossScaleUpdateCell` when `drop_overflow_update` is ``True``, else None.
        """
        if not self._drop_overflow_update:
            return None
        from ..nn.wrap.loss_scale import FixedLossScaleUpdateCell

        return FixedLossScaleUpdateCell(self._loss_scale)


class DynamicLossScaleManager(LossScaleManager):
    """Loss scale manager with a dynamically adjusted loss scale.

    On overflow the loss scale is divided by `scale_factor` (at least 1); after `scale_window` steps
    without overflow it is multiplied by `scale_factor`.

    Args:
        init_loss_scale (float, optional): Initial loss scale. Default: ``2 ** 24``.
        scale_factor (int, optional): Coefficient of increase and decrease. Default: ``2``.
        scale_window (int, optional): Steps without overflow before the loss scale increases.
            Default: ``2000``.

    Examples:
        >>> loss_scale_manager = amp.DynamicLossScaleManager()
        >>> model = ms.Model(net, loss_scale_manager=loss_scale_manager, optimizer=optim)
    """

    def __init__(self, init_loss_scale: float = 2**24, scale_factor: int = 2, scale_window: int = 2000) -> None:
        if init_loss_scale < 1.0:
            raise ValueError(f"The argument 'init_loss_scale' must be > 1, but got {init_loss_scale}")
        self.loss_scale = init_loss_scale
        if not _is_int(scale_window) or scale_window <= 0:
            raise ValueError(
                "For 'DynamicLossScaleManager', the 'scale_window' must be int and must > 0, "
                f"but got '{scale_window}' with type '{type(scale_window).__name__}'."
            )
        self.scale_window = scale_window
        if scale_factor <= 0:
            raise ValueError(f"The argument 'scale_factor' must be > 0, but got {scale_factor}")
        self.scale_factor = scale_factor
        self.increase_ratio = scale_factor
        self.decrease_ratio = 1 / scale_factor
        self.cur_iter = 1
        self.last_overflow_iter = 0
        self.bad_step_max = 1000
        self.bad_step = 0

    def get_loss_scale(self) -> Any:
        """Get the current loss scale value.

        Returns:
            float, the loss scale.
        """
        return self.loss_scale

    def update_loss_scale(self, overflow: Any) -> None:
        """Update the loss scale: divide it on overflow, multiply it every `scale_window` good steps.

        Args:
            overflow (bool): Whether it overflows.

        Raises:
            RuntimeError: After more than 1000 consecutive overflowing steps.
        """
        if overflow:
            self.loss_scale = max(self.loss_scale * self.decrease_ratio, 1)
            self.last_overflow_iter = self.cur_iter
            self.bad_step += 1
        else:
            if (self.cur_iter - self.last_overflow_iter) % self.scale_window == 0:
                self.loss_scale *= self.increase_ratio
            self.bad_step = 0
        if self.bad_step > self.bad_step_max:
            raise RuntimeError(
                f"Dynamic loss scale: continuous overflow {self.bad_step} times, which has exceeded the maximum "
                f"threshold {self.bad_step_max}."
            )
        self.cur_iter += 1

    def get_drop_overflow_update(self) -> bool:
        """Whether to drop the optimizer update of a step that overflows.

        Returns:
            bool, always True.
        """
        return True

    def get_update_cell(self) -> Any:
        """The Cell :class:`mindspore.nn.TrainOneStepWithLossScaleCell` calls to update the loss scale.

        Returns:
            :class:`mindspore.nn.DynamicLossScaleUpdateCell`.
        """
        from ..nn.wrap.loss_scale import DynamicLossScaleUpdateCell

        return DynamicLossScaleUpdateCell(self.loss_scale, self.scale_factor, self.scale_window)


# MindSpore's path of these classes (``<class 'mindspore.train.loss_scale_manager.FixedLossScaleManager'>`` in
# its messages); sporax.train.loss_scale_manager re-exports them, so pickles find them there too.
for _cls in (LossScaleManager, FixedLossScaleManager, DynamicLossScaleManager):
    _cls.__module__ = "sporax.train.loss_scale_manager"
del _cls
