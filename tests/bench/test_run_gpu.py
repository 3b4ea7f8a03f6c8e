"""bench/run_gpu.py on CPU: the HLO convolution counter (a made-up module and a real sink program), the
mixed-precision train cells it times (finite losses close to float32's, sinkable), and a smoke run of the
whole script (the CUDA numbers themselves need a GPU: see the script's docstring)."""

import os
import subprocess
import sys

import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, nn
from sporax._engine import scan_steps
from sporax.common._compile import compiled_programs
from sporax.ops._lowering import force_lowering

BENCH = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "bench")
sys.path.insert(0, BENCH)

import bench_models  # noqa: E402
import run_gpu  # noqa: E402

# A module shaped like XLA:GPU's optimized output: a while loop whose body calls a fusion and a nested
# computation, cuDNN convolution custom calls and a cuDNN fusion inside, one plain convolution outside.
HLO = """\
HloModule jit_sink, entry_computation_layout={(f32[2,1,8,8]{3,2,1,0})->f32[2]{0}}

%fused_relu (param_0: f32[2,4,6,6]) -> f32[2,4,6,6] {
  %param_0 = f32[2,4,6,6]{3,2,1,0} parameter(0)
  %constant.1 = f32[] constant(0)
  ROOT %maximum.1 = f32[2,4,6,6]{3,2,1,0} maximum(f32[2,4,6,6]{3,2,1,0} %param_0, f32[] %constant.1)
}

%cudnn_fusion_comp (p0: bf16[2,1,8,8], p1: bf16[4,1,3,3]) -> bf16[2,4,6,6] {
  %p0 = bf16[2,1,8,8]{3,2,1,0} parameter(0)
  %p1 = bf16[4,1,3,3]{3,2,1,0} parameter(1)
  ROOT %convolution.9 = bf16[2,4,6,6]{3,2,1,0} convolution(bf16[2,1,8,8]{3,2,1,0} %p0, bf16[4,1,3,3]{3,2,1,0} %p1), window={size=3x3}, dim_labels=bf01_oi01->bf01
}

%backward (a: f32[2,4,6,6], w: f32[2,1,8,8]) -> (f32[4,1,3,3], u8[0]) {
  %a = f32[2,4,6,6]{3,2,1,0} parameter(0)
  %w = f32[2,1,8,8]{3,2,1,0} parameter(1)
  ROOT %custom-call.2 = (f32[4,1,3,3]{3,2,1,0}, u8[0]{0}) custom-call(f32[2,1,8,8]{3,2,1,0} %w, f32[2,4,6,6]{3,2,1,0} %a), window={size=3x3}, custom_call_target="__cudnn$convBackwardFilter"
}

%body (carry: (s32[], f32[2,1,8,8], f32[4,1,3,3])) -> (s32[], f32[2,1,8,8], f32[4,1,3,3]) {
  %carry = (s32[], f32[2,1,8,8]{3,2,1,0}, f32[4,1,3,3]{3,2,1,0}) parameter(0)
  %x = f32[2,1,8,8]{3,2,1,0} get-tuple-element(%carry), index=1
  %k = f32[4,1,3,3]{3,2,1,0} get-tuple-element(%carry), index=2
  %custom-call.1 = (f32[2,4,6,6]{3,2,1,0}, u8[0]{0}) custom-call(f32[2,1,8,8]{3,2,1,0} %x, f32[4,1,3,3]{3,2,1,0} %k), window={size=3x3}, custom_call_target="__cudnn$convForward", backend_config={"cudnn_conv_backend_config":{}}
  %gte = f32[2,4,6,6]{3,2,1,0} get-tuple-element(%custom-call.1), index=0
  %fusion.1 = f32[2,4,6,6]{3,2,1,0} fusion(f32[2,4,6,6]{3,2,1,0} %gte), kind=kLoop, calls=%fused_relu
  %xb = bf16[2,1,8,8]{3,2,1,0} convert(%x)
  %kb = bf16[4,1,3,3]{3,2,1,0} convert(%k)
  %fusion.2 = bf16[2,4,6,6]{3,2,1,0} fusion(bf16[2,1,8,8]{3,2,1,0} %xb, bf16[4,1,3,3]{3,2,1,0} %kb), kind=kCustom, calls=%cudnn_fusion_comp, backend_config={"fusion_backend_config":{"kind":"__cudnn$fusion"}}
  %call.1 = (f32[4,1,3,3]{3,2,1,0}, u8[0]{0}) call(f32[2,4,6,6]{3,2,1,0} %fusion.1, f32[2,1,8,8]{3,2,1,0} %x), to_apply=%backward
  %dot.1 = f32[4,4]{1,0} dot(f32[4,9]{1,0} %a, f32[9,4]{1,0} %b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT %tuple.1 = (s32[], f32[2,1,8,8]{3,2,1,0}, f32[4,1,3,3]{3,2,1,0}) tuple(%i, %x, %k)
}

%cond (carry.1: (s32[], f32[2,1,8,8], f32[4,1,3,3])) -> pred[] {
  %carry.1 = (s32[], f32[2,1,8,8]{3,2,1,0}, f32[4,1,3,3]{3,2,1,0}) parameter(0)
  ROOT %lt = pred[] compare(%i, %n), direction=LT
}

ENTRY %main (x.1: f32[2,1,8,8], k.1: f32[4,1,3,3]) -> f32[2] {
  %x.1 = f32[2,1,8,8]{3,2,1,0} parameter(0)
  %k.1 = f32[4,1,3,3]{3,2,1,0} parameter(1)
  %convolution.1 = f32[2,4,6,6]{3,2,1,0} convolution(f32[2,1,8,8]{3,2,1,0} %x.1, f32[4,1,3,3]{3,2,1,0} %k.1), window={size=3x3}, dim_labels=bf01_oi01->bf01
  %while.1 = (s32[], f32[2,1,8,8]{3,2,1,0}, f32[4,1,3,3]{3,2,1,0}) while(%tuple.0), condition=%cond, body=%body
  ROOT %r = f32[2]{0} slice(%y)
}
"""


