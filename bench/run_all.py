"""The whole bench suite in one command; regenerates bench/RESULTS.md.

    python bench/run_all.py [--quick] [--only mlp_b1,lenet_b32] [--no-epoch] [--ms-epoch] [--cores 1,0]
                            [--out bench/RESULTS.md] [--json results.json] [--lock FILE]

Every workload runs in pinned child processes (``taskset -c``, one OpenMP thread, XLA's CPU client on one
thread): a sporax GRAPH worker (the GRAPH step, sink mode, and the hand-written JAX+optax twin: the MLP's and
LeNet5's in bench_train_step.py, the example models' in jax_twins.py, each checked against sporax's losses from
the same weights first), a sporax PyNative worker, a PyTorch worker in /work/venvs/torch (eager and
``torch.compile``), and MindSpore 2.10's GRAPH and PyNative workers in its venv (bench_mindspore.py). The
driver asks them for timing rounds in turn (one round per side, alternating), and reports per side the median
seconds per step and its ratio to sporax's GRAPH step, each side's compile time (first step minus steady
step) and what stands in the way of each goal. Peers that are absent are skipped with a message. Parts run in
one lane per core (``--cores``, default both cores of a 2-core machine): a workload's processes all sit on its
lane's core. ``--quick`` runs fewer rounds and steps, a smaller ResNet-18, and no torch.compile or MindSpore
for the large models (Inductor's compile of a ResNet-18 step takes 26-42 s per size on one core at load average
2-5). ``--lock FILE`` holds an exclusive flock on FILE only while a workload's sides are timed, not while its
workers build and compile.
"""

from __future__ import annotations

import argparse
import csv
import glob
import json
import os
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from _common import (  # noqa: E402
    CORE,
    MS_PYTHON,
    ROOT,
    TORCH_PYTHON,
    XLA_ONE_THREAD,
    Worker,
    machine_facts,
    maxrss_mb,
    serve,
    timed,
)

# name: (builder kind, builder case / model, config, steps per round, sink size, torch model)
WORKLOADS: dict[str, dict] = {
    "mlp_b1": {
        "kind": "small",
        "case": "mlp_b1",
        "torch": "mlp",
        "cfg": {"batch": 1},
        "steps": 1000,
        "sink": 100,
        "ms_steps": 100,
    },
    "mlp_b256": {
        "kind": "small",
        "case": "mlp_b256",
        "torch": "mlp",
        "cfg": {"batch": 256},
        "steps": 100,
        "sink": 100,
        "ms_steps": 20,
    },
    "lenet_b32": {
        "kind": "small",
        "case": "lenet_b32",
        "torch": "lenet",
        "cfg": {"batch": 32},
        "steps": 50,
        "sink": 100,
        "ms_steps": 4,
    },
    "lstm": {
        "kind": "model",
        "case": "lstm",
        "torch": "lstm",
        "cfg": {"batch": 32, "seq": 32, "vocab": 5000, "embed": 100, "hidden": 128},
        "steps": 10,
        "sink": 20,
        "ms_steps": 2,
    },
    "transformer": {
        "kind": "model",
        "case": "transformer",
        "torch": "transformer",
        "cfg": {"batch": 16, "seq": 128, "vocab": 61, "d_model": 256, "nhead": 4, "layers": 4},
        "steps": 3,
        "sink": 5,
        "ms_steps": 1,
    },
    "resnet18": {
        "kind": "model",
        "case": "resnet18",
        "torch": "resnet18",
        "cfg": {"batch": 64, "width": 64},
        "steps": 1,
        "sink": 2,
        "big": True,
        "ms": False,
        "ms_skip": "not run at this size (one MindSpore CPU step takes minutes on one core); see resnet18_small",
    },
    # ResNet-18 at 1/4 of the batch and 1/4 of the width (about 1/64 of the work): every peer runs it
    "resnet18_small": {
        "kind": "model",
        "case": "resnet18",
        "torch": "resnet18",
        "cfg": {"batch": 16, "width": 16},
        "steps": 2,
        "sink": 4,
        "ms_steps": 1,
        "big": True,
    },
}
QUICK = {
    "mlp_b1": {"steps": 500},
    "mlp_b256": {"steps": 50},
    "lenet_b32": {"steps": 20, "sink": 50},
    "lstm": {"steps": 5, "sink": 10, "ms": False, "ms_skip": "--quick: not run"},
    "transformer": {"steps": 2, "sink": 3, "big": True, "ms": False, "ms_skip": "--quick: not run"},
    "resnet18": {"cfg": {"batch": 64, "width": 32}, "sink": 2},
    "resnet18_small": {"ms": False, "ms_skip": "--quick: not run"},
}


# ------------------------------------------------------------------------------------------ sporax worker
def _sync(out):
    import numpy as np

    return np.asarray(out.asnumpy() if hasattr(out, "asnumpy") else out)


def _top_ops(run_dir: str, limit: int = 6) -> list[dict]:
    paths = sorted(glob.glob(os.path.join(run_dir, "**", "op_statistic.csv"), recursive=True))
    if not paths:
        return []
    with open(paths[-1]) as f:
        rows = list(csv.DictReader(f))
    return [
        {
            "op": r["OP Type"],
            "count": int(r["Count"]),
            "total_us": float(r["Total Time(us)"]),
            "ratio": float(r["Ratio(%)"]),
        }
        for r in rows[:limit]
    ] + [{"op": "(all ops)", "total_us": sum(float(r["Total Time(us)"]) for r in rows)}]


