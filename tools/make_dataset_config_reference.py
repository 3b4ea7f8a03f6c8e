"""Record MindSpore 2.10's ``mindspore.dataset.config`` and ``mindspore.dataset.debug`` behaviour for sporax's tests.

Run with MindSpore's interpreter, from a scratch directory (MindSpore leaves files in the working directory):

    cd /tmp && /work/msvenv/bin/python /work/main/tools/make_dataset_config_reference.py

Writes tests/ut/dataset/fixtures/dataset_config_ms210.json: the signatures of every config function and debug
hook class, the getters' defaults, the setters' errors (class and message), what a failing row of a ``map``
gives under each ErrorSamplesMode, and what the debug mode's hooks see and print.
"""

from __future__ import annotations

import contextlib
import inspect
import io
import json
import os

import mindspore.dataset as ds
import mindspore.dataset.debug as debug
import numpy as np

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "ut", "dataset", "fixtures")


def _sig(f) -> str:
    return str(inspect.signature(f))


def _err(f, *args, **kwargs):
    try:
        f(*args, **kwargs)
    except Exception as e:  # noqa: BLE001
        return [type(e).__name__, str(e)]
    return None


def _rows(d):
    return [[np.asarray(c).tolist() for c in r] for r in d.create_tuple_iterator(output_numpy=True, num_epochs=1)]


def _load_cases(cfg) -> dict:
    """``ds.config.load``: the keys it reads and its errors (paths written as ``{dir}``)."""
    import tempfile

    d = tempfile.mkdtemp()
    good = os.path.join(d, "good.json")
    written = {
        "logFilePath": "/tmp",
        "numParallelWorkers": 1,
        "seed": 77,
        "monitorSamplingInterval": 30,
        "opConnectorSize": 5,
        "workerConnectorSize": 9,
        "callbackTimeout": 9,
        "enableSharedMem": False,
    }
    with open(good, "w", encoding="utf-8") as f:
        json.dump(written, f)
    before = {"num_parallel_workers": cfg.get_num_parallel_workers(), "callback_timeout": cfg.get_callback_timeout()}
    cfg.load(good)
    after = {
        "num_parallel_workers": cfg.get_num_parallel_workers(),
        "seed": cfg.get_seed(),
        "monitor_sampling_interval": cfg.get_monitor_sampling_interval(),
        "prefetch_size": cfg.get_prefetch_size(),
        "callback_timeout": cfg.get_callback_timeout(),
    }
    bad = os.path.join(d, "bad.json")
    with open(bad, "w", encoding="utf-8") as f:
        f.write("{not json")
    zero = os.path.join(d, "zero.json")
    with open(zero, "w", encoding="utf-8") as f:
        json.dump({"numParallelWorkers": 0}, f)
    errors = {}
    for name, path in (("missing", os.path.join(d, "missing.json")), ("bad_json", bad), ("workers_0", zero)):
        e = _err(cfg.load, path)
        errors[name] = [
            e[0],
            e[1]
            .replace(d, "{dir}")
            .split("\n\n------------------------------------------------------------------\n- C++")[0],
        ]
    cfg.set_num_parallel_workers(before["num_parallel_workers"])
    cfg.set_prefetch_size(16)
    cfg.set_monitor_sampling_interval(1000)
    return {"file": written, "after": after, "errors": errors, "cpu_count": os.cpu_count()}


