"""``set_device`` / ``get_current_device`` / ``set_deterministic`` (MindSpore's ``mindspore.device_manager``).

``set_device("GPU", 1)`` selects the JAX platform and device through :func:`sporax.set_context`;
``set_deterministic(True)`` asks XLA for deterministic kernels: on GPU it adds
``--xla_gpu_deterministic_ops=true`` to ``XLA_FLAGS`` (read when the GPU backend starts, so call it first,
as MindSpore asks); XLA:CPU kernels are deterministic already.
"""

from __future__ import annotations

import os

from . import context

__all__ = ["set_device", "get_current_device", "set_deterministic", "DeviceInfo"]

_deterministic_set: list[bool] = [False]


class DeviceInfo(tuple):
    """``(device_target, device_id)`` with named accessors."""

    def __new__(cls, device_target: str, device_id: int) -> DeviceInfo:
        return super().__new__(cls, (device_target, device_id))

    @property
    def device_target(self) -> str:
        return self[0]

    @property
    def device_id(self) -> int:
        return self[1]


def set_device(device_target: str, device_id: int | None = None) -> None:
    """Set the device target ("CPU", "GPU"; "Ascend" is refused by sporax) and the device id (default 0)."""
    valid_targets = ["CPU", "GPU", "Ascend"]
    if device_target not in valid_targets:
        raise ValueError(f"The argument 'device_target' must be one of {valid_targets}, but got {device_target}.")
    if device_id is None:
        device_id = 0
    if device_id < 0:
        raise ValueError("The device id must bigger than or equal to 0.")
    context.set_context(device_target=device_target, device_id=device_id)
    if device_target == "GPU":
        from ._engine import jax

        devices = jax.local_devices(backend="gpu")
        if device_id >= len(devices):
            raise ValueError(
                f"The device id must be less than the number of GPUs ({len(devices)}), but got {device_id}."
            )
        jax.config.update("jax_default_device", devices[device_id])


def get_current_device() -> DeviceInfo:
    """The current ``(device_target, device_id)``."""
    return DeviceInfo(context.get_context("device_target"), context.get_context("device_id"))


def set_deterministic(deterministic: bool) -> None:
    """Ask for deterministic computation (once per process, as in MindSpore)."""
    if not isinstance(deterministic, bool):
        raise TypeError(f"The parameter 'deterministic' must be {bool}, but got {type(deterministic)}")
    if _deterministic_set[0]:
        raise RuntimeError("The 'mindspore.set_deterministic' can not be set repeatedly.")
    _deterministic_set[0] = True
    context.set_context(deterministic="ON" if deterministic else "OFF")
    if deterministic:
        flags = os.environ.get("XLA_FLAGS", "")
        if "xla_gpu_deterministic_ops" not in flags:
            os.environ["XLA_FLAGS"] = (flags + " --xla_gpu_deterministic_ops=true").strip()
