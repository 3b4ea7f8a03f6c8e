"""``ds.config``'s getters and setters and ``ds.debug``'s hooks against MindSpore 2.10
(tests/ut/dataset/fixtures/dataset_config_ms210.json, made by tools/make_dataset_config_reference.py):
signatures, defaults, errors, the error samples mode of ``map`` and the debug mode's hooks."""

import collections
import copy
import inspect
import json
import logging
import os

import numpy as np
import pytest

import sporax.dataset as ds
import sporax.dataset.debug as debug
from sporax.dataset.engine import _error_samples

with open(os.path.join(os.path.dirname(__file__), "fixtures", "dataset_config_ms210.json"), encoding="utf-8") as f:
    REF = json.load(f)

NEW_NAMES = [
    "ErrorSamplesMode",
    "set_error_samples_mode",
    "get_error_samples_mode",
    "set_iterator_mode",
    "get_iterator_mode",
    "set_multiprocessing_start_method",
    "get_multiprocessing_start_method",
    "set_video_backend",
    "get_video_backend",
    "set_dynamic_shape",
    "get_dynamic_shape",
    "DebugHook",
    "PrintMetaDataHook",
    "set_debug_mode",
    "get_debug_mode",
]


@pytest.fixture(autouse=True)
def _restore_config():
    saved = copy.copy(ds.config._state)
    yield
    ds.config._state.clear()
    ds.config._state.update(saved)


def _params(sig: inspect.Signature) -> list:
    return [(p.name, p.kind, p.default) for p in sig.parameters.values()]


def _ref_params(text: str) -> list:
    def f():
        pass

    ns: dict = {}
    exec(f"def f{text}: pass", {}, ns)  # noqa: S102  (a signature text of the fixture)
    return _params(inspect.signature(ns["f"]))


def _rows(d):
    return [[np.asarray(c).tolist() for c in r] for r in d.create_tuple_iterator(output_numpy=True, num_epochs=1)]


def _src():
    return ds.NumpySlicesDataset({"x": np.arange(10, dtype=np.int64)}, shuffle=False)


def _bad(x):
    if int(x) in (0, 3, 4, 7):
        raise ValueError("bad row")
    return x * 10


# ---------------------------------------------------------------- names, signatures, defaults
def test_names_exist():
    for name in NEW_NAMES:
        assert hasattr(ds.config, name), name
    assert ds.config.DebugHook is debug.DebugHook is ds.debug.DebugHook
    assert ds.config.PrintMetaDataHook is debug.PrintMetaDataHook


@pytest.mark.parametrize("name", sorted(REF["signatures"]))
def test_signature(name):
    if "." in name:
        cls, meth = name.split(".")
        obj = getattr(getattr(debug, cls), meth)
    elif name in ("DebugHook", "PrintMetaDataHook", "PrintDataHook"):
        obj = getattr(debug, name)
    else:
        obj = getattr(ds.config, name)
    assert _params(inspect.signature(obj)) == _ref_params(REF["signatures"][name])


def test_defaults():
    d = REF["defaults"]
    assert ds.config.get_error_samples_mode() is ds.config.ErrorSamplesMode.RETURN
    assert ds.config.get_error_samples_mode().name == d["error_samples_mode"]
    assert ds.config.get_iterator_mode() == d["iterator_mode"]
    assert ds.config.get_multiprocessing_start_method() == d["multiprocessing_start_method"]
    assert ds.config.get_video_backend() == d["video_backend"]
    assert ds.config.get_dynamic_shape() is d["dynamic_shape"]
    assert ds.config.get_debug_mode() is d["debug_mode"]
    assert ds.config.get_enable_shared_mem() is d["enable_shared_mem"]
    assert {m.name: int(m) for m in ds.config.ErrorSamplesMode} == REF["enum"]
    assert isinstance(ds.config._get_debug_hook_list()[0], debug.PrintMetaDataHook)


def test_set_get():
    s = REF["set_get"]
    ds.config.set_multiprocessing_start_method("spawn")
    ds.config.set_video_backend("Ascend")
    ds.config.set_iterator_mode(do_copy=True)
    ds.config.set_dynamic_shape(True)
    assert ds.config.get_multiprocessing_start_method() == s["multiprocessing_start_method"]
    assert ds.config.get_video_backend() == s["video_backend"]
    assert ds.config.get_iterator_mode() == s["iterator_mode"]
    assert ds.config.get_dynamic_shape() is s["dynamic_shape"]
    ds.config.get_iterator_mode()["do_copy"] = False  # a copy: the setting is unchanged
    assert ds.config.get_iterator_mode()["do_copy"] is True
    for mode in ds.config.ErrorSamplesMode:
        ds.config.set_error_samples_mode(mode)
        assert ds.config.get_error_samples_mode() is mode
    ds.config.set_multiprocessing_start_method()
    assert ds.config.get_multiprocessing_start_method() == "fork"
    ds.config.set_enable_autotune(True, "/tmp/autotune")
    assert ds.config.get_enable_autotune() is True


