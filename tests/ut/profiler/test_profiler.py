"""sporax.profiler on a LeNet train step: the trace (xplane + Chrome trace) parses, the op table names the
step's GEMMs (its convolutions lower to them on CPU) and matmuls; schedules, handlers, the profile context,
mstx, EnvProfiler, DynamicProfilerMonitor and the 1.x ``profiling`` path."""

import csv
import glob
import gzip
import importlib
import json
import logging
import os
import sys

import numpy as np
import pytest
from jax.profiler import ProfileData

import sporax as ms
from sporax import nn
from sporax.profiler import (
    AicoreMetrics,
    DynamicProfilerMonitor,
    EnvProfiler,
    ExportType,
    HostSystem,
    Profiler,
    ProfilerActivity,
    ProfilerLevel,
    _ExperimentalConfig,
    mstx,
    profile,
    schedule,
    tensorboard_trace_handler,
)
from sporax.profiler._enums import ProfilerAction


class LeNet5(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5, pad_mode="valid")
        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
        self.relu = nn.ReLU()
        self.pool = nn.MaxPool2d(2, 2)
        self.flatten = nn.Flatten()
        self.fc1 = nn.Dense(16 * 5 * 5, 120)
        self.fc2 = nn.Dense(120, 84)
        self.fc3 = nn.Dense(84, 10)

    def construct(self, x):
        x = self.pool(self.relu(self.conv1(x)))
        x = self.pool(self.relu(self.conv2(x)))
        x = self.flatten(x)
        return self.fc3(self.relu(self.fc2(self.relu(self.fc1(x)))))


@pytest.fixture(scope="module")
def train_step():
    ms.set_seed(0)
    net = LeNet5()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), nn.Momentum(net.trainable_params(), 0.01, 0.9))
    x = ms.Tensor(np.random.RandomState(0).rand(2, 1, 32, 32).astype(np.float32))
    y = ms.Tensor(np.array([1, 3], np.int32))
    step(x, y)  # compiled before profiling
    return lambda: step(x, y)


def _sessions(root):
    return sorted(glob.glob(os.path.join(str(root), "*_sporax_ms")))


def _read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def test_profiler_traces_a_lenet_step_and_tables_its_ops(train_step, tmp_path, capsys):
    prof = Profiler(output_path=str(tmp_path))
    train_step()
    train_step()
    prof.analyse()
    printed = capsys.readouterr().out
    (session,) = _sessions(tmp_path)
    # the trace: xprof's .xplane.pb (jaxlib's reader) and the Chrome trace Perfetto opens
    (xplane,) = glob.glob(os.path.join(session, "plugins", "profile", "*", "*.xplane.pb"))
    planes = [p.name for p in ProfileData.from_file(xplane).planes]
    assert "/host:CPU" in planes or any(p.startswith("/device:") for p in planes)
    (trace,) = glob.glob(os.path.join(session, "plugins", "profile", "*", "*.trace.json.gz"))
    with gzip.open(trace, "rt") as f:
        events = json.load(f)["traceEvents"]
    assert any(e.get("args", {}).get("hlo_op") for e in events)
    assert not any(str(e.get("name", "")).startswith("$") for e in events)  # no Python calls without with_stack
    with open(os.path.join(session, "PROFILER_OUTPUT", "trace_view.json")) as f:
        assert len(json.load(f)["traceEvents"]) == len(events)
    # the per-op table: the convolutions' GEMMs and the Dense matmuls are dots (dot_general)
    stats = _read_csv(os.path.join(session, "PROFILER_OUTPUT", "op_statistic.csv"))
    assert list(stats[0]) == [
        "OP Type",
        "Core Type",
        "Count",
        "Total Time(us)",
        "Min Time(us)",
        "Avg Time(us)",
        "Max Time(us)",
        "Ratio(%)",
    ]
    by_type = {r["OP Type"]: r for r in stats}
    gemm = by_type.get("dot") or by_type.get("convolution")
    assert gemm is not None, by_type.keys()
    count, total, avg = int(gemm["Count"]), float(gemm["Total Time(us)"]), float(gemm["Avg Time(us)"])
    # exactly the 2 steps recorded: work queued before the start (the compile run) stays out
    assert count >= 2 * 3 and count % 2 == 0 and total > 0
    assert avg == pytest.approx(total / count, rel=1e-3, abs=1e-3)
    assert sum(float(r["Ratio(%)"]) for r in stats) == pytest.approx(100.0, abs=0.5)
    details = _read_csv(os.path.join(session, "PROFILER_OUTPUT", "kernel_details.csv"))
    assert sum(1 for r in details if r["Type"] == gemm["OP Type"]) == count
    assert any(r["JAX Op"] in ("dot_general", "conv_general_dilated") for r in details)
    assert "OP Type" in printed and gemm["OP Type"] in printed and "op_statistic.csv" in printed
    with open(os.path.join(session, "profiler_info.json")) as f:
        info = json.load(f)
    assert info["profiler_level"] == "Level0" and info["activities"] == ["CPU", "NPU"]
    assert json.loads(prof.op_analyse(gemm["OP Type"]))[0]["Type"] == gemm["OP Type"]
    with pytest.raises(TypeError, match="'op_name' must be str or list of str"):
        prof.op_analyse(3)