def sporax_worker(name: str, wl: dict, mode: str) -> None:
    """Serve timing rounds of one workload in one execution mode. ``graph``: the GRAPH step, the sink and
    the JAX twin; ``pynative``: the PyNative step (its own process, so each side's memory and caches are its own)."""
    import numpy as np

    import sporax as ms
    from sporax import Tensor
    from sporax._engine import scan_steps
    from sporax._engine._cost import program_flops
    from sporax.common._compile import compiled_programs

    start = time.perf_counter()
    if wl["kind"] == "small":
        import bench_train_step

        sides = bench_train_step.build_case(wl["case"], twin=mode == "graph")
    else:
        import bench_models

        sides = bench_models.sporax_sides(wl["case"], wl["cfg"])
        if mode == "graph":  # the JAX twin from the same initial weights; the first steps compared
            import jax_twins

            sides = jax_twins.twin_sides(wl["case"], wl["cfg"], sides)
            if "first_step_s" not in sides:
                t = time.perf_counter()
                _sync(sides["graph"]())
                sides["first_step_s"] = time.perf_counter() - t
    ready: dict = {"rss_start_mb": maxrss_mb()}
    ready.update({k: sides[k] for k in ("first_step_s", "jax_first_step_s", "check") if k in sides})
    if mode == "nochecks":  # SPORAX_INDEX_CHECKS=0 in this process: the GRAPH step without index checks
        _sync(sides["graph"]())
        runners = {"graph, no index checks": sides["graph"]}
    elif mode == "pynative":
        ms.set_context(mode=ms.PYNATIVE_MODE)
        t = time.perf_counter()
        _sync(sides["pynative"]())
        ready["pynative_first_s"] = time.perf_counter() - t
        _sync(sides["pynative"]())
        runners = {"pynative": sides["pynative"]}
    else:
        ready["compile_s"] = time.perf_counter() - start
        flops = []
        for s, _ in compiled_programs():
            try:  # a program compiled in another train/eval mode may not re-lower (sporax reports _Retrace)
                f = program_flops(s)
            except Exception as exc:  # noqa: BLE001
                ready.setdefault("flops_skipped", []).append(f"{type(exc).__name__}: {exc}"[:120])
                continue
            if f is not None:
                flops.append(f)
        ready["flops"] = max(flops, default=None)
        ready["rss_graph_mb"] = maxrss_mb()
        n = wl["sink"]
        stacked = tuple(Tensor(np.stack([b.asnumpy()] * n)) for b in sides["batch"])
        step = sides["step"]
        sink = ms.jit(lambda *b: scan_steps(lambda r: step(*r), b))
        t = time.perf_counter()
        _sync(sink(*stacked))
        ready["sink_compile_s"] = time.perf_counter() - t
        runners = {"graph": sides["graph"], "sink": lambda: sink(*stacked)}
        if "jax" in sides:
            runners["jax"] = sides["jax"]
        for f in runners.values():
            _sync(f())
    per_call = {"sink": wl["sink"]}
    ready["sides"] = list(runners)

    def handle(req: dict) -> dict:
        side = req.get("side")
        if side in runners:
            k = per_call.get(side, 1)
            steps = 1 if k > 1 else req["steps"]
            return {"seconds": timed(runners[side], steps, _sync) / k}
        if req.get("cmd") == "profile":
            from sporax.profiler import Profiler

            out = tempfile.mkdtemp(prefix="bench_prof_")
            prof = Profiler(output_path=out)
            t0 = time.perf_counter()
            timed(runners["graph"], req["steps"], _sync)
            wall = time.perf_counter() - t0
            prof.stop()
            prof.analyse()
            return {"ops": _top_ops(out), "wall_us": wall * 1e6, "steps": req["steps"]}
        if req.get("cmd") == "rss":
            return {"maxrss_mb": maxrss_mb()}
        return {"error": f"unknown request {req}"}

    serve(handle, ready=ready)


def bench_lock(path: str | None, log):
    """The open file holding an exclusive ``flock(2)`` on ``path`` (the lock `flock PATH cmd` takes; closing
    the file releases it), or None without a path: ``--lock`` holds it only while a workload's sides are
    timed, not while they build and compile."""
    if not path:
        return None
    import fcntl

    t = time.perf_counter()
    f = open(path, "a")  # noqa: SIM115  (held across the rounds, closed by the caller)
    fcntl.flock(f, fcntl.LOCK_EX)
    log(f"  took {path} after {time.perf_counter() - t:.1f}s, load average {os.getloadavg()[0]:.2f}")
    return f


def gemm_worker() -> None:
    from _common import gemm_peak_gflops

    serve(lambda req: {"gflops": gemm_peak_gflops(req.get("n", 1024))})


# ------------------------------------------------------------------------------------------------ driver
def bench_workload(
    name: str, wl: dict, rounds: int, torch_compile: bool, log, core: str = CORE, lock: str | None = None
) -> dict:
    res: dict = {"name": name, "cfg": wl["cfg"], "steps": wl["steps"], "sink": wl["sink"], "times": {}, "notes": []}
    res["ms_steps"] = wl.get("ms_steps")
    t0 = time.perf_counter()
    cmd = [sys.executable, os.path.abspath(__file__), "--worker", name, "--wl", json.dumps(wl), "--mode"]
    sp = Worker([*cmd, "graph"], wait_ready=True, core=core)
    res["ready"] = sp.ready
    log(f"  {name}: sporax GRAPH ready in {time.perf_counter() - t0:.1f}s {json.dumps(sp.ready)}")
    t0 = time.perf_counter()
    pn = Worker([*cmd, "pynative"], wait_ready=True, core=core)
    res["ready_pynative"] = pn.ready
    log(f"  {name}: sporax PyNative ready in {time.perf_counter() - t0:.1f}s {json.dumps(pn.ready)}")
    # small workloads: also the GRAPH step compiled without index checks (their error flag is read after
    # every step, which waits for the step: see RESULTS.md)
    nc = (
        Worker([*cmd, "nochecks"], wait_ready=True, env={"SPORAX_INDEX_CHECKS": "0"}, core=core)
        if wl["kind"] == "small"
        else None
    )
    ms_workers = start_mindspore(name, wl, res, log, core)
    tw = None
    torch_sides = []
    if os.path.exists(TORCH_PYTHON):
        tw = Worker([TORCH_PYTHON, os.path.join(HERE, "bench_models.py"), "--torch-worker"], core=core)
        torch_sides = [("torch eager", dict(wl["cfg"]))]
        if torch_compile:
            torch_sides.append(("torch.compile", dict(wl["cfg"], compile=True)))
        else:
            res["notes"].append("torch.compile skipped for this size (--quick)")
    else:
        res["notes"].append(f"PyTorch skipped: {TORCH_PYTHON} absent")
    if "check" in sp.ready:
        res["notes"].append(f"JAX twin, same numbers before timing: {sp.ready['check']}")
    times = res["times"]
    held = None
    try:
        for label, cfg in list(torch_sides):  # built, warmed up and compiled before the rounds (and --lock)
            t1 = time.perf_counter()
            rep = tw.ask(model=wl["torch"], steps=1, cfg=cfg)
            if "error" in rep:
                res["notes"].append(f"{label}: {rep['error']}")
                torch_sides.remove((label, cfg))
                continue
            res.setdefault("torch_warmup_s", {})[label] = rep["warmup_s"]
            log(f"  {name}: {label} ready in {time.perf_counter() - t1:.1f}s (build + 2 steps {rep['warmup_s']:.1f}s)")
        held = bench_lock(lock, log)
        for r in range(rounds):
            pairs = [(sp, s) for s in sp.ready["sides"]] + [(pn, "pynative")]
            if nc is not None:
                pairs += [(nc, s) for s in nc.ready["sides"]]
            pairs += [(w, s) for w in ms_workers for s in w.ready["sides"]]
            pairs += [(tw, side) for side in torch_sides]
            if r % 2:  # the side timed first in a round reads 2-4% slow (cold caches): alternate the order
                pairs.reverse()
            for worker, side in pairs:
                if worker is tw:  # a PyTorch side: (label, cfg)
                    label, cfg = side
                    rep = tw.ask(model=wl["torch"], steps=wl["steps"], cfg=cfg)
                    if "error" in rep:
                        if r == 0:
                            res["notes"].append(f"{label}: {rep['error']}")
                        continue
                    times.setdefault(label, []).append(rep["seconds"])
                    res["torch_rss_mb"] = rep["maxrss_mb"]
                    continue
                steps = wl.get("ms_steps", wl["steps"]) if side.startswith("mindspore") else wl["steps"]
                rep = worker.ask(side=side, steps=steps)
                if "error" in rep:
                    res["notes"].append(f"{side}: {rep['error']}")
                    continue
                times.setdefault(side, []).append(rep["seconds"])
                if side.startswith("mindspore"):
                    res["ms_rss_mb"] = max(res.get("ms_rss_mb", 0), rep["maxrss_mb"])
        prof_steps = max(2, min(20, wl["steps"]))
        res["profile"] = sp.ask(cmd="profile", steps=prof_steps)
        res["rss_mb"] = sp.ask(cmd="rss")["maxrss_mb"]
    finally:
        sp.close()
        pn.close()
        if nc is not None:
            nc.close()
        for w in ms_workers:
            w.close()
        if tw is not None:
            tw.close()
        if held is not None:
            held.close()
    res["median"] = {k: statistics.median(v) for k, v in times.items() if v}
    log(f"  {name}: " + ", ".join(f"{k} {v * 1e3:.3f} ms" for k, v in res["median"].items()))
    return res


