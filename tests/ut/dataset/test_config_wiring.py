"""Where the pipeline and the training loop read ``ds.config``, against MindSpore 2.10's behaviour recorded in
tests/ut/dataset/fixtures/dataset_config_wiring_ms210.json (tools/make_dataset_config_wiring_reference.py):
``max_rowsize`` (``map``, ``batch``, ``GeneratorDataset``), the debug mode of ``batch`` and
``GeneratorDataset``, ``set_iterator_mode(do_copy=...)`` of the host-fed training loop, ``set_dynamic_shape``."""

import copy
import json
import logging
import os
import re
import threading

import numpy as np
import pytest

import sporax as ms
import sporax.dataset as ds
from sporax.dataset.engine import _proc_pool
from sporax.train.dataset_helper import DatasetHelper

with open(
    os.path.join(os.path.dirname(__file__), "fixtures", "dataset_config_wiring_ms210.json"), encoding="utf-8"
) as _f:
    REF = json.load(_f)

MB = 1024 * 1024
DEPRECATED = "'max_rowsize' is deprecated from version 2.8.0 and will be removed in a future version."
ROWSIZE = "Using shared memory queue, but rowsize is larger than allocated memory"
shm = pytest.mark.skipif(not os.path.isdir("/dev/shm"), reason="POSIX shared memory in /dev/shm")


@pytest.fixture(autouse=True)
def _restore_config(monkeypatch):
    saved = copy.copy(ds.config._state)
    monkeypatch.setattr(_proc_pool, "_warned", set())  # the pools' warnings are said once per process
    ds.config.set_multiprocessing_start_method("fork")
    yield
    ds.config._state.clear()
    ds.config._state.update(saved)


def _warnings(caplog) -> list:
    return [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]