def test_conv_report_regions_and_targets():
    rep = run_gpu.conv_report(HLO)
    assert rep["whiles"] == 1
    body, outside = rep["while_body"], rep["outside"]
    assert (body["cudnn_conv_calls"], body["cudnn_fusion_convs"], body["plain_convs"]) == (2, 1, 0)
    assert body["dots"] == 1
    assert body["targets"] == {"__cudnn$convForward": 1, "__cudnn$convBackwardFilter": 1}
    assert (outside["cudnn_conv_calls"], outside["plain_convs"], outside["targets"]) == (0, 1, {})
    assert run_gpu.conv_verdict(rep, "gpu").startswith("yes: all 3 convolution(s)")
    assert run_gpu.conv_verdict(rep, "cpu").startswith("cpu: no cuDNN on this backend")
    # a plain convolution moved into the loop body: only partly on cuDNN
    moved = HLO.replace("  %dot.1 =", "  %convolution.7 = f32[1] convolution(%x, %k)\n  %dot.1 =")
    assert run_gpu.conv_verdict(run_gpu.conv_report(moved), "gpu") == "partly: 3 cuDNN, 1 not"
    unrolled = run_gpu.conv_report(HLO.replace("while(", "tuple("))  # no loop: everything counts as outside
    assert unrolled["outside"]["cudnn_conv_calls"] == 2 and unrolled["while_body"]["cudnn_conv_calls"] == 0
    verdict = run_gpu.conv_verdict(unrolled, "gpu")
    assert verdict == "no while loop left in the program (unrolled?); 3 cuDNN convolution(s), 1 not"


def test_hlo_computations_names_the_entry():
    comps, entry = run_gpu.hlo_computations(HLO)
    assert entry == "main"
    assert set(comps) == {"fused_relu", "cudnn_fusion_comp", "backward", "body", "cond", "main"}
    assert comps["cond"][-1].startswith("ROOT %lt")


class _ConvNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 4, 3, pad_mode="valid", has_bias=False)
        self.dense = nn.Dense(4 * 6 * 6, 3)
        self.loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")

    def construct(self, x, y):
        return self.loss(self.dense(ops_flatten(ms.ops.relu(self.conv(x)))), y)


def ops_flatten(x):
    return x.reshape(x.shape[0], -1)


