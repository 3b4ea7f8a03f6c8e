"""The bench suite's train steps on an NVIDIA GPU: sporax (JAX's CUDA plugin) against PyTorch CUDA.

Issue 17, item 5: float32 and mixed precision (bfloat16 and float16), and whether the convolutions inside
sink mode's scan reach cuDNN. Writes a markdown section (``--out``, default bench/RESULTS_gpu.md) that
bench/run_all.py puts into RESULTS.md.

The workloads are run_all.py's (same builders, same shapes: bench_train_step/bench_models for sporax,
bench_models.torch_step for PyTorch), with more steps per round. Per workload, one sporax process per
precision, one for the GRAPH step without index checks and one for the JAX twin, all building and compiling
at the same time (each side's peak device memory is its own); then each precision's PyTorch process (one
per precision for the whole run) builds the workload's step, one after the other; then the driver asks every
side for timing rounds in turn, alternating the order every round. The sides:

- sporax fp32: the workload's own GRAPH step (as run_all times it), its sink (``scan_steps`` over ``sink``
  steps in one compiled program, what ``data_sink``/``dataset_sink_mode`` run; per step), for the MLP and
  LeNet5 the GRAPH step compiled with ``SPORAX_INDEX_CHECKS=0``, and the hand-written JAX + optax twin
  (bench_train_step.py / jax_twins.py, checked against sporax's first steps before it is timed);
- sporax bf16 / fp16: MindSpore's mixed precision on the workload's network-with-loss and optimizer:
  ``amp.auto_mixed_precision(net, amp_level, dtype)`` (``--amp-level``, default O2) and
  ``amp.build_train_network(net, optimizer, level="O0", loss_scale_manager=...)``: for fp16 a
  ``DynamicLossScaleManager()`` (so a ``TrainOneStepWithLossScaleCell``, the update skipped on overflow), for
  bf16 none; GRAPH step and sink. (MindSpore 2.10's ``build_train_network``/``Model(amp_level=...)`` take
  no bfloat16: their ``cast_model_type`` is float16 or float32; bfloat16 goes through ``auto_mixed_precision``'s
  ``dtype``, as here. The loss is inside the network, so O2 computes it in ``dtype`` too, as MindSpore does
  for a network-with-loss; ``--amp-level auto`` keeps softmax/log/losses in float32, like ``torch.autocast``);
- PyTorch eager fp32, and the same step under ``torch.autocast`` in bf16 and in fp16 with a ``GradScaler``.

float32 matrix products: JAX/XLA uses TF32 on the GPU by default; the PyTorch side is set to match
(``torch.set_float32_matmul_precision("high")``; cuDNN convolutions allow TF32 by default). ``--fp32 ieee``
runs both in full float32 instead.

The cuDNN check: for lenet_b32 and resnet18_small, each precision's sink program's optimized HLO (the
executable the sink ran, from JAX's in-process compile cache) goes through :func:`conv_report`: per region
(the ``while`` loop's body and what it calls, against the rest of the program) the convolutions that are
cuDNN custom calls (``custom_call_target="__cudnn$conv..."``, or convolutions in a ``__cudnn$fusion``)
against plain ``convolution`` instructions (on CPU, where there is no cuDNN, it says so and counts what is
there).

On a lent GPU the whole run is one device call, nothing carried (the image has python3 3.12 with
torch+cu130, jax 0.11.2 with jax-cuda13-plugin, optax, opencv, scipy, protobuf; sporax runs from the working
tree through PYTHONPATH and nothing is installed: sporax's pyproject pins jax<0.11, so ``pip install -e .``
would fail offline; google-crc32c, absent there, is imported only when a TFRecord or summary file is written). Estimated 4-6
minutes on an H100, compiles included: ``--budget-s`` stops starting workloads after 330 s (the largest,
resnet18, runs last) and the call's 480 s limit leaves device time for a second call with ``--only``;
RESULTS_gpu.md is rewritten after each workload, so a run cut short returns what it measured; ``--rev``
states the commit where the device's copy of the tree has no git history. The call (one line)::

    run(command="set -o pipefail; PYTHONUNBUFFERED=1 PYTHONPATH=. python3 bench/run_gpu.py --out $OUT/RESULTS_gpu.md 2>&1 | tee $OUT/run_gpu.log", timeout_s=480)

then copy the returned RESULTS_gpu.md (under the reply's ``files_at``) to bench/RESULTS_gpu.md, commit it
and rerun run_all.py (its RESULTS.md includes the file). A short second call for what a first one missed:
``--only resnet18 --out $OUT/RESULTS_gpu_2.md`` (merge the rows by hand), or the cuDNN check alone in about a
minute: ``--only lenet_b32,resnet18_small --no-twin --rounds 1``. On CPU (a smoke run of the same code, no cuDNN):
``python bench/run_gpu.py --platform cpu --quick --only mlp_b1``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from _common import CORE, ROOT, TORCH_PYTHON, Worker, serve, timed  # noqa: E402

RUN_COMMAND = (
    'run(command="set -o pipefail; PYTHONUNBUFFERED=1 PYTHONPATH=. python3 bench/run_gpu.py '
    '--out $OUT/RESULTS_gpu.md 2>&1 | tee $OUT/run_gpu.log", timeout_s=480)'
)
PRECISIONS = ("fp32", "bf16", "fp16")
CUDNN_CHECK = ("lenet_b32", "resnet18_small")
# steps per timing round and sink size on the GPU (run_all.py's shapes; its CPU step counts are too few
# here), in the order they run: the two of the cuDNN check early, the largest last
GPU_STEPS = {
    "mlp_b1": (500, 100),
    "mlp_b256": (500, 100),
    "lenet_b32": (300, 100),
    "resnet18_small": (50, 20),
    "lstm": (50, 20),
    "transformer": (50, 20),
    "resnet18": (30, 10),
}


# --extra: a batch that fills a GPU better (after the suite's workloads)
EXTRA = {
    "resnet18_b256": {"kind": "model", "case": "resnet18", "torch": "resnet18", "cfg": {"batch": 256, "width": 64}}
}
EXTRA_STEPS = {"resnet18_b256": (20, 5)}


def workloads(extra: bool = False) -> dict[str, dict]:
    """run_all.py's workloads (kind, case, cfg, torch model) with this script's step counts, and with
    ``extra`` the larger ones of :data:`EXTRA`."""
    from run_all import WORKLOADS

    out = {}
    for name, (steps, sink) in (GPU_STEPS | (EXTRA_STEPS if extra else {})).items():
        wl = WORKLOADS.get(name) or EXTRA[name]
        out[name] = {k: wl[k] for k in ("kind", "case", "torch", "cfg")} | {"steps": steps, "sink": sink}
    return out


# ------------------------------------------------------------------------------------ HLO: convolutions
_COMP_START = re.compile(r"^(ENTRY\s+)?%?([\w.\-]+)\s*(\(.*\))?.*\{\s*$")
_CALLEES = re.compile(
    r"\b(calls|body|condition|to_apply|branch_computations|true_computation|false_computation|"
    r"called_computations)=(\{[^}]*\}|%?[\w.\-]+)"
)
_TARGET = re.compile(r'custom_call_target="([^"]+)"')


def hlo_computations(text: str) -> tuple[dict[str, list[str]], str | None]:
    """The computations of an HLO module's text: ``{name: instruction lines}`` and the entry's name."""
    comps: dict[str, list[str]] = {}
    entry = None
    current: list[str] | None = None
    for line in text.splitlines():
        stripped = line.strip()
        if current is None:
            m = _COMP_START.match(stripped)
            if m and not stripped.startswith("HloModule"):
                current = comps.setdefault(m.group(2), [])
                if m.group(1):
                    entry = m.group(2)
        elif stripped == "}":
            current = None
        elif stripped:
            current.append(stripped)
    return comps, entry


def _callees(line: str) -> list[str]:
    out = []
    for _, ref in _CALLEES.findall(line):
        out += [r.strip().lstrip("%") for r in ref.strip("{}").split(",") if r.strip()]
    return out


def _reach(comps: dict[str, list[str]], roots: list[str]) -> set[str]:
    seen: set[str] = set()
    todo = list(roots)
    while todo:
        name = todo.pop()
        if name in seen or name not in comps:
            continue
        seen.add(name)
        for line in comps[name]:
            todo += _callees(line)
    return seen


def conv_report(text: str) -> dict:
    """Where the convolutions of a compiled HLO module are and what runs them: per region (``while_body``: the
    bodies and conditions of every ``while`` loop and all they call; ``outside``: the rest) the count of cuDNN
    convolution custom calls (``__cudnn$conv...``), of convolutions inside cuDNN fusions (``__cudnn$fusion``),
    of plain ``convolution`` instructions (XLA's own kernels: Eigen/oneDNN on CPU, none expected on a GPU),
    of other convolution custom calls, of matrix products (``dot`` instructions and GEMM custom calls: sporax
    lowers small CPU convolutions to GEMMs), and the custom-call targets seen; and ``whiles``, the loops
    found."""
    comps, _entry = hlo_computations(text)
    loop_roots, cudnn_fused = [], []
    whiles = 0
    for lines in comps.values():
        for line in lines:
            if re.search(r"\swhile\(", line):
                whiles += 1
                loop_roots += [r for k, r in _callee_pairs(line) if k in ("body", "condition")]
            if re.search(r"\sfusion\(", line) and "__cudnn$fusion" in line:
                cudnn_fused += _callees(line)
    in_loop = _reach(comps, loop_roots)
    fused = _reach(comps, cudnn_fused)
    regions = {r: Counter() for r in ("while_body", "outside")}
    targets: dict[str, Counter] = {r: Counter() for r in regions}
    for name, lines in comps.items():
        region = "while_body" if name in in_loop else "outside"
        for line in lines:
            if re.search(r"\sconvolution\(", line):
                regions[region]["cudnn_fusion_convs" if name in fused else "plain_convs"] += 1
            elif re.search(r"\sdot\(", line):
                regions[region]["dots"] += 1
            elif re.search(r"\scustom-call\(", line):
                m = _TARGET.search(line)
                target = m.group(1) if m else "?"
                targets[region][target] += 1
                low = target.lower()
                if target.startswith("__cudnn$") and "conv" in low:
                    regions[region]["cudnn_conv_calls"] += 1
                elif "conv" in low:
                    regions[region]["other_conv_calls"] += 1
                elif "gemm" in low or "matmul" in low:
                    regions[region]["dots"] += 1
    keys = ("cudnn_conv_calls", "cudnn_fusion_convs", "plain_convs", "other_conv_calls", "dots")
    out: dict = {r: {k: regions[r][k] for k in keys} for r in regions}
    for r in regions:
        out[r]["targets"] = dict(targets[r])
    out["whiles"] = whiles
    return out


def _callee_pairs(line: str) -> list[tuple[str, str]]:
    return [(k, r.strip().lstrip("%")) for k, ref in _CALLEES.findall(line) for r in ref.strip("{}").split(",")]


def conv_verdict(rep: dict, backend: str) -> str:
    """One line on :func:`conv_report`'s counts: do the loop body's convolutions run on cuDNN?"""
    body = rep["while_body"]
    cudnn = body["cudnn_conv_calls"] + body["cudnn_fusion_convs"]
    plain = body["plain_convs"] + body["other_conv_calls"]
    if not rep["whiles"]:  # XLA may unroll a loop of few steps: then say what the whole program does
        out = rep["outside"]
        total_cudnn = out["cudnn_conv_calls"] + out["cudnn_fusion_convs"]
        return (
            f"no while loop left in the program (unrolled?); {total_cudnn} cuDNN convolution(s), "
            f"{out['plain_convs'] + out['other_conv_calls']} not"
        )
    if backend != "gpu":
        return (
            f"{backend}: no cuDNN on this backend (the loop body has {plain} XLA convolution(s) and "
            f"{body['dots']} matrix product(s))"
        )
    if cudnn and not plain:
        return f"yes: all {cudnn} convolution(s) in the loop body are cuDNN calls"
    if cudnn:
        return f"partly: {cudnn} cuDNN, {plain} not"
    return "no: " + (f"{plain} plain convolution(s) in the loop body" if plain else "no convolution in the loop body")


def sink_hlo(before: set[int]) -> str:
    """The optimized HLO of the sink program compiled since ``before`` (the ids of
    ``compiled_programs()``'s programs taken before the sink's ``jit`` was made): the one with a loop."""
    from sporax.common._compile import compiled_programs

    texts = [program_hlo(p) for p, _ in compiled_programs() if id(p) not in before and p._cache]
    return next((t for t in texts if re.search(r"\swhile\(", t)), texts[0] if texts else "")


def program_hlo(sjit) -> str:
    """The optimized HLO text of the program a sporax ``StatefulJit`` compiled last, compiled again from the
    trace it ran (the same program XLA built for the run)."""
    _key, entry = list(sjit._cache.items())[-1]
    return entry.traced.lower().compile().as_text()


# ------------------------------------------------------------------------------------------ sporax side
def _first_leaf(out):
    while isinstance(out, tuple | list):
        out = out[0]
    return out


def _sync(out):
    import numpy as np

    leaf = _first_leaf(out)
    return np.asarray(leaf.asnumpy() if hasattr(leaf, "asnumpy") else leaf)


def loss_network(name: str, wl: dict, sides: dict):
    """The workload's network with its loss (all batch inputs in, the loss out) and its optimizer, the
    pieces MindSpore's ``Model(net_with_loss, optimizer=opt, amp_level=...)`` takes."""
    from sporax import nn

    step = sides["step"]
    if wl["kind"] == "small":  # the seed's networks compute their loss in construct
        return sides["net"], sides["optimizer"]
    if isinstance(step, nn.TrainOneStepCell):  # resnet18 (WithLossCell), transformer (LMWithLoss)
        return step.network, step.optimizer

    class LSTMWithLoss(nn.Cell):  # examples/sentiment_lstm_glove.py's forward_fn and optimizer as a Cell
        def __init__(self, net):
            super().__init__(auto_prefix=False)
            self.net = net
            self.loss = nn.CrossEntropyLoss()

        def construct(self, ids, length, label):
            return self.loss(self.net(ids, length), label)

    net = sides["net"]
    return LSTMWithLoss(net), nn.Adam(net.trainable_params(), learning_rate=0.01)


def amp_step(name: str, wl: dict, sides: dict, prec: str, level: str):
    """MindSpore's mixed-precision training cell for the workload: ``auto_mixed_precision(net_with_loss, level,
    dtype)``, then ``build_train_network`` with a ``DynamicLossScaleManager`` for float16 (none for bfloat16)."""
    import sporax as ms

    dtype = {"bf16": ms.bfloat16, "fp16": ms.float16}[prec]
    net, opt = loss_network(name, wl, sides)
    net = ms.amp.auto_mixed_precision(net, level, dtype)
    manager = ms.amp.DynamicLossScaleManager() if prec == "fp16" else None
    return ms.amp.build_train_network(net, opt, None, level="O0", loss_scale_manager=manager)


def _jax_platform_version() -> str:
    """The JAX backend's own words on its runtime (on a GPU: the CUDA version), and the cuDNN version JAX
    loaded where its CUDA plugin says (a private module: absent on CPU and perhaps in other versions)."""
    import jax

    out = " ".join(str(jax.devices()[0].client.platform_version).split())
    try:
        from jax._src.lib import cuda_versions

        out += f", cuDNN {cuda_versions.cudnn_get_version()}" if cuda_versions is not None else ""
    except Exception:  # noqa: BLE001  (only a fact for the report)
        pass
    return out


def device_memory() -> dict:
    import jax

    stats = jax.devices()[0].memory_stats() or {}
    return {"peak_mib": stats["peak_bytes_in_use"] / 2**20} if "peak_bytes_in_use" in stats else {}


def sporax_worker(name: str, wl: dict, prec: str, level: str) -> None:
    """Build, compile and serve one workload's sporax sides in one precision (see the module docstring);
    ``prec="twin"``: the hand-written JAX twin alone (its own process, as run_all.py builds it)."""
    import jax
    import numpy as np

    import sporax as ms
    from sporax import Tensor
    from sporax._engine import scan_steps
    from sporax.common._compile import compiled_programs

    ready: dict = {"backend": jax.default_backend(), "device_kind": jax.devices()[0].device_kind}
    ready["versions"] = {"jax": jax.__version__, "jaxlib": __import__("jaxlib").__version__}
    ready["platform_version"] = _jax_platform_version()
    if prec == "twin":
        return _twin_worker(wl, ready)
    if wl["kind"] == "small":
        import bench_train_step

        sides = bench_train_step.build_case(wl["case"], twin=False)
    else:
        import bench_models

        sides = bench_models.sporax_sides(wl["case"], wl["cfg"])
    batch = sides["batch"]
    if prec == "fp32":
        step = sides["step"]
    else:
        step = amp_step(name, wl, sides, prec, level)
    t = time.perf_counter()
    ready["loss"] = float(_sync(step(*batch)))
    ready["first_step_s"] = time.perf_counter() - t
    runners = {"graph": lambda: step(*batch)}
    if os.environ.get("SPORAX_INDEX_CHECKS") == "0":  # the GRAPH step compiled without index checks, alone
        _sync(step(*batch))
        ready["sides"] = list(runners)
        return serve(lambda req: {"seconds": timed(runners["graph"], req["steps"], _sync)}, ready=ready)
    n = wl["sink"]
    stacked = tuple(Tensor(np.stack([b.asnumpy()] * n)) for b in batch)
    before = {id(p) for p, _ in compiled_programs()}
    sink = ms.jit(lambda *b: scan_steps(lambda r: step(*r), b))
    t = time.perf_counter()
    try:
        _sync(sink(*stacked))
        ready["sink_first_s"] = time.perf_counter() - t
        runners["sink"] = lambda: sink(*stacked)
    except Exception as exc:  # noqa: BLE001  (reported; the GRAPH step is still timed)
        ready["notes"] = [f"sink failed: {type(exc).__name__}: {exc}"[:300]]
    if name in CUDNN_CHECK and "sink" in runners:
        t = time.perf_counter()
        try:
            rep = conv_report(sink_hlo(before))
            rep["verdict"] = conv_verdict(rep, ready["backend"])
        except Exception as exc:  # noqa: BLE001  (reported in the results)
            rep = {"error": f"{type(exc).__name__}: {exc}"[:300]}
        rep["seconds"] = time.perf_counter() - t
        ready["cudnn"] = rep
    for f in runners.values():
        _sync(f())
    ready.update(device_memory())
    ready["sides"] = list(runners)
    per_call = {"sink": n}

    def handle(req: dict) -> dict:
        side = req["side"]
        k = per_call.get(side, 1)
        return {"seconds": timed(runners[side], 1 if k > 1 else req["steps"], _sync) / k}

    serve(handle, ready=ready)


def _twin_worker(wl: dict, ready: dict) -> None:
    """Serve the hand-written JAX + optax twin (from sporax's initial weights, checked against sporax's first
    step), as run_all.py builds it; a twin that disagrees is reported, not timed."""
    try:
        if wl["kind"] == "small":
            import bench_train_step

            sides = bench_train_step.build_case(wl["case"], twin=True)
        else:
            import bench_models
            import jax_twins

            sides = jax_twins.twin_sides(wl["case"], wl["cfg"], bench_models.sporax_sides(wl["case"], wl["cfg"]))
        ready["notes"] = [f"JAX twin, same numbers before timing: {sides.get('check', '')}"]
    except (Exception, SystemExit) as exc:  # noqa: BLE001
        sides = {}
        ready["notes"] = [f"JAX twin not timed: {type(exc).__name__}: {exc}"[:300]]
    runners = {"jax": sides["jax"]} if "jax" in sides else {}
    for f in runners.values():
        _sync(f())
    ready["sides"] = list(runners)
    serve(lambda req: {"seconds": timed(runners[req["side"]], req["steps"], _sync)}, ready=ready)


# ----------------------------------------------------------------------------------------- PyTorch side
def torch_worker(device: str, amp: str | None, fp32: str) -> None:
    """One precision's PyTorch process for the whole run: ``{"cmd": "build", "model", "cfg"}`` builds that
    workload's step (bench_models.torch_step on ``device``, under ``torch.autocast`` for ``amp``) in place of
    the last one and runs two warm-up steps; ``{"steps": n}`` times it. Peak device memory is per build."""
    import gc

    import bench_models
    import torch

    facts: dict = {"torch": torch.__version__}
    if device == "cuda":
        torch.set_float32_matmul_precision("high" if fp32 == "tf32" else "highest")
        torch.backends.cudnn.allow_tf32 = fp32 == "tf32"
        torch.backends.cudnn.benchmark = True  # what a tuned PyTorch script sets (XLA autotunes its convolutions)
        facts.update(device_name=torch.cuda.get_device_name(), cuda=torch.version.cuda)
        facts["cudnn"] = torch.backends.cudnn.version()
    else:
        torch.set_num_threads(1)
    held: dict = {}

    def handle(req: dict) -> dict:
        if req.get("cmd") != "build":
            return {"seconds": timed(held["step"], req["steps"], lambda v: float(v.detach()))}
        held.clear()
        gc.collect()
        if device == "cuda":
            torch.cuda.empty_cache()
            torch.cuda.reset_peak_memory_stats()
        t = time.perf_counter()
        cfg = dict(req["cfg"], device=device, **({"amp": amp} if amp else {}))
        held["step"] = step = bench_models.torch_step(req["model"], cfg)
        out = {"loss": float(step().detach())}
        step()
        if device == "cuda":
            torch.cuda.synchronize()
            out["peak_mib"] = torch.cuda.max_memory_allocated() / 2**20
        out["warmup_s"] = time.perf_counter() - t
        return {**facts, **out, "sides": ["torch"]}

    serve(handle, ready=facts)


# ------------------------------------------------------------------------------------------------ driver
def _torch_python() -> str:
    ok = subprocess.run([sys.executable, "-c", "import torch"], capture_output=True).returncode == 0
    return sys.executable if ok or not os.path.exists(TORCH_PYTHON) else TORCH_PYTHON


def _env_core(args) -> tuple[dict, str]:
    """The workers' environment and cores: on the GPU every core (XLA compiles on many threads), JAX's
    memory allocated on demand (two frameworks share the device; JAX's peak is then what it used); on CPU one
    pinned core, as run_all.py."""
    env = {"XLA_PYTHON_CLIENT_PREALLOCATE": "false", "PYTHONPATH": ROOT + os.pathsep + os.environ.get("PYTHONPATH", "")}
    if args.platform:
        env["JAX_PLATFORMS"] = args.platform
    if args.platform == "cpu":
        core = CORE
    else:
        env.update(XLA_FLAGS="", OMP_NUM_THREADS="4")
        core = f"0-{(os.cpu_count() or 1) - 1}"
    if args.fp32 == "ieee":
        env["JAX_DEFAULT_MATMUL_PRECISION"] = "highest"
    return env, core


def start_torch(args) -> dict[str, Worker]:
    """One persistent PyTorch process per precision (CUDA when JAX's platform is not forced to cpu)."""
    env, core = _env_core(args)
    device = "cpu" if args.platform == "cpu" else "cuda"
    cmd = [_torch_python(), os.path.abspath(__file__), "--worker", "torch", "--device", device, "--fp32", args.fp32]
    out = {}
    for prec in args.precisions:
        out[f"torch {prec}"] = Worker([*cmd, *(["--prec", prec] if prec != "fp32" else [])], env=env, core=core)
    for label, w in list(out.items()):
        try:
            w.ready = w._read()
        except Exception as exc:  # noqa: BLE001  (reported in the log; the sporax sides still run)
            print(f"{label} failed to start: {exc}", flush=True)
            w.close()
            del out[label]
    return out


def bench_workload(name: str, wl: dict, args, log, torch_workers: dict[str, Worker]) -> dict:
    res: dict = {"name": name, "cfg": wl["cfg"], "steps": wl["steps"], "sink": wl["sink"], "notes": [], "ready": {}}
    env, core = _env_core(args)
    me = [sys.executable, os.path.abspath(__file__), "--worker", "sporax", "--wl", json.dumps({"name": name, **wl})]
    starts = [] if args.no_twin else [("jax twin", [*me, "--prec", "twin"])]
    starts += [(f"sporax {prec}", [*me, "--prec", prec, "--amp-level", args.amp_level]) for prec in args.precisions]
    if "fp32" in args.precisions and wl["kind"] == "small":  # as run_all.py: the small steps, where a per-step
        # cost shows, also without the index checks' error record (SPORAX_INDEX_CHECKS=0)
        starts.append(("sporax fp32 no checks", [*me, "--prec", "fp32"]))
    t0 = time.perf_counter()
    workers: dict[str, Worker] = {}
    # the sporax processes build and compile at the same time (each one's first line, 'ready', is read after)
    pending = {
        label: Worker(cmd, env=dict(env, SPORAX_INDEX_CHECKS="0") if "no checks" in label else env, core=core)
        for label, cmd in starts
    }
    try:
        for label, w in pending.items():
            try:
                w.ready = w._read()
                workers[label] = w
                res["ready"][label] = w.ready
            except Exception as exc:  # noqa: BLE001  (reported; the other sides go on)
                res["notes"].append(f"{label} failed to start: {str(exc)[:300]}")
                w.close()
        # then PyTorch's steps, one at a time (cudnn.benchmark times its algorithms on a quiet device)
        for label, w in list(torch_workers.items()):
            try:
                rep = w.ask(cmd="build", model=wl["torch"], cfg=wl["cfg"])
            except Exception as exc:  # noqa: BLE001  (its process ended: no PyTorch side in this precision)
                res["notes"].append(f"{label} ended: {str(exc)[:300]}")
                del torch_workers[label]
                continue
            if "error" in rep:
                res["notes"].append(f"{label}: {rep['error']}")
                continue
            workers[label] = w
            w.ready = res["ready"][label] = rep
        log(f"  {name}: ready in {time.perf_counter() - t0:.1f}s")
        for label, ready in res["ready"].items():
            if "cudnn" in ready:
                log(f"  {name}: {label} sink, cuDNN: {ready['cudnn'].get('verdict') or ready['cudnn'].get('error')}")
        pairs = [(label, w, s) for label, w in workers.items() for s in w.ready["sides"]]
        times: dict[str, list[float]] = {}
        for r in range(args.rounds):
            for label, w, side in pairs if r % 2 == 0 else reversed(pairs):
                rep = w.ask(side=side, steps=wl["steps"])
                key = f"{label} {side}" if label.startswith("sporax") else label  # 'torch fp16', 'jax twin'
                if "error" in rep:
                    res["notes"].append(f"{key}: {rep['error']}")
                    continue
                times.setdefault(key, []).append(rep["seconds"])
        res["median"] = {k: statistics.median(v) for k, v in times.items()}
        for label, ready in res["ready"].items():
            res["notes"] += [f"{label}: {n}" for n in ready.get("notes", [])]
    finally:
        for w in pending.values():  # the PyTorch processes stay for the next workload
            w.close()
    log(f"  {name}: " + ", ".join(f"{k} {v * 1e3:.3f} ms" for k, v in res.get("median", {}).items()))
    return res


def _ms(v: float | None) -> str:
    return "-" if v is None else f"{v * 1e3:.3f}" if v < 0.01 else f"{v * 1e3:.2f}"


def _ratio(a: float | None, b: float | None) -> str:
    return f" ({a / b:.2f}x)" if a and b else ""


def facts_of(results: list[dict], args) -> dict[str, str]:
    facts: dict[str, str] = {}
    for r in results:
        for label, ready in r.get("ready", {}).items():
            if label.startswith("sporax") and "device_kind" in ready:
                facts.setdefault("JAX device", f"{ready['device_kind']} (backend {ready['backend']})")
                facts.setdefault("jax / jaxlib", " / ".join(ready["versions"].values()))
                facts.setdefault("JAX runtime", ready.get("platform_version", "?"))
            if label.startswith("torch"):
                if "device_name" in ready:
                    facts.setdefault("PyTorch device", ready["device_name"])
                    facts.setdefault("CUDA / cuDNN (PyTorch's)", f"{ready['cuda']} / {ready['cudnn']}")
                facts.setdefault("torch", ready.get("torch", "?"))
    facts.setdefault("torch", "absent: the PyTorch processes did not start (the log says why)")
    facts["sporax rev"] = args.rev or "?"
    facts["mixed precision"] = (
        f"sporax: `amp.auto_mixed_precision(net_with_loss, '{args.amp_level}', dtype)` + "
        "`amp.build_train_network(..., loss_scale_manager=DynamicLossScaleManager() for float16, None for bfloat16)`;"
        " PyTorch: `torch.autocast(dtype)`, `GradScaler` for float16"
    )
    facts["float32 matmuls"] = (
        "full float32 (CPU)"
        if args.platform == "cpu"
        else "TF32 on both sides (XLA's default; torch.set_float32_matmul_precision('high'), "
        "torch.backends.cudnn.benchmark on)"
        if args.fp32 == "tf32"
        else "full float32 on both sides (JAX 'highest', torch 'highest', cuDNN TF32 off)"
    )
    facts["rounds"] = f"{args.rounds} per workload, one round per side in turn, order alternating; medians"
    return facts


def results_md(results: list[dict], args, wall: float, left: list[str] | None = None, why: str = "") -> str:
    """The markdown section of the results so far (``left``: the workloads not run, ``why`` says why)."""
    facts = facts_of(results, args)
    device = facts.get("PyTorch device") or facts.get("JAX device", "?")
    cpu = args.platform == "cpu"
    lines = [f"## GPU: {device}" if not cpu else "## GPU part, smoke run on the CPU (no GPU, no cuDNN)", ""]
    if left:
        lines += [f"**Partial: {', '.join(left)} not run ({why or 'the run was cut short'}).**", ""]
    shown = [a for a in args.argv if not a.startswith("--out")]
    lines += [
        f"Generated by `python bench/run_gpu.py{''.join(' ' + a for a in shown)}` in {wall / 60:.1f} min on "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}.",
        "",
        *[f"- {k}: {v}" for k, v in facts.items()],
        "",
        "ms per train step (median); ratios to PyTorch's step in the same precision (below 1: sporax is faster). "
        "GRAPH: the compiled step; sink: `scan_steps` over the sink's steps in one program, per step; no index "
        "checks: the GRAPH step compiled with `SPORAX_INDEX_CHECKS=0` (no error record carried out of the "
        "program); jax: the hand-written JAX + optax twin.",
        "",
    ]
    for prec in args.precisions:
        lines += [
            f"**{prec}**",
            "",
            "| workload | shapes; steps/round, sink | sporax GRAPH | sporax sink | "
            + ("GRAPH, no index checks | jax twin | " if prec == "fp32" else "")
            + "torch eager | first loss sporax / torch |",
            "|---|---|---|---|" + ("---|---|" if prec == "fp32" else "") + "---|---|",
        ]
        for r in results:
            med, rd = r.get("median", {}), r.get("ready", {})
            t = med.get(f"torch {prec}")
            cells = [_ms(med.get(f"sporax {prec} graph")) + _ratio(med.get(f"sporax {prec} graph"), t)]
            cells.append(_ms(med.get(f"sporax {prec} sink")) + _ratio(med.get(f"sporax {prec} sink"), t))
            if prec == "fp32":
                for key in ("sporax fp32 no checks graph", "jax twin"):
                    cells.append(_ms(med.get(key)) + _ratio(med.get(key), t))
            cells.append(_ms(t))
            losses = [rd.get(f"{s} {prec}", {}).get("loss") for s in ("sporax", "torch")]
            cells.append(" / ".join("-" if v is None else f"{v:.4g}" for v in losses))
            shapes = ", ".join(f"{k}={v}" for k, v in r["cfg"].items())
            lines.append(f"| {r['name']} | {shapes}; {r['steps']}, sink {r['sink']} | " + " | ".join(cells) + " |")
        lines.append("")
    lines += [
        "Compile and memory: sporax's first GRAPH step and first sink call (seconds, compile included), PyTorch's "
        "build and two warm-up steps; peak device memory (MiB: JAX's `peak_bytes_in_use`, PyTorch's "
        "`max_memory_allocated`), each precision in its own process; amp loss: the first-step loss of the "
        "mixed-precision step relative to float32's (same initial weights).",
        "",
        "| workload | precision | sporax first step / first sink s | torch warm-up s | peak MiB sporax / torch "
        "| amp loss vs fp32 |",
        "|---|---|---|---|---|---|",
    ]
    for r in results:
        rd = r.get("ready", {})
        base = rd.get("sporax fp32", {}).get("loss")
        for prec in args.precisions:
            s, t = rd.get(f"sporax {prec}", {}), rd.get(f"torch {prec}", {})
            first = " / ".join(f"{s[k]:.1f}" if k in s else "-" for k in ("first_step_s", "sink_first_s"))
            warm = f"{t['warmup_s']:.1f}" if "warmup_s" in t else "-"
            peak = " / ".join(f"{d['peak_mib']:.0f}" if "peak_mib" in d else "-" for d in (s, t))
            rel = f"{abs(s['loss'] - base) / abs(base):.1e}" if prec != "fp32" and base and "loss" in s else "-"
            lines.append(f"| {r['name']} | {prec} | {first} | {warm} | {peak} | {rel} |")
    lines += ["", "### Convolutions inside sink mode's scan", ""]
    lines += [
        "The sink program (`scan_steps`, one `while` loop over the steps): the optimized HLO of the executable "
        "it ran, its convolutions counted per region by `run_gpu.conv_report`: cuDNN custom calls "
        "(`__cudnn$conv...`) and convolutions in cuDNN fusions, against plain `convolution` instructions.",
        "",
        "| workload | precision | loop body: cuDNN calls / in cuDNN fusions / plain | outside the loop: same "
        "| custom-call targets in the loop body | verdict |",
        "|---|---|---|---|---|---|",
    ]
    if not any(r["name"] in CUDNN_CHECK for r in results):
        lines.append(f"| {' and '.join(CUDNN_CHECK)} not in this run | | | | | |")
    for r in results:
        for prec in args.precisions:
            rep = r.get("ready", {}).get(f"sporax {prec}", {}).get("cudnn")
            if not rep:
                continue
            if "error" in rep:
                lines.append(f"| {r['name']} | {prec} | - | - | - | {rep['error']} |")
                continue
            counts = [
                " / ".join(str(rep[g][k]) for k in ("cudnn_conv_calls", "cudnn_fusion_convs", "plain_convs"))
                for g in ("while_body", "outside")
            ]
            tg = ", ".join(f"`{k}` {v}" for k, v in sorted(rep["while_body"]["targets"].items())) or "-"
            lines.append(f"| {r['name']} | {prec} | {counts[0]} | {counts[1]} | {tg} | {rep['verdict']} |")
    notes = [f"- {r['name']}: {n}" for r in results for n in r["notes"]]
    if notes:
        lines += ["", "Notes:", "", *notes]
    return "\n".join(lines) + "\n"


