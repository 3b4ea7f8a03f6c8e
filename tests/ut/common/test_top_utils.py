"""mindspore.utils: ExitByRequest, dryrun, stress_detect, TFTCommValue / RSCPluginHandle / _tft_handler
(references: tools/make_top_reference.py extra, one CPU process)."""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path

import numpy as np
import pytest

import sporax as ms
from sporax import Parameter, Tensor, utils
from sporax.utils import dryrun

REF = json.loads((Path(__file__).parent / "fixtures" / "top_extra_reference.json").read_text())["utils"]


def test_exit_by_request_single_process():
    ref = REF["exit_by_request"]
    e = utils.ExitByRequest()
    assert (e.is_distributed, e.group_size) == (ref["distributed"], ref["group_size"])
    ev = Parameter(Tensor(False), name="e")
    out = e.exit_by_request(Tensor(np.ones(2, np.float32)), Parameter(Tensor([1], ms.int32), name="i"), ev)
    np.testing.assert_array_equal(out.asnumpy(), ref["grad"])
    assert bool(ev.asnumpy()) is ref["exit_value"]


def test_exit_by_request_agreement(monkeypatch):
    """With 2 ranks, exit_value is True only when every rank asked (the all-reduced flags equal the size)."""
    from sporax.communication import comm_func

    e = utils.ExitByRequest()
    e.is_distributed, e.base = True, Tensor([2], ms.int32)
    for others, want in ((1, True), (0, False)):
        monkeypatch.setattr(comm_func, "all_reduce", lambda x, o=others: (x + o, None))
        ev = Parameter(Tensor(False), name="e")
        e.exit_by_request(Tensor(np.ones(2, np.float32)), Parameter(Tensor([1], ms.int32), name="i"), ev)
        assert bool(ev.asnumpy()) is want


def test_dryrun(monkeypatch, caplog):
    assert [dryrun.mock(True, lambda: 5), dryrun.mock(1, lambda a, b: a + b, 2, 3), dryrun.mock(0, 7)] == REF["mock"]
    saved = {n: getattr(Tensor, n) for n in dryrun._FETCHES if hasattr(Tensor, n)}
    monkeypatch.delenv("MS_SIMULATION_LEVEL", raising=False)
    try:
        dryrun.set_simulation()
        assert os.environ["MS_SIMULATION_LEVEL"] == "1"
        assert dryrun.mock(True, lambda: 5) is True
        with caplog.at_level(logging.WARNING, logger="sporax"):
            v = Tensor(np.array([1.5, 2.0], np.float32)).asnumpy()
        np.testing.assert_array_equal(v, [1.5, 2.0])  # the value is still computed on XLA
        assert "In dryrun mode, you cannot obtain real tensor value" in caplog.text
    finally:
        for n, m in saved.items():
            setattr(Tensor, n, m)
        os.environ.pop("MS_SIMULATION_LEVEL", None)


def test_stress_detect(monkeypatch):
    assert utils.stress_detect("x") == REF["stress_bad_type"]
    assert utils.stress_detect() == 0
    assert utils.stress_detect("hccs") == 0
    from sporax.utils import _reliability

    monkeypatch.setattr(_reliability, "_check_matmul", lambda rng: False)  # a device computing wrong results
    assert utils.stress_detect("aic") == 2


def test_tft_and_rsc_handles(monkeypatch):
    assert {k: getattr(utils.TFTCommValue, k) for k in REF["tft_values"]} == REF["tft_values"]
    with pytest.raises(ValueError) as info:
        utils._tft_handler.init()
    assert str(info.value) == REF["tft_init"]["message"]
    assert utils._tft_handler.get_tft() is REF["tft_get"]
    monkeypatch.setenv("MS_ENABLE_TFT", "{TTP:1}")
    utils._tft_handler.init()  # off Ascend: a warning, no MindIO handle
    assert utils._tft_handler.get_tft() is None
    monkeypatch.delenv("MS_ENABLE_TFT")
    rsc = utils.RSCPluginHandle()
    assert rsc.check_enable() is REF["rsc"]["enable"]
    with pytest.raises(ValueError) as info:
        rsc.register_callback([1])
    assert str(info.value) == REF["rsc"]["bad_map"]["message"]
    assert rsc.register_callback({"f": print}) is False  # no MindX task agent installed
    with pytest.raises(RuntimeError) as info:
        rsc.start()
    assert str(info.value) == REF["rsc"]["start"]["message"]


def test_ms_dispatch_mode():
    """Nested modes: the innermost handles an operator, what its handler runs goes to the outer ones; a handler
    may change results; everything is restored on exit (MindSpore 2.10's order and values)."""
    ref = REF["dispatch"]
    x = Tensor(np.array([1.0, 2.0, 3.0], np.float32))
    y = Tensor(np.array([4.0, 5.0, 6.0], np.float32))
    seen = []

    class Outer(utils.MsDispatchMode):
        def __ms_dispatch__(self, func, args, kwargs=None):
            seen.append(("outer", func.name))
            return func(*args)

    class Inner(utils.MsDispatchMode):
        def __ms_dispatch__(self, func, args, kwargs=None):
            seen.append(("inner", func.name))
            return func(*args)

    class Twice(utils.MsDispatchMode):
        def __ms_dispatch__(self, func, args, kwargs=None):
            return func(*args) * 2

    with Outer():
        a = x * 2
        with Inner():
            b = x + y
        c = x - y
    assert [s[0] for s in seen] == ref["nested"]
    assert [s[1] for s in seen] == ["Mul", "Add", "Add", "Sub"]  # MindSpore names its kernels: Muls, AddExt...
    for got, want in zip((a, b, c), ref["values"], strict=True):
        np.testing.assert_array_equal(got.asnumpy(), want)
    with Twice():
        np.testing.assert_array_equal((x + y).asnumpy(), ref["twice"])
    np.testing.assert_array_equal((x + y).asnumpy(), ref["after"])
    from sporax import ops

    assert not hasattr(ops.add, "__wrapped__")  # the operators are restored

    @Twice()
    def decorated(p, q):
        return ops.add(p, q)

    np.testing.assert_array_equal(decorated(x, y).asnumpy(), ref["twice"])
    assert ms.utils.MsDispatchMode is utils.MsDispatchMode