def start_mindspore(name: str, wl: dict, res: dict, log, core: str = CORE) -> list:
    """Real MindSpore's GRAPH and PyNative workers for the workload (bench_mindspore.py in its venv, cwd
    /tmp), or none with a note saying why."""
    if not wl.get("ms", True):
        res["notes"].append(f"MindSpore: {wl.get('ms_skip', 'not run for this workload')}")
        return []
    if not os.path.exists(MS_PYTHON):
        res["notes"].append(f"MindSpore skipped: {MS_PYTHON} absent")
        return []
    workers = []
    for mode in ("graph", "pynative"):
        t0 = time.perf_counter()
        cmd = [MS_PYTHON, os.path.join(HERE, "bench_mindspore.py"), "--wl", json.dumps(wl), "--mode", mode]
        try:
            w = Worker(cmd, wait_ready=True, cwd=tempfile.gettempdir(), core=core)
        except Exception as exc:  # noqa: BLE001  (reported, the other sides go on)
            res["notes"].append(f"MindSpore {mode} failed to start: {str(exc)[:200]}")
            continue
        res[f"ready_ms_{mode}"] = w.ready
        log(f"  {name}: MindSpore {mode} ready in {time.perf_counter() - t0:.1f}s {json.dumps(w.ready)}")
        workers.append(w)
    return workers


# MindSpore's MNIST epoch takes 130 s on an idle core and 475 s on the loaded shared one: --ms-epoch runs it
MS_EPOCH_SKIP = (
    "MindSpore's epoch not rerun (run_all.py --ms-epoch runs it): one epoch took 131.8 s steady on 2026-11-26 "
    "10:50 (load average about 5) and 474.8 s at 12:55 (load average about 12), same script and pinning"
)


# The ImageNet-style pipeline's findings (bench_dataset.py --pipeline imagenet; printed under its tables).
PIPELINE_FINDINGS = """\
What was measured and changed (2026-11-26, 17:15-19:00 UTC; per-process user/sys time, page faults and
py-spy, one and two cores):

- **The first epochs paid for fresh memory.** With 2 workers sporax's first epoch spent 0.3-0.4 s of system
  time per 256 images (MindSpore 0.05 s) and the second epoch often 0.15-0.2 s: the pipeline's working set
  was about 200 MB larger than MindSpore's (blocks of 64 rows: 38 MB of float32 images per block, a
  window of 6 blocks), and on this VM memory the process has not touched before is slow and uneven to get
  (256 MB touched for the first time: 0.9-1.1 s, the same again: 0.04 s; numpy's huge pages for arrays over
  4 MB add compaction stalls). The sources that read one image file per
  row (ImageFolderDataset, VOC, Coco, CelebA, Manifest, the folder corpora) now cut blocks of 32 rows: peak
  RSS 600-700 MB -> 420-470 MB (MindSpore 510-525 MB), first-epoch system time 0.05-0.12 s, and a batch of
  32 is one block (no copy). Not the cause: worker start-up and imports (the map runs on threads of the
  iterating process), OpenCV's and OpenBLAS's thread pools (OpenCV runs one thread; OpenBLAS's threads use
  no CPU here, per-thread times from /proc; OPENBLAS_NUM_THREADS=1 changed nothing beyond the noise).
- **Less Python per image under the GIL.** RandAugment's warps rebuilt OpenCV 4's 224x224 fixed-point maps
  for every image; the maps depend only on the matrix and the output size and RandAugment repeats a few
  matrices, so they are cached (vision/_warp.py): CPU per image ~7% lower, and with the smaller blocks the
  map threads' time holding the GIL fell from 0.26 to 0.11 ms per image (py-spy --gil), the share that 2
  threads on 2 cores cannot run side by side.
- **Left as it is:** decoding is 55% of sporax's CPU per image. MindSpore's RandomCropDecodeResize decodes
  only the crop's rows with libjpeg-turbo; no maintained Python package offers an exact region decode without
  the system's libturbojpeg (PyTurboJPEG needs it; simplejpeg and imagecodecs decode whole images), so sporax
  still decodes whole images with OpenCV and is cheaper per image anyway. The first Tensor of each
  (shape, dtype) costs 10-25 ms (`jnp.asarray` compiles a conversion; `jax.device_put` does not), two of them
  in every first epoch: with the two conversions made before the epoch its CPU per image fell from 1.35-1.87
  to 1.34-1.36 ms (MindSpore 1.45-1.57) (sporax/common/tensor.py, outside the dataset package).
- **The measurement**: 5 epochs per run (4 measured; an epoch of 256 images is a third of a second) and 3
  alternating rounds per side instead of 3 and 2; each side's best round is still its figure (interference
  only slows a round down), and the rounds' medians and load averages are printed under the table. On a
  shared machine the wall-clock figures depend on who else runs: the kernel shares the CPU between sessions
  (sched_autogroup is on), so a bench process gets about 2/(n+1) cores while n other sessions are busy,
  whatever its threads (measured at load 4-5: one side's map threads at 34-50% of a core each, a minute
  later the other's at 86-90%). The per-CPU-second columns (all threads of the process) do not move with
  that: the comparison to trust when the load average is not near 0.
"""


def bench_epoch(quick: bool, log, ms_epoch: bool = False) -> dict:
    """examples/lenet_mnist.py's epoch (bench_lenet_epoch.py) and the seed's input pipeline alone
    (bench_dataset.py), sporax and MindSpore, pinned."""
    import bench_dataset
    import bench_lenet_epoch
    from _common import CORE

    out: dict = {"epoch": {}, "pipeline": {}, "notes": []}
    try:  # the ImageNet-style augmentation pipeline, on JPEGs bench_dataset.py writes itself; on this lane's
        # core (2 workers share it: the other core is the other lane's), about a minute; 5 epochs (4 measured,
        # an epoch of 256 images is a third of a second) and 3 rounds per side: single epochs swing up to 2x
        out["imagenet"] = bench_dataset.imagenet(256, 3 if quick else 5, 1 if quick else 3, (1, 2), CORE, log)
    except Exception as exc:  # noqa: BLE001
        out["notes"].append(f"imagenet pipeline failed: {str(exc)[:200]}")
    mnist = os.path.join(os.path.dirname(ROOT), "shared", "data", "mnist")
    if not os.path.isdir(mnist):
        out["notes"].append(f"MNIST not found at {mnist}: epoch and pipeline skipped")
        return out
    with tempfile.TemporaryDirectory() as tmp:
        data = bench_lenet_epoch.raw_mnist(mnist, os.path.join(tmp, "mnist"))
        epochs = 2
        common = [bench_lenet_epoch.EXAMPLE, "--epochs", str(epochs), "--data-dir", data]
        sides = {"sporax": [sys.executable, "-m", "sporax", "run", *common, "--ckpt-dir", os.path.join(tmp, "c1")]}
        if os.path.exists(MS_PYTHON) and not quick and ms_epoch:
            # one epoch: MindSpore's CPU epoch takes minutes on one core, its compile a few seconds of it
            ms_common = [*common[:2], "1", *common[3:]]
            sides["mindspore"] = [MS_PYTHON, *ms_common, "--ckpt-dir", os.path.join(tmp, "c2")]
        elif not ms_epoch and not quick:
            out["notes"].append(MS_EPOCH_SKIP)
        elif quick:
            out["notes"].append("--quick: MindSpore's MNIST epoch skipped")
        else:
            out["notes"].append(f"MindSpore skipped: {MS_PYTHON} absent")
        for label, cmd in sides.items():
            try:
                r = bench_lenet_epoch.run(label, cmd, CORE, tmp)
                out["epoch"][label] = {"first": r["epochs"][0], "steady": bench_lenet_epoch.steady(r["epochs"])}
            except SystemExit as exc:
                out["notes"].append(f"{label} epoch failed: {exc}")
        pipe = os.path.join(data, "train")
        impls = {"sporax": sys.executable}
        if os.path.exists(MS_PYTHON):
            impls["mindspore"] = MS_PYTHON
        for impl, py in impls.items():
            try:
                r = bench_dataset.run(py, impl, pipe, 1 if quick else 2, 2, CORE)
                out["pipeline"][impl] = max(r["rates"])
            except Exception as exc:  # noqa: BLE001
                out["notes"].append(f"{impl} pipeline failed: {str(exc)[:200]}")
        log(f"  epoch {out['epoch']} pipeline {out['pipeline']}")
    return out