def test_schedule_actions():
    s = schedule(wait=1, warmup=1, active=2, repeat=1, skip_first=1)
    acts = [s(i) for i in range(7)]
    N, W, R, S = ProfilerAction.NONE, ProfilerAction.WARM_UP, ProfilerAction.RECORD, ProfilerAction.RECORD_AND_SAVE
    assert acts == [N, N, W, R, S, N, N]
    assert repr(s) == "Schedule(wait=1, active=2, warmup=1, repeat=1, skip_first=1)"
    assert s.to_dict() == {"wait": 1, "active": 2, "warmup": 1, "repeat": 1, "skip_first": 1}
    with pytest.raises(ValueError, match="must be not less than 0"):
        s(-1)


def test_schedule_resets_bad_values_with_a_warning(caplog):
    with caplog.at_level(logging.WARNING, logger="sporax"):
        s = schedule(wait=-1, active=0, warmup=1)
    assert (s.wait, s.active) == (0, 1)
    assert "Parameter 'active' should be of type int" in caplog.text


def test_profile_context_with_schedule_and_tensorboard_handler(train_step, tmp_path, capsys):
    handler = tensorboard_trace_handler(str(tmp_path), worker_name="w0")
    with profile(schedule=schedule(wait=0, warmup=1, active=1, repeat=2), on_trace_ready=handler) as prof:
        for _ in range(4):
            train_step()
            prof.step()
    sessions = _sessions(tmp_path)
    assert len(sessions) == 2 and all(os.path.basename(s).startswith("w0_") for s in sessions)
    for s in sessions:
        assert os.path.exists(os.path.join(s, "PROFILER_OUTPUT", "op_statistic.csv"))
    # the recorded step's time split (no collectives in one process: computing + free = the step)
    (step,) = _read_csv(os.path.join(sessions[0], "PROFILER_OUTPUT", "step_trace_time.csv"))
    assert step["Step"] == "1" and float(step["Computing(us)"]) > 0 and float(step["Communication(us)"]) == 0
    total = float(step["Computing(us)"]) + float(step["Free(us)"])
    assert total == pytest.approx(float(step["Step Time(us)"]), rel=1e-3, abs=0.01)
    assert capsys.readouterr().out.count("op_statistic.csv") == 2
    # the recorded step is marked in the trace (xprof's step view)
    (trace,) = glob.glob(os.path.join(sessions[0], "plugins", "profile", "*", "*.trace.json.gz"))
    with gzip.open(trace, "rt") as f:
        steps = [e for e in json.load(f)["traceEvents"] if e.get("name") == "ProfilerStep"]
    assert [e["args"]["step_num"] for e in steps] == ["1"]


def test_start_stop_and_mstx_ranges(train_step, tmp_path):
    prof = profile(
        start_profile=False,
        with_stack=True,
        profile_memory=True,
        on_trace_ready=tensorboard_trace_handler(str(tmp_path), analyse_flag=False),
    )
    assert _sessions(tmp_path) == []
    prof.start()
    rid = mstx.range_start("forward", domain="net")
    train_step()
    mstx.range_end(rid)
    mstx.mark("done")
    assert mstx.range_start("") == 0
    prof.stop()
    (session,) = _sessions(tmp_path)
    assert not os.path.exists(os.path.join(session, "PROFILER_OUTPUT"))  # analyse_flag=False
    (trace,) = glob.glob(os.path.join(session, "plugins", "profile", "*", "*.trace.json.gz"))
    with gzip.open(trace, "rt") as f:
        names = {e.get("name") for e in json.load(f)["traceEvents"]}
    assert {"net::forward", "done"} <= names
    assert any(n.startswith("$") for n in names)  # with_stack: the Python calls are in the trace
    assert os.path.getsize(os.path.join(session, "memory_profile.prof")) > 0  # profile_memory (pprof)
    Profiler.offline_analyse(str(tmp_path))
    assert os.path.exists(os.path.join(session, "PROFILER_OUTPUT", "kernel_details.csv"))


