"""``sporax.boost`` (``mindspore.boost``): training accelerations; here gradient accumulation across calls."""

from ..nn.wrap.grad_accumulation import GradientAccumulation

__all__ = ["GradientAccumulation"]