# ---------------------------------------------------------------------------------------------- report
# Why torch.compile's ResNet-18 step is faster (its generated code under TORCHINDUCTOR_CACHE_DIR, torch.profiler
# over the compiled and the eager step, sporax's profiler over its GRAPH step; 2026-11-26, one core).
TC_RESNET_WHY = (
    "Inductor leaves the convolutions to oneDNN (its generated code calls `extern_kernels.convolution` forward "
    "and `aten.convolution_backward` backward, 20 of each per step) but lays the activations out channels last "
    "(its layout optimisation; eager PyTorch runs them NCHW) and fuses each batch norm with its ReLU and the "
    "residual add into generated C++ loops, forward and backward (12 and 13 kernels). torch.profiler over the "
    "compiled step, one core (19:27 UTC, load average about 3): at batch 16, width 16 oneDNN's convolutions take "
    "19.6 ms a step (6.6 forward, 13.1 backward; eager's NCHW ones 26.0 ms) and the fused loops 4.4 ms (eager's "
    "batch norm, ReLU and add ops about 7 ms); at batch 64, width 64 the convolutions take 976 ms (eager 1,111 ms) "
    "and the fused loops 112 ms. sporax's GRAPH step at batch 16 (its profiler, the run of 19:21): XLA's "
    "convolutions 24.5 ms a step and GEMMs 4.2 ms (1x1 and per-tap convolutions, the dense layer), 28.7 ms against "
    "oneDNN's 19.6, "
    "then copies 2.9 ms, reductions 2.4 ms and adds 1.5 ms (batch norm's statistics and passes, unfused) and "
    "`while` loops 5.3 ms counting the operators inside them. So about 9 ms of that run's 13 ms gap is the "
    "convolutions themselves (XLA:CPU's 3x3 convolutions and their weight gradients reach 63-80% of the GEMM "
    "peak where oneDNN reaches 93-100%, see resnet18 above) and 3 ms the other passes. At batch 64 (1.09-1.15x) "
    "it is the other way round: sporax's convolutions and GEMMs take about 1,014 ms a step against oneDNN's 976 "
    "ms, and its other operators about 263 ms (copies 85, adds 53, reductions 30, slices 53) against Inductor's "
    "fused loops and copies, about 136 ms. "
    "The levers: oneDNN-class channels-last 3x3 convolution kernels for XLA:CPU (a custom call) and batch norm's "
    "statistics, normalisation and ReLU in one fused pass."
)


# What stands between the figures and the goals. The figures come from the run; the explanations are what
# the profiles and the experiments named found (2026-11-26; re-check them when the tables change).
STATIC_FINDINGS = """\
- **A mode switch no longer recompiles** (ea54fdd): the execution mode is a part of `StatefulJit`'s cache key
  instead of a bump of the compile epoch, so PYNATIVE -> GRAPH -> PYNATIVE -> GRAPH finds each mode's program
  again, as MindSpore keeps its graphs (LeNet5's first GRAPH step after a switch: 1,863 ms -> 4.3 ms, one
  core, load 4.3; tests/ut/engine/test_engine_programs.py counts the traces).
- **One forward per train step** (73f2043, c4d9fa6, 7ac6953): `TrainOneStepCell` computed the loss with one
  forward and the gradients with another, and XLA merged the two only when they were identical, which they
  were not for any network with dropout (each forward drew its own masks), layer norm (its `keepdims` form
  simplified differently under autodiff) or batch norm between channels-last convolutions (transposes).
  The Transformer and ResNet-18 steps ran their forward twice (ResNet-18 b64: 201 GFLOP per step before,
  139 after). The step now takes the loss and the gradients from one forward
  (`ops.composite._grad.forward_and_grads`), which is also MindSpore's behaviour: its loss is the loss of
  the dropout masks its gradients come from (checked on MindSpore 2.10, GRAPH and PyNative:
  tests/ut/nn/test_train_step_draws.py). The loss-scale and boost train cells use it too (03d2e58), and
  in GRAPH mode a user's own train cell of ModelZoo's form (`loss = net(x); grads = grad(net, w)(x, sens)`)
  replays the call's random draws in the gradient, as MindSpore's graph does, so XLA merges its two
  forwards (5738c00: a 3-layer MLP with dropout and layer norm, b256, one core: 7.7 -> 4.0 ms a step).
- **Variable-length batches**: `bucket_batch_by_length(..., pad_info={"ids": ([None], 0)},
  pad_to_bucket_boundary=True)` pads every unspecified dimension to the bucket boundary minus 1, as MindSpore
  2.10: 3 programs for the whole run below, none new in epoch 2.
"""


def _top(r: dict, n: int = 3) -> str:
    ops = (r.get("profile") or {}).get("ops") or []
    return ", ".join(f"{o['op']} {o['ratio']:.0f}%" for o in ops[:-1][:n]) or "no profile"


def _share(r: dict, op: str) -> float | None:
    ops = (r.get("profile") or {}).get("ops") or []
    return next((o["ratio"] for o in ops[:-1] if o["op"] == op), None)


