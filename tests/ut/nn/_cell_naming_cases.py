"""Programs whose Parameter names, reprs and error messages are compared with MindSpore 2.10.

Each case takes the framework's ``nn`` module (``mindspore.nn`` in ``tools/make_cell_naming_reference.py``,
``sporax.nn`` in the tests) and returns plain data.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any


def _names(cell: Any) -> list[str]:
    return [p.name for p in cell.get_parameters()]


def naming_cases(nn: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.flatten = nn.Flatten()
            self.layers = nn.SequentialCell(nn.Dense(4, 3), nn.ReLU(), nn.Dense(3, 2))
            self.cl = nn.CellList([nn.Dense(2, 2), nn.Dense(2, 2)])
            self.cd = nn.CellDict({"a": nn.Dense(2, 2)})

        def construct(self, x):
            return x

    net = Net()
    out["parent_containers"] = _names(net)
    out["parent_containers_structural"] = [n for n, _ in net.parameters_and_names()]

    class Empty(nn.Cell):
        def construct(self, x):
            return x

    e = Empty()
    e.insert_child_to_cell("fc", nn.Dense(2, 2))
    out["insert_child"] = _names(e)
    out["insert_child_structural"] = [n for n, _ in e.parameters_and_names()]
    e2 = Empty()
    e2.fc = nn.Dense(2, 2)
    out["setattr_child"] = _names(e2)
    e3 = Empty()
    e3.seq = nn.SequentialCell([nn.Dense(2, 2)])
    e3.update_parameters_name("pre.")
    out["update_parameters_name"] = _names(e3)
    e3.update_parameters_name("q.", recurse=False)
    out["update_parameters_name_no_recurse"] = _names(e3)

    class NoPrefix(nn.Cell):
        def __init__(self):
            super().__init__(auto_prefix=False)
            self.fc = nn.Dense(2, 2)

        def construct(self, x):
            return x

    class HoldsNoPrefix(nn.Cell):
        def __init__(self):
            super().__init__()
            self.f = NoPrefix()

        def construct(self, x):
            return x

    out["auto_prefix_false"] = _names(NoPrefix())
    out["parent_of_auto_prefix_false"] = _names(HoldsNoPrefix())

    class EmptyThenAppend(nn.Cell):
        def __init__(self):
            super().__init__()
            self.layers = nn.CellList()
            for _ in range(3):
                self.layers.append(nn.Dense(2, 2))

        def construct(self, x):
            return x

    class Outer(nn.Cell):
        def __init__(self):
            super().__init__()
            self.inner = EmptyThenAppend()

        def construct(self, x):
            return x

    out["celllist_empty_then_append"] = _names(EmptyThenAppend())
    out["outer_of_empty_then_append"] = _names(Outer())

    class ListOps(nn.Cell):
        def __init__(self):
            super().__init__()
            self.layers = nn.CellList([nn.Dense(2, 2)])
            self.layers.append(nn.Dense(2, 2))
            self.layers.insert(0, nn.Dense(2, 2))
            self.layers.extend([nn.Dense(2, 2)])
            del self.layers[1]
            self.layers[0] = nn.Dense(2, 2)

        def construct(self, x):
            return x

    out["celllist_ops_in_parent"] = _names(ListOps())

    class SeqOps(nn.Cell):
        def __init__(self):
            super().__init__()
            self.layers = nn.SequentialCell([nn.Dense(2, 2), nn.ReLU(), nn.Dense(2, 2)])
            self.layers.append(nn.Dense(2, 2))
            self.layers[0] = nn.Dense(2, 2)
            del self.layers[1]
            self.named = nn.SequentialCell(OrderedDict([("a", nn.Dense(2, 2)), ("b", nn.Dense(2, 2))]))
            del self.named[0]

        def construct(self, x):
            return x

    seq_ops = SeqOps()
    out["sequential_ops_in_parent"] = _names(seq_ops)
    out["sequential_ops_keys"] = [list(seq_ops.layers.name_cells()), list(seq_ops.named.name_cells())]

    class DictOps(nn.Cell):
        def __init__(self):
            super().__init__()
            self.blocks = nn.CellDict()
            self.blocks["x"] = nn.Dense(2, 2)
            self.blocks2 = nn.CellDict({"y": nn.Dense(2, 2)})
            self.blocks2["z"] = nn.Dense(2, 2)

        def construct(self, x):
            return x

    out["celldict_ops"] = _names(DictOps())
    cl = nn.CellList([nn.Dense(2, 2)], auto_prefix=False)
    cl.append(nn.Dense(2, 2))
    out["celllist_auto_prefix_false"] = _names(cl)
    s = nn.SequentialCell()
    s.append(nn.Dense(2, 2))
    out["sequential_empty_append"] = _names(s)
    return out


def repr_cases(nn: Any) -> dict[str, str]:
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.flatten = nn.Flatten()
            self.layers = nn.SequentialCell(nn.Dense(4, 3), nn.ReLU(), nn.Dense(3, 2, has_bias=False))
            self.cl = nn.CellList([nn.Dense(2, 2)])
            self.cd = nn.CellDict({"a": nn.ReLU()})

        def construct(self, x):
            return x

    class Multi(nn.Cell):
        def __init__(self):
            super().__init__()
            self.a = nn.Dense(2, 2)

        def extend_repr(self):
            return "x=1\ny=2"

        def construct(self, x):
            return x

    class MultiLeaf(nn.Cell):
        def extend_repr(self):
            return "x=1\ny=2"

        def construct(self, x):
            return x

    class Wrap(nn.Cell):
        def __init__(self):
            super().__init__()
            self.s = nn.SequentialCell([Multi()])

        def construct(self, x):
            return x

    relu = nn.ReLU()
    relu.insert_child_to_cell("child", nn.Dense(2, 2))
    return {
        "net": repr(Net()),
        "str_net": str(Net()),
        "multi": repr(Multi()),
        "multi_leaf": repr(MultiLeaf()),
        "nested": repr(Wrap()),
        "relu_with_child": repr(relu),
        "empty_sequential": repr(nn.SequentialCell()),
        "empty_celllist": repr(nn.CellList()),
        "flatten": repr(nn.Flatten()),
    }


def error_cases(nn: Any) -> dict[str, list[str]]:
    cases = {
        "insert_child_name_int": lambda: nn.ReLU().insert_child_to_cell(3, nn.ReLU()),
        "insert_child_name_empty": lambda: nn.ReLU().insert_child_to_cell("", nn.ReLU()),
        "insert_child_name_dot": lambda: nn.ReLU().insert_child_to_cell("a.b", nn.ReLU()),
        "insert_child_existing_attr": lambda: nn.ReLU().insert_child_to_cell("training", nn.ReLU()),
        "insert_child_not_cell": lambda: nn.ReLU().insert_child_to_cell("x", 3),
        "celllist_not_cell": lambda: nn.CellList([3]),
        "sequential_index_range": lambda: nn.SequentialCell([nn.ReLU()])[5],
        "sequential_index_type": lambda: nn.SequentialCell([nn.ReLU()])["a"],
        "celllist_insert_range": lambda: nn.CellList([nn.ReLU()]).insert(5, nn.ReLU()),
        "sequential_bad_arg": lambda: nn.SequentialCell(3),
        "celllist_extend_not_list": lambda: nn.CellList(nn.ReLU()),
        "celldict_container_value": lambda: nn.CellDict({"a": nn.CellList()}),
        "celldict_dot_key": lambda: nn.CellDict({"a.b": nn.ReLU()}),
    }

    def replace_child_by_int():
        class P(nn.Cell):
            def __init__(self):
                super().__init__()
                self.child = nn.ReLU()

            def construct(self, x):
                return x

        P().child = 3

    cases["replace_child_by_int"] = replace_child_by_int
    out = {}
    for name, fn in cases.items():
        try:
            fn()
            out[name] = ["ok", ""]
        except Exception as exc:  # noqa: BLE001 - recording the class and text
            msg = exc.args[0] if isinstance(exc, KeyError) and exc.args else str(exc)
            out[name] = [type(exc).__name__, str(msg)]
    return out
