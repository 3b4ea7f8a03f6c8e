"""bench/run_all.py's report logic without timing anything: ``--lock`` parses and is released, torch.compile's
compile seconds come from its warm-up, and torch.compile's goal rows and findings come from the run itself (a
full run times it on every workload, the ResNets included; ``--quick`` skips it on the large models)."""

import os
import subprocess
import sys

BENCH = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "bench")
sys.path.insert(0, BENCH)

import run_all  # noqa: E402


def _result(name: str, tc: bool) -> dict:
    med = {"graph": 0.040, "torch eager": 0.039}
    res = {"name": name, "cfg": {"batch": 16, "width": 16}, "steps": 2, "sink": 4, "notes": [], "ready": {}}
    if tc:
        med["torch.compile"] = 0.030
        res["torch_warmup_s"] = {"torch eager": 1.0, "torch.compile": 20.06}
    res["median"] = med
    return res


def test_flags_parse():
    out = subprocess.run(
        [sys.executable, os.path.join(BENCH, "run_all.py"), "--help"], capture_output=True, text=True, check=True
    ).stdout
    assert "--lock" in out and "--quick" in out


def test_torch_compile_compile_seconds():
    assert abs(run_all.compile_times(_result("resnet18_small", True))["torch.compile"] - 20.0) < 1e-9
    assert "torch.compile" not in run_all.compile_times(_result("resnet18_small", False))


def test_torch_compile_goal_rows_come_from_the_run():
    rows = [r for r in run_all.goal_lines([_result("resnet18_small", True)], {}) if "torch.compile" in r]
    assert rows == ["| faster than torch.compile | resnet18_small | 1.33x | **missed** |"]
    assert not [r for r in run_all.goal_lines([_result("resnet18_small", False)], {}) if "torch.compile" in r]


def test_findings_quote_the_runs_torch_compile():
    facts = {"load average (1/5/15 min) at start": "0.5 / 0.5 / 0.5"}
    text = run_all.findings([_result("resnet18_small", True)], facts, 250.0)
    assert "**torch.compile on ResNet-18**: resnet18_small GRAPH 40.0 ms, torch.compile 30.0 ms" in text
    assert "**torch.compile on ResNet-18**" not in run_all.findings([_result("resnet18_small", False)], facts, 250.0)
    assert "**torch.compile on ResNet-18**" not in run_all.findings([_result("mlp_b1", False)], facts, 250.0)


def test_lock_is_optional_and_released(tmp_path):
    assert run_all.bench_lock(None, print) is None
    path = str(tmp_path / "lock")
    held = run_all.bench_lock(path, lambda msg: None)
    held.close()
    run_all.bench_lock(path, lambda msg: None).close()  # taken again: the first was released