def test_real_sink_program_has_its_convolutions_in_the_loop_body():
    """A CPU-compiled sink program (scan_steps, as run_gpu compiles it) of a train step with one convolution
    traced as XLA convolutions: the forward and the weight gradient are inside the while loop's body."""
    ms.set_context(mode=ms.GRAPH_MODE)
    net = _ConvNet()
    step = nn.TrainOneStepCell(net, nn.SGD(net.trainable_params(), 0.1))
    rng = np.random.default_rng(0)
    xs = Tensor(rng.standard_normal((2, 2, 1, 8, 8)).astype(np.float32))
    ys = Tensor(rng.integers(0, 3, (2, 2)).astype(np.int32))
    before = {id(p) for p, _ in compiled_programs()}
    sink = ms.jit(lambda *b: scan_steps(lambda r: step(*r), b))
    with force_lowering(conv="plain"):
        losses = sink(xs, ys).asnumpy()
    assert np.isfinite(losses).all() and losses.shape == (2,)
    rep = run_gpu.conv_report(run_gpu.sink_hlo(before))
    assert rep["whiles"] >= 1
    assert rep["while_body"]["plain_convs"] >= 2  # forward and weight gradient (no input gradient needed)
    assert rep["outside"]["plain_convs"] == 0
    assert rep["while_body"]["cudnn_conv_calls"] == 0
    assert run_gpu.conv_verdict(rep, "cpu").startswith("cpu: no cuDNN")


@pytest.mark.parametrize("prec, rtol", [("bf16", 3e-2), ("fp16", 3e-3)])
def test_amp_steps_match_float32_first_loss_and_sink(prec, rtol):
    """run_gpu's mixed-precision cell (auto_mixed_precision O2 + build_train_network, a dynamic loss scale
    for float16) on LeNet5 b32: the first step's loss is finite and close to the float32 step's from the same
    initial weights, and the cell runs inside a sink."""
    wl = {"kind": "small", "case": "lenet_b32"}
    ref = bench_models.small_sides("lenet_b32", ms)
    base = float(ref["step"](*ref["batch"]).asnumpy())
    sides = bench_models.small_sides("lenet_b32", ms)
    cell = run_gpu.amp_step("lenet_b32", wl, sides, prec, "O2")
    assert isinstance(cell, nn.TrainOneStepWithLossScaleCell) == (prec == "fp16")
    loss = float(run_gpu._sync(cell(*sides["batch"])))
    assert np.isfinite(loss)
    np.testing.assert_allclose(loss, base, rtol=rtol)
    stacked = tuple(Tensor(np.stack([b.asnumpy()] * 2)) for b in sides["batch"])
    out = ms.jit(lambda *b: scan_steps(lambda r: cell(*r), b))(*stacked)
    assert np.isfinite(run_gpu._first_leaf(out).asnumpy()).all()


def test_gpu_section_without_results_gives_the_run_command(tmp_path):
    lines = run_gpu.gpu_section(str(tmp_path / "absent.md"))
    assert lines[0] == "## GPU" and f"    {run_gpu.RUN_COMMAND}" in lines
    assert run_gpu.RUN_COMMAND in run_gpu.__doc__  # the docstring states the same call
    made = tmp_path / "RESULTS_gpu.md"
    made.write_text("## GPU: NVIDIA H100 80GB HBM3\n\n| table |\n")
    assert run_gpu.gpu_section(str(made)) == ["## GPU: NVIDIA H100 80GB HBM3\n\n| table |", ""]


def test_smoke_run_on_cpu_writes_the_section(tmp_path):
    """The whole script, forced to CPU, one small workload in float32 (the PyTorch side when a torch is
    importable, else noted): the markdown section is written with the timed sides."""
    out = tmp_path / "gpu.md"
    cmd = [sys.executable, os.path.join(BENCH, "run_gpu.py"), "--platform", "cpu", "--quick", "--only", "mlp_b1"]
    cmd += ["--precisions", "fp32", "--no-twin", "--rounds", "1", "--out", str(out)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    text = out.read_text()
    assert text.startswith("## GPU part, smoke run on the CPU")
    row = next(line for line in text.splitlines() if line.startswith("| mlp_b1 | batch=1"))
    assert row.split("|")[3].strip() not in ("", "-")  # sporax GRAPH timed
    assert row.split("|")[4].strip() not in ("", "-")  # sporax sink timed