class _Src:
    """Random access: rows of ``mb`` MB holding the pid and thread of the reader."""

    def __init__(self, n: int, mb: float) -> None:
        self.n, self.mb, self.threads = n, mb, set()

    def __getitem__(self, i):
        self.threads.add(threading.get_ident())
        return (np.full((int(self.mb * MB) // 8,), os.getpid(), np.float64),)

    def __len__(self) -> int:
        return self.n


def _pids(d) -> list:
    return [int(r[0].ravel()[0]) for r in d.create_tuple_iterator(output_numpy=True, num_epochs=1)]


@pytest.fixture
def kinds(monkeypatch):
    """The kinds of the results' messages the parent takes from worker processes ("s": shared memory, "p": pipe)."""
    seen: list = []
    unpack = _proc_pool._unpack

    def spy(msg, cache):
        seen.append(msg[0])
        return unpack(msg, cache)

    monkeypatch.setattr(_proc_pool, "_unpack", spy)
    return seen


# ---------------------------------------------------------------------- max_rowsize
def _base():
    return ds.NumpySlicesDataset(np.arange(4), ["a"], shuffle=False)


@pytest.mark.parametrize("kind", ["map", "batch", "generator"])
def test_max_rowsize_errors(kind, caplog):
    make = {
        "map": lambda b: _base().map(lambda x: x, max_rowsize=b),
        "batch": lambda b: _base().batch(2, max_rowsize=b),
        "generator": lambda b: ds.GeneratorDataset(_Src(2, 0.01), ["a"], max_rowsize=b),
    }[kind]
    for value, (cls, msg) in REF["rowsize_errors"]["result"][kind]:
        with pytest.raises({"TypeError": TypeError, "ValueError": ValueError}[cls]) as e:
            make(eval(value))  # noqa: S307  (a repr of the fixture)
        assert str(e.value) == msg, value
    assert DEPRECATED in _warnings(caplog)  # said before the check, as MindSpore does


def test_max_rowsize_stored_forms(caplog):
    ref = REF["rowsize_errors"]["result"]
    for value, form in ref["map_form"]:
        assert _base().map(lambda x: x, max_rowsize=eval(value)).max_rowsize == form  # noqa: S307
    for value, form in ref["batch_form"]:
        assert _base().batch(2, max_rowsize=eval(value)).max_rowsize == form  # noqa: S307
    for value, form in ref["generator_form"]:
        assert ds.GeneratorDataset(_Src(2, 0.01), ["a"], max_rowsize=eval(value)).max_rowsize == form  # noqa: S307
    caplog.clear()
    _base().map(lambda x: x)  # no max_rowsize: no warning
    assert DEPRECATED not in _warnings(caplog)


@shm
def test_generator_row_over_max_rowsize_goes_through_the_pipe(caplog, kinds):
    main = os.getpid()
    d = ds.GeneratorDataset(_Src(3, 2), ["a"], num_parallel_workers=2, shuffle=False, max_rowsize=1)
    with caplog.at_level(logging.WARNING, logger="sporax"):
        pids = _pids(d)
    ref = REF["rowsize_generator_over"]
    assert len(pids) == ref["result"]["rows"] and all(p != main for p in pids) == ref["result"]["in_workers"]
    # MindSpore's workers share a "said it" counter they read unlocked: once, sometimes once per worker
    assert _warnings(caplog) == list(dict.fromkeys(ref["warnings"]))
    assert kinds and set(kinds) == {"p"}


@shm
def test_generator_row_under_max_rowsize_goes_through_shared_memory(caplog, kinds):
    # 3 rows of 0.5 MB, read together by one worker: the limit is per row
    d = ds.GeneratorDataset(_Src(3, 0.5), ["a"], num_parallel_workers=2, shuffle=False, max_rowsize=1)
    with caplog.at_level(logging.WARNING, logger="sporax"):
        pids = _pids(d)
    ref = REF["rowsize_generator_under"]
    assert len(pids) == ref["result"]["rows"] and all(p != os.getpid() for p in pids)
    assert _warnings(caplog) == ref["warnings"]
    assert kinds and set(kinds) == {"s"}


@shm
@pytest.mark.parametrize("kind", ["map", "batch"])
def test_map_batch_keep_max_rowsize_but_size_shared_memory_to_the_data(kind, caplog, kinds):
    """MindSpore 2.10 keeps ``max_rowsize`` of map and batch and sizes their shared memory to the data: a row over
    it still goes through shared memory, without the warning."""
    src = ds.NumpySlicesDataset(np.zeros((4 if kind == "batch" else 3, 1)), ["a"], shuffle=False)
    if kind == "map":
        d = src.map(
            lambda x: _Src(1, 2)[0][0], ["a"], num_parallel_workers=2, python_multiprocessing=True, max_rowsize=1
        )
    else:
        d = src.batch(
            2,
            num_parallel_workers=2,
            per_batch_map=lambda a, i: ([_Src(1, 1.5)[0][0] for _ in a],),
            python_multiprocessing=True,
            max_rowsize=1,
        )
    with caplog.at_level(logging.WARNING, logger="sporax"):
        pids = _pids(d)
    ref = REF[f"rowsize_{kind}_over"]
    assert len(pids) == ref["result"]["rows"] and all(p != os.getpid() for p in pids)
    assert _warnings(caplog) == ref["warnings"]
    assert kinds and set(kinds) == {"s"}


# ---------------------------------------------------------------------- debug mode
def _debug_warnings(caplog) -> list:
    # MindSpore's C++ debug pass also logs that the seed is 1 (sporax: set_debug_mode's docstring)
    return [w for w in _warnings(caplog) if not w.startswith("Debug mode is enabled. Set seed")]


def _ref_warnings(name: str) -> list:
    return [w for w in REF[name]["warnings"] if not w.startswith("Debug mode is enabled. Set seed")]


def test_debug_mode_generator_reads_in_the_calling_thread(caplog):
    with caplog.at_level(logging.WARNING, logger="sporax"):
        ds.config.set_debug_mode(True)
        src = _Src(6, 0.01)
        d = ds.GeneratorDataset(src, ["a"], num_parallel_workers=2, shuffle=False)
        constructed = _debug_warnings(caplog)
        pids = _pids(d)
    ref = REF["debug_generator"]
    want = [w for w in _ref_warnings("debug_generator") if not w.startswith("MARK")]
    assert constructed == want  # the warning comes at construction
    assert _debug_warnings(caplog) == want
    assert len(pids) == ref["result"]["rows"] and all(p == os.getpid() for p in pids)
    assert len(src.threads) == 1  # one reader, no worker threads

    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="sporax"):
        d = ds.GeneratorDataset(_Src(4, 0.01), ["a"], num_parallel_workers=2, python_multiprocessing=False)
        assert len(_pids(d)) == REF["debug_generator_no_mp"]["result"]["rows"]
    assert _debug_warnings(caplog) == []  # no multiprocessing asked for: nothing said

    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="sporax"):
        ds.NumpySlicesDataset(np.arange(4), ["a"], shuffle=False)
    assert _debug_warnings(caplog) == _ref_warnings("debug_numpy_slices")[1:]  # [0]: set_debug_mode's


def test_debug_mode_batch_runs_in_the_calling_thread(caplog):
    threads: set = set()

    def pbm(a, info):
        threads.add(threading.get_ident())
        return ([np.full((1,), os.getpid(), np.float64) for _ in a],)

    ds.config.set_debug_mode(True)
    src = ds.GeneratorDataset(_Src(8, 0.001), ["a"], shuffle=False, python_multiprocessing=False)
    d = src.batch(2, num_parallel_workers=2, per_batch_map=pbm, python_multiprocessing=True)
    assert _debug_warnings(caplog) == _ref_warnings("debug_batch")[:1]  # set_debug_mode's
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="sporax"):
        pids = _pids(d)  # the warning comes when the pipeline starts
    ref = REF["debug_batch"]
    assert _debug_warnings(caplog) == _ref_warnings("debug_batch")[2:]  # after set_debug_mode's and "MARK iterate"
    assert len(pids) == ref["result"]["rows"] and all(p == os.getpid() for p in pids)
    assert len(threads) == 1

    ds.config.set_debug_mode(False)
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="sporax"):
        assert len(_pids(d)) == 4
    assert _debug_warnings(caplog) == []