_CALLS = {
    "set_error_samples_mode(1)": lambda: ds.config.set_error_samples_mode(1),
    "set_error_samples_mode('SKIP')": lambda: ds.config.set_error_samples_mode("SKIP"),
    "set_error_samples_mode(None)": lambda: ds.config.set_error_samples_mode(None),
    "set_iterator_mode(do_copy=1)": lambda: ds.config.set_iterator_mode(do_copy=1),
    "set_iterator_mode(parallel_convert='x')": lambda: ds.config.set_iterator_mode(parallel_convert="x"),
    "set_multiprocessing_start_method(1)": lambda: ds.config.set_multiprocessing_start_method(1),
    "set_multiprocessing_start_method('forkserver')": lambda: ds.config.set_multiprocessing_start_method("forkserver"),
    "set_multiprocessing_start_method('')": lambda: ds.config.set_multiprocessing_start_method(""),
    "set_video_backend(1)": lambda: ds.config.set_video_backend(1),
    "set_video_backend('GPU')": lambda: ds.config.set_video_backend("GPU"),
    "set_video_backend('cpu')": lambda: ds.config.set_video_backend("cpu"),
    "set_dynamic_shape(1)": lambda: ds.config.set_dynamic_shape(1),
    "set_debug_mode(1)": lambda: ds.config.set_debug_mode(1),
    "set_debug_mode(False, 1)": lambda: ds.config.set_debug_mode(False, 1),
    "set_debug_mode(False, [1])": lambda: ds.config.set_debug_mode(False, [1]),
    "set_enable_autotune(1)": lambda: ds.config.set_enable_autotune(1),
    "set_enable_autotune(True, 5)": lambda: ds.config.set_enable_autotune(True, 5),
    "set_enable_autotune(True, '')": lambda: ds.config.set_enable_autotune(True, ""),
    "set_enable_shared_mem(1)": lambda: ds.config.set_enable_shared_mem(1),
    "DebugHook()": lambda: debug.DebugHook(),
}


@pytest.mark.parametrize("case", sorted(_CALLS))
def test_errors(case):
    cls, msg = REF["errors"][case]
    with pytest.raises(Exception) as e:
        _CALLS[case]()
    assert type(e.value).__name__ == cls
    if case == "DebugHook()":  # the abstract class error: Python's own text
        assert "abstract" in str(e.value) and "compute" in str(e.value)
    else:
        assert str(e.value) == msg


def test_errors_leave_settings_unchanged():
    before = copy.copy(ds.config._state)
    for case in _CALLS:
        with pytest.raises((TypeError, ValueError, RuntimeError)):
            _CALLS[case]()
    assert ds.config._state == before


def test_shared_mem_deprecation_warning(caplog):
    with caplog.at_level(logging.WARNING, logger="sporax"):
        ds.config.set_enable_shared_mem(False)
        assert ds.config.get_enable_shared_mem() is False
    assert "'set_enable_shared_mem' is deprecated from version 2.8.0" in caplog.text
    assert "'get_enable_shared_mem' is deprecated from version 2.8.0" in caplog.text
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="sporax"):
        ds.config.set_enable_shared_mem(True)
    assert "The shared memory is on, multiprocessing performance will be improved." in caplog.text
    assert ds.config.get_enable_shared_mem() is True


def test_shared_mem_off_on_windows_and_macos(monkeypatch):
    monkeypatch.setattr(ds.config.platform, "system", lambda: "Darwin")
    ds.config.set_enable_shared_mem(True)  # refused there, as MindSpore does
    assert ds.config.get_enable_shared_mem() is False


# ---------------------------------------------------------------- error samples mode
def test_error_samples_return_raises():
    with pytest.raises(RuntimeError, match="bad row"):
        _rows(_src().map(_bad))


