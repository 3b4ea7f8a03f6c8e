"""The LSTM classifier's train step (bench_models' ``lstm``: examples/sentiment_lstm_glove.py, 2-layer BiLSTM,
b32, T32, H128) in GRAPH mode and sunk (``scan_steps`` over ``--sink`` steps), alternating rounds, each side's
process CPU time and wall time per step (min and median over rounds: on the shared 2-core machine the CPU time
moves far less with the other processes' load than the wall time), then with ``--profile`` the XLA operations
of a few GRAPH steps: per operation its smallest per-step total over the steps (a step that another process
preempted counts its wait in the operations it interrupted; the minimum drops those).

    flock /tmp/sporax_bench.lock taskset -c 1 env OMP_NUM_THREADS=1 python bench/bench_lstm.py [--rounds 9] [--profile]
"""

from __future__ import annotations

import argparse
import collections
import glob
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

CFG = {"batch": 32, "seq": 32, "vocab": 5000, "embed": 100, "hidden": 128}


def _times(fn, calls: int, per_call: int) -> tuple[float, float]:
    c, w = time.process_time(), time.perf_counter()
    for _ in range(calls):
        fn()
    return (time.process_time() - c) / (calls * per_call), (time.perf_counter() - w) / (calls * per_call)


def profile(graph, steps: int = 8, top: int = 25) -> None:
    import jax

    from sporax._engine import _profiler

    out = tempfile.mkdtemp(prefix="bench_lstm_")
    jax.profiler.start_trace(out)
    for _ in range(steps):
        graph()
        time.sleep(0.02)  # a gap that separates the steps' operations
    jax.profiler.stop_trace()
    events = sorted(_profiler.xla_op_events(glob.glob(out + "/**/*.xplane.pb", recursive=True)[0]), key=lambda e: e[2])
    # one group per step: the 20 ms pause between steps separates them
    groups, last = [[]], None
    for ev in events:
        if last is not None and ev[2] - last > 10000:
            groups.append([])
        groups[-1].append(ev)
        last = ev[2] + ev[3]
    per_op = collections.defaultdict(list)
    for g in groups:
        total = collections.defaultdict(float)
        for _, op, _, dur in g:
            total[op] += dur
        for op, t in total.items():
            per_op[op].append(t)
    rows = sorted(((min(v), op) for op, v in per_op.items()), reverse=True)
    print(
        f"{len(groups)} steps; operators outside loops: {sum(t for t, op in rows if not op.startswith('while')):.0f} us"
    )
    for t, op in rows[:top]:
        print(f"  {op:48s} {t:9.1f} us" + ("  (loop: includes its body)" if op.startswith("while") else ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--steps", type=int, default=3, help="GRAPH steps per round")
    parser.add_argument("--sink", type=int, default=10, help="steps in one sunk call")
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()

    import bench_models
    import numpy as np

    import sporax as ms
    from sporax import Tensor
    from sporax._engine import scan_steps

    sides = bench_models.sporax_sides("lstm", CFG)
    graph = lambda: sides["graph"]().asnumpy()  # noqa: E731
    stacked = tuple(Tensor(np.stack([b.asnumpy()] * args.sink)) for b in sides["batch"])
    step = sides["step"]
    sunk = ms.jit(lambda *b: scan_steps(lambda r: step(*r), b))
    sink = lambda: sunk(*stacked).asnumpy()  # noqa: E731
    for fn in (graph, graph, sink, sink):
        fn()
    res = {"graph": [], "sink": []}
    for _ in range(args.rounds):
        res["graph"].append(_times(graph, args.steps, 1))
        res["sink"].append(_times(sink, 1, args.sink))
    print(f"load average {os.getloadavg()[0]:.1f}; ms per step, min / median over {args.rounds} rounds")
    for side, v in res.items():
        cpu, wall = zip(*v)
        print(
            f"  {side:6s} cpu {min(cpu) * 1e3:7.2f} / {statistics.median(cpu) * 1e3:7.2f}"
            f"   wall {min(wall) * 1e3:7.2f} / {statistics.median(wall) * 1e3:7.2f}"
        )
    cg, cs = (min(c for c, _ in res[k]) for k in ("graph", "sink"))
    print(f"  sink / GRAPH (cpu min) {cs / cg:.3f}")
    if args.profile:
        profile(graph)


if __name__ == "__main__":
    main()