def findings(results: list[dict], facts: dict, gemm: float) -> str:
    """RESULTS.md's 'What stands in the way': this run's figures with what the profiles and experiments
    found behind them."""
    by = {r["name"]: r for r in results}

    def m(name: str, side: str) -> float | None:
        return by.get(name, {}).get("median", {}).get(side)

    def ratio(name: str, a: str, b: str) -> str:
        x, y = m(name, a), m(name, b)
        return "n/a" if not (x and y) else (f"{x / y:.2f}x" if x / y < 10 else f"{x / y:.0f}x")

    def t(name: str, side: str) -> str:
        v = m(name, side)
        return "n/a" if v is None else (f"{v * 1e6:.0f} us" if v < 1e-3 else f"{_ms(v)} ms")

    out = []
    if "mlp_b1" in by:
        g, n = m("mlp_b1", "graph"), m("mlp_b1", "graph, no index checks")
        cost = f": the index checks cost {(g - n) * 1e6:.0f} us a step in this run" if g and n else ""
        out.append(
            f"- **MLP b1, GRAPH vs hand-written JAX (the state plumbing).** GRAPH {t('mlp_b1', 'graph')} per step "
            f"against the JAX twin's {t('mlp_b1', 'jax')} ({ratio('mlp_b1', 'graph', 'jax')}); compiled with "
            f"`SPORAX_INDEX_CHECKS=0` {t('mlp_b1', 'graph, no index checks')} "
            f"({ratio('mlp_b1', 'graph, no index checks', 'jax')}){cost}. Since ac31fe5 a step's index-check flag "
            "is read when it is ready or at the program's next call instead of right after each call, and since "
            "e7566a7 a check finds its first bad index in one reduction and each call donates the record it "
            "replaces. The twins donate their parameters and optimizer state (cbbb2f4: `donate_argnums`, as "
            "JAX code is written; before that the MLP twin was 12% slower at b1 and 2-3% at b256, and this "
            "table read about 1.00x). Against the donating twin what is left at b1 is about 2-3 us "
            "(bench_train_step.py's docstring has the breakdown): the Python call path around XLA's "
            "executable, 2.0 us with XLA stubbed out (2.5 us before this session's 233dd8d: a one-Tensor "
            "result is built by Tensor's constructor instead of unflattening a tree, the frame check and the "
            "argument types are read inline), and two more donated state buffers than the twin: SGD's "
            "`global_step` (MindSpore 2.10's SGD advances it every step) and the index-check record, each about "
            "0.3-0.6 us on XLA:CPU (a twin given one more donated int32 buffer: +0.63 us, two: +0.97 us; its "
            "`learning_rate` Parameter, a kept input, measured no cost). The optimized HLO otherwise matches the "
            "twin's: no extra copies of the weights. Packing the counter and the record into one buffer would "
            "leave the counter Parameter a view into the engine's buffer: not done. PyNative runs the step as "
            "two compiled programs (gradients, then the optimizer); XLA:CPU's fixed cost per kernel and per "
            "output buffer is most of its overhead (JAX's own gradient-then-update split of the same MLP "
            "measured 1.45-1.5x)."
        )
    la = facts.get("load average (1/5/15 min) at start", "?").split(" / ")[0]
    if "mlp_b1" in by or "lenet_b32" in by:
        fl = by.get("lenet_b32", {}).get("ready", {}).get("flops")
        g = m("lenet_b32", "graph")
        frac = f", {fl / g / 1e9 / gemm * 100:.0f}% of the GEMM peak measured in the same run" if fl and g else ""
        out.append(
            f"- **MLP b1 <= 50 us, LeNet5 b32 <= 1.5 ms** are absolute figures: MLP b1 took {t('mlp_b1', 'graph')}, "
            f"LeNet5 b32 {t('lenet_b32', 'graph')}{frac} (JAX twin in NHWC with XLA's convolutions: "
            f"{t('lenet_b32', 'jax')}). The core measured {gemm:.0f} GFLOP/s in this run (load average {la} at "
            "the start; 241 GFLOP/s in the run of 10:50): the machine's load moves both. This session the "
            "LeNet5 step went from 1.36-1.40 to 0.82-0.94 ms on one core (same-process A/B against the tree "
            "before: 0.68x, identical losses): its first layer (one input channel, K = 25) runs through "
            "space-to-depth (input pixel phases as channels: a 2.8x smaller patch matrix for 1.44x the "
            "multiply-adds, step 0.91x, bdee2a8), weight gradients as (patches @ g.T).T where K >= 4 O (0.87x), "
            "the patches as one stack whose repeated phase views XLA computes once (0.96x), and the phase-layout "
            "max-pools write NCHW, so the flatten before fc1 transposes nothing (0.97x, f9d1412). Per op: GEMMs "
            "57%, patch slices and stacks 18%, the pools' backward 11%, col2im 5%; what is left is memory "
            "traffic of 0.6-2.5 MB intermediates against a 1 MB L2 (the _lowering docstring lists what was "
            "tried without gain)."
        )
    for name in ("resnet18", "resnet18_small"):
        if name not in by:
            continue
        conv = _share(by[name], "convolution")
        out.append(
            f"- **{name}** ({', '.join(f'{k}={v}' for k, v in by[name]['cfg'].items())}): GRAPH "
            f"{t(name, 'graph')}, PyTorch eager {t(name, 'torch eager')} (GRAPH / eager "
            f"{ratio(name, 'graph', 'torch eager')}), the JAX twin with XLA's NHWC convolutions "
            f"{t(name, 'jax')} (GRAPH / twin {ratio(name, 'graph', 'jax')})."
            + (
                " Batch norm computes in the order its convolution left the data in (7ac6953, "
                "`ops/_lowering/layout.py`), layers wider than 8 channels stay channels last and RGB stems run as "
                "im2col + GEMM (e9c452c). This session: programs with channels-last convolutions on inputs of "
                "2 MiB or more ask XLA:CPU for YNNPACK's elementwise fusions too (batch norm's and ReLU's passes; a "
                "ResNet block b64 179 -> 159 ms), stride-1 convolutions whose windows lie largely on the padding "
                "(3x3 on 4x4 images) run as one GEMM per kernel tap (the last stage's layers 25.8/29.9/30.8 -> "
                "17.5/20.5/21.1 ms forward / input gradient / weight gradient, faster than PyTorch's), and 1x1 "
                "convolutions are one 2-D GEMM (strided 1x1 layers 7.8/4.0/2.7 -> 2.8/1.6/1.3 ms). What is left "
                "against PyTorch is the 3x3 convolutions on 16x16 and 8x8 images: XLA's weight gradient reaches "
                "63-64% of the GEMM peak there (about 32 ms a step) against oneDNN's 93-94% (21-22 ms), its "
                "forward about 80% against 95-100%, plus the strided 3x3 weight gradients (about 16 ms). Tried "
                "without gain: batch-split forward and input gradient on 8x8/16x16 layers (noise), other "
                "weight-gradient chunk sizes, per-tap GEMMs on 8x8/16x16 images (5-70% slower), dropping "
                "YNNPACK's reduce fusion (1.32x slower)."
                if name == "resnet18"
                else ""
            )
            + f" Top operators: {_top(by[name])}"
            + (f"; the convolutions are {conv:.0f}% of the operator time." if conv else ".")
        )
    tc_names = [n for n in ("resnet18_small", "resnet18") if n in by]
    if tc_names:
        here = "; ".join(
            f"{n} GRAPH {t(n, 'graph')}, torch.compile {t(n, 'torch.compile')} (GRAPH / torch.compile "
            f"{ratio(n, 'graph', 'torch.compile')}), compile {compile_times(by[n]).get('torch.compile', 0):.0f} s"
            for n in tc_names
            if m(n, "torch.compile")
        )
        if here:
            out.append(f"- **torch.compile on ResNet-18**: {here}. " + TC_RESNET_WHY)
    if "transformer" in by:
        out.append(
            f"- **Transformer**: GRAPH {t('transformer', 'graph')}, JAX twin {t('transformer', 'jax')} "
            f"(GRAPH / twin {ratio('transformer', 'graph', 'jax')}), PyTorch eager {t('transformer', 'torch eager')} "
            f"(GRAPH / eager {ratio('transformer', 'graph', 'torch eager')}), sink {ratio('transformer', 'sink', 'graph')} of "
            "GRAPH, dropout 0.1 on (`set_train()`). The step ran its forward twice until 73f2043/c4d9fa6 (see "
            "'One forward per train step' below; 100 GEMMs per step against the twin's 75, 3x its copies), and "
            "dropout masks now come from `ops/_lowering/random.py` (one Threefry hash per two elements, "
            "compared as 32-bit words: 22 ms of the step's masks against 70 ms with `jax.random.bernoulli`, "
            "which under x64 takes a float64 path); layer norm computes its statistics on the [rows, "
            "normalised size] view (`ops/_lowering/norm.py`). The twin uses `jax.random.bernoulli` and "
            "`value_and_grad`, so it runs one forward. Top operators: "
            f"{_top(by['transformer'])}."
        )
    if "lstm" in by:
        out.append(
            f"- **LSTM**: GRAPH {t('lstm', 'graph')}, JAX twin {t('lstm', 'jax')} (GRAPH / twin "
            f"{ratio('lstm', 'graph', 'jax')}; one `lax.scan` per direction, input projection hoisted), PyTorch "
            f"eager {t('lstm', 'torch eager')} (GRAPH / eager {ratio('lstm', 'graph', 'torch eager')}), torch.compile "
            f"{t('lstm', 'torch.compile')}, sink {ratio('lstm', 'sink', 'graph')} of GRAPH. The RNN lowering "
            "(`ops/_lowering/rnn.py`: input projection hoisted as one GEMM, reverse direction indexed, its own "
            "backward pass) has, since 19aa54c/45417de/0055106, each forward step write its gate activations over "
            "the projection it read and each backward step its gate gradients over those (no buffers to zero, "
            "the bias added in the loop), the backward gate gradients as one concatenate along the gate axis "
            "(the old stack times a derivative select ran unvectorised at 1.1 ns per element), and on CPU each "
            "weight gradient transposed once into its own buffer (XLA had folded the transpose into Adam's "
            "passes, which then read it strided: 290 -> under 60 us per [512, 256] pass): about 15% off the "
            "step. What is left: the elementwise work inside the loops, about 4.5 ms a step on top of 4.9 ms "
            "of recurrent GEMMs (a per-step dynamic slice indexed by the loop counter reloads its index per "
            "element in XLA:CPU's loop code), and the GEMMs outside the loops, about 10.7 ms near the core's "
            "peak. Tried without gain: scan unrolling (2, 4; full: 5.2x slower), residuals holding the gates' "
            "derivatives, stacking the directions with a select, a carried index, `w_hh` untransposed in the "
            "loop's dot, one transpose of the 4 MB gate-gradient matrix, other XLA:CPU dot libraries. PyTorch "
            "eager's own time moved 25.4-31.9 ms between today's runs. "
            f"Top operators: {_top(by['lstm'])} (the `while` row also counts the operators inside the loop)."
        )
    ms_rows = []
    for r in results:
        if "mindspore graph" not in r.get("median", {}):
            continue
        comp = compile_times(r)
        ms_rows.append(
            f"{r['name']} {ratio(r['name'], 'mindspore graph', 'graph')} / "
            f"{ratio(r['name'], 'mindspore pynative', 'graph')}, compile "
            f"{comp.get('MindSpore GRAPH', float('nan')):.1f} s vs {comp.get('sporax GRAPH', float('nan')):.1f} s"
        )
    if ms_rows:
        out.append(
            "- **MindSpore 2.10 (CPU wheel)**, GRAPH / PyNative step over sporax's GRAPH step, and its graph "
            "compile against sporax's first-step compile: " + "; ".join(ms_rows) + "."
        )
    return "\n".join(out) + "\n" + STATIC_FINDINGS


