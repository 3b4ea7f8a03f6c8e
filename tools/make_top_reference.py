"""Reference values for the top-level / common / autodiff tests, recorded under real MindSpore 2.10.

    /work/msvenv/bin/python tools/make_top_reference.py   # writes tests/ut/common/fixtures/top_reference.json
    /work/msvenv/bin/python tools/make_top_reference.py train   # tests/ut/train/fixtures/top_train_reference.json
    /work/msvenv/bin/python tools/make_top_reference.py extra   # tests/ut/common/fixtures/top_extra_reference.json

Run from a directory outside MindSpore's install. Each entry is what MindSpore returned (values as lists) or
raised (exception class name and message); tests/ut/common/test_top_level.py and test_grad_signatures.py
compare sporax against it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parent.parent / "tests" / "ut" / "common" / "fixtures" / "top_reference.json"


def _err(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001
        return {
            "error": type(e).__name__,
            "message": str(e).split("\n")[0],
            "mro": [c.__name__ for c in type(e).__mro__],
        }
    return {"error": None}


def _val(t):
    if isinstance(t, tuple | list):
        return [_val(x) for x in t]
    return np.asarray(t.asnumpy() if hasattr(t, "asnumpy") else t).tolist()


def _log_config_in_subprocess(env: dict[str, str]) -> dict:
    code = "import json, mindspore as ms; print(json.dumps([ms.get_level(), ms.get_log_config()]))"
    full = {k: v for k, v in os.environ.items() if not k.startswith(("GLOG", "logger_"))}
    full.update(env)
    out = subprocess.run([sys.executable, "-c", code], env=full, capture_output=True, text=True, cwd="/tmp")
    lines = [ln for ln in out.stdout.splitlines() if ln.startswith("[")]
    if not lines:
        return {"error": [ln for ln in out.stderr.splitlines() if "Error" in ln][-1]}
    line = lines[-1]
    level, cfg = json.loads(line)
    return {"level": level, "config": cfg}


def main() -> None:
    import mindspore as ms
    from mindspore import Parameter, Tensor, nn
    from mindspore.common import dtype as mstype

    ref: dict = {}
    names = [
        "bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32",
        "float64", "bfloat16", "complex64", "complex128", "float8_e4m3fn", "float8_e5m2", "hifloat8", "qint4x2",
        "list_", "tuple_", "type_none", "number", "_null", "string", "tensor_type", "cfloat", "cdouble", "long",
        "intp", "short", "intc", "byte", "ubyte", "ushort", "uintc", "uintp", "half", "single", "double",
    ]  # fmt: skip
    ref["dtype"] = {n: [repr(getattr(mstype, n)), str(getattr(mstype, n))] for n in names}
    tt = mstype.TensorType(mstype.float32)
    ref["tensor_type"] = [repr(tt), str(tt), repr(tt.element_type())]
    ref["float_type"] = [repr(t) for t in mstype.float_type]
    ref["quant_dtype"] = {m.name: m._value_ for m in mstype.QuantDtype}

    # autodiff signatures
    x = Tensor(np.array([1.0, 2.0, 3.0], np.float32))
    y = Tensor(np.array([2.0, 3.0, 4.0], np.float32))
    s = Tensor(np.array([0.5, 1.0, 2.0], np.float32))

    def f(a, b):
        return a * a * b

    def g(a, b):
        return a * b, a + b

    def h(a):
        return a * 2, a * 3

    p = Parameter(Tensor(np.array([1.0, 2.0, 3.0], np.float32)), name="p")
    ref["grad"] = {
        "sens": _val(ms.grad(f, 0, sens_param=True)(x, y, s)),
        "sens_pos01": _val(ms.grad(f, (0, 1), sens_param=True)(x, y, s)),
        "vag_sens": _val(ms.value_and_grad(f, 0, sens_param=True)(x, y, s)),
        "sens_tuple_out": _val(ms.grad(g, 0, sens_param=True)(x, y, (s, s))),
        "sens_has_aux": _val(ms.grad(h, 0, has_aux=True, sens_param=True)(x, s)),
        "vag_sens_has_aux": _val(ms.value_and_grad(h, 0, has_aux=True, sens_param=True)(x, s)),
        "param_pos": _val(ms.grad(f, 0)(p, y)),
        "param_pos_both": _val(ms.grad(f, (0, 1))(p, y)),
        "vag_param": _val(ms.value_and_grad(f, 1)(y, p)),
    }
    net = nn.Dense(3, 2, weight_init="ones", bias_init="zeros")
    ones = Tensor(np.ones((1, 3), np.float32))
    fvg = nn.ForwardValueAndGrad(net, weights=net.trainable_params(), get_by_list=True)
    ref["forward_value_and_grad_list"] = _val(fvg(ones))
    ref["forward_value_and_grad_bad"] = _err(lambda: nn.ForwardValueAndGrad(net, weights=3, get_by_list=True))
    ref["grad_op_param_pos"] = _val(ms.ops.GradOperation(get_all=True)(f)(p, y))

    # top level
    ref["jit_config"] = ms.JitConfig(jit_level="O1").jit_config_dict
    ref["jit_config_default"] = ms.JitConfig().jit_config_dict
    ref["jit_config_errors"] = {
        k: _err(lambda k=k, v=v: ms.JitConfig(**{k: v}))
        for k, v in [("jit_level", "O5"), ("exc_mode", "x"), ("jit_syntax_level", "X"), ("debug_level", "x"),
                     ("infer_boost", "x")]
    }  # fmt: skip
    ref["jit_errors"] = {
        k: _err(lambda k=k, v=v: ms.jit(lambda a: a, **{k: v}))
        for k, v in [("jit_level", "O2"), ("capture_mode", "x"), ("dynamic", 2)]
    }
    ref["syntax_levels"] = [ms.STRICT, ms.COMPATIBLE, ms.LAX, ms.get_context("jit_syntax_level")]
    ref["syntax_level_error"] = _err(lambda: ms.set_context(jit_syntax_level=5))
    ref["seed_errors"] = {"float": _err(lambda: ms.manual_seed(1.5)), "str": _err(lambda: ms.manual_seed("1"))}
    ref["manual_seed"] = [ms.manual_seed(5) is ms.default_generator, ms.initial_seed(), ms.get_seed()]
    gen = ms.Generator()
    ref["generator"] = [gen.initial_seed(), gen.manual_seed(7) is gen, gen.initial_seed()]
    ref["rng_state"] = [str(ms.get_rng_state().dtype), list(ms.get_rng_state().shape)]
    ref["from_numpy"] = [_val(ms.from_numpy(np.arange(6, dtype=np.float32).reshape(2, 3))),
                         str(ms.from_numpy(np.arange(3, dtype=np.int32)).dtype)]  # fmt: skip
    ref["from_numpy_error"] = _err(lambda: ms.from_numpy([1, 2]))
    ref["current_device"] = list(ms.get_current_device())
    ref["set_device_error"] = _err(lambda: ms.set_device("GPUX"))
    ref["set_device_id_error"] = _err(lambda: ms.set_device("CPU", -1))
    ref["set_deterministic_type_error"] = _err(lambda: ms.set_deterministic(1))
    ms.set_deterministic(True)
    ref["deterministic"] = ms.get_context("deterministic")
    ref["set_deterministic_again"] = _err(lambda: ms.set_deterministic(True))

    class Plain:
        pass

    ref["jit_class"] = [ms.jit_class(Plain) is Plain]
    ref["jit_class_errors"] = {"cell": _err(lambda: ms.jit_class(nn.Dense)), "int": _err(lambda: ms.jit_class(3))}
    # recompute: gradient of a recomputed Dense equals the plain one
    w_plain = ms.grad(lambda a: net(a).sum(), None, net.trainable_params())(ones)
    w_remat = ms.grad(lambda a: ms.recompute(net, a).sum(), None, net.trainable_params())(ones)
    ref["recompute"] = [_val(w_plain), _val(w_remat)]
    ref["recompute_error"] = _err(lambda: ms.recompute(lambda a: a, ones))

    # error classes of C++ checks (issue 12)
    ref["tensor_errors"] = {
        "ragged": _err(lambda: Tensor([[1, 2], [3]])),
        "ragged_float": _err(lambda: Tensor([[1.0, 2.0], [3.0]])),
        "strings": _err(lambda: Tensor(["a", "b"])),
    }
    ref["conv_errors"] = {
        "conv1d": _err(lambda: nn.Conv1d(3, 4, 3)(Tensor(np.ones((1, 2, 5), np.float32))).asnumpy()),
        "conv2d": _err(lambda: nn.Conv2d(3, 4, 3)(Tensor(np.ones((1, 2, 5, 5), np.float32))).asnumpy()),
        "conv2d_group": _err(lambda: nn.Conv2d(4, 4, 3, group=2)(Tensor(np.ones((1, 2, 5, 5), np.float32))).asnumpy()),
        "conv3d": _err(lambda: nn.Conv3d(3, 4, 3)(Tensor(np.ones((1, 2, 5, 5, 5), np.float32))).asnumpy()),
    }
    dense = nn.Dense(3, 2)
    opt = nn.Momentum(dense.trainable_params(), 0.1, 0.9)
    ref["optimizer_fewer_grads"] = _err(lambda: opt((Tensor(np.ones((2, 3), np.float32)),)))

    # higher-order derivatives
    xs = Tensor(np.array([0.5, 1.0], np.float32))

    def sin_x(a):
        return ms.ops.sin(a) * a

    lin_out, lin_fn = ms.ops.linearize(sin_x, xs)
    ref["higher_order"] = {
        "derivative1": _val(ms.ops.derivative(sin_x, xs, 1)),
        "derivative3": _val(ms.ops.derivative(sin_x, xs, 3)),
        "jet": _val(ms.ops.jet(sin_x, xs, Tensor(np.array([[1.0, 1.0], [0.0, 0.0], [0.0, 0.0]], np.float32)))),
        "jet2": _val(ms.ops.jet(sin_x, xs, Tensor(np.array([[1.0, 2.0], [0.5, 0.0]], np.float32)))),
        "linearize": [_val(lin_out), _val(lin_fn(Tensor(np.array([1.0, 2.0], np.float32))))],
    }

    # Tensor.register_hook
    seen: list = []

    def hook(g):
        seen.append(_val(g))
        return g * 3

    def hooked(a):
        b = a * 2
        b.register_hook(hook)
        return (b * b).sum()

    def removed(a):
        b = a * 2
        b.register_hook(hook).remove()
        return (b * b).sum()

    ref["register_hook"] = {
        "grad": _val(ms.grad(hooked)(xs)),
        "seen": list(seen),
        "removed": _val(ms.grad(removed)(xs)),
        "bad": _err(lambda: xs.register_hook(3)),
    }
    pnet = nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
    pseen: list = []

    def phook(g):
        pseen.append(_val(g))
        return g * 10

    handle = pnet.weight.register_hook(phook)
    ones12 = Tensor(np.ones((1, 2), np.float32))
    ref["register_hook"]["parameter"] = _val(ms.grad(lambda a: pnet(a).sum(), None, pnet.trainable_params())(ones12))
    ref["register_hook"]["parameter_seen"] = list(pseen)
    handle.remove()
    ref["register_hook"]["parameter_removed"] = _val(
        ms.grad(lambda a: pnet(a).sum(), None, pnet.trainable_params())(ones12)
    )

    # Cells and Tensors created inside @jit / construct under GRAPH_MODE (issue 12)
    x23 = Tensor(np.ones((2, 3), np.float32))

    @ms.jit
    def dense_in_jit(a):
        return nn.Dense(3, 2, weight_init="ones", bias_init="zeros")(a)

    @ms.jit
    def tensor_in_jit(a):
        return a * Tensor(np.full((3,), 2.0, np.float32))

    class ReluInConstruct(nn.Cell):
        def construct(self, a):
            return nn.ReLU()(a - 2)

    ref["jit_created"] = {
        "dense": _val(dense_in_jit(x23)),
        "dense_again": _val(dense_in_jit(x23 * 2)),
        "tensor": _val(tensor_in_jit(x23)),
        "grad": _val(ms.grad(dense_in_jit)(x23)),
    }
    ms.set_context(mode=ms.GRAPH_MODE)
    ref["jit_created"]["cell_in_construct"] = _val(ReluInConstruct()(x23 * 3))
    ms.set_context(mode=ms.PYNATIVE_MODE)

    @ms.jit
    def param_in_jit(a):
        return a + Parameter(Tensor(np.ones(3, np.float32)), name="p")

    ref["jit_created"]["parameter_error"] = _err(lambda: param_in_jit(x23))

    # log
    ref["log"] = {
        "default": _log_config_in_subprocess({}),
        "v3": _log_config_in_subprocess({"GLOG_v": "3"}),
        "v0": _log_config_in_subprocess({"GLOG_v": "0"}),
        "bad_level": _log_config_in_subprocess({"GLOG_v": "9"}),
        "file": _log_config_in_subprocess({"GLOG_logtostderr": "0", "GLOG_log_dir": "/tmp/topa_ref_logs"}),
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(ref, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {OUT}")


TRAIN_OUT = OUT.parent.parent.parent / "train" / "fixtures" / "top_train_reference.json"
FIT_CKPT = TRAIN_OUT.parent / "fit_eval_net.ckpt"


def fit_eval_data():
    """The data of the Model.fit evaluation reference (shared with tests/ut/train/test_top_train.py)."""
    rng = np.random.RandomState(0)
    x, y = rng.randn(10, 3).astype(np.float32), rng.randn(10, 2).astype(np.float32)
    vx, vy = rng.randn(7, 3).astype(np.float32), rng.randn(7, 2).astype(np.float32)
    return x, y, vx, vy


def _summary_names(d: str) -> list[str]:
    import platform
    import re

    names = sorted(os.listdir(d))
    return [re.sub(r"\.\d{9,11}\.", ".<time>.", n).replace(platform.node(), "<host>") for n in names]


def _convert_reference() -> dict:
    """ckpt_to_safetensors / safetensors_to_ckpt: files made, names, errors (paths as <d>)."""
    import tempfile

    import mindspore as ms
    from mindspore import nn

    d = tempfile.mkdtemp()
    out: dict = {}
    net = nn.Dense(2, 2)
    ms.save_checkpoint(net, os.path.join(d, "a.ckpt"))
    ms.ckpt_to_safetensors(os.path.join(d, "a.ckpt"), name_map={"weight": "w2"})
    out["single"] = sorted(os.listdir(d))
    out["renamed"] = sorted(ms.load_checkpoint(os.path.join(d, "a.safetensors"), format="safetensors"))
    os.makedirs(os.path.join(d, "rank_0"))
    ms.save_checkpoint(net, os.path.join(d, "rank_0", "b.ckpt"))
    ms.ckpt_to_safetensors(d, save_path=os.path.join(d, "out"))
    out["dir"] = [sorted(os.listdir(os.path.join(d, "out"))), sorted(os.listdir(os.path.join(d, "out", "rank_0")))]
    ms.safetensors_to_ckpt(os.path.join(d, "out"), save_path=os.path.join(d, "back"), file_name_regex="^b")
    out["back"] = sorted(os.listdir(os.path.join(d, "back", "rank_0")))
    cases = {
        "missing": ("/nonexist",),
        "save_path_file": (os.path.join(d, "a.ckpt"), os.path.join(d, "x.txt")),
        "name_map": (os.path.join(d, "a.ckpt"), None, [1]),
        "suffix": (os.path.join(d, "a.safetensors"),),
        "regex": (os.path.join(d, "a.ckpt"), None, None, "zzz"),
        "no_rank": (os.path.join(d, "out", "rank_0"),),
    }
    errors = {}
    for key, args in cases.items():
        e = _err(lambda args=args: ms.ckpt_to_safetensors(*args))
        e["message"] = e["message"].replace(d, "<d>")
        errors[key] = e
    e = _err(lambda: ms.safetensors_to_ckpt(os.path.join(d, "a.ckpt")))
    e["message"] = e["message"].replace(d, "<d>")
    errors["to_ckpt_suffix"] = e
    out["errors"] = errors
    out["async_status"] = ms.async_ckpt_thread_status()
    return out


LANDSCAPE = {"landscape_size": 4, "unit": "epoch", "num_samples": 8,
             "create_landscape": {"train": True, "result": False}, "intervals": [[1, 2, 3]]}  # fmt: skip


def _landscape_reference() -> dict:
    """SummaryCollector's landscape checkpoints and SummaryLandscape's PCA landscape (3 epochs of a Dense)."""
    import tempfile

    import mindspore as ms
    import mindspore.dataset as ds
    from mindspore import nn
    from mindspore.train import Model, SummaryCollector, SummaryLandscape

    d = tempfile.mkdtemp()
    x, y, vx, vy = fit_eval_data()

    def make():
        net = nn.Dense(3, 2)
        ms.load_checkpoint(str(FIT_CKPT), net)
        return net

    net = make()
    train = ds.NumpySlicesDataset({"x": x, "y": y}, shuffle=False).batch(4)
    collector = SummaryCollector(d, collect_specified_data={"collect_landscape": LANDSCAPE})
    Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.1)).train(3, train, callbacks=[collector],
                                                                        dataset_sink_mode=False)  # fmt: skip
    out: dict = {"ckpt_dir": sorted(os.listdir(os.path.join(d, "ckpt_dir")))}
    with open(os.path.join(d, "ckpt_dir", "train_metadata.json"), encoding="utf-8") as f:
        meta = json.load(f)
    meta["model_params_file_map"] = {k: os.path.basename(v) for k, v in meta["model_params_file_map"].items()}
    out["metadata"] = meta

    def callback_fn():
        network = make()
        valid = ds.NumpySlicesDataset({"x": vx, "y": vy}, shuffle=False).batch(2)
        return Model(network, nn.MSELoss()), network, valid, {"Loss": nn.Loss()}

    land = SummaryLandscape(d)
    land._epoch_group = meta["epoch_group"]
    with open(os.path.join(d, "ckpt_dir", "train_metadata.json"), encoding="utf-8") as f:
        land._model_params_file_map = json.load(f)["model_params_file_map"]
    result = land._create_landscape_by_pca([1, 2, 3], 0.2, LANDSCAPE["landscape_size"], callback_fn=callback_fn)
    p = result.landscape_points
    out["pca"] = {"x": p.x[0].tolist(), "y": p.y[:, 0].tolist(), "z": np.asarray(p.z).tolist(),
                  "path": [result.path_points.x.tolist(), result.path_points.y.tolist(), result.path_points.z.tolist()],
                  "convergence": [float(result.convergence_point.z[0])]}  # fmt: skip
    return out


def _lineage_events(path: str) -> list:
    import struct

    from google.protobuf.json_format import MessageToDict
    from mindspore.train import lineage_pb2

    data, i, out = open(path, "rb").read(), 0, []
    while i < len(data):
        n = struct.unpack("<Q", data[i : i + 8])[0]
        event = lineage_pb2.LineageEvent()
        event.ParseFromString(data[i + 12 : i + 12 + n])
        d = MessageToDict(event, preserving_proto_field_name=True)
        d.pop("wall_time", None)
        out.append(d)
        i += 16 + n
    return out


def _lineage_reference() -> dict:
    """The _lineage files SummaryCollector writes for Model.train and Model.eval (file names, events)."""
    import tempfile

    import mindspore as ms
    import mindspore.dataset as ds
    from mindspore import nn
    from mindspore.train import Model, SummaryCollector

    x, y, vx, vy = fit_eval_data()
    net = nn.Dense(3, 2)
    ms.load_checkpoint(str(FIT_CKPT), net)
    model = Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.1), metrics={"loss": nn.Loss()})
    out: dict = {}
    for mode in ("train", "eval"):
        d = tempfile.mkdtemp()
        data = ds.NumpySlicesDataset({"x": x, "y": y} if mode == "train" else {"x": vx, "y": vy}, shuffle=False)
        collector = SummaryCollector(d, collect_freq=1, collect_specified_data={"collect_landscape": None})
        if mode == "train":
            model.train(2, data.batch(4), callbacks=[collector], dataset_sink_mode=False)
        else:
            model.eval(data.batch(3), callbacks=[collector], dataset_sink_mode=False)
        names = _summary_names(d)
        (lineage,) = [n for n in os.listdir(d) if n.endswith("_lineage")]
        out[mode] = {"files": names, "events": _lineage_events(os.path.join(d, lineage))}
    return out


def train_main() -> None:
    """Model.fit's evaluation figures and SummaryRecord's file names under MindSpore 2.10."""
    import tempfile

    import mindspore as ms
    import mindspore.dataset as ds
    from mindspore import Tensor, nn
    from mindspore.train import Callback, Model, SummaryRecord

    ref: dict = {}
    net = nn.Dense(3, 2)
    net.weight.set_data(Tensor(np.arange(6, dtype=np.float32).reshape(2, 3) / 10))
    net.bias.set_data(Tensor(np.array([0.1, -0.2], np.float32)))
    ms.save_checkpoint(net, str(FIT_CKPT))
    net = nn.Dense(3, 2)
    ms.load_checkpoint(str(FIT_CKPT), net)
    x, y, vx, vy = fit_eval_data()
    train = ds.NumpySlicesDataset({"x": x, "y": y}, shuffle=False).batch(4)
    valid = ds.NumpySlicesDataset({"x": vx, "y": vy}, shuffle=False).batch(3)

    class Record(Callback):
        def __init__(self):
            self.results = []

        def on_eval_end(self, run_context):
            cb = run_context.original_args()
            self.results.append({"eval_results": dict(cb.eval_results), "metrics": dict(cb.metrics)})

    rec = Record()
    metrics = {"loss": nn.Loss(), "mae": nn.MAE()}
    model = Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.1), metrics=metrics)
    model.fit(2, train, valid, callbacks=[rec], dataset_sink_mode=False)
    ref["fit_eval"] = {"per_epoch": rec.results, "weight": _val(net.weight), "bias": _val(net.bias)}

    summary = {}
    d = tempfile.mkdtemp()
    with SummaryRecord(d) as s:
        s.add_value("scalar", "loss", Tensor(1.0))
        s.record(1)
    summary["default"] = _summary_names(d)
    d = tempfile.mkdtemp()
    with SummaryRecord(d, file_prefix="pre", file_suffix="_suf") as s:
        s.add_value("scalar", "loss", Tensor(1.0))
        s.record(1)
    summary["prefix_suffix"] = _summary_names(d)
    ref["summary_files"] = summary
    ref["convert"] = _convert_reference()
    ref["landscape"] = _landscape_reference()
    ref["lineage"] = _lineage_reference()
    TRAIN_OUT.write_text(json.dumps(ref, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {TRAIN_OUT}")


EXTRA_OUT = OUT.parent / "top_extra_reference.json"


def _pack_add_one(t):
    return t + 1


def _unpack_double(t):
    return t * 2


EXEC_COLUMNS = ["index", "group", "comm_rank", "primitive", "src_rank", "dest_rank", "root_rank", "input_shape",
                "input_type", "output_shape", "output_type", "input_size", "output_size"]  # fmt: skip


def exec_order_rows(deadlock: bool) -> dict[str, list[dict]]:
    """Two ranks: an all-reduce, then a send/receive pair each way (in crossing order when ``deadlock``)."""

    def row(i, prim, src="", dst="", shape="[2]"):
        r = dict.fromkeys(EXEC_COLUMNS, "")
        r.update(index=str(i), group="g", comm_rank="0 1", primitive=prim, src_rank=src, dest_rank=dst)
        r.update(input_shape=shape, output_shape=shape)
        return r

    rank0 = [row(0, "AllReduce"), row(1, "Send", dst="1"), row(2, "Receive", src="1")]
    rank1 = [row(0, "AllReduce"), row(1, "Send", dst="0"), row(2, "Receive", src="0")]
    if not deadlock:
        rank1 = [row(0, "AllReduce"), row(1, "Receive", src="0"), row(2, "Send", dst="0")]
    return {"0": rank0, "1": rank1}


def _exec_order_reference() -> dict:
    """MindSpore's execution-order keys and cycle search on two ranks' execute_order.csv files."""
    import csv
    import importlib
    import tempfile

    checker = importlib.import_module("mindspore.utils.runtime_execution_order_check")

    out: dict = {}
    for case in (True, False):
        d = tempfile.mkdtemp()
        for rank, rows in exec_order_rows(case).items():
            folder = os.path.join(d, f"rank_{rank}", "execute_order")
            os.makedirs(folder)
            with open(os.path.join(folder, "comm_execute_order.csv"), "w", newline="", encoding="utf-8") as f:
                w = csv.DictWriter(f, fieldnames=EXEC_COLUMNS)
                w.writeheader()
                w.writerows(rows)
        parsed = checker.RankFolderParser(d).parse()
        keys = checker.modify_execute_orders(parsed)
        cycle, ranks = checker.detect_cycle_in_graph(keys)
        out["deadlock" if case else "ordered"] = {"keys": keys, "cycle": cycle, "ranks": ranks}
    return out


def _dispatch_reference(mode_cls, tensor_cls) -> dict:
    """MsDispatchMode: which handler sees x*2, x+y, x-y when nested; a handler doubling results."""
    x = tensor_cls(np.array([1.0, 2.0, 3.0], np.float32))
    y = tensor_cls(np.array([4.0, 5.0, 6.0], np.float32))
    seen = []

    class Outer(mode_cls):
        def __ms_dispatch__(self, func, args, kwargs=None):
            seen.append(("outer", len(args)))
            return func(*args)

    class Inner(mode_cls):
        def __ms_dispatch__(self, func, args, kwargs=None):
            seen.append(("inner", len(args)))
            return func(*args)

    class Twice(mode_cls):
        def __ms_dispatch__(self, func, args, kwargs=None):
            return func(*args) * 2

    with Outer():
        a = x * 2
        with Inner():
            b = x + y
        c = x - y
    with Twice():
        d = x + y
    return {
        "nested": [s[0] for s in seen],
        "values": [_val(a), _val(b), _val(c)],
        "twice": _val(d),
        "after": _val(x + y),
    }


def _utils_reference() -> dict:
    """mindspore.utils on one CPU process: ExitByRequest, dryrun.mock, stress_detect's bad type, the TFT/RSC
    handles without MindIO."""
    import mindspore as ms
    from mindspore import Parameter, Tensor, utils
    from mindspore.utils import dryrun

    out: dict = {}
    e = utils.ExitByRequest()
    g = Tensor(np.ones(2, np.float32))
    ev = Parameter(Tensor(False), name="e")
    out["exit_by_request"] = {
        "distributed": e.is_distributed,
        "group_size": e.group_size,
        "grad": _val(e.exit_by_request(g, Parameter(Tensor([1], ms.int32), name="i"), ev)),
        "exit_value": bool(ev.asnumpy()),
    }
    out["mock"] = [dryrun.mock(True, lambda: 5), dryrun.mock(1, lambda a, b: a + b, 2, 3), dryrun.mock(0, 7)]
    out["stress_bad_type"] = utils.stress_detect("x")
    out["dispatch"] = _dispatch_reference(utils.MsDispatchMode, Tensor)
    out["exec_order"] = _exec_order_reference()
    a = Tensor(np.random.RandomState(0).randn(8, 16).astype(np.float32))
    started = utils.sdc_detect_start()
    _ = (a @ a.T).asnumpy()
    out["sdc"] = [started, utils.get_sdc_detect_result(), utils.sdc_detect_stop()]
    out["tft_values"] = {k: getattr(utils.TFTCommValue, k) for k in ("ENABLE_MINDX", "NEED_MINDIO", "DISABLE_WATCHDOG")}
    out["tft_init"] = _err(utils._tft_handler.init)
    out["tft_get"] = utils._tft_handler.get_tft()
    rsc = utils.RSCPluginHandle()
    out["rsc"] = {
        "enable": rsc.check_enable(),
        "bad_map": _err(lambda: rsc.register_callback([1])),
        "start": _err(rsc.start),
    }
    return out


def _parameter_reference() -> dict:
    """Parameter members from MindSpore's C++ tensor: flags, bytes, hooks by id, set_, offload."""
    import tempfile

    import mindspore as ms
    from mindspore import Parameter, Tensor

    p = Parameter(Tensor(np.arange(6, dtype=np.float32).reshape(2, 3)), name="w")
    out: dict = {
        "flags": [p.const_arg, p.init_flag, p.init, p.init_finished, p.symbolic_shape, p.virtual_flag,
                  p.parent_tensor_, p.index_of_parent_],
        "bytes": list(p.get_bytes()),
        "from_bytes": _val(Tensor(Tensor.convert_bytes_to_tensor(np.array([1, 2], np.int32).tobytes(), (2,), ms.int32))),
        "sync": [p.data_sync(), p.wait_pipeline()],
        "offload_path_before": p.offload_file_path(),
    }  # fmt: skip
    p.set_init_flag(True)
    p.set_cast_dtype(ms.float16)
    out["after_flags"] = [p.init_flag, str(p.dtype)]
    path = os.path.join(tempfile.mkdtemp(), "w.bin")
    out["offload"] = p.offload(path)
    out["offload_bytes"] = list(open(path, "rb").read())
    out["offload_value"] = _val(p)
    r = Parameter(Tensor(np.arange(6, dtype=np.float32).reshape(2, 3)), name="r")
    h = r.register_hook(lambda g: g * 3)
    x = Tensor(np.ones((2, 3), np.float32))

    def f(a):
        return (a * r).sum()

    out["hook_grad"] = _val(ms.grad(f, grad_position=None, weights=[r])(x))
    out["remove_hook_type"] = _err(lambda: r.remove_hook(h))
    r.remove_hook(h.id)
    out["unhooked_grad"] = _val(ms.grad(f, grad_position=None, weights=[r])(x))
    p.assign_value_cpp(Tensor(np.zeros((2, 3), np.float32)))
    out["assign_value_cpp"] = _val(p)
    q = Parameter(Tensor(np.ones(2, np.float32)), name="q")
    q.set_(Tensor(np.array([3.0, 4.0, 5.0], np.float32)))
    out["set_"] = _val(q)
    q.set_()
    out["set_empty"] = list(q.shape)
    out["set_device_address"] = _err(lambda: p.set_device_address(0, (2, 3), ms.float32))
    return out