def main() -> None:
    cfg = ds.config
    ref: dict = {"signatures": {}, "defaults": {}, "errors": {}}
    for name in sorted(n for n in dir(cfg) if (n.startswith(("set_", "get_")) or n == "load")):
        ref["signatures"][name] = _sig(getattr(cfg, name))
    for cls in ("DebugHook", "PrintMetaDataHook", "PrintDataHook"):
        k = getattr(debug, cls)
        ref["signatures"][cls] = _sig(k)
        for m in ("compute", "__call__", "set_previous_op_name", "set_is_first"):
            ref["signatures"][f"{cls}.{m}"] = _sig(getattr(k, m))
    ref["enum"] = {m.name: int(m.value) for m in cfg.ErrorSamplesMode}
    ref["defaults"] = {
        "error_samples_mode": cfg.get_error_samples_mode().name,
        "iterator_mode": cfg.get_iterator_mode(),
        "multiprocessing_start_method": cfg.get_multiprocessing_start_method(),
        "video_backend": cfg.get_video_backend(),
        "dynamic_shape": cfg.get_dynamic_shape(),
        "debug_mode": cfg.get_debug_mode(),
        "enable_shared_mem": cfg._get_enable_shared_mem(),  # noqa: SLF001 (the public getter only adds a warning)
    }
    cases = {
        "set_error_samples_mode(1)": lambda: cfg.set_error_samples_mode(1),
        "set_error_samples_mode('SKIP')": lambda: cfg.set_error_samples_mode("SKIP"),
        "set_error_samples_mode(None)": lambda: cfg.set_error_samples_mode(None),
        "set_iterator_mode(do_copy=1)": lambda: cfg.set_iterator_mode(do_copy=1),
        "set_iterator_mode(parallel_convert='x')": lambda: cfg.set_iterator_mode(parallel_convert="x"),
        "set_multiprocessing_start_method(1)": lambda: cfg.set_multiprocessing_start_method(1),
        "set_multiprocessing_start_method('forkserver')": lambda: cfg.set_multiprocessing_start_method("forkserver"),
        "set_multiprocessing_start_method('')": lambda: cfg.set_multiprocessing_start_method(""),
        "set_video_backend(1)": lambda: cfg.set_video_backend(1),
        "set_video_backend('GPU')": lambda: cfg.set_video_backend("GPU"),
        "set_video_backend('cpu')": lambda: cfg.set_video_backend("cpu"),
        "set_dynamic_shape(1)": lambda: cfg.set_dynamic_shape(1),
        "set_debug_mode(1)": lambda: cfg.set_debug_mode(1),
        "set_debug_mode(False, 1)": lambda: cfg.set_debug_mode(False, 1),
        "set_debug_mode(False, [1])": lambda: cfg.set_debug_mode(False, [1]),
        "set_enable_autotune(1)": lambda: cfg.set_enable_autotune(1),
        "set_enable_autotune(True, 5)": lambda: cfg.set_enable_autotune(True, 5),
        "set_enable_autotune(True, '')": lambda: cfg.set_enable_autotune(True, ""),
        "set_enable_shared_mem(1)": lambda: cfg.set_enable_shared_mem(1),
        "DebugHook()": lambda: debug.DebugHook(),
    }
    ref["errors"] = {k: _err(f) for k, f in cases.items()}
    # setters that succeed, read back through their getters
    cfg.set_multiprocessing_start_method("spawn")
    cfg.set_video_backend("Ascend")
    cfg.set_iterator_mode(do_copy=True)
    cfg.set_dynamic_shape(True)
    ref["set_get"] = {
        "multiprocessing_start_method": cfg.get_multiprocessing_start_method(),
        "video_backend": cfg.get_video_backend(),
        "iterator_mode": cfg.get_iterator_mode(),
        "dynamic_shape": cfg.get_dynamic_shape(),
    }
    cfg.set_multiprocessing_start_method("fork")
    cfg.set_iterator_mode()
    cfg.set_dynamic_shape(False)

    # ------------------------------------------------------------ error samples
    def bad(x):
        if int(x) in (0, 3, 4, 7):
            raise ValueError("bad row")
        return x * 10

    def src():
        return ds.NumpySlicesDataset({"x": np.arange(10, dtype=np.int64)}, shuffle=False)

    samples: dict = {}
    cfg.set_error_samples_mode(cfg.ErrorSamplesMode.SKIP)
    samples["skip"] = _rows(src().map(bad))
    samples["skip_batch3"] = _rows(src().map(bad).batch(3))
    samples["skip_all_fail"] = _rows(src().map(lambda x: 1 / 0))
    cfg.set_error_samples_mode(cfg.ErrorSamplesMode.REPLACE)
    samples["replace"] = _rows(src().map(bad))
    samples["replace_all_fail"] = _err(lambda: _rows(src().map(lambda x: 1 / 0)))
    cfg.set_error_samples_mode(cfg.ErrorSamplesMode.RETURN)
    ref["error_samples"] = samples

    # ------------------------------------------------------------ debug mode
    seen = []

    class Spy(debug.DebugHook):
        def compute(self, *args):
            seen.append([self.prev_op_name, self.is_first_op, [np.asarray(a).tolist() for a in args[0]]])
            return args

    def add1(x):
        return x + 1

    cfg.set_debug_mode(True, [Spy()])
    rows = _rows(src().take(2).map([add1, lambda x: x * 2]))
    cfg.set_debug_mode(True)
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        _rows(
            ds.NumpySlicesDataset({"x": np.zeros((1, 2, 3), np.float32)}, shuffle=False).map(
                [add1], input_columns=["x"]
            )
        )
    cfg.set_debug_mode(False)
    ref["debug"] = {"rows": rows, "seen": seen, "print_meta": buf.getvalue().splitlines()}
    ref["load"] = _load_cases(cfg)
    with open(os.path.join(OUT, "dataset_config_ms210.json"), "w", encoding="utf-8") as f:
        json.dump(ref, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