def _verdict(ok: bool | None) -> str:
    return "n/a" if ok is None else ("**met**" if ok else "**missed**")


def goal_lines(results: list[dict], extra: dict) -> list[str]:
    """Each goal of issue 17, met or not, with the measured figure."""
    med = {r["name"]: r.get("median", {}) for r in results}
    out = ["| goal | workload | measured | verdict |", "|---|---|---|---|"]

    def ratio(name, a, b):
        m = med.get(name, {})
        return m[a] / m[b] if a in m and b in m else None

    for name in med:
        r = ratio(name, "graph", "jax")
        if r is not None:
            out.append(f"| GRAPH <= 1.05x hand-written JAX | {name} | {r:.2f}x | {_verdict(r <= 1.05)} |")
        r = ratio(name, "graph, no index checks", "jax")
        if r is not None:
            out.append(f"| (same, SPORAX_INDEX_CHECKS=0) | {name} | {r:.2f}x | {_verdict(r <= 1.05)} |")
    for name in med:
        for peer in ("torch eager", "torch.compile"):
            r = ratio(name, "graph", peer)
            if r is not None:
                out.append(f"| faster than {peer} | {name} | {r:.2f}x | {_verdict(r < 1)} |")
    for name, limit in (("lenet_b32", 1.5e-3), ("mlp_b1", 50e-6)):
        g = med.get(name, {}).get("graph")
        if g is not None:
            out.append(f"| {name} GRAPH <= {limit * 1e3:g} ms | {name} | {g * 1e3:.3f} ms | {_verdict(g <= limit)} |")
    for name in med:
        r = ratio(name, "pynative", "graph")
        if r is not None:
            out.append(f"| PyNative <= 1.5x GRAPH | {name} | {r:.2f}x | {_verdict(r <= 1.5)} |")
    for name in med:
        r = ratio(name, "sink", "graph")
        if r is not None:
            limit = 0.6 if name == "mlp_b1" else 1.0
            out.append(f"| sink <= {limit}x step by step | {name} | {r:.2f}x | {_verdict(r <= limit)} |")
    out.append(
        "| no RSS growth over 2,000 steps / 50 Model.train calls | mlp_b1 | tests/st/test_memory_growth.py "
        "(a test, not a timing): passes, 0.0 MiB over 2,000 steps, 0.4 MiB over 50 calls | **met** |"
    )
    return out


def _ms(s: float) -> str:
    return f"{s * 1e3:.3f}" if s < 0.01 else f"{s * 1e3:.1f}"


SIDES = [
    "graph",
    "pynative",
    "sink",
    "jax",
    "torch eager",
    "torch.compile",
    "mindspore graph",
    "mindspore pynative",
    "graph, no index checks",
]


def compile_times(r: dict) -> dict[str, float]:
    """Seconds of each side's first step beyond its steady step: the compile (sporax GRAPH, its sink program,
    the JAX twin, MindSpore's GRAPH_MODE graph; each first call minus the side's median step)."""
    med, ready, out = r.get("median", {}), r.get("ready", {}), {}
    for label, first, side, n in (
        ("sporax GRAPH", ready.get("first_step_s"), "graph", 1),
        ("sporax sink", ready.get("sink_compile_s"), "sink", r.get("sink", 1)),
        ("jax twin", ready.get("jax_first_step_s"), "jax", 1),
        ("MindSpore GRAPH", r.get("ready_ms_graph", {}).get("first_step_s"), "mindspore graph", 1),
        # built, then two warm-up steps (bench_models.torch_worker): the compile is what exceeds two steps
        ("torch.compile", r.get("torch_warmup_s", {}).get("torch.compile"), "torch.compile", 2),
    ):
        if first is not None and side in med:
            out[label] = max(0.0, first - n * med[side])
    return out


