"""Containers: SequentialCell, CellList, CellDict.

Parameter naming follows MindSpore 2.10. A container renames a cell it takes in to ``<prefix><key>.<name>``,
where ``<prefix>`` is read off the current name of the first Parameter already held (so a list owned by a
parent as ``layers`` keeps naming new members ``layers.3.weight``); an empty container has no prefix, and
assigning it to a parent later renames everything below (``Cell.__setattr__``). ``SequentialCell`` always
renames; ``CellList`` and ``CellDict`` rename only when their ``auto_prefix`` is True.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, cast

from ... import _checkparam as validator
from ..cell import Cell

__all__ = ["SequentialCell", "CellList", "CellDict"]


def _cells_of(owner: Cell) -> OrderedDict[str, Cell]:
    """A container's members: Cells (each is checked when it is added; a Cell's other children may be None)."""
    return cast("OrderedDict[str, Cell]", owner._cells)


def _prefix_and_index(cells: Mapping[str, Cell]) -> tuple[str, int]:
    """The name prefix the members' Parameters carry before their key, and the key's position in the
    dotted name (found from the first member that holds a Parameter, confirmed by the second)."""
    first = second = None
    for key, cell in cells.items():
        if cell is None:
            continue
        param = next((p for _, p in cell.parameters_and_names()), None)
        if param is None:
            continue
        if first is None:
            first = (key, param)
            continue
        second = (key, param)
        break
    if first is None:
        return "", 0
    prefix, index = "", 0
    parts = first[1].name.split(".")
    for i, part in enumerate(parts):
        if part == first[0]:
            prefix = ".".join(parts[:i])
            prefix = prefix + "." if prefix else prefix
            index = i
            if second is not None:
                second_parts = second[1].name.split(".")
                if i < len(second_parts) and second_parts[i] == second[0]:
                    break
    return prefix, index


def _rekey(cell: Cell, prefix: str, key: str, key_index: int) -> None:
    """Rename a moved member's Parameters: keep what follows the old key, put ``prefix + key`` before it."""
    for _, param in cell.parameters_and_names():
        param.name = prefix + key + "." + ".".join(param.name.split(".")[key_index + 1 :])


def _set_cells(owner: Cell, cells: OrderedDict) -> None:
    """Replace the children of ``owner`` (and their attributes) with ``cells``."""
    for key in list(owner._cells):
        owner.__dict__.pop(key, None)
    owner.__dict__["_cells"] = cells
    for key, cell in cells.items():
        owner.__dict__[key] = cell


class SequentialCell(Cell):
    """Cells run in order; built from Cells, a list of Cells or an OrderedDict name -> Cell."""

    def __init__(self, *args: Any) -> None:
        super().__init__()
        dynamic: list[bool] = []
        self.__dict__["_is_dynamic_name"] = dynamic
        if len(args) == 1 and not isinstance(args[0], Cell):
            cells = args[0]
            if isinstance(cells, list):
                items = [(str(i), c, True) for i, c in enumerate(cells)]
            elif isinstance(cells, OrderedDict):
                items = [(k, c, False) for k, c in cells.items()]
            else:
                raise TypeError(
                    f"For '{type(self).__name__}', the 'args[0]' must be Cell, list or orderedDict, "
                    f"but got {type(cells).__name__}"
                )
        else:
            items = [(str(i), c, True) for i, c in enumerate(args)]
        for key, cell, is_dynamic in items:
            self.insert_child_to_cell(key, cell)
            cell.update_parameters_name(key + ".")
            dynamic.append(is_dynamic)
        self._refresh()

    def _refresh(self) -> None:
        self.__dict__["_order"] = [c for c in _cells_of(self).values() if c is not None]

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return type(self)(OrderedDict(list(_cells_of(self).items())[index]))
        index = validator.check_member_index(index, len(self), type(self).__name__)
        return list(_cells_of(self).values())[index]

    def __setitem__(self, index: int, cell: Cell) -> None:
        name = type(self).__name__
        validator.check_member_cell(cell, Cell, name)
        prefix, _ = _prefix_and_index(_cells_of(self))
        index = validator.check_member_index(index, len(self), name)
        key = list(self._cells.keys())[index]
        self._cells[key] = cell
        self.__dict__[key] = cell
        cell.update_parameters_name(prefix + key + ".")
        self._refresh()

    def __delitem__(self, index: Any) -> None:
        name = type(self).__name__
        keys = list(self._cells.keys())
        dynamic = self._is_dynamic_name
        if isinstance(index, int):
            index = validator.check_member_index(index, len(self), name)
            removed = [keys[index]]
        elif isinstance(index, slice):
            removed = keys[index]
        else:
            raise TypeError(
                f"For '{name}', the type of index must be int type or slice type, but got {type(index).__name__}"
            )
        del dynamic[index]
        remaining = [(k, c) for k, c in _cells_of(self).items() if k not in removed]
        prefix, key_index = _prefix_and_index(OrderedDict(remaining))
        cells: OrderedDict = OrderedDict()
        for i, (key, cell) in enumerate(remaining):
            if dynamic[i]:
                _rekey(cell, prefix, str(i), key_index)
                cells[str(i)] = cell
            else:
                cells[key] = cell
        _set_cells(self, cells)
        self._refresh()

    def __bool__(self) -> bool:
        return len(self._cells) != 0

    def __len__(self) -> int:
        return len(self._cells)

    def __iter__(self) -> Iterator[Cell]:
        return iter(_cells_of(self).values())

    def set_grad(self, flag: bool = True) -> SequentialCell:
        super().set_grad(flag)
        for cell in _cells_of(self).values():
            cell.set_grad(flag)
        return self

    def append(self, cell: Cell) -> None:
        """Add ``cell`` at the end, named after its position."""
        validator.check_member_cell(cell, Cell, type(self).__name__)
        prefix, _ = _prefix_and_index(_cells_of(self))
        key = str(len(self))
        cell.update_parameters_name(prefix + key + ".")
        self._is_dynamic_name.append(True)
        self.insert_child_to_cell(key, cell)
        self._refresh()

    def _insert(self, index: int, cell: Cell) -> None:
        name = type(self).__name__
        idx = validator.check_member_index(index, len(self), name, inserting=True)
        validator.check_member_cell(cell, Cell, name)
        _shift_insert(self, idx, cell, self._auto_prefix)
        self._is_dynamic_name.insert(index, True)
        self._refresh()

    def construct(self, input_data: Any) -> Any:
        for cell in self._order:
            input_data = cell(input_data)
        return input_data


