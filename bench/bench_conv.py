"""Convolution/pooling lowerings on XLA:CPU, side by side: a train step (GRAPH_MODE ``@jit`` around
``value_and_grad`` + SGD), per step and inside ``scan_steps`` (sink mode). Models: ``lenet`` (LeNet5,
batch 32, 1x32x32) and ``cnn`` (four 3x3 convs of 16/32 channels on 3x32x32, batch 32, one max-pool).

Variants (DESIGN §5; ``sporax.ops._lowering.force_lowering``):

* ``plain``: ``lax.conv`` NCHW + ``reduce_window`` max-pool (autodiff: ``select_and_scatter``);
* ``laxconv``: ``lax.conv`` + the reshape max-pool with its mask VJP (the state before the CPU lowerings);
* ``gemm-noopt``: every conv as im2col + GEMM with a GEMM-written VJP, reshape max-pool, no compiler
  options;
* ``nhwc``: every conv as canonical NHWC/HWIO Eigen convolutions with a canonical VJP;
* ``nophase``: ``auto`` without the 2x2 phase layout (GEMM convolutions write [C, B, H, W], the CPU
  max-pool reshapes that and builds its mask per window offset: the state before the phase layout);
* ``auto``: what CPU runs by default (per conv: ``gemm`` for small im2col matrices, ``nhwc`` above),
  compiled with the options the lowerings request (YNNPACK library fusion for dots/convs only).

``plain``, ``laxconv`` and ``gemm-noopt`` compile without any compiler options.
All variants start from the same weights and must agree (loss and weights after the timed steps).
Timing rounds alternate between variants (this machine is shared); per-variant medians of process CPU
time (not wall time, which other processes inflate) are reported. Run pinned to one core:

    taskset -c 1 python bench/bench_conv.py

Two more modes:

* ``--convs``: each convolution of ResNet-18 (CIFAR stem, batch 64, width 64) and LeNet5 (batch 32)
  through ``conv2d_array`` as CPU runs it, timed separately as forward, input gradient and weight gradient
  (``jax.vjp`` against one operand; XLA drops the other's gradient), beside PyTorch CPU
  (``aten.convolution_backward``) on the same shapes and the GEMM of the same size (M = N*OH*OW,
  K = C*kh*kw, N = O), as a fraction of the core's GEMM peak (a 1024^3 matmul, measured in the run).
  ``--lowering`` forces one lowering for the sporax side.
* ``--ab DIR``: whole train steps (``--cases``: resnet18 (batch 64, width 64) and resnet18_small (16, 16),
  bench_models' example network, and lenet_b32) of the sporax in ``DIR`` (a checkout of the package:
  ``mkdir DIR && git archive HEAD sporax | tar -x -C DIR``) against this tree's, the JAX twin and PyTorch
  eager (bench_models' worker): each side a pinned worker process, rounds alternating, medians of process
  CPU time and of wall time (PyTorch's worker reports wall time: compared on wall time); compile seconds
  of the first step.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

os.environ.setdefault("XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1")

import jax
import numpy as np

import sporax as ms
from sporax import Tensor, nn
from sporax._engine import scan_steps
from sporax.ops._lowering import force_lowering

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _common  # noqa: E402
import bench_models  # noqa: E402

VARIANTS = {  # conv lowering, max-pool lowering, compiler options (None: what the lowerings request), phases
    "plain": ("plain", "plain", {}, None),
    "laxconv": ("plain", "reshape", {}, None),
    "gemm-noopt": ("gemm", None, {}, None),
    "nhwc": ("nhwc", None, None, None),
    "nophase": (None, None, None, False),
    "auto": (None, None, None, None),
}


_, LeNet5 = bench_models.small_cells(nn)  # ModelZoo's LeNet5 with its loss, as the other benches run it


class CNN(nn.Cell):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(3, 16, 3, has_bias=True)
        self.c2 = nn.Conv2d(16, 16, 3, has_bias=True)
        self.c3 = nn.Conv2d(16, 32, 3, stride=2, has_bias=True)
        self.c4 = nn.Conv2d(32, 32, 3, has_bias=True)
        self.relu = nn.ReLU()
        self.pool = nn.MaxPool2d(2, 2)
        self.flatten = nn.Flatten()
        self.fc = nn.Dense(32 * 8 * 8, 10)
        self.loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")

    def construct(self, x, y):
        h = self.relu(self.c2(self.relu(self.c1(x))))
        h = self.pool(self.relu(self.c4(self.relu(self.c3(h)))))
        return self.loss_fn(self.fc(self.flatten(h)), y)


MODELS = {"lenet": (LeNet5, (1, 32, 32)), "cnn": (CNN, (3, 32, 32))}


class Runner:
    """One variant: a per-step function and a sink function, traced under its lowering."""

    def __init__(self, name: str, model: type, init: dict, lr: float = 1e-2) -> None:
        self.name = name
        self.conv, self.pool, options, self.phases = VARIANTS[name]
        self.net = model()
        for p in self.net.trainable_params():
            p.set_data(Tensor(init[p.name]))
        opt = nn.SGD(self.net.trainable_params(), lr)
        grad_fn = ms.value_and_grad(self.net, None, opt.parameters)

        def body(x, y):
            loss, grads = grad_fn(x, y)
            opt(grads)
            return loss

        self.step = ms.jit(body)
        self.sink = ms.jit(lambda xs, ys: scan_steps(lambda row: body(*row), (xs, ys)))
        for f in (self.step, self.sink):
            f.__sporax_jit__.compiler_options = options

    def __call__(self, fn, *args):
        with force_lowering(conv=self.conv, maxpool=self.pool, phases=self.phases):
            return fn(*args)

    def weights(self) -> dict:
        return {p.name: p.asnumpy() for p in self.net.trainable_params()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", choices=list(MODELS), default="lenet")
    ap.add_argument("--variants", nargs="*", default=list(VARIANTS))
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--steps", type=int, default=0, help="steps per timing round (per step and per sink)")
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--convs", action="store_true", help="per-convolution table (ResNet-18, LeNet5 layers)")
    ap.add_argument("--lowering", default=None, help="--convs: force this conv lowering on the sporax side")
    ap.add_argument("--only", default=None, help="--convs: only the layers whose name contains this")
    ap.add_argument("--ab", metavar="DIR", default=None, help="train steps: the sporax in DIR against this tree's")
    ap.add_argument("--cases", default="resnet18,lenet_b32", help="--ab: resnet18, resnet18_small, lenet_b32")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        return _common.serve(_step_worker)
    if args.convs:
        return conv_table(args)
    if args.ab:
        return ab_steps(args)
    print(f"jax {jax.__version__}, backend {jax.default_backend()}, affinity {sorted(os.sched_getaffinity(0))}")
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_seed(0)
    model, chw = MODELS[args.model]
    init = {p.name: p.asnumpy() for p in model().trainable_params()}
    rng = np.random.RandomState(0)
    n = args.steps or {"lenet": 40, "cnn": 6}[args.model]
    xs = rng.randn(n, args.batch, *chw).astype(np.float32)
    ys = rng.randint(0, 10, (n, args.batch)).astype(np.int32)
    x, y, txs, tys = Tensor(xs[0]), Tensor(ys[0]), Tensor(xs), Tensor(ys)

    runners = [Runner(v, model, init) for v in args.variants]
    # numerics: the same first loss, then the same weights after one sink of n steps
    losses = [float(r(r.step, x, y)) for r in runners]
    for r in runners:
        for p in r.net.trainable_params():
            p.set_data(Tensor(init[p.name]))
    sinks = [r(r.sink, txs, tys).asnumpy() for r in runners]
    ref_w = runners[0].weights()
    for r, loss, s in zip(runners, losses, sinks):
        if not np.isclose(loss, losses[0], rtol=1e-5):
            raise SystemExit(f"{r.name}: first loss {loss} differs from {runners[0].name}'s {losses[0]}")
        np.testing.assert_allclose(s, sinks[0], rtol=2e-4, atol=1e-5, err_msg=f"{r.name}: sink losses")
        for k, v in r.weights().items():
            np.testing.assert_allclose(v, ref_w[k], rtol=2e-3, atol=2e-5, err_msg=f"{r.name}: {k} after a sink")
    print(f"numerics agree: first loss {losses[0]:.6f}, {n}-step sink losses and weights")

    cpu = {r.name: ([], []) for r in runners}
    wall = {r.name: ([], []) for r in runners}
    for _ in range(args.rounds):
        for r in runners:
            for k, (fn, a) in enumerate(((r.step, (x, y)), (r.sink, (txs, tys)))):
                reps = n if k == 0 else 1
                t, c = time.perf_counter(), time.process_time()
                for _ in range(reps):
                    out = r(fn, *a)
                out.asnumpy()
                cpu[r.name][k].append((time.process_time() - c) / n)
                wall[r.name][k].append((time.perf_counter() - t) / n)
    print(f"{'variant':<10}{'step ms (cpu)':>15}{'scan ms/step':>14}{'step ms (wall)':>16}{'scan (wall)':>13}")
    for r in runners:
        med = [statistics.median(v) * 1e3 for v in (*cpu[r.name], *wall[r.name])]
        print(f"{r.name:<10}{med[0]:>15.2f}{med[1]:>14.2f}{med[2]:>16.2f}{med[3]:>13.2f}")
    ms.set_context(mode=ms.PYNATIVE_MODE)


# ------------------------------------------------------------------ per-convolution table (--convs)
# (name, batch, C, O, k, stride, pad, H): ResNet-18's CIFAR stem and stages at width 64, then LeNet5's
CONV_SHAPES = [
    ("r18 stem 3>64 32x32", 64, 3, 64, 3, 1, 1, 32),
    ("r18 l1 3x3 64>64 32x32", 64, 64, 64, 3, 1, 1, 32),
    ("r18 l2 3x3/2 64>128", 64, 64, 128, 3, 2, 1, 32),
    ("r18 l2 3x3 128 16x16", 64, 128, 128, 3, 1, 1, 16),
    ("r18 l2 1x1/2 64>128", 64, 64, 128, 1, 2, 0, 32),
    ("r18 l3 3x3/2 128>256", 64, 128, 256, 3, 2, 1, 16),
    ("r18 l3 3x3 256 8x8", 64, 256, 256, 3, 1, 1, 8),
    ("r18 l3 1x1/2 128>256", 64, 128, 256, 1, 2, 0, 16),
    ("r18 l4 3x3/2 256>512", 64, 256, 512, 3, 2, 1, 8),
    ("r18 l4 3x3 512 4x4", 64, 512, 512, 3, 1, 1, 4),
    ("r18 l4 1x1/2 256>512", 64, 256, 512, 1, 2, 0, 8),
    ("lenet c1 5x5 1>6 32x32", 32, 1, 6, 5, 1, 0, 32),
    ("lenet c2 5x5 6>16 14x14", 32, 6, 16, 5, 1, 0, 14),
]
# how many of each conv one ResNet-18 step runs (the rest once)
R18_COUNT = {"r18 l1 3x3 64>64 32x32": 4, "r18 l2 3x3 128 16x16": 3, "r18 l3 3x3 256 8x8": 3, "r18 l4 3x3 512 4x4": 3}


def _conv_operands(shape: tuple) -> tuple:
    _, b, c, o, k, s, p, h = shape
    oh = (h + 2 * p - k) // s + 1
    rng = np.random.RandomState(0)
    x, w, g = (rng.randn(*d).astype(np.float32) for d in ((b, c, h, h), (o, c, k, k), (b, o, oh, oh)))
    flops = 2.0 * b * oh * oh * c * o * k * k
    return x, w, g, flops, (b * oh * oh, c * k * k, o)


def _best(fn, reps: int = 3) -> float:
    """Minimum process CPU seconds of ``fn()`` over ``reps`` calls (after one warm-up call)."""
    fn()
    out = []
    for _ in range(reps):
        c = time.process_time()
        fn()
        out.append(time.process_time() - c)
    return min(out)


# PyTorch's side of --convs, run by PyTorch's interpreter (``-c``; this file imports jax): answers
# {"shape": CONV_SHAPES row} with the best-of-3 process CPU seconds of forward, dgrad and wgrad.
TORCH_CONV_WORKER = """
import json, sys, time, torch
torch.set_num_threads(1)
def best(fn, reps=3):
    fn()
    out = []
    for _ in range(reps):
        c = time.process_time(); fn(); out.append(time.process_time() - c)
    return min(out)