def test_error_samples_skip(caplog):
    ds.config.set_error_samples_mode(ds.config.ErrorSamplesMode.SKIP)
    with caplog.at_level(logging.WARNING, logger="sporax"):
        assert _rows(_src().map(_bad)) == REF["error_samples"]["skip"]
    warns = [r.getMessage() for r in caplog.records if "erroneous sample" in r.getMessage()]
    assert len(warns) == 4
    assert warns[0].startswith(
        "Detected an erroneous sample in MindData Map operation, and will skip this sample: "
        "map operation: [PyFunc] failed. Error description:"
    )
    assert "ValueError: bad row" in warns[0]
    assert _rows(_src().map(_bad).batch(3)) == REF["error_samples"]["skip_batch3"]
    assert _rows(_src().map(lambda x: 1 / 0)) == REF["error_samples"]["skip_all_fail"]


def _fail_every(k):
    def f(x):
        if int(x) % k == 3:
            raise ValueError("bad row")
        return x

    return f


def test_error_samples_skip_threads_and_blocks():
    ds.config.set_error_samples_mode(ds.config.ErrorSamplesMode.SKIP)
    n = 300  # several blocks, on threads; a later map's rows are numbered without the skipped ones
    d = ds.NumpySlicesDataset({"x": np.arange(n, dtype=np.int64)}, shuffle=False)
    got = _rows(d.map(_fail_every(7), num_parallel_workers=3).batch(2))
    want = [v for v in range(n) if v % 7 != 3]
    assert got == [[want[i : i + 2]] for i in range(0, len(want), 2)]


def test_error_samples_skip_processes():
    ds.config.set_error_samples_mode(ds.config.ErrorSamplesMode.SKIP)
    d = ds.NumpySlicesDataset({"x": np.arange(40, dtype=np.int64)}, shuffle=False)
    got = _rows(d.map(_fail_every(7), num_parallel_workers=2, python_multiprocessing=True))
    assert got == [[v] for v in range(40) if v % 7 != 3]


def test_error_samples_replace(caplog):
    ds.config.set_error_samples_mode(ds.config.ErrorSamplesMode.REPLACE)
    with caplog.at_level(logging.WARNING, logger="sporax"):
        got = _rows(_src().map(_bad))
    assert got == REF["error_samples"]["replace"]
    assert sum("will replace with a healthy sample" in r.getMessage() for r in caplog.records) == 4
    cls, msg = REF["error_samples"]["replace_all_fail"]
    with pytest.raises(RuntimeError) as e:
        _rows(_src().map(lambda x: 1 / 0))
    assert type(e.value).__name__ == cls
    assert "[ERROR] All data is garbage and cannot be replaced." in str(e.value)
    assert str(e.value).startswith(msg.split("[ERROR]")[0])


def test_error_samples_replace_uses_first_healthy_rows():
    ds.config.set_error_samples_mode(ds.config.ErrorSamplesMode.REPLACE)
    n = 200
    d = ds.NumpySlicesDataset({"x": np.arange(n, dtype=np.int64)}, shuffle=False)
    got = [r[0] for r in _rows(d.map(_fail_every(10), num_parallel_workers=2))]
    assert len(got) == n  # every failed row replaced
    bad = [v for v in range(n) if v % 10 == 3]
    healthy = [v for v in range(n) if v % 10 != 3]
    cache = healthy[: _error_samples.REPLACE_CACHE_ROWS]  # the first healthy rows, handed out in turn
    assert collections.Counter(got) - collections.Counter(healthy) == collections.Counter(
        cache[k % len(cache)] for k in range(len(bad))
    )
    assert list(dict.fromkeys(got)) == healthy  # the healthy rows in order, each copy after its original


def test_error_samples_debug_mode_raises():
    ds.config.set_error_samples_mode(ds.config.ErrorSamplesMode.SKIP)
    ds.config.set_debug_mode(True, [])
    with pytest.raises(RuntimeError, match="bad row"):
        _rows(_src().map(_bad))


# ---------------------------------------------------------------- debug mode and hooks
def test_debug_hooks_called_per_row():
    seen = []

    class Spy(debug.DebugHook):
        def compute(self, *args):
            seen.append([self.prev_op_name, self.is_first_op, [np.asarray(a).tolist() for a in args[0]]])
            return args

    def add1(x):
        return x + 1

    ds.config.set_debug_mode(True, [Spy()])
    assert ds.config.get_debug_mode() is True
    rows = _rows(_src().take(2).map([add1, lambda x: x * 2]))
    assert rows == REF["debug"]["rows"]
    assert seen == REF["debug"]["seen"]


