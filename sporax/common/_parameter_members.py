"""Members of MindSpore's ``Parameter`` that differ from a Tensor's: ``const_arg``, ``set_param_info``, hooks by
id (a mixin of :class:`~sporax.common.parameter.Parameter`; the C++ tensor's other members are Tensor's, in
``_tensor_cpp_members``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__all__ = ["ParameterMembers"]


class ParameterMembers:
    """Mixin of :class:`Parameter`."""

    __slots__ = ()

    if TYPE_CHECKING:  # Parameter's attributes these members use
        _param_info: Any
        _param_hooks: Any

    @property
    def const_arg(self) -> bool:
        """Whether the tensor is a constant of compiled programs (always False for a Parameter)."""
        return False

    def set_param_info(self, param_info: Any) -> None:
        self._param_info = param_info

    def remove_hook(self, handle_id: int) -> None:
        """Remove the gradient hook whose handle has id ``handle_id`` (``register_hook(...).id``)."""
        if not isinstance(handle_id, int) or isinstance(handle_id, bool):
            raise TypeError(f"argument 1 must be int, not {type(handle_id).__name__}")
        hooks = self._param_hooks
        hook = hooks.ids.pop(handle_id, None) if hooks is not None else None
        if hook is not None and hook in hooks:
            hooks.remove(hook)