for line in sys.stdin:
    _, b, c, o, k, s, p, h = json.loads(line)["shape"]
    oh = (h + 2 * p - k) // s + 1
    x, w, g = torch.randn(b, c, h, h), torch.randn(o, c, k, k), torch.randn(b, o, oh, oh)
    def back(mask):
        return lambda: torch.ops.aten.convolution_backward(g, x, w, None, [s, s], [p, p], [1, 1], False, [0, 0], 1, mask)
    with torch.no_grad():
        fns = {"fwd": lambda: torch.nn.functional.conv2d(x, w, None, s, p),
               "dgrad": back([True, False, False]), "wgrad": back([False, True, False])}
        print(json.dumps({k: best(f) for k, f in fns.items()}), flush=True)
"""


def _sporax_convs(x, w, g, s: int, p: int) -> dict:
    """The three convolutions of one layer as compiled functions with their operands."""
    from sporax.ops import _lowering as L

    conv_args = ((s, s), [(p, p), (p, p)], (1, 1), 1)

    def conv(x, w):
        return L.conv2d_array(x, w, *conv_args)

    fns = {
        "fwd": (jax.jit(conv), (x, w)),
        "dgrad": (jax.jit(lambda x, w, g: jax.vjp(lambda x: conv(x, w), x)[1](g)[0]), (x, w, g)),
        "wgrad": (jax.jit(lambda x, w, g: jax.vjp(lambda w: conv(x, w), w)[1](g)[0]), (x, w, g)),
    }
    for f, a in fns.values():
        f(*a).block_until_ready()  # trace and compile now (under the caller's force_lowering)
    return fns


def conv_table(args) -> None:
    """Forward / input-gradient / weight-gradient seconds of each convolution, sporax beside PyTorch."""
    import jax.numpy as jnp

    from sporax.ops import _lowering as L

    print(f"jax {jax.__version__}, affinity {sorted(os.sched_getaffinity(0))}, lowering {args.lowering or 'auto'}")
    torch = _common.Worker([_common.TORCH_PYTHON, "-c", TORCH_CONV_WORKER])
    a = jnp.ones((1024, 1024), jnp.float32)
    mm = jax.jit(lambda a: a @ a)
    peak = 2 * 1024**3 / _best(lambda: mm(a).block_until_ready(), 10)
    print(f"GEMM peak (1024^3 matmul, best of 10): {peak / 1e9:.1f} GFLOP/s; per cell: ms (% of that peak)")
    head = "".join(f"{k:>13}" for k in ("fwd", "dgrad", "wgrad"))
    print(f"{'conv':<26}{'lowering':<9}{'GFLOP':>6}  {head}  {'gemm':>13}  | torch {head}")
    tot = {"sporax": 0.0, "torch": 0.0}
    gemm = jax.jit(lambda a, b: a @ b)
    for shape in CONV_SHAPES:
        name, _, _, _, _, s, p, _ = shape
        if args.only and args.only not in name:
            continue
        x, w, g, flops, (m, kk, n) = _conv_operands(shape)
        x, w, g = jnp.asarray(x), jnp.asarray(w), jnp.asarray(g)
        with force_lowering(conv=args.lowering):
            padded = jax.ShapeDtypeStruct((x.shape[0], x.shape[1], x.shape[2] + 2 * p, x.shape[3] + 2 * p), x.dtype)
            choice = args.lowering or L.conv_lowering(padded, w, (s, s), (1, 1), 1)
            fns = _sporax_convs(x, w, g, s, p)
        operands = (jnp.ones((m, kk), jnp.float32), jnp.ones((kk, n), jnp.float32))
        t_gemm = _best(lambda ab=operands: gemm(*ab).block_until_ready())
        ours = {key: _best(lambda f=f, a_=a_: f(*a_).block_until_ready()) for key, (f, a_) in fns.items()}
        theirs = torch.ask(shape=shape)
        count = R18_COUNT.get(name, 1) if name.startswith("r18") else 0
        tot["sporax"] += count * sum(ours.values())
        tot["torch"] += count * sum(theirs.values())

        def cell(t, flops=flops):
            return f"{t * 1e3:6.1f} ({flops / t / peak:4.0%})"

        print(
            f"{name:<26}{choice:<9}{flops / 1e9:>6.2f}  "
            + "".join(f"{cell(ours[key]):>13}" for key in fns)
            + f"  {cell(t_gemm):>13}  |       "
            + "".join(f"{cell(theirs[key]):>13}" for key in fns),
            flush=True,
        )
    torch.close()
    print(
        f"ResNet-18 step's convolutions (fwd + dgrad + wgrad, each layer times its count): sporax "
        f"{tot['sporax']:.2f} s, torch {tot['torch']:.2f} s"
    )


# ------------------------------------------------------------------ train steps, two checkouts (--ab)
# workload -> (example model, its config); lenet_b32 is bench_train_step's case
AB_CFG = {
    "resnet18": ("resnet18", {"batch": 64, "width": 64}),
    "resnet18_small": ("resnet18", {"batch": 16, "width": 16}),
}
AB_STEPS = {"resnet18": 1, "resnet18_small": 4, "lenet_b32": 50}
AB_TORCH = {"resnet18": "resnet18", "resnet18_small": "resnet18", "lenet_b32": "lenet"}
_STEPS: dict = {}


def _step_worker(req: dict) -> dict:
    """Build (first request: compile seconds) and time ``steps`` train steps of ``case`` (``side`` 'graph':
    sporax's GRAPH step; 'jax': its hand-written JAX twin, checked against sporax's first losses)."""
    import sporax

    case, n, side = req["case"], req["steps"], req.get("side", "graph")
    reply = {"sporax": os.path.dirname(sporax.__file__)}
    if case not in _STEPS:
        if case == "lenet_b32":
            import bench_train_step

            _STEPS[case] = bench_train_step.build_case(case, twin=True)
        else:
            import jax_twins

            model, cfg = AB_CFG[case]
            _STEPS[case] = jax_twins.twin_sides(model, cfg, bench_models.sporax_sides(model, cfg))
        t = time.perf_counter()
        _STEPS[case]["graph"]().asnumpy()
        reply["compile_s"] = time.perf_counter() - t
        if "jax" in _STEPS[case]:
            np.asarray(_STEPS[case]["jax"]())
    if side not in _STEPS[case]:
        return {**reply, "error": f"no {side} side: {_STEPS[case].get('check')}"}
    step = _STEPS[case][side]
    c, t = time.process_time(), time.perf_counter()
    for _ in range(n):
        loss = step()
    reply["loss"] = float(np.asarray(loss.asnumpy() if hasattr(loss, "asnumpy") else loss))
    reply["seconds"] = (time.process_time() - c) / n
    reply["wall"] = (time.perf_counter() - t) / n
    return reply


def ab_steps(args) -> None:
    """Rounds alternating: the sporax in DIR ('before'), this tree's ('after'), the JAX twin (in the
    'after' worker) and PyTorch eager; CPU seconds per step for the sporax sides and the twin, wall
    seconds for all (PyTorch's worker reports wall time). Load average before and after."""
    here = os.path.abspath(__file__)
    sides = {
        "before": _common.Worker([sys.executable, here, "--worker"], env={"PYTHONPATH": os.path.abspath(args.ab)}),
        "after": _common.Worker([sys.executable, here, "--worker"]),
    }
    bm = os.path.join(os.path.dirname(here), "bench_models.py")
    torch = (
        _common.Worker([_common.TORCH_PYTHON, bm, "--torch-worker"]) if os.path.exists(_common.TORCH_PYTHON) else None
    )
    print(f"rounds {args.rounds}; median per train step; before = {args.ab}; load {os.getloadavg()[0]:.2f}")
    for case in args.cases.split(","):
        n = AB_STEPS[case]
        cpu: dict = {}
        wall: dict = {}
        compile_s, where = {}, {}
        for _ in range(args.rounds):
            for name, wk, side in (
                ("before", sides["before"], "graph"),
                ("after", sides["after"], "graph"),
                ("jax", sides["after"], "jax"),
            ):
                r = wk.ask(case=case, steps=n, side=side)
                if "error" in r:
                    if name == "jax":
                        continue
                    raise SystemExit(f"{name}: {r['error']}")
                compile_s.setdefault(name, r.get("compile_s"))
                where[name] = r["sporax"]
                cpu.setdefault(name, []).append(r["seconds"])
                wall.setdefault(name, []).append(r["wall"])
            if torch is not None:
                cfg = {**AB_CFG[case][1], "steps": n} if case in AB_CFG else {"batch": 32, "steps": n}
                r = torch.ask(model=AB_TORCH[case], steps=n, cfg=cfg)
                if "seconds" in r:
                    wall.setdefault("torch", []).append(r["seconds"])
        med = {k: statistics.median(v) * 1e3 for k, v in cpu.items()}
        mwall = {k: statistics.median(v) * 1e3 for k, v in wall.items()}
        line = f"{case:<15} cpu ms: before {med['before']:.2f}, after {med['after']:.2f} ({med['after'] / med['before']:.2f}x)"
        if "jax" in med:
            line += f", jax twin {med['jax']:.2f} (after/twin {med['after'] / med['jax']:.2f}x)"
        line += " | wall ms: " + ", ".join(f"{k} {v:.2f}" for k, v in mwall.items())
        if "torch" in mwall:
            line += f" (after/torch {mwall['after'] / mwall['torch']:.2f}x, before/torch {mwall['before'] / mwall['torch']:.2f}x)"
        line += f" | compile s before {compile_s['before']:.1f} / after {compile_s['after']:.1f}"
        print(line, f"[{where['before']} vs {where['after']}]", flush=True)
    print(f"load {os.getloadavg()[0]:.2f}")
    for wk in (*sides.values(), *([torch] if torch else [])):
        wk.close()


if __name__ == "__main__":
    main()