def test_debug_mode_ignores_processes(caplog):
    ds.config.set_debug_mode(True, [])
    with caplog.at_level(logging.WARNING, logger="sporax"):
        got = _rows(_src().take(4).map(lambda x: x + 1, num_parallel_workers=2, python_multiprocessing=True))
    assert got == [[1], [2], [3], [4]]
    assert "Python multiprocessing is not supported in debug mode. Ignoring Python multiprocessing for map" in (
        caplog.text
    )


def test_print_meta_data_hook(capsys):
    def add1(x):
        return x + 1

    ds.config.set_debug_mode(True)
    capsys.readouterr()
    _rows(ds.NumpySlicesDataset({"x": np.zeros((1, 2, 3), np.float32)}, shuffle=False).map([add1], input_columns=["x"]))
    assert capsys.readouterr().out.splitlines() == REF["debug"]["print_meta"]


def test_print_hooks_compute(capsys):
    h = debug.PrintMetaDataHook()
    out = h(np.zeros((2, 3), np.uint8), [1, 2, 3])
    assert len(out) == 2
    assert capsys.readouterr().out.splitlines() == [
        "Column 0. The dtype is [uint8]. The shape is [(2, 3)].",
        "Column 1. The type is [<class 'list'>]. The size is [3].",
    ]
    h = debug.PrintDataHook()
    h.set_previous_op_name("Decode")
    h.set_is_first(False)
    h(np.arange(3))
    assert capsys.readouterr().out.splitlines() == [
        "[Dataset debugger] Print the [OUTPUT] of the operation [Decode].",
        "Column 0. The data is [[0 1 2]].",
    ]


def test_print_hooks_pil_image(capsys):
    from PIL import Image

    img = Image.new("RGB", (5, 3))
    debug.PrintMetaDataHook()(img)
    out = capsys.readouterr().out.splitlines()
    assert out == ["Column 0. The type is [<class 'PIL.Image.Image'>]. The shape is [(5, 3)]."]
    debug.PrintDataHook()(img)
    assert capsys.readouterr().out.startswith("Column 0. The data is [[[[0 0 0]\n  [0 0 0]")


def test_user_hook_in_operations_runs_as_python_op():
    calls = []

    class Spy(debug.DebugHook):
        def compute(self, *args):
            calls.append(1)

    assert _rows(_src().take(3).map([lambda x: x + 1, Spy()])) == [[1], [2], [3]]
    assert len(calls) == 3


def test_set_debug_mode_hook_list_kept():
    class Spy(debug.DebugHook):
        def compute(self, *args):
            return args

    hooks = [Spy()]
    ds.config.set_debug_mode(False, hooks)
    assert ds.config._get_debug_hook_list() is hooks
    ds.config.set_debug_mode(False, [])  # an empty list keeps the hooks set before
    assert ds.config._get_debug_hook_list() is hooks
    ds.config.set_debug_mode(False)  # None: the default hook
    assert isinstance(ds.config._get_debug_hook_list()[0], debug.PrintMetaDataHook)


def test_debug_mode_seed_is_one():
    ds.config._state["seed"] = None
    ds.config.set_debug_mode(True, [])
    assert ds.config._seed_or_none() == 1
    ds.config.set_debug_mode(False)
    assert ds.config._seed_or_none() is None


# ---------------------------------------------------------------- load
def test_load(tmp_path):
    good = tmp_path / "good.json"
    good.write_text(json.dumps(REF["load"]["file"]))  # the file MindSpore loaded
    ds.config.load(str(good))
    after = REF["load"]["after"]
    assert ds.config.get_num_parallel_workers() == after["num_parallel_workers"]
    assert ds.config.get_seed() == after["seed"]
    assert ds.config.get_monitor_sampling_interval() == after["monitor_sampling_interval"]
    assert ds.config.get_prefetch_size() == after["prefetch_size"]
    assert ds.config.get_callback_timeout() == after["callback_timeout"]  # not a key load reads


def test_load_errors(tmp_path):
    (tmp_path / "bad.json").write_text("{not json")
    (tmp_path / "zero.json").write_text(json.dumps({"numParallelWorkers": 0}))
    for name, path in (("missing", "missing.json"), ("bad_json", "bad.json"), ("workers_0", "zero.json")):
        cls, msg = REF["load"]["errors"][name]
        msg = msg.replace("{dir}", str(tmp_path)).replace(
            f"between 1 and {REF['load']['cpu_count']}", f"between 1 and {os.cpu_count()}"
        )
        with pytest.raises(RuntimeError) as e:
            ds.config.load(str(tmp_path / path))
        assert type(e.value).__name__ == cls
        assert str(e.value).startswith(msg), (str(e.value), msg)