def gpu_section(path: str = os.path.join(HERE, "RESULTS_gpu.md")) -> list[str]:
    """RESULTS.md's GPU section (run_all.py's writer calls this): the last GPU run's RESULTS_gpu.md, or what
    to run where none was made."""
    if os.path.exists(path):
        with open(path) as f:
            return [f.read().rstrip("\n"), ""]
    return [
        "## GPU",
        "",
        "Not run yet: no session that wrote these results was lent an NVIDIA GPU. A session that is lent one "
        "(the `device` tool) runs the whole GPU part (sporax on JAX's CUDA plugin against PyTorch CUDA, float32, "
        "bf16 and fp16 mixed precision, and the check that sink mode's convolutions reach cuDNN) as one call, "
        "about 4-6 minutes on an H100 (no `carry`: sporax travels in the working tree), then saves the returned "
        "file as bench/RESULTS_gpu.md:",
        "",
        f"    {RUN_COMMAND}",
        "",
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--platform", default="", help="force JAX's platform (cpu: the smoke run); default: JAX's")
    ap.add_argument("--quick", action="store_true", help="fewer steps and rounds")
    ap.add_argument("--only", default="", help="comma-separated workloads (default all)")
    ap.add_argument("--precisions", default=",".join(PRECISIONS))
    ap.add_argument("--amp-level", default="O2", choices=("O1", "O2", "O3", "auto"))
    ap.add_argument("--fp32", default="tf32", choices=("tf32", "ieee"), help="float32 matmuls on both sides")
    ap.add_argument("--rounds", type=int, default=None)
    ap.add_argument("--budget-s", type=float, default=330, help="start no workload after this many seconds")
    ap.add_argument("--no-twin", action="store_true", help="skip the JAX twins")
    ap.add_argument("--extra", action="store_true", help=f"also {', '.join(EXTRA)} (larger batches)")
    ap.add_argument("--out", default=os.path.join(HERE, "RESULTS_gpu.md"))
    ap.add_argument("--rev", default=os.environ.get("SPORAX_REV", ""), help="the sporax revision to state")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--wl", help=argparse.SUPPRESS)
    ap.add_argument("--prec", help=argparse.SUPPRESS)
    ap.add_argument("--device", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker == "sporax":
        wl = json.loads(args.wl)
        return sporax_worker(wl.pop("name"), wl, args.prec, args.amp_level)
    if args.worker == "torch":
        return torch_worker(args.device, args.prec, args.fp32)
    args.argv = [a for a in sys.argv[1:] if a != args.out]
    args.precisions = args.precisions.split(",")
    args.rounds = args.rounds or (2 if args.quick else 5)
    if not args.rev:
        rev = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
        args.rev = rev.stdout.strip()
    start = time.perf_counter()

    def log(msg: str) -> None:
        print(f"[{time.perf_counter() - start:6.0f}s] {msg}", flush=True)

    table = workloads(args.extra or any(n in EXTRA for n in args.only.split(",")))
    names = args.only.split(",") if args.only else list(table)
    results: list[dict] = []
    torch_workers = start_torch(args)
    log(f"PyTorch: {json.dumps([w.ready for w in torch_workers.values()])}")
    why = ""
    for i, name in enumerate(names):
        if time.perf_counter() - start > args.budget_s:
            why = f"the run's budget of {args.budget_s:.0f} s (--budget-s) was spent"
            log(f"{why}: {', '.join(names[i:])} not run")
            break
        wl = dict(table[name])
        if args.quick:
            wl.update(steps=max(2, wl["steps"] // 10), sink=max(2, wl["sink"] // 5))
        log(f"{name} {json.dumps(wl['cfg'])}")
        try:
            results.append(bench_workload(name, wl, args, log, torch_workers))
        except Exception as exc:  # noqa: BLE001  (reported; the next workload goes on)
            log(f"  {name} failed: {exc}")
            results.append(
                {"name": name, "cfg": wl["cfg"], "steps": wl["steps"], "sink": wl["sink"], "notes": [str(exc)]}
            )
        with open(args.out, "w") as f:  # after each workload: a run cut short keeps what it measured
            f.write(results_md(results, args, time.perf_counter() - start, names[len(results) :]))
    with open(args.out, "w") as f:
        f.write(results_md(results, args, time.perf_counter() - start, names[len(results) :], why))
    for w in torch_workers.values():
        w.close()
    log(f"wrote {args.out}")


if __name__ == "__main__":
    main()