def step_table(results: list[dict], gemm: float) -> list[str]:
    lines = [
        "| workload | shapes | " + " | ".join(SIDES) + " |",
        "|" + "---|" * (len(SIDES) + 2),
    ]
    for r in results:
        med = r.get("median", {})
        g = med.get("graph")
        cells = []
        for s in SIDES:
            if s in med:
                ratio = f" ({med[s] / g:.2f}x)" if g and s != "graph" else ""
                cells.append(f"{_ms(med[s])}{ratio}")
            else:
                cells.append("-")
        shapes = ", ".join(f"{k}={v}" for k, v in r["cfg"].items())
        rounds = f"{r['steps']} steps/round" + (f" (MindSpore {r['ms_steps']})" if r.get("ms_steps") else "")
        lines.append(f"| {r['name']} | {shapes}; {rounds}, sink {r['sink']} | " + " | ".join(cells) + " |")
    return lines


def work_table(results: list[dict], gemm: float) -> list[str]:
    labels = ["sporax GRAPH", "sporax sink", "jax twin", "MindSpore GRAPH", "torch.compile"]
    lines = [
        "| workload | GFLOP/step | % of GEMM peak (GRAPH) | compile s: " + " / ".join(labels) + " | peak RSS MiB: "
        "sporax / torch / MindSpore |",
        "|---|---|---|---|---|",
    ]
    for r in results:
        med = r.get("median", {})
        g = med.get("graph")
        fl = r.get("ready", {}).get("flops")
        frac = f"{fl / g / 1e9 / gemm * 100:.1f}%" if fl and g else "-"
        comp = compile_times(r)
        comp_cells = " / ".join(f"{comp[k]:.1f}" if k in comp else "-" for k in labels)
        rss = " / ".join(f"{r[k]:.0f}" if r.get(k) else "-" for k in ("rss_mb", "torch_rss_mb", "ms_rss_mb"))
        lines.append(
            f"| {r['name']} | {fl / 1e9:.4g} | {frac} | {comp_cells} | {rss} |"
            if fl
            else f"| {r['name']} | - | - | {comp_cells} | {rss} |"
        )
    return lines


def write_results(
    path: str, facts: dict, gemm: float, results: list[dict], extra: dict, args, wall: float, left=None
) -> None:
    lines = [
        "# sporax bench results",
        "",
        *(
            [f"**Partial: written while the run went on; not finished: {', '.join(left) or 'the rest'}.**", ""]
            if left is not None
            else []
        ),
        f"Generated by `python bench/run_all.py{' --quick' if args.quick else ''}` in {wall / 60:.1f} min "
        f"on {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}. Regenerate with the same command.",
        "",
        "## Machine and settings",
        "",
        *[f"- {k}: {v}" for k, v in facts.items()],
        f"- load average (1/5/15 min) at the end: {' / '.join(f'{v:.1f}' for v in os.getloadavg())}",
        "- every process pinned to one core (`taskset -c`), OMP_NUM_THREADS=MKL_NUM_THREADS=1, "
        f"XLA_FLAGS=`{XLA_ONE_THREAD}`, torch.set_num_threads(1); parts run in {len(args.cores.split(','))} "
        f"lane(s), one per core ({args.cores}): a workload's sides (sporax, JAX, PyTorch, MindSpore) all on its "
        f"lane's core, their rounds alternating; the MNIST epoch, the pipelines and the variable-length bench on "
        f"core {CORE}",
        f"- measured float32 GEMM peak of the core (XLA, 1024^3 matmul, best of 10): **{gemm:.1f} GFLOP/s**",
        f"- {args.rounds} rounds per small workload (at most 3 for the example models), one round per side in "
        "turn (alternating); medians per side",
        "",
    ]
    if (
        facts.get("load average (1/5/15 min) at start", "0").split(" / ")[0]
        and float(facts["load average (1/5/15 min) at start"].split(" / ")[0]) > 1.5
    ):
        lines += [
            "**This run was on a shared, loaded 2-core machine** (see the load averages): absolute times are "
            "inflated and noisy; the ratios, measured side by side in the same rounds, are what count.",
            "",
        ]
    lines += [
        "## Train step, ms per step (median) and ratio to sporax GRAPH",
        "",
        "GRAPH: the workload's compiled step; PyNative: the same step run eagerly (PYNATIVE_MODE); sink: the "
        "GRAPH step inside one compiled `scan_steps` program over `sink` steps (what `data_sink`/"
        "`dataset_sink_mode` run), per step; jax: the hand-written `jax.jit` + optax twin "
        "(bench_train_step.py for the MLP and LeNet5, bench/jax_twins.py for the example models: same "
        "architecture, initial weights, loss, optimizer and batch, its losses checked against sporax's before "
        "timing); torch: the same model in PyTorch CPU; mindspore: the same step on MindSpore 2.10's CPU wheel "
        "(bench_mindspore.py), GRAPH_MODE and PYNATIVE_MODE, each in its own process.",
        "",
        *step_table(results, gemm),
        "",
        "## Work, compile time and memory",
        "",
        "GFLOP/step: XLA's cost analysis of the compiled GRAPH step; % of GEMM peak: that work over the GRAPH "
        "step's median time, against the core's GEMM rate above. Compile s: each side's first step minus its "
        "median step (sporax GRAPH and the JAX twin: tracing, lowering and XLA's compile; sporax sink: the first "
        "call of the scanned program minus its steps; MindSpore GRAPH: its graph compile; torch.compile: building "
        "the model and its first two steps minus two steps, i.e. Dynamo's trace and Inductor's compile).",
        "",
        *work_table(results, gemm),
    ]
    notes = [f"- {r['name']}: {n}" for r in results for n in r["notes"]]
    if notes:
        lines += ["", "Notes:", "", *notes]
    lines += ["", "## Goals (issue 17)", "", *goal_lines(results, extra), ""]
    lines += ["## What stands in the way", "", findings(results, facts, gemm)]
    ep = extra.get("epoch", {})
    lines += ["## MNIST epoch end to end and the input pipeline alone", ""]
    lines += [
        "examples/lenet_mnist.py (MnistDataset -> Resize -> Rescale -> HWC2CHW -> TypeCast -> shuffle -> batch(32), "
        "LeNet5, Momentum, Model.train), seconds per epoch (first includes compilation; steady = best later; sporax 2 "
        "epochs, MindSpore 1: its CPU epoch takes minutes on one core):",
        "",
        "| side | first epoch s | steady epoch s |",
        "|---|---|---|",
        *[f"| {k} | {v['first']:.2f} | {v['steady']:.2f} |" for k, v in ep.get("epoch", {}).items()],
        "",
        "The seed's pipeline alone (bench_dataset.py, 2 workers, best epoch), images/s:",
        "",
        *[f"- {k}: {v:,.0f}" for k, v in ep.get("pipeline", {}).items()],
        *[f"- note: {n}" for n in ep.get("notes", [])],
        "",
        *([ep["imagenet"][0] + ":", "", *ep["imagenet"][1], ""] if ep.get("imagenet") else []),
        *(
            [
                "The same pipeline with 2 workers on both cores, run alone after the other parts. "
                + ep["imagenet_both"][0]
                + ":",
                "",
                *ep["imagenet_both"][1],
                "",
            ]
            if ep.get("imagenet_both")
            else []
        ),
        *([PIPELINE_FINDINGS] if ep.get("imagenet") or ep.get("imagenet_both") else []),
    ]
    if extra.get("varlen"):
        lines += ["## Variable-length batches", "", *extra["varlen"], ""]
    from run_gpu import gpu_section  # bench/RESULTS_gpu.md (run_gpu.py on a lent GPU), or how to make it

    lines += gpu_section()
    lines += ["## Where the time goes (sporax profiler, GRAPH step)", ""]
    lines += [
        "`sporax.profiler.Profiler` around a few GRAPH steps, `analyse()`'s op_statistic.csv: the top operator "
        "types and their share of the operators' time; 'ops / wall' is the operators' total over the wall time "
        "of the profiled steps (the rest: host dispatch, state plumbing, profiler overhead; above 100% where a "
        "`while` loop's time also counts the operators inside it).",
        "",
    ]
    for r in results:
        p = r.get("profile") or {}
        ops = p.get("ops") or []
        if not ops:
            continue
        total = ops[-1]["total_us"]
        lines += [
            f"**{r['name']}** (ops / wall: {total / p['wall_us'] * 100:.0f}%, {p['steps']} steps)",
            "",
            "| op | count | total us | share |",
            "|---|---|---|---|",
            *[f"| {o['op']} | {o['count']} | {o['total_us']:.0f} | {o['ratio']:.1f}% |" for o in ops[:-1]],
            "",
        ]
    with open(path, "w") as f:
        f.write("\n".join(lines))