EXEC_COLUMNS = ["index", "group", "comm_rank", "primitive", "src_rank", "dest_rank", "root_rank", "input_shape",
                "input_type", "output_shape", "output_type", "input_size", "output_size"]  # fmt: skip


def _exec_rows(deadlock):
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


def test_runtime_execution_order_check(tmp_path):
    """Two ranks sending to each other before receiving deadlock: the same cycle MindSpore 2.10 finds."""
    import csv

    from sporax.utils import _exec_order

    for case, key in ((True, "deadlock"), (False, "ordered")):
        d = tmp_path / key
        for rank, rows in _exec_rows(case).items():
            folder = d / f"rank_{rank}" / "execute_order"
            folder.mkdir(parents=True)
            with open(folder / "comm_execute_order.csv", "w", newline="", encoding="utf-8") as f:
                w = csv.DictWriter(f, fieldnames=EXEC_COLUMNS)
                w.writeheader()
                w.writerows(rows)
        ref = REF["exec_order"][key]
        rows = {r: _exec_order._read_orders(str(d / f"rank_{r}" / "execute_order")) for r in ("0", "1")}
        assert {r: _exec_order._keys(v, r) for r, v in rows.items()} == ref["keys"]
        cycle, ranks = utils.runtime_execution_order_check(str(d))
        assert cycle == ref["cycle"] and ranks == ref["ranks"]
    with pytest.raises(ValueError, match="Please provide an absolute path"):
        utils.runtime_execution_order_check("relative/path")
    with pytest.raises(ValueError, match="No rank_x folders found"):
        utils.runtime_execution_order_check(str(tmp_path / "deadlock" / "rank_0" / "execute_order"))


def test_comm_exec_order_check_records_collectives(tmp_path, monkeypatch, caplog):
    from sporax.communication import comm_func

    monkeypatch.chdir(tmp_path)
    with pytest.raises(TypeError, match="The 'action' parameter must be a string."):
        utils.comm_exec_order_check(1)
    with pytest.raises(ValueError, match="Invalid action. Please use 'start' or 'end'."):
        utils.comm_exec_order_check("go")
    with caplog.at_level(logging.ERROR, logger="sporax"):
        utils.comm_exec_order_check("end")
    assert "The 'end' action cannot be called before the 'start' action." in caplog.text
    x = Tensor(np.ones(2, np.float32))
    utils.comm_exec_order_check("start")
    comm_func.all_reduce(x)
    comm_func.broadcast(x, src=0)
    comm_func.barrier()
    utils.comm_exec_order_check("end")
    assert not hasattr(comm_func.all_reduce, "__wrapped__")  # restored
    import csv

    with open(tmp_path / "rank_0" / "execute_order" / "comm_execute_order.csv", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert [(r["primitive"], r["comm_rank"], r["root_rank"], r["input_shape"]) for r in rows] == [
        ("AllReduce", "0", "", "[2]"),
        ("Broadcast", "0", "0", "[2]"),
        ("Barrier", "0", "", ""),
    ]
    cycle, ranks = utils.runtime_execution_order_check(str(tmp_path))
    assert cycle is None and ranks is None


def test_sdc_detect(monkeypatch):
    """Clean products leave the flag clear (as MindSpore 2.10's on a healthy device); a product that comes out
    wrong, eager or compiled, sets it."""
    from sporax import ops

    rng = np.random.RandomState(0)
    a = Tensor(rng.randn(64, 128).astype(np.float32))
    b = Tensor(rng.randn(128, 32).astype(np.float32))
    started = utils.sdc_detect_start()
    ops.matmul(a, b)
    _ = a @ b
    ms.jit(lambda x, y: ops.matmul(x, y) * 2)(a, b)
    ops.bmm(a.reshape(1, 64, 128), b.reshape(1, 128, 32))
    assert [started, utils.get_sdc_detect_result(), utils.sdc_detect_stop()] == REF["sdc"]
    good = ops.matmul

    def corrupted(x, y):  # one column off by 0.5: what a faulty unit would produce
        out = good(x, y)
        return out + (ops.arange(out.shape[-1]) == 3).astype(out.dtype) * 0.5

    monkeypatch.setattr(ops, "matmul", corrupted)
    for run in (corrupted, ms.jit(lambda x, y: ops.matmul(x, y))):
        utils.sdc_detect_start()
        assert utils.get_sdc_detect_result() is False
        out = ops.matmul(a, b) if run is corrupted else run(a, b)
        out.asnumpy()
        assert utils.get_sdc_detect_result() is True
        utils.sdc_detect_stop()
    assert utils.get_sdc_detect_result() is True  # readable after stop
