"""mindspore.rewrite on sporax: nodes of a construct, edits, and the rewritten networks' outputs against
MindSpore 2.10 (references: tools/make_top_reference.py extra, networks of tools/rewrite_reference_nets.py)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, nn, ops
from sporax.rewrite import Node, NodeType, ScopedValue, SymbolTree, ValueType

REF = json.loads((Path(__file__).parent / "fixtures" / "top_extra_reference.json").read_text())["rewrite"]
X = np.array([[1.0, -2.0, 3.0, 0.5], [0.0, 1.0, -1.0, 2.0]], np.float32)


def _dense():
    d = nn.Dense(4, 3)
    d.weight.set_data(Tensor(np.arange(12, dtype=np.float32).reshape(3, 4) / 10 - 0.5))
    d.bias.set_data(Tensor(np.array([0.1, -0.2, 0.3], np.float32)))
    return d


class RwNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = _dense()
        self.relu = nn.ReLU()
        self.add = ops.Add()

    def construct(self, x, y=1):
        x = self.dense(x)
        z = self.relu(x)
        w = self.add(z, y)
        v = ops.abs(w)
        u = v * 2 + x
        return u


class RwSub(nn.Cell):
    def __init__(self):
        super().__init__()
        self.relu = nn.ReLU()

    def construct(self, x):
        return self.relu(x) + 1


class RwOuter(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = _dense()
        self.sub = RwSub()

    def construct(self, x):
        x = self.dense(x)
        y = self.sub(x)
        return y


def _nodes(stree):
    return [
        [str(n.get_node_type()), [str(t) for t in n.get_targets()], [str(a) for a in n.get_args()]]
        for n in stree.nodes()
    ]


def test_nodes_insert_erase():
    net = RwNet()
    stree = SymbolTree.create(net)
    assert _nodes(stree) == REF["nodes"]
    relu = stree.get_node("relu")
    assert [u.get_name() for u in relu.get_users()] == REF["relu_users"]
    assert [i.get_name() for i in relu.get_inputs()] == REF["relu_inputs"]
    assert relu.get_instance() is net.relu and relu.get_instance_type() is nn.ReLU
    assert stree.get_node("add").get_node_type() == NodeType.CallPrimitive
    assert stree.get_node("abs").get_instance() is ops.abs
    new = Node.create_call_cell(nn.Sigmoid(), targets=["x_1"], args=[ScopedValue.create_naming_value("z")], name="sig")
    stree.insert(stree.after(relu), new)
    stree.get_node("add").set_arg(0, "x_1")
    assert _nodes(stree) == REF["inserted_nodes"]
    assert "x_1 = self.sig(z)" in stree.get_code()
    new_net = stree.get_network()
    np.testing.assert_allclose(new_net(Tensor(X)).asnumpy(), REF["inserted_out"], rtol=1e-6)
    assert isinstance(new_net, RwNet) and new_net.dense is net.dense and isinstance(new_net.sig, nn.Sigmoid)
    assert not hasattr(net, "sig")  # the original network is unchanged
    stree.erase(stree.get_node("sig"))
    stree.get_node("add").set_arg(0, "z")
    np.testing.assert_allclose(stree.get_network()(Tensor(X)).asnumpy(), REF["erased_out"], rtol=1e-6)
    np.testing.assert_allclose(net(Tensor(X)).asnumpy(), REF["erased_out"], rtol=1e-6)


def test_sub_tree_replace_and_graph_mode():
    outer = SymbolTree.create(RwOuter())
    assert _nodes(outer) == REF["outer_nodes"]
    sub = outer.get_node("sub").get_sub_tree()
    assert [row[:2] for row in _nodes(sub)] == [row[:2] for row in REF["sub_nodes"]]
    tanh = Node.create_call_cell(nn.Tanh(), targets=["t"], args=[ScopedValue.create_naming_value("x")], name="tanh")
    assert sub.replace(sub.get_node("relu"), [tanh]) is tanh
    sub.get_node("binop_add").set_arg(0, "t")
    net = outer.get_network()
    np.testing.assert_allclose(net(Tensor(X)).asnumpy(), REF["replaced_out"], rtol=1e-6)
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        np.testing.assert_allclose(net(Tensor(X)).asnumpy(), REF["replaced_out"], rtol=1e-6)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert [n.get_name() for n in outer.nodes(all_nodes=True)][:3] == ["input_x", "dense", "sub"]


def test_scoped_values_and_errors():
    values = [1, 1.5, "s", (1, 2), [1, 2], {"a": 1}, None, True]
    assert [str(ScopedValue.create_variable_value(v)) for v in values] == REF["scoped_str"]
    assert [str(ScopedValue.create_variable_value(v).type) for v in values] == REF["scoped_type"]
    assert [str(v) for v in ScopedValue.create_name_values(["a", "b"], ["self", ""])] == REF["name_values"]
    assert ScopedValue.create_naming_value("x") == ScopedValue.create_naming_value("x")
    assert {m.name: m.value for m in NodeType} == REF["node_types"]
    assert {m.name: m.value for m in ValueType} == REF["value_types"]
    stree = SymbolTree.create(RwNet())
    cases = {
        "cell": lambda: Node.create_call_cell(1, ["x"]),
        "targets": lambda: Node.create_call_cell(nn.ReLU(), "x"),
        "args": lambda: Node.create_call_cell(nn.ReLU(), ["x"], args=[1]),
        "position": lambda: stree.after(stree.get_node("nothing")),
    }
    for key, fn in cases.items():
        with pytest.raises(TypeError) as info:
            fn()
        assert str(info.value) == REF["errors"][key]["message"]


class Flow(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = _dense()
        self.flag = False

    def construct(self, x, *rest):
        x = self.dense(x)
        if self.flag:
            x = x * 10
        else:
            x = x - 1
        z = x.reshape((3, 2))
        a, b, c = ops.split(z, 1)
        self.last = a
        return ops.relu(z), b


def test_control_flow_methods_functions_and_code(tmp_path):
    net = Flow()
    stree = SymbolTree.create(net)
    kinds = {n.get_name(): n.get_node_type() for n in stree.nodes()}
    assert kinds["if_node"] == NodeType.ControlFlow and kinds["reshape"] == NodeType.CallMethod
    assert kinds["split"] == NodeType.CallFunction and kinds["python_node"] == NodeType.Python
    assert [str(t) for t in stree.get_node("split").get_targets()] == ["a", "b", "c"]
    stree.flatten_static_if_control_flow()
    assert "if" not in stree.get_code() and "x = x - 1" in stree.get_code()
    func = Node.create_call_function(ops.exp, targets=["e"], args=[ScopedValue.create_naming_value("b")])
    stree.insert(stree.before(stree.get_node("relu")), func)
    stree.set_output(1, "e")
    new = stree.get_network()
    relu, e = new(Tensor(X))
    d = X @ (np.arange(12, dtype=np.float32).reshape(3, 4) / 10 - 0.5).T + np.array([0.1, -0.2, 0.3], np.float32) - 1
    np.testing.assert_allclose(relu.asnumpy(), np.maximum(d.reshape(3, 2), 0), rtol=1e-6)
    np.testing.assert_allclose(e.asnumpy(), np.exp(d.reshape(3, 2)[1:2]), rtol=1e-6)
    assert stree.unique_name("x") == "x_1" and stree.unique_name("fresh") == "fresh"
    stree.set_saved_file_name(str(tmp_path / "flow"))
    stree.save_network_to_file()
    assert (tmp_path / "flow.py").read_text().startswith("class FlowOpt(Flow):")
    stree.print_node_tabulate()
    assert ms.SymbolTree is SymbolTree and ms.ScopedValue is ScopedValue
