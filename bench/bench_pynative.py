"""The seed's train step in PyNative against the same step compiled (GRAPH_MODE), side by side in one process.

``pynative`` is the undecorated step (``value_and_grad`` + ``optimizer(grads)``: two compiled programs and the
host work between them, as PyNative runs it); ``graph`` is the same function under ``@jit`` (one program).
Rounds alternate between the two and switch ``set_context(mode=...)`` before each side's round (programs
are kept per mode: no round compiles anything), and the per-side median over rounds is reported with
PyNative/GRAPH. The goal (issue 17): PyNative <= 1.5x GRAPH on every workload.

Run pinned to one core, as bench/run_all.py does:

    flock /tmp/sporax_bench.lock taskset -c 1 env OMP_NUM_THREADS=1 python bench/bench_pynative.py
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

os.environ.setdefault("XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1")

from bench_models import small_sides  # noqa: E402

import sporax as ms  # noqa: E402


def _round(fn, steps: int) -> float:
    t = time.perf_counter()
    for _ in range(steps):
        loss = fn()
    loss.asnumpy()
    return (time.perf_counter() - t) / steps * 1e6


def bench(case: str, rounds: int, seconds: float, switch: bool = True) -> dict[str, float]:
    sides = small_sides(case, ms)
    modes = {"graph": ms.GRAPH_MODE, "pynative": ms.PYNATIVE_MODE}
    if not switch:  # both in PyNative: the @jit step compiles in either mode (for trees that recompile at a switch)
        modes["graph"] = ms.PYNATIVE_MODE
    for name, mode in modes.items():  # compile both, and warm up
        ms.set_context(mode=mode)
        for _ in range(20):
            sides[name]()
    ms.set_context(mode=ms.GRAPH_MODE)
    steps = max(10, int(seconds / (_round(sides["graph"], 50) * 1e-6)))
    times: dict[str, list[float]] = {name: [] for name in modes}
    for _ in range(rounds):
        for name, mode in modes.items():
            ms.set_context(mode=mode)
            times[name].append(_round(sides[name], steps))
    ms.set_context(mode=ms.PYNATIVE_MODE)
    return {name: statistics.median(ts) for name, ts in times.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", nargs="*", default=["mlp_b1", "mlp_b256", "lenet_b32"])
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--seconds", type=float, default=0.3, help="target time per timing round per side")
    ap.add_argument("--no-switch", action="store_true", help="run both sides in PYNATIVE_MODE")
    args = ap.parse_args()
    print(f"load average {os.getloadavg()}, affinity {sorted(os.sched_getaffinity(0))}")
    print(f"{'case':<12}{'graph us':>12}{'pynative us':>14}{'pynative/graph':>16}")
    for case in args.cases:
        r = bench(case, args.rounds, args.seconds, not args.no_switch)
        print(f"{case:<12}{r['graph']:>12.1f}{r['pynative']:>14.1f}{r['pynative'] / r['graph']:>15.2f}x")


if __name__ == "__main__":
    main()