def test_profiler_options_checked_like_mindspore(tmp_path, caplog):
    exp = _ExperimentalConfig(profiler_level=ProfilerLevel.Level1, aic_metrics=AicoreMetrics.PipeUtilization)
    with caplog.at_level(logging.WARNING, logger="sporax"):
        prof = Profiler(
            output_path=str(tmp_path), start_profile=False, with_stack="yes", activities=[ProfilerActivity.CPU]
        )
    assert "the parameter with_stack must be bool" in caplog.text
    assert prof._params["with_stack"] is False and prof._params["activities"] == [ProfilerActivity.CPU]
    p2 = profile(start_profile=False, experimental_config=exp)
    assert p2._params["profiler_level"] is ProfilerLevel.Level1
    assert exp.export_type == [ExportType.Text] and HostSystem.CPU.value == "cpu"
    prof.add_metadata("k", "v")
    prof.add_metadata_json("j", '{"a": 1}')
    assert prof._metadata == {"k": "v", "j": {"a": 1}}
    with caplog.at_level(logging.ERROR, logger="sporax"):
        prof.stop()
    assert "has not started" in caplog.text
    # one trace per process: a second profiler logs an error and leaves the first one's trace alone
    first = Profiler(output_path=str(tmp_path / "a"))
    with caplog.at_level(logging.ERROR, logger="sporax"):
        second = Profiler(output_path=str(tmp_path / "b"))
        second.stop()
    assert "The profiler has already started" in caplog.text
    first.stop()
    assert glob.glob(str(tmp_path / "a" / "*_sporax_ms" / "plugins" / "profile" / "*" / "*.xplane.pb"))


def test_env_profiler(train_step, tmp_path, monkeypatch):
    monkeypatch.setenv("MS_PROFILER_OPTIONS", json.dumps({"start": True, "output_path": str(tmp_path)}))
    EnvProfiler.init_profiler()
    assert EnvProfiler.profiler is not None
    train_step()
    EnvProfiler().analyse()
    (session,) = _sessions(tmp_path)
    assert os.path.exists(os.path.join(session, "PROFILER_OUTPUT", "op_statistic.csv"))


def test_dynamic_profiler_monitor_records_the_configured_steps(train_step, tmp_path, capsys):
    cfg = tmp_path / "cfg"
    mon = DynamicProfilerMonitor(cfg_path=str(cfg), output_path=str(tmp_path / "out"), poll_interval=1)
    assert json.loads((cfg / "profiler_config.json").read_text())["start_step"] == -1
    (cfg / "profiler_config.json").write_text(json.dumps({"start_step": 2, "stop_step": 3, "is_valid": True}))
    mon._read_at = -1e9  # read the new file at the next step
    for _ in range(4):
        train_step()
        mon.step()
    out = capsys.readouterr().out
    assert "start at step 2, will stop at step 3" in out and "stop at step 3" in out
    sessions = _sessions(tmp_path / "out" / "rank0_start2_stop3")
    assert len(sessions) == 1
    assert os.path.exists(os.path.join(sessions[0], "PROFILER_OUTPUT", "op_statistic.csv"))


def test_profiling_is_the_1x_path_with_a_deprecation_warning():
    sys.modules.pop("sporax.profiler.profiling", None)
    with pytest.warns(DeprecationWarning, match="use 'mindspore.profiler.Profiler'"):
        mod = importlib.import_module("sporax.profiler.profiling")
    assert mod.Profiler is Profiler
    assert ms.profiler.Profiler is Profiler


def test_ms_profiler_options_profiles_a_whole_run(tmp_path):
    """``MS_PROFILER_OPTIONS`` set when sporax is imported: the run is profiled and analysed at exit."""
    import subprocess

    code = "import numpy as np, sporax as ms\nx = ms.Tensor(np.ones((8, 8), np.float32))\nprint(float(ms.ops.matmul(x, x).sum()))\n"
    env = dict(os.environ, MS_PROFILER_OPTIONS=json.dumps({"start": True, "output_path": str(tmp_path)}))
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    assert "512.0" in r.stdout and "op_statistic.csv" in r.stdout
    (session,) = _sessions(tmp_path)
    stats = _read_csv(os.path.join(session, "PROFILER_OUTPUT", "op_statistic.csv"))
    assert "dot" in {s["OP Type"] for s in stats}
