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


def _err(fn: Any) -> list[str]:
    try:
        fn()
    except Exception as exc:  # noqa: BLE001 - recording the class and text
        return [type(exc).__name__, str(exc.args[0] if isinstance(exc, KeyError) and exc.args else exc)]
    return ["ok", ""]


def method_cases(nn: Any, ms: Any, np: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}

    class Add(nn.Cell):
        def construct(self, x, y=1.0):
            return x + y

    net = Add()
    log: list[str] = []

    def pre_a(cell, args):
        log.append("pre_a")
        return (args[0] * 2,)

    def pre_b(cell, args):
        log.append("pre_b")

    def pre_kw(cell, args, kwargs):
        log.append("pre_kw:" + ",".join(sorted(kwargs)))
        return args, {"y": 10.0}

    def post(cell, args, output):
        log.append("post")
        return output + 100

    def post_kw(cell, args, kwargs, output):
        log.append("post_kw:" + ",".join(sorted(kwargs)))

    h1 = net.register_forward_pre_hook(pre_a)
    net.register_forward_pre_hook(pre_b, prepend=True)
    h3 = net.register_forward_pre_hook(pre_kw, with_kwargs=True)
    net.register_forward_hook(post)
    net.register_forward_hook(post_kw, prepend=True, with_kwargs=True)
    x = ms.Tensor(np.array([1.0, 2.0], np.float32))
    out["hooks_out"] = net(x, y=3.0).asnumpy().tolist()
    out["hooks_log"] = list(log)
    h1.remove()
    h3.remove()
    log.clear()
    out["hooks_removed_out"] = net(x, y=3.0).asnumpy().tolist()
    out["hooks_removed_log"] = list(log)
    out["hook_not_callable"] = _err(lambda: nn.ReLU().register_forward_pre_hook(3))

    class Fails(nn.Cell):
        def construct(self, x):
            raise ValueError("boom")

    seen: list[str] = []
    f = Fails()
    f.register_forward_hook(lambda c, a, o: seen.append("always"), always_call=True)
    f.register_forward_hook(lambda c, a, o: seen.append("normal"))
    out["always_call_error"] = _err(lambda: f(x))
    out["always_call_log"] = seen

    class WithBprop(nn.Cell):
        def construct(self, x):
            return x * 2

        def bprop(self, x, out, dout):
            return (dout * 3,)

    bseen: list[str] = []
    wb = WithBprop()
    wb.register_forward_hook(lambda c, a, o: bseen.append("hook"))
    wb.register_forward_pre_hook(lambda c, a: bseen.append("pre"))
    out["bprop_cell_hooks"] = [wb(x).asnumpy().tolist(), bseen]

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.layers = nn.SequentialCell([nn.Dense(2, 3), nn.ReLU()])
            self.head = nn.Dense(3, 1)

        def construct(self, x):
            return self.head(self.layers(x))

    n = Net()
    rep = n.init_parameters_data()
    out["init_parameters_data"] = [
        type(rep).__name__,
        len(rep),
        sorted(k.name for k in rep),
        all(k is v for k, v in rep.items()),
    ]
    out["get_sub_cell"] = [repr(n.get_sub_cell("layers.0")), n.get_sub_cell("") is n]
    out["get_sub_cell_missing"] = _err(lambda: n.get_sub_cell("layers.9"))
    out["get_sub_cell_not_cell"] = _err(lambda: n.get_sub_cell("head.weight"))
    out["param_prefix_before"] = n.head.param_prefix
    n.update_cell_prefix()
    out["param_prefix_after"] = [n.param_prefix, n.layers.param_prefix, n.get_sub_cell("layers.0").param_prefix]
    n.update_cell_type("quant")
    out["cell_type"] = n.cell_type
    out["cls_name"] = [n.cls_name, nn.Dense(1, 1).cls_name]
    bd = n.parameters_broadcast_dict()
    out["parameters_broadcast_dict"] = [type(bd).__name__, list(bd)]
    out["parameters_broadcast_dict_empty"] = repr(nn.ReLU().parameters_broadcast_dict())
    out["parameters_broadcast_dict_no_recurse"] = repr(n.parameters_broadcast_dict(recurse=False))
    n.set_broadcast_flag()
    out["broadcast_flag"] = [n.get_flags().get("broadcast_flag"), n.head.get_flags().get("broadcast_flag")]
    out["phase_default"] = n.phase
    n.phase = "eval"
    out["phase_set"] = n.phase

    def set_phase():
        n.phase = 3

    out["phase_bad"] = _err(set_phase)

    class Dup(nn.Cell):
        def __init__(self):
            super().__init__()
            self.a = ms.Parameter(ms.Tensor(np.ones(1, np.float32)), name="w")
            self.b = ms.Parameter(ms.Tensor(np.ones(1, np.float32)), name="w")

        def construct(self, x):
            return x

    class HoldsDup(nn.Cell):
        def __init__(self):
            super().__init__(auto_prefix=False)
            self.d1 = nn.Dense(1, 1)
            self.d2 = nn.Dense(1, 1)

        def construct(self, x):
            return x

    out["check_names_dup"] = _err(lambda: Dup().check_names())
    hd = HoldsDup()
    out["check_names_holds_dup"] = _err(hd.check_names)
    hd.check_names_and_refresh_name()
    out["check_names_and_refresh_name"] = _names(hd)
    out["check_names_ok"] = _err(n.check_names)
    return out


