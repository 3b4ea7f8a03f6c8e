"""Buffers and state dicts of a Cell (MindSpore 2.10's PyTorch-style API), mixed into ``Cell``.

A buffer is a Tensor attribute that is state but not a Parameter (``register_buffer``); persistent buffers
go into ``state_dict`` after the cell's own Parameters and before its children's entries, keyed by
structural name. ``load_state_dict`` copies values in and reports missing/unexpected keys as MindSpore does.
"""

from __future__ import annotations

from collections import OrderedDict, namedtuple
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ..common.parameter import Parameter
from ..common.tensor import Tensor


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    def __repr__(self) -> str:
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


_EXTRA_STATE = "_extra_state"


def _overrides(cell: Any, method: str) -> bool:
    """Whether ``cell``'s class defines its own ``method`` (``get_extra_state``/``set_extra_state``)."""
    from ._cell_hooks import _CellHooksMixin

    return getattr(type(cell), method) is not getattr(_CellHooksMixin, method)


class _CellStateMixin:
    """``register_buffer``, ``buffers``, ``named_buffers``, ``get_buffer``, ``state_dict``, ``load_state_dict``."""

    if TYPE_CHECKING:  # Cell's members (this mixin is part of Cell), which these methods use
        _params: OrderedDict[str, Any]
        _cells: OrderedDict[str, Any]

        def cells_and_names(self, cells: set | None = None, name_prefix: str = "") -> Iterator[tuple[str, Any]]: ...
        def get_sub_cell(self, target: str) -> Any: ...
        def get_extra_state(self) -> Any: ...

    def _buffer_table(self) -> OrderedDict:
        return self.__dict__.setdefault("_buffers", OrderedDict())

    def _non_persistent(self) -> set:
        return self.__dict__.setdefault("_non_persistent_buffers", set())

    def register_buffer(self, name: str, tensor: Any, persistent: bool = True) -> None:
        """Keep ``tensor`` as state named ``name`` (not a Parameter); ``persistent=False`` leaves it out
        of ``state_dict``."""
        if not isinstance(name, str):
            raise TypeError(f"buffer name should be a string.But got this type: {type(name)}")
        if "." in name:
            raise KeyError('buffer name can\'t contain "."')
        if name == "":
            raise KeyError('buffer name can\'t be empty string ""')
        if name not in self._buffer_table() and hasattr(self, name):
            raise KeyError(f"attribute '{name}' already exists")
        if tensor is not None and (not isinstance(tensor, Tensor) or isinstance(tensor, Parameter)):
            raise TypeError(
                f"cannot assign '{type(tensor)}' object to buffer '{name}' (mindspore Tensor or None required)"
            )
        self._buffer_table()[name] = tensor
        if persistent:
            self._non_persistent().discard(name)
        else:
            self._non_persistent().add(name)
        object.__setattr__(self, name, tensor)

    def _set_buffer(self, name: str, value: Any) -> None:
        """``cell.<buffer> = value``: MindSpore only lets None through (re-register to replace it)."""
        if value is not None:
            raise TypeError(
                f"Buffer '{name}' already exists in network, can not assign this type: '{type(value)}' as a buffer."
            )
        self._buffer_table()[name] = None
        object.__setattr__(self, name, None)

    def named_buffers(
        self, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True
    ) -> Iterator[tuple[str, Tensor]]:
        """(structural name, buffer) for this cell's buffers and, with ``recurse``, those below."""
        cells = self.cells_and_names(name_prefix=prefix) if recurse else [(prefix, self)]
        seen: set[int] = set()
        for cell_name, cell in cells:
            for name, buf in cell.__dict__.get("_buffers", {}).items():
                if buf is None or (remove_duplicate and id(buf) in seen):
                    continue
                seen.add(id(buf))
                yield (f"{cell_name}.{name}" if cell_name else name), buf

    def buffers(self, recurse: bool = True) -> Iterator[Tensor]:
        for _, buf in self.named_buffers(recurse=recurse):
            yield buf

    def get_buffer(self, target: str) -> Tensor:
        """The buffer at the dotted path ``target``."""
        cell_path, _, name = target.rpartition(".")
        cell = self.get_sub_cell(cell_path)
        if not hasattr(cell, name):
            raise AttributeError(type(cell).__name__ + " has no attribute `" + name + "`")
        if name not in cell.__dict__.get("_buffers", {}):
            raise AttributeError("`" + name + "` is not a buffer")
        return getattr(cell, name)

    def _save_to_state_dict(self, destination: OrderedDict, prefix: str, keep_vars: bool) -> None:
        for name, param in self._params.items():
            if param is not None:
                destination[prefix + name] = param
        skip = self.__dict__.get("_non_persistent_buffers", set())
        for name, buf in self.__dict__.get("_buffers", {}).items():
            if buf is not None and name not in skip:
                destination[prefix + name] = buf
        if _overrides(self, "get_extra_state"):
            destination[prefix + _EXTRA_STATE] = self.get_extra_state()

    def state_dict(self, *args: Any, destination: Any = None, prefix: str = "", keep_vars: bool = False) -> Any:
        """Parameters and persistent buffers by structural name: a cell's own entries, then its children's
        (``get_extra_state()`` under ``<prefix>_extra_state`` when a cell defines it). The hooks of
        ``register_state_dict_pre_hook`` / ``register_state_dict_post_hook`` run around each cell's part."""
        if destination is None:
            destination = OrderedDict()
        for hook in list(self.__dict__.get("_state_dict_pre_hooks", {}).values()):
            hook(self, prefix, keep_vars)
        self._save_to_state_dict(destination, prefix, keep_vars)
        for name, cell in self._cells.items():
            if cell is not None:
                cell.state_dict(destination=destination, prefix=prefix + name + ".", keep_vars=keep_vars)
        for hook in list(self.__dict__.get("_state_dict_hooks", {}).values()):
            hook(self, destination, prefix, {})
        return destination

    def load_state_dict(self, state_dict: Any, strict: bool = True) -> _IncompatibleKeys:
        """Copy ``state_dict``'s values into the matching Parameters and buffers."""
        if not isinstance(state_dict, dict):
            raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
        missing: list[str] = []
        unexpected: list[str] = []
        error_msgs: list[str] = []
        cells = list(self.cells_and_names())
        for name, cell in cells:
            for hook in list(cell.__dict__.get("_load_state_dict_pre_hooks", {}).values()):
                hook(cell, state_dict, name + "." if name else "", {}, strict, missing, unexpected, error_msgs)
        own = self.state_dict()
        missing += [k for k in own if k not in state_dict]
        unexpected += [k for k in state_dict if k not in own]
        for name, cell in cells:
            if _overrides(cell, "set_extra_state"):
                key = (name + "." if name else "") + _EXTRA_STATE
                if key in state_dict:
                    cell.set_extra_state(state_dict[key])
        for key, value in state_dict.items():
            if key not in own or key.endswith(_EXTRA_STATE):
                continue
            target = own[key]
            if isinstance(target, Parameter):
                target.set_data(value if isinstance(value, Tensor) else Tensor(value))
            else:  # buffers are updated in place
                target.assign_value(value.asnumpy() if isinstance(value, Tensor) else value)
        result = _IncompatibleKeys(missing, unexpected)
        for _, cell in cells:
            for hook in list(cell.__dict__.get("_load_state_dict_post_hooks", {}).values()):
                hook(cell, result)
        if strict and (missing or unexpected or error_msgs):
            msgs = list(error_msgs)
            if unexpected:
                msgs.insert(0, "Unexpected key(s) in state_dict: {}. ".format(", ".join(f'"{k}"' for k in unexpected)))
            if missing:
                msgs.insert(0, "Missing key(s) in state_dict: {}. ".format(", ".join(f'"{k}"' for k in missing)))
            raise RuntimeError(
                "Error(s) in loading state_dict for {}:\n\t{}".format(type(self).__name__, "\n\t".join(msgs))
            )
        return result
