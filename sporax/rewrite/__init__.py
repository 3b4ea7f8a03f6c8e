"""``mindspore.rewrite``: edit a network's ``construct`` as nodes (read from its source with Python's ``ast``)
and make a new network from the edited code.

    >>> stree = SymbolTree.create(net)
    >>> relu = stree.get_node("relu")
    >>> node = Node.create_call_cell(nn.Sigmoid(), targets=["s"], args=[ScopedValue.create_naming_value("x")])
    >>> stree.insert(stree.after(relu), node)
    >>> new_net = stree.get_network()
"""

from ._node import Node, NodeType
from ._tree import SymbolTree
from ._values import ScopedValue, ValueType

__all__ = ["SymbolTree", "Node", "NodeType", "ScopedValue", "ValueType"]