def _nodes(stree) -> list:
    return [
        [str(n.get_node_type()), [str(t) for t in n.get_targets()], [str(a) for a in n.get_args()]]
        for n in stree.nodes()
    ]


def _rewrite_reference() -> dict:
    """mindspore.rewrite on two small networks: the nodes, edits, and the rewritten networks' outputs."""
    import mindspore as ms
    from mindspore import Tensor, nn
    from mindspore.rewrite import Node, ScopedValue, SymbolTree

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import rewrite_reference_nets as nets

    out: dict = {}
    x = Tensor(np.array([[1.0, -2.0, 3.0, 0.5], [0.0, 1.0, -1.0, 2.0]], np.float32))
    stree = SymbolTree.create(nets.RwNet())
    out["nodes"] = _nodes(stree)
    relu = stree.get_node("relu")
    out["relu_users"] = [u.get_name() for u in relu.get_users()]
    out["relu_inputs"] = [i.get_name() for i in relu.get_inputs()]
    new = Node.create_call_cell(nn.Sigmoid(), targets=["x_1"], args=[ScopedValue.create_naming_value("z")], name="sig")
    stree.insert(stree.after(relu), new)
    stree.get_node("add").set_arg(0, "x_1")
    out["inserted_nodes"] = _nodes(stree)
    out["inserted_out"] = _val(stree.get_network()(x))
    stree.erase(stree.get_node("sig"))
    stree.get_node("add").set_arg(0, "z")
    out["erased_out"] = _val(stree.get_network()(x))
    outer = SymbolTree.create(nets.RwOuter())
    out["outer_nodes"] = _nodes(outer)
    sub = outer.get_node("sub").get_sub_tree()
    out["sub_nodes"] = _nodes(sub)
    tanh = Node.create_call_cell(nn.Tanh(), targets=["t"], args=[ScopedValue.create_naming_value("x")], name="tanh")
    sub.replace(sub.get_node("relu"), [tanh])
    sub.get_node("binop_add").set_arg(0, "t")
    out["replaced_out"] = _val(outer.get_network()(x))
    values = [1, 1.5, "s", (1, 2), [1, 2], {"a": 1}, None, True]
    out["scoped_str"] = [str(ScopedValue.create_variable_value(v)) for v in values]
    out["scoped_type"] = [str(ScopedValue.create_variable_value(v).type) for v in values]
    out["name_values"] = [str(v) for v in ScopedValue.create_name_values(["a", "b"], ["self", ""])]
    out["errors"] = {
        "cell": _err(lambda: Node.create_call_cell(1, ["x"])),
        "targets": _err(lambda: Node.create_call_cell(nn.ReLU(), "x")),
        "args": _err(lambda: Node.create_call_cell(nn.ReLU(), ["x"], args=[1])),
        "position": _err(lambda: stree.after(stree.get_node("nothing"))),
    }
    out["node_types"] = {m.name: m.value for m in ms.rewrite.NodeType}
    out["value_types"] = {m.name: m.value for m in ms.rewrite.ValueType}
    return out


