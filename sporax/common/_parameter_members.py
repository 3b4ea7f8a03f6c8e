"""Members of MindSpore's ``Parameter`` that come from its C++ tensor: flags, raw bytes, offloading, ``set_``,
``index``, hooks by id (a mixin of :class:`~sporax.common.parameter.Parameter`)."""

from __future__ import annotations

import os
from typing import Any

__all__ = ["ParameterMembers"]


class ParameterMembers:
    """Mixin of :class:`Parameter` (it has a ``__dict__`` for the flags below)."""

    __slots__ = ()

    @property
    def const_arg(self) -> bool:
        """Whether the tensor is a constant of compiled programs (always False for a Parameter)."""
        return False

    @property
    def init_flag(self) -> bool:
        """The flag :meth:`set_init_flag` set (MindSpore: the parameter was initialised in a graph)."""
        return self.__dict__.get("_init_flag", False)

    def set_init_flag(self, flag: bool) -> None:
        self.__dict__["_init_flag"] = bool(flag)

    def set_cast_dtype(self, dtype: Any = None) -> None:
        """Record the dtype the parameter is cast to where it is used (mixed precision); the value keeps its
        dtype, as in MindSpore."""
        self.__dict__["_cast_dtype"] = dtype

    def set_param_info(self, param_info: Any) -> None:
        self._param_info = param_info

    def offload(self, file_path: str) -> bool:
        """Write the value's raw bytes to ``file_path`` (``offload_file_path()`` tells where). The XLA buffer
        stays: compiled steps own the parameters' buffers between calls."""
        with open(file_path, "wb") as f:
            f.write(self.get_bytes())
        self.__dict__["_offload_path"] = os.fspath(file_path)
        return True

    def offload_file_path(self) -> str:
        return self.__dict__.get("_offload_path", "")

    def remove_hook(self, handle_id: int) -> None:
        """Remove the gradient hook whose handle has id ``handle_id`` (``register_hook(...).id``)."""
        if not isinstance(handle_id, int) or isinstance(handle_id, bool):
            raise TypeError(f"argument 1 must be int, not {type(handle_id).__name__}")
        hooks = self._param_hooks
        hook = hooks.__dict__.get("ids", {}).pop(handle_id, None) if hooks is not None else None
        if hook is not None and hook in hooks:
            hooks.remove(hook)