def grad_wrapper_cases(nn: Any, ms: Any, np: Any) -> dict[str, Any]:
    """``nn.Jvp`` / ``nn.Vjp`` outputs (nested lists)."""

    def tolist(t: Any) -> Any:
        if isinstance(t, (tuple, list)):
            return [tolist(e) for e in t]
        return t.asnumpy().tolist()

    class F(nn.Cell):
        def construct(self, x, y):
            return x**3 + y

    class G(nn.Cell):
        def construct(self, x):
            return x**3

    class T(nn.Cell):
        def construct(self, x, y):
            return x * y, x + y

    x = ms.Tensor(np.array([[1, 2], [3, 4]], np.float32))
    y = ms.Tensor(np.array([[1, -2], [0.5, 4]], np.float32))
    v = ms.Tensor(np.array([[1, 0.5], [-1, 2]], np.float32))
    return {
        "jvp_two_inputs": tolist(nn.Jvp(F())(x, y, (v, v))),
        "jvp_one_input": tolist(nn.Jvp(G())(x, v)),
        "jvp_tuple_output": tolist(nn.Jvp(T())(x, y, (v, v))),
        "vjp_two_inputs": tolist(nn.Vjp(F())(x, y, v)),
        "vjp_one_input": tolist(nn.Vjp(G())(x, v)),
    }