def _shift_insert(owner: Cell, idx: int, cell: Cell, rename: bool) -> None:
    """Insert ``cell`` at position ``idx`` of a list-like container, moving later members up by one."""
    prefix, key_index = _prefix_and_index(_cells_of(owner))
    cells = list(_cells_of(owner).values())
    if rename:
        for pos in range(len(cells) - 1, idx - 1, -1):
            _rekey(cells[pos], prefix, str(pos + 1), key_index)
    cells.insert(idx, cell)
    _set_cells(owner, OrderedDict((str(i), c) for i, c in enumerate(cells)))
    if rename:
        cell.update_parameters_name(prefix + str(idx) + ".")


class CellList(Cell):
    """A list of Cells, registered as children ``0``, ``1``, ..."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(auto_prefix=kwargs["auto_prefix"] if "auto_prefix" in kwargs else True)
        if len(args) == 1:
            self.extend(args[0])

    def __getitem__(self, index: Any) -> Any:
        name = type(self).__name__
        if isinstance(index, slice):
            return CellList(list(_cells_of(self).values())[index])
        if isinstance(index, int):
            return self._cells[str(validator.check_member_index(index, len(self), name))]
        raise TypeError(f"For '{name}', the type of 'index' must be int or slice, but got {type(index).__name__}.")

    def __setitem__(self, index: int, cell: Cell) -> None:
        name = type(self).__name__
        if not isinstance(index, int) and validator.check_member_cell(cell, Cell, name):
            raise TypeError(f"For '{name}', the type of 'index' must be int, but got {type(index).__name__}.")
        index = validator.check_member_index(index, len(self), name)
        if self._auto_prefix:
            prefix, _ = _prefix_and_index(_cells_of(self))
            cell.update_parameters_name(prefix + str(index) + ".")
        self._cells[str(index)] = cell
        self.__dict__[str(index)] = cell

    def __delitem__(self, index: Any) -> None:
        name = type(self).__name__
        keys = list(self._cells.keys())
        if isinstance(index, int):
            removed = [keys[validator.check_member_index(index, len(self), name)]]
        elif isinstance(index, slice):
            removed = keys[index]
        else:
            raise TypeError(f"For '{name}', the type of 'index' must be int or slice, but got {type(index).__name__}.")
        remaining = [c for k, c in _cells_of(self).items() if k not in removed]
        prefix, key_index = _prefix_and_index(
            OrderedDict((k, c) for k, c in _cells_of(self).items() if k not in removed)
        )
        if self._auto_prefix:
            for i, cell in enumerate(remaining):
                _rekey(cell, prefix, str(i), key_index)
        _set_cells(self, OrderedDict((str(i), c) for i, c in enumerate(remaining)))

    def __bool__(self) -> bool:
        return len(self._cells) != 0

    def __len__(self) -> int:
        return len(self._cells)

    def __iter__(self) -> Iterator[Cell]:
        return iter(_cells_of(self).values())

    def __iadd__(self, cells: Iterable[Cell]) -> CellList:
        self.extend(cells)
        return self

    def set_grad(self, flag: bool = True) -> CellList:
        super().set_grad(flag)
        for cell in _cells_of(self).values():
            cell.set_grad(flag)
        return self

    def insert(self, index: int, cell: Cell) -> None:
        """Insert ``cell`` before position ``index``."""
        name = type(self).__name__
        idx = validator.check_member_index(index, len(self), name, inserting=True)
        validator.check_member_cell(cell, Cell, name)
        _shift_insert(self, idx, cell, self._auto_prefix)

    def extend(self, cells: Any) -> CellList:
        """Append every Cell of the list ``cells``."""
        name = type(self).__name__
        if not isinstance(cells, list):
            raise TypeError(
                f"For '{name}', the new cells wanted to append should be instance of list, "
                f"but got {type(cells).__name__}."
            )
        prefix, _ = _prefix_and_index(_cells_of(self))
        for cell in cells:
            if isinstance(cell, CellDict):
                raise TypeError(f"For '{name}', the type of cell can not be CellDict, but got {type(cell).__name__}.")
            validator.check_member_cell(cell, Cell, name)
            if self._auto_prefix:
                cell.update_parameters_name(prefix + str(len(self)) + ".")
            self.insert_child_to_cell(str(len(self)), cell)
        return self

    def append(self, cell: Cell) -> None:
        """Add ``cell`` at the end."""
        validator.check_member_cell(cell, Cell, type(self).__name__)
        if self._auto_prefix:
            prefix, _ = _prefix_and_index(_cells_of(self))
            cell.update_parameters_name(prefix + str(len(self)) + ".")
        self.insert_child_to_cell(str(len(self)), cell)

    def construct(self, *inputs: Any) -> Any:
        raise NotImplementedError


class CellDict(Cell):
    """A dict of Cells, registered as children by key."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(auto_prefix=kwargs["auto_prefix"] if "auto_prefix" in kwargs else True)
        if len(args) == 1:
            self.update(args[0])

    def __getitem__(self, key: str) -> Cell:
        return _cells_of(self)[key]

    def __setitem__(self, key: str, cell: Cell) -> None:
        taken = isinstance(key, str) and key not in self._cells and hasattr(self, key)
        validator.check_cell_dict_key(key, taken, type(self).__name__)
        validator.check_cell_dict_member(cell, Cell, (CellDict, CellList, SequentialCell), type(self).__name__)
        if self._auto_prefix:
            prefix, _ = _prefix_and_index(_cells_of(self))
            cell.update_parameters_name(prefix + key + ".")
        self._cells[key] = cell
        self.__dict__[key] = cell

    def __delitem__(self, key: str) -> None:
        del self._cells[key]
        self.__dict__.pop(key, None)

    def __len__(self) -> int:
        return len(self._cells)

    def __iter__(self) -> Iterator[str]:
        return iter(self._cells)

    def __contains__(self, key: object) -> bool:
        return key in self._cells

    def clear(self) -> None:
        """Remove every Cell."""
        for key in list(self._cells):
            del self[key]

    def pop(self, key: str) -> Cell:
        """Remove ``key`` and return its Cell."""
        value = self[key]
        del self[key]
        return value

    def keys(self) -> Any:
        return self._cells.keys()

    def values(self) -> Any:
        return _cells_of(self).values()

    def items(self) -> Any:
        return _cells_of(self).items()

    def update(self, cells: Any) -> None:
        """Add or replace Cells from a mapping or an iterable of (key, Cell) pairs."""
        if not isinstance(cells, Iterable):
            raise TypeError(
                "CellDict.update() should be called with an iterable of key-value pairs, but got "
                + type(cells).__name__
            )
        if isinstance(cells, (Mapping, CellDict)):
            for key, cell in cells.items():
                self[key] = cell
            return
        for i, pair in enumerate(cells):
            if not isinstance(pair, Iterable):
                raise TypeError(
                    f"CellDict update sequence element #{i} should be Iterable; but got {type(pair).__name__}"
                )
            pair = list(pair)
            if len(pair) != 2:
                raise ValueError(
                    f"CellDict update sequence element #{i}, length should be 2; but has length {len(pair)}"
                )
            self[pair[0]] = pair[1]

    def construct(self, *inputs: Any) -> Any:
        raise NotImplementedError