# ---------------------------------------------------------------------- iterator mode, dynamic shape
@pytest.fixture
def made(monkeypatch):
    """The ``do_copy`` of every tuple iterator created while the test runs, in order."""
    seen: list = []
    real = ds.Dataset.create_tuple_iterator

    def spy(self, *args, **kwargs):
        seen.append(kwargs.get("do_copy"))
        return real(self, *args, **kwargs)

    monkeypatch.setattr(ds.Dataset, "create_tuple_iterator", spy)
    return seen


def test_host_fed_training_loop_iterator_takes_do_copy(made):

    def do_copy():
        d = ds.NumpySlicesDataset(np.arange(4, dtype=np.float32), ["a"], shuffle=False).batch(2)
        rows = list(DatasetHelper(d, dataset_sink_mode=False))
        assert len(rows) == 2
        return made[-1]

    ref = REF["iterator_mode"]["result"]
    assert do_copy() is ref["default"]
    ds.config.set_iterator_mode(do_copy=True)
    assert do_copy() is ref["do_copy_true"]
    ds.config.set_iterator_mode(do_copy=False)
    assert do_copy() is ref["do_copy_false"]


def test_model_train_without_sink_reads_with_do_copy(made):
    ds.config.set_iterator_mode(do_copy=True)
    x = np.arange(16, dtype=np.float32).reshape(8, 2)
    d = ds.NumpySlicesDataset({"x": x, "y": (x[:, :1] > 6).astype(np.int32).ravel()}, shuffle=False).batch(4)
    net = ms.nn.Dense(2, 2)
    loss = ms.nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    model = ms.train.Model(net, loss, ms.nn.Momentum(net.trainable_params(), 0.1, 0.9))
    model.train(1, d, dataset_sink_mode=False)
    assert made == [True]


def test_dynamic_shape_flag_and_sink_of_varying_shapes():
    ref = REF["dynamic_shape"]["result"]
    assert ds.config.get_dynamic_shape() is ref["default"]
    ds.config.set_dynamic_shape(True)
    assert ds.config.get_dynamic_shape() is ref["after_true"]
    with pytest.raises(TypeError, match=f"^{ref['error'][1]}$"):
        ds.config.set_dynamic_shape(1)

    # no effect on CPU (MindSpore's data_sink reads it for Ascend's device queue): batches of any shape either way
    def sums(flag: bool) -> list:
        ds.config.set_dynamic_shape(flag)
        d = ds.NumpySlicesDataset(np.arange(5, dtype=np.float32), ["a"], shuffle=False).batch(2)
        step = ms.data_sink(lambda a: a.sum() + a.shape[0] * 100, d, sink_size=1)
        return [float(step().asnumpy()) for _ in range(3)]

    assert sums(True) == sums(False) == [201.0, 205.0, 104.0]


@shm
def test_generator_max_rowsize_that_would_not_fit_in_dev_shm():
    """MindSpore's check where it starts the workers: ``workers * (queue + 2) * max_rowsize`` MB under 80% of the free
    space of /dev/shm (the numbers are this machine's: compared as ``N``)."""
    ref = REF["rowsize_shm_check"]["result"]
    assert ref["at_create_iterator"] is None
    d = ds.GeneratorDataset(_Src(3, 0.01), ["a"], num_parallel_workers=2, shuffle=False, max_rowsize=2**31 - 1)
    it = d.create_tuple_iterator(output_numpy=True, num_epochs=1)
    with pytest.raises(RuntimeError) as e:
        next(it)

    def key_lines(text: str) -> list:
        lines = text.splitlines()
        start = next(i for i, s in enumerate(lines) if s.startswith("RuntimeError: Insufficient"))
        body = [re.sub(r"\d{3,}", "N", s) for s in lines[start : start + 4]]
        return [lines[0], *body, next(s for s in lines if s.startswith("[ERROR]"))]

    assert ref["at_first_row"][0] == "RuntimeError"
    assert key_lines(str(e.value)) == key_lines(ref["at_first_row"][1])
    want = 2 * (16 + 2) * (2**31 - 1) * MB  # 2 workers, the default prefetch size 16
    assert f"Required: {want}," in str(e.value)
    ds.config.set_enable_shared_mem(False)  # no shared memory: no check
    assert len(_pids(d)) == 3