def buffer_cases(nn: Any, ms: Any, np: Any) -> dict[str, Any]:
    """register_buffer / buffers / named_buffers / get_buffer / state_dict / load_state_dict."""
    out: dict[str, Any] = {}

    class N(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc = nn.Dense(2, 1)
            self.register_buffer("running", ms.Tensor(np.ones(2, np.float32)))
            self.register_buffer("tmp", ms.Tensor(np.zeros(1, np.float32)), persistent=False)

        def construct(self, x):
            return self.fc(x) + self.running.sum()

    class Owner(nn.Cell):
        def __init__(self):
            super().__init__()
            self.n = N()

        def construct(self, x):
            return self.n(x)

    o = Owner()
    out["named_buffers"] = [k for k, _ in o.named_buffers()]
    out["buffers"] = [len(list(o.buffers())), len(list(o.buffers(recurse=False)))]
    out["get_buffer"] = o.get_buffer("n.running").asnumpy().tolist()
    out["state_dict"] = [[k, type(v).__name__] for k, v in o.state_dict().items()]
    out["param_names"] = _names(o)
    r = o.load_state_dict(
        {
            "n.fc.weight": ms.Tensor(np.full((1, 2), 2, np.float32)),
            "n.fc.bias": ms.Tensor(np.zeros(1, np.float32)),
            "n.running": ms.Tensor(np.full(2, 3, np.float32)),
        }
    )
    x = ms.Tensor(np.ones((1, 2), np.float32))
    out["load_all"] = [repr(r), o.n.fc.weight.asnumpy().tolist(), o.n.running.asnumpy().tolist()]
    out["forward_after_load"] = o(x).asnumpy().tolist()
    o.n.register_buffer("running", ms.Tensor(np.full(2, 0.5, np.float32)))  # re-register to replace
    out["forward_after_reregister"] = o(x).asnumpy().tolist()
    r = o.load_state_dict(
        {"n.fc.weight": ms.Tensor(np.full((1, 2), 4, np.float32)), "extra": ms.Tensor(1.0)}, strict=False
    )
    out["load_not_strict"] = [repr(r), list(r.missing_keys), list(r.unexpected_keys), o.n.fc.weight.asnumpy().tolist()]
    out["load_strict_error"] = _err(lambda: o.load_state_dict({"extra": ms.Tensor(np.zeros(1, np.float32))}))
    out["register_errors"] = [
        _err(lambda: o.register_buffer(1, ms.Tensor(1.0))),
        _err(lambda: o.register_buffer("a.b", ms.Tensor(1.0))),
        _err(lambda: o.register_buffer("", ms.Tensor(1.0))),
        _err(lambda: o.register_buffer("n", ms.Tensor(1.0))),
        _err(lambda: o.register_buffer("z", 3)),
        _err(lambda: o.get_buffer("n.fc")),
        _err(lambda: o.get_buffer("n.nothing")),
    ]

    def assign_tensor():
        o.n.running = ms.Tensor(np.ones(2, np.float32))

    def assign_none():
        o.n.tmp = None

    out["assign_tensor"] = _err(assign_tensor)
    out["assign_none"] = [_err(assign_none), [k for k, _ in o.named_buffers()]]
    out["repr"] = repr(o)
    return out


def scope_cases(nn: Any, ms: Any, np: Any) -> dict[str, Any]:
    """get_scope/generate_scope, set_boost, set_inputs/get_inputs, set_jit_config/jit_config_dict."""
    out: dict[str, Any] = {}

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.layers = nn.SequentialCell([nn.Dense(2, 3), nn.ReLU()])
            self.head = nn.Dense(3, 1)

        def construct(self, x):
            return self.head(self.layers(x))

    n = Net()
    out["scope_before"] = [n.get_scope(), n.head.get_scope()]
    n.generate_scope()
    out["scope_after"] = [n.get_scope(), n.head.get_scope(), n.layers.get_scope(), n.layers[0].get_scope()]
    n.set_boost("less_bn")
    out["set_boost"] = [n.get_flags().get("less_bn"), n.head.get_flags().get("less_bn")]
    out["set_boost_bad"] = _err(lambda: n.set_boost("x"))
    out["get_inputs_default"] = repr(n.get_inputs())
    d = ms.Tensor(np.ones((1, 2), np.float32))
    n.set_inputs(d)
    out["get_inputs_set"] = [type(n.get_inputs()).__name__, len(n.get_inputs())]
    out["set_inputs_both"] = _err(lambda: n.set_inputs(d, x=d))[0]
    out["jit_config_default"] = n.jit_config_dict
    n.set_jit_config(ms.JitConfig(jit_level="O1"))
    out["jit_config_level"] = n.jit_config_dict.get("jit_level")
    n.set_jit_config(ms.JitConfig(jit_level="O2"))
    out["jit_config_once"] = n.jit_config_dict.get("jit_level")
    out["deprecated_return"] = [repr(n.cast_inputs((1,), ms.float16)), repr(n.remove_redundant_parameters())]
    return out


def checkpoint_file_cases(ms: Any, nn: Any, ds: Any, train: Any, np: Any, directory: str) -> list[str]:
    """File names ModelCheckpoint writes: two trainings with the same prefix in one directory (the second
    becomes ``<prefix>_1``), a save every 3 steps across epochs of 4 steps, and the end of training."""
    import os

    def data():
        x = np.ones((8, 2), np.float32)
        y = np.ones((8, 1), np.float32)
        return ds.NumpySlicesDataset({"x": x, "y": y}, shuffle=False).batch(2)

    net = nn.Dense(2, 1)
    model = train.Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.01))
    for _ in range(2):
        config = train.CheckpointConfig(save_checkpoint_steps=3, keep_checkpoint_max=10)
        cb = train.ModelCheckpoint(prefix="net", directory=directory, config=config)
        model.train(2, data(), callbacks=[cb], dataset_sink_mode=False)
    return sorted(os.listdir(directory))


def flag_cases(nn: Any) -> dict[str, Any]:
    """add_flags_recursive and set_comm_fusion."""
    seq = nn.SequentialCell([nn.Dense(2, 2), nn.ReLU()])
    seq.add_flags_recursive(my_flag=True)
    dense = nn.Dense(2, 2)
    dense.set_comm_fusion(3)
    frozen = nn.Dense(2, 2)
    frozen.bias.requires_grad = False
    frozen.set_comm_fusion(2)
    return {
        "add_flags_recursive": [seq.get_flags().get("my_flag"), seq[0].get_flags().get("my_flag"), seq[1].my_flag],
        "set_comm_fusion": [p.comm_fusion for p in dense.get_parameters()],
        "set_comm_fusion_trainable_only": [p.comm_fusion for p in frozen.get_parameters()],
        "set_comm_fusion_negative": _err(lambda: dense.set_comm_fusion(-1)),
        "set_comm_fusion_float": _err(lambda: dense.set_comm_fusion(1.5)),
    }
