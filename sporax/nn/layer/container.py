"""Containers: SequentialCell, CellList, CellDict."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Iterator
from typing import Any

from ..cell import Cell

__all__ = ["SequentialCell", "CellList", "CellDict"]


def _check_cell(cell: Any, op: str) -> Cell:
    if not isinstance(cell, Cell):
        raise TypeError(f"For '{op}', each element must be a Cell, but got {type(cell).__name__}.")
    return cell


class SequentialCell(Cell):
    """Cells run in order; built from Cells, a list of Cells or an OrderedDict name -> Cell."""

    def __init__(self, *args: Any) -> None:
        super().__init__()
        if len(args) == 1 and isinstance(args[0], (dict, OrderedDict)):
            for name, cell in args[0].items():
                self.insert_child_to_cell(name, _check_cell(cell, "SequentialCell"))
        elif len(args) == 1 and isinstance(args[0], list):
            for i, cell in enumerate(args[0]):
                self.insert_child_to_cell(str(i), _check_cell(cell, "SequentialCell"))
        else:
            for i, cell in enumerate(args):
                self.insert_child_to_cell(str(i), _check_cell(cell, "SequentialCell"))
        self.__dict__["_order"] = list(self._cells.values())

    def __getitem__(self, index: Any) -> Any:
        cells = list(self._cells.values())
        if isinstance(index, slice):
            return SequentialCell(OrderedDict(list(self._cells.items())[index]))
        return cells[index]

    def __setitem__(self, index: int, cell: Cell) -> None:
        key = list(self._cells.keys())[index]
        self.insert_child_to_cell(key, _check_cell(cell, "SequentialCell"))
        self.__dict__["_order"] = list(self._cells.values())

    def __delitem__(self, index: Any) -> None:
        keys = list(self._cells.keys())
        for k in keys[index] if isinstance(index, slice) else [keys[index]]:
            delattr(self, k)
        self.__dict__["_order"] = list(self._cells.values())

    def __len__(self) -> int:
        return len(self._cells)

    def __iter__(self) -> Iterator[Cell]:
        return iter(self._cells.values())

    def append(self, cell: Cell) -> SequentialCell:
        self.insert_child_to_cell(str(len(self)), _check_cell(cell, "SequentialCell"))
        self.__dict__["_order"] = list(self._cells.values())
        return self

    def construct(self, input_data: Any) -> Any:
        for cell in self._order:
            input_data = cell(input_data)
        return input_data


class CellList(Cell):
    """A list of Cells, registered as children ``0``, ``1``, ..."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(auto_prefix=kwargs.get("auto_prefix", True))
        if args:
            self.extend(args[0])

    def __getitem__(self, index: Any) -> Any:
        cells = list(self._cells.values())
        if isinstance(index, slice):
            return CellList(cells[index])
        return cells[index]

    def __setitem__(self, index: int, cell: Cell) -> None:
        key = list(self._cells.keys())[index]
        self.insert_child_to_cell(key, _check_cell(cell, "CellList"))

    def __delitem__(self, index: Any) -> None:
        cells = list(self._cells.values())
        del cells[index]
        for k in list(self._cells.keys()):
            delattr(self, k)
        for i, c in enumerate(cells):
            self._cells[str(i)] = c
            object.__setattr__(self, str(i), c)

    def __len__(self) -> int:
        return len(self._cells)

    def __iter__(self) -> Iterator[Cell]:
        return iter(self._cells.values())

    def __iadd__(self, cells: Iterable[Cell]) -> CellList:
        return self.extend(cells)

    def insert(self, index: int, cell: Cell) -> None:
        cells = list(self._cells.values())
        cells.insert(index, _check_cell(cell, "CellList"))
        for k in list(self._cells.keys()):
            self._cells.pop(k)
        for i, c in enumerate(cells):
            self._cells[str(i)] = c
            object.__setattr__(self, str(i), c)

    def extend(self, cells: Iterable[Cell]) -> CellList:
        for cell in cells:
            self.append(cell)
        return self

    def append(self, cell: Cell) -> CellList:
        self.insert_child_to_cell(str(len(self)), _check_cell(cell, "CellList"))
        return self

    def construct(self, *inputs: Any) -> Any:
        raise NotImplementedError("A CellList is a container: iterate it and call its cells.")


class CellDict(Cell):
    """A dict of Cells, registered as children by key."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(auto_prefix=kwargs.get("auto_prefix", True))
        if args:
            self.update(args[0])

    def __getitem__(self, key: str) -> Cell:
        return self._cells[key]

    def __setitem__(self, key: str, cell: Cell) -> None:
        self.insert_child_to_cell(key, _check_cell(cell, "CellDict"))

    def __delitem__(self, key: str) -> None:
        delattr(self, key)

    def __len__(self) -> int:
        return len(self._cells)

    def __iter__(self) -> Iterator[str]:
        return iter(self._cells)

    def __contains__(self, key: object) -> bool:
        return key in self._cells

    def clear(self) -> None:
        for k in list(self._cells):
            delattr(self, k)

    def pop(self, key: str) -> Cell:
        v = self._cells[key]
        delattr(self, key)
        return v

    def keys(self) -> Any:
        return self._cells.keys()

    def values(self) -> Any:
        return self._cells.values()

    def items(self) -> Any:
        return self._cells.items()

    def update(self, cells: Any) -> None:
        items = cells.items() if isinstance(cells, dict) else cells
        for k, v in items:
            self[k] = v

    def construct(self, *inputs: Any) -> Any:
        raise NotImplementedError("A CellDict is a container: look cells up and call them.")