# rough minutes of each part on an idle machine, longest first: the lanes take the longest part left
COST = {"resnet18": 4, "epoch": 3.5, "lstm": 2.5, "transformer": 2.5, "resnet18_small": 2, "lenet_b32": 1.5}


def run_lanes(names: list[str], args, log, done=None) -> tuple[list[dict], dict]:
    """The workloads, the MNIST epoch and the variable-length bench, on ``args.cores``: one lane per core,
    each lane running one part at a time (all of a workload's processes pinned to the lane's core, so its
    sides still alternate on one core); the epoch and the variable-length bench go to the first lane (they
    pin to ``BENCH_CORE``). Returns the workloads' results in ``names`` order and the extra sections;
    ``done(results, extra)`` (if given) is called after each part with what is finished so far."""
    import queue
    import threading

    cores = args.cores.split(",")
    parts = sorted(names, key=lambda n: -COST.get(n, 1))
    fixed = ([] if args.no_epoch else ["epoch"]) + ["varlen"]
    todo: queue.Queue = queue.Queue()
    for part in parts:
        todo.put(part)
    results: dict[str, dict] = {}
    extra: dict = {}

    def run_part(part: str, core: str) -> None:
        if part == "epoch":
            extra["epoch"] = bench_epoch(args.quick, log, args.ms_epoch)
            return
        if part == "varlen":
            try:
                from bench_varlen import varlen_lines

                extra["varlen"] = varlen_lines(log)
            except ImportError:
                pass
            return
        wl = dict(WORKLOADS[part])
        if args.quick:
            wl.update(QUICK.get(part, {}))
        try:
            rounds = min(args.rounds, 3) if wl["kind"] == "model" else args.rounds
            tc = not (args.quick and wl.get("big"))
            results[part] = bench_workload(part, wl, rounds, tc, log, core, args.lock)
        except Exception as exc:  # noqa: BLE001
            log(f"  {part} failed: {exc}")
            results[part] = {
                "name": part,
                "cfg": wl["cfg"],
                "steps": wl["steps"],
                "sink": wl["sink"],
                "notes": [str(exc)],
            }

    lock = threading.Lock()

    def finished() -> tuple[list[dict], dict]:
        return [results[n] for n in names if n in results], extra

    def run_and_report(part: str, core: str) -> None:
        run_part(part, core)
        if done is not None:
            with lock:
                done(*finished())

    def lane(core: str, first: list[str]) -> None:
        for part in first:
            run_and_report(part, core)
        while True:
            try:
                part = todo.get_nowait()
            except queue.Empty:
                return
            log(f"  core {core}: {part}")
            run_and_report(part, core)

    threads = [threading.Thread(target=lane, args=(c, fixed if c == CORE else [])) for c in cores]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if CORE not in cores:  # the epoch and varlen pin to BENCH_CORE: after the lanes
        for part in fixed:
            run_and_report(part, CORE)
    return finished()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="about 5 minutes: fewer rounds and steps")
    ap.add_argument("--only", default="", help="comma-separated workloads (default all)")
    ap.add_argument("--rounds", type=int, default=None)
    ap.add_argument("--no-epoch", action="store_true", help="skip the MNIST epoch and pipeline")
    ap.add_argument("--ms-epoch", action="store_true", help="also MindSpore's MNIST epoch (minutes)")
    ap.add_argument(
        "--lock",
        help="hold an exclusive flock on this file while each workload's sides are timed (not while they "
        "build and compile), e.g. /tmp/sporax_bench.lock",
    )
    ap.add_argument("--json", help="also write the raw results to this JSON file")
    ap.add_argument("--out", default=os.path.join(HERE, "RESULTS.md"))
    ap.add_argument(
        "--cores",
        default=f"{CORE},{0 if CORE != '0' else 1}" if (os.cpu_count() or 1) > 1 else CORE,
        help="cores to run parts on, one lane each (default: two; '1' runs everything on core 1 in turn)",
    )
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--wl", help=argparse.SUPPRESS)
    ap.add_argument("--mode", default="graph", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker == "gemm":
        return gemm_worker()
    if args.worker:
        return sporax_worker(args.worker, json.loads(args.wl), args.mode)
    args.rounds = args.rounds or (3 if args.quick else 5)
    start = time.perf_counter()

    def log(msg: str) -> None:
        print(f"[{time.perf_counter() - start:6.0f}s] {msg}", flush=True)

    facts = machine_facts()
    log(json.dumps(facts))
    gw = Worker([sys.executable, os.path.abspath(__file__), "--worker", "gemm"])
    gemm = gw.ask(n=1024)["gflops"]
    gw.close()
    log(f"GEMM peak {gemm:.1f} GFLOP/s")
    names = [n for n in (args.only.split(",") if args.only else WORKLOADS)]

    def partial(results: list[dict], extra: dict) -> None:  # RESULTS.md so far, in case the run is cut short
        left = [n for n in names if n not in {r["name"] for r in results}]
        write_results(args.out, facts, gemm, results, extra, args, time.perf_counter() - start, left)

    results, extra = run_lanes(names, args, log, partial)
    cores = args.cores.split(",")
    if not args.no_epoch and len(cores) > 1:
        # the ImageNet-style pipeline with 2 workers on both cores: alone on the machine, after the lanes
        import bench_dataset

        log(f"imagenet pipeline, 2 workers on cores {args.cores}")
        try:
            extra.setdefault("epoch", {})["imagenet_both"] = bench_dataset.imagenet(256, 5, 3, (2,), args.cores, log)
        except Exception as exc:  # noqa: BLE001  (reported; the rest of the results stand)
            extra.setdefault("epoch", {}).setdefault("notes", []).append(
                f"imagenet pipeline on both cores failed: {str(exc)[:200]}"
            )
    write_results(args.out, facts, gemm, results, extra, args, time.perf_counter() - start)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"facts": facts, "gemm": gemm, "results": results, "extra": extra}, f, default=str)
    log(f"wrote {args.out}")


if __name__ == "__main__":
    main()
