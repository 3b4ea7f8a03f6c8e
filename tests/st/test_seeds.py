"""The seed examples (../shared/seed_examples) run unmodified under `sporax run`, in PyNative and with
GRAPH_MODE set before they start, and print the same numbers in both modes."""

import os
import pathlib
import re
import subprocess
import sys

import pytest

SEEDS = pathlib.Path(__file__).resolve().parents[2].parent / "shared" / "seed_examples"
pytestmark = pytest.mark.skipif(not SEEDS.is_dir(), reason="the shared seed examples are not beside this checkout")


def run_seed(name, mode, tmp_path):
    env = dict(os.environ, PYTHONPATH=str(SEEDS) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    cmd = [sys.executable, "-m", "sporax", "run", "--mode", mode, str(SEEDS / f"{name}.py")]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=tmp_path, env=env)


def numbers(text):
    return re.findall(r"-?\d+\.\d*(?:e-?\d+)?", text)


@pytest.mark.parametrize(
    "name",
    [
        "s000_quickstart_pynative_fixed",
        "s000_quickstart_jit_fixed",
        "s000_mytrainstep_simple_fixed",
        "s000_mytrainstep_scaler_fixed",
        "s001_custom_train_network",
        "s002_trainonestep",
        "s003_gradnetwrtx",
        "s003_trainonestepcell_source",
    ],
)
def test_seed_runs_the_same_in_both_modes(name, tmp_path):
    py = run_seed(name, "pynative", tmp_path)
    assert py.returncode == 0, py.stderr[-3000:]
    graph = run_seed(name, "graph", tmp_path)
    assert graph.returncode == 0, graph.stderr[-3000:]
    assert numbers(py.stdout) and numbers(py.stdout) == numbers(graph.stdout)
    if name.startswith("s000"):
        losses = [float(v) for v in re.findall(r"loss: +(\d+\.\d+)", py.stdout)]
        assert len(losses) == 10 and losses[-1] < losses[0]
    if name == "s003_gradnetwrtx":
        assert "1.41" in py.stdout and "6.6" in py.stdout
    if name in ("s002_trainonestep", "s003_trainonestepcell_source"):
        diffs = [float(v) for v in re.findall(r"max \|diff\|.*?: (\S+)", py.stdout)]
        assert diffs and all(d == 0.0 for d in diffs)
    if name == "s001_custom_train_network":  # MindSpore prints 32 zeros (reduction 'none', zero labels)
        assert numbers(py.stdout) == ["0."] * 32


@pytest.mark.parametrize(
    ("name", "error", "message"),
    [
        ("s000_quickstart_pynative", "ValueError", "For 'Dense', the 'x' shape[-1] must be 256, but got 16."),
        ("s000_quickstart_jit", "ValueError", "For 'Dense', the 'x' shape[-1] must be 256, but got 16."),
        ("s000_mytrainstep_simple", "ValueError", "For 'Dense', the 'x' shape[-1] must be 256, but got 16."),
        (
            "s002_grad_clip_lossscale",
            "TypeError",
            "For 'TrainOneStepWithLossScaleCell', the 'scale_sense' must be Cell or Tensor",
        ),
    ],
)
def test_buggy_seeds_fail_with_mindspore_style_errors(name, error, message, tmp_path):
    for mode in ("pynative", "graph"):
        r = run_seed(name, mode, tmp_path)
        assert r.returncode == 1
        last = r.stderr.strip().splitlines()
        assert any(line.startswith(f"{error}: {message}") for line in last), r.stderr[-2000:]
        assert "jax" not in r.stderr.lower() or "JAX_TRACEBACK" not in r.stderr


def test_grad_clip_lossscale_seed_is_bit_identical_across_modes(tmp_path):
    """s002_grad_clip_lossscale_fixed prints the same losses, overflow flags and scales in both modes.

    Its network computes ``((pred - gt) ** 2).mean()`` with Tensor operators. Run op by op, the squares would
    be rounded before the sum, while the compiled program contracts square and add into an FMA; the
    train-step cell therefore runs compiled in PyNative too (``TrainOneStepCell._auto_jit``)."""
    name = "s002_grad_clip_lossscale_fixed"
    py, graph = run_seed(name, "pynative", tmp_path), run_seed(name, "graph", tmp_path)
    assert py.returncode == 0, py.stderr[-3000:]
    assert graph.returncode == 0, graph.stderr[-3000:]
    assert py.stdout == graph.stdout
    assert py.stdout.count("cond = Tensor(shape=[], dtype=Bool, value= False)") == 5, py.stdout
    assert py.stdout.count("value=1024.0") == 5, py.stdout
    losses = [float(v) for v in re.findall(r"loss = (\S+),", py.stdout)]
    assert len(losses) == 5 and losses[-1] < losses[0]