def extra_main() -> None:
    """_no_grad, _Function, register_saved_tensors_hooks, enable_dynamic, flops_collection, UntypedStorage,
    DeviceCtx and MindIO under MindSpore 2.10 (tests/ut/common/test_top_extra.py)."""
    import mindspore as ms
    from mindspore import Tensor, nn, ops
    from mindspore.common import _Function

    ref: dict = {}
    x = Tensor(np.array([1.0, 3.0], np.float32))

    def f(a):
        with ms._no_grad():
            b = a * 2
        return b * a

    @ms._no_grad()
    def g(a):
        return a * a

    ref["no_grad"] = {"with": _val(ms.grad(f)(x)), "decorator": _val(ms.grad(lambda a: g(a) + a)(x))}

    class Square(_Function):
        @staticmethod
        def forward(ctx, a, k):
            ctx.save_for_backward(a)
            ctx.k = k
            return a * a * k

        @staticmethod
        def backward(ctx, grad):
            (a,) = ctx.saved_tensors
            return grad * 2 * a * ctx.k * 10, None

    ref["function"] = {"out": _val(Square.apply(x, 3)), "grad": _val(ms.grad(lambda a: Square.apply(a, 3))(x))}

    @ms.register_saved_tensors_hooks(_pack_add_one, _unpack_double)
    def mul(a, b):
        return a * b

    y = Tensor(np.array([2.0, 5.0], np.float32))
    ref["saved_tensors_hooks"] = _val(ms.jit(ms.value_and_grad(mul, grad_position=(0, 1)))(x, y))

    def with_hooks(a, b):
        with ms.saved_tensors_hooks(_pack_add_one, _unpack_double):
            out = a * b + a
        return out.sum()

    ref["saved_tensors_hooks_with"] = _val(ms.value_and_grad(with_hooks, grad_position=(0, 1))(x, y))

    @ms.enable_dynamic(b=Tensor(shape=[None, 3], dtype=ms.float32))
    @ms.jit
    def dyn(a, b):
        return a + 1, b * 2

    a23 = Tensor(np.ones((2, 3)), ms.float32)
    ref["enable_dynamic"] = {
        "ok": _val(dyn(a23, Tensor(np.ones((5, 3)), ms.float32))[1]),
        "dim": _err(lambda: dyn(a23, Tensor(np.ones((2, 4)), ms.float32))),
        "rank": _err(lambda: dyn(a23, Tensor(np.ones((2, 3, 1)), ms.float32))),
        "dtype": _err(lambda: dyn(a23, Tensor(np.ones((2, 3)), ms.int32))),
        "empty": _err(ms.enable_dynamic),
        "not_tensor": _err(lambda: ms.enable_dynamic(b=1)),
        "static": _err(lambda: ms.enable_dynamic(b=Tensor(np.ones(3), ms.float32))),
        "zero_dim": _err(lambda: ms.enable_dynamic(b=Tensor(shape=[0, None], dtype=ms.float32))),
        "not_function": _err(lambda: ms.enable_dynamic(b=Tensor(shape=None, dtype=ms.float32))(3)),
        "placeholder_shapes": [list(Tensor(shape=[None, 3], dtype=ms.float32).shape),
                               list(Tensor(shape=None, dtype=ms.float32).shape)],
    }  # fmt: skip

    ms.set_context(mode=ms.GRAPH_MODE)
    dense = nn.Dense(4, 3, has_bias=False)
    dense(Tensor(np.ones((2, 4), np.float32)))
    ref["flops_dense"] = list(ms.flops_collection(dense.current_phase))
    ms.set_context(mode=ms.PYNATIVE_MODE)

    t = Tensor(np.arange(4, dtype=np.float32))
    st = t.untyped_storage()
    storage = {"nbytes": st.nbytes(), "size": st.size(), "element_size": st.element_size(), "dtype": str(st.dtype)}
    storage["shared"] = st.is_shared()
    st.resize_(0)
    storage["released_nbytes"] = st.nbytes()
    st.resize_(16)
    st.copy_(Tensor(np.array([5, 6, 7, 8], np.float32)).untyped_storage())
    storage["copied"] = _val(t)
    storage["ctor"] = _err(ms.UntypedStorage)
    ref["storage"] = storage

    def enter(ctx):
        with ctx:
            pass

    ref["device_ctx"] = {
        "bad_name": _err(lambda: enter(ms.DeviceCtx("NPU"))),
        "bad_id": _err(lambda: enter(ms.DeviceCtx("CPU", -1))),
    }
    ref["mindio"] = {
        "preload": ms.mindio_preload("x.ckpt"),
        "preload_type": _err(lambda: ms.mindio_preload(1)),
        "server_info": _err(lambda: ms.set_mindio_server_info(0)),
    }
    ref["null_type"] = [repr(ms._NullType()), type(ms.common.dtype._null).__name__]
    ref["utils"] = _utils_reference()
    ref["parameter"] = _parameter_reference()
    ref["rewrite"] = _rewrite_reference()
    ref["ops_ones"] = _val(ops.ones(2, dtype=ms.float32))
    EXTRA_OUT.write_text(json.dumps(ref, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {EXTRA_OUT}")


if __name__ == "__main__":
    if sys.argv[1:] == ["extra"]:
        extra_main()
    elif sys.argv[1:] == ["train"]:
        train_main()
    else:
        main()
